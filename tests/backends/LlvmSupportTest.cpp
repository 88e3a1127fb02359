// The llvm backend's LLVM infrastructure and runtime: IR built by hand is
// optimized, JIT-compiled and called (with the thread pool and the C library
// of the process), emitted as an object file and as PTX that ptxas accepts;
// malformed input comes back as an error; a module cut into code generation
// units links back into the same program; the pool covers every iteration
// once, nests and takes turns; the first fault wins.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <thread>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm/IR/IRBuilder.h>
#include <llvm/MC/MCSubtargetInfo.h>

#include "backends/llvm/CodegenUnits.h"
#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/ParallelRuntime.h"
#include "runtime/mcl_llvm.h"

namespace mcl::backends::llvmir {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct OwnedModule {
    std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module = std::make_unique<llvm::Module>("test", *context);
};

llvm::Function* declare(llvm::Module& module, const char* name, llvm::Type* result,
                        std::vector<llvm::Type*> parameters) {
    auto* type = llvm::FunctionType::get(result, parameters, false);
    return llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module);
}

// float add(float a, float b) { return a + b; }
void build_add(llvm::Module& module) {
    llvm::IRBuilder<> b(module.getContext());
    llvm::Function* add = declare(module, "add", b.getFloatTy(), {b.getFloatTy(), b.getFloatTy()});
    b.SetInsertPoint(llvm::BasicBlock::Create(module.getContext(), "entry", add));
    b.CreateRet(b.CreateFAdd(add->getArg(0), add->getArg(1)));
}

// float multiply_add(float a, float b, float c) { return a * b + c; }, two
// roundings unless something fuses them.
void build_multiply_add(llvm::Module& module) {
    llvm::IRBuilder<> b(module.getContext());
    llvm::Type* f = b.getFloatTy();
    llvm::Function* fn = declare(module, "multiply_add", f, {f, f, f});
    b.SetInsertPoint(llvm::BasicBlock::Create(module.getContext(), "entry", fn));
    b.CreateRet(b.CreateFAdd(b.CreateFMul(fn->getArg(0), fn->getArg(1)), fn->getArg(2)));
}

// float sine(float x) { return sinf(x); }: sinf comes from the process.
void build_sine(llvm::Module& module) {
    llvm::IRBuilder<> b(module.getContext());
    llvm::Function* sinf = declare(module, "sinf", b.getFloatTy(), {b.getFloatTy()});
    llvm::Function* sine = declare(module, "sine", b.getFloatTy(), {b.getFloatTy()});
    b.SetInsertPoint(llvm::BasicBlock::Create(module.getContext(), "entry", sine));
    b.CreateRet(b.CreateCall(sinf, {sine->getArg(0)}));
}

// void fill(int64_t* a, int64_t n): a[i] = 3 * i + 1 for i in [0, n), through
//   mcl_llvm_parallel_for(fill_chunk, a, n), where fill_chunk loops over
//   [begin, end).
void build_parallel_fill(llvm::Module& module) {
    llvm::LLVMContext& context = module.getContext();
    llvm::IRBuilder<> b(context);
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Type* ptr = b.getPtrTy();

    llvm::Function* chunk = declare(module, "fill_chunk", b.getVoidTy(), {ptr, i64, i64});
    chunk->setLinkage(llvm::Function::InternalLinkage);
    auto* entry = llvm::BasicBlock::Create(context, "entry", chunk);
    auto* loop = llvm::BasicBlock::Create(context, "loop", chunk);
    auto* done = llvm::BasicBlock::Create(context, "done", chunk);
    b.SetInsertPoint(entry);
    b.CreateCondBr(b.CreateICmpSLT(chunk->getArg(1), chunk->getArg(2)), loop, done);
    b.SetInsertPoint(loop);
    llvm::PHINode* i = b.CreatePHI(i64, 2);
    i->addIncoming(chunk->getArg(1), entry);
    llvm::Value* value = b.CreateAdd(b.CreateMul(i, b.getInt64(3)), b.getInt64(1));
    b.CreateStore(value, b.CreateGEP(i64, chunk->getArg(0), i));
    llvm::Value* next = b.CreateAdd(i, b.getInt64(1));
    i->addIncoming(next, loop);
    b.CreateCondBr(b.CreateICmpSLT(next, chunk->getArg(2)), loop, done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();

    llvm::Function* parallel_for = declare(module, "mcl_llvm_parallel_for", b.getVoidTy(), {ptr, ptr, i64});
    llvm::Function* fill = declare(module, "fill", b.getVoidTy(), {ptr, i64});
    b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fill));
    b.CreateCall(parallel_for, {chunk, fill->getArg(0), fill->getArg(1)});
    b.CreateRetVoid();
}

