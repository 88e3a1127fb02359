// Pass driver: translate a checked program down to a target description
// (thesis section 3.6.1, appendix B.1).
//
// Needs: a Program that check_program accepted and the hardware library.
// Does: for every function (imported library functions included, so that
//   they move down with their callers) whose description is above `target`,
//   applies one-level steps along the path down to it: ParGroupMapping, then
//   TranslateMemorySpaces, TranslateHardwareValues and TranslateForeach; a module's import of the
//   description it left is replaced by one of the new description. After each
//   step the program is checked again, so the next step sees fresh
//   annotations and a step that would produce invalid code is reported.
//   Generated names avoid every name of the program and of the library
//   (OuterNames). At the end, CheckLaunchBarriers refuses barriers that the
//   move made grid-wide.
//   Functions of the root modules whose description is not above the target
//   are left as they are, with a note; a target that is not below any of
//   them is an error at the first function.
// Guarantees: on success every translated function targets `target` and the
//   program checks; translating straight to a target and level by level
//   give the same program, and translating to a function's own level
//   changes nothing. On failure the program may be half translated, but no
//   variable names a declaration the translation freed (it names none).
#pragma once

#include <string>

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::translate {

bool translate_program(mcpl::Program& program, const std::string& target, const hdl::HardwareLibrary& library,
                       DiagnosticEngine& diags);

}  // namespace mcl::translate
