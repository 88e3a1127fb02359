// run_on_large_stack: runs a function on a thread with a stack large enough
// for the deepest recursion that the front ends and passes allow.
//
// The parsers, the checker and the passes recurse over the AST. The front
// ends bound that depth (kMaxNesting brackets, statements of at most 4000
// tokens, support/ParseSupport.h), but the stack a bound needs depends on the
// build: sanitizer builds use frames several times larger, and a user's
// `ulimit -s` may be smaller than the usual 8 MB. mclc therefore does its work
// on a thread with a stack of kLargeStackBytes (address space that is only
// backed by memory as deep as the recursion actually goes).
// Guarantees: returns what `work` returns, or rethrows what it throws, in the
// calling thread.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>

namespace mcl {

inline constexpr std::size_t kLargeStackBytes = std::size_t{1} << 30;

// Runs `work` on a new thread with a stack of kLargeStackBytes and waits for
// it; exceptions reach the caller. Runs `work` in the calling thread when the
// system refuses such a thread.
int run_on_large_stack(const std::function<int()>& work);

}  // namespace mcl
