// Pass: check sizes known at compile time against the hardware description
// each function targets.
//
// Needs: a Program after check_constants and check_mapping (Var annotations,
//   hardware values, resolved types and every declaration's memory space
//   set; constants fold without problems) and the hardware library.
// Does, for every function with the HardwareModel of its own description
//   (translation checks the program again after each step, so this also
//   checks at every level a kernel is translated to):
//   - a foreach nest over one par_group (`foreach i in 32 threads {
//     foreach j in 64 threads`: 2048 threads) stays within the par_group's
//     max_nr_units, counting the counts that are constant; in the outermost
//     par_group (blocks) each loop of the nest on its own, as translation
//     treats it (its count bounds each grid dimension); a constant count is
//     not negative. An exact `nr_units` is not a limit: it says how many
//     units the hardware has, and a foreach over more runs in rounds
//     (examples/matmul/matmul_x86_avx2_v2.mcl: 16 vectors on 8 lanes);
//   - a constant array extent is positive (declarations, `as` views,
//     parameters and record fields);
//   - the declarations of a function in one memory space whose sizes are
//     constant fit in the space's memory: the largest capacity among the
//     memories (not caches) that hold the space, per instance of the unit
//     that owns the space; an unlimited or unknown capacity is not checked.
//     The declarations of one foreach nest over the owner's par_group add
//     up; those of two nests one after the other (two launches on a GPU)
//     are counted apart, as the interpreter counts per unit. The hls
//     backend, which builds every launch into one circuit, checks the sum
//     of the whole kernel itself;
//   - a constant index is within its constant extent (tiles: per group);
//   - an `as` view and the storage it views have the same size in bytes
//     when both are constant;
//   - nothing in a read-only memory space (`constant`) is written.
//   Each message names the limit and where in the description it comes from
//   (hopper.hierarchy.blocks.block.warps.max_nr_units,
//   hopper.sms.sm.shared_mem.capacity).
// Guarantees: a program without errors asks no constant-size resource
//   beyond what its descriptions offer, and indexes no constant-size array
//   out of bounds with constant indices.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void check_limits(const Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

// How many units a foreach nest over `group` may run at once in `model`:
// its max_nr_units, for the nest's product of counts, or for each loop on
// its own in the outermost par_group (`per_loop`); `path` names it in the
// description (hopper.hierarchy.blocks.block.threads.max_nr_units).
// Nothing for an unlimited group or an exact nr_units, which runs more in
// rounds. The interpreter checks counts known only at run time by it, and
// array sizes by space_capacity.
struct UnitLimit {
    int64_t max = 0;
    bool per_loop = false;
    std::string owner;  // the par_unit around the group ("" for the outermost)
    std::string path;
};
std::optional<UnitLimit> unit_limit(const hdl::HardwareModel& model, const hdl::ParGroup& group);

// How many bytes the declarations in memory space `space` may take per
// instance of the par_unit that owns it (`owner`, "" for none): the
// largest capacity among the memories (not caches) that hold the space,
// named by `path` (hopper.sms.sm.shared_mem). Nothing when one of them is
// unlimited or none has a capacity.
struct SpaceCapacity {
    int64_t bytes = 0;
    std::string owner;
    std::string path;
};
std::optional<SpaceCapacity> space_capacity(const hdl::HardwareModel& model, const std::string& space);

// The error for array `array` that brings `space` past `capacity` in
// `model`: `total` is how much the space then takes ("40008 bytes"), and
// `where` (after " per <owner>") where the arrays take it together. The
// checker, the interpreter and the hls backend all report it this way.
std::string past_capacity_message(const std::string& array, const std::string& space, const std::string& total,
                                  const std::string& model, const SpaceCapacity& capacity,
                                  const std::string& where = "");

}  // namespace mcl::mcpl
