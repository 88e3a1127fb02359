#include "backends/cuda/CudaBackend.h"

#include <cstdint>
#include <set>

#include <fmt/format.h>

#include "backends/Runtime.h"
#include "backends/cfamily/GridEmitter.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::backends {

namespace {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Function;
using mcpl::Primitive;
using mcpl::Stmt;
using mcpl::Type;

// Group arrays start at multiples of this many bytes of the dynamic shared
// memory they are carved from.
constexpr int kSharedAlignment = 16;

class CudaGenerator : public GridEmitter {
public:
    CudaGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : GridEmitter(input, config, diags, reserved_names()) {}

    std::vector<GeneratedFile> run() {
        if (!collect() || !plan_kernels()) return {};
        std::string kernels = emit_kernel_source();
        std::string header = glue_header("// Build: nvcc -std=c++17 -I DIR app.cu DIR/*.cu", "mcl_cuda.h",
                                         "mcl::cuda", "// The CUDA device the kernels run on (see mcl_cuda.h).");
        std::string glue = emit_glue();
        if (generation_failed()) return {};
        return {{in_.module.name + ".h", header},
                {kernels_file(), kernels},
                {in_.module.name + ".cu", glue},
                {"mcl_runtime.h", runtime_file("mcl_runtime.h")},
                {"mcl_cuda.h", runtime_file("mcl_cuda.h")}};
    }

private:
    // CUDA's built-in variables, functions a kernel might shadow, and the names
    // the generated code itself uses (besides the keywords of C++).
    static std::set<std::string> reserved_names() {
        std::set<std::string> names = cpp_keywords();
        for (const char* n :
             {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "size_t", "__syncthreads",
              "__threadfence", "atomicAdd", "atomicCAS", "min", "max", "fmin", "fmax", "fminf", "fmaxf", "pow",
              "powf", "sqrt", "sqrtf", "rsqrt", "rsqrtf", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2",
              "log2f", "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "sin", "sinf", "cos", "cosf", "tan",
              "tanf", "tanh", "tanhf", "erf", "erff", "__expf", "__logf", "__fdividef", "fma", "fmaf", "abs", "printf", "malloc", "free", "memcpy",
              "memset", "assert", "mcl", "std", "cuda", "device", "resident", "on_device", "kernels", "mcl_shared"})
            names.insert(n);
        return names;
    }

    std::string backend_name() const override { return "cuda"; }
    // The scalar declarations the host evaluates for a launch's sizes (a block
    // count, say) are repeated in its kernel, where nothing may use them.
    std::string unused_attribute() const override { return "[[maybe_unused]] "; }

    std::string kernels_file() const { return in_.module.name + "_kernels.cuh"; }

    // cp.async through CUDA's pipeline primitives, which copy synchronously
    // on devices before compute capability 8.0. Where the zero-filling
    // copy's condition is false, no byte is read (the source is the array's
    // start, in bounds) and the element is filled with zeros.
    bool copies_asynchronously() const override { return true; }
    std::string async_copy(const AsyncCopy& copy) override {
        std::string size = "sizeof(" + element_spelling(copy.target->type) + ")";
        std::string target = fmt::format("&{}", expr(*copy.target)), source = fmt::format("&{}", expr(*copy.source));
        if (!copy.condition) return fmt::format("__pipeline_memcpy_async({}, {}, {});", target, source, size);
        // One copy either way: a select, where two copies were two branches.
        return fmt::format("{{ const bool mcl_in = {}; __pipeline_memcpy_async({}, mcl_in ? {} : {}, {}, mcl_in ? 0 : {}); }}",
                           unwrap(expr(*copy.condition)), target, source,
                           ident(copy.source->decl->forms.front().name), size, size);
    }
    std::string async_copy_wait() const override { return "__pipeline_commit(); __pipeline_wait_prior(0);"; }


    // --- device functions per scope of an atomic's target ----------------------------
    // An atomic update of a thread's own variable is undefined on the GPU
    // (nvcc: "Cannot do atomic on local memory") and spelt as a plain update
    // (`atomicAdd@item`). Where a device function applies such a builtin to
    // a parameter it writes, directly or through the functions it calls,
    // the scope of that parameter's argument decides the spelling: the
    // function is printed once per scope its calls pass (CFamilyEmitter's
    // variants, keyed by storage_scope).

