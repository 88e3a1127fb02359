#include "compiler/driver/FrontendCommands.h"

#include <ostream>

#include <nlohmann/json.hpp>

#include "compiler/ast/AstJson.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"

namespace mcl::driver {

namespace {

// Loads and checks; checking runs only on a program that loaded cleanly, so
// that a missing import does not bury its own error under follow-ups.
mcpl::Program load_and_check(Session& session, const FrontendOptions& options,
                             const std::vector<std::string>& files) {
    mcpl::Program program =
        mcpl::load_modules(files, options.include_roots, session.sources, session.library, session.diags);
    if (!session.diags.has_errors()) mcpl::check_program(program, session.library, session.diags);
    return program;
}

}  // namespace

int check_command(const FrontendOptions& options, const std::vector<std::string>& files, std::ostream&,
                  std::ostream& err) {
    Session session(options.hardware);
    load_and_check(session, options, files);
    return session.report(err);
}

int print_ast_json_command(const FrontendOptions& options, const std::string& file, std::ostream& out,
                           std::ostream& err) {
    Session session(options.hardware);
    mcpl::Program program = load_and_check(session, options, {file});
    int status = session.report(err);
    if (status == 0 && !program.roots.empty())
        out << mcpl::module_to_json(*program.roots.front(), session.sources).dump(2) << '\n';
    return status;
}

}  // namespace mcl::driver
