#include "tests/compiler/CompilerTestSupport.h"

#include <sstream>

#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "tests/compiler/McplTestSupport.h"

namespace mcl::mcpl::testing {

std::string CheckedText::text() const {
    std::ostringstream out;
    diags->print_text(out);
    return out.str();
}

namespace {
CheckedText prepare() {
    CheckedText c;
    c.sources = std::make_unique<SourceManager>();
    c.diags = std::make_unique<DiagnosticEngine>(*c.sources);
    c.library = std::make_unique<hdl::HardwareLibrary>(*c.sources, *c.diags);
    c.library->load(MCL_STDLIB_HW_DIR, {});
    return c;
}
}  // namespace

CheckedText check_text(const std::string& text, const std::string& name,
                       const std::vector<std::string>& include_roots) {
    // Every test input that parses must also be a fixed point of the printer.
    if (parse_text(text).module) expect_round_trip(text);
    CheckedText c = prepare();
    c.program = load_modules_from_text(name, text, include_roots, *c.sources, *c.library, *c.diags);
    check_program(c.program, *c.library, *c.diags);
    return c;
}

CheckedText check_files(const std::vector<std::string>& files, const std::vector<std::string>& include_roots) {
    CheckedText c = prepare();
    c.program = load_modules(files, include_roots, *c.sources, *c.library, *c.diags);
    check_program(c.program, *c.library, *c.diags);
    return c;
}

}  // namespace mcl::mcpl::testing
