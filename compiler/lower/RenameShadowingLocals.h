// Pass: every local that hides a name of an enclosing scope gets a fresh
// name of its own.
//
// Needs: a checked program.
// Does: MCPL lets a local hide a parameter, a module constant or a local of
//   an enclosing scope (`int m = 0;` in a loop of a kernel over
//   `float[n, m] o`). The checker binds each use to its declaration, but
//   the C-family backends write code by name, and the extents they index
//   arrays with (`o[i * m + k]`) name the parameter where the local now
//   hides it: a silent wrong result. A local named like a function or a
//   record hides it in C from its declarator on (`int f = f(i);` does not
//   compile). So each variable, loop index or `as` view declared where a
//   parameter, a module constant, function or record, or a variable of an
//   enclosing scope of the same name is visible is renamed, with every
//   use bound to it, to a name no declaration, module or description of
//   the program has.
// Guarantees: no local hides another name in the function, the program
//   means what it meant and checks again; names that hide nothing keep
//   their spelling. Returns false when checking it again reported an error.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::lower {

bool rename_shadowing_locals(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::lower
