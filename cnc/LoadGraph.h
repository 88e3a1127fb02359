// Pass: load a graph file and find the MCPL modules its steps come from.
//
// Needs: the path of a .cnc file, include roots (`-I DIR`), the source
//   manager and the diagnostics engine.
// Does: reads and parses the file (cnc/ParseCnC.h), then finds each
//   `import a.b.c;` as the file a/b/c.mcl under the include roots and then
//   under the graph's own directory (a graph has no package: its directory
//   is its root).
// Guarantees: the graph with the paths of the module files in import order,
//   or nullopt after reporting: an unreadable file, a syntax error, or an
//   import found nowhere (at the import, naming the places looked in).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cnc/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::cnc {

struct LoadedGraph {
    Graph graph;
    std::vector<std::string> module_files;
};

std::optional<LoadedGraph> load_graph(const std::string& path, const std::vector<std::string>& include_roots,
                                      SourceManager& sources, DiagnosticEngine& diags);

}  // namespace mcl::cnc
