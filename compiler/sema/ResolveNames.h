// Pass: resolve names and check types in a loaded Program.
//
// Needs: a Program from load_modules (imports resolved) and the hardware
//   library.
// Does, per module (records, constants and function signatures of every
// module first, imported modules before their importers, then the function
// bodies: a call's type and argument checks do not depend on where its
// callee is defined):
//   - every function's hardware description exists (an error otherwise); a
//     module that uses a description it does not import, directly or through
//     an imported module, gets a warning;
//   - names resolve in scope order: locals and parameters, the module's
//     constants, records and functions, then the exported names of imported
//     modules, then builtins; duplicate names in one scope are errors, and
//     so is a function named like a builtin (translation calls builtins by
//     name);
//   - record types and fields resolve; array dimension and index counts
//     match the type (`a[i,j]` on `float[n,m]`; tiles `a[i][j]`);
//   - types check: arithmetic on numbers (int, byte, float, double; mixed
//     int/float promotes), conditions are bool or int, comparisons give
//     bool, `^` is power, assignments convert between numbers only, calls
//     match their signatures (count and types; arrays by element type and
//     rank), `return` matches the function's type;
//   - a float literal without an `f` suffix, or a sum, difference, product,
//     quotient or negation of such literals (and ints), is a double where a
//     double is wanted: initializing, assigned to or returned as a double,
//     passed for a double parameter or to toDouble, or beside a double
//     operand (arithmetic, comparisons, min and max); `double d = 0.1` holds
//     the double nearest 0.1, as in C. Anywhere else it is a float, and
//     `0.1f` always is. A literal that rounds past its type's range, or to
//     zero, is an error (`1e-50` is one only where it is a float);
//   - array sizes are constant expressions over parameters, constants and
//     hardware values; no global variables except `const`;
//   - hardware values such as `gpu.hierarchy.blocks.block.threads.max_nr_units`
//     are evaluated from the model (nr_units or max_nr_units of a par_group,
//     or nr_processors: the execution units that run its units side by
//     side, HardwareModel::nr_processors) and stored in Expr::hardware; a name is a hardware value only when no
//     variable of that name is in scope (a function or record of that name
//     does not hide it), and an Expr that already holds one (translation
//     writes them) keeps it whatever its names resolve to now;
//   - library functions whose body consists of `mcl_builtin_read(...)` /
//     `mcl_builtin_write(...)` calls are marked builtin_body; those calls are
//     allowed only there.
// Guarantees: afterwards, on a program without errors, every Var has decl
//   and form (or hardware), every Call has function (or is a builtin), every
//   Expr has a type, every BasicDecl a resolved_type, every Function its
//   module, builtin_body and resolved_return_type.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

// The builtin functions every module sees (toFloat, min, divide_up, ...).
bool is_builtin_function(const std::string& name);

// A call whose value depends on its arguments alone and which writes
// nothing: a builtin (`min`, `toFloat`), or a library function whose
// builtin body writes none of its parameters (`sqrt`; not `atomicAdd`).
// Needs a checked call (its `function` bound) or a builtin's.
bool is_pure_call(const Expr& call);

// Whether a call passes `param` by reference: arrays, records, and the
// scalars the callee writes (`written`, which the caller supplies because
// InferReadWrite asks while it is still computing Decl::is_written).
bool passed_by_reference(const Decl& param, bool written);

void resolve_names(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
