// Pass: refuse barriers that would have to synchronise a whole grid.
//
// Needs: a function checked at `target`: its own description (check_program
//   runs it there) or the one translation moved it down to (translate runs
//   it there, with the memory space each barrier named before translation,
//   for the message; empty when nothing was renamed).
// Does: on a description with nested par_groups, the units of the outermost
//   one (blocks of a GPU, threads of a CPU, pipelines of an FPGA) each run as
//   a group of the launch, and groups cannot wait for each other inside one
//   launch. A barrier inside a foreach over that par_group on a memory space
//   declared at the top of the description (shared by all of its units)
//   would have to do so, as would one in a function called there. At
//   `perfect` (one par_group) it is valid; a kernel written at `gpu` with
//   barrier(dev) inside its blocks, or a `perfect` kernel translated to a
//   grid, has no backend that keeps its meaning. Each such barrier is an
//   error at the barrier that says why and how to rewrite the kernel (end
//   the foreach there and continue in a second top-level foreach).
// Guarantees: every barrier of an accepted function synchronises units that
//   share one group of the target, or the function has no grid (a
//   description with a single par_group, such as `perfect`).
#pragma once

#include <map>
#include <string>

#include "compiler/ast/Ast.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void check_launch_barriers(const Function& f, const hdl::HardwareModel& target,
                           const std::map<const Stmt*, std::string>& written_spaces, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
