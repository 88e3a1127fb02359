#include "hdl/ModelJson.h"

#include "hdl/Schema.h"

namespace mcl::hdl {

namespace {

using nlohmann::json;

json quantity(const Quantity& q) {
    return q.unlimited ? json("unlimited") : json(q.value);
}

json unit_count(const UnitCount& u) {
    return {{u.bound == UnitCount::Bound::Exact ? "nr_units" : "max_nr_units", quantity(u.count)}};
}

json memory_space(const MemorySpace& m) {
    return {{"name", m.name}, {"default", m.is_default}, {"read_only", m.read_only}};
}

json par_group(const ParGroup& g) {
    json j{{"name", g.name}, {"units", unit_count(g.units)}};
    json unit{{"name", g.unit->name}, {"memory_spaces", json::array()}};
    for (const MemorySpace& m : g.unit->memory_spaces) unit["memory_spaces"].push_back(memory_space(m));
    if (g.unit->group) unit["par_group"] = par_group(*g.unit->group);
    j["par_unit"] = unit;
    return j;
}

json endpoint(const Endpoint& e) {
    json nodes = json::array();
    for (const DeviceNode* n : e.nodes) nodes.push_back(n->path);
    return {{"name", e.name}, {"all_units", e.all_units}, {"instances", nodes}};
}

json device_node(const DeviceNode& n) {
    json j{{"kind", block_kind_name(n.kind)}, {"name", n.name}, {"path", n.path}};
    if (n.units) j["units"] = unit_count(*n.units);
    if (!n.spaces.empty()) j["spaces"] = n.spaces;
    if (n.capacity) j["capacity_bytes"] = quantity(*n.capacity);
    if (n.cache_line_size) j["cache_line_size_bytes"] = *n.cache_line_size;
    if (n.nr_banks) j["nr_banks"] = *n.nr_banks;
    if (is_a(n.kind, BlockKind::Memory)) j["addressable"] = n.addressable;
    if (n.latency) j["latency_cycles"] = *n.latency;
    if (n.bandwidth) {
        j["bandwidth_bytes_per_second"] = quantity(*n.bandwidth);
        if (n.bandwidth_derived) j["bandwidth_derived_from"] = "clock_frequency * width";
    }
    if (n.width) j["width_bits"] = *n.width;
    if (n.clock_frequency) j["clock_frequency_hz"] = *n.clock_frequency;
    if (!n.slots.empty()) {
        json slots = json::object();
        for (const Slot& s : n.slots) slots[s.par_unit] = s.count;
        j["slots"] = slots;
    }
    if (!n.performance_feedback.empty()) {
        j["performance_feedback"] = json::array();
        for (const FeedbackFunctionUse& f : n.performance_feedback) j["performance_feedback"].push_back(f.name);
    }
    if (!n.operations.empty()) {
        json ops = json::array();
        for (const Operation& o : n.operations) ops.push_back({{"op", o.op}, {"cost", o.cost}});
        j["operations"] = ops;
    }
    if (!n.connections.empty()) {
        json cs = json::array();
        for (const Connection& c : n.connections) cs.push_back({{"from", endpoint(c.from)}, {"to", endpoint(c.to)}});
        j["connects"] = cs;
    }
    Quantity count = n.instance_count();
    if (count.unlimited || count.value != 1) j["instances"] = quantity(count);
    if (!n.children.empty()) {
        j["children"] = json::array();
        for (const auto& c : n.children) j["children"].push_back(device_node(*c));
    }
    return j;
}

}  // namespace

nlohmann::json model_to_json(const HardwareModel& m, const SourceManager& sources) {
    json j{{"name", m.name}, {"file", sources.path(m.location.file)}};
    j["specializes"] = m.parent ? json(*m.parent) : json(nullptr);
    json par{{"name", m.parallelism_name}, {"memory_spaces", json::array()}};
    for (const MemorySpace& s : m.memory_spaces) par["memory_spaces"].push_back(memory_space(s));
    if (m.outer_group) par["par_group"] = par_group(*m.outer_group);
    par["executing_par_unit"] = m.executing_par_unit().name;
    j["parallelism"] = par;
    j["device"] = device_node(*m.device);
    j["outside"] = json::array();
    for (const auto& o : m.outside) j["outside"].push_back(device_node(*o));
    const DeviceNode* host = m.host_link();
    j["host_link"] = host ? json(host->path) : json(nullptr);
    j["performance_feedback"] = m.performance_feedback_names();
    return j;
}

}  // namespace mcl::hdl
