// Pass: a kernel's host-level calls of other kernels, inlined, so that the
// grid backends (whose host code launches foreach loops and runs no device
// code) run the callee's loops as launches of the caller.
//
// Needs: a checked program (translated to its leaf, when one is the target).
// Does: a call statement outside the foreach loops of a function, to a
//   function of the same module and description whose body holds foreach
//   loops, is replaced by the callee's body, with
//   - each parameter passed by reference (arrays, records, scalars the
//     callee writes; MCPL passes them so) renamed to the argument, which
//     must be a whole variable; an array parameter's extents after the
//     first must be those of the argument (the callee would see the
//     elements in another shape otherwise);
//   - each other parameter a declaration initialised with the argument,
//     which converts it as the call did, or, where the argument is a
//     variable of the parameter's type that nothing writes, renamed to it
//     (extents read from the caller's parameters keep reading those);
//   - every name the callee declares renamed to a fresh one, so that none
//     captures or hides a name of the caller;
//   - every name outside the callee that a name of the caller hides (a
//     module constant, the description a hardware value starts with)
//     replaced by its value, where the program fixes one (hardware values,
//     int module constants that fold).
//   Calls in the inlined code are inlined in turn (the checker refuses
//   recursion). A call that does not meet these conditions (arguments that
//   are elements or expressions where a reference is passed, a callee that
//   returns outside its foreach loops, one that refers to a hidden name of
//   no fixed value (a function it calls included), in its body or its
//   parameters' extents) stays as it is, for the backend to run or refuse
//   with its located error.
// Guarantees: the program means what it meant (arguments are evaluated
//   once, before the callee's statements, as a call does) and checks again.
//   Returns false when checking it again reported an error.
#pragma once

#include <optional>
#include <string>

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::lower {

bool inline_kernel_calls(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

// Why the call statement `call` in `caller`, a kernel call, stays a call
// (for a backend's note when it refuses the call); nothing where `call`
// calls no kernel of the caller's module and description, or would be
// inlined.
std::optional<std::string> why_kernel_call_stays(const mcpl::Program& program, const mcpl::Function& caller,
                                                 const mcpl::Stmt& call);

}  // namespace mcl::lower
