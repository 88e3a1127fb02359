// Helpers for the HDL tests: a library made of in-memory descriptions, and
// the built-in library.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hdl/HardwareLibrary.h"

namespace mcl::hdl::testing {

// A minimal valid `perfect`, the root every test library needs.
extern const char* const kTestPerfect;

struct LoadedLibrary {
    std::unique_ptr<SourceManager> sources = std::make_unique<SourceManager>();
    std::unique_ptr<DiagnosticEngine> diags = std::make_unique<DiagnosticEngine>(*sources);
    std::unique_ptr<HardwareLibrary> library = std::make_unique<HardwareLibrary>(*sources, *diags);

    // All diagnostics as clang-style text.
    std::string text() const;
};

// Loads kTestPerfect (as built-in "perfect.hdl") plus user files given as
// (path, text) pairs.
LoadedLibrary load_texts(const std::vector<std::pair<std::string, std::string>>& files,
                         bool with_perfect = true);

// Loads the built-in stdlib-hw directory.
LoadedLibrary load_stdlib();

}  // namespace mcl::hdl::testing