    bool varies_with_argument(const Decl& param) const override { return scoped_targets_.count(&param) > 0; }
    std::string argument_key(const Decl& argument) const override { return storage_scope(argument); }
    std::string storage_scope(const Decl& variable) const override {
        const std::string* key = bound_key(variable);
        return key && !key->empty() ? *key : CFamilyEmitter::storage_scope(variable);
    }

    // Fills scoped_targets_: the written scalar and record parameters of
    // device functions that reach the first argument of a builtin spelt per
    // scope, directly or through a call's parameter that does.
    void note_scoped_targets() {
        auto spelt_per_scope = [&](const std::string& callee) {
            auto it = config_.builtins.lower_bound(callee + "@");
            return it != config_.builtins.end() && it->first.compare(0, callee.size() + 1, callee + "@") == 0;
        };
        auto is_written_parameter = [](const Function& f, const mcpl::Expr& arg) {
            if (arg.kind != mcpl::Expr::Kind::Var || !arg.decl || !arg.decl->is_written) return false;
            for (const auto& p : f.params)
                if (p.get() == arg.decl) return !p->forms.front().resolved_type.is_array();
            return false;
        };
        for (size_t before = SIZE_MAX; before != scoped_targets_.size();) {
            before = scoped_targets_.size();
            for (const Function* f : device_functions_)
                mcpl::for_each_call_in(*f->body, [&](const mcpl::Expr& call) {
                    for (size_t i = 0; i < call.args.size(); ++i) {
                        if (!is_written_parameter(*f, *call.args[i])) continue;
                        bool scoped = call.function && !call.function->builtin_body
                                          ? i < call.function->params.size() &&
                                                scoped_targets_.count(call.function->params[i].get())
                                          : i == 0 && spelt_per_scope(call.callee);
                        if (scoped) scoped_targets_.insert(call.args[i]->decl);
                    }
                });
        }
    }

    // --- the kernel source ------------------------------------------------------------

    std::string emit_kernel_source() {
        out_ = banner(kernels_file(), "CUDA kernels (included by " + in_.module.name + ".cu)");
        out_ += "#pragma once\n\n#include \"" + in_.module.name + ".h\"\n";
        if (uses_async_copies()) out_ += "\n#include <cuda_pipeline.h>\n";
        out_ += "\nnamespace " + module_ + "::kernels {\n";
        std::string constants = constant_definitions("constexpr", true);
        if (!constants.empty()) out_ += fmt::format("\n{}", constants.substr(0, constants.size() - 1));
        if (uses_integer_power()) out_ += integer_power_function("__device__ inline ");
        if (!device_functions_.empty()) out_ += "\n";
        note_scoped_targets();
        collect_variants();
        print_device_variants("__device__ ");
        for (const Function* k : kernels_) {
            const GridPlan& plan = plan_of(*k);
            for (size_t n = 0; n < plan.launches.size(); ++n) emit_launch_kernel(*k, plan, n);
        }
        out_ += "\n}  // namespace " + module_ + "::kernels\n";
        return out_;
    }

