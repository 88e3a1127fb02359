#include "backends/starpu/VersionTable.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace mcl::backends::starpu {

const char* worker_kind_name(WorkerKind kind) { return kind == WorkerKind::cpu ? "cpu" : "opencl"; }
const char* worker_kind_backend(WorkerKind kind) { return kind == WorkerKind::cpu ? "cpp" : "opencl"; }

namespace {

const std::vector<WorkerKind> kKinds = {WorkerKind::cpu, WorkerKind::opencl};

// The version of `kernel` for the description `name`: the deepest on the
// path from the root to it, the later one at equal depth.
std::optional<size_t> deepest_version(const std::vector<VersionSource>& versions, const std::string& kernel,
                                      const std::string& name, const hdl::HardwareLibrary& library,
                                      std::vector<size_t>* same_level = nullptr) {
    std::optional<size_t> best;
    size_t best_depth = 0;
    for (size_t i = 0; i < versions.size(); ++i) {
        const VersionSource& v = versions[i];
        if (std::find(v.kernels.begin(), v.kernels.end(), kernel) == v.kernels.end()) continue;
        std::optional<std::vector<std::string>> path = library.path(v.level, name);
        if (!path) continue;
        // Fewer steps from the version's level down to `name`: deeper.
        size_t depth = 1000 - path->size();
        if (!best || depth >= best_depth) {
            if (best && depth == best_depth && same_level) same_level->push_back(*best);
            if (best && depth > best_depth && same_level) same_level->clear();
            best = i;
            best_depth = depth;
        }
    }
    return best;
}

bool has_backend(const LeafSource& leaf, WorkerKind kind) { return leaf.backends.count(worker_kind_backend(kind)); }

}  // namespace

std::vector<KernelTable> choose_versions(const std::vector<VersionSource>& versions,
                                         const std::vector<LeafSource>& leaves,
                                         const hdl::HardwareLibrary& library) {
    std::vector<std::string> kernels;
    for (const VersionSource& v : versions)
        for (const std::string& k : v.kernels)
            if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
    std::vector<std::string> roots;
    for (const std::string& name : library.names())
        if (!library.parent(name)) roots.push_back(name);

    std::vector<KernelTable> tables;
    for (const std::string& kernel : kernels) {
        KernelTable table;
        table.kernel = kernel;
        for (const LeafSource& leaf : leaves) {
            LeafChoice choice;
            choice.leaf = leaf.name;
            choice.version = deepest_version(versions, kernel, leaf.name, library, &choice.same_level);
            for (WorkerKind kind : kKinds)
                if (choice.version && has_backend(leaf, kind)) {
                    choice.kinds.push_back(kind);
                    table.implementations.insert({*choice.version, leaf.name, kind});
                }
            table.leaves.push_back(std::move(choice));
        }
        for (const std::string device_type : {"cpu", "gpu", "accelerator"}) {
            std::string level = library.find(device_type) ? device_type : roots.empty() ? "" : roots.front();
            std::optional<size_t> version = deepest_version(versions, kernel, level, library);
            if (!version) continue;
            for (WorkerKind kind : kKinds) {
                if (kind == WorkerKind::cpu && std::string(device_type) != "cpu") continue;
                // A leaf below the level with the kind's backend; one that
                // runs this version already is generated once.
                const LeafChoice* reuse = nullptr;
                const LeafSource* first = nullptr;
                for (size_t i = 0; i < leaves.size(); ++i) {
                    if (!library.is_ancestor(level, leaves[i].name) || !has_backend(leaves[i], kind)) continue;
                    if (!first) first = &leaves[i];
                    if (!reuse && table.leaves[i].version == version) reuse = &table.leaves[i];
                }
                if (!first) continue;
                std::string leaf = reuse ? reuse->leaf : first->name;
                table.generic.push_back({device_type, kind, level, *version, leaf});
                table.implementations.insert({*version, leaf, kind});
            }
        }
        tables.push_back(std::move(table));
    }
    return tables;
}

std::string version_table_text(const std::vector<KernelTable>& tables, const std::vector<VersionSource>& versions) {
    std::string out;
    for (const KernelTable& t : tables) {
        out += fmt::format("kernel {}\n", t.kernel);
        size_t width = 0;
        for (const LeafChoice& c : t.leaves) width = std::max(width, c.leaf.size());
        for (const LeafChoice& c : t.leaves) {
            if (!c.version) {
                out += fmt::format("  {:<{}} <- none (no version on its path)\n", c.leaf, width);
                continue;
            }
            const VersionSource& v = versions[*c.version];
            std::vector<std::string> kinds;
            for (WorkerKind k : c.kinds)
                kinds.push_back(fmt::format("{} workers ({})", worker_kind_name(k), worker_kind_backend(k)));
            std::string runs = kinds.empty() ? "no worker kind of the runtime (no cpp or opencl configuration)"
                                             : fmt::format("{}", fmt::join(kinds, ", "));
            std::string over;
            for (size_t s : c.same_level) over += (over.empty() ? "; over " : ", ") + versions[s].module;
            out += fmt::format("  {:<{}} <- {} ({}): {}{}\n", c.leaf, width, v.module, v.level, runs, over);
        }
        for (const GenericChoice& g : t.generic)
            out += fmt::format("  unmatched {} device on {} workers <- {} ({} level), generated for {}\n",
                               g.device_type, worker_kind_name(g.kind), versions[g.version].module, g.level, g.leaf);
    }
    return out;
}

}  // namespace mcl::backends::starpu
