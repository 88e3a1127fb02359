#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/WidenAddressIndices.h"

#include <algorithm>

#include <mutex>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#if LLVM_VERSION_MAJOR < 17
#error "the llvm backend needs LLVM 17 or later"
#endif
#if LLVM_VERSION_MAJOR < 18
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#endif

namespace mcl::backends::llvmir {

namespace {

std::string message_of(llvm::Error error) { return llvm::toString(std::move(error)); }

// The spellings that changed between LLVM versions, each in one place.

#if LLVM_VERSION_MAJOR >= 18
constexpr auto aggressive_codegen = llvm::CodeGenOptLevel::Aggressive;
constexpr auto object_file = llvm::CodeGenFileType::ObjectFile;
constexpr auto assembly_file = llvm::CodeGenFileType::AssemblyFile;
#else
constexpr auto aggressive_codegen = llvm::CodeGenOpt::Aggressive;
constexpr auto object_file = llvm::CGFT_ObjectFile;
constexpr auto assembly_file = llvm::CGFT_AssemblyFile;
#endif

// Returned by value from LLVM 19 on, filled through an argument before.
llvm::StringMap<bool> host_cpu_feature_map() {
#if LLVM_VERSION_MAJOR >= 19
    return llvm::sys::getHostCPUFeatures();
#else
    llvm::StringMap<bool> features;
    llvm::sys::getHostCPUFeatures(features);  // false (and no entries) where unknown
    return features;
#endif
}

llvm::TargetMachine* create_machine(const llvm::Target& target, const llvm::Triple& triple, const std::string& cpu,
                                    const std::string& features, const llvm::TargetOptions& options,
                                    std::optional<llvm::Reloc::Model> relocation) {
#if LLVM_VERSION_MAJOR >= 21
    return target.createTargetMachine(triple, cpu, features, options, relocation, std::nullopt, aggressive_codegen);
#else
    return target.createTargetMachine(triple.str(), cpu, features, options, relocation, std::nullopt,
                                      aggressive_codegen);
#endif
}

void set_module_triple(llvm::Module& module, const llvm::Triple& triple) {
#if LLVM_VERSION_MAJOR >= 21
    module.setTargetTriple(triple);
#else
    module.setTargetTriple(triple.str());
#endif
}

llvm::orc::ExecutorSymbolDef absolute_symbol(void* address) {
    return {llvm::orc::ExecutorAddr::fromPtr(address), llvm::JITSymbolFlags::Exported};
}

// From LLVM 18 on, LLJIT links every JITDylib to a JITDylib of the process's
// symbols (and its ELF platform needs that one); before, the main JITDylib
// searches the process itself.
bool link_process_symbols([[maybe_unused]] llvm::orc::LLJIT& jit, [[maybe_unused]] std::string& error) {
#if LLVM_VERSION_MAJOR < 18
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        jit.getDataLayout().getGlobalPrefix());
    if (!process) {
        error = "cannot give the JIT the process's symbols: " + message_of(process.takeError());
        return false;
    }
    jit.getMainJITDylib().addGenerator(std::move(*process));
#endif
    return true;
}

// End of the version differences.

// "+avx2", "-avx512fp16", ...: every feature the host CPU reports, so that
// the static and the JIT machine agree.
std::vector<std::string> host_cpu_features() {
    std::vector<std::string> features;
    for (const auto& feature : host_cpu_feature_map()) {
        // appended, not `"+" + name`: GCC 12 at -O3 warns (falsely) about
        // the overlap of that concatenation's memcpy
        std::string spelled(1, feature.getValue() ? '+' : '-');
        spelled.append(feature.getKey().data(), feature.getKey().size());
        features.push_back(std::move(spelled));
    }
    return features;
}

// The bit-exactness contract: no fused multiply-add that the IR did not ask
// for (an FMA rounds once where the interpreter rounds twice) and no math
// that assumes away infinities, NaNs or signed zeros.
void set_strict_floating_point(llvm::TargetOptions& options) {
    options.AllowFPOpFusion = llvm::FPOpFusion::Strict;
    options.UnsafeFPMath = false;
    options.NoInfsFPMath = false;
    options.NoNaNsFPMath = false;
    options.NoSignedZerosFPMath = false;
    options.ApproxFuncFPMath = false;
}

std::unique_ptr<llvm::TargetMachine> make_machine(const llvm::Triple& triple, const std::string& cpu,
                                                  const std::string& features,
                                                  std::optional<llvm::Reloc::Model> relocation,
                                                  std::string& error) {
    initialize_llvm();
    std::string lookup_error;
    llvm::Triple found_triple = triple;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget("", found_triple, lookup_error);
    if (!target) {
        error = "no LLVM target for " + triple.str() + ": " + lookup_error;
        return nullptr;
    }
    llvm::TargetOptions options;
    set_strict_floating_point(options);
    std::unique_ptr<llvm::TargetMachine> machine(create_machine(*target, triple, cpu, features, options, relocation));
    if (!machine) error = "LLVM cannot create a target machine for " + triple.str() + " (" + cpu + ")";
    return machine;
}

// Collects the errors that LLVM reports through a context while code is
// generated (an unsupported construct for the target, say). Without it the
// context's default handler prints them and exits the process.
class CollectErrors : public llvm::DiagnosticHandler {
public:
    explicit CollectErrors(std::shared_ptr<std::string> errors) : errors_(std::move(errors)) {}

    bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
        if (info.getSeverity() != llvm::DS_Error) return false;  // warnings and remarks: LLVM's default
        llvm::raw_string_ostream stream(*errors_);
        if (!errors_->empty()) stream << "\n";
        llvm::DiagnosticPrinterRawOStream printer(stream);
        info.print(printer);
        return true;
    }

private:
    std::shared_ptr<std::string> errors_;
};

// Routes a context's errors to a string for as long as it lives, then gives
// the context its own handler back.
class ScopedErrorCollection {
public:
    explicit ScopedErrorCollection(llvm::LLVMContext& context)
        : context_(context), errors_(std::make_shared<std::string>()), previous_(context.getDiagnosticHandler()) {
        context_.setDiagnosticHandler(std::make_unique<CollectErrors>(errors_));
    }
    ~ScopedErrorCollection() { context_.setDiagnosticHandler(std::move(previous_)); }
    ScopedErrorCollection(const ScopedErrorCollection&) = delete;
    ScopedErrorCollection& operator=(const ScopedErrorCollection&) = delete;

    const std::string& errors() const { return *errors_; }

private:
    llvm::LLVMContext& context_;
    std::shared_ptr<std::string> errors_;
    std::unique_ptr<llvm::DiagnosticHandler> previous_;
};

bool emit_file(llvm::Module& module, llvm::TargetMachine& machine, llvm::CodeGenFileType type, std::string& bytes,
               std::string& error) {
    if (module.getDataLayout() != machine.createDataLayout()) {
        error = "module '" + module.getName().str() + "' is not prepared for " + machine.getTargetTriple().str();
        return false;
    }
    if (!verify_module(module, error)) return false;
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream stream(buffer);
    llvm::legacy::PassManager passes;
    if (machine.addPassesToEmitFile(passes, stream, nullptr, type)) {
        error = "LLVM's " + machine.getTargetTriple().str() + " target cannot emit this kind of file";
        return false;
    }
    ScopedErrorCollection collection(module.getContext());
    passes.run(module);
    if (!collection.errors().empty()) {
        error = collection.errors();
        return false;
    }
    bytes.assign(buffer.begin(), buffer.end());
    return true;
}