    void emit_launch_kernel(const Function& k, const GridPlan& plan, size_t n) {
        const GridLaunch& launch = plan.launches[n];
        std::vector<std::string> params;
        for (const auto& p : k.params) params.push_back(parameter(*p, Role::Kernel, true));
        for (int l = 0; l < 2; ++l)
            for (size_t s = 0; s < launch.slots[l].size(); ++s)
                params.push_back("const int " + slot_size_name(static_cast<GridLevel>(l), s));
        for (const Decl* d : host_arguments(plan, launch))
            params.push_back(fmt::format("const {} {}", element_spelling(d->forms.front().resolved_type),
                                         ident(d->name())));
        for (const ScratchParameter& a : scratch_parameters(plan, launch))
            params.push_back(fmt::format("{}* __restrict__ {}", element_spelling(a.decl->forms.front().resolved_type),
                                         a.name));
        // Every group array is carved out of dynamic shared memory: static
        // __shared__ arrays may take only 48 KB, dynamic shared memory all a
        // block may have (227 KB on Hopper) once the glue opts in (CUDA C++
        // Programming Guide, "Shared Memory" of compute capability 7.x+).
        const std::vector<const Decl*>& shared = launch.group_arrays;
        for (size_t d = 0; d < shared.size(); ++d) params.push_back("const size_t " + shared_offset_name(d));
        // Launch bounds keep the kernel within the registers its largest
        // blocks can have: without them, a perfect kernel with an 8 x 12
        // register tile took 128 registers, so its launches with the 1024
        // threads that the translation picks for large n would fail; with
        // them it takes 32 and spills (sm_90, nvcc 13). A minimum of one
        // block per multiprocessor would allow 64, but it also raised 20
        // of the 38 example kernels from at most 32 registers to up to 63,
        // halving the blocks a multiprocessor can hold: not without a GPU
        // to measure it; the user may ask for it (--min-blocks-per-processor).
        std::optional<int64_t> max_threads = max_items_per_group(launch, in_.leaf);
        std::optional<int64_t> min_blocks =
            checked_min_blocks_per_processor(in_.min_blocks_per_processor, k, launch, max_threads, in_.leaf, diags_);
        std::string bounds = min_blocks  ? fmt::format("__launch_bounds__({}, {}) ", *max_threads, *min_blocks)
                             : max_threads ? fmt::format("__launch_bounds__({}) ", *max_threads)
                                           : "";
        out_ += fmt::format("\n__global__ void {}{}_{}({}) {{\n", bounds, ident(k.name), n, fmt::join(params, ", "));
        indent_ = 1;
        if (!shared.empty())
            line(fmt::format("extern __shared__ __align__({}) unsigned char mcl_shared[];", kSharedAlignment));
        // The host rounds every offset up to kSharedAlignment; saying so lets
        // nvcc merge four consecutive float loads into one 16-byte LDS.128.
        for (size_t d = 0; d < shared.size(); ++d) {
            std::string el = element_spelling(shared[d]->forms.front().resolved_type);
            line(fmt::format("{0}* const {1} = static_cast<{0}*>(__builtin_assume_aligned(mcl_shared + {2}, {3}));", el,
                             storage_name(*shared[d]), shared_offset_name(d), kSharedAlignment));
        }
        begin_function(k, Role::Kernel);
        emit_launch_body(plan, launch);
        out_ += "}\n";
    }

    // nvcc merges neighbouring loads into one 16-byte LDS.128 or LDG.128
    // only where it sees them in straight-line code: a register tile's
    // loads `ra[i] = s_a[k, tr * 4 + i]` in a `#pragma unroll` loop of 4
    // stayed 4-byte loads (128 LDS per 8 k steps), the same loads unrolled
    // in the source became 32 LDS.128 (sm_90, nvcc 13). So the loops that
    // GPU backends unroll are unrolled here, unless their body holds a
    // foreach (which the grid mapping places) or unrolling would print more
    // than kMaxUnrolledStatements statements; those keep the pragma.
    static constexpr size_t kMaxUnrolledStatements = 2048;

    bool unrolls_in_source(const Stmt& s) const override {
        bool has_foreach = false;
        mcpl::for_each_stmt(*s.loop_body, [&](const Stmt& t) { has_foreach = has_foreach || t.kind == Stmt::Kind::Foreach; });
        return gpu_unrolls_fully(s) && !has_foreach && printed_statements(s) <= kMaxUnrolledStatements;
    }

    std::string loop_hint(const Stmt& s) const override {
        return gpu_unrolls_fully(s) ? "#pragma unroll" : "";
    }

    // The statements printed for `s`, its loops unrolled as unrolls_in_source
    // would (the count saturates rather than overflow).
    size_t printed_statements(const Stmt& s) const {
        size_t own = 0;
        mcpl::for_each_child_stmt(s, [&](const Stmt& child) { own += printed_statements(child); });
        own = std::min(own + 1, kMaxUnrolledStatements + 1);
        if (s.kind != Stmt::Kind::For || !gpu_unrolls_fully(s)) return own;
        return std::min(own * static_cast<size_t>(mcpl::constant_loop(s)->trips), kMaxUnrolledStatements + 1);
    }

