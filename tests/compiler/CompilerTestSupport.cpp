#include "tests/compiler/CompilerTestSupport.h"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

// A declaration by name: a module constant, or a parameter or local of `fn`.
const Decl* find_decl(const CheckedText& checked, const std::string& fn, const std::string& name) {
    std::function<const Decl*(const Stmt&)> in_stmt = [&](const Stmt& s) -> const Decl* {
        if (s.decl && s.decl->name() == name) return s.decl.get();
        for (const StmtPtr& child : s.body)
            if (const Decl* d = in_stmt(*child)) return d;
        for (const StmtPtr* child : {&s.then_branch, &s.else_branch, &s.step, &s.loop_body})
            if (*child)
                if (const Decl* d = in_stmt(**child)) return d;
        return nullptr;
    };
    for (const auto& module : checked.program.modules) {
        for (const auto& constant : module->constants)
            if (fn.empty() && constant->name() == name) return constant.get();
        for (const auto& function : module->functions) {
            if (function->name != fn) continue;
            for (const auto& param : function->params)
                if (param->name() == name) return param.get();
            return in_stmt(*function->body);
        }
    }
    return nullptr;
}

void expect_clean(const CheckedText& checked) {
    EXPECT_FALSE(checked.diags->has_errors()) << checked.text();
}

std::string diagnostics_without_errors(const std::string& text) {
    CheckedText checked = check_text(text);
    expect_clean(checked);
    return checked.text();
}

void expect_error(const std::string& text, const std::string& expected) {
    CheckedText checked = check_text(text);
    EXPECT_EQ(checked.diags->error_count(), 1u) << checked.text();
    EXPECT_THAT(checked.text(), ::testing::HasSubstr(expected));
}

}  // namespace mcl::mcpl::testing