std::unique_ptr<llvm::TargetMachine> host_machine() {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> machine = host_target_machine(error);
    EXPECT_TRUE(machine) << error;
    return machine;
}

TEST(LlvmSupport, JitCompiledFunctionsCallThePoolAndTheCLibrary) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    OwnedModule owned;
    build_add(*owned.module);
    build_multiply_add(*owned.module);
    build_sine(*owned.module);
    build_parallel_fill(*owned.module);
    prepare_module(*owned.module, *machine);
    std::string error;
    ASSERT_TRUE(verify_module(*owned.module, error)) << error;
    optimize(*owned.module, *machine, false);
    std::string object;
    ASSERT_TRUE(emit_object(*owned.module, *machine, object, error)) << error;

    std::unique_ptr<JitSession> jit = JitSession::create({object}, runtime_symbols(), error);
    ASSERT_TRUE(jit) << error;

    auto add = reinterpret_cast<float (*)(float, float)>(jit->lookup("add", error));
    ASSERT_TRUE(add) << error;
    EXPECT_EQ(add(1.5f, 2.25f), 3.75f);

    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22, so the sum is 0;
    // a fused multiply-add would keep 2^-46.
    auto multiply_add = reinterpret_cast<float (*)(float, float, float)>(jit->lookup("multiply_add", error));
    ASSERT_TRUE(multiply_add) << error;
    float a = 1.0f + std::ldexp(1.0f, -23);
    EXPECT_EQ(multiply_add(a, a, -(1.0f + std::ldexp(1.0f, -22))), 0.0f);

    auto sine = reinterpret_cast<float (*)(float)>(jit->lookup("sine", error));
    ASSERT_TRUE(sine) << error;
    volatile float half = 0.5f;  // sinf of the C library, not the compiler's folding
    EXPECT_EQ(sine(half), std::sin(half));

    auto fill = reinterpret_cast<void (*)(int64_t*, int64_t)>(jit->lookup("fill", error));
    ASSERT_TRUE(fill) << error;
    std::vector<int64_t> values(100000, -1);
    fill(values.data(), int64_t(values.size()));
    for (int64_t i = 0; i < int64_t(values.size()); ++i) ASSERT_EQ(values[i], 3 * i + 1) << "at " << i;

    EXPECT_EQ(jit->lookup("no_such_function", error), nullptr);
    EXPECT_THAT(error, HasSubstr("no_such_function"));
}

TEST(LlvmSupport, ObjectFileIsElf) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    OwnedModule owned;
    build_add(*owned.module);
    build_parallel_fill(*owned.module);
    prepare_module(*owned.module, *machine);
    optimize(*owned.module, *machine, false);
    std::string object, error;
    ASSERT_TRUE(emit_object(*owned.module, *machine, object, error)) << error;
    EXPECT_THAT(object, StartsWith("\x7f" "ELF"));
}

