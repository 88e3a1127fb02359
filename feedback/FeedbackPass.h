// The interface of feedback passes and the list of them.
//
// A pass reads one checked function (at the level whose description it
// targets) and that description's model, and returns remarks at the user's
// source locations. Passes are functions of their input; they share the
// access analysis (LoopNest.h) and symbolic quantities (Symbolic.h).
#pragma once

#include <string>
#include <vector>

#include "compiler/sema/Program.h"
#include "feedback/LoopNest.h"
#include "feedback/Remark.h"
#include "feedback/Symbolic.h"
#include "hdl/HardwareModel.h"

namespace mcl::feedback {

struct FeedbackInput {
    const mcpl::Program& program;
    const mcpl::Function& function;
    const hdl::HardwareModel& model;   // the function's description
    const std::vector<Access>& accesses;
    Symbols& symbols;
};

using FeedbackPass = std::vector<Remark> (*)(const FeedbackInput&);

struct NamedPass {
    const char* name;
    FeedbackPass run;
    RemarkKind kind;  // of the remark that reports the pass stopping early
};

// Every pass, in the order their remarks are reported.
const std::vector<NamedPass>& feedback_passes();

}  // namespace mcl::feedback
