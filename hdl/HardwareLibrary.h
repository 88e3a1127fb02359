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
//
// Where errors in descriptions from user directories go depends on what the
// library is for. Listing and showing descriptions (UserErrors::Report):
// errors. Compiling a program (UserErrors::Defer): a bad description that
// the program never uses must not refuse the program, so each one gets a
// warning when the library loads, and its errors are held until the program
// uses it (report_errors_of). Errors in built-in descriptions and in the
// library as a whole are errors in both.
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

enum class UserErrors { Report, Defer };

// A file's text as an editor holds it, read in place of the file on disk.
struct EditedFile {
    std::string path;
    std::string text;
};

class HardwareLibrary {
public:
    HardwareLibrary(SourceManager& sources, DiagnosticEngine& diags, UserErrors user_errors = UserErrors::Report)
        : sources_(sources), diags_(diags), user_errors_(user_errors), held_(sources) {}

    // Loads the built-in directory, then the user directories, then finish().
    void load(const std::string& builtin_dir, const std::vector<std::string>& user_dirs);

    // Step by step: add descriptions (a user one overrides a built-in one of
    // the same name; two of the same kind with one name are an error), then
    // finish() resolves, validates and builds the models. With `edited`,
    // its text stands for the file at its path (compared canonically);
    // add_directory says whether it was one of the directory's files.
    bool add_directory(const std::string& dir, bool user, const EditedFile* edited = nullptr);
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
    // With UserErrors::Defer: reports the errors held for a description from
    // a user directory (a file that did not parse counts as describing the
    // name of its file), the first time it is asked; true when it has any.
    bool report_errors_of(const std::string& name) const;

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
    // Where loading reports: diags_, or held_ until finish() sorts it out.
    DiagnosticEngine& loading_diags() { return user_errors_ == UserErrors::Defer ? held_ : diags_; }
    void sort_out_held_diagnostics();

    SourceManager& sources_;
    DiagnosticEngine& diags_;
    UserErrors user_errors_;
    DiagnosticEngine held_;                                     // UserErrors::Defer: loading's diagnostics
    std::map<uint32_t, std::string> user_files_;                // user file -> the description it holds
    std::map<std::string, std::vector<Diagnostic>> held_errors_;  // per bad user description
    mutable std::map<std::string, bool> held_reported_;
    std::map<std::string, std::unique_ptr<Entry>> entries_;
    std::vector<std::unique_ptr<Entry>> overridden_;  // kept alive: the ASTs own locations' text
};

}  // namespace mcl::hdl
