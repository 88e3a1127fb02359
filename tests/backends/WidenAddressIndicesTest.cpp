// WidenAddressIndices on IR of the shape the GPU pipeline leaves for
// gesummv_gpu's loop (unrolled by two, each copy's load under its guard):
// both copies' 32-bit indices into a kernel's array become 64-bit sums of
// sign-extended leaves (the second copy's `(k << 8) | 256` lost its nsw
// in unrolling; its guard's twin vouches for it), the module stays valid,
// and the PTX then loads through stepped pointers; compiled for this
// machine, the widened loop sums what the loop it came from does. Indices into
// shared memory, and a device function's arrays, are left alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/SourceMgr.h>

#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/WidenAddressIndices.h"

namespace mcl::backends::llvmir {
namespace {

// for (k = 0; k < steps; k += 2) {
//   if ((k << 8) + t < n) sum += a[row + (k << 8) + t];
//   if ((k << 8 | 256) + t < n) sum += a[row + (k << 8 | 256) + t];
// }
// `CALLING` is the function's calling convention, `BASE` the array.
const char* const kUnrolledGuardedLoads = R"(
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@mcl_shared = external addrspace(3) global [0 x i8], align 16

define CALLING void @dot(ptr noalias readonly %a, ptr noalias %out, i32 %n, i32 %steps, i32 %t, i64 %row) {
entry:
  %base = BASE
  %any = icmp sgt i32 %steps, 0
  br i1 %any, label %loop, label %exit
loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %latch ]
  %sum = phi float [ 0.0, %entry ], [ %sum.2, %latch ]
  %k256 = shl nsw i32 %k, 8
  %j = add nsw i32 %k256, %t
  %in = icmp slt i32 %j, %n
  br i1 %in, label %first, label %second.test
first:
  %j64 = zext nneg i32 %j to i64
  %index = add nsw i64 %row, %j64
  %p = getelementptr float, ptr %base, i64 %index
  %v = load float, ptr %p, align 4
  %sum.first = fadd float %sum, %v
  br label %second.test
second.test:
  %sum.1 = phi float [ %sum.first, %first ], [ %sum, %loop ]
  %k256.b = shl i32 %k, 8
  %j.b0 = or disjoint i32 %k256.b, 256
  %j.b = add nuw nsw i32 %j.b0, %t
  %in.b = icmp slt i32 %j.b, %n
  br i1 %in.b, label %second, label %latch
second:
  %j64.b = zext nneg i32 %j.b to i64
  %index.b = add nsw i64 %row, %j64.b
  %p.b = getelementptr float, ptr %base, i64 %index.b
  %v.b = load float, ptr %p.b, align 4
  %sum.second = fadd float %sum.1, %v.b
  br label %latch
latch:
  %sum.2 = phi float [ %sum.second, %second ], [ %sum.1, %second.test ]
  %k.next = add nuw nsw i32 %k, 2
  %more = icmp slt i32 %k.next, %steps
  br i1 %more, label %loop, label %exit
exit:
  %total = phi float [ 0.0, %entry ], [ %sum.2, %latch ]
  store float %total, ptr %out, align 4
  ret void
}
)";

const char* const kKernelArgument = "getelementptr i8, ptr %a, i64 0";
const char* const kSharedMemory = "getelementptr i8, ptr addrspacecast (ptr addrspace(3) @mcl_shared to ptr), i64 16";

struct ParsedModule {
    std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module;
};

ParsedModule parse(const std::string& calling, const std::string& base) {
    std::string text = std::regex_replace(kUnrolledGuardedLoads, std::regex("CALLING"), calling);
    text = std::regex_replace(text, std::regex("BASE"), base);
    ParsedModule parsed;
    llvm::SMDiagnostic problem;
    parsed.module = llvm::parseAssemblyString(text, problem, *parsed.context);
    EXPECT_TRUE(parsed.module) << problem.getMessage().str();
    return parsed;
}

// How many extensions from 32 to 64 bits of a sum or scaling `function` has.
int extended_sums(const llvm::Function& function) {
    int count = 0;
    for (const llvm::BasicBlock& block : function)
        for (const llvm::Instruction& instruction : block)
            if (const auto* cast = llvm::dyn_cast<llvm::CastInst>(&instruction))
                count += cast->getSrcTy()->isIntegerTy(32) && cast->getDestTy()->isIntegerTy(64) &&
                         llvm::isa<llvm::BinaryOperator>(cast->getOperand(0));
    return count;
}

