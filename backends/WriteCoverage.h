// Pass: which array parameters a kernel provably writes in every element
// (write coverage), so that host glue that copies data to a device need not
// copy in an array the kernel only writes.
//
// Needs: a checked module before translation (foreach loops as the user
//   wrote them; `mclc gen` runs this before translate_program, which splits
//   loops into guarded index arithmetic that says less).
// Does: a written array parameter is fully written when assignments that
//   run for every unit write each of its elements (a record's: each field,
//   or the whole element). An assignment counts when every index is an
//   affine function (+ - and products with constants) of the indices of
//   loops around it, through unwritten int scalars (`int i = b * 256 + t`),
//   and either a constant within a dimension of constant extent (one
//   element: `acc[i, 0]`, `acc[i, 1]` and `acc[i, 2]` together cover an
//   extent of 3) or a cover of its dimension: its loops form a mixed-radix
//   number over the extent, coefficients 1, N1, N1*N2, ... with N the
//   constant iterations of the inner loops, and the outermost loop's count
//   reaches the extent (the same value, a constant at least as large, or
//   `divide_up(extent, c)` at coefficient c; a record field's extent is
//   constant). No loop may serve two indices. A pair of indices
//   `[row + x / c, x % c]` into a dimension and the next, of constant extent
//   c, with x >= 0 affine, counts as one dimension of extent times c and
//   index c * row + x, guarded by `row < extent` (nbody_gpu's staged store).
//   On its way from the kernel's body the assignment passes only blocks,
//   foreach loops, for loops of constant iterations, the then-branches of
//   ifs, and the branches of if/elses whose other branch writes the same
//   element (the same indices over the loops around the if/else, whatever
//   its condition). No `return` may end the kernel or a unit of those
//   foreach loops (a return in a foreach ends its unit only). It writes
//   through the parameter's first form, which no swap of whole arrays names
//   (after one, the name may refer to another's storage). Each conjunct
//   (&&) of the conditions of the ifs whose then-branches it is in is
//   either `index < extent` of one of the assignment's dimensions, or
//   compares the index of one loop that no index uses with a constant;
//   every such unused loop has constant iterations, at least one of which
//   satisfies its conjuncts (`if (t == 0)` in a loop of 256 threads).
//   A call statement with no loop or if around it writes every element of
//   an array passed whole to a parameter the callee writes in every element
//   (by this analysis of the callee), when the callee's extents are
//   constants or its int parameters and the arguments give it the array's.
// Guarantees: conservative: a parameter reported fully written has every
//   element written by every run of the kernel; anything not recognised is
//   reported not fully written (and must be copied in). Results are by
//   kernel name and parameter position, which translation keeps.
#pragma once

#include <map>
#include <set>
#include <string>

#include "compiler/ast/Ast.h"

namespace mcl::backends {

class WriteCoverage {
public:
    // Nothing proven: every written array counts as written in part.
    WriteCoverage() = default;
    // Analyses every function of `module` (checked, not yet translated).
    static WriteCoverage of(const mcpl::Module& module);
    // The positions of `kernel`'s parameters that it writes in every element.
    static std::set<size_t> fully_written_parameters(const mcpl::Function& kernel);

    // Whether parameter `position` of the kernel named as `kernel` is fully
    // written.
    bool fully_written(const mcpl::Function& kernel, size_t position) const;

private:
    std::map<std::string, std::set<size_t>> fully_written_;  // by kernel name
};

}  // namespace mcl::backends
