#include "feedback/MemoryAccessRules.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

#include "compiler/print/PrintMcpl.h"
#include "feedback/AccessAddress.h"
#include "hdl/Schema.h"

namespace mcl::feedback {

namespace {

using hdl::BlockKind;
using hdl::DeviceNode;

constexpr int64_t kBankWidth = 4;  // bytes: 32-bit banks (assumption, see the header)

struct LockStep {
    const DeviceNode* group = nullptr;
    const DeviceNode* unit = nullptr;  // a load-store unit of the group
    std::string par_unit;
    int64_t width = 0;
};

std::vector<LockStep> lock_step_groups(const hdl::HardwareModel& model) {
    std::vector<LockStep> out;
    for (const DeviceNode* g : model.load_store_groups()) {
        const auto& uses = g->performance_feedback;
        if (std::none_of(uses.begin(), uses.end(),
                         [](const hdl::FeedbackFunctionUse& f) { return f.name == "load_store_optimality"; }))
            continue;
        if (!g->units || g->units->count.unlimited) continue;
        for (const auto& c : g->children) {
            if (!hdl::is_a(c->kind, BlockKind::LoadStoreUnit)) continue;
            for (const hdl::Slot& s : c->slots) {
                if (!model.find_par_unit(s.par_unit) || s.count <= 0) continue;
                out.push_back({g, c.get(), s.par_unit, g->units->count.value * s.count});
                break;
            }
            break;
        }
    }
    return out;
}

// The transaction size for `space` seen from the load-store unit: the line
// of a cache connected to it, else the smallest line of a cache holding it.
std::optional<int64_t> transaction_size(const hdl::HardwareModel& model, const std::string& space,
                                        const DeviceNode& ls_unit) {
    auto has = [](const hdl::Endpoint& e, const DeviceNode& n) {
        return std::find(e.nodes.begin(), e.nodes.end(), &n) != e.nodes.end();
    };
    std::vector<const DeviceNode*> interconnects = model.nodes_of_kind(BlockKind::Interconnect);
    std::optional<int64_t> direct, within, smallest;
    for (const DeviceNode* c : model.nodes_of_kind(BlockKind::Cache)) {
        if (!c->cache_line_size || *c->cache_line_size <= 0) continue;
        if (std::find(c->spaces.begin(), c->spaces.end(), space) == c->spaces.end()) continue;
        for (const DeviceNode* ic : interconnects)
            for (const hdl::Connection& k : ic->connections)
                if (!direct && ((has(k.from, *c) && has(k.to, ls_unit)) || (has(k.to, *c) && has(k.from, ls_unit))))
                    direct = *c->cache_line_size;
        if (!within && !model.interconnects_between(*c, ls_unit).empty()) within = *c->cache_line_size;
        if (!smallest || *c->cache_line_size < *smallest) smallest = *c->cache_line_size;
    }
    return direct ? direct : within ? within : smallest;
}



int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

namespace {
}  // namespace

std::vector<Remark> memory_access_rules(const FeedbackInput& in) {
    std::vector<Remark> out;
    std::vector<LockStep> groups = lock_step_groups(in.model);
    if (groups.empty()) return out;
    AddressAnalysis addresses(in.function, in.symbols);

    for (const Access& a : in.accesses) {
        const Loop* inner = nullptr;
        for (const Loop& l : a.loops)
            if (l.is_foreach) inner = &l;
        if (!inner) continue;
        const hdl::ParGroup* pg = in.model.find_par_group(inner->par_group);
        if (!pg) continue;
        auto ls = std::find_if(groups.begin(), groups.end(), [&](const LockStep& g) { return g.par_unit == pg->unit->name; });
        if (ls == groups.end()) continue;
        const std::string& space = a.variable->memory_space;
        // Private to each unit (registers, thread-local memory): no sharing of requests.
        if (const hdl::ParUnit* owner = in.model.memory_space_owner(space); owner && owner->name == ls->par_unit) continue;
        std::optional<int64_t> banks;
        bool addressable = false;
        for (const DeviceNode* m : in.model.memories_for_space(space)) {
            if (hdl::is_a(m->kind, BlockKind::Cache)) continue;
            addressable |= m->addressable;
            if (m->nr_banks && *m->nr_banks > 0 && m->addressable) banks = *m->nr_banks;
        }
        if (!addressable) continue;

        const std::string what = fmt::format("`{}`", mcpl::print_expr(*a.expr));
        const int64_t w = ls->width;
        const std::string units = std::to_string(w) + " " + ls->par_unit + "s";
        Remark r;
        r.kind = banks ? RemarkKind::BankConflicts : RemarkKind::Coalescing;
        r.location = a.expr->location;
        r.approximate = a.approximate;
        Address addr = addresses.address(a);
        if (!addr.offset) {
            r.message = what + ": " + (banks ? "bank conflicts" : "coalescing") + " unknown: " + addr.problem;
            r.approximate = true;
            out.push_back(std::move(r));
            continue;
        }
        r.approximate |= addr.rounded;
        GiNaC::ex stride = addresses.stride(*addr.offset, *inner);
        r.quantities.push_back(in.symbols.quantity("stride", stride));
        std::optional<double> sv = stride.is_zero() ? std::optional<double>(0.0) : in.symbols.quantity("", stride).value;
        std::vector<std::string> lacking = sv ? std::vector<std::string>{} : in.symbols.missing_values(stride);
        const std::string index = "`" + inner->index->name() + "`";
        std::ostringstream msg;
        msg << what << ": ";

        if (banks) {
            const int64_t b = *banks;
            if (!sv) {
                msg << "bank conflicts unknown: the stride between consecutive " << ls->par_unit << "s (" << index
                    << ") is " << Symbols::text(stride) << " bytes; " << needs_values_text(lacking);
                r.approximate = true;
            } else {
                double s = std::fabs(*sv);
                int64_t degree = 1;
                if (s == 0) {
                    msg << "no bank conflicts: all " << units << " of a lock-step group read one word (broadcast)";
                } else if (s < kBankWidth || std::fmod(s, kBankWidth) != 0) {
                    if (std::fmod(s, kBankWidth) != 0 && s > kBankWidth) r.approximate = true;
                    int64_t words = static_cast<int64_t>(std::floor(s / kBankWidth));
                    if (words == 0) {
                        msg << "no bank conflicts: consecutive " << ls->par_unit << "s access the same or adjacent "
                            << kBankWidth << "-byte words (stride " << number_text(s) << " bytes)";
                    } else {
                        int64_t g = std::gcd(words, b);
                        degree = ceil_div(w, b / g);
                        msg << degree << "-way bank conflicts (about; stride " << number_text(s)
                            << " bytes is not a whole number of words)";
                    }
                } else {
                    int64_t words = static_cast<int64_t>(s / kBankWidth);
                    int64_t g = std::gcd(words, b);
                    degree = std::max<int64_t>(1, ceil_div(w, b / g));
                    if (degree <= 1)
                        msg << "no bank conflicts: the " << units << " of a lock-step group use distinct banks (stride "
                            << words << (words == 1 ? " word" : " words") << ", " << b << " banks)";
                    else
                        msg << degree << "-way bank conflicts: a stride of " << words << " words over " << b
                            << " banks puts " << degree << " of the " << units
                            << " of a lock-step group in one bank; the access is serialised " << degree
                            << " times (make the stride an odd number of words, e.g. by padding the array)";
                }
                r.quantities.push_back(in.symbols.quantity("conflict_degree", GiNaC::ex(degree)));
            }
            r.message = msg.str();
            out.push_back(std::move(r));
            continue;
        }

        std::optional<int64_t> line = transaction_size(in.model, space, *ls->unit);
        const int64_t elem = addr.element_size;
        if (sv && *sv == 0) {
            msg << "broadcast: the " << units << " of a lock-step group read the same element"
                << (line ? " (1 memory transaction)" : "");
            if (line) r.quantities.push_back(in.symbols.quantity("transactions", GiNaC::ex(1)));
        } else if (sv && std::fabs(*sv) <= static_cast<double>(elem)) {
            msg << "coalesced: the " << units << " of a lock-step group access consecutive " << elem
                << "-byte elements";
            if (std::fabs(*sv) < static_cast<double>(elem)) msg << " (stride " << number_text(std::fabs(*sv)) << " bytes)";
            if (line) {
                int64_t t = ceil_div(w * elem, *line);
                msg << " (" << t << " memory transaction" << (t == 1 ? "" : "s") << " of " << *line << " bytes)";
                r.quantities.push_back(in.symbols.quantity("transactions", GiNaC::ex(t)));
            }
        } else {
            double s = sv ? std::fabs(*sv) : 0;
            msg << "not coalesced: consecutive " << ls->par_unit << "s (" << index << ") are "
                << (sv ? number_text(s) : Symbols::text(stride)) << " bytes apart";
            if (line) {
                int64_t optimal = ceil_div(w * elem, *line);
                int64_t t = w;
                if (sv) t = std::min<int64_t>(w, static_cast<int64_t>(std::ceil(w * s / *line - 1e-9)));
                msg << ": " << t << " memory transactions of " << *line << " bytes per lock-step group of " << units
                    << " instead of " << optimal;
                r.quantities.push_back(in.symbols.quantity("transactions", GiNaC::ex(t)));
            }
            if (!sv) {
                msg << " (assuming |" << Symbols::text(stride) << "| >= " << (line ? *line : elem) << "; "
                    << needs_values_text(lacking) << ")";
                r.approximate = true;
            }
        }
        r.message = msg.str();
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace mcl::feedback
