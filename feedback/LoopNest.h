// Analysis shared by the feedback passes: every data access of a function
// with the loops (foreach and for) around it.
//
// Needs: a checked function (Expr::decl set).
// Does: walks the body; for each use of a variable that is an array or a
//   non-register scalar it records whether it is read, written or both, its
//   index expressions per dimension group (flattened to one list), and the
//   enclosing loops from outermost to innermost: the index declaration, the
//   number of iterations (foreach count; for a `for (int k = a; k < b; k++)`
//   loop `b - a`, with steps `k += s` giving `(b - a) / s`), the start and
//   the step, and whether that count is exact. Accesses under an `if` or in
//   loops whose bounds are not affine in parameters are marked approximate.
// Guarantees: the list is in source order; every access points at the
//   Expr it came from (for locations and printing).
#pragma once

#include <optional>
#include <vector>

#include <ginac/ginac.h>

#include "compiler/ast/Ast.h"
#include "feedback/Symbolic.h"

namespace mcl::feedback {

struct Loop {
    const mcpl::Stmt* stmt = nullptr;     // the foreach or for statement
    const mcpl::Decl* index = nullptr;    // its index variable
    bool is_foreach = false;
    std::string par_group;                // foreach only
    std::optional<GiNaC::ex> iterations;  // nullopt: unknown
    GiNaC::ex start = 0;
    GiNaC::ex step = 1;
};

struct Access {
    const mcpl::Expr* expr = nullptr;     // the Var expression
    const mcpl::Decl* variable = nullptr;
    bool read = false;
    bool written = false;
    std::vector<const mcpl::Expr*> indices;  // all index expressions, dimension groups flattened
    std::vector<Loop> loops;                 // outermost first
    bool approximate = false;                // under a condition, or a loop count unknown
};

// A foreach or for statement as a Loop: its iterations when the header is
// `for (int k = a; k < b; k++)` (or `<=`, or `k += s`) with affine bounds,
// or the foreach count.
Loop describe_loop(const mcpl::Stmt& loop, Symbols& symbols);

// The sum of `per_iteration` over the iterations of `loop`, where
// `per_iteration` may use the loop's index (a triangular inner loop runs
// `i` times in iteration i): the index is written start + step * t and the
// sum over t = 0 .. iterations - 1 is taken in closed form for polynomials
// in t (Faulhaber: sum of i over n iterations = n(n-1)/2). Anything else
// that uses the index (a division by it) is taken at the last iteration,
// and an unknown count counts the body once: both set `approximate`.
GiNaC::ex sum_over_loop(const GiNaC::ex& per_iteration, const Loop& loop, Symbols& symbols, bool& approximate);

// How many times a statement inside `loops` (outermost first) executes:
// the sums over the loops from the innermost out, so that no loop index is
// left in the result.
GiNaC::ex executions(const std::vector<Loop>& loops, Symbols& symbols, bool& approximate);

// `e` with the indices of `loops` (outermost first) taken at their last
// iteration, innermost first (a count that grows with an enclosing index,
// `i + 1`, at its largest: `n`). Sets `varies` when `e` used an index.
GiNaC::ex at_last_iteration(const GiNaC::ex& e, const std::vector<Loop>& loops, Symbols& symbols, bool& varies);

// Every access of `f`, in source order. `symbols` is used to express loop
// counts (and learns the function's constants on the way).
std::vector<Access> collect_accesses(const mcpl::Function& f, Symbols& symbols);

}  // namespace mcl::feedback
