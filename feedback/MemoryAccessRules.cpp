#include "feedback/MemoryAccessRules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
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

// Whether `e` reads `index`, directly or through the initialisers of the
// locals it reads.
bool depends_on(const mcpl::Expr& e, const mcpl::Decl* index, int depth) {
    if (depth > 32) return false;
    if (e.kind == mcpl::Expr::Kind::Var && e.decl) {
        if (e.decl == index) return true;
        if (e.decl->init && depends_on(*e.decl->init, index, depth + 1)) return true;
        for (const auto& part : e.var)
            for (const auto& group : part.indices)
                for (const auto& i : group)
                    if (depends_on(*i, index, depth + 1)) return true;
        return false;
    }
    for (const auto& arg : e.args)
        if (depends_on(*arg, index, depth + 1)) return true;
    return false;
}

// Every memory holding `space` lies inside an execution unit.
bool on_chip_only(const hdl::HardwareModel& model, const std::string& space) {
    std::vector<const DeviceNode*> executors = model.nodes_of_kind(BlockKind::ExecutionUnit);
    bool any = false;
    for (const DeviceNode* m : model.memories_for_space(space)) {
        if (hdl::is_a(m->kind, BlockKind::Cache)) continue;
        any = true;
        if (std::none_of(executors.begin(), executors.end(), [&](const DeviceNode* e) { return e->contains(*m); }))
            return false;
    }
    return any;
}

// The byte offset of each unit of a lock-step group relative to its first
// unit: the index of the innermost foreach is W * g + lane for lanes 0 .. W-1
// of group g (consecutive units take consecutive values, groups start at a
// multiple of W). Each offset is split into a number of bytes and a
// symbolic part (`4*n` for the next row of a tile), with the example values
// of --param substituted.
struct LaneOffset {
    GiNaC::ex symbolic;  // 0 for most lanes
    int64_t bytes = 0;
};

using LanePattern = std::vector<LaneOffset>;

// The patterns of the lock-step groups. Usually one, the same for every
// group. When the offsets depend on which group it is (a division by a
// row width that is not a multiple of W: `k / inW` with k = r * 256 + t),
// the other loop indices and the group number are enumerated over their
// ranges (evenly sampled beyond kMaxGroups combinations), which needs
// their counts, and the pattern of each combination is returned. nullopt
// when that cannot be done (a count or a --param value is missing; the
// caller then judges the stride between the first two units).
constexpr int64_t kMaxGroups = 2048;

