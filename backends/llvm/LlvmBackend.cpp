#include "backends/llvm/LlvmBackend.h"

#include <fmt/format.h>
#include <llvm/MC/MCSubtargetInfo.h>

#include "backends/Runtime.h"
#include "backends/cfamily/CFamilyEmitter.h"
#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/LowerToIr.h"

namespace mcl::backends {

namespace {

using mcpl::Decl;
using mcpl::Function;

// The host files: CFamilyEmitter's host interface, with the kernels declared
// as the object defines them. It prints no kernel code (the object holds it).
class LlvmGenerator : public CFamilyEmitter {
public:
    LlvmGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : CFamilyEmitter(input, config, diags, reserved()) {}

    std::vector<GeneratedFile> run() {
        if (!collect()) return {};
        std::string object = kernels_object();
        if (object.empty()) return {};
        std::string header = host_header();
        std::string glue = in_process_glue("extern \"C\" ",
                                           "// The kernels are in " + in_.module.name + "_kernels.o; this file also\n"
                                           "// defines the thread pool they run on (weakly: every module's glue does).\n"
                                           "#define MCL_LLVM_RUNTIME_IMPLEMENTATION\n#include \"mcl_llvm.h\"\n\n");
        if (generation_failed()) return {};
        return {{in_.module.name + ".h", header},
                {in_.module.name + ".cpp", glue},
                {in_.module.name + "_kernels.o", object},
                {"mcl_runtime.h", runtime_file("mcl_runtime.h")},
                {"mcl_llvm.h", runtime_file("mcl_llvm.h")}};
    }

private:
    static std::set<std::string> reserved() {
        std::set<std::string> names = cpp_keywords();
        names.insert({"std", "mcl", "kernels"});
        return names;
    }

    // The object file's bytes, or "" after an error.
    std::string kernels_object() {
        std::string cpu = config_.raw.contains("cpu") && config_.raw["cpu"].is_string() ? config_.raw["cpu"].get<std::string>() : "";
        if (cpu.empty()) {
            diags_.error(config_.location, fmt::format("backend 'llvm' in '{}' needs a string field \"cpu\" (an LLVM CPU "
                                                       "name such as \"x86-64-v3\")", in_.target.path));
            return "";
        }
        std::string error;
        std::unique_ptr<llvm::TargetMachine> machine = llvmir::cpu_target_machine(cpu, error);
        if (machine && !machine->getMCSubtargetInfo()->isCPUStringValid(cpu))
            error = fmt::format("LLVM does not know the CPU '{}'", cpu);
        if (!error.empty()) {
            diags_.error(config_.location, fmt::format("backend 'llvm' in '{}': {}", in_.target.path, error));
            return "";
        }
        llvm::LLVMContext context;
        llvm::Module module(in_.module.name, context);
        llvmir::prepare_module(module, *machine);
        llvmir::LoweringOptions options;
        options.vector_bits = llvmir::widest_vector_bits(*machine);
        llvmir::LoweredModule lowered;
        const hdl::HardwareModel& leaf = in_.leaf;
        const hdl::HardwareLibrary* library = in_.library;
        llvmir::FindModel find_model = [&leaf, library](const std::string& name) -> const hdl::HardwareModel* {
            if (library) return library->find(name);
            return name == leaf.name ? &leaf : nullptr;
        };
        if (!llvmir::lower_to_ir(kernels_, find_model, options, module, lowered, diags_)) return "";
        llvmir::optimize(module, *machine, options.fast_math);
        std::string bytes;
        if (!llvmir::emit_object(module, *machine, bytes, error)) {
            diags_.error(in_.module.location, "backend 'llvm': " + error);
            return "";
        }
        return bytes;
    }

    std::string backend_name() const override { return "llvm"; }
    std::string kernel_symbol(const Function& k) const override { return llvmir::kernel_symbol(k); }
    // The object takes records by pointer (a reference in C++'s spelling).
    std::string parameter(const Decl& d, Role role, bool definition) override {
        const mcpl::Type& t = d.forms.front().resolved_type;
        if (role == Role::Kernel && t.record && !t.is_array() && !d.is_written)
            return "const " + element_spelling(t) + "& " + ident(d.forms.front().name);
        return CFamilyEmitter::parameter(d, role, definition);
    }
    // No kernel is printed: the statements are in the object.
    void foreach(const mcpl::Stmt&) override {}
    void array_declaration(const Decl&, const std::string&) override {}
    std::string min_max(const std::string&, const mcpl::Type&, const std::string&, const std::string&) override { return ""; }
    std::string power(const mcpl::Type&, const std::string&, const std::string&) override { return ""; }
};

}  // namespace

std::vector<GeneratedFile> LlvmBackend::generate(const GenerationInput& input, DiagnosticEngine& diags) const {
    return generate_with<LlvmGenerator>(input, name(), diags);
}

}  // namespace mcl::backends
