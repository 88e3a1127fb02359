#include "feedback/FasterMemory.h"

#include <algorithm>
#include <set>
#include <string>

#include "compiler/print/PrintMcpl.h"
#include "feedback/DataReuse.h"

namespace mcl::feedback {

namespace {

using hdl::DeviceNode;
using hdl::HardwareModel;

// What tells memories apart, for the units that execute the kernel.
struct MemoryRank {
    const DeviceNode* node = nullptr;
    std::optional<int64_t> latency;          // best interconnect to the units
    std::optional<hdl::Quantity> bandwidth;  // best interconnect to the units
    int proximity = -1;                      // depth of the deepest node holding it and a unit
};

int depth(const DeviceNode& n) {
    int d = 0;
    for (const DeviceNode* p = n.parent; p; p = p->parent) ++d;
    return d;
}

bool wider(const hdl::Quantity& a, const hdl::Quantity& b) {
    if (a.unlimited || b.unlimited) return a.unlimited && !b.unlimited;
    return a.value > b.value;
}

MemoryRank rank(const HardwareModel& model, const DeviceNode& memory, const std::vector<const DeviceNode*>& units) {
    MemoryRank r;
    r.node = &memory;
    for (const DeviceNode* unit : units) {
        for (const DeviceNode* ic : model.interconnects_between(memory, *unit)) {
            if (ic->latency && (!r.latency || *ic->latency < *r.latency)) r.latency = ic->latency;
            if (ic->bandwidth && (!r.bandwidth || wider(*ic->bandwidth, *r.bandwidth))) r.bandwidth = ic->bandwidth;
        }
        for (const DeviceNode* n = &memory; n; n = n->parent)
            if (n->contains(*unit)) {
                r.proximity = std::max(r.proximity, depth(*n));
                break;
            }
    }
    return r;
}

std::string bandwidth_text(const hdl::Quantity& q) {
    return q.unlimited ? "unlimited bandwidth" : std::to_string(q.value) + " B/s";
}

// > 0 when `a` is faster than `b`, < 0 when slower, 0 when nothing tells
// them apart; `why` says what decided.
int compare(const MemoryRank& a, const MemoryRank& b, std::string& why) {
    if (a.latency && b.latency && *a.latency != *b.latency) {
        why = "latency " + std::to_string(*a.latency) + " cycles vs " + std::to_string(*b.latency) + " cycles";
        return *a.latency < *b.latency ? 1 : -1;
    }
    if (a.bandwidth && b.bandwidth && !(*a.bandwidth == *b.bandwidth)) {
        why = bandwidth_text(*a.bandwidth) + " vs " + bandwidth_text(*b.bandwidth);
        return wider(*a.bandwidth, *b.bandwidth) ? 1 : -1;
    }
    if (a.proximity >= 0 && b.proximity >= 0 && a.proximity != b.proximity) {
        why = "closer to the execution units";
        if (a.proximity < b.proximity) why = "farther from the execution units";
        return a.proximity > b.proximity ? 1 : -1;
    }
    const auto& ca = a.node->capacity;
    const auto& cb = b.node->capacity;
    if (ca && cb && !(*ca == *cb)) {
        auto text = [](const hdl::Quantity& q) { return q.unlimited ? std::string("unlimited") : std::to_string(q.value) + " B"; };
        why = "capacity " + text(*ca) + " vs " + text(*cb);
        return wider(*cb, *ca) ? 1 : -1;
    }
    return 0;
}

// The fastest addressable memory (not a cache) that holds `space`.
std::optional<MemoryRank> memory_of(const HardwareModel& model, const std::string& space,
                                    const std::vector<const DeviceNode*>& units) {
    std::optional<MemoryRank> best;
    for (const DeviceNode* m : model.memories_for_space(space)) {
        if (hdl::is_a(m->kind, hdl::BlockKind::Cache) || !m->addressable) continue;
        MemoryRank r = rank(model, *m, units);
        std::string why;
        if (!best || compare(r, *best, why) > 0) best = r;
    }
    return best;
}

struct Proposal {
    std::string space;
    MemoryRank faster, current;
    std::string why;
    std::string sharing;  // "the threads of a block share it"
};

// A space visible to every unit of `par_group` held by a faster memory than
// the variable's space.
std::optional<Proposal> propose(const FeedbackInput& in, const std::string& par_group, const mcpl::Decl& variable) {
    const HardwareModel& model = in.model;
    std::vector<const hdl::ParGroup*> groups = model.par_groups();
    size_t k = 0;
    while (k < groups.size() && groups[k]->name != par_group) ++k;
    if (k == groups.size() || variable.memory_space.empty()) return std::nullopt;
    std::vector<const DeviceNode*> units = model.execution_units_for(model.executing_par_unit().name);
    std::optional<MemoryRank> current = memory_of(model, variable.memory_space, units);
    if (!current) return std::nullopt;

    std::vector<const hdl::MemorySpace*> visible;
    for (const hdl::MemorySpace& s : model.memory_spaces) visible.push_back(&s);
    for (size_t j = 0; j < k; ++j)
        for (const hdl::MemorySpace& s : groups[j]->unit->memory_spaces) visible.push_back(&s);

    std::optional<Proposal> best;
    for (const hdl::MemorySpace* s : visible) {
        if (s->name == variable.memory_space) continue;
        if (s->read_only) continue;  // filled by the host only (constant): a kernel cannot stage data there
        std::optional<MemoryRank> candidate = memory_of(model, s->name, units);
        if (!candidate || candidate->node == current->node) continue;
        std::string why;
        if (compare(*candidate, *current, why) <= 0) continue;
        std::string unused;
        if (best && compare(*candidate, best->faster, unused) <= 0) continue;
        best = Proposal{s->name, *candidate, *current, why, ""};
    }
    if (!best) return std::nullopt;
    std::string units_name = groups[k]->unit->name + "s";
    best->sharing = k == 0 ? "all " + units_name + " share it"
                           : "the " + units_name + " of a " + groups[k - 1]->unit->name + " share it";
    return best;
}

std::string explain(const Proposal& p, const std::string& variable_space) {
    return p.space + " memory can be leveraged: " + p.sharing + ", and memory " + p.faster.node->name + " (" +
           p.space + ") is faster than " + p.current.node->name + " (" + variable_space + "): " + p.why;
}

}  // namespace

std::vector<Remark> faster_memory_pass(const FeedbackInput& in) {
    std::vector<Remark> out;
    // One proposal per access and space: the outermost loop whose units
    // share the data (findings come outermost first) says it.
    std::set<std::pair<const mcpl::Expr*, std::string>> proposed;
    auto first = [&](const Access& a, const Proposal& p) { return proposed.insert({a.expr, p.space}).second; };
    for (const ReuseFinding& f : find_reuse(in)) {
        const Access& a = *f.access;
        const mcpl::Decl& variable = *a.variable;
        Remark r;
        r.kind = RemarkKind::FasterMemory;
        r.location = a.expr->location;
        r.approximate = f.approximate;
        std::string access = mcpl::print_expr(*a.expr);
        if (f.kind == ReuseFinding::Kind::Independent) {
            const Loop& l = *f.loop;
            if (!l.is_foreach) continue;
            std::optional<Proposal> p = propose(in, l.par_group, variable);
            if (!p || !first(a, *p)) continue;
            const hdl::ParGroup* group = in.model.find_par_group(l.par_group);
            std::string unit = group ? group->unit->name : l.par_group;
            r.message = "expression " + access + " is loaded for each " + unit + " " + l.index->name() +
                        " (line " + std::to_string(l.stmt->location.line) + "), the same element every time: " +
                        explain(*p, variable.memory_space);
            bool varies = false;
            if (l.iterations)
                r.quantities.push_back(
                    in.symbols.quantity("reuse", at_last_iteration(*l.iterations, a.loops, in.symbols, varies)));
            out.push_back(std::move(r));
        } else if (f.kind == ReuseFinding::Kind::Dimension) {
            // Pairs of loops of this dimension, outer first, with a foreach.
            bool reported = false;
            for (size_t x = 0; x < f.terms.size() && !reported; ++x)
                for (size_t y = x + 1; y < f.terms.size() && !reported; ++y) {
                    const Loop* outer = f.terms[x].loop->is_foreach ? f.terms[x].loop
                                        : f.terms[y].loop->is_foreach ? f.terms[y].loop
                                                                       : nullptr;
                    if (!outer) continue;
                    std::optional<ReuseRatio> ratio = reuse_ratio({f.terms[x], f.terms[y]});
                    if (!ratio || !may_exceed_one(in.symbols, *ratio)) continue;
                    std::optional<Proposal> p = propose(in, outer->par_group, variable);
                    if (!p) continue;
                    if (!first(a, *p)) {
                        reported = true;
                        continue;
                    }
                    NamedQuantity reuse = in.symbols.quantity("reuse", ratio->ratio);
                    r.message = "expression " + access + ": dimension " + std::to_string(f.dimension + 1) +
                                " is reused across loops " + f.terms[x].loop->index->name() + " and " +
                                f.terms[y].loop->index->name() + " (data-reuse ratio " + describe_ratio(reuse) +
                                "): " + explain(*p, variable.memory_space);
                    r.quantities.push_back(std::move(reuse));
                    out.push_back(r);
                    reported = true;
                }
        }
    }
    return out;
}

}  // namespace mcl::feedback