std::optional<std::vector<LanePattern>> lane_patterns(const GiNaC::ex& offset, const Access& access,
                                                      const Loop& inner, int64_t width, Symbols& symbols,
                                                      bool& sampled) {
    GiNaC::symbol index = symbols.symbol(inner.index->name());
    GiNaC::symbol group("lock_step_group");
    std::vector<GiNaC::ex> deltas;
    try {
        auto at = [&](int64_t lane) {
            return offset.subs(index == inner.start + inner.step * (width * group + lane)).expand();
        };
        GiNaC::ex first = at(0);
        for (int64_t lane = 0; lane < width; ++lane) deltas.push_back((at(lane) - first).expand());
    } catch (const std::exception&) {
        return std::nullopt;
    }
    auto split = [](const GiNaC::ex& d, LaneOffset& o) {
        GiNaC::ex number = 0;
        o.symbolic = 0;
        for (size_t i = 0; i < (GiNaC::is_a<GiNaC::add>(d) ? d.nops() : 1); ++i) {
            GiNaC::ex term = GiNaC::is_a<GiNaC::add>(d) ? d.op(i) : d;
            if (GiNaC::is_a<GiNaC::numeric>(term)) number += term;
            else o.symbolic += term;
        }
        if (!GiNaC::ex_to<GiNaC::numeric>(number).is_integer()) return false;
        o.bytes = GiNaC::ex_to<GiNaC::numeric>(number).to_long();
        return true;
    };
    auto is_function_free = [](const GiNaC::ex& e) {
        for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
            if (GiNaC::is_a<GiNaC::function>(*it)) return false;
        return true;
    };

    // The same for every group: a number, or a clean symbolic part (a row
    // n elements away), for each lane.
    bool same_for_all = true;
    for (const GiNaC::ex& d : deltas) same_for_all &= !d.has(group) && is_function_free(d);
    for (const Loop& l : access.loops)
        if (&l != &inner)
            for (const GiNaC::ex& d : deltas) same_for_all &= !d.has(symbols.symbol(l.index->name()));
    if (same_for_all) {
        LanePattern lanes(deltas.size());
        for (size_t l = 0; l < deltas.size(); ++l) {
            GiNaC::ex d = symbols.with_values(deltas[l]).expand();
            if (!split(d, lanes[l])) return std::nullopt;
        }
        return std::vector<LanePattern>{lanes};
    }

    // Enumerate the loop indices the offsets use (and the group number).
    struct Range {
        GiNaC::symbol symbol;
        GiNaC::ex start, step;
        int64_t count;
    };
    std::vector<Range> ranges;
    auto count_of = [&](const GiNaC::ex& iterations) -> std::optional<int64_t> {
        auto v = symbols.quantity("", iterations).value;
        if (!v || *v < 1) return std::nullopt;
        return static_cast<int64_t>(std::ceil(*v - 1e-9));
    };
    for (const Loop& l : access.loops) {
        if (&l == &inner) continue;
        GiNaC::symbol s = symbols.symbol(l.index->name());
        bool used = false;
        for (const GiNaC::ex& d : deltas) used |= d.has(s);
        if (!used) continue;
        if (!l.iterations) return std::nullopt;
        auto n = count_of(*l.iterations);
        if (!n) return std::nullopt;
        ranges.push_back({s, l.start, l.step, *n});
    }
    if (!inner.iterations) return std::nullopt;
    auto inner_count = count_of(*inner.iterations);
    if (!inner_count) return std::nullopt;
    ranges.push_back({group, 0, 1, (*inner_count + width - 1) / width});

    int64_t combinations = 1;
    for (const Range& r : ranges) combinations = std::min<int64_t>(combinations * r.count, int64_t{1} << 40);
    int64_t stride = std::max<int64_t>(1, combinations / kMaxGroups);
    sampled = stride > 1;
    std::vector<LanePattern> patterns;
    for (int64_t c = 0; c < combinations; c += stride) {
        GiNaC::exmap values;
        int64_t rest = c;
        for (const Range& r : ranges) {
            values[r.symbol] = r.start + r.step * GiNaC::numeric(static_cast<long>(rest % r.count));
            rest /= r.count;
        }
        LanePattern lanes(deltas.size());
        for (size_t l = 0; l < deltas.size(); ++l) {
            GiNaC::ex d = symbols.with_values(deltas[l].subs(values)).expand();
            if (auto v = symbols.quantity("", d).value) d = GiNaC::numeric(static_cast<long>(std::llround(*v)));
            if (!GiNaC::is_a<GiNaC::numeric>(d) || !split(d, lanes[l])) return std::nullopt;
        }
        patterns.push_back(std::move(lanes));
    }
    return patterns;
}

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Memory transactions of `line` bytes the lanes touch: distinct lines, a
// symbolic part taken to be at least a line away from the others.
int64_t transactions(const std::vector<LaneOffset>& lanes, int64_t line, int64_t element) {
    std::vector<std::pair<GiNaC::ex, int64_t>> seen;
    for (const LaneOffset& o : lanes)
        for (int64_t first = floor_div(o.bytes, line), last = floor_div(o.bytes + element - 1, line); first <= last;
             ++first) {
            bool known = false;
            for (const auto& [sym, l] : seen) known |= l == first && sym.is_equal(o.symbolic);
            if (!known) seen.emplace_back(o.symbolic, first);
        }
    return static_cast<int64_t>(seen.size());
}

// One stride between every two consecutive units, the same in every
// group: the stride rules judge it (and say it in their words).
bool uniform_stride(const std::vector<LanePattern>& patterns) {
    if (patterns.size() != 1) return false;
    const LanePattern& lanes = patterns.front();
    for (size_t l = 1; l < lanes.size(); ++l) {
        const auto k = static_cast<int64_t>(l);
        if (lanes[l].bytes != k * lanes[1].bytes || !(lanes[l].symbolic - k * lanes[1].symbolic).expand().is_zero())
            return false;
    }
    return true;
}

}  // namespace

