#include "backends/llvm/LlvmBackend.h"

#include <cstdlib>
#include <filesystem>
#include <functional>

#include <fmt/format.h>
#include <llvm/MC/MCSubtargetInfo.h>

#include "backends/Runtime.h"
#include "backends/cfamily/CFamilyEmitter.h"
#include "backends/cfamily/GridEmitter.h"
#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/LowerToIr.h"

namespace mcl::backends {

namespace {

using mcpl::Decl;
using mcpl::Function;
using mcpl::Type;

// The description a function names: from the library when the input has
// one, else only the leaf.
llvmir::FindModel model_finder(const GenerationInput& input) {
    const hdl::HardwareModel& leaf = input.leaf;
    const hdl::HardwareLibrary* library = input.library;
    return [&leaf, library](const std::string& name) -> const hdl::HardwareModel* {
        if (library) return library->find(name);
        return name == leaf.name ? &leaf : nullptr;
    };
}

// The target machine a leaf's "llvm" section names in its string field
// `key` (the CPU, or the GPU architecture), made by `make`; for a CPU, the
// input's `cpu` replaces the field when given, "native" meaning this
// machine's CPU and features. Null after a located error when the field is
// missing, LLVM does not know the name, or a CPU is given for a GPU leaf.
std::unique_ptr<llvm::TargetMachine> configured_machine(
    const GenerationInput& input, const BackendConfig& config, const std::string& key, const std::string& example,
    const std::function<std::unique_ptr<llvm::TargetMachine>(const std::string&, std::string&)>& make,
    DiagnosticEngine& diags) {
    std::string name = config.raw.contains(key) && config.raw[key].is_string() ? config.raw[key].get<std::string>() : "";
    if (!input.cpu.empty()) {
        if (key != "cpu") {
            diags.error(config.location, fmt::format("--cpu '{}' names a processor, but '{}' is a GPU leaf (its "
                                                     "llvm code is for the GPU architecture \"{}\")",
                                                     input.cpu, input.leaf.name, name));
            return nullptr;
        }
        name = input.cpu;
    }
    if (name.empty()) {
        diags.error(config.location, fmt::format("backend 'llvm' in '{}' needs a string field \"{}\" ({})",
                                                 input.target.path, key, example));
        return nullptr;
    }
    std::string error;
    std::unique_ptr<llvm::TargetMachine> machine =
        key == "cpu" && name == "native" ? llvmir::host_target_machine(error) : make(name, error);
    if (machine && !machine->getMCSubtargetInfo()->isCPUStringValid(machine->getTargetCPU()))
        error = fmt::format("LLVM does not know the {} '{}'", key == "sm" ? "GPU architecture" : "CPU", name);
    if (!error.empty()) {
        if (input.cpu.empty())
            diags.error(config.location, fmt::format("backend 'llvm' in '{}': {}", input.target.path, error));
        else
            diags.error(SourceLocation{}, fmt::format("--cpu '{}': {} (llc -mcpu=help lists the names)", input.cpu, error));
        return nullptr;
    }
    return machine;
}

// The host files: CFamilyEmitter's host interface, with the kernels declared
// as the object defines them. It prints no kernel code (the object holds it).
class LlvmGenerator : public CFamilyEmitter {
public:
    LlvmGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : CFamilyEmitter(input, config, diags, reserved()) {}

    bool prints_device_functions() const override { return false; }

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
        std::unique_ptr<llvm::TargetMachine> machine = configured_machine(
            in_, config_, "cpu", "an LLVM CPU name such as \"x86-64-v3\"", llvmir::cpu_target_machine, diags_);
        if (!machine) return "";
        std::string error;
        llvm::LLVMContext context;
        llvm::Module module(in_.module.name, context);
        llvmir::prepare_module(module, *machine);
        llvmir::LoweringOptions options;
        options.floating_point = in_.floating_point;
        options.vector_bits = llvmir::widest_vector_bits(*machine);
        llvmir::LoweredModule lowered;
        if (!llvmir::lower_to_ir(kernels_, model_finder(in_), options, module, lowered, diags_)) return "";
        llvmir::optimize(module, *machine, options.floating_point.fast_math);
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

// PTX for an NVIDIA leaf, with host glue on the CUDA driver API (it loads
// the PTX, which the driver compiles for the GPU it runs on) and the CUDA
// runtime's memory management (runtime/mcl_cuda.h), which share the
// device's primary context. The launches and the host code around them are
// those of the cuda backend (GridMapping.h); only the kernels differ.
class LlvmPtxGenerator : public GridEmitter {
public:
    LlvmPtxGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : GridEmitter(input, config, diags, reserved()) {}

    bool prints_device_functions() const override { return false; }
    std::string device_handle(const std::string& array) const override { return array + ".data()"; }

