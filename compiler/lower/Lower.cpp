#include "compiler/lower/Lower.h"

#include "compiler/lower/InlineKernelCalls.h"
#include "compiler/lower/LowerUnitReturns.h"
#include "compiler/lower/RenameShadowingLocals.h"

namespace mcl::lower {

bool lower_for_engines(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    return rename_shadowing_locals(program, library, diags) && inline_kernel_calls(program, library, diags) &&
           lower_unit_returns(program, library, diags);
}

}  // namespace mcl::lower
