// Helpers for the compiler tests: run the MCPL front end on text or files
// against the built-in hardware library.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl::testing {

struct CheckedText {
    std::unique_ptr<SourceManager> sources;
    std::unique_ptr<DiagnosticEngine> diags;
    std::unique_ptr<hdl::HardwareLibrary> library;
    Program program;

    // All diagnostics as clang-style text.
    std::string text() const;
    // The first root module (null when it did not parse).
    const Module* module() const { return program.roots.empty() ? nullptr : program.roots.front(); }
};

// Parses `text` as file `name`, loads the built-in stdlib-hw library and runs
// the whole front end (check_program).
CheckedText check_text(const std::string& text, const std::string& name = "t.mcl",
                       const std::vector<std::string>& include_roots = {});

// The same on files.
CheckedText check_files(const std::vector<std::string>& files,
                        const std::vector<std::string>& include_roots = {});

// A declaration by name: a module constant (fn empty), or a parameter or
// local of function `fn`; null when there is none.
const Decl* find_decl(const CheckedText& checked, const std::string& fn, const std::string& name);

// Expects no error; prints the diagnostics otherwise.
void expect_clean(const CheckedText& checked);

// Checks `text`, expects no error and gives its diagnostics (the warnings
// and remarks) as text.
std::string diagnostics_without_errors(const std::string& text);

// Expects `text` to fail with exactly one error whose text (location,
// message, notes) contains `expected`.
void expect_error(const std::string& text, const std::string& expected);

}  // namespace mcl::mcpl::testing
