// The MCPL front end's checking pipeline on a loaded Program: resolve_names,
// then check_constants, check_mapping, infer_read_write,
// check_definite_assignment, check_limits, check_barrier_uniformity and
// check_launch_barriers (each function at its own description). Each later pass runs only when the earlier ones found no
// error, since it relies on their annotations.
// Returns true when the program is valid.
#pragma once

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

struct CheckOptions {
    // Off while translation moves functions level by level: it checks them
    // once, at the target, naming the memory spaces as the user wrote them.
    bool launch_barriers = true;
    // Off there too: check_barrier_uniformity's and
    // check_definite_assignment's warnings are about the program as written,
    // which the check before translation gave once (each level would repeat
    // them, or warn about what a pass wrote).
    bool source_warnings = true;
};

bool check_program(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags,
                   CheckOptions options = {});

}  // namespace mcl::mcpl
