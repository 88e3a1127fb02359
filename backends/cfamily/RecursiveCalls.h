// Pass: find the calls through which kernels recurse, for backends whose
// kernel languages cannot express recursion (OpenCL C forbids it, HLS
// cannot synthesise it, CUDA device code would need a per-thread stack
// whose depth the glue neither knows nor sets).
//
// Needs: checked kernels (calls annotated with the function they call).
// Does: a depth-first walk of the call graph from each kernel, through
//   functions of any module (library functions with builtin bodies are no
//   calls); a call of a function that is on the walk's current path closes
//   a cycle.
// Guarantees: the functions reachable from the kernels call each other
//   without recursion exactly when the result is empty; each cycle is
//   reported at one call (the one that closes it), in source order of the
//   walk, at most once per call expression.
#pragma once

#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::backends {

std::vector<const mcpl::Expr*> recursive_calls(const std::vector<const mcpl::Function*>& kernels);

}  // namespace mcl::backends
