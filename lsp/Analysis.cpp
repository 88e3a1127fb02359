#include "lsp/Analysis.h"

#include <utility>

#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/Translate.h"
#include "feedback/RunFeedback.h"
#include "hdl/ParseHdl.h"

namespace mcl::lsp {

uint32_t file_id_of(const SourceManager& sources, const std::string& path) {
    uint32_t found = 0;
    for (uint32_t id = 1; !sources.path(id).empty(); ++id)
        if (sources.path(id) == path) found = id;
    return found;
}

const mcpl::Module* imported_module(const Analysis& analysis, const mcpl::Import& import) {
    if (import.path.empty()) return nullptr;
    auto imported = analysis.program.imported_modules.find(analysis.module);
    if (imported == analysis.program.imported_modules.end()) return nullptr;
    std::vector<std::string> package(import.path.begin(), import.path.end() - 1);
    for (const mcpl::Module* m : imported->second)
        if (m->package == package && m->name == import.path.back()) return m;
    return nullptr;
}

Language language_of(const std::string& path, const std::string& language_id) {
    bool hdl_path = path.size() >= 4 && path.compare(path.size() - 4, 4, ".hdl") == 0;
    return hdl_path || language_id == "hdl" ? Language::Hdl : Language::Mcpl;
}

std::unique_ptr<Analysis> analyze_mcpl(const ServerOptions& options, const std::string& path, const std::string& text,
                                       const feedback::Params& params, const std::string& level) {
    // Errors in user descriptions count only where the module uses them,
    // as for `mclc check`.
    auto a = std::make_unique<Analysis>(Language::Mcpl, hdl::UserErrors::Defer);
    a->library.load(options.builtin_hwd_dir, options.user_hwd_dirs);
    a->program = mcpl::load_modules_from_text(path, text, options.include_roots, a->sources, a->library, a->diags);
    a->document_file = file_id_of(a->sources, path);
    if (a->program.roots.empty()) return a;
    a->module = a->program.roots.front();
    // Checking only a program that loaded cleanly, as the command line does.
    if (a->diags.has_errors()) return a;
    a->checked = mcpl::check_program(a->program, a->library, a->diags) && !a->diags.has_errors();
    if (!a->checked) return a;
    if (!level.empty()) {
        if (!translate::translate_program(a->program, level, a->library, a->diags) || a->diags.has_errors())
            return a;
        a->module = a->program.roots.front();
    }
    a->remarks = feedback::run_feedback(a->program, *a->module, a->library, params);
    return a;
}

std::unique_ptr<Analysis> analyze_hdl(const ServerOptions& options, const std::string& path, const std::string& text) {
    auto a = std::make_unique<Analysis>(Language::Hdl, hdl::UserErrors::Report);
    hdl::EditedFile document{path, text};
    bool placed = a->library.add_directory(options.builtin_hwd_dir, false, &document);
    for (const std::string& dir : options.user_hwd_dirs)
        placed = a->library.add_directory(dir, true, &document) || placed;
    // A description outside the library is what --hwd-path would make it.
    if (!placed) a->library.add_buffer(path, std::move(document.text), true);
    a->library.finish();
    a->document_file = file_id_of(a->sources, path);
    DiagnosticEngine reported_already(a->sources);
    a->description = hdl::parse_hdl(a->document_file, a->sources, reported_already);
    return a;
}

}  // namespace mcl::lsp
