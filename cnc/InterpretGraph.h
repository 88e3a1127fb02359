// Pass: the reference run of a checked graph (DESIGN.md section 13), the
// oracle `mclc verify GRAPH.cnc` compares the runtime's run of the graph
// with, as the kernel interpreter is for a kernel.
//
// Needs: the graph, its check, the hardware library, and the items the
//   environment puts (environment_items(): every tag of its ranges, the
//   values to fill in).
// Does: runs every step instance that the environment's tags prescribe,
//   each through the reference interpreter (compiler/interpret) on copies of
//   the items it gets, its constants and its tag's components, as soon as
//   all its items are there (steps in declaration order, tags in order),
//   until none is left that can run; a parameter bound to an item got and
//   an item put starts as a copy of the first, as the runtime does.
//   Reports, located:
//   - a kernel that fails (the interpreter's error, at the kernel, with the
//     instance that ran it);
//   - an item put twice (items are assigned once), or put with elements its
//     kernel left unwritten (the runtime's fresh item would hold garbage
//     there);
//   - an instance that waits for an item nothing puts, and an item the
//     environment gets that nothing put.
// Guarantees: on success `items` holds every item put, by the environment
//   and the steps, and each is written in full.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "cnc/CheckGraph.h"
#include "compiler/interpret/Interpreter.h"
#include "hdl/HardwareLibrary.h"

namespace mcl::cnc {

// Every item present: per item collection, per tag, its cells row-major.
using ItemValues = std::map<std::string, std::map<TagValue, std::vector<interpret::Scalar>>>;

// The primitive type of one element of an item collection.
mcpl::Primitive item_element_type(const ItemCollection& item);

// "(3, 0)"
std::string describe_tag(const TagValue& tag);

// Every item the environment puts: each tag of its targets' ranges, each
// element `value(type)` (the caller's seeded or fixed values).
ItemValues environment_items(const Graph& graph, const CheckedGraph& checked,
                             const std::function<interpret::Scalar(mcpl::Primitive)>& value);

// An error, located at the environment's target that passes it, when a
// reference run would hold more than `limit` values (the items the
// environment puts, and those each prescribed step instance puts): the
// interpreter's values are large (a Scalar each) and slow to compute, so a
// caller refuses such a graph rather than running out of memory or time.
std::optional<interpret::InterpretError> too_large_to_interpret(const Graph& graph, const CheckedGraph& checked,
                                                                uint64_t limit);

// Runs the graph; `items` holds the environment's puts and gets every item
// the steps put. The error, located, when a step or the graph fails.
std::optional<interpret::InterpretError> interpret_graph(const Graph& graph, const CheckedGraph& checked,
                                                         const hdl::HardwareLibrary& library, ItemValues& items,
                                                         const interpret::InterpretOptions& options);

}  // namespace mcl::cnc
