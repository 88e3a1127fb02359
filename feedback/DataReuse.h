// Pass: data reuse (thesis section 3.6.3), and the reuse analysis that the
// faster-memory pass (FasterMemory.h) builds on.
//
// Needs: a checked function, its accesses (LoopNest.h) and the Symbols that
//   collected them (loop counts are in the kernel's parameters).
// Does: for every read of an array element (accesses without indices, such
//   as a written scalar parameter, are not reuse) it takes the loops around
//   the access that lie inside the variable's declaration (a local array
//   declared inside a loop is a new array each iteration) and works in two
//   phases, as the thesis does:
//   - simple: the loop indices each index expression depends on, directly
//     or through local scalars (a local's dependencies are those of its
//     initialiser and of every later assignment to it; an assignment inside
//     a loop that the local is declared outside of also makes it depend on
//     that loop; a `for` index depends on the indices its start and bound
//     use: `for (int e = rowptr[r]; ...)`). For each loop whose index the
//     access does not depend on, the same element is read once per iteration: the reuse is the loop's
//     number of iterations (unknown counts: said, and approximate).
//   - advanced, only when the access depends on every loop and no loop's
//     bounds move with another index (triangular loops): each index
//     expression, with local scalars replaced by their (single-assignment)
//     initialisers, is made affine in the loop indices,
//     `sum c_l * index_l + rest`. Per dimension, accesses = the product of
//     the iterations of the loops it uses, range = the sum over those loops
//     of iterations * |c_l * step_l| (the index's extent from the loops'
//     starts to their ends, as the thesis counts it: `h+fh` for `i + y`;
//     the exact span sum (iterations - 1) * |c| + 1 is smaller by
//     sum |c| - 1, so the ratio is a slight underestimate: 8.96 against
//     8.965 for convolution at h=2048, fh=9), reuse ratio = accesses /
//     range. Symbolic coefficients are taken to be positive. Overall: the
//     product of the iterations of all loops the access uses over the
//     product of the dimension ranges.
//   A remark on an array small enough for the smallest cache holding its
//   memory space to keep whole (with --param values) says so and has a low
//   impact: the cache reuses it without help.
//   Ratios are reported only when they exceed 1: by their value when every
//   symbol has an example value; otherwise unless accesses - range, with
//   every symbol taken positive, is a polynomial without a positive
//   coefficient (m - (m + 1024) for a tiled index never gains).
// Guarantees: remarks are at the access as written (print_expr), in
//   source order; quantities "reuse" (and "accesses", "range" for ratios)
//   are symbolic in the kernel's parameters; a remark is approximate when
//   the access is (under an `if`, a loop count unknown) or a count it uses
//   is rounded (divide_up, steps: a fractional coefficient such as m/1024).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

// A loop used by an index expression and its coefficient there (the
// loop's step included): `i + 2*y` has terms (i, 1) and (y, 2).
struct LoopTerm {
    const Loop* loop = nullptr;
    GiNaC::ex coefficient;
};

// The reuse of a set of loop terms: accesses / range as described above.
struct ReuseRatio {
    GiNaC::ex accesses;
    GiNaC::ex range;
    GiNaC::ex ratio;
};

// nullopt when a term's loop has an unknown count or there are no terms.
std::optional<ReuseRatio> reuse_ratio(const std::vector<LoopTerm>& terms);

// True when the ratio may exceed one: its value when `symbols` has example
// values for all of it, otherwise accesses - range not being a number <= 0.
bool may_exceed_one(const Symbols& symbols, const ReuseRatio& r);

struct ReuseFinding {
    enum class Kind {
        Independent,  // the access does not depend on `loop`
        Dimension,    // a reuse ratio of one index dimension
        Overall,      // the reuse ratio of all dimensions together
    };
    Kind kind = Kind::Independent;
    const Access* access = nullptr;
    const Loop* loop = nullptr;       // Independent
    size_t dimension = 0;             // Dimension: index into access->indices
    std::vector<LoopTerm> terms;      // Dimension: the loops the index uses
    std::optional<ReuseRatio> ratio;  // Dimension, Overall
    std::vector<GiNaC::ex> ranges;    // Overall: the range of each dimension that uses a loop
    bool approximate = false;
};

// The reuse of every read in `in.accesses`, in source order (for one
// access: independent loops outermost first, then dimensions, then overall).
std::vector<ReuseFinding> find_reuse(const FeedbackInput& in);

// "(h*fh)/(h+fh)": a quantity as a fraction with the value when known,
// e.g. "(h*fh)/(h+fh) = 8.96".
std::string describe_ratio(const NamedQuantity& q);

std::vector<Remark> data_reuse_pass(const FeedbackInput& in);

}  // namespace mcl::feedback