    std::string device_handle(const std::string& array) const override { return array + ".data()"; }

    std::string parameter(const Decl& d, Role role, bool definition) override {
        const BasicDecl& form = d.forms.front();
        if (may_restrict(d, role) && d.is_written && form.resolved_type.is_array())
            return element_spelling(form.resolved_type) + "* __restrict__ " + ident(form.name);
        return CFamilyEmitter::parameter(d, role, definition);
    }

    // call() has given both operands the result's type
    std::string device_min_max(const std::string& which, const Type&, const std::string& a,
                               const std::string& b) override {
        return fmt::format("{}({}, {})", which, a, b);
    }

    std::string device_power(const Type& type, const std::string& a, const std::string& b) override {
        std::string t = element_spelling(type);
        std::string f = type.primitive == Primitive::Double ? "double" : "float";
        return fmt::format("(({})pow(({}){}, ({}){}))", t, f, a, f, b);
    }

    // --- host glue -------------------------------------------------------------------------

    std::string emit_glue() {
        std::string out = banner(in_.module.name + ".cu", "CUDA host glue");
        out += "#include \"" + in_.module.name + ".h\"\n\n#include <algorithm>\n#include <cmath>\n#include <cstddef>\n"
               "#include <string>\n\n#include \"mcl_cuda.h\"\n#include \"mcl_runtime.h\"\n#include \"" +
               kernels_file() + "\"\n\n";
        return out + glue_namespace("", "mcl::cuda::Device::get()", "mcl::cuda",
                                    [&](const Function& k) { return emit_resident(k); });
    }

    std::string emit_resident(const Function& k) {
        // The group arrays of a launch share its dynamic shared memory.
        auto launch_code = [&](const GridLaunch& launch, size_t n) {
            const std::vector<const Decl*>& shared = launch.group_arrays;
            std::string out = shared_memory_layout(launch, n, kSharedAlignment);
            out += "            if (" + grid_is_nonempty(n) + ") {\n";
            out += fmt::format("                mcl_device.check_launch(mcl_group_count_{0}, mcl_group_size_{0}, "
                               "mcl_shared_bytes_{0});\n", n);
            if (!shared.empty())
                out += fmt::format("                mcl_device.allow_dynamic_shared(kernels::{0}_{1}, mcl_shared_bytes_{1}, "
                                   "\"{0}_{1}\");\n", ident(k.name), n);
            std::vector<std::string> args = launch_arguments(k, launch, "");
            out += fmt::format("                kernels::{0}_{1}<<<dim3((unsigned int)mcl_group_count_{1}[0], "
                               "(unsigned int)mcl_group_count_{1}[1], (unsigned int)mcl_group_count_{1}[2]),\n"
                               "                    dim3((unsigned int)mcl_group_size_{1}[0], "
                               "(unsigned int)mcl_group_size_{1}[1], (unsigned int)mcl_group_size_{1}[2]),\n"
                               "                    mcl_shared_bytes_{1}>>>({2});\n",
                               ident(k.name), n, fmt::join(args, ", "));
            out += fmt::format("                mcl::cuda::check(cudaGetLastError(), \"launching {}_{}\");\n"
                               "            }}\n",
                               ident(k.name), n);
            return out;
        };
        return resident_function(k, "mcl::cuda", "        mcl_device.activate();\n", launch_code,
                                 fmt::format("        mcl::cuda::check(cudaDeviceSynchronize(), \"running {}\");\n",
                                             ident(k.name)),
                                 "");
    }

    std::set<const Decl*> scoped_targets_;  // see note_scoped_targets
};

}  // namespace

std::vector<GeneratedFile> CudaBackend::generate(const GenerationInput& input, DiagnosticEngine& diags) const {
    return generate_with<CudaGenerator>(input, name(), diags);
}

AsyncCopyPlan CudaBackend::asynchronous_copies(const GenerationInput& input, const mcpl::Function& kernel,
                                               DiagnosticEngine& diags) const {
    const BackendConfig* config = backend_config(input, name(), diags);
    if (!config) return {};
    return CudaGenerator(input, *config, diags).planned_async_copies(kernel);
}

}  // namespace mcl::backends
