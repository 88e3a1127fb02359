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

// Every access of `f`, in source order. `symbols` is used to express loop
// counts (and learns the function's constants on the way).
std::vector<Access> collect_accesses(const mcpl::Function& f, Symbols& symbols);

}  // namespace mcl::feedback