    std::vector<GeneratedFile> run() {
        if (!collect() || !plan_kernels()) return {};
        std::string ptx = kernels_ptx();
        if (ptx.empty()) return {};
        std::string header = glue_header("// Build: c++ -std=c++17 -I DIR -I <CUDA>/include app.cpp DIR/" + in_.module.name +
                                             ".cpp -L <CUDA>/lib64 -lcudart -lcuda",
                                         "mcl_cuda.h", "mcl::cuda", "// The CUDA device the kernels run on (see mcl_cuda.h).");
        std::string glue = emit_glue(ptx);
        if (generation_failed()) return {};
        return {{in_.module.name + ".h", header},
                {in_.module.name + ".cpp", glue},
                {in_.module.name + "_kernels.ptx", ptx},
                {"mcl_runtime.h", runtime_file("mcl_runtime.h")},
                {"mcl_cuda.h", runtime_file("mcl_cuda.h")}};
    }

private:
    static std::set<std::string> reserved() {
        std::set<std::string> names = cpp_keywords();
        names.insert({"std", "mcl", "kernels", "device", "resident", "on_device", "cuda", "size_t"});
        return names;
    }

    std::string launch_symbol(const Function& k, size_t n) const { return fmt::format("{}_{}", llvmir::kernel_symbol(k), n); }

    // libdevice: CUDA's math functions as LLVM bitcode.
    std::string libdevice_path() const {
        const char* home = std::getenv("CUDA_HOME");
        std::string root = home && *home ? home : "/usr/local/cuda";
        return root + "/nvvm/libdevice/libdevice.10.bc";
    }

    std::string kernels_ptx() {
        std::unique_ptr<llvm::TargetMachine> machine = configured_machine(
            in_, config_, "sm", "the GPU architecture, e.g. \"sm_90\"", llvmir::nvptx_target_machine, diags_);
        if (!machine) return "";
        std::string error;
        llvmir::GridLowering grid;
        for (const Function* k : kernels_) {
            const GridPlan& plan = plan_of(*k);
            for (size_t n = 0; n < plan.launches.size(); ++n) {
                llvmir::GridLaunchLowering launch{k, &plan, &plan.launches[n], launch_symbol(*k, n), {}, {}, {}, {}};
                launch.host_arguments = host_arguments(plan, plan.launches[n]);
                launch.max_threads = max_items_per_group(plan.launches[n], in_.leaf);
                launch.min_blocks = checked_min_blocks_per_processor(in_.min_blocks_per_processor, *k, plan.launches[n],
                                                                     launch.max_threads, in_.leaf, diags_);
                if (auto async = async_plans_.find(plan.launches[n].root); async != async_plans_.end())
                    launch.async = &async->second;
                for (const ScratchParameter& a : scratch_parameters(plan, plan.launches[n])) launch.scratch_arrays.push_back(a.decl);
                grid.launches.push_back(std::move(launch));
            }
        }
        if (diags_.has_errors()) return "";
        llvm::LLVMContext context;
        llvm::Module module(in_.module.name, context);
        llvmir::prepare_module(module, *machine);
        llvmir::LoweringOptions options;
        options.floating_point = in_.floating_point;
        options.parallel = false;
        options.grid = &grid;
        llvmir::LoweredModule lowered;
        if (!llvmir::lower_to_ir(kernels_, model_finder(in_), options, module, lowered, diags_)) return "";
        std::vector<std::string> kernel_symbols;
        for (const llvmir::GridLaunchLowering& l : grid.launches) kernel_symbols.push_back(l.symbol);
        if (!llvmir::link_math_library(module, libdevice_path(), kernel_symbols, error)) {
            diags_.error(in_.module.location, "backend 'llvm': " + error);
            return "";
        }
        llvmir::optimize(module, *machine, options.floating_point.fast_math);
        std::string ptx;
        if (!llvmir::emit_assembly(module, *machine, ptx, error)) {
            diags_.error(in_.module.location, "backend 'llvm': " + error);
            return "";
        }
        return ptx;
    }

    std::string emit_glue(const std::string& ptx) {
        std::string out = banner(in_.module.name + ".cpp", "host glue (CUDA driver API)");
        out += "#include \"" + in_.module.name + ".h\"\n\n#include <algorithm>\n#include <cmath>\n#include <cstddef>\n"
               "#include <map>\n#include <mutex>\n#include <string>\n\n#include <cuda.h>\n\n#include \"mcl_cuda.h\"\n"
               "#include \"mcl_runtime.h\"\n\n";
        std::string prelude = "namespace {\n\n// The kernels, compiled by LLVM for " + in_.leaf.name +
                              " (" + in_.module.name + "_kernels.ptx).\nconst char mcl_ptx[] = R\"mcl_ptx(" + ptx +
                              ")mcl_ptx\";\n\n"
                              "void mcl_check(CUresult result, const std::string& what) {\n"
                              "    if (result == CUDA_SUCCESS) return;\n"
                              "    const char* text = nullptr;\n"
                              "    cuGetErrorString(result, &text);\n"
                              "    throw mcl::Error(what + \": \" + (text ? text : \"unknown CUDA driver error\"));\n"
                              "}\n\n"
                              "// A kernel of the PTX, loaded once into each context that runs it.\n"
                              "CUfunction mcl_function(const char* name) {\n"
                              "    static std::mutex lock;\n"
                              "    static std::map<CUcontext, CUmodule> modules;\n"
                              "    mcl::cuda::check(cudaFree(nullptr), \"initializing the device's context\");\n"
                              "    CUcontext context = nullptr;\n"
                              "    mcl_check(cuCtxGetCurrent(&context), \"cuCtxGetCurrent\");\n"
                              "    std::lock_guard<std::mutex> guard(lock);\n"
                              "    auto found = modules.find(context);\n"
                              "    if (found == modules.end()) {\n"
                              "        CUmodule module = nullptr;\n"
                              "        mcl_check(cuModuleLoadData(&module, mcl_ptx), \"loading the PTX of " + in_.module.name + "\");\n"
                              "        found = modules.emplace(context, module).first;\n"
                              "    }\n"
                              "    CUfunction function = nullptr;\n"
                              "    mcl_check(cuModuleGetFunction(&function, found->second, name), std::string(\"finding \") + name);\n"
                              "    return function;\n"
                              "}\n\n}  // namespace\n\n";
        return out + glue_namespace(prelude, "mcl::cuda::Device::get()", "mcl::cuda",
                                    [&](const Function& k) { return emit_resident(k); });
    }

