// The `mclc` subcommands of the MCPL front end: `check FILE...` parses and
// checks modules (and what they import); `translate --hwd NAME FILE` moves
// a module down the hierarchy and prints it; `print-ast-json FILE` prints the
// checked AST of one module with types, memory spaces and read/write sets.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

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

int check_command(const FrontendOptions& options, const std::vector<std::string>& files, std::ostream& out,
                  std::ostream& err);
// Translates the module in `file` down to `target` and prints it as MCPL to
// `output` (a path) or to `out` when `output` is empty.
int translate_command(const FrontendOptions& options, const std::string& file, const std::string& target,
                      const std::string& output, std::ostream& out, std::ostream& err);
int print_ast_json_command(const FrontendOptions& options, const std::string& file, std::ostream& out,
                           std::ostream& err);

}  // namespace mcl::driver
