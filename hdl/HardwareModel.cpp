#include "hdl/HardwareModel.h"

#include <algorithm>
#include <functional>

#include "hdl/Schema.h"

namespace mcl::hdl {

int64_t DeviceNode::slots_for(const std::string& par_unit) const {
    for (const Slot& s : slots)
        if (s.par_unit == par_unit) return s.count;
    return 0;
}

bool DeviceNode::is_execution() const {
    return is_a(kind, BlockKind::ExecutionUnit) || is_a(kind, BlockKind::ExecutionGroup);
}

Quantity DeviceNode::instance_count() const {
    Quantity total{false, 1};
    for (const DeviceNode* n = parent; n; n = n->parent) {
        if (!n->units) continue;
        if (n->units->count.unlimited) return Quantity{true, 0};
        if (__builtin_mul_overflow(total.value, n->units->count.value, &total.value))
            return Quantity{true, 0};
    }
    return total;
}

bool DeviceNode::contains(const DeviceNode& other) const {
    for (const DeviceNode* n = &other; n; n = n->parent)
        if (n == this) return true;
    return false;
}

std::vector<const ParGroup*> HardwareModel::par_groups() const {
    std::vector<const ParGroup*> out;
    for (const ParGroup* g = outer_group.get(); g; g = g->unit ? g->unit->group.get() : nullptr)
        out.push_back(g);
    return out;
}

const ParUnit& HardwareModel::executing_par_unit() const {
    return *par_groups().back()->unit;
}

const ParGroup* HardwareModel::find_par_group(const std::string& n) const {
    for (const ParGroup* g : par_groups())
        if (g->name == n) return g;
    return nullptr;
}

const ParUnit* HardwareModel::find_par_unit(const std::string& n) const {
    for (const ParGroup* g : par_groups())
        if (g->unit->name == n) return g->unit.get();
    return nullptr;
}

const MemorySpace* HardwareModel::find_memory_space(const std::string& n) const {
    for (const MemorySpace* m : all_memory_spaces())
        if (m->name == n) return m;
    return nullptr;
}

const ParUnit* HardwareModel::memory_space_owner(const std::string& n) const {
    for (const ParGroup* g : par_groups())
        for (const MemorySpace& m : g->unit->memory_spaces)
            if (m.name == n) return g->unit.get();
    return nullptr;
}

std::vector<const MemorySpace*> HardwareModel::all_memory_spaces() const {
    std::vector<const MemorySpace*> out;
    for (const MemorySpace& m : memory_spaces) out.push_back(&m);
    for (const ParGroup* g : par_groups())
        for (const MemorySpace& m : g->unit->memory_spaces) out.push_back(&m);
    return out;
}

template <typename F>
void HardwareModel::for_each_node(F&& f) const {
    std::function<void(const DeviceNode&)> walk = [&](const DeviceNode& n) {
        f(n);
        for (const auto& c : n.children) walk(*c);
    };
    if (device) walk(*device);
    for (const auto& o : outside) walk(*o);
}

std::vector<const DeviceNode*> HardwareModel::nodes_of_kind(BlockKind kind) const {
    std::vector<const DeviceNode*> out;
    for_each_node([&](const DeviceNode& n) {
        if (is_a(n.kind, kind)) out.push_back(&n);
    });
    return out;
}

std::vector<const DeviceNode*> HardwareModel::memories_for_space(const std::string& space) const {
    std::vector<const DeviceNode*> out;
    for (const DeviceNode* n : nodes_of_kind(BlockKind::Memory))
        if (std::find(n->spaces.begin(), n->spaces.end(), space) != n->spaces.end()) out.push_back(n);
    return out;
}

std::vector<const DeviceNode*> HardwareModel::execution_units_for(const std::string& par_unit) const {
    std::vector<const DeviceNode*> out;
    for_each_node([&](const DeviceNode& n) {
        if (n.is_execution() && n.slots_for(par_unit) > 0) out.push_back(&n);
    });
    return out;
}

std::vector<std::string> HardwareModel::par_group_path(const ParGroup& g) const {
    std::vector<std::string> path{parallelism_name};
    for (const ParGroup* at : par_groups()) {
        path.push_back(at->name);
        if (at == &g) break;
        path.push_back(at->unit->name);
    }
    return path;
}

int64_t HardwareModel::nr_processors(const std::string& par_unit) const {
    std::vector<const DeviceNode*> units = execution_units_for(par_unit);
    int64_t total = 0;
    for (const DeviceNode* n : units) {
        bool nested = std::any_of(units.begin(), units.end(),
                                  [&](const DeviceNode* other) { return other != n && other->contains(*n); });
        if (nested) continue;
        Quantity count = n->instance_count();
        if (count.unlimited || __builtin_add_overflow(total, count.value, &total)) return 0;
    }
    return total;
}

int64_t HardwareModel::simd_width(const std::string& par_unit) const {
    int64_t width = 0;
    for (const DeviceNode* group : simd_groups()) {
        if (!group->units || group->units->count.unlimited) continue;
        for (const auto& lane : group->children)
            if (lane->slots_for(par_unit) > 0) width = std::max(width, group->units->count.value);
    }
    return width;
}

std::vector<const DeviceNode*> HardwareModel::interconnects_between(const DeviceNode& memory,
                                                                    const DeviceNode& unit) const {
    auto touches = [](const Endpoint& e, const DeviceNode& target, bool containment) {
        for (const DeviceNode* n : e.nodes)
            if (n == &target || (containment && n->contains(target))) return true;
        return false;
    };
    std::vector<const DeviceNode*> out;
    for (const DeviceNode* ic : nodes_of_kind(BlockKind::Interconnect))
        for (const Connection& c : ic->connections) {
            bool forward = touches(c.from, memory, false) && touches(c.to, unit, true);
            bool backward = touches(c.to, memory, false) && touches(c.from, unit, true);
            if (forward || backward) {
                out.push_back(ic);
                break;
            }
        }
    return out;
}

const DeviceNode* HardwareModel::host_link() const {
    for (const auto& o : outside) {
        if (o->kind != BlockKind::Interconnect) continue;
        for (const Connection& c : o->connections) {
            auto inside = [&](const Endpoint& e) {
                for (const DeviceNode* n : e.nodes)
                    if (device && device->contains(*n)) return true;
                return false;
            };
            if (inside(c.from) != inside(c.to)) return o.get();
        }
    }
    return nullptr;
}

std::vector<const DeviceNode*> HardwareModel::simd_groups() const {
    return nodes_of_kind(BlockKind::SimdGroup);
}

std::vector<const DeviceNode*> HardwareModel::load_store_groups() const {
    return nodes_of_kind(BlockKind::LoadStoreGroup);
}

std::vector<std::string> HardwareModel::performance_feedback_names() const {
    std::vector<std::string> out;
    for_each_node([&](const DeviceNode& n) {
        for (const FeedbackFunctionUse& f : n.performance_feedback)
            if (std::find(out.begin(), out.end(), f.name) == out.end()) out.push_back(f.name);
    });
    return out;
}

}  // namespace mcl::hdl
