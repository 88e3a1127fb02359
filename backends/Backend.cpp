#include "backends/Backend.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "backends/BackendList.h"
#include "backends/cfamily/AsyncCopies.h"
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

AsyncCopyPlan Backend::asynchronous_copies(const GenerationInput&, const mcpl::Function&, DiagnosticEngine&) const {
    return {};
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

bool check_file_stem(const std::string& stem, SourceLocation location, DiagnosticEngine& diags) {
    static constexpr const char* header_list[] = {
#include "backends/HostHeaderNames.inc"
    };
    static const std::set<std::string> headers(std::begin(header_list), std::end(header_list));
    if (!headers.count(stem)) return true;
    diags.error(location, fmt::format("cannot generate files named '{0}' ({0}.h, {0}.cpp): wherever they are an "
                                      "include path, {0}.h would be found instead of the <{0}.h> that the glue's "
                                      "headers include; choose another name",
                                      stem));
    return false;
}

namespace {

bool written_like_a_macro(const std::string& name) {
    static const std::set<std::string> lower_case_macros = {
        "errno", "stdin", "stdout", "stderr", "math_errhandling", "assert", "offsetof", "setjmp",
        "va_start", "va_arg", "va_end", "va_copy", "linux", "unix", "i386"};
    if (lower_case_macros.count(name)) return true;
    bool has_capital = false;
    for (char c : name) {
        if (c >= 'A' && c <= 'Z') has_capital = true;
        else if (!(c >= '0' && c <= '9') && c != '_') return false;
    }
    return has_capital && name.size() > 1;
}

}  // namespace

std::string target_identifier(const std::string& name, const std::set<std::string>& reserved) {
    if (name.rfind("mcl_", 0) == 0) return "mcl_u_" + name.substr(4);
    if (!name.empty() && name.front() == '_') return "mcl_p" + name;
    size_t end = name.find_last_not_of('_');
    std::string stem = end == std::string::npos ? name : name.substr(0, end + 1);
    return reserved.count(stem) || written_like_a_macro(stem) ? name + "_" : name;
}

namespace {

const std::set<std::string>& host_reserved_names() {
    static const std::set<std::string> names = [] {
        std::set<std::string> taken = CFamilyEmitter::cpp_keywords();
        taken.insert({"device", "resident", "on_device"});
        // Records appear in OpenCL C and CUDA kernel code as well: the type
        // words and qualifiers those languages add to C++'s keywords.
        taken.insert({"kernel", "global", "local", "constant", "restrict", "half", "uchar", "uint", "ulong",
                      "ushort", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "read_only", "write_only",
                      "read_write", "image2d_t", "image3d_t", "event_t", "sampler_t", "dim3"});
        return taken;
    }();
    return names;
}

}  // namespace

std::string host_identifier(const std::string& name) { return target_identifier(name, host_reserved_names()); }

std::string host_namespace_identifier(const std::string& name) {
    // A table of C strings rather than a list of std::string initializers: the latter is one function of some
    // 7500 constructions, which took clang with the sanitizers over 14 GB and minutes to compile.
    static constexpr const char* global_list[] = {
#include "backends/HostGlobalNames.inc"
    };
    static const std::set<std::string> taken = [] {
        std::set<std::string> names(std::begin(global_list), std::end(global_list));
        names.insert("main");
        names.insert(host_reserved_names().begin(), host_reserved_names().end());
        return names;
    }();
    return target_identifier(name, taken);
}

std::vector<const mcpl::Function*> module_kernels(const mcpl::Module& module) {
    std::vector<const mcpl::Function*> kernels;
    for (const auto& f : module.functions) {
        if (f->builtin_body) continue;
        if (module.exports.empty() ? has_foreach(*f) : module.exports_name(f->name)) kernels.push_back(f.get());
    }
    return kernels;
}

std::vector<const mcpl::Function*> module_kernels(const mcpl::Module& module, DiagnosticEngine& diags) {
    std::vector<const mcpl::Function*> kernels = module_kernels(module);
    if (kernels.empty())
        diags.error(module.location, fmt::format("module '{}' has no kernel: it exports no function and none has a "
                                                 "foreach", module.name));
    return kernels;
}

}  // namespace mcl::backends
