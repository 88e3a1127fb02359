// Pass: operation statistics (thesis section 3.6.2).
//
// Needs: a checked function, its accesses (LoopNest) and its description.
// Does: counts what the function executes, symbolically in its parameters:
//   computational instructions (arithmetic in assignments, declarations,
//   returns and call arguments, and in the functions it calls, builtins as
//   one instruction each, calls of library functions with builtin bodies
//   also tallied by name; those whose result is a double also count as
//   double-precision computations), indexing instructions (arithmetic inside index
//   expressions, and computing locals whose values only reach indices),
//   control-flow instructions (conditions of `if` and `for`, loop steps,
//   locals that only reach conditions), and loads and stores per memory
//   space; each statement
//   counts once per iteration of the loops around it. The arithmetic
//   intensity is computations per data access. Under an `if` the statement
//   is counted as if always taken, and a loop whose trip count is not
//   affine in the parameters counts once: the totals are then upper or
//   rough bounds, and the remark says it is an approximation.
// Guarantees: remarks at the function's name: one `operations` remark with
//   the instruction counts, the library calls among them by name and the
//   loads/stores per memory space, one `arithmetic-intensity` remark.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

// What the remarks report, for other passes (the bound) to build on.
struct OperationTotals {
    GiNaC::ex computations = 0, indexing = 0, control = 0;
    GiNaC::ex double_computations = 0;  // the part of computations that is in double precision
    std::map<std::string, GiNaC::ex> library_calls;  // calls of builtin-bodied functions among the computations
    std::map<std::string, std::pair<GiNaC::ex, GiNaC::ex>> per_space;  // memory space -> loads, stores
    GiNaC::ex accesses = 0;                                             // all loads and stores
    bool approximate = false;
};

OperationTotals count_operations(const FeedbackInput& input);

std::vector<Remark> operation_statistics(const FeedbackInput& input);

}  // namespace mcl::feedback
