// Pass: how the C-family backends write a swap of two whole arrays.
//
// Needs: checked functions.
// Does: MCPL's `a <=> b` of two whole arrays trades their storage, as the
//   interpreter runs it: each name then refers to the other's elements, and
//   a view (`as`) made before keeps the storage it was made of. The C
//   family writes that as a swap of two pointer variables, so each array
//   that takes part in one is held through a pointer (`redirected`). Refused,
//   each with why:
//   - a swap inside a foreach of arrays declared outside it: every unit of
//     the loop would make it (the interpreter's units swap one pair of
//     names, an even number of times being no swap at all);
//   - a swap of views, whose names the interpreter redirects while the
//     storage's own names keep it;
//   - a swap of arrays of two memory spaces (OpenCL's pointers into them
//     are of two types).
//   Two arrays that no view names may instead trade their elements, which
//   is the same for every reader (`viewed` says which may not). Tiles
//   (`a[i] <=> b[j]`) and arrays that are record fields are not names of
//   storage of their own: the interpreter trades their elements, and so
//   do the backends (no entry here).
// Guarantees: every Swap of two whole arrays or views in the functions is
//   either refused or has both of its arrays in `redirected`; a pointer
//   swap is made by exactly the units that the arrays belong to, each on
//   its own copy.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::backends {

struct ArraySwapPlan {
    std::set<const mcpl::Decl*> redirected;
    // Of those, the arrays that must stay pointers: those that views (`as`)
    // name, and every array that a swap trades with one of them.
    std::set<const mcpl::Decl*> viewed;
    std::map<const mcpl::Stmt*, std::string> refused;  // the swap, and why (to follow "the <backend> backend cannot ...")
};

ArraySwapPlan plan_array_swaps(const std::vector<const mcpl::Function*>& functions);

// Whether `s` swaps two whole arrays by the names they were declared with
// (not tiles, record fields or views).
bool swaps_whole_arrays(const mcpl::Stmt& s);
// Whether `s` swaps an array by the name of one of its views (`as`).
bool swaps_views(const mcpl::Stmt& s);

}  // namespace mcl::backends
