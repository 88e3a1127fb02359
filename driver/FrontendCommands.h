// The `mclc` subcommands of the MCPL front end: `check FILE...` parses and
// checks modules (and what they import) and graphs (.cnc, against the
// kernels of their steps); `translate --hwd NAME FILE` moves
// a module down the hierarchy and prints it; `print-ast-json FILE` prints the
// checked AST of one module with types, memory spaces and read/write sets.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cnc/CheckGraph.h"
#include "cnc/LoadGraph.h"
#include "driver/Session.h"
#include "compiler/sema/Program.h"

namespace mcl::driver {

struct FrontendOptions {
    HardwarePaths hardware;
    std::vector<std::string> include_roots;  // -I
};

// Loads `files` and what they import, and checks them (only when loading
// reported no error); diagnostics go to the session.
mcpl::Program load_and_check(Session& session, const FrontendOptions& options,
                             const std::vector<std::string>& files);

// `check` takes MCPL modules and Concurrent Collections graphs (.cnc).
bool is_graph_file(const std::string& file);

// Loads the graph in `file`, loads and checks the MCPL modules it imports
// into `program`, and checks the graph against their kernels; nullopt after
// reporting. `loaded` keeps the graph the result points into.
std::optional<cnc::CheckedGraph> load_and_check_graph(Session& session, const FrontendOptions& options,
                                                     const std::string& file, mcpl::Program& program,
                                                     std::optional<cnc::LoadedGraph>& loaded);

int check_command(const FrontendOptions& options, const std::vector<std::string>& files, std::ostream& out,
                  std::ostream& err);
// Translates the module in `file` down to `target` and prints it as MCPL to
// `output` (a path) or to `out` when `output` is empty.
int translate_command(const FrontendOptions& options, const std::string& file, const std::string& target,
                      const std::string& output, std::ostream& out, std::ostream& err);
int print_ast_json_command(const FrontendOptions& options, const std::string& file, std::ostream& out,
                           std::ostream& err);

}  // namespace mcl::driver
