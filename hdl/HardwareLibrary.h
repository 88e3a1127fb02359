// HardwareLibrary: every hardware description the compiler knows, and the
// hierarchy they form.
//
// Descriptions come from the built-in `stdlib-hw/` and from user directories
// (`--hwd-path DIR`, `MCL_HWD_PATH`); a user description overrides a built-in
// one of the same name. load() parses every file, then resolves references
// across the whole library, validates each description, checks the
// `specializes` edges (unknown parent, cycles, a second root) and builds a
// HardwareModel for each valid description. One bad file never takes the
// others down: its errors are reported and it is left out, together with the
// descriptions below it, which then have no path to the root.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hdl/Ast.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::hdl {

inline constexpr const char* kRootDescription = "perfect";

class HardwareLibrary {
public:
    HardwareLibrary(SourceManager& sources, DiagnosticEngine& diags)
        : sources_(sources), diags_(diags) {}

    // Loads the built-in directory, then the user directories, then finish().
    void load(const std::string& builtin_dir, const std::vector<std::string>& user_dirs);

    // Step by step: add descriptions (a user one overrides a built-in one of
    // the same name; two of the same kind with one name are an error), then
    // finish() resolves, validates and builds the models.
    void add_directory(const std::string& dir, bool user);
    void add_buffer(const std::string& path, std::string text, bool user);
    void finish();

    const HardwareModel* find(const std::string& name) const;
    std::vector<std::string> names() const;  // valid descriptions, sorted
    std::optional<std::string> parent(const std::string& name) const;
    std::vector<std::string> children(const std::string& name) const;  // sorted
    std::vector<std::string> leaves() const;
    // True when `ancestor` is `name` or above it in the hierarchy.
    bool is_ancestor(const std::string& ancestor, const std::string& name) const;
    // The descriptions from `from` down to `to`, both included, when `from`
    // is an ancestor of `to`.
    std::optional<std::vector<std::string>> path(const std::string& from,
                                                 const std::string& to) const;
    // The file a description was read from.
    std::string file_of(const std::string& name) const;

private:
    struct Entry {
        std::unique_ptr<Description> ast;
        std::string path;
        bool user = false;
        bool valid = false;
        std::unique_ptr<HardwareModel> model;
    };
    void add_parsed(uint32_t file, const std::string& path, bool user);
    void check_hierarchy();

    SourceManager& sources_;
    DiagnosticEngine& diags_;
    std::map<std::string, std::unique_ptr<Entry>> entries_;
    std::vector<std::unique_ptr<Entry>> overridden_;  // kept alive: the ASTs own locations' text
};

}  // namespace mcl::hdl