namespace {

// The remark for lanes whose offsets are not one stride apart (a tile row
// narrower than the lock-step group, `t / T` and `t % T`): transactions or
// bank conflicts counted lane by lane, averaged over the groups when they
// differ. False when they cannot be counted (bank conflicts with a symbolic
// part: the caller says what is missing).
bool describe_lanes(const std::vector<LanePattern>& patterns, bool sampled, const LockStep& ls,
                    std::optional<int64_t> banks, std::optional<int64_t> line, int64_t element,
                    std::ostringstream& msg, Remark& r, Symbols& symbols) {
    const int64_t w = ls.width;
    const std::string units = std::to_string(w) + " " + ls.par_unit + "s";
    bool symbolic = false;
    for (const LanePattern& lanes : patterns)
        for (const LaneOffset& o : lanes) symbolic |= !o.symbolic.is_zero();
    // Average and most over the groups.
    auto summary = [&](const std::vector<int64_t>& counts) {
        double sum = 0;
        int64_t most = 0;
        for (int64_t c : counts) sum += static_cast<double>(c), most = std::max(most, c);
        double mean = sum / static_cast<double>(counts.size());
        std::string text = number_text(std::round(mean * 10) / 10);
        if (counts.size() > 1 && static_cast<double>(most) != mean)
            text = "on average " + text + " (at most " + std::to_string(most) + ", over " +
                   (sampled ? "a sample of " : "") + std::to_string(counts.size()) + " lock-step groups)";
        return std::make_pair(mean, text);
    };
    if (banks) {
        if (symbolic) return false;
        std::vector<int64_t> degrees;
        for (const LanePattern& lanes : patterns) {
            std::map<int64_t, std::set<int64_t>> words_per_bank;
            for (const LaneOffset& o : lanes) {
                int64_t word = floor_div(o.bytes, kBankWidth);
                words_per_bank[((word % *banks) + *banks) % *banks].insert(word);
            }
            size_t degree = 1;
            for (const auto& [bank, words] : words_per_bank) degree = std::max(degree, words.size());
            degrees.push_back(static_cast<int64_t>(degree));
        }
        auto [mean, text] = summary(degrees);
        if (mean <= 1)
            msg << "no bank conflicts: the " << units << " of a lock-step group use distinct banks or read the same "
                << "word (" << *banks << " banks)";
        else
            msg << text << "-way bank conflicts: that many of the " << units << " of a lock-step group read "
                << "different words of one bank, and the access is serialised as often (pad the array so that "
                << "these words fall in different banks)";
        r.quantities.push_back(symbols.quantity("conflict_degree", GiNaC::ex(GiNaC::numeric(mean))));
        r.impact = 1 - 1 / std::max(1.0, mean);
        return true;
    }
    if (!line) return false;
    std::vector<int64_t> counts;
    for (const LanePattern& lanes : patterns) counts.push_back(transactions(lanes, *line, element));
    auto [mean, text] = summary(counts);
    int64_t optimal = ceil_div(w * element, *line);
    r.quantities.push_back(symbols.quantity("transactions", GiNaC::ex(GiNaC::numeric(mean))));
    if (mean <= static_cast<double>(optimal)) {
        msg << "coalesced: the " << units << " of a lock-step group access " << text << " memory transaction"
            << (mean == 1 ? "" : "s") << " of " << *line << " bytes";
        return true;
    }
    msg << "not coalesced: the " << units << " of a lock-step group touch " << text << " memory transactions of "
        << *line << " bytes instead of " << optimal;
    r.impact = 1 - static_cast<double>(optimal) / mean;
    if (symbolic) {
        for (const LaneOffset& o : patterns.front())
            if (!o.symbolic.is_zero()) {
                msg << " (parts " << Symbols::text(o.symbolic) << " bytes apart, taken as more than a transaction; "
                    << needs_values_text(symbols.missing_values(o.symbolic)) << ")";
                break;
            }
        r.approximate = true;
    }
    return true;
}

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
        // Coalescing is about memory behind caches and an interconnect; an
        // on-chip memory without banks (gpu's `local`) serves the units
        // directly, and the description says nothing to judge it by.
        if (!banks && on_chip_only(in.model, space)) continue;

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
            r.impact = 0.3;
            out.push_back(std::move(r));
            continue;
        }
        r.approximate |= addr.rounded;
        // A `for` inside the lock-step loop that starts where the unit's
        // index says (`for (e = rowptr[r]; ...)` with r from the thread):
        // the units walk from different starts; in the offset its index is
        // that start plus the iterations done.
        std::string data_dependent_start, walking_loop;
        for (const Loop& l : a.loops) {
            if (l.is_foreach || &l <= inner || !l.stmt->decl || !l.stmt->decl->init ||
                !depends_on(*l.stmt->decl->init, inner->index, 0))
                continue;
            GiNaC::symbol index = in.symbols.symbol(l.index->name());
            if (!addr.offset->has(index)) continue;
            std::optional<GiNaC::ex> start = addresses.expression(*l.stmt->decl->init);
            if (!start) {
                data_dependent_start = fmt::format("`{}`", mcpl::print_expr(*l.stmt->decl->init));
                walking_loop = l.index->name();
                break;
            }
            addr.offset = addr.offset->subs(index == *start + index).expand();
        }
        if (!data_dependent_start.empty()) {
            r.message = fmt::format("{}: {} unknown: each {} starts loop `{}` at {}, which is read from memory: "
                                    "the {} of a lock-step group walk from unrelated places, most likely far apart "
                                    "(let the units of a lock-step group share one walk and take consecutive "
                                    "elements of it)",
                                    what, banks ? "bank conflicts" : "coalescing", ls->par_unit, walking_loop,
                                    data_dependent_start, units);
            r.approximate = true;
            r.impact = 0.6;
            out.push_back(std::move(r));
            continue;
        }
        GiNaC::ex stride = addresses.stride(*addr.offset, *inner);
        r.quantities.push_back(in.symbols.quantity("stride", stride));
        std::optional<double> sv = stride.is_zero() ? std::optional<double>(0.0) : in.symbols.quantity("", stride).value;
        std::vector<std::string> lacking = sv ? std::vector<std::string>{} : in.symbols.missing_values(stride);
        const std::string index = "`" + inner->index->name() + "`";
        std::ostringstream msg;
        msg << what << ": ";
        bool sampled = false;
        std::optional<std::vector<LanePattern>> patterns =
            lane_patterns(*addr.offset, a, *inner, w, in.symbols, sampled);
        std::optional<int64_t> line = banks ? std::nullopt : transaction_size(in.model, space, *ls->unit);
        if (patterns && !uniform_stride(*patterns) &&
            describe_lanes(*patterns, sampled, *ls, banks, line, addr.element_size, msg, r, in.symbols)) {
            r.message = msg.str();
            out.push_back(std::move(r));
            continue;
        }

        if (!sv && has_integer_division(stride)) {
            // The units are not one stride apart and lane_patterns could not
            // count them: the values it needs are missing.
            std::vector<std::string> needed;
            for (const std::string& name : in.symbols.missing_values(stride)) {
                bool is_index = false;
                for (const Loop& l : a.loops) is_index |= l.index->name() == name;
                if (!is_index) needed.push_back(name);
            }
            msg << (banks ? "bank conflicts" : "coalescing") << " unknown: the distance between consecutive "
                << ls->par_unit << "s changes with an integer division";
            r.impact = 0.3;
            if (!needed.empty()) msg << "; " << needs_values_text(needed);
            r.approximate = true;
            r.message = msg.str();
            out.push_back(std::move(r));
            continue;
        }
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
                r.impact = 1 - 1 / static_cast<double>(std::max<int64_t>(1, degree));
            }
            r.message = msg.str();
            out.push_back(std::move(r));
            continue;
        }

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
                r.impact = 1 - static_cast<double>(optimal) / static_cast<double>(std::max(t, optimal));
                r.quantities.push_back(in.symbols.quantity("transactions", GiNaC::ex(t)));
            } else {
                // No transaction size to count by: far apart is the more
                // costly the farther (a symbolic stride is taken as far).
                r.impact = sv ? std::min(0.97, 1 - static_cast<double>(elem) / std::max(s, 1.0)) : 0.9;
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
