// Analysis: whether an index stays below an array extent, by linear bounds
// over the variables a function never changes, for the llvm backend's
// bounds-check elimination where intervals alone cannot decide (DESIGN.md
// section 11). Tiled CPU kernels index with `a[ti * 6 + 5, k + 3]` over
// `n / 6` tiles and `k < p / 4 * 4` stepping by 4, or with `fullN + ir` for
// ir below `n - fullN`: every value is inside, but only in relation to n
// and p.
//
// Needs: a checked function and its IndexRanges (intervals, loop indices).
// Does: writes extent - index as a linear form with rational coefficients
//   over atoms (int variables that keep their value where the access is:
//   never written, or a loop index that only its loop changes), a lower
//   bound of the difference; then replaces atoms, last declared first, each
//   once, by a bound that holds where the access is:
//   - a foreach index: 0 .. count - 1, the count then known to be >= 1;
//   - the counter of `for (int k = a; k < b; k += s)`: a .. b - 1, or b - s
//     when a and b are multiples of s (`<=`: b); b then exceeds a;
//   - x inside `if (x < d)` (facts from the caller): at most d - 1;
//   - a variable never written: its initialiser's bound;
//   and within those forms: `+`, `-`, unary minus, `c * x` and `x * c` with
//   c constant, `x / d` with d a positive constant and x not negative (by
//   its interval, or because the quotient is known >= 1): from
//   (x - d + 1) / d to x / d; anything else by its interval. An atom left
//   over counts with its interval. The difference must come out positive.
// Guarantees: stays_below gives true only when, in mathematical integers,
//   every value the index takes at the access is less than the value the
//   extent had where the array was declared, and neither the index, the
//   extent nor any initialiser or loop bound the proof used can overflow
//   int (IndexRanges gives them an interval, or they are plain variables or
//   constants), so the program's wrapped values are those integers.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "backends/llvm/IndexRanges.h"
#include "compiler/ast/Ast.h"

namespace mcl::backends::llvmir {

class LinearBounds {
public:
    // `ranges` must outlive this object and describe the same function.
    explicit LinearBounds(const IndexRanges& ranges) : ranges_(ranges) {}

    // Whether `index` < `extent` at an access inside branches whose
    // conditions guarantee `facts` (pairs x < d, IndexRanges::facts_below).
    bool stays_below(const mcpl::Expr& index, const mcpl::Expr& extent,
                     const std::vector<std::pair<const mcpl::Decl*, const mcpl::Decl*>>& facts) const;

private:
    struct Proof;
    const IndexRanges& ranges_;
};

}  // namespace mcl::backends::llvmir
