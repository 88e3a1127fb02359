// Pass: device fill: how many of the device's units a launch keeps busy.
//
// Needs: a checked function at a level whose description counts the units
//   that run its outermost par_unit (hopper: 132 multiprocessors run
//   blocks; x86_avx2: the cores run threads).
// Does: for each nest of foreach statements over the outermost par_group
//   (each a launch: the blocks of a kernel), the number of its units is the
//   product of the nest's counts (divide_up counted up, symbolic in the
//   parameters), and the execution units with slots for that par_unit are
//   found in the device tree with their number of instances. Fewer units
//   of work than execution units leaves the rest idle: "keeps 8 of 132
//   multiprocessors (sm) busy, 124 idle", with an impact of the idle share.
//   More units of work than execution units: every execution unit has work;
//   the remark says how many each gets and the impact is the share the
//   last, partial round leaves idle when that can be known (a round of one
//   unit of work per execution unit; occupancy, ScarceResources.h, says how
//   many run at once).
// Guarantees: one DeviceFill remark per nest at its outermost foreach;
//   none when the description's unit counts are unlimited (perfect) or no
//   execution unit runs the par_unit; values needed and missing are named.
#pragma once

#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

std::vector<Remark> device_fill_pass(const FeedbackInput& input);

}  // namespace mcl::feedback
