#include "compiler/sema/LoadModules.h"

#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "compiler/parse/ParseMcpl.h"
#include "support/InputFile.h"

namespace fs = std::filesystem;

namespace mcl::mcpl {

namespace {

std::string join(const std::vector<std::string>& parts, const char* sep) {
    return fmt::format("{}", fmt::join(parts, sep));
}

class ModuleLoader {
public:
    ModuleLoader(const std::vector<std::string>& roots, SourceManager& sources,
                 const hdl::HardwareLibrary& library, DiagnosticEngine& diags)
        : include_roots_(roots), sources_(sources), library_(library), diags_(diags) {}

    void add_root_file(const std::string& path) {
        std::string error;
        auto file = sources_.load_file(path, error);
        if (!file) {
            diags_.error({}, error);
            return;
        }
        if (const Module* m = add(*file, path)) program_.roots.push_back(m);
    }

    void add_root_text(const std::string& path, const std::string& text) {
        if (const Module* m = add(sources_.add_buffer(path, text), path)) program_.roots.push_back(m);
    }

    Program finish() {
        // Imports are resolved breadth-first; modules loaded on the way are
        // appended to program_.modules and resolved in turn.
        for (size_t i = 0; i < program_.modules.size(); ++i) resolve_imports(*program_.modules[i]);
        return std::move(program_);
    }

private:
    const Module* add(uint32_t file, const std::string& path) {
        std::string key = canonical_path(path);
        if (auto it = by_path_.find(key); it != by_path_.end()) return it->second;
        auto m = parse_mcpl(file, sources_, diags_);
        if (!m) return nullptr;
        const Module* raw = m.get();
        by_path_[key] = raw;
        paths_[raw] = path;
        program_.modules.push_back(std::move(m));
        return raw;
    }

    // The include root a module's own location implies: its directory with
    // one level removed per package component. The path is made absolute
    // first: `blackscholes.mcl` named from its own directory has an empty
    // parent, which no package component matches.
    std::optional<fs::path> implied_root(const Module& m) const {
        std::error_code ec;
        fs::path file = fs::absolute(paths_.at(&m), ec);
        if (ec) return std::nullopt;
        fs::path dir = file.lexically_normal().parent_path();
        for (size_t i = 0; i < m.package.size(); ++i) {
            if (dir.filename() != m.package[m.package.size() - 1 - i]) return std::nullopt;
            dir = dir.parent_path();
        }
        return dir;
    }

    void resolve_imports(const Module& m) {
        for (const Import& imp : m.imports) {
            if (imp.path.size() == 1 && library_.find(imp.path[0])) {
                program_.imported_hardware[&m].push_back(imp.path[0]);
                continue;
            }
            if (imp.path.size() == 1 && library_.report_errors_of(imp.path[0])) {
                diags_.error(imp.location,
                             fmt::format("cannot import '{}': its hardware description has errors", imp.str()));
                continue;
            }
            std::vector<std::string> package(imp.path.begin(), imp.path.end() - 1);
            const std::string& name = imp.path.back();
            if (package == m.package && name == m.name) {
                diags_.error(imp.location, fmt::format("module '{}' imports itself", imp.str()));
                continue;
            }
            fs::path relative;
            for (const std::string& p : imp.path) relative /= p;
            relative += ".mcl";
            std::vector<fs::path> roots(include_roots_.begin(), include_roots_.end());
            if (auto own = implied_root(m)) roots.push_back(*own);
            const Module* found = nullptr;
            bool searched_file_exists = false;
            for (const fs::path& root : roots) {
                fs::path candidate = root / relative;
                std::error_code ec;
                if (!fs::is_regular_file(candidate, ec)) continue;
                searched_file_exists = true;
                std::string error;
                if (auto file = sources_.load_file(candidate.string(), error))
                    found = add(*file, candidate.string());
                else
                    diags_.error(imp.location, error);
                break;
            }
            if (!found) {
                if (!searched_file_exists) {
                    auto& d = diags_.error(
                        imp.location,
                        fmt::format("cannot find '{}': it is neither a hardware description nor a "
                                    "module '{}' under an include root",
                                    imp.str(), relative.string()));
                    for (const fs::path& root : roots)
                        DiagnosticEngine::add_note(d, {}, fmt::format("searched '{}'", root.string()));
                }
                continue;  // a file that exists but cannot be read or parsed has its own errors
            }
            if (found->package != package || found->name != name) {
                diags_.error(imp.location,
                             fmt::format("'{}' declares 'package {}; module {};', not what the import "
                                         "names",
                                         paths_.at(found), join(found->package, "."), found->name));
                continue;
            }
            program_.imported_modules[&m].push_back(found);
        }
    }

    std::vector<std::string> include_roots_;
    SourceManager& sources_;
    const hdl::HardwareLibrary& library_;
    DiagnosticEngine& diags_;
    Program program_;
    std::map<std::string, const Module*> by_path_;
    std::map<const Module*, std::string> paths_;
};

}  // namespace

Program load_modules(const std::vector<std::string>& files, const std::vector<std::string>& include_roots,
                     SourceManager& sources, const hdl::HardwareLibrary& library,
                     DiagnosticEngine& diags) {
    ModuleLoader loader(include_roots, sources, library, diags);
    for (const std::string& f : files) loader.add_root_file(f);
    return loader.finish();
}

Program load_modules_from_text(const std::string& path, const std::string& text,
                               const std::vector<std::string>& include_roots, SourceManager& sources,
                               const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    ModuleLoader loader(include_roots, sources, library, diags);
    loader.add_root_text(path, text);
    return loader.finish();
}

}  // namespace mcl::mcpl