TEST(LlvmSupport, VectorRegistersOfThisMachine) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    OwnedModule owned;
    build_add(*owned.module);
    prepare_module(*owned.module, *machine);
    llvm::Function& add = *owned.module->getFunction("add");
    int bits = vector_register_bits(*machine, add);
    EXPECT_GE(bits, 128);
    // The preference that LLVM gives some AVX-512 CPUs yields to the
    // function's own request.
    add.addFnAttr("prefer-vector-width", "512");
    if (machine->getMCSubtargetInfo()->checkFeatures("+avx512f")) {
        EXPECT_EQ(vector_register_bits(*machine, add), 512);
    }
    std::cout << "vector registers: " << bits << " bits (" << vector_register_bits(*machine, add)
              << " with prefer-vector-width=512)\n";
}

TEST(LlvmSupport, PtxForSm90) {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> machine = nvptx_target_machine("sm_90", error);
    ASSERT_TRUE(machine) << error;
    // A kernel that stores 1.0 through its global-memory argument.
    OwnedModule owned;
    llvm::IRBuilder<> b(*owned.context);
    llvm::Function* kernel = declare(*owned.module, "one", b.getVoidTy(), {b.getPtrTy(1)});
    kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
    b.SetInsertPoint(llvm::BasicBlock::Create(*owned.context, "entry", kernel));
    b.CreateStore(llvm::ConstantFP::get(b.getFloatTy(), 1.0), kernel->getArg(0));
    b.CreateRetVoid();
    prepare_module(*owned.module, *machine);
    optimize(*owned.module, *machine, false);
    std::string ptx;
    ASSERT_TRUE(emit_assembly(*owned.module, *machine, ptx, error)) << error;
    EXPECT_THAT(ptx, HasSubstr(".version 8.0"));
    EXPECT_THAT(ptx, HasSubstr(".target sm_90"));
    EXPECT_THAT(ptx, HasSubstr(".entry one("));

    const char* ptxas = "/usr/local/cuda/bin/ptxas";
    if (!std::filesystem::exists(ptxas)) GTEST_SKIP() << "no " << ptxas << " to assemble the PTX";
    std::filesystem::path directory = std::filesystem::temp_directory_path() /
                                      ("mcl_llvm_support_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory);
    std::ofstream(directory / "one.ptx") << ptx;
    std::string command = std::string(ptxas) + " -arch=sm_90 " + (directory / "one.ptx").string() + " -o " +
                          (directory / "one.cubin").string();
    int status = std::system(command.c_str());
    std::filesystem::remove_all(directory);
    EXPECT_EQ(status, 0) << command;
}

// void guarded(ptr out, i32 n, i64 stride, i32 limit): for i < n: if (i <
// limit) out[stride * stride + i] = 1.0. The product is loop invariant but
// computed only on the guarded path.
void build_guarded_invariant(llvm::Module& module, llvm::Type* out_type) {
    llvm::LLVMContext& context = module.getContext();
    llvm::IRBuilder<> b(context);
    llvm::Function* kernel = declare(module, "guarded", b.getVoidTy(), {out_type, b.getInt32Ty(), b.getInt64Ty(), b.getInt32Ty()});
    auto* entry = llvm::BasicBlock::Create(context, "entry", kernel);
    auto* header = llvm::BasicBlock::Create(context, "header", kernel);
    auto* guarded = llvm::BasicBlock::Create(context, "guarded", kernel);
    auto* latch = llvm::BasicBlock::Create(context, "latch", kernel);
    auto* exit = llvm::BasicBlock::Create(context, "exit", kernel);
    b.SetInsertPoint(entry);
    b.CreateCondBr(b.CreateICmpSGT(kernel->getArg(1), b.getInt32(0)), header, exit);
    b.SetInsertPoint(header);
    llvm::PHINode* i = b.CreatePHI(b.getInt32Ty(), 2, "i");
    i->addIncoming(b.getInt32(0), entry);
    b.CreateCondBr(b.CreateICmpSLT(i, kernel->getArg(3)), guarded, latch);
    b.SetInsertPoint(guarded);
    llvm::Value* product = b.CreateMul(kernel->getArg(2), kernel->getArg(2), "product");
    llvm::Value* index = b.CreateAdd(product, b.CreateSExt(i, b.getInt64Ty()));
    b.CreateStore(llvm::ConstantFP::get(b.getFloatTy(), 1.0), b.CreateGEP(b.getFloatTy(), kernel->getArg(0), index));
    b.CreateBr(latch);
    b.SetInsertPoint(latch);
    llvm::Value* next = b.CreateAdd(i, b.getInt32(1));
    i->addIncoming(next, latch);
    b.CreateCondBr(b.CreateICmpSLT(next, kernel->getArg(1)), header, exit);
    b.SetInsertPoint(exit);
    b.CreateRetVoid();
}

// Whether every multiply in `f` (there is one at least) shares its block
// with a store: it was not hoisted off the guarded path.
bool products_beside_their_store(llvm::Function& f) {
    int products = 0;
    for (llvm::BasicBlock& block : f) {
        bool has_store = false;
        for (llvm::Instruction& in : block) has_store |= llvm::isa<llvm::StoreInst>(in);
        for (llvm::Instruction& in : block) {
            if (in.getOpcode() != llvm::Instruction::Mul) continue;
            if (!has_store) return false;
            ++products;
        }
    }
    return products > 0;
}

TEST(LlvmSupport, GpuCodeKeepsGuardedInvariantsInTheirLoopAndShortSharedPointers) {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> gpu = nvptx_target_machine("sm_90", error);
    ASSERT_TRUE(gpu) << error;
    // shared (3) memory is addressed in 32 bits, global (1) in 64
    EXPECT_EQ(gpu->createDataLayout().getPointerSizeInBits(3), 32u);
    EXPECT_EQ(gpu->createDataLayout().getPointerSizeInBits(1), 64u);

    // The host pipeline hoists the product out of the loop; the GPU's
    // leaves it on the guarded path, next to its one use.
    OwnedModule host_module;
    build_guarded_invariant(*host_module.module, llvm::PointerType::get(*host_module.context, 0));
    std::unique_ptr<llvm::TargetMachine> host = host_machine();
    ASSERT_TRUE(host);
    prepare_module(*host_module.module, *host);
    optimize(*host_module.module, *host, false);
    EXPECT_FALSE(products_beside_their_store(*host_module.module->getFunction("guarded")));

    OwnedModule gpu_module;
    build_guarded_invariant(*gpu_module.module, llvm::PointerType::get(*gpu_module.context, 1));
    llvm::Function* kernel = gpu_module.module->getFunction("guarded");
    kernel->setCallingConv(llvm::CallingConv::PTX_Kernel);
    prepare_module(*gpu_module.module, *gpu);
    optimize(*gpu_module.module, *gpu, false);
    EXPECT_TRUE(products_beside_their_store(*kernel));
}

TEST(LlvmSupport, MalformedModulesAreErrorsNotCrashes) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    std::string error;

    OwnedModule unterminated;
    llvm::Function* f = declare(*unterminated.module, "f", llvm::Type::getVoidTy(*unterminated.context), {});
    llvm::BasicBlock::Create(*unterminated.context, "entry", f);
    prepare_module(*unterminated.module, *machine);
    EXPECT_FALSE(verify_module(*unterminated.module, error));
    EXPECT_THAT(error, HasSubstr("invalid LLVM IR"));
    std::string object;
    EXPECT_FALSE(emit_object(*unterminated.module, *machine, object, error));
    error.clear();
    EXPECT_FALSE(JitSession::create({"not an object file"}, {}, error));
    EXPECT_THAT(error, HasSubstr("does not accept object 0"));

    OwnedModule unprepared;
    build_add(*unprepared.module);
    EXPECT_FALSE(emit_object(*unprepared.module, *machine, object, error));
    EXPECT_THAT(error, HasSubstr("not prepared"));
}

