// The AST of a Concurrent Collections graph (.cnc, DESIGN.md section 13):
// what cnc/ParseCnC builds and every later stage reads. Every node has its
// source location.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/SourceManager.h"

namespace mcl::cnc {

// A tag function or an extent: integers, names (tag components, constants)
// and + - * / and unary minus.
struct Expr {
    enum class Kind { Int, Name, Negate, Binary };
    Kind kind = Kind::Int;
    SourceLocation location;
    long long value = 0;                 // Int
    std::string name;                    // Name
    char op = 0;                         // Binary: + - * /
    std::vector<std::unique_ptr<Expr>> operands;
};
using ExprPtr = std::unique_ptr<Expr>;

struct Import {
    std::vector<std::string> path;  // a.b.c: module c of package a.b
    SourceLocation location;
};

struct Constant {
    std::string name;
    bool is_float = false;
    long long int_value = 0;
    double float_value = 0;
    std::string spelling;
    SourceLocation location;
};

// [float[n, n] frame]: the element type and the extents (over constants).
struct ItemCollection {
    std::string name;
    std::string element;             // int, float, double, byte, bool
    std::vector<ExprPtr> extents;    // none: a scalar item
    SourceLocation location;
};

// <int [2] tile>
struct TagCollection {
    std::string name;
    long long components = 0;
    SourceLocation location;
    SourceLocation components_location;
};

struct StepCollection {
    std::string name;
    SourceLocation location;
};

struct AffinityWeight {
    std::string kind;  // CPU, GPU, FPGA
    long long weight = 0;
    SourceLocation location;
};

// <tag> :: (step @ CPU = 10, GPU = 20)
struct Prescription {
    std::string tag, step;
    SourceLocation tag_location, step_location;
    std::vector<AffinityWeight> affinity;
};

// [item : f(k)] or [parameter = item : f(k)] in a relation.
struct ItemInstance {
    std::string parameter;  // the kernel parameter it binds: the item's name unless given
    SourceLocation parameter_location;
    std::string name;
    std::vector<ExprPtr> tag;
    SourceLocation location;
};

// (step : k, j): the names the step's tag components go by.
struct StepInstance {
    std::string name;
    std::vector<std::string> components;
    std::vector<SourceLocation> component_locations;
    SourceLocation location;
};

// gets -> (step : tag) -> puts
struct Relation {
    std::vector<ItemInstance> gets;
    StepInstance step;
    std::vector<ItemInstance> puts;
};

struct Range {
    std::string name;   // optional: the later ranges' bounds may use it
    SourceLocation name_location;
    ExprPtr low, high;  // inclusive
};

// env -> <tag : {..}>, [item : {..}]   or   env <- [item : {..}]
struct EnvTarget {
    bool is_tag = false;
    std::string name;
    std::vector<Range> ranges;  // one per tag component
    SourceLocation location;
};

struct Graph {
    uint32_t file = 0;
    std::vector<Import> imports;
    std::vector<Constant> constants;
    std::vector<ItemCollection> items;
    std::vector<TagCollection> tags;
    std::vector<StepCollection> steps;
    std::vector<Prescription> prescriptions;
    std::vector<Relation> relations;
    std::vector<EnvTarget> env_puts;
    std::vector<EnvTarget> env_gets;
};

}  // namespace mcl::cnc