    std::string emit_resident(const Function& k) {
        auto launch_code = [&](const GridLaunch& launch, size_t n) {
            const std::vector<const Decl*>& shared = launch.group_arrays;
            std::string out = shared_memory_layout(launch, n, 16);
            out += "            if (" + grid_is_nonempty(n) + ") {\n";
            out += fmt::format("                mcl_device.check_launch(mcl_group_count_{0}, mcl_group_size_{0}, "
                               "mcl_shared_bytes_{0});\n", n);
            out += fmt::format("                CUfunction mcl_kernel = mcl_function(\"{}\");\n", launch_symbol(k, n));
            if (!shared.empty())
                out += fmt::format("                mcl_check(cuFuncSetAttribute(mcl_kernel, "
                                   "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)mcl_shared_bytes_{0}), "
                                   "\"shared memory of {1}\");\n", n, launch_symbol(k, n));
            // the driver takes a pointer to each argument, in the kernel's order
            std::vector<std::string> values = launch_arguments(k, launch, "(long long)");
            std::vector<std::string> pointers;
            for (size_t a = 0; a < values.size(); ++a) {
                out += fmt::format("                auto mcl_argument_{} = {};\n", a, values[a]);
                pointers.push_back(fmt::format("&mcl_argument_{}", a));
            }
            out += fmt::format("                void* mcl_arguments[] = {{{}}};\n", pointers.empty() ? "nullptr" : fmt::format("{}", fmt::join(pointers, ", ")));
            out += fmt::format("                mcl_check(cuLaunchKernel(mcl_kernel, (unsigned int)mcl_group_count_{0}[0], "
                               "(unsigned int)mcl_group_count_{0}[1], (unsigned int)mcl_group_count_{0}[2],\n"
                               "                    (unsigned int)mcl_group_size_{0}[0], (unsigned int)mcl_group_size_{0}[1], "
                               "(unsigned int)mcl_group_size_{0}[2],\n"
                               "                    (unsigned int)mcl_shared_bytes_{0}, nullptr, mcl_arguments, nullptr), "
                               "\"launching {1}\");\n            }}\n",
                               n, launch_symbol(k, n));
            return out;
        };
        return resident_function(k, "mcl::cuda", "        mcl_device.activate();\n", launch_code,
                                 fmt::format("        mcl::cuda::check(cudaDeviceSynchronize(), \"running {}\");\n",
                                             ident(k.name)),
                                 "");
    }

    std::string backend_name() const override { return "llvm"; }
    // cp.async needs sm_80 or later.
    bool copies_asynchronously() const override {
        std::string sm = config_.raw.value("sm", "");
        return sm.rfind("sm_", 0) == 0 && std::atoi(sm.c_str() + 3) >= 80;
    }
    // No kernel is printed: its code is the PTX.
    std::string device_min_max(const std::string&, const Type&, const std::string&, const std::string&) override { return ""; }
    std::string device_power(const Type&, const std::string&, const std::string&) override { return ""; }
};

}  // namespace

AsyncCopyPlan LlvmBackend::asynchronous_copies(const GenerationInput& input, const mcpl::Function& kernel,
                                               DiagnosticEngine& diags) const {
    const BackendConfig* config = backend_config(input, name(), diags);
    if (!config || config->device_type != "gpu") return {};
    return LlvmPtxGenerator(input, *config, diags).planned_async_copies(kernel);
}

std::vector<GeneratedFile> LlvmBackend::generate(const GenerationInput& input, DiagnosticEngine& diags) const {
    if (!check_file_stem(input.module.name, input.module.location, diags)) return {};
    const BackendConfig* config = backend_config(input, name(), diags);
    if (!config) return {};
    if (config->device_type == "gpu") return LlvmPtxGenerator(input, *config, diags).run();
    if (input.min_blocks_per_processor) {
        diags.error(config->location, fmt::format("--min-blocks-per-processor applies to GPU leaves; '{}' is a CPU "
                                                  "leaf",
                                                  input.leaf.name));
        return {};
    }
    return LlvmGenerator(input, *config, diags).run();
}

}  // namespace mcl::backends