// float add_twice(float a, float b) { return add(add(a, b), b); }: a direct
// call, which keeps the two functions in one unit.
void build_add_twice(llvm::Module& module) {
    llvm::IRBuilder<> b(module.getContext());
    llvm::Function* add = module.getFunction("add");
    llvm::Function* twice = declare(module, "add_twice", b.getFloatTy(), {b.getFloatTy(), b.getFloatTy()});
    b.SetInsertPoint(llvm::BasicBlock::Create(module.getContext(), "entry", twice));
    llvm::Value* once = b.CreateCall(add, {twice->getArg(0), twice->getArg(1)});
    b.CreateRet(b.CreateCall(add, {once, twice->getArg(1)}));
}

// add, add_twice, multiply_add and the parallel fill, prepared for this
// machine: four parts (fill and its chunk body are linked by an address).
OwnedModule four_part_module(llvm::TargetMachine& machine) {
    OwnedModule owned;
    build_add(*owned.module);
    build_add_twice(*owned.module);
    build_multiply_add(*owned.module);
    build_parallel_fill(*owned.module);
    prepare_module(*owned.module, machine);
    return owned;
}

// The units' IR, one string per unit.
std::vector<std::string> unit_texts(const CodegenUnits& units) {
    std::string ir = units.ir();
    std::vector<std::string> texts;
    const std::string header = "; code generation unit ";
    for (size_t at = ir.find(header); at != std::string::npos;) {
        size_t next = ir.find(header, at + 1);
        texts.push_back(ir.substr(at, next == std::string::npos ? std::string::npos : next - at));
        at = next;
    }
    if (texts.empty()) texts.push_back(ir);
    return texts;
}

