// Pass: translate the foreach statements of a function one level down
// (thesis appendix B.4), keeping its meaning for every size.
//
// Needs: a checked function at description `from` whose memory spaces
//   TranslateMemorySpaces has already rewritten, the child description `to`,
//   the ParGroupMapping between them and the names outside the function
//   that its code may refer to (OuterNames).
// Does: a foreach over a par_group that maps to one par_group is renamed. A
//   foreach nest over a par_group that maps to several (G1 x ... x Gk) is
//   split: outer dimensions of the nest go to G1 as they are; the innermost
//   dimension `x` with `n` units becomes k nested foreach loops with
//   dimension statements before the nest (`const int nrThreads_x =
//   <to>.hierarchy....max_nr_units;` for Gk, or its exact `nr_units`, and
//   `divide_up(n, ...)` for the outer ones unless exact; for G1 x G2 where
//   G2 has only a maximum and its units time-share SIMD lanes, a GPU's
//   blocks x threads, as many units of G2 as spread the nest's units over
//   `G1.nr_processors`, in whole SIMD groups, at most the maximum) and, inside, an
//   index statement that recomputes the old index (`const int x = b_x *
//   nrThreads_x + t_x;`). Where the units may outnumber `n` the body is
//   guarded by `if (x < n)`, unless constant counts show that they divide
//   evenly (counts computed from `nr_processors`, which later steps change,
//   are not taken as constants). A nest of constant counts whose innermost
//   count does not fill whole groups of an exact innermost Gk (a warp's 32
//   threads, a CPU's vector lanes) is first made one foreach over the
//   product of its counts, with the user's indices recomputed by division
//   and remainder, so that only the last group has idle lanes. A guard
//   never puts a barrier under divergent control flow: in a body with
//   barriers (its own or those of functions it calls) the guard is pushed
//   into the statements between them, through the `if` and `for`
//   statements around them (GuardPushing.h); where that is not possible
//   the foreach is reported as untranslatable, where it fails. A foreach
//   nested in one over the same par_group with other statements around it
//   (not a perfect nest) becomes a for loop over its count, read once,
//   with a note: its units run one after another in each unit around it;
//   one whose units reach a barrier or return is reported instead. A
//   count that names the index or a variable the body declares (`foreach
//   (int n in n threads)`) is first hoisted into `const int count_n = n;`,
//   so that the guard and the dimensions read the count the user meant.
//   Where a name the user declared hides the description `to`, its unit
//   counts are written as constants instead of hardware values.
// Guarantees: the user's statements are kept as written inside the new
//   loops; generated names say what they are and neither capture nor shadow
//   any name of the function, of the program's modules or of a hardware
//   description; errors are located at the user's code.
#pragma once

#include "compiler/ast/Ast.h"
#include "compiler/translate/OuterNames.h"
#include "compiler/translate/ParGroupMapping.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::translate {

void translate_foreach(mcpl::Function& f, const hdl::HardwareModel& to, const ParGroupMapping& mapping,
                       const OuterNames& outer, DiagnosticEngine& diags);

}  // namespace mcl::translate
