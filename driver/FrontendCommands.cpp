#include "driver/FrontendCommands.h"

#include <fstream>
#include <ostream>

#include <nlohmann/json.hpp>

#include "compiler/ast/AstJson.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/Translate.h"

namespace mcl::driver {

// Checking runs only on a program that loaded cleanly, so that a missing
// import does not bury its own error under follow-ups.
mcpl::Program load_and_check(Session& session, const FrontendOptions& options,
                             const std::vector<std::string>& files) {
    mcpl::Program program =
        mcpl::load_modules(files, options.include_roots, session.sources, session.library, session.diags);
    if (!session.diags.has_errors()) mcpl::check_program(program, session.library, session.diags);
    return program;
}

int check_command(const FrontendOptions& options, const std::vector<std::string>& files, std::ostream&,
                  std::ostream& err) {
    Session session(options.hardware);
    load_and_check(session, options, files);
    return session.report(err);
}

int translate_command(const FrontendOptions& options, const std::string& file, const std::string& target,
                      const std::string& output, std::ostream& out, std::ostream& err) {
    Session session(options.hardware);
    mcpl::Program program = load_and_check(session, options, {file});
    if (!session.diags.has_errors()) translate::translate_program(program, target, session.library, session.diags);
    int status = session.report(err);
    if (status != 0 || program.roots.empty()) return status;
    std::string text = mcpl::print_module(*program.roots.front());
    if (output.empty()) {
        out << text;
        return 0;
    }
    std::ofstream file_out(output);
    file_out << text;
    if (!file_out) {
        err << "mclc: error: cannot write '" << output << "'\n";
        return 1;
    }
    return 0;
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
