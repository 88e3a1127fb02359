#include "compiler/lower/Lower.h"

#include "compiler/lower/InlineKernelCalls.h"
#include "compiler/lower/LowerUnitReturns.h"

namespace mcl::lower {

bool lower_for_engines(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    return inline_kernel_calls(program, library, diags) && lower_unit_returns(program, library, diags);
}

}  // namespace mcl::lower
