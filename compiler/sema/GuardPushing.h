// Analysis: where the guard of a foreach whose units may outnumber its
// count goes when its body reaches barriers.
//
// Needs: the statements of a foreach body (checked, or the user's statements
//   inside translation's new loops: names are compared by spelling, so
//   generated statements need not be bound), and what the extra units are.
// Does: the extra units (a split foreach's units past its count, a grid
//   item the loop shares with a longer sibling, an item only a deeper
//   sibling nest uses) must skip the body's statements yet reach each of
//   its barriers as often as the other units do. So the guard is pushed
//   down: through blocks, `if` and `for` statements that reach a barrier
//   (and, where `through_foreach`, nested foreach loops, which every unit
//   runs), whose headers every unit then evaluates. The statements between
//   barriers are guarded, in runs; declarations and `as` views in a
//   statement list that holds a barrier stay outside the guard, so that
//   later statements see them. The extra units must not compute what
//   they would compute wrongly or unsafely: a scalar declaration whose
//   value reads memory or calls a function that may (past the count, an
//   index reads out of range; builtins like `min` and library functions
//   like `sqrt` read only their arguments), or that depends on a variable
//   the extra units do not share (their own index past the count, one the
//   guarded statements change, or one computed from those) and divides
//   by, shifts by or raises to a value that is not a constant (`100 /
//   (count - i)` divides by zero), is split: every unit declares it
//   without its value, which it is given under the guard (`split`); one
//   whose value reads the name it hides cannot be split, and is refused.
//   A view whose extent reads memory, and a header that reads memory, are
//   refused; so is a header that depends on a variable the extra units do
//   not share (a split one included), since they would decide it
//   otherwise. A statement that calls a function reaching a barrier, and a
//   barrier inside any other construct, is refused too.
// Guarantees: on success every barrier of the body is reached by all units
//   whenever by any, every statement not in `open` or `outside` is run
//   only under the guard, the headers of `open` statements and the values
//   of the declarations in `outside` but not `split` read no memory and
//   cannot fail where the units that run do not, and the extents of views
//   read no memory. Each refusal is a located error through `refuse`.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

struct GuardContext {
    // The foreach index whose value is past the count in the extra units;
    // empty where they repeat the indices of units that run (idle slots).
    std::string index;
    // Says who the extra units are, in errors: "the units that 'i' adds
    // beyond its range".
    std::string extra_units;
    // Nested foreach loops are run by every unit (grid item loops); else a
    // barrier inside one cannot be reached past the guard.
    bool through_foreach = false;
    // Reports `problem` (lower case, a full clause) at `location`.
    std::function<void(SourceLocation location, const std::string& problem)> refuse;
};

struct PushedGuard {
    std::set<const Stmt*> open;     // reach a barrier: every unit runs them, the guard goes inside
    std::set<const Stmt*> outside;  // declarations and views every unit makes, before the guard
    std::set<const Stmt*> split;    // of `outside`: declared with no value, which is assigned under the guard
};

PushedGuard push_guard(const std::vector<const Stmt*>& body, const GuardContext& context);

// Whether running `s` reaches a barrier: its own, or one in a function it calls.
bool reaches_barrier(const Stmt& s);

}  // namespace mcl::mcpl
