// Pass: plan how a kernel runs on a grid of work-groups (OpenCL NDRange,
// CUDA grid of blocks): which launches, which hardware dimension each
// foreach loop takes, and what the host must compute first.
//
// Needs: a checked kernel translated to a leaf, and the backend's target
//   configuration with
//     "par_groups": { "<par_group>": { "level": "group" | "item" } }
//     "levels": { "group": { "dimensions": D, "index": ["<id in dim 0>", ...] },
//                 "item":  { "dimensions": D, "index": [...] } }
//     "memory_spaces": { "<space>": { "scope": "device" | "group" | "item", ... } }
// Does: each top-level foreach of the kernel becomes one launch, in order
//   (a launch ends before the next starts, as sequential foreach loops
//   require). Statements around them run on the host: `for` loops (time
//   steps that launch their foreach loops once per iteration, the data
//   staying on the device), ifs, and declarations, assignments and steps of
//   scalars, all computed from scalar parameters, module constants, hardware values and the
//   host's own scalars; a foreach inside them is a launch too. Top-level
//   scalar declarations of constant value that nothing assigns form a
//   prologue that both the host and every launch compute; the other
//   scalars of host statements (those the parameters determine, loop
//   variables, declarations in loops and ifs, those the host assigns) are
//   host variables, which a launch that uses them takes as arguments. Inside a launch, a foreach over a
//   "group" par_group takes a group dimension, one over an "item" par_group
//   an item dimension. Loops form slots: the k-th loop of a level on the
//   way down from the root (siblings share a slot, whose size is the
//   largest of their counts; a loop that may be smaller than its slot is
//   guarded: every loop of a shared slot but, where all of their counts
//   are constants, those of the largest count, and none where all counts
//   are the same value, mcpl::same_int_value).
//   Item loops align at the innermost: a loop that heads a nest of h item
//   loops takes the h-th slot from the last, so that every innermost item
//   loop takes the last slot. The innermost slot of a level takes
//   dimension 0 (consecutive items on consecutive addresses); when a level
//   has more slots than dimensions, the outermost slots share the last
//   dimension, linearised row-major. Where sibling nests differ in depth,
//   an innermost item loop can have slots of its launch that no loop
//   around it takes (ForeachPlacement::idle_slots): its body runs only
//   where their indices are 0. Where a guarded loop's body reaches a
//   barrier, the guard is pushed past it (GuardPushing.h): every item runs
//   the statements that lead to a barrier, and the others run under the
//   guard; what cannot be pushed is refused there. Scalar
//   declarations on the way to a loop whose values do not depend on
//   indices or memory become host code, so that counts can be evaluated
//   before the launch. Arrays in a "group"-scoped space are collected for
//   the backend to place at kernel scope (constant size) or pass as dynamic
//   storage. Arrays in a "device"-scoped space are scratch storage that the
//   host allocates: one for the whole kernel when declared at its top level
//   (every launch gets it), else one per instance of the group loops around
//   the declaration (a work-group's own part of one allocation); inside item
//   loops such an array belongs to one item and is left to the backend as a
//   private array.
//   GroupPhases then decides where the items of a work-group synchronise
//   between the phases of a group loop, and refuses group-level code that
//   every item would run where MCPL runs it once.
// Guarantees: on success every foreach of the kernel has a placement, every
//   slot size and scratch array size is computable on the host from the
//   kernel's scalar parameters and host declarations, no barrier sits
//   under a guard (all items of a group reach it, as often as each other),
//   and no barrier inside a
//   group loop, or in a function called there, is on a "device"-scoped space (its units span all the
//   work-groups, which cannot wait for each other inside one launch; check
//   refuses such barriers against the description, and this holds the same
//   line for a target configuration that scopes a space differently).
//   Otherwise a located error names the construct and the backend, and
//   std::nullopt is returned.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/TargetConfig.h"
#include "compiler/ast/Ast.h"
#include "compiler/sema/Program.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::backends {

enum class GridLevel { Group = 0, Item = 1 };

// The k-th slot of a level: the loops that share it and its hardware place.
struct GridSlot {
    std::vector<const mcpl::Stmt*> loops;
    int dimension = 0;     // the hardware dimension it uses
    bool linearised = false;  // shares `dimension` with other slots
};

struct ForeachPlacement {
    GridLevel level = GridLevel::Group;
    size_t slot = 0;
    bool guarded = false;  // the slot may be larger than this loop's count
    // For an innermost item loop: the slots of either level that no loop
    // around it (itself included) takes. Its body runs only where their
    // indices are 0; elsewhere the items would run it once more each.
    std::vector<std::pair<GridLevel, size_t>> idle_slots;
    // The loop has a guard (guarded, or idle slots) and a barrier in its
    // body: the guard goes into the statements between the barriers, as
    // GridLaunch::open_statements and outside_statements say.
    bool pushes_guard = false;
};