// Which of `texts` defines `name`; -1 if none, -2 if several do.
int defining_unit(const std::vector<std::string>& texts, const std::string& name) {
    int found = -1;
    for (size_t k = 0; k < texts.size(); ++k) {
        bool defines = std::regex_search(texts[k], std::regex("\\ndefine [^\\n]* @" + name + "\\("));
        if (!defines) continue;
        if (found != -1) return -2;
        found = static_cast<int>(k);
    }
    return found;
}

// The units' objects (one each), linked with the pool; null after a
// failure.
std::unique_ptr<JitSession> link_units(CodegenUnits& units) {
    std::string error;
    std::vector<std::string> objects;
    EXPECT_TRUE(units.generate(objects, error)) << error;
    EXPECT_EQ(objects.size(), units.size());
    std::unique_ptr<JitSession> jit = JitSession::create(objects, runtime_symbols(), error);
    EXPECT_TRUE(jit) << error;
    return jit;
}

TEST(CodegenUnits, CutsOnlyWhereAnAddressLinksFunctionsAndLinksBack) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    OwnedModule owned = four_part_module(*machine);
    std::string error;
    auto units = CodegenUnits::split(std::move(owned.module), std::move(owned.context), 2, error);
    ASSERT_TRUE(units) << error;
    EXPECT_EQ(units->size(), 2u);
    ASSERT_TRUE(units->optimize(false, error)) << error;

    std::vector<std::string> texts = unit_texts(*units);
    ASSERT_EQ(texts.size(), 2u) << units->ir();
    for (const char* name : {"add", "add_twice", "multiply_add", "fill", "fill_chunk"})
        EXPECT_GE(defining_unit(texts, name), 0) << name << " is defined in no unit or in several:\n" << units->ir();
    EXPECT_EQ(defining_unit(texts, "add"), defining_unit(texts, "add_twice")) << units->ir();
    // The chunk body's address is taken: it is a symbol now, but a hidden one.
    EXPECT_NE(units->ir().find("define hidden void @fill_chunk("), std::string::npos) << units->ir();

    std::unique_ptr<JitSession> jit = link_units(*units);
    ASSERT_TRUE(jit);
    auto add_twice = reinterpret_cast<float (*)(float, float)>(jit->lookup("add_twice", error));
    ASSERT_TRUE(add_twice) << error;
    EXPECT_EQ(add_twice(1.0f, 2.5f), 6.0f);
    auto fill = reinterpret_cast<void (*)(int64_t*, int64_t)>(jit->lookup("fill", error));
    ASSERT_TRUE(fill) << error;
    std::vector<int64_t> values(50000, -1);
    fill(values.data(), int64_t(values.size()));
    for (int64_t i = 0; i < int64_t(values.size()); ++i) ASSERT_EQ(values[i], 3 * i + 1) << "at " << i;
}

