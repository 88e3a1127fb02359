#include "backends/llvm/WidenAddressIndices.h"

#include <cstdint>
#include <map>
#include <vector>

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>

#include "backends/llvm/LlvmSupport.h"

namespace mcl::backends::llvmir {

namespace {

// Each stepped address holds a 64-bit register across its loop: the 16
// guarded tile loads of matmul_hopper_v5's loop, all stepped, took 41 more
// registers (170) and halved how many blocks fit on a multiprocessor.
constexpr std::size_t kMostSteppedAddressesPerLoop = 4;

// Whether every use of `index` ends, through at most `depth` more 64-bit
// operations (`i * n + j`, `n - 1 - j`), in the address of an element of an
// array passed as a parameter (of a kernel, for KernelParameters).
bool only_addresses_parameters(const llvm::Value* index, int depth, WidenedArrays arrays) {
    for (const llvm::User* user : index->users()) {
        if (const auto* address = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
            const llvm::Value* base = address->getPointerOperand();
            const auto* storage = llvm::dyn_cast<llvm::Argument>(llvm::getUnderlyingObject(base, 0));
            if (base == index || !storage) return false;
            if (arrays == WidenedArrays::KernelParameters &&
                storage->getParent()->getCallingConv() != llvm::CallingConv::PTX_Kernel)
                return false;
            continue;
        }
        const auto* arithmetic = llvm::dyn_cast<llvm::BinaryOperator>(user);
        if (!arithmetic || depth == 0 || !only_addresses_parameters(arithmetic, depth - 1, arrays)) return false;
    }
    return true;
}

// One function's indices, its analyses computed once, before any rewrite.
class IndexWidener {
public:
    IndexWidener(llvm::Function& function, WidenedArrays arrays)
        : arrays_(arrays),
          library_info_(llvm::Triple(function.getParent()->getTargetTriple())),
          library_(library_info_, &function),
          assumptions_(function),
          dominators_(function),
          loops_(dominators_),
          evolutions_(function, library_, assumptions_, dominators_, loops_) {}

    // The extensions to widen, by loop; decided before any is rewritten.
    std::map<const llvm::Loop*, std::vector<llvm::CastInst*>> paying_extensions(llvm::Function& function) {
        std::map<const llvm::Loop*, std::vector<llvm::CastInst*>> per_loop;
        for (llvm::BasicBlock& block : function)
            for (llvm::Instruction& instruction : block)
                if (auto* extension = llvm::dyn_cast<llvm::CastInst>(&instruction))
                    if (const llvm::Loop* loop = loop_widening_pays(*extension)) per_loop[loop].push_back(extension);
        return per_loop;
    }

    // `value` sign-extended to `wide`, its sums and scalings done in `wide`.
    llvm::Value* widened(llvm::IRBuilder<>& builder, llvm::Value* value, llvm::Type* wide) {
        const llvm::BinaryOperator* op = sum_or_scaling(value);
        if (!op) return builder.CreateSExt(value, wide);
        llvm::Value* left = widened(builder, op->getOperand(0), wide);
        llvm::Value* right = is_scaling(*op) ? builder.CreateSExt(op->getOperand(1), wide)
                                             : widened(builder, op->getOperand(1), wide);
        auto opcode = op->getOpcode() == llvm::Instruction::Or ? llvm::Instruction::Add : op->getOpcode();
        llvm::Value* wide_op = builder.CreateBinOp(opcode, left, right);
        if (auto* made = llvm::dyn_cast<llvm::BinaryOperator>(wide_op)) made->setHasNoSignedWrap(true);
        return wide_op;
    }

private:
    static bool is_scaling(const llvm::BinaryOperator& op) {
        return op.getOpcode() == llvm::Instruction::Mul || op.getOpcode() == llvm::Instruction::Shl;
    }

    // An add, subtract or disjoint or, or a multiply or left shift (by less
    // than the width) by a constant, that cannot overflow in its own width.
    const llvm::BinaryOperator* sum_or_scaling(const llvm::Value* value) const {
        const auto* op = llvm::dyn_cast<llvm::BinaryOperator>(value);
        if (!op) return nullptr;
        if (is_disjoint_or(*op)) return op;
        const auto* factor = llvm::dyn_cast<llvm::ConstantInt>(op->getOperand(1));
        bool shift_in_width = op->getOpcode() != llvm::Instruction::Shl ||
                              (factor && factor->getValue().ult(op->getType()->getScalarSizeInBits()));
        bool form = op->getOpcode() == llvm::Instruction::Add || op->getOpcode() == llvm::Instruction::Sub ||
                    (is_scaling(*op) && factor && shift_in_width);
        return form && cannot_overflow(*op) ? op : nullptr;
    }

