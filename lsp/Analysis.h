// One look at a document, as the language server keeps it between edits:
// the document's text and what it needs loaded, the diagnostics, the
// checked module and its performance remarks (MCPL), or the description
// (HDL). Hover and go-to-definition answer from the last analysis.
//
// Needs: the document's text (the editor's, not the file on disk), its
//   path (it anchors the include root of the module's imports, which are
//   read from disk as `mclc check` reads them) and where descriptions are.
// Does: MCPL: loads the module from the text and what it imports, checks
//   it, translates it to `level` when one is given, and runs every
//   feedback pass over it at its own level (or at `level`) with the
//   example values given, as `mclc feedback` does. HDL: builds the hardware library with the document's
//   text in place of its file on disk (or added as a user description when
//   it is in no library directory), so that its references, validation and
//   place in the hierarchy are checked against the other descriptions.
// Guarantees: every problem is in `diags`; stages after an error do not
//   run. The Analysis owns everything the AST's locations refer to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/sema/Program.h"
#include "feedback/Remark.h"
#include "feedback/Symbolic.h"
#include "hdl/Ast.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::lsp {

struct ServerOptions {
    std::string builtin_hwd_dir;
    std::vector<std::string> user_hwd_dirs;  // --hwd-path, MCL_HWD_PATH
    std::vector<std::string> include_roots;  // -I
};

enum class Language { Mcpl, Hdl };

// HDL for a `.hdl` path or the language id "hdl"; MCPL otherwise.
Language language_of(const std::string& path, const std::string& language_id);

struct Analysis {
    Language language;
    SourceManager sources;
    DiagnosticEngine diags{sources};
    hdl::HardwareLibrary library;
    uint32_t document_file = 0;  // the document's text in `sources`; 0 when it was not read

    // MCPL: what was loaded; `module` is the document's, null when it does
    // not parse. `checked`: the checker ran without errors, so uses know
    // their declarations.
    mcpl::Program program;
    const mcpl::Module* module = nullptr;
    bool checked = false;
    std::vector<feedback::Remark> remarks;

    // HDL: the document's description; null when it does not parse.
    std::unique_ptr<hdl::Description> description;

    Analysis(Language language, hdl::UserErrors user_errors)
        : language(language), library(sources, diags, user_errors) {}
    Analysis(const Analysis&) = delete;
    Analysis& operator=(const Analysis&) = delete;
};

// `params`: example values of the kernel's parameters (as --param gives
// them); `level` empty: feedback at the module's own level.
std::unique_ptr<Analysis> analyze_mcpl(const ServerOptions& options, const std::string& path, const std::string& text,
                                       const feedback::Params& params, const std::string& level = "");
std::unique_ptr<Analysis> analyze_hdl(const ServerOptions& options, const std::string& path, const std::string& text);

// The module an import of the document's module loaded; null for a
// hardware description or an import that did not resolve.
const mcpl::Module* imported_module(const Analysis& analysis, const mcpl::Import& import);

// The id of the file `path` in `sources` (the last one read from there);
// 0 when none was.
uint32_t file_id_of(const SourceManager& sources, const std::string& path);

}  // namespace mcl::lsp