TEST(CodegenUnits, NoMoreUnitsThanPartsOrThreads) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    std::string error;

    OwnedModule many = four_part_module(*machine);
    auto split_wide = CodegenUnits::split(std::move(many.module), std::move(many.context), 16, error);
    ASSERT_TRUE(split_wide) << error;
    EXPECT_EQ(split_wide->size(), 4u);

    OwnedModule single_thread = four_part_module(*machine);
    auto whole = CodegenUnits::split(std::move(single_thread.module), std::move(single_thread.context), 1, error);
    ASSERT_TRUE(whole) << error;
    EXPECT_EQ(whole->size(), 1u);
    EXPECT_EQ(whole->ir().find("; code generation unit"), std::string::npos);
    // Nothing was cut, so the chunk body stays internal.
    EXPECT_NE(whole->ir().find("define internal void @fill_chunk("), std::string::npos) << whole->ir();

    // Global variables are shared state this split does not divide.
    OwnedModule with_global = four_part_module(*machine);
    new llvm::GlobalVariable(*with_global.module, llvm::Type::getInt32Ty(*with_global.context), false,
                             llvm::GlobalValue::InternalLinkage,
                             llvm::ConstantInt::get(llvm::Type::getInt32Ty(*with_global.context), 7), "counter");
    auto kept = CodegenUnits::split(std::move(with_global.module), std::move(with_global.context), 4, error);
    ASSERT_TRUE(kept) << error;
    EXPECT_EQ(kept->size(), 1u);
}

// Two chunk bodies that both call one internal helper directly, each handed
// to the pool by a function of its own: three parts, the helper's callers
// in one of them.
OwnedModule shared_helper_module(llvm::TargetMachine& machine) {
    OwnedModule owned;
    llvm::Module& module = *owned.module;
    llvm::LLVMContext& context = *owned.context;
    llvm::IRBuilder<> b(context);
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Type* ptr = b.getPtrTy();
    llvm::Function* helper = declare(module, "helper", i64, {i64});
    helper->setLinkage(llvm::Function::InternalLinkage);
    b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", helper));
    b.CreateRet(b.CreateAdd(b.CreateMul(helper->getArg(0), b.getInt64(3)), b.getInt64(7)));
    llvm::Function* parallel_for = declare(module, "mcl_llvm_parallel_for", b.getVoidTy(), {ptr, ptr, i64});
    for (const char* name : {"a", "b"}) {
        llvm::Function* body = declare(module, (std::string("body_") + name).c_str(), b.getVoidTy(), {ptr, i64, i64});
        body->setLinkage(llvm::Function::InternalLinkage);
        b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", body));
        b.CreateStore(b.CreateCall(helper, {body->getArg(1)}), body->getArg(0));
        b.CreateRetVoid();
        llvm::Function* run = declare(module, (std::string("run_") + name).c_str(), b.getVoidTy(), {ptr});
        b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", run));
        b.CreateCall(parallel_for, {body, run->getArg(0), b.getInt64(1)});
        b.CreateRetVoid();
    }
    prepare_module(module, machine);
    return owned;
}

