#include "hdl/Schema.h"

namespace mcl::hdl {

using K = BlockKind;

std::optional<BlockKind> base_kind(BlockKind k) {
    switch (k) {
    case K::Cache: return K::Memory;
    case K::LoadStoreGroup: return K::SimdGroup;
    case K::SimdGroup: return K::ExecutionGroup;
    case K::LoadStoreUnit: return K::SimdUnit;
    case K::SimdUnit: return K::ExecutionUnit;
    case K::DeviceGroup:
    case K::DeviceUnit:
    case K::Memory:
    case K::Interconnect:
    case K::ExecutionGroup:
    case K::ExecutionUnit: return K::Device;
    default: return std::nullopt;
    }
}

bool is_a(BlockKind k, BlockKind base) {
    for (std::optional<BlockKind> c = k; c; c = base_kind(*c))
        if (*c == base) return true;
    return false;
}

std::optional<BlockKind> unit_kind_of_group(BlockKind group) {
    switch (group) {
    case K::ParGroup: return K::ParUnit;
    case K::DeviceGroup: return K::DeviceUnit;
    case K::ExecutionGroup: return K::ExecutionUnit;
    case K::SimdGroup: return K::SimdUnit;
    case K::LoadStoreGroup: return K::LoadStoreUnit;
    default: return std::nullopt;
    }
}

bool is_group(BlockKind k) { return unit_kind_of_group(k).has_value(); }

namespace {

// Rules written for one kind only; nesting_rules() adds the superclasses'.
std::vector<NestingRule> own_nesting_rules(BlockKind parent) {
    switch (parent) {
    case K::Parallelism:
        return {{K::ParGroup, true, false}, {K::MemorySpace, true, true}};
    case K::ParUnit:
        return {{K::MemorySpace, false, true}, {K::ParGroup, false, false}};
    case K::Device:
        return {{K::Memory, false, true},
                {K::Interconnect, false, true},
                {K::ExecutionGroup, false, true},
                {K::DeviceGroup, false, true}};
    case K::ExecutionUnit:
        return {{K::Memory, false, true},
                {K::Interconnect, false, true},
                {K::ExecutionGroup, false, true},
                {K::Instructions, false, false}};
    case K::SimdUnit:
        return {{K::Instructions, true, false}};
    default: return {};
    }
}

}  // namespace

std::vector<NestingRule> nesting_rules(BlockKind parent) {
    // A group holds exactly one unit of its own kind and nothing else.
    if (auto unit = unit_kind_of_group(parent)) return {{*unit, true, false}};
    // Leaf devices: memories, interconnects and instruction sets hold no blocks.
    if (is_a(parent, K::Memory) || parent == K::Interconnect || parent == K::Instructions ||
        parent == K::MemorySpace)
        return {};
    std::vector<NestingRule> rules;
    for (std::optional<BlockKind> k = parent; k; k = base_kind(*k)) {
        // A subclass's rule for a kind replaces the superclass's rule for it.
        for (const NestingRule& r : own_nesting_rules(*k)) {
            bool seen = false;
            for (const NestingRule& existing : rules) seen |= existing.child == r.child;
            if (!seen) rules.push_back(r);
        }
    }
    return rules;
}

const char* dimension_units(Dimension d) {
    switch (d) {
    case Dimension::Count: return "no unit";
    case Dimension::Bytes: return "B, bit or bits (with an optional k, M or G prefix)";
    case Dimension::Bits: return "bit, bits or B";
    case Dimension::Cycles: return "cycle or cycles";
    case Dimension::BytesPerSecond: return "B/s, bit/s or bits/s (with an optional k, M or G prefix)";
    case Dimension::Hertz: return "Hz (with an optional k, M or G prefix)";
    case Dimension::Boolean: return "true or false";
    }
    return "";
}

namespace {

using F = PropertyForm;
using D = Dimension;

std::vector<PropertyRule> own_property_rules(BlockKind kind) {
    switch (kind) {
    case K::MemorySpace:
        return {{"default", F::Flag, D::Count, false, false, false},
                {"read_only", F::Flag, D::Count, false, false, false}};
    case K::Memory:
        return {{"capacity", F::Assign, D::Bytes, true, false, false},
                {"space", F::Args, D::Count, false, true, true},
                {"nr_banks", F::Assign, D::Count, false, false, false},
                {"addressable", F::Assign, D::Boolean, false, false, false}};
    case K::Cache:
        // Not required: the original distribution's caches may leave it out
        // (ValidateHdl warns).
        return {{"cache_line_size", F::Assign, D::Bytes, false, false, false}};
    case K::Interconnect:
        return {{"connects", F::Args, D::Count, false, true, true},
                {"latency", F::Assign, D::Cycles, false, true, false},
                {"bandwidth", F::Assign, D::BytesPerSecond, true, false, false},
                {"width", F::Assign, D::Bits, false, false, false},
                {"clock_frequency", F::Assign, D::Hertz, false, false, false}};
    case K::ExecutionGroup:
        return {{"clock_frequency", F::Assign, D::Hertz, false, false, false},
                {"slots", F::Args, D::Count, false, false, true},
                {"performance_feedback", F::Args, D::Count, false, false, true},
                {"connects", F::Args, D::Count, false, false, true}};
    case K::ExecutionUnit:
        return {{"clock_frequency", F::Assign, D::Hertz, false, false, false},
                {"slots", F::Args, D::Count, false, false, true},
                {"performance_feedback", F::Args, D::Count, false, false, true}};
    case K::Instructions:
        return {{"op", F::Args, D::Count, false, false, true}};
    default: return {};
    }
}

constexpr BlockKind kAllKinds[] = {
    K::Parallelism, K::MemorySpace, K::ParGroup, K::ParUnit, K::Device, K::DeviceGroup,
    K::DeviceUnit, K::Memory, K::Cache, K::Interconnect, K::ExecutionGroup, K::ExecutionUnit,
    K::SimdGroup, K::SimdUnit, K::LoadStoreGroup, K::LoadStoreUnit, K::Instructions};

}  // namespace

std::vector<PropertyRule> property_rules(BlockKind kind) {
    std::vector<PropertyRule> rules;
    for (std::optional<BlockKind> k = kind; k; k = base_kind(*k))
        for (const PropertyRule& r : own_property_rules(*k)) rules.push_back(r);
    return rules;
}

std::optional<PropertyRule> property_rule(BlockKind kind, const std::string& name) {
    for (const PropertyRule& r : property_rules(kind))
        if (name == r.name) return r;
    return std::nullopt;
}

std::vector<std::string> all_property_names() {
    std::vector<std::string> names{"nr_units", "max_nr_units"};
    for (BlockKind k : kAllKinds)
        for (const PropertyRule& r : own_property_rules(k)) {
            bool seen = false;
            for (const std::string& n : names) seen |= n == r.name;
            if (!seen) names.emplace_back(r.name);
        }
    return names;
}

}  // namespace mcl::hdl