// The same pipeline with LICM hoisting only what the loop executes on every
// iteration. A GPU thread's registers bound how many threads run at once,
// and ptxas does not sink what LICM hoisted back into the loop: the address
// arithmetic of a tile's guarded loads (`if (row < n) s[..] = a[row, col]`),
// hoisted out of the tile loop, held 45 more registers than nvcc's code for
// matmul_hopper_v5 (173 against 127: one block of 256 threads per
// multiprocessor instead of two). The pipeline names LICM's option only in
// its text form, so the pipeline goes through its text.
llvm::ModulePassManager without_speculative_hoisting(llvm::PassBuilder& builder,
                                                    llvm::PassInstrumentationCallbacks& pass_names,
                                                    llvm::ModulePassManager passes) {
    std::string pipeline;
    llvm::raw_string_ostream text(pipeline);
    passes.printPipeline(text, [&pass_names](llvm::StringRef class_name) {
        llvm::StringRef name = pass_names.getPassNameForClassName(class_name);
        return name.empty() ? class_name : name;
    });
    text.flush();
    const std::string speculative = "licm<allowspeculation>";
    const std::string in_place = "licm<no-allowspeculation>";
    for (size_t at = pipeline.find(speculative); at != std::string::npos; at = pipeline.find(speculative, at)) {
        pipeline.replace(at, speculative.size(), in_place);
        at += in_place.size();
    }
    llvm::ModulePassManager rebuilt;
    if (llvm::Error failure = builder.parsePassPipeline(rebuilt, pipeline)) {
        llvm::consumeError(std::move(failure));
        return passes;  // a spelling this LLVM does not read back: its own pipeline
    }
    return rebuilt;
}

// Answers the tests of the local window (llvm.nvvm.isspacep.local, which
// the lowering puts before an atomic on a device function's parameter)
// whose pointer inlining has traced to its storage: a variable of the
// function is local memory; a kernel's parameter or shared memory is not.
// Says whether it answered any.
bool fold_local_window_tests(llvm::Module& module) {
    llvm::Function* test = module.getFunction(llvm::Intrinsic::getName(llvm::Intrinsic::nvvm_isspacep_local));
    if (!test) return false;
    bool folded = false;
    for (llvm::User* user : llvm::make_early_inc_range(test->users())) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(user);
        if (!call) continue;
        GpuStorage storage = gpu_storage_of(call->getArgOperand(0));
        if (storage == GpuStorage::Unknown) continue;
        call->replaceAllUsesWith(llvm::ConstantInt::getBool(module.getContext(), storage == GpuStorage::Local));
        call->eraseFromParent();
        folded = true;
    }
    return folded;
}

}  // namespace

bool extends_signed_value(const llvm::CastInst& extension) {
    if (llvm::isa<llvm::SExtInst>(extension)) return true;
#if LLVM_VERSION_MAJOR >= 18
    return llvm::isa<llvm::ZExtInst>(extension) && extension.hasNonNeg();
#else
    return false;
#endif
}

bool is_disjoint_or(const llvm::BinaryOperator& op) {
#if LLVM_VERSION_MAJOR >= 18
    return op.getOpcode() == llvm::Instruction::Or && llvm::cast<llvm::PossiblyDisjointInst>(op).isDisjoint();
#else
    return false;
#endif
}

GpuStorage gpu_storage_of(const llvm::Value* pointer) {
    const llvm::Value* storage = llvm::getUnderlyingObject(pointer, 0);
    if (llvm::isa<llvm::AllocaInst>(storage)) return GpuStorage::Local;
    const auto* parameter = llvm::dyn_cast<llvm::Argument>(storage);
    if (llvm::isa<llvm::GlobalVariable>(storage) ||
        (parameter && parameter->getParent()->getCallingConv() == llvm::CallingConv::PTX_Kernel))
        return GpuStorage::Elsewhere;
    return GpuStorage::Unknown;
}

void initialize_llvm() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        llvm::InitializeNativeTargetAsmParser();
#if LLVM_HAS_NVPTX_TARGET
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
#endif
        // A floating-point accumulation in a loop (`sum += a[k] * x[c[k]]`)
        // may be vectorized only with its adds kept in source order (the
        // loads and multiplies become vector code, the adds a chain over the
        // lanes, as GCC does), so that results stay exactly the
        // interpreter's. LLVM does this by default only for AArch64; its cost
        // model still decides per loop whether it pays.
        auto& registered = llvm::cl::getRegisteredOptions();
        auto ordered = registered.find("force-ordered-reductions");
        if (ordered != registered.end()) ordered->second->addOccurrence(0, "force-ordered-reductions", "true");
#if LLVM_HAS_NVPTX_TARGET
        // Shared-memory addresses in 32 bits, as clang's -fcuda-short-ptr
        // and nvcc make them: a GPU block's shared memory is far below 4 GiB,
        // and 64-bit ones held across a loop (one per staged tile element)
        // cost two registers each.
        auto short_pointers = registered.find("nvptx-short-ptr");
        if (short_pointers != registered.end()) short_pointers->second->addOccurrence(0, "nvptx-short-ptr", "true");
