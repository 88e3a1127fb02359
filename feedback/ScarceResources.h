// Pass: scarce resources and occupancy (thesis 3.5.1 "nvidia", 3.6.5):
// on-chip memory that units which cannot share it divide among themselves,
// and the performance-feedback functions a description names.
//
// Needs: a checked function, its accesses and its hardware model.
// Does:
//   - Scarce resources (RemarkKind::ScarceResource): for each memory space
//     declared in the scope of a par_unit U (`shared` at block) in which the
//     kernel declares variables, each memory holding that space that lies
//     inside an execution unit E with slots for U: E runs slots(U) units
//     that cannot share the space, so each gets capacity / slots(U) (hopper
//     sm: 228 kB / 32 blocks = 7296 bytes). The remark compares that share
//     with what the kernel declares in the space (the sum over declarations
//     of extents x element size, symbolic: `shared float[p] l_a` is 4*p
//     bytes; each statement of the body is a launch of its own and the
//     largest launch counts, with values) and, with values, says whether it
//     fits. Memories outside an
//     execution unit (device memory) and non-addressable ones (registers)
//     are not divided this way and are not reported.
//   - Performance-feedback functions (RemarkKind::Occupancy): every name a
//     description gives with `performance_feedback("...")` is looked up in
//     the table feedback_functions() and run with the input and the device
//     node that names it. "occupancy" and "shared_mem_parallelism" compute
//     blocks per multiprocessor = min(slots(block), floor(capacity / bytes
//     declared per block) for each memory on the multiprocessor holding a
//     space of the block, floor(slots(V) / V-units per block) for each
//     par_unit V below the block with slots there), where V-units per block
//     are the product of the foreach counts of the kernel between the block
//     and V (the largest nest). Values the computation needs and lacks are
//     named ("needs a value for p: --param p=..."). "load_store_optimality"
//     is in the table without a function: the memory-access-rules pass
//     (MemoryAccessRules.h) implements it. A name that is not in the table
//     gets an Occupancy remark "unknown performance feedback function 'x'".
//   Registers are not counted: the kernel's register use is decided by the
//   vendor compiler and is not known here, so the count is an upper bound
//   and the remark says so.
//
// Adding a feedback function: write a function
//   std::vector<Remark> my_rule(const FeedbackInput& input, const hdl::DeviceNode& named_at);
// in ScarceResources.cpp (or any file of mcl_feedback, declared where the
// table can see it) and add a row {"my_rule", my_rule} to the table in
// feedback_functions() in ScarceResources.cpp. A description then runs it
// with `performance_feedback("my_rule");` in any device block; `named_at` is
// that block. Use input.symbols.quantity() for symbolic quantities and
// input.symbols.missing_values() to say which --param values are needed.
//
// Guarantees: remarks are located in the user's code (a declaration, or
// the function for whole-kernel remarks); each named function runs once
// per node that names it; symbolic quantities carry values when every
// symbol has one.
#pragma once

#include <string>
#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

using FeedbackFunction = std::vector<Remark> (*)(const FeedbackInput& input, const hdl::DeviceNode& named_at);

struct NamedFeedbackFunction {
    const char* name;
    FeedbackFunction run;  // null: implemented by a pass of its own
};

// The performance-feedback functions descriptions may name.
const std::vector<NamedFeedbackFunction>& feedback_functions();

// The pass.
std::vector<Remark> scarce_resources(const FeedbackInput& input);

// Blocks per multiprocessor ("occupancy", "shared_mem_parallelism").
std::vector<Remark> blocks_per_multiprocessor(const FeedbackInput& input, const hdl::DeviceNode& named_at);

}  // namespace mcl::feedback
