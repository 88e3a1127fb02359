#include "feedback/CacheBehaviour.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "compiler/print/PrintMcpl.h"
#include "feedback/AccessAddress.h"
#include "hdl/Schema.h"

namespace mcl::feedback {

namespace {

using hdl::BlockKind;
using hdl::DeviceNode;
using hdl::HardwareModel;

bool is_load_store(const DeviceNode& n) {
    return hdl::is_a(n.kind, BlockKind::LoadStoreUnit) || hdl::is_a(n.kind, BlockKind::LoadStoreGroup);
}

const DeviceNode* common_ancestor(const DeviceNode* a, const DeviceNode& b) {
    for (const DeviceNode* n = a; n; n = n->parent)
        if (n->contains(b)) return n;
    return nullptr;
}

bool endpoint_has(const hdl::Endpoint& e, const DeviceNode& node) {
    return std::find(e.nodes.begin(), e.nodes.end(), &node) != e.nodes.end();
}

// The lowest node containing the cache and the far ends of its interconnects.
const DeviceNode& cache_scope(const HardwareModel& model, const DeviceNode& cache) {
    const DeviceNode* scope = cache.parent ? cache.parent : &cache;
    for (const DeviceNode* ic : model.nodes_of_kind(BlockKind::Interconnect))
        for (const hdl::Connection& c : ic->connections) {
            const hdl::Endpoint* far = nullptr;
            if (endpoint_has(c.from, cache)) far = &c.to;
            if (endpoint_has(c.to, cache)) far = &c.from;
            if (!far) continue;
            for (const DeviceNode* n : far->nodes)
                if (const DeviceNode* a = common_ancestor(scope, *n)) scope = a;
        }
    return *scope;
}

// Instances of `n` inside `scope` (n == scope: 1); nullopt when unlimited.
std::optional<int64_t> instances_in(const DeviceNode& n, const DeviceNode& scope) {
    if (&n == &scope) return 1;
    int64_t total = 1;
    for (const DeviceNode* p = n.parent; p; p = p->parent) {
        if (p->units) {
            if (p->units->count.unlimited) return std::nullopt;
            total *= p->units->count.value;
        }
        if (p == &scope) break;
    }
    return total;
}

struct Reach {
    std::optional<int64_t> bound;       // units of the par_unit that reach the cache at once
    std::optional<int64_t> lock_step;   // width of a lock-step group of them
};

Reach reach(const HardwareModel& model, const DeviceNode& scope, const std::string& par_unit) {
    std::vector<const DeviceNode*> candidates;
    for (const DeviceNode* n : model.execution_units_for(par_unit))
        if (scope.contains(*n)) candidates.push_back(n);
    std::vector<const DeviceNode*> outermost;
    for (const DeviceNode* n : candidates) {
        bool nested = false;
        for (const DeviceNode* p = n->parent; p && !nested; p = p->parent) {
            nested = std::find(candidates.begin(), candidates.end(), p) != candidates.end();
            if (p == &scope) break;
        }
        if (!nested) outermost.push_back(n);
    }
    bool has_ls = std::any_of(outermost.begin(), outermost.end(), [](const DeviceNode* n) { return is_load_store(*n); });
    bool has_other = std::any_of(outermost.begin(), outermost.end(), [](const DeviceNode* n) { return !is_load_store(*n); });
    Reach r;
    if (!outermost.empty()) {
        int64_t total = 0;
        bool limited = true;
        for (const DeviceNode* n : outermost) {
            if (has_ls && has_other && !is_load_store(*n)) continue;
            std::optional<int64_t> count = instances_in(*n, scope);
            if (!count) {
                limited = false;
                break;
            }
            total += *count * n->slots_for(par_unit);
        }
        if (limited && total > 0) r.bound = total;
    }
    for (const DeviceNode* n : candidates) {
        if (!hdl::is_a(n->kind, BlockKind::LoadStoreUnit)) continue;
        for (const DeviceNode* p = n->parent; p; p = p->parent)
            if (hdl::is_a(p->kind, BlockKind::SimdGroup)) {
                if (p->units && !p->units->count.unlimited)
                    r.lock_step = p->units->count.value * n->slots_for(par_unit);
                break;
            }
        if (r.lock_step) break;
    }
    return r;
}

// No addressable memory inside an execution unit other than caches.
bool cache_only(const HardwareModel& model) {
    for (const DeviceNode* m : model.nodes_of_kind(BlockKind::Memory)) {
        if (hdl::is_a(m->kind, BlockKind::Cache) || !m->addressable || m->spaces.empty()) continue;
        for (const DeviceNode* p = m->parent; p; p = p->parent)
            if (p->is_execution()) return false;
    }
    return true;
}

std::optional<double> value_of(const Symbols& symbols, const GiNaC::ex& e) {
    return symbols.quantity("", e).value;
}


// "4*m" or "4*m (= 8192)" when it has a value and is not a number.

GiNaC::ex ceil_ex(double v) { return GiNaC::numeric(static_cast<long>(std::ceil(v - 1e-9))); }

}  // namespace

namespace {
}  // namespace

std::vector<Remark> cache_behaviour(const FeedbackInput& in) {
    std::vector<Remark> out;
    std::vector<const DeviceNode*> caches;
    for (const DeviceNode* c : in.model.nodes_of_kind(BlockKind::Cache))
        if (c->cache_line_size && *c->cache_line_size > 0) caches.push_back(c);
    if (caches.empty()) return out;
    const bool only_caches = cache_only(in.model);
    AddressAnalysis addresses(in.function, in.symbols);
    bool any_not_benefit = false;

    for (const Access& a : in.accesses) {
        const std::string what = "`" + mcpl::print_expr(*a.expr) + "`";
        std::optional<Address> addr;
        for (const DeviceNode* cache : caches) {
            if (std::find(cache->spaces.begin(), cache->spaces.end(), a.variable->memory_space) == cache->spaces.end())
                continue;
            if (!addr) addr = addresses.address(a);
            if (!addr->offset) {
                Remark r;
                r.kind = RemarkKind::Cache;
                r.location = a.expr->location;
                r.message = what + ": cache behaviour for cache " + cache->name + " unknown: " + addr->problem;
                r.approximate = true;
                out.push_back(std::move(r));
                continue;
            }
            const int64_t line = *cache->cache_line_size;
            const DeviceNode& scope = cache_scope(in.model, *cache);
            // An access that reads its elements again (a loop it does not
            // move in) is what a cache can help; one that streams through
            // its data fetches every line once whatever the cache does.
            bool reread = false;
            for (const Loop& loop : a.loops) reread |= addresses.stride(*addr->offset, loop).is_zero();
            for (const Loop& loop : a.loops) {
                GiNaC::ex stride = addresses.stride(*addr->offset, loop);
                std::optional<double> stride_value = value_of(in.symbols, stride);
                bool approximate = a.approximate || addr->rounded;
                std::vector<std::string> notes;
                enum class Class { Zero, Below, AtLeast } cls;
                if (stride.is_zero())
                    cls = Class::Zero;
                else if (stride_value)
                    cls = std::fabs(*stride_value) == 0 ? Class::Zero
                          : std::fabs(*stride_value) < static_cast<double>(line) ? Class::Below
                                                                                 : Class::AtLeast;
                else if (has_integer_division(stride)) {
                    cls = Class::AtLeast;
                    notes.push_back("it changes with an integer division; taken as at least a line");
                    approximate = true;
                } else {
                    cls = Class::AtLeast;
                    notes.push_back("assuming |" + Symbols::text(stride) + "| >= " + std::to_string(line));
                    approximate = true;
                }
                double abs_stride = stride_value ? std::fabs(*stride_value) : static_cast<double>(line);

                // Iterations, bounded by the units that reach the cache.
                Reach rc;
                std::string unit_name;
                if (loop.is_foreach) {
                    if (const hdl::ParGroup* g = in.model.find_par_group(loop.par_group)) {
                        unit_name = g->unit->name;
                        rc = reach(in.model, scope, unit_name);
                    }
                    bool rounded = false;
                    addresses.expression(*loop.stmt->count, &rounded);
                    approximate |= rounded;
                }
                std::optional<GiNaC::ex> n_eff = loop.iterations;
                if (!loop.iterations) approximate = true;
                if (rc.bound) {
                    std::optional<double> n_value = loop.iterations ? value_of(in.symbols, *loop.iterations) : std::nullopt;
                    if (n_value && *n_value <= static_cast<double>(*rc.bound)) {
                        n_eff = ceil_ex(*n_value);
                    } else {
                        n_eff = GiNaC::numeric(static_cast<long>(*rc.bound));
                        notes.push_back("at most " + std::to_string(*rc.bound) + " " + unit_name +
                                        "s reach the cache at once");
                    }
                }
                bool lock_step = loop.is_foreach && rc.lock_step && *rc.lock_step > 1;

                // A count is whole: n/1024 blocks of n = 1000 is one block
                // (divide_up taken as exact division), not 0.98.
                if (n_eff)
                    if (std::optional<double> v = value_of(in.symbols, *n_eff); v && *v != std::floor(*v))
                        n_eff = ceil_ex(*v);
                std::optional<GiNaC::ex> best, worst;
                if (n_eff) {
                    std::optional<double> n_value = value_of(in.symbols, *n_eff);
                    if (cls == Class::Zero) {
                        best = GiNaC::ex(1);
                    } else if (cls == Class::AtLeast) {
                        best = *n_eff;
                    } else if (n_value) {
                        best = ceil_ex(std::max(1.0, *n_value * abs_stride / static_cast<double>(line)));
                    } else {
                        best = (*n_eff * GiNaC::numeric(static_cast<long>(abs_stride)) / line).normal();
                    }
                    if (lock_step) {
                        double w = static_cast<double>(*rc.lock_step);
                        double per_group = cls == Class::Zero ? 1.0 : std::min(w, std::ceil(w * abs_stride / line - 1e-9));
                        if (n_value)
                            worst = ceil_ex(std::ceil(*n_value / w - 1e-9) * per_group);
                        else
                            worst = (*n_eff / *rc.lock_step * GiNaC::numeric(static_cast<long>(per_group))).normal();
                        notes.push_back("the " + std::to_string(*rc.lock_step) + " " + unit_name +
                                        "s of a lock-step group that read one line count once");
                    } else {
                        worst = *n_eff;
                    }
                }

                const char* verdict = cls == Class::AtLeast         ? "does not benefit"
                                      : (lock_step && cls != Class::AtLeast) ? "does benefit"
                                                                             : "may benefit";
                if (cls == Class::AtLeast) any_not_benefit = true;

                std::ostringstream msg;
                msg << what << " in loop `" << loop.index->name() << "` (line " << loop.stmt->location.line << ") "
                    << verdict << " from cache " << cache->name;
                if (best && worst) {
                    std::string best_text = with_value(in.symbols, *best);
                    msg << ", best case: " << best_text << (best_text == "1" ? " cache-line fetch" : " cache-line fetches")
                        << ", worst case: "
                        << with_value(in.symbols, *worst);
                } else {
                    msg << ", number of iterations unknown";
                }
                const std::string stride_words = stride_text(in.symbols, stride);
                msg << " (stride " << stride_words << (stride_words == "varying" ? ", " : " bytes, ") << line
                    << "-byte lines";
                for (const std::string& n : notes) msg << "; " << n;
                msg << ")";
                if (cls == Class::AtLeast && only_caches)
                    msg << "; " << in.model.name
                        << " keeps data on chip only in caches: make this access benefit from the cache";

                Remark r;
                r.kind = RemarkKind::Cache;
                r.location = a.expr->location;
                r.message = msg.str();
                // Loads that miss in one loop may hit in another: a modest,
                // per-loop cost.
                r.impact = cls == Class::AtLeast ? (reread ? 0.2 : 0.02) : lock_step ? 0.0 : 0.05;
                r.approximate = approximate;
                r.quantities.push_back(in.symbols.quantity("stride", stride));
                if (best) r.quantities.push_back(in.symbols.quantity("best_case_fetches", *best));
                if (worst) r.quantities.push_back(in.symbols.quantity("worst_case_fetches", *worst));
                out.push_back(std::move(r));
            }
        }
    }
    if (only_caches && any_not_benefit) {
        Remark r;
        r.kind = RemarkKind::Cache;
        r.location = in.function.location;
        r.message = in.model.name +
                    " has no on-chip memory other than its caches: make each access benefit from the cache "
                    "(see the remarks on accesses that do not benefit)";
        out.insert(out.begin(), std::move(r));
    }
    return out;
}

}  // namespace mcl::feedback
