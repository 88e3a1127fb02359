#include "driver/FrontendCommands.h"

#include <ostream>

#include <nlohmann/json.hpp>

#include "compiler/ast/AstJson.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/Translate.h"
#include "support/OutputFile.h"

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

std::optional<cnc::CheckedGraph> load_and_check_graph(Session& session, const FrontendOptions& options,
                                                     const std::string& file, mcpl::Program& program,
                                                     std::optional<cnc::LoadedGraph>& loaded) {
    loaded = cnc::load_graph(file, options.include_roots, session.sources, session.diags);
    if (!loaded) return std::nullopt;
    program = load_and_check(session, options, loaded->module_files);
    if (session.diags.has_errors()) return std::nullopt;
    return cnc::check_graph(loaded->graph, program, session.diags);
}

bool is_graph_file(const std::string& file) {
    return file.size() > 4 && file.compare(file.size() - 4, 4, ".cnc") == 0;
}

int check_command(const FrontendOptions& options, const std::vector<std::string>& files, std::ostream&,
                  std::ostream& err) {
    Session session(options.hardware);
    std::vector<std::string> modules;
    for (const std::string& f : files)
        if (!is_graph_file(f)) modules.push_back(f);
    if (!modules.empty()) load_and_check(session, options, modules);
    for (const std::string& f : files) {
        if (!is_graph_file(f)) continue;
        mcpl::Program program;
        std::optional<cnc::LoadedGraph> loaded;
        load_and_check_graph(session, options, f, program, loaded);
    }
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
    std::string error;
    if (!write_output_file(output, text, error)) {
        err << "mclc: error: " << error << "\n";
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