// An array in device memory declared inside a launch, outside its item
// loops: each instance of the `group_depth` outermost group slots (the
// group loops around it) has its own.
struct ScratchArray {
    const mcpl::Decl* decl = nullptr;
    size_t group_depth = 0;
};

struct GridLaunch {
    const mcpl::Stmt* root = nullptr;                  // the top-level foreach
    std::vector<const mcpl::Decl*> host_declarations;  // in order, prologue excluded
    std::vector<GridSlot> slots[2];                    // per level, outermost first
    std::map<const mcpl::Stmt*, ForeachPlacement> placements;
    std::vector<const mcpl::Decl*> group_arrays;       // arrays in group-scoped spaces
    std::vector<ScratchArray> scratch_arrays;          // arrays in device memory, outside item loops
    // Outermost item loops before or after which the items of a work-group
    // synchronise, so that the group's phases run in order (GroupPhases).
    std::set<const mcpl::Stmt*> barriers_before, barriers_after;
    // Inside loops that push their guards: the statements that reach a
    // barrier (every item runs their headers; the guard goes inside them)
    // and the declarations and views every item makes, of which those in
    // split_statements every item declares without their values. The
    // others run under the guards of the loops around them.
    std::set<const mcpl::Stmt*> open_statements, outside_statements, split_statements;
    int dimensions[2] = {1, 1};                        // hardware dimensions used per level
    size_t kernel_arrays = 0;  // how many of the plan's kernel arrays are declared before it
};

struct GridPlan {
    std::vector<const mcpl::Decl*> prologue;  // top-level constant scalars every launch recomputes
    std::vector<const mcpl::Decl*> kernel_arrays;  // top-level arrays in device memory, in order
    std::vector<const mcpl::Decl*> host_variables;  // other scalars of host statements, in order
    std::vector<GridLaunch> launches;              // in source order
};

struct GridLevelConfig {
    int dimensions = 1;
    std::vector<std::string> index;  // the id query per dimension
};

// The "levels" section of a backend's configuration; errors located there.
std::optional<std::array<GridLevelConfig, 2>> grid_levels(const BackendConfig& config, const std::string& path,
                                                          DiagnosticEngine& diags);

// `module_constants`: the program's module-level constants, which the host
// glue defines too, so that counts and sizes may read them. `program`, the
// kernel's, says why a kernel call it refuses was not inlined.
std::optional<GridPlan> plan_grid(const mcpl::Program& program, const mcpl::Function& kernel, const BackendConfig& config,
                                  const std::array<GridLevelConfig, 2>& levels, const std::string& config_path,
                                  const std::set<const mcpl::Decl*>& module_constants, DiagnosticEngine& diags);

// Whether `s` is a foreach that `launch` places on the item level.
bool is_item_loop(const GridLaunch& launch, const mcpl::Stmt& s);

// The most items (threads) a group of `launch` can have, for launch bounds:
// the product over its item slots of each slot's largest count, a loop's
// count being its constant value or, where only the run time knows it, the
// unit count of its par_group in `leaf` (hopper: 32 warps of 32 threads);
// nullopt when that leaves it unlimited or above 2^31 - 1.
std::optional<int64_t> max_items_per_group(const GridLaunch& launch, const hdl::HardwareModel& leaf);

// The minimum of resident blocks per processor that launch bounds ask for
// `launch` of `kernel` (GenerationInput::min_blocks_per_processor): `asked`
// when `asked` blocks of at most `threads` items (max_items_per_group) fit
// on one processor of `leaf` at once, within the slots for groups and items
// of the execution unit that holds the leaf's items (hopper's sm: 32
// blocks, 2048 threads); otherwise a located error at the launch's foreach
// (one per launch that cannot have them) and nullopt. GPU compilers ignore a minimum that cannot be met (ptxas, with a
// warning), so it is refused here.
std::optional<int64_t> checked_min_blocks_per_processor(std::optional<int64_t> asked, const mcpl::Function& kernel,
                                                        const GridLaunch& launch, std::optional<int64_t> threads,
                                                        const hdl::HardwareModel& leaf, DiagnosticEngine& diags);

// Walks `list`, statements under a guard that `launch` pushes past
// barriers, in order: `every_item(s)` for a statement every item runs
// (open_statements, outside_statements), `guarded(run)` for each run of
// consecutive statements between them that only the guard's items run.
// A declaration of split_statements goes to both: `every_item` declares
// it without its value, and it opens the next run, which assigns it.
void for_each_guarded_run(const GridLaunch& launch, const std::vector<const mcpl::Stmt*>& list,
                          const std::function<void(const mcpl::Stmt&)>& every_item,
                          const std::function<void(const std::vector<const mcpl::Stmt*>&)>& guarded);

// The expression of a slot's index inside the kernel, given the level's
// id queries and the names of the slot-size kernel arguments.
std::string slot_index(const GridLaunch& launch, GridLevel level, size_t slot, const GridLevelConfig& config,
                       const std::vector<std::string>& size_names);

}  // namespace mcl::backends
