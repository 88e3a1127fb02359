// The MCPL front end's checking pipeline on a loaded Program: resolve_names,
// then check_constants, check_mapping, infer_read_write and check_limits.
// Each later pass runs only when the earlier ones found no error, since it
// relies on their annotations.
// Returns true when the program is valid.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

bool check_program(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
