#include "backends/cfamily/InProcessEmitter.h"

#include <fmt/format.h>

#include "backends/Runtime.h"

namespace mcl::backends {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Type;

InProcessEmitter::InProcessEmitter(const GenerationInput& input, const BackendConfig& config,
                                   DiagnosticEngine& diags, const std::set<std::string>& own_names)
    : CFamilyEmitter(input, config, diags, reserved_names(own_names)) {}

std::set<std::string> InProcessEmitter::reserved_names(const std::set<std::string>& own_names) {
    std::set<std::string> names = cpp_keywords();
    names.insert({"std", "mcl", "kernels", "device"});
    names.insert(own_names.begin(), own_names.end());
    return names;
}

std::vector<GeneratedFile> InProcessEmitter::run() {
    if (!valid_config() || !collect()) return {};
    std::string header = host_header();
    std::string kernels = kernels_file();
    std::string glue = in_process_glue(linkage(Role::Kernel), glue_note());
    if (generation_failed()) return {};
    return {{in_.module.name + ".h", header},
            {in_.module.name + "_kernels.cpp", kernels},
            {in_.module.name + ".cpp", glue},
            {"mcl_runtime.h", runtime_file("mcl_runtime.h")}};
}

std::string InProcessEmitter::linkage(Role) const { return ""; }

std::string InProcessEmitter::in_process_kernels(const std::vector<std::string>& headers,
                                                 const std::string& preamble, const std::string& prelude) {
    out_ = banner(in_.module.name + "_kernels.cpp", "kernels");
    for (const std::string& h : headers) out_ += "#include <" + h + ">\n";
    out_ += "\n#include \"" + in_.module.name + ".h\"\n\n" + preamble;
    out_ += "namespace " + module_ + "::kernels {\n\n" + prelude;
    out_ += constant_definitions("[[maybe_unused]] const", false);
    if (!device_functions_.empty()) {
        out_ += "namespace device {\n";
        for (const Function* f : device_functions_) out_ += signature(*f, Role::Device, false) + ";\n";
        for (const Function* f : device_functions_) {
            out_ += "\n";
            emit_function(*f, Role::Device);
        }
        out_ += "}  // namespace device\n\n";
    }
    for (const Function* k : kernels_) {
        emit_function(*k, Role::Kernel);
        out_ += "\n";
    }
    out_ += "}  // namespace " + module_ + "::kernels\n";
    return out_;
}

void InProcessEmitter::emit_function(const Function& f, Role role) {
    print_function(f, role, [&] { return linkage(role) + signature(f, role, true); });
}

std::string InProcessEmitter::parameter(const Decl& d, Role role, bool definition) {
    return (definition ? "[[maybe_unused]] " : "") + CFamilyEmitter::parameter(d, role, definition);
}

std::string InProcessEmitter::device_call(const Expr& call, const std::vector<std::string>& args) {
    return fmt::format("device::{}({})", function_identifier(*call.function), fmt::join(args, ", "));
}

std::string InProcessEmitter::min_max(const std::string& which, const Type& type, const std::string& a,
                                      const std::string& b) {
    return fmt::format("std::{}<{}>({}, {})", which, element_spelling(type), a, b);
}

std::string InProcessEmitter::power(const Type& type, const std::string& a, const std::string& b) {
    return host_power(type, a, b);
}

}  // namespace mcl::backends
