// The rules of HDL as data: the device subclass hierarchy (thesis Fig. 3.5),
// which blocks may nest in which (Table A.1) and which properties each block
// takes, with their expression forms and units (Table A.2), extended as
// DESIGN.md section 4 says so that real descriptions validate. The validator
// checks descriptions against these tables and the model builder reads
// property dimensions from them; neither repeats the rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hdl/Ast.h"

namespace mcl::hdl {

// The device superclass of a kind: cache -> memory, load_store_group ->
// simd_group -> execution_group -> device, ...; nullopt for the roots.
std::optional<BlockKind> base_kind(BlockKind k);
// True when `k` is `base` or a subclass of it.
bool is_a(BlockKind k, BlockKind base);
// For an x_group, the x_unit it groups.
std::optional<BlockKind> unit_kind_of_group(BlockKind group);
bool is_group(BlockKind k);

struct NestingRule {
    BlockKind child;  // this kind or a subclass of it
    bool required;
    bool multiple;
};
// The blocks allowed directly inside `parent`, its superclasses' rules included.
std::vector<NestingRule> nesting_rules(BlockKind parent);

// What a property's value measures; decides which units it accepts and how
// its value is normalised.
enum class Dimension {
    Count,           // no unit
    Bytes,           // B, bit, bits; k/M/G binary
    Bits,            // bit, bits, B
    Cycles,          // cycle, cycles
    BytesPerSecond,  // {B, bit, bits}/s; k/M/G decimal
    Hertz,           // Hz; k/M/G decimal
    Boolean,         // true | false
};
const char* dimension_units(Dimension d);

enum class PropertyForm { Assign, Args, Flag };

struct PropertyRule {
    const char* name;
    PropertyForm form;
    Dimension dimension;    // Assign properties
    bool allow_unlimited;   // Assign properties
    bool required;
    bool multiple;
};
// The properties `kind` takes, its superclasses' included. Group unit counts
// (nr_units / max_nr_units, exactly one of them) are checked separately.
std::vector<PropertyRule> property_rules(BlockKind kind);
std::optional<PropertyRule> property_rule(BlockKind kind, const std::string& name);
// Every property name of the language, for suggestions.
std::vector<std::string> all_property_names();

}  // namespace mcl::hdl
