#include "compiler/sema/CheckProgram.h"

#include "compiler/sema/CheckBarrierUniformity.h"
#include "compiler/sema/CheckConstants.h"
#include "compiler/sema/CheckDefiniteAssignment.h"
#include "compiler/sema/CheckLaunchBarriers.h"
#include "compiler/sema/CheckLimits.h"
#include "compiler/sema/CheckMapping.h"
#include "compiler/sema/InferReadWrite.h"
#include "compiler/sema/ResolveNames.h"

namespace mcl::mcpl {

bool check_program(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags,
                   CheckOptions options) {
    size_t errors = diags.error_count();
    resolve_names(program, library, diags);
    if (diags.error_count() > errors) return false;
    check_constants(program, diags);
    if (diags.error_count() > errors) return false;
    check_mapping(program, library, diags);
    if (diags.error_count() > errors) return false;
    infer_read_write(program, diags);
    if (diags.error_count() > errors) return false;
    if (options.source_warnings) check_definite_assignment(program, diags);
    check_limits(program, library, diags);
    if (options.source_warnings) check_barrier_uniformity(program, library, diags);
    if (options.launch_barriers)
        for (const auto& m : program.modules)
            for (const auto& f : m->functions)
                if (const hdl::HardwareModel* model = library.find(f->hardware))
                    check_launch_barriers(*f, *model, {}, diags);
    return diags.error_count() == errors;
}

}  // namespace mcl::mcpl
