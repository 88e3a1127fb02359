// Pass: refuse barriers that a translation turned into grid-wide ones.
//
// Needs: a function translated down to `target` and checked there, and the
//   memory space each of its barriers named before translation (for the
//   message).
// Does: on a target with nested par_groups, the units of the outermost one
//   (blocks of a GPU, threads of a CPU, pipelines of an FPGA) each run as a
//   group of the launch, and groups cannot wait for each other inside one
//   launch. A barrier inside a foreach over that par_group on a memory space
//   declared at the top of the description (shared by all of its units)
//   would have to do so, as would one in a function called there: at
//   `perfect` it is valid, but after translation no backend can keep its
//   meaning. Each such barrier is an error at the
//   barrier that says why and how to rewrite the kernel (end the foreach
//   there and continue in a second top-level foreach).
// Guarantees: every barrier of an accepted function synchronises units that
//   share one group of the target, or the function has no grid (a
//   description with a single par_group, such as `perfect`).
#pragma once

#include <map>
#include <string>

#include "compiler/ast/Ast.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::translate {

void check_launch_barriers(const mcpl::Function& f, const hdl::HardwareModel& target,
                           const std::map<const mcpl::Stmt*, std::string>& written_spaces, DiagnosticEngine& diags);

}  // namespace mcl::translate
