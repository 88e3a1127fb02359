// Analysis: the values an int expression of a function can take, for the
// llvm backend's bounds-check elimination (DESIGN.md section 11). Checked
// code tests every index against its extent; an index proven inside needs
// no test, which keeps the IR of tiled GPU-level kernels (indices made of
// unit numbers and constants into constant-sized shared arrays) small and
// their compile time short.
//
// Needs: a checked function (Var annotations, Decl::is_written).
// Does: an interval [lo, hi] for an int expression, from
//   - literals and constants that fold (ConstantValue.h),
//   - a foreach index: [0, hi(count) - 1], and below the count itself when
//     the count names a variable that is never written,
//   - the variable of `for (int k = a; k < b; k++)` (or `<=`, or `k += c`
//     with a constant c > 0) whose body never writes k, and whose last step
//     cannot leave int's range: [lo(a), hi(b) - 1] (`<=`: hi(b)), and below
//     b when b names a variable never written,
//   - a local int never written after its declaration: its initialiser's
//     range,
//   - `+ - *`, `/` and `%` by a range without 0, unary minus, min, max and
//     divide_up (an operand not known otherwise ranging over all of int),
//     each only when no value of the result can leave int's range.
//   And facts_below: the `x < d` a condition guarantees inside its branch.
// Guarantees: when range() gives an interval, every value the expression
//   takes while the function runs lies in it; `below`, when set, is a
//   variable whose value the expression's is always less than. Anything
//   else gives std::nullopt.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::backends::llvmir {

struct IntRange {
    int64_t lo = 0;
    int64_t hi = 0;
    const mcpl::Decl* below = nullptr;  // the value is also less than this variable's
};

class IndexRanges {
public:
    explicit IndexRanges(const mcpl::Function& function);

    std::optional<IntRange> range(const mcpl::Expr& e) const;

    // What `condition` being true says: pairs (x, d) of int variables that
    // nothing writes with x < d (from `x < d`, `d > x`, joined by `&&`).
    static std::vector<std::pair<const mcpl::Decl*, const mcpl::Decl*>> facts_below(const mcpl::Expr& condition);

    // The variable a plain `x` (no indices, no fields) names; null otherwise.
    static const mcpl::Decl* plain_variable(const mcpl::Expr& e);

    // The range a plain reference to variable `d` has.
    std::optional<IntRange> variable(const mcpl::Decl* d) const;

    // The foreach, or the counting for loop, whose index `d` is, when its
    // range follows from the loop (as above); null otherwise.
    const mcpl::Stmt* loop_of(const mcpl::Decl* d) const;

    // What the step of a `for` loop adds to its counter: `k++` 1, `k += c`
    // c for a constant c; 0 for any other step.
    static int64_t loop_stride(const mcpl::Stmt& loop);

private:
    // An int operand's range: all of int's values when nothing narrower is known.
    std::optional<IntRange> operand(const mcpl::Expr& e) const;
    std::optional<IntRange> loop_index_range(const mcpl::Stmt& loop) const;
    void collect(const mcpl::Stmt& s);

    std::map<const mcpl::Decl*, const mcpl::Stmt*> loops_;  // index variable -> its foreach or counting for
    // Each variable's range, once known; a variable being worked out has
    // none yet (an initialiser that names its own variable gets none).
    mutable std::map<const mcpl::Decl*, std::optional<IntRange>> variables_;
};

}  // namespace mcl::backends::llvmir
