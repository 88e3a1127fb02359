#include "backends/Backend.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "backends/BackendList.h"
#include "backends/cfamily/CFamilyEmitter.h"
#include "compiler/ast/AstWalk.h"

namespace mcl::backends {

namespace {

using Registry = std::map<std::string, std::unique_ptr<Backend>>;

// Filled once, on first use, from BackendList.cpp: an explicit list rather
// than static registrar objects, which a static library would drop.
const Registry& registry() {
    static const Registry instance = [] {
        Registry r;
        for (std::unique_ptr<Backend>& b : make_all_backends()) {
            std::string name = b->name();
            r.emplace(std::move(name), std::move(b));
        }
        return r;
    }();
    return instance;
}

bool has_foreach(const mcpl::Function& f) {
    bool found = false;
    mcpl::for_each_stmt(*f.body, [&](const mcpl::Stmt& s) {
        if (s.kind == mcpl::Stmt::Kind::Foreach) found = true;
    });
    return found;
}

}  // namespace

const Backend* find_backend(const std::string& name) {
    auto it = registry().find(name);
    return it == registry().end() ? nullptr : it->second.get();
}

std::vector<std::string> backend_names() {
    std::vector<std::string> names;
    for (const auto& [name, backend] : registry()) names.push_back(name);
    return names;
}

const BackendConfig* backend_config(const GenerationInput& input, const std::string& backend,
                                    DiagnosticEngine& diags) {
    const BackendConfig* config = input.target.backend(backend);
    if (!config)
        diags.error(SourceLocation{input.target.file, 0, 0},
                    fmt::format("target '{}' has no configuration for backend '{}'", input.leaf.name, backend));
    return config;
}

std::string host_function_name(const std::string& kernel) {
    static const std::set<std::string> taken = [] {
        std::set<std::string> names = CFamilyEmitter::cpp_keywords();
        names.insert({"device", "resident"});
        return names;
    }();
    if (kernel.rfind("mcl_", 0) == 0) return "mcl_u_" + kernel.substr(4);
    return taken.count(kernel) ? kernel + "_" : kernel;
}

std::vector<const mcpl::Function*> module_kernels(const mcpl::Module& module) {
    std::vector<const mcpl::Function*> kernels;
    for (const auto& f : module.functions) {
        if (f->builtin_body) continue;
        if (module.exports.empty() ? has_foreach(*f) : module.exports_name(f->name)) kernels.push_back(f.get());
    }
    return kernels;
}

}  // namespace mcl::backends
