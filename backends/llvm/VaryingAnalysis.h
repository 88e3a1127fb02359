// Pass: which values of a foreach body differ between the lanes of one
// vector of units, for the llvm backend's explicit vector code (DESIGN.md
// section 11; the uniform/varying split of SPMD-on-SIMD compilers).
//
// Needs: a checked foreach statement whose body has no nested foreach and
//   no barrier (the innermost parallel loop of a nest).
// Does: decides, for every variable declared in the body, its shape when W
//   consecutive units run as the W lanes of one vector:
//     Uniform - the same value in every lane (a loop counter `k` of a
//               `for` whose bounds do not depend on the unit),
//     Linear  - the lanes hold base, base+1, ..., base+W-1 (the foreach
//               index, and a variable set once to the index plus a uniform
//               value), so that `a[i, j]` is one contiguous vector access,
//     Varying - anything else (one value per lane).
//   A value is varying when it depends on the foreach index (other than
//   linearly), on a varying variable or on memory read at a varying index;
//   an assignment under a condition that lanes may disagree on makes its
//   variable varying, unless the variable is declared under that condition
//   too (it then lives only in the lanes that took it). The analysis iterates to a fixed point, so values
//   carried around loops are classified correctly.
//   It also says whether the body should be vector code at all: it may not
//   hold a loop whose trip count differs between units and that gathers
//   (the lanes would all wait for the longest, reading element by element),
//   and it can not declare arrays or records, swap,
//   make views, return, call a user function that writes through a
//   parameter or takes an array, or use atomics. Such a body is left as a
//   scalar loop marked parallel.
// Guarantees: a variable classified Uniform has the same value in every
//   lane at every point of the body; Linear ones are assigned exactly once,
//   at their declaration, under control that every lane shares.
#pragma once

#include <map>
#include <string>

#include "compiler/ast/Ast.h"

namespace mcl::backends::llvmir {

enum class Shape { Uniform, Linear, Varying };

struct VaryingInfo {
    bool vectorizable = false;
    std::string reason;  // why not, when not
    std::map<const mcpl::Decl*, Shape> shapes;  // every variable declared in the body

    Shape shape_of(const mcpl::Decl* d) const {
        auto found = shapes.find(d);
        return found == shapes.end() ? Shape::Uniform : found->second;  // declared outside: uniform
    }
};

// Classifies the variables of `foreach_stmt`'s body (see above).
VaryingInfo analyze_varying(const mcpl::Stmt& foreach_stmt);

// The shape of an expression's value given the variables' shapes.
Shape expression_shape(const mcpl::Expr& e, const VaryingInfo& info);

}  // namespace mcl::backends::llvmir