#endif
    });
}

std::unique_ptr<llvm::TargetMachine> host_target_machine(std::string& error) {
    return make_machine(llvm::Triple(llvm::sys::getProcessTriple()), llvm::sys::getHostCPUName().str(),
                        llvm::join(host_cpu_features(), ","), llvm::Reloc::PIC_, error);
}

int widest_vector_bits(const llvm::TargetMachine& machine) {
    const llvm::MCSubtargetInfo* cpu = machine.getMCSubtargetInfo();
    if (cpu->checkFeatures("+avx512f")) return 512;
    if (cpu->checkFeatures("+avx")) return 256;
    return 128;
}

bool link_math_library(llvm::Module& module, const std::string& path, const std::vector<std::string>& keep,
                       std::string& error) {
    bool calls_library = false;
    for (const llvm::Function& f : module)
        if (f.isDeclaration() && f.getName().starts_with("__nv_")) calls_library = true;
    if (calls_library) {
        llvm::SMDiagnostic problem;
        std::unique_ptr<llvm::Module> library = llvm::parseIRFile(path, problem, module.getContext());
        if (!library) {
            error = "cannot read the math library '" + path + "' (CUDA's libdevice; set CUDA_HOME): " +
                    problem.getMessage().str();
            return false;
        }
        library->setDataLayout(module.getDataLayout());
        library->setTargetTriple(module.getTargetTriple());
        if (llvm::Linker::linkModules(module, std::move(library), llvm::Linker::Flags::LinkOnlyNeeded)) {
            error = "cannot link the math library '" + path + "'";
            return false;
        }
        module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", static_cast<uint32_t>(0));
    }
    for (llvm::Function& f : module)
        if (!f.isDeclaration() && std::find(keep.begin(), keep.end(), f.getName().str()) == keep.end())
            f.setLinkage(llvm::GlobalValue::InternalLinkage);
    return true;
}

std::unique_ptr<llvm::TargetMachine> cpu_target_machine(const std::string& cpu, std::string& error) {
    return make_machine(llvm::Triple(llvm::sys::getProcessTriple()), cpu, "", llvm::Reloc::PIC_, error);
}

std::unique_ptr<llvm::TargetMachine> nvptx_target_machine(const std::string& sm, std::string& error) {
    // LLVM 19 defaults to the oldest PTX ISA that `sm` allows (7.8 for
    // sm_90); 8.0 is the first with sm_90a and is read by every ptxas that
    // knows sm_90.
    return make_machine(llvm::Triple("nvptx64-nvidia-cuda"), sm, "+ptx80", std::nullopt, error);
}

void prepare_module(llvm::Module& module, llvm::TargetMachine& machine) {
    module.setDataLayout(machine.createDataLayout());
    set_module_triple(module, machine.getTargetTriple());
}

void set_launch_bounds(llvm::Function& kernel, int64_t threads, std::optional<int64_t> min_blocks) {
#if LLVM_VERSION_MAJOR >= 21  // annotations became attributes (llvm-project #127736)
    kernel.addFnAttr("nvvm.maxntid", std::to_string(threads));
    if (min_blocks) kernel.addFnAttr("nvvm.minctasm", std::to_string(*min_blocks));
#else
    llvm::LLVMContext& context = kernel.getContext();
    auto annotate = [&](const char* key, int64_t value) {
        llvm::Metadata* annotation[] = {
            llvm::ValueAsMetadata::get(&kernel), llvm::MDString::get(context, key),
            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), value))};
        kernel.getParent()->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(context, annotation));
    };
    annotate("maxntidx", threads);
    if (min_blocks) annotate("minctasm", *min_blocks);
#endif
}