TEST(WidenAddressIndices, KernelArrayIndicesInALoopBecome64BitSums) {
    ParsedModule parsed = parse("ptx_kernel", kKernelArgument);
    ASSERT_TRUE(parsed.module);
    EXPECT_EQ(extended_sums(*parsed.module->getFunction("dot")), 2);
    EXPECT_TRUE(widen_address_indices(*parsed.module));
    EXPECT_EQ(extended_sums(*parsed.module->getFunction("dot")), 0);
    std::string error;
    EXPECT_TRUE(verify_module(*parsed.module, error)) << error;

    // Code generation then steps one pointer through the loop, which both
    // copies load through (without the pass the first copy computes its
    // own address under its guard: 4 instructions).
    std::unique_ptr<llvm::TargetMachine> machine = nvptx_target_machine("sm_90", error);
    ASSERT_TRUE(machine) << error;
    prepare_module(*parsed.module, *machine);
    std::string ptx;
    ASSERT_TRUE(emit_assembly(*parsed.module, *machine, ptx, error)) << error;
    std::vector<std::string> pointers;
    const std::regex load(R"(ld\.global[^\n]*\[(%rd[0-9]+)(\+-?[0-9]+)?\];)");
    for (auto at = std::sregex_iterator(ptx.begin(), ptx.end(), load); at != std::sregex_iterator(); ++at)
        pointers.push_back((*at)[1]);
    ASSERT_EQ(pointers.size(), 2u) << ptx;
    EXPECT_EQ(pointers[0], pointers[1]) << ptx;
}

// The loop compiled for this machine, its indices widened, as a function
// of a JIT session.
using Dot = void (*)(const float* a, float* out, int32_t n, int32_t steps, int32_t t, int64_t row);

std::unique_ptr<JitSession> widened_host_dot(Dot& dot) {
    std::string text = std::regex_replace(kUnrolledGuardedLoads, std::regex("(target|@mcl_shared)[^\n]*\n"), "");
    text = std::regex_replace(text, std::regex("CALLING"), "");
    text = std::regex_replace(text, std::regex("BASE"), kKernelArgument);
    llvm::LLVMContext context;
    llvm::SMDiagnostic problem;
    std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, problem, context);
    EXPECT_TRUE(module) << problem.getMessage().str();
    if (!module) return nullptr;
    std::string error;
    std::unique_ptr<llvm::TargetMachine> machine = host_target_machine(error);
    EXPECT_TRUE(machine) << error;
    if (!machine) return nullptr;
    prepare_module(*module, *machine);
    EXPECT_TRUE(widen_address_indices(*module, WidenedArrays::AnyParameters));
    EXPECT_TRUE(verify_module(*module, error)) << error;
    std::string object;
    EXPECT_TRUE(emit_object(*module, *machine, object, error)) << error;
    std::unique_ptr<JitSession> jit = JitSession::create({object}, {}, error);
    EXPECT_TRUE(jit) << error;
    if (!jit) return nullptr;
    dot = reinterpret_cast<Dot>(jit->lookup("dot", error));
    EXPECT_TRUE(dot) << error;
    return jit;
}

TEST(WidenAddressIndices, WidenedLoopSumsWhatTheSourceLoopDoes) {
    Dot widened = nullptr;
    std::unique_ptr<JitSession> jit = widened_host_dot(widened);
    ASSERT_TRUE(widened);
    std::vector<float> a(4096);
    for (size_t i = 0; i < a.size(); ++i) a[i] = 1.0f + 0.5f * float(i);
    int cases = 0;
    for (int32_t steps : {0, 1, 2, 3, 5, 8})
        for (int32_t n : {0, 1, 255, 256, 300, 700, 1500})
            for (int32_t t : {0, 1, 100, 255})
                for (int64_t row : {0, 3, 1000}) {
                    float expected = 0.0f;
                    for (int32_t k = 0; k < steps; k += 2)
                        for (int32_t j : {k * 256 + t, k * 256 + 256 + t})
                            if (j < n) expected += a[size_t(row + j)];
                    float sum = -1.0f;
                    widened(a.data(), &sum, n, steps, t, row);
                    ASSERT_EQ(sum, expected) << "steps " << steps << ", n " << n << ", t " << t << ", row " << row;
                    ++cases;
                }
    EXPECT_EQ(cases, 504);
}

TEST(WidenAddressIndices, SharedMemoryAndDeviceFunctionsKeep32BitSums) {
    ParsedModule shared = parse("ptx_kernel", kSharedMemory);
    ASSERT_TRUE(shared.module);
    EXPECT_FALSE(widen_address_indices(*shared.module));
    EXPECT_EQ(extended_sums(*shared.module->getFunction("dot")), 2);

    ParsedModule device = parse("", kKernelArgument);
    ASSERT_TRUE(device.module);
    EXPECT_FALSE(widen_address_indices(*device.module));
    EXPECT_EQ(extended_sums(*device.module->getFunction("dot")), 2);
}

}  // namespace
}  // namespace mcl::backends::llvmir
