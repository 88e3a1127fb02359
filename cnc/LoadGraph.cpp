#include "cnc/LoadGraph.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "cnc/ParseCnC.h"

namespace mcl::cnc {

std::optional<LoadedGraph> load_graph(const std::string& path, const std::vector<std::string>& include_roots,
                                      SourceManager& sources, DiagnosticEngine& diags) {
    std::string error;
    std::optional<uint32_t> file = sources.load_file(path, error);
    if (!file) {
        diags.error(SourceLocation{}, error);
        return std::nullopt;
    }
    std::optional<Graph> graph = parse_cnc(*file, sources, diags);
    if (!graph) return std::nullopt;
    LoadedGraph loaded{std::move(*graph), {}};
    std::vector<std::string> roots = include_roots;
    std::filesystem::path own = std::filesystem::path(path).parent_path();
    roots.push_back(own.empty() ? "." : own.string());
    bool ok = true;
    for (const Import& i : loaded.graph.imports) {
        std::filesystem::path relative;
        for (const std::string& part : i.path) relative /= part;
        relative += ".mcl";
        std::string found;
        for (const std::string& root : roots) {
            std::error_code ec;
            std::filesystem::path candidate = std::filesystem::path(root) / relative;
            if (std::filesystem::is_regular_file(candidate, ec)) {
                found = candidate.string();
                break;
            }
        }
        if (found.empty()) {
            diags.error(i.location, fmt::format("cannot find module '{}': no {} under {}", fmt::join(i.path, "."),
                                                relative.string(), fmt::join(roots, ", ")));
            ok = false;
            continue;
        }
        if (std::find(loaded.module_files.begin(), loaded.module_files.end(), found) == loaded.module_files.end())
            loaded.module_files.push_back(found);
    }
    if (!ok) return std::nullopt;
    return loaded;
}

}  // namespace mcl::cnc
