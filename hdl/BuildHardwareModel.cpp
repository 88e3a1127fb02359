#include "hdl/BuildHardwareModel.h"

#include <functional>
#include <map>

#include "hdl/Schema.h"

namespace mcl::hdl {

namespace {

class ModelBuilder {
public:
    ModelBuilder(const Description& d, const Resolution& r) : d_(d), resolution_(r) {}

    std::unique_ptr<HardwareModel> run() {
        auto m = std::make_unique<HardwareModel>();
        m->name = d_.name;
        m->parent = d_.specializes;
        m->location = d_.location;
        for (const auto& b : d_.blocks) {
            if (b->kind == BlockKind::Parallelism) build_parallelism(*m, *b);
        }
        const Block* device_block = d_.device_block();
        m->device = instantiate(*device_block, nullptr, d_.name);
        // Blocks outside the device that it does not include: the host and the
        // links to it.
        for (const auto& b : d_.blocks) {
            if (b.get() == device_block || !is_a(b->kind, BlockKind::Device) || instances_.count(b.get()))
                continue;
            m->outside.push_back(instantiate(*b, nullptr, d_.name + "." + b->name));
        }
        connect_endpoints();
        return m;
    }

private:
    void build_parallelism(HardwareModel& m, const Block& b) {
        m.parallelism_name = b.name;
        for (const ChildBlock& c : resolution_.children(b)) {
            if (c.block->kind == BlockKind::MemorySpace) m.memory_spaces.push_back(memory_space(*c.block));
            if (c.block->kind == BlockKind::ParGroup) m.outer_group = par_group(*c.block);
        }
    }

    static MemorySpace memory_space(const Block& b) {
        MemorySpace s{b.name, false, false, b.name_location};
        for (const Statement& st : b.statements)
            if (auto* f = std::get_if<FlagStmt>(&st)) {
                if (f->name == "default") s.is_default = true;
                if (f->name == "read_only") s.read_only = true;
            }
        return s;
    }

    std::unique_ptr<ParGroup> par_group(const Block& b) {
        auto g = std::make_unique<ParGroup>();
        g->name = b.name;
        g->location = b.name_location;
        g->units = unit_count(b);
        for (const ChildBlock& c : resolution_.children(b))
            if (c.block->kind == BlockKind::ParUnit) g->unit = par_unit(*c.block);
        return g;
    }

    std::unique_ptr<ParUnit> par_unit(const Block& b) {
        auto u = std::make_unique<ParUnit>();
        u->name = b.name;
        u->location = b.name_location;
        for (const ChildBlock& c : resolution_.children(b)) {
            if (c.block->kind == BlockKind::MemorySpace) u->memory_spaces.push_back(memory_space(*c.block));
            if (c.block->kind == BlockKind::ParGroup) u->group = par_group(*c.block);
        }
        return u;
    }

    static UnitCount unit_count(const Block& b) {
        for (const Statement& s : b.statements) {
            auto* p = std::get_if<PropertyStmt>(&s);
            if (!p || (p->name != "nr_units" && p->name != "max_nr_units")) continue;
            auto q = evaluate_quantity(p->value, p->unit, Dimension::Count, true);
            return UnitCount{p->name == "nr_units" ? UnitCount::Bound::Exact : UnitCount::Bound::Max,
                             std::get<Quantity>(q)};
        }
        return {};
    }

    std::unique_ptr<DeviceNode> instantiate(const Block& b, const DeviceNode* parent,
                                            const std::string& path) {
        auto n = std::make_unique<DeviceNode>();
        n->kind = b.kind;
        n->name = b.name;
        n->path = path;
        n->location = b.name_location;
        n->declaration = &b;
        n->parent = parent;
        instances_[&b].push_back(n.get());
        if (is_group(b.kind)) n->units = unit_count(b);
        read_properties(*n, b);
        for (const ChildBlock& c : resolution_.children(b)) {
            if (c.block->kind == BlockKind::Instructions) {
                read_operations(*n, *c.block);
                continue;
            }
            n->children.push_back(instantiate(*c.block, n.get(), path + "." + c.block->name));
        }
        if (!n->bandwidth && n->clock_frequency && n->width && n->kind == BlockKind::Interconnect) {
            n->bandwidth = Quantity{false, *n->clock_frequency * (*n->width / 8)};
            n->bandwidth_derived = true;
        }
        return n;
    }

    static int64_t integer(const Expr& e) {
        auto v = evaluate_integer(e);
        return std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : 0;
    }

    void read_properties(DeviceNode& n, const Block& b) {
        for (const Statement& s : b.statements) {
            if (auto* p = std::get_if<PropertyStmt>(&s)) {
                auto rule = property_rule(b.kind, p->name);
                if (!rule) continue;  // nr_units / max_nr_units, read by unit_count
                auto q = evaluate_quantity(p->value, p->unit, rule->dimension, rule->allow_unlimited);
                Quantity v = std::get<Quantity>(q);
                if (p->name == "capacity") n.capacity = v;
                else if (p->name == "cache_line_size") n.cache_line_size = v.value;
                else if (p->name == "nr_banks") n.nr_banks = v.value;
                else if (p->name == "addressable") n.addressable = v.value != 0;
                else if (p->name == "latency") n.latency = v.value;
                else if (p->name == "bandwidth") n.bandwidth = v;
                else if (p->name == "width") n.width = v.value;
                else if (p->name == "clock_frequency") n.clock_frequency = v.value;
            } else if (auto* a = std::get_if<ArgPropertyStmt>(&s)) {
                if (a->name == "space") n.spaces.push_back(a->args[0].name.parts[0]);
                else if (a->name == "slots") n.slots.push_back({a->args[0].name.parts[0], integer(a->args[1])});
                else if (a->name == "performance_feedback") n.performance_feedback.push_back({a->args[0].text, a->args[0].location});
                else if (a->name == "connects") pending_.push_back({&n, a});
            }
        }
    }

    void read_operations(DeviceNode& n, const Block& instructions) {
        for (const Statement& s : instructions.statements)
            if (auto* a = std::get_if<ArgPropertyStmt>(&s); a && a->name == "op") {
                const Expr& op = a->args[0];
                n.operations.push_back(
                    {op.kind == Expr::Kind::Operator ? std::string(1, op.op) : op.text, integer(a->args[1])});
            }
    }

    Endpoint endpoint(const Expr& e) {
        Endpoint ep{e.name.str(), e.kind == Expr::Kind::AllUnits, {}};
        if (const Block* target = resolution_.target(e.name)) {
            auto it = instances_.find(target);
            if (it != instances_.end()) ep.nodes.assign(it->second.begin(), it->second.end());
        }
        return ep;
    }

    // Endpoints are resolved once every block is instantiated, since a
    // connection may name a block that is included after it.
    void connect_endpoints() {
        for (auto& [node, stmt] : pending_)
            node->connections.push_back({endpoint(stmt->args[0]), endpoint(stmt->args[1])});
        pending_.clear();
    }

    const Description& d_;
    const Resolution& resolution_;
    std::map<const Block*, std::vector<const DeviceNode*>> instances_;
    std::vector<std::pair<DeviceNode*, const ArgPropertyStmt*>> pending_;
};

}  // namespace

std::unique_ptr<HardwareModel> build_hardware_model(const Description& d,
                                                    const Resolution& resolution) {
    return ModelBuilder(d, resolution).run();
}

}  // namespace mcl::hdl
