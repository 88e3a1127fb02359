// Pass: check a graph against the MCPL kernels of its steps (DESIGN.md
// section 13).
//
// Needs: the parsed graph and the checked MCPL program of the modules it
//   imports (read/write inference done).
// Does: resolves every name (constants, item, tag and step collections, the
//   kernel of each step: the exported function of the same name in the
//   imported modules) and binds each kernel parameter by name: an array to
//   an item the step gets or puts, a scalar to a constant or to a component
//   of the step's tag. Reports, each at its location:
//   - a name declared twice; an unknown tag, item or step collection
//     (with a suggestion); a step no tag collection prescribes, or two do;
//   - an affinity kind other than CPU, GPU and FPGA, or one given twice;
//   - a step with no kernel in the imported modules, or with one in two;
//   - a relation whose step names more or fewer tag components than its
//     tag collection has; a tag function over a name that is neither a
//     component of the step's tag nor an int constant; an item indexed by
//     different numbers of tag components in different places;
//   - an item extent or range bound that is not constant;
//   - a kernel parameter no item, constant or tag component matches, or
//     two items got (or put) bind; an item whose element type or extents
//     differ from its parameter's; a
//     float constant for an int parameter; a scalar parameter the kernel
//     writes;
//   - a step that gets an item its kernel never reads, or puts one its
//     kernel never writes, or whose kernel writes an item the step only
//     gets;
//   - an item a step or the environment gets that nothing puts;
//   - a cycle of steps through items along which the tags do not progress
//     (every tag function on it a component plus a constant, and the
//     offsets summing to zero: an instance would wait for itself).
// Guarantees: on success every step has its kernel and every parameter its
//   binding; nothing is reported twice for one cause.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cnc/Ast.h"
#include "compiler/sema/Program.h"
#include "support/Diagnostics.h"

namespace mcl::cnc {

// What a kernel parameter is bound to. An array gets an item, puts one, or
// both (the item got is copied into the item put, which the kernel then
// updates in place).
struct Binding {
    enum class Kind { Item, Constant, Component };
    Kind kind = Kind::Item;
    std::string name;           // Constant: its name
    size_t component = 0;       // Component: the index in the step's tag
    const ItemInstance* got = nullptr;  // Item: what the step gets into it
    const ItemInstance* put = nullptr;  // Item: what the step puts from it
    const Relation* got_in = nullptr;   // the relations that name them
    const Relation* put_in = nullptr;
};

struct CheckedStep {
    const StepCollection* step = nullptr;
    const mcpl::Function* kernel = nullptr;
    const Prescription* prescription = nullptr;
    const TagCollection* tag = nullptr;
    std::vector<const Relation*> relations;  // that name the step
    std::vector<Binding> bindings;           // per kernel parameter
};

struct CheckedGraph {
    std::vector<CheckedStep> steps;              // in declaration order
    std::map<std::string, size_t> item_arity;    // tag components of each item collection
    std::map<std::string, long long> item_elements;  // values in one item of each collection
    std::map<std::string, long long> int_constants;
};

using TagValue = std::vector<long long>;

// The item collection `name` of a checked graph (which has it).
const ItemCollection& item_named(const Graph& graph, const std::string& name);

// The C++ type of one element of an item (`unsigned char` for byte).
const char* element_spelling(const ItemCollection& item);

// The tags of an environment target of a checked graph, in the order of its
// ranges (the last component fastest); a later range's bounds may use an
// earlier one's name.
std::vector<TagValue> range_tags(const EnvTarget& target, const CheckedGraph& checked);

// How many tags range_tags gives for `target`, counted no further than
// `limit` + 1 (a range too long to walk is not walked).
size_t range_tag_count(const EnvTarget& target, const CheckedGraph& checked, size_t limit);

// The value of `e` over `int_constants` (C's division, toward zero); nullopt
// when it names anything else, divides by zero or overflows a long long.
std::optional<long long> evaluate(const Expr& e, const std::map<std::string, long long>& int_constants);

std::optional<CheckedGraph> check_graph(const Graph& graph, const mcpl::Program& program, DiagnosticEngine& diags);

}  // namespace mcl::cnc
