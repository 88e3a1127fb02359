// Runs feedback passes over the functions of a checked module: for each
// function (library functions with builtin bodies excepted) it collects the
// accesses once and hands them, with the function's hardware model, to
// each pass. Remarks come back in the order of the functions, then of the
// passes. A pass that throws (GiNaC on a division by zero from example
// values) is reported as stopped, with a remark at the function; so is
// every pass when collecting the accesses throws. Every remark leaves with
// an impact (RankRemarks.h, estimate_impacts).
#pragma once

#include <vector>

#include "compiler/sema/Program.h"
#include "feedback/FeedbackPass.h"
#include "hdl/HardwareLibrary.h"

namespace mcl::feedback {

std::vector<Remark> run_feedback(const mcpl::Program& program, const mcpl::Module& module,
                                 const hdl::HardwareLibrary& library, const Params& params,
                                 const std::vector<NamedPass>& passes = feedback_passes());

}  // namespace mcl::feedback