bool verify_module(const llvm::Module& module, std::string& error) {
    std::string findings;
    llvm::raw_string_ostream stream(findings);
    if (!llvm::verifyModule(module, &stream)) return true;
    error = "invalid LLVM IR in module '" + module.getName().str() + "':\n" + findings;
    return false;
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine, [[maybe_unused]] bool fast_math) {
    llvm::LoopAnalysisManager loop_analyses;
    llvm::FunctionAnalysisManager function_analyses;
    llvm::CGSCCAnalysisManager cgscc_analyses;
    llvm::ModuleAnalysisManager module_analyses;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    llvm::PassInstrumentationCallbacks pass_names;  // filled by the builder: class names to pipeline names
    llvm::PassBuilder builder(&machine, tuning, std::nullopt, &pass_names);
    builder.registerModuleAnalyses(module_analyses);
    builder.registerCGSCCAnalyses(cgscc_analyses);
    builder.registerFunctionAnalyses(function_analyses);
    builder.registerLoopAnalyses(loop_analyses);
    builder.crossRegisterProxies(loop_analyses, function_analyses, cgscc_analyses, module_analyses);
    llvm::ModulePassManager passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    if (machine.getTargetTriple().isNVPTX()) passes = without_speculative_hoisting(builder, pass_names, std::move(passes));
    passes.run(module, module_analyses);
    // With the tests answered, the atomic on a variable is dead code, and
    // the variable can live in registers again.
    if (machine.getTargetTriple().isNVPTX() && fold_local_window_tests(module)) {
        llvm::ModulePassManager cleanup;
        const char* pipeline = "function(simplifycfg,sroa,instcombine,simplifycfg)";
        if (llvm::Error failure = builder.parsePassPipeline(cleanup, pipeline))
            llvm::consumeError(std::move(failure));  // a pass this LLVM lacks: the answers stand, only slower code
        else
            cleanup.run(module, module_analyses);
    }
    if (machine.getTargetTriple().isNVPTX()) widen_address_indices(module);
}

bool emit_object(llvm::Module& module, llvm::TargetMachine& machine, std::string& bytes, std::string& error) {
    return emit_file(module, machine, object_file, bytes, error);
}

bool emit_assembly(llvm::Module& module, llvm::TargetMachine& machine, std::string& text, std::string& error) {
    return emit_file(module, machine, assembly_file, text, error);
}

int vector_register_bits(llvm::TargetMachine& machine, const llvm::Function& any_function) {
    llvm::TargetTransformInfo info = machine.getTargetTransformInfo(any_function);
    return static_cast<int>(
        info.getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector).getFixedValue());
}

JitSession::JitSession(std::unique_ptr<llvm::orc::LLJIT> jit) : jit_(std::move(jit)) {}

JitSession::~JitSession() = default;

std::unique_ptr<JitSession> JitSession::create(const std::vector<std::string>& objects,
                                               const std::vector<std::pair<std::string, void*>>& host_symbols,
                                               std::string& error) {
    initialize_llvm();
    // The objects are machine code already: the JIT only links them, so its
    // own target machine (the host's, by default) never compiles anything.
    llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = llvm::orc::LLJITBuilder().create();
    if (!jit) {
        error = "cannot create the LLVM JIT: " + message_of(jit.takeError());
        return nullptr;
    }
    llvm::orc::JITDylib& library = (*jit)->getMainJITDylib();

    llvm::orc::SymbolMap symbols;
    for (const auto& [name, address] : host_symbols) symbols[(*jit)->mangleAndIntern(name)] = absolute_symbol(address);
    if (llvm::Error failure = library.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
        error = "cannot give the JIT its host symbols: " + message_of(std::move(failure));
        return nullptr;
    }
    if (!link_process_symbols(**jit, error)) return nullptr;

    for (size_t k = 0; k < objects.size(); ++k) {
        auto buffer = llvm::MemoryBuffer::getMemBufferCopy(objects[k], "unit" + std::to_string(k) + ".o");
        if (llvm::Error failure = (*jit)->addObjectFile(std::move(buffer))) {
            error = "the JIT does not accept object " + std::to_string(k) + ": " + message_of(std::move(failure));
            return nullptr;
        }
    }
    return std::unique_ptr<JitSession>(new JitSession(std::move(*jit)));
}

void* JitSession::lookup(const std::string& name, std::string& error) {
    llvm::Expected<llvm::orc::ExecutorAddr> address = jit_->lookup(name);
    if (!address) {
        error = "JIT lookup of '" + name + "' failed: " + message_of(address.takeError());
        return nullptr;
    }
    return address->toPtr<void*>();
}

}  // namespace mcl::backends::llvmir
