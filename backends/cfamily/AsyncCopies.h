// Pass: copies from device memory into a work-group's shared memory that
// an item starts without waiting for them (CUDA's cp.async), and the places
// where the item must wait, so that the program means what MCPL says.
//
// Needs: a GridLaunch planned by plan_grid (placements, group arrays,
//   GroupPhases' barriers), on a checked kernel (Decl::is_written final).
// Does: in the code of each innermost item loop, finds copy statements:
//     X[i, ..] = G[j, ..];
//     if (c) { X[i, ..] = G[j, ..]; } else { X[i, ..] = 0; }
//   X an array of a group-scoped space declared in the kernel, G an array
//   parameter of a device-scoped space that the kernel never writes, both
//   of the same 4- or 8-byte element type, named by their first form, with
//   a value for every index and no calls in the indices or condition; the
//   second form copies zeros where c is false. A forward analysis over the
//   item's statements, loops to a fixed point, then places waits (every
//   copy the item started completes) before:
//   - a barrier, and the end of the innermost item loop, when a copy may be
//     pending (other items read X after the barrier);
//   - a statement that reads or writes X (an element, the whole array, a
//     view) while a copy into X may be pending, unless each element it
//     names provably differs from the element of every pending copy into
//     X: in one index, two constants that differ, or `E + c1` against
//     `E + c2`, or `(E + c1) % m` against `(E + c2) % m` with c1 - c2 not a
//     multiple of the constant m, where nothing wrote a variable of that
//     index since the copy;
//   - a copy into X while another copy statement's copy into X may be
//     pending (unless their elements differ as above), or while its own
//     copy of an earlier iteration may be pending, unless it targets a
//     different element in every iteration of each loop whose back edge
//     came between: a loop of constant trip count whose counter nothing
//     else writes, and an index `c * v + r` (c != 0, |c| times the counter's
//     span below 2^31) or a pair of indices `E / k` and `E % k` (k a
//     positive constant, E such a form), where r and E's other variables
//     are not written in the loop (locals declared in it that nothing
//     assigns count by their initialiser);
//   - a statement with a call of a user function, while a copy is pending.
//   A loop whose condition or step touches X while a copy into X, made in
//   the loop, may be pending gets no asynchronous copies into X (there is
//   no statement to wait before). A copy that would wait before it starts,
//   or whose every wait comes before the item accesses memory other than
//   by copying, is an ordinary assignment: it would overlap nothing that
//   plain loads, several in flight, do not. The analysis then runs again.
// Guarantees: every element an item reads, writes or lets other items read
//   through a barrier holds what the same program with ordinary copies
//   would hold there: two copies by one item that may be pending at once
//   target different elements, and no source element is written (G is
//   never written, and parameters do not alias). Indices are assumed in
//   bounds and free of overflow, as the kernel's own accesses are.
#pragma once

#include <map>
#include <set>

#include "backends/cfamily/GridMapping.h"
#include "compiler/ast/Ast.h"

namespace mcl::backends {

struct AsyncCopy {
    const mcpl::Expr* target = nullptr;     // X[i, ..]
    const mcpl::Expr* source = nullptr;     // G[j, ..]
    const mcpl::Expr* condition = nullptr;  // c of the zero-filling form, else null
};

struct AsyncCopyPlan {
    std::map<const mcpl::Stmt*, AsyncCopy> copies;  // the statements copied asynchronously
    std::set<const mcpl::Stmt*> waits_before;       // statements the item waits before
    std::set<const mcpl::Stmt*> waits_after;        // innermost item loops whose item waits at its end
};

// The assignments whose stores `plan`'s copies make: each plain copy, and
// both assignments of a zero-filling one.
std::set<const mcpl::Stmt*> copied_assignments(const AsyncCopyPlan& plan);

AsyncCopyPlan plan_async_copies(const mcpl::Function& kernel, const GridLaunch& launch, const BackendConfig& config);

}  // namespace mcl::backends