TEST(CodegenUnits, FunctionsCalledFromSeveralBodiesKeepThemTogether) {
    std::unique_ptr<llvm::TargetMachine> machine = host_machine();
    ASSERT_TRUE(machine);
    OwnedModule owned = shared_helper_module(*machine);
    std::string error;
    auto units = CodegenUnits::split(std::move(owned.module), std::move(owned.context), 8, error);
    ASSERT_TRUE(units) << error;
    EXPECT_EQ(units->size(), 3u);
    std::vector<std::string> texts = unit_texts(*units);
    ASSERT_EQ(texts.size(), 3u) << units->ir();
    int helper = defining_unit(texts, "helper");
    EXPECT_GE(helper, 0) << units->ir();
    EXPECT_EQ(defining_unit(texts, "body_a"), helper) << units->ir();
    EXPECT_EQ(defining_unit(texts, "body_b"), helper) << units->ir();
    // Only what another unit names leaves its unit: the helper stays internal.
    EXPECT_NE(texts[static_cast<size_t>(helper)].find("define internal i64 @helper("), std::string::npos)
        << units->ir();

    ASSERT_TRUE(units->optimize(false, error)) << error;
    std::unique_ptr<JitSession> jit = link_units(*units);
    ASSERT_TRUE(jit);
    auto run_b = reinterpret_cast<void (*)(int64_t*)>(jit->lookup("run_b", error));
    ASSERT_TRUE(run_b) << error;
    int64_t out = -1;
    run_b(&out);
    EXPECT_EQ(out, 7);  // the one chunk is [0, 1): helper(0)
}

TEST(CodegenUnits, MalformedModuleIsAnError) {
    OwnedModule unterminated;
    declare(*unterminated.module, "f", llvm::Type::getVoidTy(*unterminated.context), {});
    llvm::BasicBlock::Create(*unterminated.context, "entry", unterminated.module->getFunction("f"));
    std::string error;
    EXPECT_FALSE(CodegenUnits::split(std::move(unterminated.module), std::move(unterminated.context), 2, error));
    EXPECT_THAT(error, HasSubstr("invalid LLVM IR"));
}

// The pool, called directly through runtime/mcl_llvm.h.

TEST(ParallelRuntime, EmptyAndSingleIterationRanges) {
    static std::atomic<int> calls;
    static std::atomic<int64_t> covered;
    auto body = [](void*, int64_t begin, int64_t end) {
        ++calls;
        covered += end - begin;
    };
    calls = 0;
    covered = 0;
    mcl_llvm_parallel_for(body, nullptr, 0);
    mcl_llvm_parallel_for(body, nullptr, -5);
    EXPECT_EQ(calls, 0);
    mcl_llvm_parallel_for(body, nullptr, 1);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(covered, 1);
}

struct Coverage {
    std::vector<int> visits;
    std::atomic<int64_t> sum{0};
};

void count_chunk(void* context, int64_t begin, int64_t end) {
    auto& coverage = *static_cast<Coverage*>(context);
    int64_t sum = 0;
    for (int64_t i = begin; i < end; ++i) {
        ++coverage.visits[i];
        sum += i;
    }
    coverage.sum += sum;
}

TEST(ParallelRuntime, EveryIterationExactlyOnce) {
    const int64_t total = 1000000;
    Coverage coverage;
    coverage.visits.assign(total, 0);
    mcl_llvm_parallel_for(count_chunk, &coverage, total);
    EXPECT_EQ(coverage.sum, total * (total - 1) / 2);
    for (int64_t i = 0; i < total; ++i) ASSERT_EQ(coverage.visits[i], 1) << "at " << i;
}

TEST(ParallelRuntime, NestedCallsRunInTheCaller) {
    static std::atomic<int64_t> inner_iterations;
    inner_iterations = 0;
    auto outer = [](void*, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            auto inner = [](void*, int64_t b, int64_t e) { inner_iterations += e - b; };
            mcl_llvm_parallel_for(inner, nullptr, 1000);
        }
    };
    mcl_llvm_parallel_for(outer, nullptr, 100);
    EXPECT_EQ(inner_iterations, 100 * 1000);
}

