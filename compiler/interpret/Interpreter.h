// Pass: the reference interpreter (DESIGN.md section 10). Runs one kernel of
// a checked module, at whatever level it is written, straight from the AST
// with MCPL's semantics and nothing else. It is the oracle of `mclc run`,
// `mclc verify` and differential testing: simple and obviously right
// matters more than speed.
//
// Needs: a kernel of a Program that check_program accepted (translated or not), the
//   hardware library (par_groups and the scopes of memory spaces), and one
//   storage per kernel parameter laid out as parameter_layouts() says.
// Does:
//   - the units of a foreach run in the order InterpretOptions asks for
//     (forward, reverse, or shuffled with a seed: an adversarial order finds
//     results that depend on one);
//   - the units that a barrier synchronises (those of every foreach nested
//     inside the par_unit that owns the barrier's memory space) run in
//     lock-step: each stretch of statements between barriers runs for every
//     unit before any unit goes on; a condition or loop around a barrier
//     that the units disagree on, or a unit that returns before a barrier
//     the others reach, is an error; a function with a barrier runs for the
//     units together when it is called as a statement, as a declaration's
//     value or as an assignment's value (each unit keeps what it returned);
//   - two units of one foreach that touch the same element between two
//     barriers, one of them writing (atomics aside), is a data race and an
//     error: the backends would give either result;
//   - locals and local arrays start unwritten; a value computed from
//     unwritten memory is poisoned, and deciding a branch, an index, a
//     count or a loop with it is an error; a poisoned value stored in an
//     argument stays visible to the caller (Scalar::poison);
//   - stores that a backend makes land later (InterpretOptions::deferred:
//     a GPU's asynchronous copies) land, newest first, only where it waits
//     for them, so a run with them shows what a missing wait would give;
//   - a foreach nest over one par_group runs no more units at once than
//     the description's max_nr_units (the counts CheckLimits could not
//     know before the run: `2 * n threads`), and the arrays a unit
//     declares in a memory space fit its capacity (`local float[2 * n]`);
//   - every index is checked against its extent; C's undefined arithmetic
//     (Value.h) is an error; library functions with builtin bodies (the
//     math functions of lib.math, the atomics of lib.atomics) are computed
//     in single precision as the backends' C functions are.
// Guarantees: either the kernel ran to completion and the storages hold its
//   results, or an error says why, located at the construct that failed.
//   Never throws for any input program; bounded by a step limit.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/interpret/Value.h"
#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"

namespace mcl::interpret {

// The cells of one variable and of every view of it, row-major; a record
// element takes one cell per primitive field, in declaration order.
struct Storage {
    std::vector<Scalar> cells;
    // Per cell, the unit that last wrote it and when (the interpreter's
    // clock of barriers): its race detection (filled as it writes).
    struct LastWrite {
        uint32_t unit = 0;
        uint32_t clock = 0;
    };
    std::vector<LastWrite> last_writes;
    // Per cell, the last unit that read it and the last other unit before
    // that (a write races with either; filled as units read).
    struct LastReads {
        LastWrite latest, other;
    };
    std::vector<LastReads> last_reads;
};
using StoragePtr = std::shared_ptr<Storage>;

// What a kernel parameter holds at the sizes of one run.
struct ParameterLayout {
    const mcpl::Decl* decl = nullptr;
    std::string name;
    bool is_array = false;
    std::vector<int64_t> extents;                // arrays: every extent, all groups in order
    std::vector<mcpl::Primitive> element_cells;  // the type of each cell of one element
    int64_t elements() const;                    // 1 for a scalar
    int64_t cell_count() const { return elements() * static_cast<int64_t>(element_cells.size()); }
};

enum class UnitOrder { Forward, Reverse, Shuffled };

// Assignments of a kernel whose stores a backend makes land later than MCPL
// does (asynchronous copies), and where the unit that made them waits until
// they have: before it runs a statement of `land_before`, and at the end of
// its unit of a foreach of `land_after`. Until then the unit and the others
// see the old element; pending stores land newest first.
struct DeferredStores {
    std::set<const mcpl::Stmt*> stores, land_before, land_after;
};

struct InterpretOptions {
    UnitOrder order = UnitOrder::Shuffled;
    uint64_t seed = 1;
    int64_t step_limit = 2'000'000'000;  // statements and loop tests, all units together
    DeferredStores deferred;
    int64_t* steps_run = nullptr;  // when set: gets the steps a successful run took (cost estimates)
};

struct InterpretError {
    SourceLocation location;
    std::string message;
};

// The primitive types of the cells of one element of `t` (its array groups
// dropped): one for a primitive, the fields flattened for a record.
std::vector<mcpl::Primitive> element_cells(const mcpl::Type& t);

// Evaluates the shape of every parameter of `kernel`; `scalars` holds one
// value for each scalar parameter, in parameter order (array parameters are
// skipped). Fails (located at the extent) when an extent is negative or
// cannot be evaluated.
std::optional<InterpretError> parameter_layouts(const mcpl::Function& kernel,
                                                const std::vector<Scalar>& scalars,
                                                std::vector<ParameterLayout>& layouts);

// Runs `kernel` on `arguments`, one storage per parameter laid out as
// parameter_layouts() says (scalars: one element).
std::optional<InterpretError> run_kernel(const hdl::HardwareLibrary& library,
                                         const mcpl::Function& kernel, const std::vector<StoragePtr>& arguments,
                                         const InterpretOptions& options);

}  // namespace mcl::interpret
