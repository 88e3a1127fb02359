// `mclc verify GRAPH.cnc [VERSION...]`: a Concurrent Collections graph
// checked against its reference run, as `verify` checks a kernel.
//
// Needs: a graph that `mclc check` accepts, further versions of its steps'
//   kernels (as `mclc gen --graph` takes them).
// Does: fills every item the environment puts with seeded values (the
//   rules of KernelData.h, ints below the smallest positive int constant),
//   runs the graph with the reference interpreter (cnc/InterpretGraph.h:
//   every step instance on its kernel as the imported modules write it),
//   then as the runtime runs it (`mclc gen --graph` with the versions, a
//   harness of BackendRunner.h) once on CPU workers only and once on
//   OpenCL workers only, and compares every item the environment gets with
//   the reference's, one report line a run as `verify` prints them.
// Guarantees: exit status 0 when every run agrees with the reference, 1
//   when one differs or the reference itself fails (its located error: an
//   instance waiting for an item nothing puts, an item put twice or with
//   elements its kernel leaves unwritten, a kernel's error).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "driver/FrontendCommands.h"
#include "driver/RunCommands.h"

namespace mcl::driver {

int verify_graph_command(const FrontendOptions& options, const std::vector<std::string>& files,
                         const VerifyOptions& verify, std::ostream& out, std::ostream& err);

}  // namespace mcl::driver