TEST(ParallelRuntime, CallersFromSeveralThreadsTakeTurns) {
    std::vector<Coverage> coverages(4);
    std::vector<std::thread> callers;
    for (Coverage& coverage : coverages) {
        coverage.visits.assign(100000, 0);
        callers.emplace_back([&coverage] {
            for (int repeat = 0; repeat < 20; ++repeat) mcl_llvm_parallel_for(count_chunk, &coverage, 100000);
        });
    }
    for (std::thread& caller : callers) caller.join();
    for (Coverage& coverage : coverages) {
        EXPECT_EQ(coverage.sum, 20 * (100000LL * 99999 / 2));
        EXPECT_EQ(coverage.visits[0], 20);
        EXPECT_EQ(coverage.visits[99999], 20);
    }
}

// Jobs back to back meet workers still polling for work; jobs after a pause
// longer than the polling meet parked ones. Both see every iteration once.
TEST(ParallelRuntime, JobsBackToBackAndAfterPauses) {
    Coverage coverage;
    coverage.visits.assign(5000, 0);
    for (int repeat = 0; repeat < 400; ++repeat) {
        mcl_llvm_parallel_for(count_chunk, &coverage, 5000);
        if (repeat % 50 == 49) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_EQ(coverage.sum, 400 * (5000LL * 4999 / 2));
    for (int i = 0; i < 5000; ++i) ASSERT_EQ(coverage.visits[i], 400) << "at " << i;
}

// A process that forks while another of its threads runs parallel loops
// (a test harness, a server handing work to children): the child inherits
// no lock that a thread it lacks holds, and runs its own loops. Without the
// fork handlers the children hung on the submitting thread's lock.
TEST(ParallelRuntime, AForkedChildRunsItsLoopsWhileTheParentsRun) {
    std::atomic<bool> stop{false};
    std::thread busy([&stop] {
        Coverage coverage;
        coverage.visits.assign(20000, 0);
        while (!stop) mcl_llvm_parallel_for(count_chunk, &coverage, 20000);
    });
    int hung = 0, failed = 0;
    for (int child_number = 0; child_number < 40; ++child_number) {
        pid_t child = fork();
        if (child == 0) {
            Coverage coverage;
            coverage.visits.assign(10000, 0);
            mcl_llvm_parallel_for(count_chunk, &coverage, 10000);
            _exit(coverage.sum == 10000LL * 9999 / 2 ? 0 : 1);
        }
        int status = 0;
        bool ended = false;
        for (int wait = 0; wait < 200 && !ended; ++wait) {
            ended = waitpid(child, &status, WNOHANG) == child;
            if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (!ended) {
            kill(child, SIGKILL);
            waitpid(child, nullptr, 0);
            ++hung;
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            ++failed;
        }
    }
    stop = true;
    busy.join();
    EXPECT_EQ(hung, 0);
    EXPECT_EQ(failed, 0);
}

TEST(ParallelRuntime, FirstFaultWinsAndTakeClears) {
    int32_t code = 0, site = 0;
    EXPECT_FALSE(mcl_llvm_take_fault(&code, &site));
    // Every chunk faults; exactly one of them is recorded.
    auto faulting = [](void*, int64_t begin, int64_t) {
        mcl_llvm_fault(mcl_llvm_fault_index_out_of_range, int32_t(begin));
    };
    mcl_llvm_parallel_for(faulting, nullptr, 10000);
    ASSERT_TRUE(mcl_llvm_take_fault(&code, &site));
    EXPECT_EQ(code, mcl_llvm_fault_index_out_of_range);
    EXPECT_GE(site, 0);
    EXPECT_LT(site, 10000);
    EXPECT_FALSE(mcl_llvm_take_fault(&code, &site));

    mcl_llvm_fault(mcl_llvm_fault_division_by_zero, 7);
    mcl_llvm_fault(mcl_llvm_fault_division_overflow, 8);
    ASSERT_TRUE(mcl_llvm_take_fault(&code, &site));
    EXPECT_EQ(code, mcl_llvm_fault_division_by_zero);
    EXPECT_EQ(site, 7);
    EXPECT_FALSE(mcl_llvm_take_fault(&code, &site));
}

}  // namespace
}  // namespace mcl::backends::llvmir