    // nsw, or a twin that says so: the same operation on the same operands,
    // marked nsw, computed before `op` on every path, whose poison would
    // make the program undefined (a branch on it). Loop unrolling leaves
    // such pairs: `k << 8` of the guard keeps its nsw, the unrolled copy's
    // `(k << 8) | 256` loses it.
    bool cannot_overflow(const llvm::BinaryOperator& op) const {
        if (op.hasNoSignedWrap()) return true;
        for (const llvm::User* user : op.getOperand(0)->users()) {
            const auto* twin = llvm::dyn_cast<llvm::BinaryOperator>(user);
            if (twin && twin != &op && twin->getFunction() == op.getFunction() && twin->getOpcode() == op.getOpcode() &&
                twin->getOperand(0) == op.getOperand(0) && twin->getOperand(1) == op.getOperand(1) &&
                twin->hasNoSignedWrap() && dominators_.dominates(twin, &op) && llvm::programUndefinedIfPoison(twin))
                return true;
        }
        return false;
    }

    // The scalar evolution `widened` would give `value`.
    const llvm::SCEV* widened_evolution(llvm::Value* value, llvm::Type* wide) {
        const llvm::BinaryOperator* op = sum_or_scaling(value);
        if (!op) return evolutions_.getSignExtendExpr(evolutions_.getSCEV(value), wide);
        const llvm::SCEV* left = widened_evolution(op->getOperand(0), wide);
        if (op->getOpcode() == llvm::Instruction::Shl) {
            uint64_t shift = llvm::cast<llvm::ConstantInt>(op->getOperand(1))->getZExtValue();
            return evolutions_.getMulExpr(left, evolutions_.getConstant(wide, uint64_t{1} << shift));
        }
        if (op->getOpcode() == llvm::Instruction::Mul)
            return evolutions_.getMulExpr(left, evolutions_.getSignExtendExpr(evolutions_.getSCEV(op->getOperand(1)), wide));
        const llvm::SCEV* right = widened_evolution(op->getOperand(1), wide);
        return op->getOpcode() == llvm::Instruction::Sub ? evolutions_.getMinusSCEV(left, right)
                                                          : evolutions_.getAddExpr(left, right);
    }

    // Whether `evolution` steps by a loop-invariant amount on each iteration
    // of `loop`: what strength reduction turns into one pointer per array.
    bool steps_through(const llvm::SCEV* evolution, const llvm::Loop& loop) {
        const auto* recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(evolution);
        return recurrence && recurrence->getLoop() == &loop && recurrence->isAffine() &&
               evolutions_.isLoopInvariant(recurrence->getStepRecurrence(evolutions_), &loop);
    }

    // The loop in which widening `extension` lets strength reduction step an
    // address that it now recomputes on every iteration; null where none.
    const llvm::Loop* loop_widening_pays(llvm::CastInst& extension) {
        // Strength reduction skips loops that contain loops.
        const llvm::Loop* loop = loops_.getLoopFor(extension.getParent());
        if (!loop || !loop->isInnermost() || extension.use_empty()) return nullptr;
        if (!extension.getSrcTy()->isIntegerTy(32) || !extension.getDestTy()->isIntegerTy(64)) return nullptr;
        if (!extends_signed_value(extension) || !sum_or_scaling(extension.getOperand(0))) return nullptr;
        if (!only_addresses_parameters(&extension, 2, arrays_)) return nullptr;
        if (steps_through(evolutions_.getSCEV(&extension), *loop)) return nullptr;
        return steps_through(widened_evolution(extension.getOperand(0), extension.getDestTy()), *loop) ? loop : nullptr;
    }

    WidenedArrays arrays_;
    llvm::TargetLibraryInfoImpl library_info_;
    llvm::TargetLibraryInfo library_;
    llvm::AssumptionCache assumptions_;
    llvm::DominatorTree dominators_;
    llvm::LoopInfo loops_;
    llvm::ScalarEvolution evolutions_;
};

bool widen_in(llvm::Function& function, WidenedArrays arrays) {
    IndexWidener widener(function, arrays);
    bool changed = false;
    for (auto& [loop, extensions] : widener.paying_extensions(function)) {
        if (extensions.size() > kMostSteppedAddressesPerLoop) continue;
        for (llvm::CastInst* extension : extensions) {
            llvm::IRBuilder<> builder(extension);
            extension->replaceAllUsesWith(widener.widened(builder, extension->getOperand(0), extension->getDestTy()));
            llvm::RecursivelyDeleteTriviallyDeadInstructions(extension);
            changed = true;
        }
    }
    return changed;
}

}  // namespace

bool widen_address_indices(llvm::Module& module, WidenedArrays arrays) {
    bool changed = false;
    for (llvm::Function& function : module)
        if (!function.isDeclaration()) changed |= widen_in(function, arrays);
    return changed;
}

}  // namespace mcl::backends::llvmir
