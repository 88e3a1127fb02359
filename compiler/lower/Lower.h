// Pass driver: lowering for the engines and backends (the llvm engine and
// every code generator), after translation; the interpreter runs MCPL as
// written, so `mclc verify` compares the two.
//
// Needs: a checked program, translated to its leaf when one is the target.
// Does: RenameShadowingLocals (no local hides a name the C-family code
//   would then read), InlineKernelCalls (a kernel's host-level calls of
//   other kernels), then LowerUnitReturns (returns inside foreach loops,
//   the inlined ones' included).
// Guarantees: the program means what it meant and checks again; false when
//   a pass reported an error.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::lower {

bool lower_for_engines(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::lower
