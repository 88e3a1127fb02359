#include "backends/llvm/LowerToIr.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>

#include "backends/Backend.h"
#include "backends/llvm/IndexRanges.h"
#include "backends/llvm/LinearBounds.h"
#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/RowTiles.h"
#include "backends/llvm/VaryingAnalysis.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/BarrierScopes.h"
#include "runtime/mcl_llvm.h"

namespace mcl::backends::llvmir {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Primitive;
using mcpl::Stmt;
using mcpl::Type;
using mcpl::TypeExpr;
using mcpl::VarPart;

namespace {

constexpr int kFaultDivisionByZero = mcl_llvm_fault_division_by_zero;
constexpr int kFaultDivisionOverflow = mcl_llvm_fault_division_overflow;
constexpr int kFaultIndex = mcl_llvm_fault_index_out_of_range;
constexpr int kFaultNegativeSize = mcl_llvm_fault_negative_size;
constexpr int kFaultCallDepth = mcl_llvm_fault_call_depth;
// With checks, calls nest at most this deep (the interpreter's limit too).
constexpr int kMaxCallDepth = 1000;
// Local arrays of at most this many bytes live on the stack (the cpp
// backend keeps 4096 floats there); larger ones, or ones of a size known
// only at run time, on the heap.
constexpr uint64_t kMaxStackBytes = 16 * 1024;

Primitive primitive_of(const Type& t) { return t.primitive.value_or(Primitive::Int); }
bool is_floating(Primitive p) { return p == Primitive::Float || p == Primitive::Double; }

// C's usual arithmetic conversions.
Primitive common_type(Primitive a, Primitive b) {
    if (a == Primitive::Double || b == Primitive::Double) return Primitive::Double;
    if (a == Primitive::Float || b == Primitive::Float) return Primitive::Float;
    return Primitive::Int;
}

// A value in registers: a scalar (Uniform), the base of lanes base+0..W-1
// (Linear, ints only) or one value per lane (Varying, a vector).
struct Val {
    llvm::Value* v = nullptr;
    Shape shape = Shape::Uniform;
    Primitive type = Primitive::Int;
};

// Where a variable lives.
struct Binding {
    bool is_array = false;
    Type element;                  // the MCPL element type
    llvm::Type* memory = nullptr;  // the LLVM type of one element in memory
    // Scalars: the address of the value (or of the vector of lanes, or of
    // the linear base, in vector code). Arrays: the address of a slot
    // holding the data pointer (a whole-array swap exchanges slots' contents).
    llvm::Value* storage = nullptr;
    std::vector<llvm::Value*> extents;  // i64, every dimension group in order
    bool private_array = false;         // a local array: its accesses are not marked parallel
    // Lock-step code: one copy per unit of the first `unit_depth` dimensions;
    // `storage` is then the first unit's copy (data, for arrays), the next
    // unit's `unit_stride` elements (bytes, for scalars) further on.
    int unit_depth = -1;
    llvm::Value* unit_stride = nullptr;
    Shape shape = Shape::Uniform;  // in vector code
    int storage_id = 0;            // forms and views of one storage share it
};

// A place in memory that an expression names: one element or a sub-array.
struct Place {
    llvm::Value* address = nullptr;  // Uniform/Linear: the (first lane's) element; Varying: vector of pointers
    Shape shape = Shape::Uniform;
    llvm::Type* memory = nullptr;
    Type element;
    std::vector<llvm::Value*> rest;  // extents not indexed yet
    bool parallel = false;           // mark accesses for the loop vectorizer
    llvm::Value* in_range = nullptr;  // i1: false when a checked index was out of range
    // An element of the lanes' own rows (Varying) whose last index is the
    // same for every lane: that index and its extent (i64), for RowTiles.h
    llvm::Value* row_column = nullptr;
    llvm::Value* row_extent = nullptr;
};

// One dimension of units that run in lock-step.
struct UnitDimension {
    llvm::Value* count = nullptr;  // i64
    llvm::Value* index = nullptr;  // the index variable's storage (i32)
};

// What the lowering of one LLVM function keeps.
struct FunctionState {
    llvm::Function* function = nullptr;
    const Function* source = nullptr;
    llvm::BasicBlock* entry = nullptr;
    std::map<const BasicDecl*, Binding> env;
    std::vector<std::vector<llvm::Value*>> heap_scopes;  // arrays to free at the end of each open block
    std::vector<UnitDimension> units;                    // lock-step dimensions, outermost first
    llvm::AllocaInst* fault = nullptr;                   // the first fault of this call (checks)
    llvm::Value* depth = nullptr;                        // the call depth of a device function (checks)
    // Inside a work-item loop: the current unit's number over all of `units`
    // (i64), worked out once per unit instead of at every per-unit access.
    llvm::AllocaInst* current_unit = nullptr;
    int foreach_depth = 0;
    bool in_lockstep = false;
    // Lowering the body of a function with a barrier into lock-step code:
    // where each unit's return value goes (null: none).
    const Binding* lockstep_return = nullptr;
};

}  // namespace

llvm::Type* element_type(llvm::LLVMContext& context, const Type& t) {
    if (t.record) {
        std::string name = "mcl.record." + (t.record->module ? t.record->module->name + "." : "") + t.record->name;
        if (llvm::StructType* known = llvm::StructType::getTypeByName(context, name)) return known;
        llvm::StructType* s = llvm::StructType::create(context, name);
        std::vector<llvm::Type*> fields;
        for (const auto& field : t.record->fields) {
            const BasicDecl& form = field->forms.front();
            llvm::Type* ft = element_type(context, form.resolved_type);
            std::vector<int64_t> extents = mcpl::record_field_extents(form);
            for (auto it = extents.rbegin(); it != extents.rend(); ++it)
                ft = llvm::ArrayType::get(ft, static_cast<uint64_t>(*it));
            fields.push_back(ft);
        }
        s->setBody(fields);
        return s;
    }
    switch (primitive_of(t)) {
    case Primitive::Int: return llvm::Type::getInt32Ty(context);
    case Primitive::Float: return llvm::Type::getFloatTy(context);
    case Primitive::Double: return llvm::Type::getDoubleTy(context);
    case Primitive::Byte:
    case Primitive::Bool: return llvm::Type::getInt8Ty(context);
    case Primitive::Void: return llvm::Type::getVoidTy(context);
    }
    return llvm::Type::getInt32Ty(context);
}

std::string kernel_symbol(const Function& kernel) {
    // the module's length keeps module a_b's kernel c apart from module a's b_c
    std::string module = kernel.module ? kernel.module->name : "module";
    return fmt::format("mcl_llvm_{}{}_{}", module.size(), module, kernel.name);
}

namespace {

class Lowering {
public:
    Lowering(const FindModel& find_model, const LoweringOptions& options, llvm::Module& module,
             LoweredModule& lowered, DiagnosticEngine& diags)
        : find_model_(find_model), options_(options), module_(module), context_(module.getContext()),
          builder_(context_), lowered_(lowered), diags_(diags), errors_at_start_(diags.error_count()),
          barriers_(find_model) {
        llvm::FastMathFlags flags;
        if (options.floating_point.fast_math) flags.setFast();
        if (options.floating_point.contract) flags.setAllowContract(true);
        builder_.setFastMathFlags(flags);
    }

    bool run(const std::vector<const Function*>& kernels) {
        if (options_.grid) {
            for (const GridLaunchLowering& launch : options_.grid->launches) define_launch(launch);
            define_pending();
            return finish(kernels);
        }
        for (const Function* k : kernels) declare_function(*k, true);
        for (const Function* k : kernels) {
            define_function(*k);
            LoweredKernel out{k, kernel_symbol(*k), kernel_symbol(*k) + "_entry"};
            define_entry(*k, *functions_.at(k), out.entry_symbol);
            lowered_.kernels.push_back(out);
        }
        define_pending();
        return finish(kernels);
    }

private:
    void define_pending() {
        while (!pending_.empty()) {
            const Function* f = pending_.back();
            pending_.pop_back();
            define_function(*f);
        }
    }

    bool finish(const std::vector<const Function*>& kernels) {
        if (diags_.error_count() != errors_at_start_) return false;
        // optimizing for size leaves out what copies code: non-trivial
        // loop unswitching, loops vectorized with a scalar epilogue
        if (options_.quick_compile)
            for (llvm::Function& f : module_)
                if (!f.isDeclaration()) f.addFnAttr(llvm::Attribute::OptimizeForSize);
        std::string problems;
        llvm::raw_string_ostream os(problems);
        if (llvm::verifyModule(module_, &os)) {
            diags_.error(kernels.empty() ? SourceLocation{} : kernels.front()->location,
                         "internal error: the llvm backend produced invalid IR: " + os.str());
            return false;
        }
        return true;
    }

    // --- types -------------------------------------------------------------------------

    llvm::Type* register_type(Primitive p) {
        switch (p) {
        case Primitive::Int: return builder_.getInt32Ty();
        case Primitive::Float: return builder_.getFloatTy();
        case Primitive::Double: return builder_.getDoubleTy();
        case Primitive::Byte: return builder_.getInt8Ty();
        case Primitive::Bool: return builder_.getInt1Ty();
        case Primitive::Void: return builder_.getVoidTy();
        }
        return builder_.getInt32Ty();
    }
    llvm::Type* memory_type(const Type& t) { return element_type(context_, t.element()); }
    llvm::Type* vector_of(llvm::Type* t) { return llvm::FixedVectorType::get(t, static_cast<unsigned>(width_)); }
    llvm::Type* shaped_type(Primitive p, Shape s) {
        return s == Shape::Varying ? vector_of(register_type(p)) : register_type(p);
    }
    uint64_t byte_size(llvm::Type* t) { return module_.getDataLayout().getTypeAllocSize(t).getFixedValue(); }
    llvm::Align alignment(llvm::Type* t) { return module_.getDataLayout().getABITypeAlign(t); }
    llvm::Value* i64(int64_t v) { return builder_.getInt64(static_cast<uint64_t>(v)); }
    llvm::Value* i32(int64_t v) { return builder_.getInt32(static_cast<uint32_t>(v)); }

    // --- diagnostics -------------------------------------------------------------------

    void unsupported(SourceLocation at, const std::string& what) {
        diags_.error(at, fmt::format("backend 'llvm' does not support {}", what));
    }

    int fault_site(SourceLocation at) {
        lowered_.fault_sites.push_back(at);
        return static_cast<int>(lowered_.fault_sites.size() - 1);
    }

    // Records a fault (code and site) when `bad` (an i1) holds and none was
    // recorded in this call of the function yet; report_faults passes it on
    // to mcl_llvm_fault when the function returns. Selects, not branches:
    // checked code keeps its shape, and compiles quickly.
    llvm::AllocaInst* fault_slot() {
        if (!state_->fault) {
            llvm::IRBuilder<> entry(state_->entry, state_->entry->begin());
            state_->fault = entry.CreateAlloca(builder_.getInt64Ty(), nullptr, "fault");
            entry.CreateStore(i64(0), state_->fault);
        }
        return state_->fault;
    }

    void fault_if(llvm::Value* bad, int code, SourceLocation at) {
        if (auto* known = llvm::dyn_cast<llvm::Constant>(bad); known && known->isNullValue()) return;
        llvm::Value* recorded = builder_.CreateLoad(builder_.getInt64Ty(), fault_slot());
        llvm::Value* first = builder_.CreateAnd(bad, builder_.CreateICmpEQ(recorded, i64(0)));
        uint64_t fault = (static_cast<uint64_t>(code) << 32) | static_cast<uint32_t>(fault_site(at));
        builder_.CreateStore(builder_.CreateSelect(first, builder_.getInt64(fault), recorded), state_->fault);
    }

    // With checks, a loop ends once a fault is recorded: its values may no
    // longer bring it to an end. Branches to `done` then, else to `next`.
    void leave_loop_after_fault(llvm::BasicBlock* done) {
        if (!options_.checks) return;
        llvm::BasicBlock* next = llvm::BasicBlock::Create(context_, "unfaulted", state_->function);
        llvm::Value* faulted = builder_.CreateICmpNE(builder_.CreateLoad(builder_.getInt64Ty(), fault_slot()), i64(0));
        builder_.CreateCondBr(faulted, done, next, llvm::MDBuilder(context_).createBranchWeights(1, 1 << 20));
        builder_.SetInsertPoint(next);
    }

    // Before a return or a call: the fault this call recorded, if any, to the
    // runtime (which keeps the first it hears of).
    void report_faults() {
        if (!state_->fault) return;
        llvm::Function* fn = state_->function;
        llvm::Value* recorded = builder_.CreateLoad(builder_.getInt64Ty(), state_->fault);
        llvm::BasicBlock* report = llvm::BasicBlock::Create(context_, "fault", fn);
        llvm::BasicBlock* next = llvm::BasicBlock::Create(context_, "return", fn);
        builder_.CreateCondBr(builder_.CreateICmpNE(recorded, i64(0)), report, next,
                              llvm::MDBuilder(context_).createBranchWeights(1, 1 << 20));
        builder_.SetInsertPoint(report);
        llvm::FunctionCallee callee = module_.getOrInsertFunction(
            "mcl_llvm_fault", builder_.getVoidTy(), builder_.getInt32Ty(), builder_.getInt32Ty());
        builder_.CreateCall(callee, {builder_.CreateTrunc(builder_.CreateLShr(recorded, i64(32)), builder_.getInt32Ty()),
                                     builder_.CreateTrunc(recorded, builder_.getInt32Ty())});
        builder_.CreateBr(next);
        builder_.SetInsertPoint(next);
    }

    // --- functions ---------------------------------------------------------------------

    // Parameters: scalars by value, arrays, records and written scalars by pointer.
    static bool by_pointer(const Decl& p) {
        const Type& t = p.forms.front().resolved_type;
        return t.is_array() || t.record || p.is_written;
    }

    llvm::Function* declare_function(const Function& f, bool kernel) {
        if (auto found = functions_.find(&f); found != functions_.end()) return found->second;
        std::vector<llvm::Type*> params;
        for (const auto& p : f.params) {
            const Type& t = p->forms.front().resolved_type;
            params.push_back(by_pointer(*p) ? builder_.getPtrTy()
                             : kernel       ? memory_type(t)
                                            : register_type(primitive_of(t)));
        }
        // with checks, a device function takes its call depth last
        if (!kernel && options_.checks) params.push_back(builder_.getInt32Ty());
        llvm::Type* result = f.resolved_return_type.record ? memory_type(f.resolved_return_type)
                                                            : register_type(primitive_of(f.resolved_return_type));
        if (f.resolved_return_type.is_void() || f.resolved_return_type.is_array()) result = builder_.getVoidTy();
        auto* type = llvm::FunctionType::get(result, params, false);
        std::string name = kernel ? kernel_symbol(f)
                                  : fmt::format("mcl.{}.{}", f.module ? f.module->name : "module", f.name);
        llvm::Function* fn = llvm::Function::Create(
            type, kernel ? llvm::Function::ExternalLinkage : llvm::Function::InternalLinkage, name, module_);
        set_attributes(*fn);
        for (size_t k = 0; k < f.params.size(); ++k) {
            fn->getArg(static_cast<unsigned>(k))->setName(f.params[k]->forms.front().name);
            const Type& t = f.params[k]->forms.front().resolved_type;
            if (kernel && t.is_array()) fn->addParamAttr(static_cast<unsigned>(k), llvm::Attribute::NoAlias);
        }
        functions_[&f] = fn;
        if (!kernel) pending_.push_back(&f);
        return fn;
    }

    // Every generated function: no exceptions, and vectors as wide as the
    // lowering made them (an AVX-512 CPU that prefers 256-bit vectors would
    // split 512-bit ones).
    void set_attributes(llvm::Function& fn) {
        fn.addFnAttr(llvm::Attribute::NoUnwind);
        std::string bits = std::to_string(options_.vector_bits);
        fn.addFnAttr("min-legal-vector-width", bits);
        fn.addFnAttr("prefer-vector-width", bits);
    }

    llvm::AllocaInst* entry_alloca(llvm::Type* type, const std::string& name, llvm::Value* count = nullptr) {
        llvm::IRBuilder<> entry(state_->entry, state_->entry->begin());
        return entry.CreateAlloca(type, count, name);
    }

    void define_function(const Function& f) {
        FunctionState state;
        state.function = functions_.at(&f);
        state.source = &f;
        state.entry = llvm::BasicBlock::Create(context_, "entry", state.function);
        FunctionState* outer = state_;
        state_ = &state;
        builder_.SetInsertPoint(state.entry);
        bool kernel = state.function->getLinkage() == llvm::Function::ExternalLinkage;
        bind_parameters(f, *state.function, kernel);
        state.heap_scopes.emplace_back();
        if (!kernel && options_.checks) limit_call_depth(f);
        for (const auto& s : f.body->body) stmt(*s);
        if (!builder_.GetInsertBlock()->getTerminator()) {
            free_heap_scopes(0);
            report_faults();
            llvm::Type* result = state.function->getReturnType();
            if (result->isVoidTy()) builder_.CreateRetVoid();
            else builder_.CreateRet(llvm::Constant::getNullValue(result));
        }
        state_ = outer;
    }

    // Calls nested deeper than kMaxCallDepth fault and return at once
    // (unbounded recursion would overflow the stack).
    void limit_call_depth(const Function& f) {
        state_->depth = state_->function->getArg(static_cast<unsigned>(f.params.size()));
        llvm::Value* too_deep = builder_.CreateICmpSGT(state_->depth, i32(kMaxCallDepth));
        fault_if(too_deep, kFaultCallDepth, f.location);
        llvm::BasicBlock* back = llvm::BasicBlock::Create(context_, "too.deep", state_->function);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "body", state_->function);
        builder_.CreateCondBr(too_deep, back, body, llvm::MDBuilder(context_).createBranchWeights(1, 1 << 20));
        builder_.SetInsertPoint(back);
        report_faults();
        llvm::Type* result = state_->function->getReturnType();
        if (result->isVoidTy()) builder_.CreateRetVoid();
        else builder_.CreateRet(llvm::Constant::getNullValue(result));
        builder_.SetInsertPoint(body);
    }

    // Binds `f`'s parameters to the first arguments of `fn` (a kernel's
    // scalars arrive in their memory types).
    void bind_parameters(const Function& f, llvm::Function& fn, bool kernel) {
        FunctionState& state = *state_;
        for (size_t k = 0; k < f.params.size(); ++k) {
            const Decl& p = *f.params[k];
            const BasicDecl& form = p.forms.front();
            llvm::Argument* arg = fn.getArg(static_cast<unsigned>(k));
            Binding b;
            b.element = form.resolved_type.element();
            b.memory = memory_type(form.resolved_type);
            b.storage_id = next_storage_id_++;
            if (form.resolved_type.is_array()) {
                b.is_array = true;
                b.storage = entry_alloca(builder_.getPtrTy(), form.name + ".data");
                builder_.CreateStore(arg, b.storage);
            } else if (by_pointer(p)) {
                b.storage = arg;
            } else {
                b.storage = entry_alloca(b.memory, form.name);
                llvm::Value* v = arg;
                if (!kernel) v = to_memory(v, primitive_of(form.resolved_type));
                builder_.CreateStore(v, b.storage);
            }
            state.env[&form] = b;
        }
        // Array parameters take the extents of their declared types, and
        // further forms are views, once every scalar is bound.
        for (const auto& p : f.params) {
            Binding& first = state.env[&p->forms.front()];
            if (first.is_array) first.extents = extents_of(p->forms.front().type);
            for (size_t k = 1; k < p->forms.size(); ++k) bind_view(first, p->forms[k]);
        }
    }

    // --- NVIDIA device code: one kernel per launch (GridLowering) --------------------------

    void define_launch(const GridLaunchLowering& l) {
        const Function& f = *l.kernel;
        const GridLaunch& launch = *l.launch;
        std::vector<llvm::Type*> params;
        for (const auto& p : f.params) params.push_back(by_pointer(*p) ? builder_.getPtrTy() : memory_type(p->forms.front().resolved_type));
        for (int level = 0; level < 2; ++level)
            for (size_t k = 0; k < launch.slots[level].size(); ++k) params.push_back(builder_.getInt32Ty());
        for (const Decl* d : l.host_arguments) params.push_back(memory_type(d->forms.front().resolved_type));
        for (size_t k = 0; k < l.scratch_arrays.size(); ++k) params.push_back(builder_.getPtrTy());
        for (size_t k = 0; k < launch.group_arrays.size(); ++k) params.push_back(builder_.getInt64Ty());
        auto* fn = llvm::Function::Create(llvm::FunctionType::get(builder_.getVoidTy(), params, false),
                                          llvm::Function::ExternalLinkage, l.symbol, module_);
        fn->setCallingConv(llvm::CallingConv::PTX_Kernel);
        fn->addFnAttr(llvm::Attribute::NoUnwind);
        // Parameters never alias (the language's rule, the cuda backend's
        // __restrict__); one the kernel never writes is read through the
        // read-only data cache (ld.global.nc), as nvcc reads a const
        // __restrict__ pointer.
        for (size_t k = 0; k < f.params.size(); ++k) {
            if (!by_pointer(*f.params[k])) continue;
            const Type& t = f.params[k]->forms.front().resolved_type;
            if (t.record && !t.is_array() && !f.params[k]->is_written) {
                // A record passed by value: the driver copies the glue's
                // struct into the kernel's parameter space (byval, .param
                // in PTX), which the kernel reads through this pointer.
                llvm::Type* record = memory_type(t);
                fn->addParamAttr(static_cast<unsigned>(k), llvm::Attribute::getWithByValType(context_, record));
                fn->addParamAttr(static_cast<unsigned>(k), llvm::Attribute::getWithAlignment(context_, alignment(record)));
                continue;
            }
            fn->addParamAttr(static_cast<unsigned>(k), llvm::Attribute::NoAlias);
            if (!f.params[k]->is_written) fn->addParamAttr(static_cast<unsigned>(k), llvm::Attribute::ReadOnly);
        }
        if (l.max_threads) set_launch_bounds(*fn, *l.max_threads, l.min_blocks);

        FunctionState state;
        state.function = fn;
        state.source = &f;
        state.entry = llvm::BasicBlock::Create(context_, "entry", fn);
        state_ = &state;
        builder_.SetInsertPoint(state.entry);
        grid_launch_ = &l;
        bind_parameters(f, *fn, true);
        unsigned arg = static_cast<unsigned>(f.params.size());
        for (int level = 0; level < 2; ++level) {
            grid_slot_sizes_[level].clear();
            for (size_t k = 0; k < launch.slots[level].size(); ++k) grid_slot_sizes_[level].push_back(fn->getArg(arg++));
        }
        for (const Decl* d : l.host_arguments) {
            Binding b;
            b.element = d->forms.front().resolved_type.element();
            b.memory = memory_type(d->forms.front().resolved_type);
            b.storage = entry_alloca(b.memory, d->name());
            b.storage_id = next_storage_id_++;
            builder_.CreateStore(fn->getArg(arg++), b.storage);
            state.env[&d->forms.front()] = b;
        }
        grid_scratch_.clear();
        for (const Decl* d : l.scratch_arrays) grid_scratch_[d] = fn->getArg(arg++);
        grid_shared_.clear();
        for (const Decl* d : launch.group_arrays) grid_shared_[d] = fn->getArg(arg++);
        state.heap_scopes.emplace_back();
        for (const Decl* d : l.plan->prologue) declare(*d);
        // the kernel's own scratch arrays declared before this launch
        for (size_t k = 0; k < launch.kernel_arrays; ++k) declare(*l.plan->kernel_arrays[k]);
        stmt(*launch.root);
        if (!terminated()) builder_.CreateRetVoid();
        grid_launch_ = nullptr;
        state_ = nullptr;
    }

    llvm::Value* grid_id(GridLevel level, int dimension) {
        static const llvm::Intrinsic::ID group[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                                      llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                                      llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
        static const llvm::Intrinsic::ID item[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                                     llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
        int d = std::clamp(dimension, 0, 2);
        return builder_.CreateIntrinsic(level == GridLevel::Group ? group[d] : item[d], {}, {});
    }

    // The index of slot `slot` of `level` (GridMapping.h slot_index): its
    // dimension's id, or its part of a dimension that several slots share.
    llvm::Value* grid_slot_index(GridLevel level, size_t slot) {
        const auto& slots = grid_launch_->launch->slots[static_cast<int>(level)];
        const auto& sizes = grid_slot_sizes_[static_cast<int>(level)];
        const GridSlot& s = slots[slot];
        llvm::Value* id = grid_id(level, s.dimension);
        if (!s.linearised) return id;
        size_t last = 0;
        while (last + 1 < slots.size() && slots[last + 1].linearised) ++last;
        llvm::Value* q = id;
        for (size_t k = slot + 1; k <= last; ++k) q = builder_.CreateUDiv(q, sizes[k]);
        return slot == 0 ? q : builder_.CreateURem(q, sizes[slot]);
    }

    void grid_foreach(const Stmt& s) {
        auto found = grid_launch_->launch->placements.find(&s);
        if (found == grid_launch_->launch->placements.end()) {
            unsupported(s.location, "a foreach inside a function called from a kernel, for NVIDIA GPUs");
            return;
        }
        const ForeachPlacement& place = found->second;
        // bar.sync orders shared and global memory for the block (GroupPhases)
        if (grid_launch_->launch->barriers_before.count(&s))
            builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
        llvm::Value* count = place.guarded ? unit_count(s) : nullptr;
        bind_index(s, Shape::Uniform);
        llvm::Value* index = grid_slot_index(place.level, place.slot);
        builder_.CreateStore(index, index_storage(s));
        ++state_->foreach_depth;
        llvm::Value* runs = count ? builder_.CreateICmpSLT(index, count) : nullptr;
        for (const auto& [level, slot] : place.idle_slots) {
            llvm::Value* first = builder_.CreateICmpEQ(grid_slot_index(level, slot), builder_.getInt32(0));
            runs = runs ? builder_.CreateAnd(runs, first) : first;
        }
        if (place.pushes_guard) {
            // inside the guards of the loops around, which are pushed here too
            if (pushed_guard_) runs = runs ? builder_.CreateAnd(pushed_guard_, runs) : pushed_guard_;
            llvm::Value* around = std::exchange(pushed_guard_, runs);
            block(*s.loop_body);
            pushed_guard_ = around;
        } else if (runs) {
            llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "unit", state_->function);
            llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "unit.done", state_->function);
            builder_.CreateCondBr(runs, body, done);
            builder_.SetInsertPoint(body);
            block(*s.loop_body);
            if (!terminated()) builder_.CreateBr(done);
            builder_.SetInsertPoint(done);
        } else {
            block(*s.loop_body);
        }
        if (grid_launch_->async && grid_launch_->async->waits_after.count(&s) && !terminated())
            wait_for_async_copies();
        --state_->foreach_depth;
        if (grid_launch_->launch->barriers_after.count(&s) && !terminated())
            builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    }

    // The instance number of the group loops around a scratch array
    // declared in a launch: row-major over its `depth` outermost group slots.
    llvm::Value* group_instance(size_t depth) {
        llvm::Value* n = i64(0);
        for (size_t k = 0; k < depth; ++k) {
            llvm::Value* size = builder_.CreateZExt(grid_slot_sizes_[0][k], builder_.getInt64Ty());
            llvm::Value* index = builder_.CreateZExt(grid_slot_index(GridLevel::Group, k), builder_.getInt64Ty());
            n = builder_.CreateAdd(builder_.CreateMul(n, size), index);
        }
        return n;
    }

    // An array declared in a launch: shared memory for group-scoped spaces,
    // the host's scratch storage for device memory outside item loops, else
    // a private array (of constant size) of the thread.
    bool grid_array(const Decl& d, Binding& b) {
        const BasicDecl& first = d.forms.front();
        llvm::Value* data = nullptr;
        if (auto shared = grid_shared_.find(&d); shared != grid_shared_.end()) {
            llvm::Type* bytes = llvm::ArrayType::get(builder_.getInt8Ty(), 0);
            llvm::GlobalVariable* memory = module_.getNamedGlobal("mcl_shared");
            if (!memory) {
                memory = new llvm::GlobalVariable(module_, bytes, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                                  "mcl_shared", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
                memory->setAlignment(llvm::Align(16));
            }
            llvm::Value* generic = builder_.CreateAddrSpaceCast(memory, builder_.getPtrTy());
            data = builder_.CreateGEP(builder_.getInt8Ty(), generic, shared->second);
            // Offsets are multiples of 16 bytes (the glue's layout): four
            // consecutive floats load as one 16-byte vector.
            builder_.CreateAlignmentAssumption(module_.getDataLayout(), data, 16);
        } else if (auto scratch = grid_scratch_.find(&d); scratch != grid_scratch_.end()) {
            data = scratch->second;
        }
        if (!data) {
            auto* constant = llvm::dyn_cast<llvm::ConstantInt>(product(b.extents));
            if (!constant) {
                unsupported(first.location, "a private array whose size is not constant, for NVIDIA GPUs");
                return false;
            }
            uint64_t n = std::max<uint64_t>(constant->getZExtValue(), 1);
            data = entry_alloca(b.memory, first.name, i64(static_cast<int64_t>(n)));
            zero_fill(data, i64(static_cast<int64_t>(n * byte_size(b.memory))));
            b.private_array = true;
        } else {
            for (const ScratchArray& a : grid_launch_->launch->scratch_arrays)
                if (a.decl == &d && a.group_depth > 0)
                    data = builder_.CreateGEP(b.memory, data, builder_.CreateMul(group_instance(a.group_depth), product(b.extents)));
        }
        b.storage = entry_alloca(builder_.getPtrTy(), first.name + ".data");
        builder_.CreateStore(data, b.storage);
        return true;
    }

    // void <symbol>_entry(ptr args): one pointer per parameter.
    void define_entry(const Function& f, llvm::Function& kernel, const std::string& name) {
        auto* type = llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getPtrTy()}, false);
        llvm::Function* entry = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
        builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", entry));
        std::vector<llvm::Value*> args;
        for (size_t k = 0; k < f.params.size(); ++k) {
            llvm::Value* slot = builder_.CreateConstGEP1_64(builder_.getPtrTy(), entry->getArg(0), k);
            llvm::Value* pointer = builder_.CreateLoad(builder_.getPtrTy(), slot);
            const Decl& p = *f.params[k];
            args.push_back(by_pointer(p) ? pointer
                                         : builder_.CreateLoad(memory_type(p.forms.front().resolved_type), pointer));
        }
        builder_.CreateCall(&kernel, args);
        builder_.CreateRetVoid();
    }

    void free_heap_scopes(size_t keep) {
        llvm::FunctionCallee free_fn = module_.getOrInsertFunction("free", builder_.getVoidTy(), builder_.getPtrTy());
        for (size_t s = state_->heap_scopes.size(); s-- > keep;)
            for (llvm::Value* p : state_->heap_scopes[s]) builder_.CreateCall(free_fn, {p});
    }

    // --- values in registers and in memory ----------------------------------------------

    // Booleans are i1 in registers and one byte in memory.
    llvm::Value* to_memory(llvm::Value* v, Primitive p) {
        if (p != Primitive::Bool) return v;
        llvm::Type* byte = v->getType()->isVectorTy() ? vector_of(builder_.getInt8Ty()) : builder_.getInt8Ty();
        return builder_.CreateZExt(v, byte);
    }
    llvm::Value* from_memory(llvm::Value* v, Primitive p) {
        if (p != Primitive::Bool) return v;
        return builder_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    }

    llvm::Value* lane_numbers(llvm::Type* element) {
        std::vector<llvm::Constant*> lanes;
        for (int k = 0; k < width_; ++k) lanes.push_back(llvm::ConstantInt::get(element, static_cast<uint64_t>(k)));
        return llvm::ConstantVector::get(lanes);
    }

    // A value as one value per lane.
    llvm::Value* widen(const Val& v) {
        if (v.shape == Shape::Varying) return v.v;
        llvm::Value* splat = builder_.CreateVectorSplat(static_cast<unsigned>(width_), v.v);
        if (v.shape == Shape::Linear) return builder_.CreateAdd(splat, lane_numbers(v.v->getType()));
        return splat;
    }
    Val varying(const Val& v) { return Val{widen(v), Shape::Varying, v.type}; }

    llvm::Value* any_lane(llvm::Value* mask) {
        return mask->getType()->isVectorTy() ? builder_.CreateOrReduce(mask) : mask;
    }
    // The active lanes and `m` (null: all lanes).
    llvm::Value* and_mask(llvm::Value* m) {
        if (!mask_) return m;
        return builder_.CreateAnd(mask_, m);
    }

    // --- bindings ---------------------------------------------------------------------------

    // The extents of a declared array type; with checks a negative one
    // faults and counts as 0.
    std::vector<llvm::Value*> extents_of(const TypeExpr& type) {
        std::vector<llvm::Value*> out;
        for (const auto& group : type.dimensions)
            for (const auto& extent : group) {
                llvm::Value* n = builder_.CreateSExt(uniform_int(*extent), builder_.getInt64Ty());
                if (options_.checks && !llvm::isa<llvm::ConstantInt>(n)) {
                    llvm::Value* negative = builder_.CreateICmpSLT(n, i64(0));
                    fault_if(negative, kFaultNegativeSize, extent->location);
                    n = builder_.CreateSelect(negative, i64(0), n);
                }
                out.push_back(n);
            }
        return out;
    }

    llvm::Value* product(const std::vector<llvm::Value*>& values, size_t from = 0) {
        llvm::Value* p = i64(1);
        for (size_t k = from; k < values.size(); ++k) p = builder_.CreateMul(p, values[k]);
        return p;
    }

    // A second shape of `of`'s storage: the storage it has now, whatever a
    // later whole-array swap gives `of` (as the interpreter binds views).
    void bind_view(const Binding& of, const BasicDecl& form) {
        Binding view = of;
        view.extents = extents_of(form.type);
        view.element = form.resolved_type.element();
        view.memory = memory_type(form.resolved_type);
        if (of.is_array && of.unit_depth < 0) {
            view.storage = entry_alloca(builder_.getPtrTy(), form.name + ".data");
            builder_.CreateStore(builder_.CreateLoad(builder_.getPtrTy(), of.storage), view.storage);
        }
        state_->env[&form] = view;
    }

    Binding& binding(const BasicDecl* form, SourceLocation at) {
        auto found = state_->env.find(form);
        if (found == state_->env.end()) {
            unsupported(at, fmt::format("'{}' here (it has no storage)", form ? form->name : "?"));
            static Binding none;
            none = Binding{};
            none.memory = builder_.getInt32Ty();
            none.storage = entry_alloca(builder_.getInt32Ty(), "missing");
            return none;
        }
        return found->second;
    }

    // The linear number of the current unit of the first `depth` lock-step dimensions.
    llvm::Value* unit_number(int depth) {
        if (state_->current_unit && static_cast<size_t>(depth) == state_->units.size())
            return builder_.CreateLoad(builder_.getInt64Ty(), state_->current_unit);
        llvm::Value* n = i64(0);
        for (int k = 0; k < depth; ++k) {
            const UnitDimension& d = state_->units[static_cast<size_t>(k)];
            llvm::Value* index = builder_.CreateSExt(builder_.CreateLoad(builder_.getInt32Ty(), d.index), builder_.getInt64Ty());
            n = builder_.CreateAdd(builder_.CreateMul(n, d.count), index);
        }
        return n;
    }

    // The address of a scalar variable (of the current unit's copy).
    llvm::Value* scalar_address(const Binding& b) {
        if (b.unit_depth < 0) return b.storage;
        return builder_.CreateGEP(builder_.getInt8Ty(), b.storage, builder_.CreateMul(unit_number(b.unit_depth), b.unit_stride));
    }
    // The data pointer of an array variable.
    llvm::Value* array_data(const Binding& b) {
        if (b.unit_depth < 0) return builder_.CreateLoad(builder_.getPtrTy(), b.storage);
        return builder_.CreateGEP(b.memory, b.storage, builder_.CreateMul(unit_number(b.unit_depth), b.unit_stride));
    }

    // --- places -----------------------------------------------------------------------------

    Val add_offsets(const Val& a, const Val& b) {
        if (a.shape == Shape::Uniform && b.shape == Shape::Uniform) return {builder_.CreateAdd(a.v, b.v), Shape::Uniform, a.type};
        if ((a.shape == Shape::Linear && b.shape == Shape::Uniform) || (a.shape == Shape::Uniform && b.shape == Shape::Linear))
            return {builder_.CreateAdd(a.v, b.v), Shape::Linear, a.type};
        return {builder_.CreateAdd(widen(a), widen(b)), Shape::Varying, a.type};
    }
    Val scale_offset(const Val& a, llvm::Value* factor) {
        if (a.shape == Shape::Uniform) return {builder_.CreateMul(a.v, factor), Shape::Uniform, a.type};
        return {builder_.CreateMul(widen(a), builder_.CreateVectorSplat(static_cast<unsigned>(width_), factor)),
                Shape::Varying, a.type};
    }
    Val to_i64(const Val& v) {
        llvm::Type* t = v.shape == Shape::Varying ? vector_of(builder_.getInt64Ty()) : builder_.getInt64Ty();
        return {builder_.CreateSExt(v.v, t), v.shape, Primitive::Int};
    }

    // Whether `index` always lies in [0, extent) (IndexRanges.h,
    // LinearBounds.h): a constant extent above its range, the variable
    // `extent_expr` names that it stays below, or a linear proof against
    // `extent_expr`.
    bool proven_in_range(const Expr& index, llvm::Value* extent, const Expr* extent_expr) {
        if (!state_->source) return false;
        auto& analyses = range_analyses_[state_->source];
        if (!analyses) analyses = std::make_unique<RangeAnalyses>(*state_->source);
        std::optional<IntRange> r = analyses->ranges.range(index);
        if (!r || r->lo < 0) return false;
        if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(extent)) return r->hi < constant->getSExtValue();
        if (!extent_expr) return false;
        const mcpl::Decl* bound = IndexRanges::plain_variable(*extent_expr);
        if (bound && r->below == bound) return true;
        const mcpl::Decl* variable = IndexRanges::plain_variable(index);
        if (bound && variable &&
            std::find(facts_below_.begin(), facts_below_.end(), std::make_pair(variable, bound)) != facts_below_.end())
            return true;
        return analyses->bounds.stays_below(index, *extent_expr, facts_below_);
    }

    // An int index as a 64-bit offset. With `widen_sums`, in GPU code (one
    // thread's scalars) whose int arithmetic is nsw (no checks), a sum or
    // difference is widened operand by operand: sext(a + b) is sext(a) +
    // sext(b) where a + b does not overflow, and in that form LLVM's strength
    // reduction steps a pointer through `a[i + y, j + x]` in a loop over x,
    // as it does for clang's C; from the sign extension of each sum it kept
    // an add, a multiply and an add in every iteration (perfect convolution
    // at hopper). CPU code keeps the sum: its loops are measured against
    // the cpp backend (bench/llvm), not re-measured with this form.
    Val index_offset(const Expr& index, bool widen_sums) {
        const bool widens = widen_sums && options_.grid && width_ == 0 && !options_.checks &&
                            index.kind == Expr::Kind::Binary &&
                            (index.op == "+" || index.op == "-") && index.type.primitive == Primitive::Int &&
                            !index.type.is_array();
        if (!widens) return to_i64(value_as(index, Primitive::Int));
        Val a = index_offset(*index.args[0], true);
        Val b = index_offset(*index.args[1], true);
        llvm::Value* r = index.op == "+" ? builder_.CreateNSWAdd(a.v, b.v) : builder_.CreateNSWSub(a.v, b.v);
        return {r, Shape::Uniform, Primitive::Int};
    }

    // An index, checked against its extent when asked and not proven inside.
    Val checked_index(const Expr& index, llvm::Value* extent, const Expr* extent_expr, Place& place,
                      bool widen_sums) {
        Val i = index_offset(index, widen_sums);
        if (!options_.checks || proven_in_range(index, extent, extent_expr)) return i;
        if (i.shape == Shape::Uniform) {
            llvm::Value* bad = builder_.CreateICmpUGE(i.v, extent);
            fault_if(bad, kFaultIndex, index.location);
            return {builder_.CreateSelect(bad, i64(0), i.v), Shape::Uniform, Primitive::Int};
        }
        llvm::Value* lanes = builder_.CreateICmpUGE(widen(i), builder_.CreateVectorSplat(static_cast<unsigned>(width_), extent));
        llvm::Value* bad = any_lane(and_mask(lanes));
        fault_if(bad, kFaultIndex, index.location);
        llvm::Value* ok = builder_.CreateNot(bad);
        place.in_range = place.in_range ? builder_.CreateAnd(place.in_range, ok) : ok;
        return i;
    }

    // Applies one part's indices to `place` (row-major over all groups);
    // `declared`, when given, is the type as written whose extents `place`
    // has.
    void apply_indices(Place& place, const VarPart& part, llvm::Value* base, const mcpl::TypeExpr* declared = nullptr) {
        std::vector<const Expr*> indices;
        for (const auto& group : part.indices)
            for (const auto& i : group) indices.push_back(i.get());
        std::vector<const Expr*> extents;
        if (declared)
            for (const auto& group : declared->dimensions)
                for (const auto& extent : group) extents.push_back(extent.get());
        if (extents.size() != place.rest.size()) extents.assign(place.rest.size(), nullptr);
        if (indices.empty()) {
            place.address = base;
            return;
        }
        if (indices.size() > place.rest.size()) {
            unsupported(part.location, fmt::format("more indices than '{}' has dimensions", part.name));
            place.address = base;
            return;
        }
        // An array of constant extents within an int (shared and private
        // arrays, mostly) keeps its index sums in 32 bits, where the
        // multiprocessor addresses shared memory: widened, they took
        // matmul_hopper_v6 from 127 registers to 147.
        int64_t constant_elements = 1;
        bool small = true;
        for (llvm::Value* extent : place.rest) {
            auto* constant = llvm::dyn_cast<llvm::ConstantInt>(extent);
            small = small && constant && !__builtin_mul_overflow(constant_elements, constant->getSExtValue(),
                                                                &constant_elements) &&
                    constant_elements <= INT32_MAX;
        }
        std::optional<Val> offset;
        for (size_t k = 0; k < indices.size(); ++k) {
            Val i = checked_index(*indices[k], place.rest[k], extents[k], place, !small);
            offset = offset ? add_offsets(scale_offset(*offset, place.rest[k]), i) : i;
            if (k + 1 == place.rest.size() && place.shape == Shape::Uniform && i.shape == Shape::Uniform) {
                place.row_column = i.v;
                place.row_extent = place.rest[k];
            }
        }
        std::vector<llvm::Value*> rest(place.rest.begin() + static_cast<long>(indices.size()), place.rest.end());
        if (!rest.empty()) offset = scale_offset(*offset, product(rest));
        place.rest = std::move(rest);
        if (place.shape == Shape::Varying) {
            // a field of per-lane records: one pointer per lane already
            place.address = builder_.CreateGEP(place.memory, base, offset->shape == Shape::Linear ? widen(*offset) : offset->v);
            return;
        }
        place.shape = offset->shape;
        // A vector of offsets gives a vector of pointers; a scalar (the first
        // lane's, when linear) one pointer.
        place.address = builder_.CreateGEP(place.memory, base, offset->v);
    }

    // The place a variable expression (`a[i].f[j]`) names.
    Place place(const Expr& e) {
        Place p;
        const Binding& b = binding(e.form, e.location);
        p.memory = b.memory;
        p.element = b.element;
        p.parallel = !b.private_array && current_access_group_ != nullptr;
        llvm::Value* base;
        if (b.is_array) {
            base = array_data(b);
            p.rest = b.extents;
        } else {
            base = scalar_address(b);
        }
        apply_indices(p, e.var[0], base, b.is_array ? &e.form->type : nullptr);
        for (size_t k = 1; k < e.var.size(); ++k) {
            const VarPart& part = e.var[k];
            const mcpl::RecordType* record = p.element.record;
            size_t field = 0;
            while (record && field < record->fields.size() && record->fields[field]->name() != part.name) ++field;
            if (!record || field == record->fields.size() || !p.rest.empty()) {
                unsupported(part.location, fmt::format("the field '{}' here", part.name));
                return p;
            }
            if (p.shape == Shape::Linear) {
                p.address = builder_.CreateGEP(p.memory, p.address, lane_numbers(builder_.getInt64Ty()));
                p.shape = Shape::Varying;
            }
            llvm::Value* field_address = builder_.CreateStructGEP(p.memory, p.address, static_cast<unsigned>(field));
            const BasicDecl& form = record->fields[field]->forms.front();
            p.element = form.resolved_type.element();
            p.memory = memory_type(form.resolved_type);
            p.rest.clear();
            for (int64_t extent : mcpl::record_field_extents(form)) p.rest.push_back(i64(extent));
            // the records' rows are not rows of this field's elements
            p.row_column = p.row_extent = nullptr;
            apply_indices(p, part, field_address);
        }
        return p;
    }

    // The bytes of the sub-array or element a place names.
    llvm::Value* place_bytes(const Place& p) { return builder_.CreateMul(product(p.rest), i64(static_cast<int64_t>(byte_size(p.memory)))); }

    void mark(llvm::Instruction* access, const Place& p) {
        if (p.parallel && current_access_group_) access->setMetadata(llvm::LLVMContext::MD_access_group, current_access_group_);
    }

    llvm::Value* access_mask(const Place& p) {
        llvm::Value* m = mask_;
        if (p.in_range) {
            llvm::Value* splat = builder_.CreateVectorSplat(static_cast<unsigned>(width_), p.in_range);
            m = m ? builder_.CreateAnd(m, splat) : splat;
        }
        return m;
    }

    Val load(const Place& p, Primitive type) {
        llvm::Align align = alignment(p.memory);
        if (p.shape == Shape::Uniform) {
            llvm::LoadInst* l = builder_.CreateLoad(p.memory, p.address);
            mark(l, p);
            return {from_memory(l, type), Shape::Uniform, type};
        }
        llvm::Type* vt = vector_of(p.memory);
        llvm::Value* m = access_mask(p);
        llvm::Instruction* l;
        if (p.shape == Shape::Linear) {
            if (m) l = builder_.CreateMaskedLoad(vt, p.address, align, m, llvm::Constant::getNullValue(vt));
            else l = builder_.CreateAlignedLoad(vt, p.address, align);
        } else {
            llvm::Value* all = m ? m : llvm::ConstantInt::getTrue(vector_of(builder_.getInt1Ty()));
            l = builder_.CreateMaskedGather(vt, p.address, align, all, llvm::Constant::getNullValue(vt));
        }
        mark(l, p);
        return {from_memory(l, type), Shape::Varying, type};
    }

    void store(const Place& p, const Val& v, Primitive type) {
        llvm::Align align = alignment(p.memory);
        if (p.shape == Shape::Uniform && v.shape == Shape::Uniform) {
            mark(builder_.CreateStore(to_memory(v.v, type), p.address), p);
            return;
        }
        llvm::Value* lanes = to_memory(widen(v), type);
        llvm::Value* m = access_mask(p);
        llvm::Instruction* s;
        if (p.shape == Shape::Linear) {
            if (m) s = builder_.CreateMaskedStore(lanes, p.address, align, m);
            else s = builder_.CreateAlignedStore(lanes, p.address, align);
        } else {
            // One element written by several lanes (a race unless one lane is
            // active): a scatter stores the lanes in order, so the last wins.
            llvm::Value* pointers = p.shape == Shape::Varying ? p.address
                                    : builder_.CreateVectorSplat(static_cast<unsigned>(width_), p.address);
            llvm::Value* all = m ? m : llvm::ConstantInt::getTrue(vector_of(builder_.getInt1Ty()));
            s = builder_.CreateMaskedScatter(lanes, pointers, align, all);
        }
        mark(s, p);
    }

    // --- expressions --------------------------------------------------------------------------

    llvm::Value* shaped_constant(llvm::Value* c, Shape s) {
        return s == Shape::Varying ? builder_.CreateVectorSplat(static_cast<unsigned>(width_), c) : c;
    }

    // `v` converted to `to` as a C assignment or cast does.
    Val convert(const Val& v, Primitive to) {
        if (v.type == to) return v;
        if (v.shape == Shape::Linear && !(to == Primitive::Int && v.type == Primitive::Int)) return convert(varying(v), to);
        llvm::Value* x = v.v;
        llvm::Type* target = shaped_type(to, v.shape);
        Primitive from = v.type;
        llvm::Value* out = nullptr;
        if (to == Primitive::Bool) {
            out = is_floating(from) ? builder_.CreateFCmpUNE(x, llvm::Constant::getNullValue(x->getType()))
                                    : builder_.CreateICmpNE(x, llvm::Constant::getNullValue(x->getType()));
        } else if (is_floating(to)) {
            if (is_floating(from)) out = builder_.CreateFPCast(x, target);
            else if (from == Primitive::Int) out = builder_.CreateSIToFP(x, target);
            else out = builder_.CreateUIToFP(x, target);
        } else if (is_floating(from)) {
            // to int or byte (a value out of range is undefined in C; the
            // interpreter reports it)
            llvm::Value* as_int = builder_.CreateFPToSI(x, shaped_type(Primitive::Int, v.shape));
            out = to == Primitive::Int ? as_int : builder_.CreateTrunc(as_int, target);
        } else if (from == Primitive::Int) {
            out = builder_.CreateTrunc(x, target);  // to byte: modulo 256
        } else {
            out = builder_.CreateZExt(x, target);  // byte or bool to int or byte
        }
        return {out, v.shape, to};
    }

    Val value_as(const Expr& e, Primitive to) { return convert(value(e), to); }

    // An int that every unit agrees on (extents and counts).
    llvm::Value* uniform_int(const Expr& e) {
        // constant sizes stay constants, so arrays of them live on the stack
        if (std::optional<int64_t> c = mcpl::checked_constant_int_value(e)) return i32(*c);
        Val v = value_as(e, Primitive::Int);
        if (v.shape != Shape::Uniform) {
            unsupported(e.location, "a size or count that differs between units");
            return i32(0);
        }
        return v.v;
    }

    Val constant_value(const Decl& d, SourceLocation at) {
        if (!d.init) {
            unsupported(at, fmt::format("the constant '{}' without a value", d.name()));
            return {i32(0), Shape::Uniform, Primitive::Int};
        }
        return value_as(*d.init, primitive_of(d.forms.back().resolved_type));
    }

    Val variable(const Expr& e) {
        if (e.hardware) return {i32(e.hardware->value), Shape::Uniform, Primitive::Int};
        // a `const int` with a constant value is that value, wherever it is
        // declared: divisions by it need no checks, loops over it have a
        // known trip count, and no storage is read
        if (e.decl && e.decl->is_const && !e.form->resolved_type.is_array() &&
            primitive_of(e.form->resolved_type) == Primitive::Int)
            if (std::optional<int64_t> c = mcpl::checked_constant_int_value(e)) return {i32(*c), Shape::Uniform, Primitive::Int};
        if (!state_->env.count(e.form) && e.decl && e.decl->is_const && !e.form->resolved_type.is_array())
            return constant_value(*e.decl, e.location);
        const Binding& b = binding(e.form, e.location);
        if (b.shape != Shape::Uniform || (width_ && lane_variables_.count(e.form))) {
            // a variable of the vector body
            Primitive own = primitive_of(e.form->resolved_type);
            llvm::Value* v = builder_.CreateLoad(shaped_type(own, b.shape == Shape::Linear ? Shape::Uniform : b.shape), b.storage);
            return {v, b.shape, own};
        }
        Place p = place(e);
        if (row_tiles_ && p.shape == Shape::Varying && p.row_column && !p.memory->isStructTy()) {
            RowAccess access{p.address, p.memory, p.row_column, p.row_extent, access_mask(p), row_tiles_->rows_fixed(e)};
            return {from_memory(row_tiles_->load(builder_, access), primitive_of(p.element)), Shape::Varying, primitive_of(p.element)};
        }
        return load(p, primitive_of(p.element));
    }

    Val unary_op(const Expr& e) {
        Val a = value(*e.args[0]);
        if (e.op == "!") {
            Val b = convert(a, Primitive::Bool);
            return {builder_.CreateNot(b.v), b.shape, Primitive::Bool};
        }
        if (a.shape == Shape::Linear) a = varying(a);
        if (a.type == Primitive::Byte || a.type == Primitive::Bool) a = convert(a, Primitive::Int);
        llvm::Value* v = is_floating(a.type) ? builder_.CreateFNeg(a.v) : builder_.CreateNeg(a.v);
        return {v, a.shape, a.type};
    }

    // Two operands in one shape: both scalar, or both vectors.
    static bool same_shape(const Val& a, const Val& b) {
        return (a.shape == Shape::Varying) == (b.shape == Shape::Varying) && a.shape != Shape::Linear && b.shape != Shape::Linear;
    }
    void unify(Val& a, Val& b) {
        if (same_shape(a, b)) return;
        a = varying(a);
        b = varying(b);
    }

    // Integer division and remainder: a zero divisor, or INT_MIN / -1, is a
    // fault when checking; lanes that are not active divide by one.
    llvm::Value* safe_divisor(llvm::Value* a, llvm::Value* b, SourceLocation at) {
        if (options_.checks) {
            llvm::Value* zero = builder_.CreateICmpEQ(b, llvm::Constant::getNullValue(b->getType()));
            llvm::Value* overflow = builder_.CreateAnd(
                builder_.CreateICmpEQ(a, shaped_constant(i32(INT32_MIN), a->getType()->isVectorTy() ? Shape::Varying : Shape::Uniform)),
                builder_.CreateICmpEQ(b, llvm::Constant::getAllOnesValue(b->getType())));
            bool lanes = b->getType()->isVectorTy();
            fault_if(lanes ? any_lane(and_mask(zero)) : zero, kFaultDivisionByZero, at);
            fault_if(lanes ? any_lane(and_mask(overflow)) : overflow, kFaultDivisionOverflow, at);
            llvm::Value* bad = builder_.CreateOr(zero, overflow);
            b = builder_.CreateSelect(bad, llvm::ConstantInt::get(b->getType(), 1), b);
        }
        if (b->getType()->isVectorTy() && mask_)
            b = builder_.CreateSelect(mask_, b, llvm::ConstantInt::get(b->getType(), 1));
        return b;
    }

    Val arithmetic(const std::string& op, Val a, Val b, SourceLocation at) {
        Primitive type = common_type(a.type, b.type);
        a = convert(a, type);
        b = convert(b, type);
        // Signed overflow is undefined in MCPL as in C (the interpreter
        // reports it): without checks, int arithmetic is nsw, so that LLVM
        // widens index arithmetic (`vals[e + 1]`) to 64 bits as C compilers
        // do; with checks it wraps, so that a program that overflows still
        // cannot reach memory that a check did not see.
        const bool nsw = !options_.checks;
        if (type == Primitive::Int) {
            if (op == "+" && ((a.shape == Shape::Linear && b.shape == Shape::Uniform) || (a.shape == Shape::Uniform && b.shape == Shape::Linear)))
                return {builder_.CreateAdd(a.v, b.v, "", false, nsw), Shape::Linear, type};
            if (op == "-" && a.shape == Shape::Linear && b.shape == Shape::Uniform)
                return {builder_.CreateSub(a.v, b.v, "", false, nsw), Shape::Linear, type};
        }
        unify(a, b);
        Shape shape = a.shape;
        llvm::Value *x = a.v, *y = b.v, *r = nullptr;
        if (mcpl::is_comparison(op)) {
            if (is_floating(type)) {
                llvm::CmpInst::Predicate p = op == "<"    ? llvm::CmpInst::FCMP_OLT
                                             : op == "<=" ? llvm::CmpInst::FCMP_OLE
                                             : op == ">"  ? llvm::CmpInst::FCMP_OGT
                                             : op == ">=" ? llvm::CmpInst::FCMP_OGE
                                             : op == "==" ? llvm::CmpInst::FCMP_OEQ
                                                          : llvm::CmpInst::FCMP_UNE;
                r = builder_.CreateFCmp(p, x, y);
            } else {
                llvm::CmpInst::Predicate p = op == "<"    ? llvm::CmpInst::ICMP_SLT
                                             : op == "<=" ? llvm::CmpInst::ICMP_SLE
                                             : op == ">"  ? llvm::CmpInst::ICMP_SGT
                                             : op == ">=" ? llvm::CmpInst::ICMP_SGE
                                             : op == "==" ? llvm::CmpInst::ICMP_EQ
                                                          : llvm::CmpInst::ICMP_NE;
                r = builder_.CreateICmp(p, x, y);
            }
            return {r, shape, Primitive::Bool};
        }
        if (is_floating(type)) {
            if (op == "+") r = builder_.CreateFAdd(x, y);
            else if (op == "-") r = builder_.CreateFSub(x, y);
            else if (op == "*") r = builder_.CreateFMul(x, y);
            else if (op == "/") r = builder_.CreateFDiv(x, y);
            else if (op == "%") r = builder_.CreateFRem(x, y);
        } else {
            if (op == "+") r = builder_.CreateAdd(x, y, "", false, nsw);
            else if (op == "-") r = builder_.CreateSub(x, y, "", false, nsw);
            else if (op == "*") r = builder_.CreateMul(x, y, "", false, nsw);
            else if (op == "/") r = builder_.CreateSDiv(x, safe_divisor(x, y, at));
            else if (op == "%") r = builder_.CreateSRem(x, safe_divisor(x, y, at));
            else if (op == "&") r = builder_.CreateAnd(x, y);
            else if (op == "|") r = builder_.CreateOr(x, y);
            else if (op == "<<" || op == ">>") {
                // C leaves shifts outside 0..31 undefined (the interpreter
                // reports them); LLVM's would be poison, so keep them in range.
                llvm::Value* amount = builder_.CreateAnd(y, llvm::ConstantInt::get(y->getType(), 31));
                r = op == "<<" ? builder_.CreateShl(x, amount) : builder_.CreateAShr(x, amount);
            }
        }
        if (!r) {
            unsupported(at, fmt::format("the operator '{}' on {}", op, mcpl::primitive_name(type)));
            r = llvm::Constant::getNullValue(x->getType());
        }
        return {r, shape, type};
    }

    // a && b, a || b: b only where it decides (it may index what a guards).
    Val logical(const Expr& e) {
        bool is_and = e.op == "&&";
        Val a = value_as(*e.args[0], Primitive::Bool);
        llvm::Function* fn = state_->function;
        llvm::BasicBlock* from = builder_.GetInsertBlock();
        llvm::BasicBlock* rhs = llvm::BasicBlock::Create(context_, "rhs", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "logic", fn);
        if (a.shape == Shape::Uniform) {
            if (is_and) builder_.CreateCondBr(a.v, rhs, done);
            else builder_.CreateCondBr(a.v, done, rhs);
            builder_.SetInsertPoint(rhs);
            Val b = value_as(*e.args[1], Primitive::Bool);
            if (b.shape != Shape::Uniform) b = varying(b);
            llvm::BasicBlock* rhs_end = builder_.GetInsertBlock();
            builder_.CreateBr(done);
            builder_.SetInsertPoint(done);
            llvm::PHINode* phi = builder_.CreatePHI(b.v->getType(), 2);
            phi->addIncoming(shaped_constant(builder_.getInt1(!is_and), b.shape), from);
            phi->addIncoming(b.v, rhs_end);
            return {phi, b.shape, Primitive::Bool};
        }
        llvm::Value* lanes = widen(a);
        llvm::Value* deciding = is_and ? lanes : builder_.CreateNot(lanes);
        llvm::Value* rhs_mask = and_mask(deciding);
        builder_.CreateCondBr(any_lane(rhs_mask), rhs, done);
        builder_.SetInsertPoint(rhs);
        llvm::Value* saved = mask_;
        mask_ = rhs_mask;
        Val b = value_as(*e.args[1], Primitive::Bool);
        mask_ = saved;
        llvm::Value* combined = is_and ? builder_.CreateAnd(lanes, widen(b)) : builder_.CreateOr(lanes, widen(b));
        llvm::BasicBlock* rhs_end = builder_.GetInsertBlock();
        builder_.CreateBr(done);
        builder_.SetInsertPoint(done);
        llvm::PHINode* phi = builder_.CreatePHI(lanes->getType(), 2);
        phi->addIncoming(lanes, from);
        phi->addIncoming(combined, rhs_end);
        return {phi, Shape::Varying, Primitive::Bool};
    }

    // a ^ b: exact for integers, pow in the operands' precision otherwise
    // (the interpreter's Value.h power()).
    Val power(const Expr& e) {
        Primitive result = primitive_of(e.type);
        Val a = value(*e.args[0]), b = value(*e.args[1]);
        if ((result == Primitive::Int || result == Primitive::Byte) && !is_floating(a.type) && !is_floating(b.type)) {
            a = convert(a, Primitive::Int);
            b = convert(b, Primitive::Int);
            unify(a, b);
            if (options_.checks) {
                // 0 ^ -k divides by zero (Value.h)
                llvm::Value* zero = llvm::Constant::getNullValue(a.v->getType());
                llvm::Value* bad = builder_.CreateAnd(builder_.CreateICmpEQ(a.v, zero), builder_.CreateICmpSLT(b.v, zero));
                fault_if(bad->getType()->isVectorTy() ? any_lane(and_mask(bad)) : bad, kFaultDivisionByZero, e.location);
            }
            return convert(per_lane_call(integer_power(), {a, b}, Primitive::Int, false), result);
        }
        Primitive type = common_type(a.type, b.type) == Primitive::Double || result == Primitive::Double ? Primitive::Double
                                                                                                         : Primitive::Float;
        a = convert(a, type);
        b = convert(b, type);
        unify(a, b);
        Val r = per_lane_call(math_call(type == Primitive::Double ? "pow" : "powf", 2, register_type(type)), {a, b}, type,
                              false);
        return convert(r, result);
    }

    // int mcl.ipow(int base, int exponent): exact powers (a negative
    // exponent truncates the fraction, as pow followed by a conversion does).
    llvm::Function* integer_power() {
        if (llvm::Function* known = module_.getFunction("mcl.ipow")) return known;
        llvm::Type* i32t = builder_.getInt32Ty();
        auto* fn = llvm::Function::Create(llvm::FunctionType::get(i32t, {i32t, i32t}, false),
                                          llvm::Function::InternalLinkage, "mcl.ipow", module_);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(context_, "entry", fn));
        llvm::Value *base = fn->getArg(0), *exponent = fn->getArg(1);
        llvm::BasicBlock* negative = llvm::BasicBlock::Create(context_, "negative", fn);
        llvm::BasicBlock* loop = llvm::BasicBlock::Create(context_, "loop", fn);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "body", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "done", fn);
        llvm::BasicBlock* entry = b.GetInsertBlock();
        b.CreateCondBr(b.CreateICmpSLT(exponent, b.getInt32(0)), negative, loop);
        b.SetInsertPoint(negative);
        // 1 ^ -k = 1, (-1) ^ -k = +-1, anything else truncates to 0
        llvm::Value* odd = b.CreateICmpNE(b.CreateAnd(exponent, b.getInt32(1)), b.getInt32(0));
        llvm::Value* minus_one = b.CreateSelect(odd, b.getInt32(static_cast<uint32_t>(-1)), b.getInt32(1));
        b.CreateRet(b.CreateSelect(b.CreateICmpEQ(base, b.getInt32(1)), b.getInt32(1),
                                   b.CreateSelect(b.CreateICmpEQ(base, b.getInt32(static_cast<uint32_t>(-1))), minus_one, b.getInt32(0))));
        b.SetInsertPoint(loop);
        llvm::PHINode* k = b.CreatePHI(i32t, 2);
        llvm::PHINode* acc = b.CreatePHI(i32t, 2);
        k->addIncoming(b.getInt32(0), entry);
        acc->addIncoming(b.getInt32(1), entry);
        b.CreateCondBr(b.CreateICmpSLT(k, exponent), body, done);
        b.SetInsertPoint(body);
        llvm::Value* next = b.CreateMul(acc, base);
        k->addIncoming(b.CreateAdd(k, b.getInt32(1)), body);
        acc->addIncoming(next, body);
        b.CreateBr(loop);
        b.SetInsertPoint(done);
        b.CreateRet(acc);
        return fn;
    }

    // The C library's math function `c_name` (libdevice's on a GPU) of
    // `arity` arguments of `type`. Calls of it are marked nobuiltin: LLVM's
    // library-call simplifier would otherwise turn powf(x, 2) into x * x and
    // exp2f(x) into other code, whose last bits differ from the library's
    // (and the interpreter's, which calls the library).
    llvm::FunctionCallee math_call(const std::string& c_name, int arity, llvm::Type* type) {
        std::string name = options_.grid ? "__nv_" + c_name : c_name;
        std::vector<llvm::Type*> params(static_cast<size_t>(arity), type);
        llvm::FunctionCallee fn = module_.getOrInsertFunction(name, llvm::FunctionType::get(type, params, false));
        if (auto* f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) f->addFnAttr(llvm::Attribute::NoBuiltin);
        return fn;
    }

    // `<W x R> <fn>.lanes(<W x A>...)`: the scalar function `fn` applied
    // to every lane in a loop; when `guarded`, `<fn>.active_lanes(<W x i1>
    // mask, <W x A>...)` calls it for the active lanes only (the others'
    // results are zero). One out-of-line copy per function and width
    // instead of W calls at every use keeps vector code small: math calls
    // and inlined user functions in both a vector body and its masked tail
    // were half of some kernels' machine code, and of their compile time;
    // a call costs far more than the loop around it.
    llvm::Function* lane_loop(llvm::FunctionCallee fn, bool guarded) {
        auto* callee = llvm::cast<llvm::Function>(fn.getCallee());
        std::string name = fmt::format("{}.{}{}", callee->getName().str(), guarded ? "active_lanes" : "lanes", width_);
        if (llvm::Function* known = module_.getFunction(name)) return known;
        llvm::FunctionType* scalar = fn.getFunctionType();
        llvm::Type* rt = scalar->getReturnType();
        std::vector<llvm::Type*> params;
        if (guarded) params.push_back(vector_of(builder_.getInt1Ty()));
        for (llvm::Type* t : scalar->params()) params.push_back(vector_of(t));
        llvm::Type* result = rt->isVoidTy() ? rt : vector_of(rt);
        auto* helper = llvm::Function::Create(llvm::FunctionType::get(result, params, false), llvm::Function::InternalLinkage,
                                              name, module_);
        helper->addFnAttr(llvm::Attribute::NoInline);
        llvm::BasicBlock* entry = llvm::BasicBlock::Create(context_, "entry", helper);
        llvm::BasicBlock* loop = llvm::BasicBlock::Create(context_, "lane", helper);
        llvm::BasicBlock* call = guarded ? llvm::BasicBlock::Create(context_, "active", helper) : loop;
        llvm::BasicBlock* next = guarded ? llvm::BasicBlock::Create(context_, "next", helper) : loop;
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "done", helper);
        llvm::IRBuilder<> b(entry);
        b.CreateBr(loop);
        b.SetInsertPoint(loop);
        llvm::PHINode* lane = b.CreatePHI(b.getInt32Ty(), 2);
        llvm::PHINode* out = rt->isVoidTy() ? nullptr : b.CreatePHI(result, 2);
        lane->addIncoming(b.getInt32(0), entry);
        if (out) out->addIncoming(llvm::Constant::getNullValue(result), entry);
        auto arg = helper->arg_begin();
        if (guarded) b.CreateCondBr(b.CreateExtractElement(&*arg++, lane), call, next);
        b.SetInsertPoint(call);
        std::vector<llvm::Value*> values;
        for (; arg != helper->arg_end(); ++arg) values.push_back(b.CreateExtractElement(&*arg, lane));
        llvm::Value* r = b.CreateCall(fn, values);
        llvm::Value* with_r = out ? b.CreateInsertElement(out, r, lane) : nullptr;
        llvm::Value* next_out = with_r;
        if (guarded) {
            b.CreateBr(next);
            b.SetInsertPoint(next);
            if (out) {
                llvm::PHINode* merged = b.CreatePHI(result, 2);
                merged->addIncoming(with_r, call);
                merged->addIncoming(out, loop);
                next_out = merged;
            }
        }
        llvm::Value* next_lane = b.CreateAdd(lane, b.getInt32(1));
        lane->addIncoming(next_lane, next);
        if (out) out->addIncoming(next_out, next);
        set_loop_metadata(b.CreateCondBr(b.CreateICmpSLT(next_lane, b.getInt32(width_)), loop, done), nullptr, false);
        b.SetInsertPoint(done);
        if (out)
            b.CreateRet(next_out);
        else
            b.CreateRetVoid();
        return helper;
    }

    // Calls `fn` once (uniform arguments) or once per lane: per active lane
    // when `guarded` (a user function may fault or loop on an inactive
    // lane's values), else for every lane without a branch.
    Val per_lane_call(llvm::FunctionCallee fn, const std::vector<Val>& args, Primitive result, bool guarded = true) {
        bool uniform = std::all_of(args.begin(), args.end(), [](const Val& a) { return a.shape == Shape::Uniform; });
        if (uniform) {
            std::vector<llvm::Value*> values;
            for (const Val& a : args) values.push_back(a.v);
            return {builder_.CreateCall(fn, values), Shape::Uniform, result};
        }
        std::vector<llvm::Value*> lanes;
        for (const Val& a : args) lanes.push_back(widen(a));
        llvm::Type* rt = fn.getFunctionType()->getReturnType();
        if (guarded) lanes.insert(lanes.begin(), mask_ ? mask_ : llvm::ConstantInt::getTrue(vector_of(builder_.getInt1Ty())));
        llvm::Value* r = builder_.CreateCall(lane_loop(fn, guarded), lanes);
        return {rt->isVoidTy() ? nullptr : r, Shape::Varying, result};
    }

    // --- calls --------------------------------------------------------------------------------

    Val builtin(const Expr& e) {
        const std::string& c = e.callee;
        if (c == "toFloat") return value_as(*e.args[0], Primitive::Float);
        if (c == "toDouble") return value_as(*e.args[0], Primitive::Double);
        if (c == "toInt") return value_as(*e.args[0], Primitive::Int);
        if (c == "min" || c == "max") {
            Primitive t = primitive_of(e.type);
            Val a = value_as(*e.args[0], t), b = value_as(*e.args[1], t);
            unify(a, b);
            // bytes are unsigned: 200 is more than 100 (as i8 it is -56)
            llvm::Value* a_less = is_floating(t)           ? builder_.CreateFCmpOLT(a.v, b.v)
                                  : t == Primitive::Byte ? builder_.CreateICmpULT(a.v, b.v)
                                                         : builder_.CreateICmpSLT(a.v, b.v);
            llvm::Value* r = c == "min" ? builder_.CreateSelect(a_less, a.v, b.v) : builder_.CreateSelect(a_less, b.v, a.v);
            return {r, a.shape, t};
        }
        if (c == "divide_up") {
            Val a = value_as(*e.args[0], Primitive::Int), b = value_as(*e.args[1], Primitive::Int);
            unify(a, b);
            llvm::Value* divisor = b.v;
            if (options_.checks) {
                llvm::Value* bad = builder_.CreateICmpSLE(divisor, llvm::Constant::getNullValue(divisor->getType()));
                fault_if(divisor->getType()->isVectorTy() ? any_lane(and_mask(bad)) : bad, kFaultDivisionByZero, e.location);
                divisor = builder_.CreateSelect(bad, llvm::ConstantInt::get(divisor->getType(), 1), divisor);
            }
            if (divisor->getType()->isVectorTy() && mask_)
                divisor = builder_.CreateSelect(mask_, divisor, llvm::ConstantInt::get(divisor->getType(), 1));
            llvm::Value* zero = llvm::Constant::getNullValue(a.v->getType());
            llvm::Value* q = builder_.CreateSDiv(a.v, divisor);
            llvm::Value* inexact = builder_.CreateICmpNE(builder_.CreateSRem(a.v, divisor), zero);
            llvm::Value* up = builder_.CreateAnd(inexact, builder_.CreateICmpSGT(a.v, zero));
            return {builder_.CreateAdd(q, builder_.CreateZExt(up, a.v->getType())), a.shape, Primitive::Int};
        }
        unsupported(e.location, fmt::format("the builtin '{}'", c));
        return {i32(0), Shape::Uniform, Primitive::Int};
    }

    // `*target += value`, not atomically.
    void plain_add(const Place& target, llvm::Value* value, bool floating) {
        llvm::Value* old = builder_.CreateLoad(target.memory, target.address);
        llvm::Value* sum = floating ? builder_.CreateFAdd(old, value) : builder_.CreateAdd(old, value);
        builder_.CreateStore(sum, target.address);
    }

    // `*target += value` as one indivisible step. A GPU's atomics are
    // undefined on a thread's own (local) memory, where no other thread
    // looks and a plain update is right: a variable of the function is
    // updated plainly, and a device function's parameter, which may be
    // either, is tested for the local window at run time (isspacep.local;
    // optimize answers the test where inlining traced the pointer).
    void atomic_add(const Place& target, llvm::Value* value, bool floating) {
        auto atomic = [&] {
            builder_.CreateAtomicRMW(floating ? llvm::AtomicRMWInst::FAdd : llvm::AtomicRMWInst::Add, target.address,
                                     value, alignment(target.memory), llvm::AtomicOrdering::Monotonic);
        };
        if (!options_.grid) return atomic();
        switch (gpu_storage_of(target.address)) {
        case GpuStorage::Local: return plain_add(target, value, floating);
        case GpuStorage::Elsewhere: return atomic();
        case GpuStorage::Unknown: break;
        }
        llvm::Value* local = builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_isspacep_local, {}, {target.address});
        llvm::BasicBlock* own = llvm::BasicBlock::Create(context_, "own_memory", state_->function);
        llvm::BasicBlock* shared = llvm::BasicBlock::Create(context_, "shared_memory", state_->function);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "updated", state_->function);
        builder_.CreateCondBr(local, own, shared);
        builder_.SetInsertPoint(own);
        plain_add(target, value, floating);
        builder_.CreateBr(done);
        builder_.SetInsertPoint(shared);
        atomic();
        builder_.CreateBr(done);
        builder_.SetInsertPoint(done);
    }

    // A library function with a builtin body: LLVM's exact intrinsics where
    // they exist, else the C library's single-precision function (the ones
    // the interpreter and the cpp backend call).
    Val library_function(const Expr& e) {
        const std::string& c = e.callee;
        if (c == "atomicAdd" || c == "atomicAddInt") {
            if (width_) {
                unsupported(e.location, "an atomic update in vector code");
                return {nullptr, Shape::Uniform, Primitive::Void};
            }
            Place target = place(*e.args[0]);
            Primitive t = primitive_of(target.element);
            Val a = value_as(*e.args[1], t);
            if (is_atomic_int_add(e) && private_histograms_.count(e.args[0]->form)) {
                plain_add(target, a.v, false);
                return {nullptr, Shape::Uniform, Primitive::Void};
            }
            atomic_add(target, a.v, is_floating(t));
            return {nullptr, Shape::Uniform, Primitive::Void};
        }
        std::vector<Val> args;
        for (const auto& a : e.args) args.push_back(value_as(*a, Primitive::Float));
        if (args.size() == 2) unify(args[0], args[1]);
        if (args.size() == 3) {
            for (Val& a : args)
                if (std::any_of(args.begin(), args.end(), [](const Val& x) { return x.shape != Shape::Uniform; })) a = varying(a);
        }
        Shape shape = args.empty() ? Shape::Uniform : args[0].shape;
        static const std::map<std::string, llvm::Intrinsic::ID> exact = {
            {"sqrt", llvm::Intrinsic::sqrt},   {"fabs", llvm::Intrinsic::fabs},     {"floor", llvm::Intrinsic::floor},
            {"ceil", llvm::Intrinsic::ceil},   {"fma", llvm::Intrinsic::fma},
        };
        if ((c == "fmin" || c == "fmax") && args.size() == 2) {
            // IEEE 754-2019's minimumNumber and maximumNumber, as the
            // interpreter defines them: a NaN operand gives the other one,
            // -0 is smaller than +0 (of equal operands fmin takes the bits
            // of both or-ed, fmax and-ed)
            llvm::Value *x = args[0].v, *y = args[1].v;
            bool smaller = c == "fmin";
            llvm::Value* x_wins = smaller ? builder_.CreateFCmpOLT(x, y) : builder_.CreateFCmpOGT(x, y);
            llvm::Type* bits_type = builder_.getIntNTy(x->getType()->getScalarSizeInBits());
            if (auto* vector = llvm::dyn_cast<llvm::VectorType>(x->getType()))
                bits_type = llvm::VectorType::get(bits_type, vector->getElementCount());
            llvm::Value* x_bits = builder_.CreateBitCast(x, bits_type);
            llvm::Value* y_bits = builder_.CreateBitCast(y, bits_type);
            llvm::Value* equal = builder_.CreateBitCast(
                smaller ? builder_.CreateOr(x_bits, y_bits) : builder_.CreateAnd(x_bits, y_bits), x->getType());
            llvm::Value* r = builder_.CreateSelect(x_wins, x, builder_.CreateSelect(builder_.CreateFCmpOEQ(x, y), equal, y));
            r = builder_.CreateSelect(builder_.CreateFCmpUNO(x, x), y, r);
            return {builder_.CreateSelect(builder_.CreateFCmpUNO(y, y), x, r), shape, Primitive::Float};
        }
        if (auto found = exact.find(c); found != exact.end()) {
            std::vector<llvm::Value*> values;
            for (const Val& a : args) values.push_back(a.v);
            return {builder_.CreateIntrinsic(found->second, {values[0]->getType()}, values), shape, Primitive::Float};
        }
        if (c == "rsqrt" && args.size() == 1) {
            llvm::Value* root = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, args[0].v);
            return {builder_.CreateFDiv(llvm::ConstantFP::get(root->getType(), 1.0), root), shape, Primitive::Float};
        }
        // The native_ forms: libdevice's fast versions on a GPU (ex2.approx,
        // lg2.approx, div.approx: nvcc's __expf, __logf, __fdividef); on a
        // CPU the exact functions and the IEEE division.
        if ((c == "native_divide" && args.size() == 2) || (c == "native_recip" && args.size() == 1)) {
            Val dividend = args.size() == 2 ? args[0] : Val{llvm::ConstantFP::get(builder_.getFloatTy(), 1.0), Shape::Uniform, Primitive::Float};
            Val divisor = args.back();
            if (!options_.grid) {
                unify(dividend, divisor);
                return {builder_.CreateFDiv(dividend.v, divisor.v), divisor.shape, Primitive::Float};
            }
            return per_lane_call(math_call("fast_fdividef", 2, builder_.getFloatTy()), {dividend, divisor}, Primitive::Float, false);
        }
        if ((c == "native_exp" || c == "native_log") && args.size() == 1) {
            std::string name = c.substr(std::string("native_").size()) + "f";
            return per_lane_call(math_call(options_.grid ? "fast_" + name : name, 1, builder_.getFloatTy()), args, Primitive::Float, false);
        }
        // The C library's functions, lane by lane in vector code (no lane is
        // guarded: they are pure and defined for every input).
        static const std::set<std::string> libm = {"exp", "exp2", "log", "log2", "sin", "cos", "tan", "tanh", "erf"};
        if (libm.count(c) && args.size() == 1)
            return per_lane_call(math_call(c + "f", 1, builder_.getFloatTy()), args, Primitive::Float, false);
        unsupported(e.location, fmt::format("the library function '{}'", c));
        return {llvm::ConstantFP::get(builder_.getFloatTy(), 0.0), Shape::Uniform, Primitive::Float};
    }

    Val user_call(const Expr& e) {
        const Function& callee = *e.function;
        bool reaches_barrier = callee.body && barriers_.has_barrier(*callee.body, callee);
        // On the CPU such a call runs only in lock-step code, for the units
        // together (lockstep_call); on a GPU every thread calls it.
        if (reaches_barrier && !options_.grid) {
            unsupported(e.location, "a call of a function that contains a barrier");
            return {i32(0), Shape::Uniform, Primitive::Int};
        }
        llvm::Function* fn = declare_function(callee, false);
        // no optimisation may make the call depend on more conditions
        // (bar.sync, as nvvm.barrier0 is, is convergent)
        if (reaches_barrier) fn->addFnAttr(llvm::Attribute::Convergent);
        Primitive result = primitive_of(callee.resolved_return_type);
        std::vector<Val> args;
        for (size_t k = 0; k < callee.params.size(); ++k) {
            const Decl& p = *callee.params[k];
            if (by_pointer(p)) {
                const Expr& arg = *e.args[k];
                if (arg.kind == Expr::Kind::Call && arg.function && arg.function->resolved_return_type.record) {
                    // a record a call returns: passed from a temporary of its own
                    llvm::Value* temporary = entry_alloca(memory_type(arg.function->resolved_return_type), "returned");
                    copy_record(temporary, arg);
                    args.push_back({temporary, Shape::Uniform, Primitive::Int});
                    continue;
                }
                Place target = place(arg);
                if (target.shape != Shape::Uniform) unsupported(e.args[k]->location, "a per-lane place as an argument in vector code");
                args.push_back({target.address, Shape::Uniform, Primitive::Int});
            } else {
                args.push_back(value_as(*e.args[k], primitive_of(p.forms.front().resolved_type)));
            }
        }
        // a kernel called as a function takes its scalars in memory types
        for (size_t k = 0; k < args.size(); ++k)
            if (fn->getFunctionType()->getParamType(static_cast<unsigned>(k))->isIntegerTy(8) && args[k].type == Primitive::Bool)
                args[k].v = to_memory(args[k].v, Primitive::Bool);
        // a fault recorded before the call comes before any in the callee
        report_faults();
        if (fn->arg_size() > callee.params.size()) {
            llvm::Value* depth = state_->depth ? builder_.CreateAdd(state_->depth, i32(1)) : i32(1);
            args.push_back({depth, Shape::Uniform, Primitive::Int});
        }
        if (callee.resolved_return_type.record) {
            std::vector<llvm::Value*> values;
            for (const Val& a : args) values.push_back(a.v);
            return {builder_.CreateCall(fn, values), Shape::Uniform, Primitive::Void};
        }
        if (width_) return per_lane_call(fn, args, result);
        std::vector<llvm::Value*> values;
        for (const Val& a : args) values.push_back(a.v);
        return {builder_.CreateCall(fn, values), Shape::Uniform, result};
    }

    Val value(const Expr& e) {
        switch (e.kind) {
        case Expr::Kind::IntLiteral: return {i32(e.int_value), Shape::Uniform, Primitive::Int};
        case Expr::Kind::FloatLiteral:
            if (e.type.primitive == Primitive::Double)
                return {llvm::ConstantFP::get(builder_.getDoubleTy(), e.float_value), Shape::Uniform, Primitive::Double};
            return {llvm::ConstantFP::get(builder_.getFloatTy(), static_cast<double>(static_cast<float>(e.float_value))),
                    Shape::Uniform, Primitive::Float};
        case Expr::Kind::BoolLiteral: return {builder_.getInt1(e.bool_value), Shape::Uniform, Primitive::Bool};
        case Expr::Kind::Var: return variable(e);
        case Expr::Kind::Call:
            if (auto made = lockstep_call_results_.find(&e); made != lockstep_call_results_.end()) {
                Primitive type = primitive_of(e.function->resolved_return_type);
                return {from_memory(builder_.CreateLoad(made->second.memory, scalar_address(made->second)), type),
                        Shape::Uniform, type};
            }
            if (!e.function) return builtin(e);
            if (e.function->builtin_body) return library_function(e);
            return user_call(e);
        case Expr::Kind::Unary: return unary_op(e);
        case Expr::Kind::Binary: {
            if (e.op == "&&" || e.op == "||") return logical(e);
            if (e.op == "^") return power(e);
            Val a = value(*e.args[0]);
            Val b = value(*e.args[1]);
            // the operands decide the type, as in C (and in the interpreter)
            return arithmetic(e.op, a, b, e.location);
        }
        }
        return {i32(0), Shape::Uniform, Primitive::Int};
    }

    // --- barriers (the interpreter's rules: BarrierScopes.h) --------------------------------------

    bool has_barrier(const Stmt& s) { return barriers_.has_barrier(s, *state_->source); }
    bool is_lockstep(const Stmt& s) { return barriers_.lockstep(s, *state_->source); }

    // --- statements ------------------------------------------------------------------------------

    bool terminated() { return builder_.GetInsertBlock()->getTerminator() != nullptr; }
    // Code after a return goes into a block nothing reaches.
    void continue_unreachable() {
        builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "unreachable", state_->function));
    }

    void block(const Stmt& s) {
        if (s.kind != Stmt::Kind::Block) {
            statements({&s});
            return;
        }
        scoped_statements(mcpl::statements_of(s));
    }

    void scoped_statements(const std::vector<const Stmt*>& list) {
        state_->heap_scopes.emplace_back();
        statements(list);
        if (!terminated()) free_heap_scopes(state_->heap_scopes.size() - 1);
        state_->heap_scopes.pop_back();
    }

    // Under a guard pushed past barriers (GridLaunch::open_statements), the
    // statements between the barriers run in runs under the guard; a split
    // declaration is made before the run that assigns its value.
    void statements(const std::vector<const Stmt*>& list) {
        if (!pushed_guard_) {
            for (const Stmt* s : list) stmt(*s);
            return;
        }
        const GridLaunch& launch = *grid_launch_->launch;
        for_each_guarded_run(
            launch, list,
            [&](const Stmt& s) {
                if (launch.split_statements.count(&s)) declare(*s.decl, false);
                else stmt(s);
            },
            [&](const std::vector<const Stmt*>& run) {
                if (terminated()) continue_unreachable();
                llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "guarded", state_->function);
                llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "guarded.done", state_->function);
                builder_.CreateCondBr(pushed_guard_, body, done);
                builder_.SetInsertPoint(body);
                llvm::Value* guard = std::exchange(pushed_guard_, nullptr);
                auto first = run.begin();
                if (launch.split_statements.count(*first)) {  // a split declaration opens its run
                    const Decl& split = *(*first++)->decl;
                    initialize(split, state_->env[&split.forms.front()]);
                }
                scoped_statements({first, run.end()});
                pushed_guard_ = guard;
                if (!terminated()) builder_.CreateBr(done);
                builder_.SetInsertPoint(done);
            });
    }

    void stmt(const Stmt& s) {
        if (terminated()) continue_unreachable();
        if (const AsyncCopyPlan* async = grid_launch_ ? grid_launch_->async : nullptr) {
            if (async->waits_before.count(&s)) wait_for_async_copies();
            if (auto copy = async->copies.find(&s); copy != async->copies.end()) {
                async_copy(copy->second);
                return;
            }
        }
        switch (s.kind) {
        case Stmt::Kind::Block: block(s); return;
        case Stmt::Kind::Decl: declare(*s.decl); return;
        case Stmt::Kind::Assign: assign(*s.target, s.op, s.value.get(), s.location); return;
        case Stmt::Kind::Step: assign(*s.target, s.op == "++" ? "+=" : "-=", nullptr, s.location); return;
        case Stmt::Kind::Swap: swap(s); return;
        case Stmt::Kind::Call: value(*s.call); return;
        case Stmt::Kind::Return: return_stmt(s); return;
        case Stmt::Kind::If: if_stmt(s); return;
        case Stmt::Kind::For: for_stmt(s); return;
        case Stmt::Kind::Foreach: foreach(s); return;
        case Stmt::Kind::Barrier:
            // on a GPU the units of a block wait for each other; on the CPU,
            // outside lock-step code, nothing runs beside this unit
            if (options_.grid) builder_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
            return;
        case Stmt::Kind::As:
            if (!hoisted_views_.count(&s)) views(s);
            return;
        }
    }

    void return_stmt(const Stmt& s) {
        if (state_->lockstep_return) {  // the last statement of a function lowered into lock-step code
            Primitive type = primitive_of(state_->source->resolved_return_type);
            builder_.CreateStore(to_memory(value_as(*s.value, type).v, type), scalar_address(*state_->lockstep_return));
            return;
        }
        if (state_->foreach_depth > 0 || width_) {
            unsupported(s.location, "a return inside a foreach (a unit cannot leave the whole loop)");
            return;
        }
        llvm::Value* result = nullptr;
        if (s.value) {
            const Type& rt = state_->source->resolved_return_type;
            if (rt.record && s.value->kind == Expr::Kind::Call) result = value(*s.value).v;  // `return make(x);`
            else if (rt.record) result = builder_.CreateLoad(memory_type(rt), place(*s.value).address);
            else result = value_as(*s.value, primitive_of(rt)).v;
        }
        free_heap_scopes(0);
        report_faults();
        if (state_->function->getReturnType()->isVoidTy()) builder_.CreateRetVoid();
        else builder_.CreateRet(result ? result : llvm::Constant::getNullValue(state_->function->getReturnType()));
    }

    void zero_fill(llvm::Value* data, llvm::Value* bytes) {
        builder_.CreateMemSet(data, builder_.getInt8(0), bytes, llvm::MaybeAlign(1));
    }

    // New storage of `elements` elements of `memory`, zeroed: on the stack
    // when small and of constant size, else on the heap until the block ends.
    llvm::Value* allocate(llvm::Type* memory, llvm::Value* elements, const std::string& name, bool* on_heap = nullptr) {
        uint64_t size = byte_size(memory);
        auto* constant = llvm::dyn_cast<llvm::ConstantInt>(elements);
        if (constant && constant->getZExtValue() * size <= kMaxStackBytes) {
            uint64_t n = std::max<uint64_t>(constant->getZExtValue(), 1);
            llvm::Value* data = entry_alloca(memory, name, i64(static_cast<int64_t>(n)));
            zero_fill(data, i64(static_cast<int64_t>(n * size)));
            if (on_heap) *on_heap = false;
            return data;
        }
        llvm::FunctionCallee calloc_fn =
            module_.getOrInsertFunction("calloc", builder_.getPtrTy(), builder_.getInt64Ty(), builder_.getInt64Ty());
        llvm::Value* count = builder_.CreateSelect(builder_.CreateICmpSGT(elements, i64(0)), elements, i64(1));
        llvm::Value* data = builder_.CreateCall(calloc_fn, {count, i64(static_cast<int64_t>(size))}, name);
        if (on_heap) *on_heap = true;
        return data;
    }

    // `with_value` false: the value is assigned later (initialize), under a
    // guard pushed past barriers.
    void declare(const Decl& d, bool with_value = true) {
        const BasicDecl& first = d.forms.front();
        auto existing = state_->env.find(&first);
        if (existing != state_->env.end() && existing->second.unit_depth >= 0 && per_unit_.count(&d)) {
            // storage for every unit was made before the unit loop
            Binding& b = existing->second;
            if (b.is_array) zero_fill(array_data(b), builder_.CreateMul(b.unit_stride, i64(static_cast<int64_t>(byte_size(b.memory)))));
            initialize(d, b);
            return;
        }
        Binding b;
        b.element = first.resolved_type.element();
        b.memory = memory_type(first.resolved_type);
        b.storage_id = next_storage_id_++;
        if (width_ && lane_variables_.count(&first)) {
            b.shape = varying_->shape_of(&d);
            llvm::Type* t = shaped_type(primitive_of(first.resolved_type), b.shape == Shape::Varying ? Shape::Varying : Shape::Uniform);
            b.storage = entry_alloca(t, first.name);
            builder_.CreateStore(llvm::Constant::getNullValue(t), b.storage);
            state_->env[&first] = b;
            if (d.init) assign_lane_variable(b, first, value(*d.init), true);
            return;
        }
        if (first.resolved_type.is_array() && grid_launch_) {
            b.is_array = true;
            b.extents = extents_of(first.type);
            if (!grid_array(d, b)) return;
        } else if (first.resolved_type.is_array()) {
            b.is_array = true;
            b.private_array = true;
            b.extents = extents_of(first.type);
            bool on_heap = false;
            llvm::Value* data = allocate(b.memory, product(b.extents), first.name, &on_heap);
            if (on_heap) state_->heap_scopes.back().push_back(data);
            b.storage = entry_alloca(builder_.getPtrTy(), first.name + ".data");
            builder_.CreateStore(data, b.storage);
        } else {
            b.storage = entry_alloca(b.memory, first.name);
            builder_.CreateStore(llvm::Constant::getNullValue(b.memory), b.storage);
        }
        state_->env[&first] = b;
        for (size_t k = 1; k < d.forms.size(); ++k) bind_view(state_->env[&first], d.forms[k]);
        if (with_value) initialize(d, state_->env[&first]);
    }

    void initialize(const Decl& d, const Binding& b) {
        if (!d.init) return;
        const BasicDecl& last = d.forms.back();
        if (last.resolved_type.record) {
            copy_record(scalar_address(state_->env[&last]), *d.init);
            return;
        }
        Val v = value_as(*d.init, primitive_of(last.resolved_type));
        builder_.CreateStore(to_memory(v.v, v.type), scalar_address(d.forms.size() > 1 ? state_->env[&last] : b));
    }

    // A record assigned from a variable (copied) or a call (its result).
    void copy_record(llvm::Value* to, const Expr& from) {
        llvm::Type* t = memory_type(from.type);
        if (from.kind == Expr::Kind::Var) {
            Place source = place(from);
            builder_.CreateMemCpy(to, alignment(t), source.address, alignment(t), byte_size(t));
        } else {
            builder_.CreateStore(value(from).v, to);
        }
    }

    void assign_lane_variable(const Binding& b, const BasicDecl& form, Val v, bool declaration) {
        Primitive type = primitive_of(form.resolved_type);
        v = convert(v, type);
        if (b.shape == Shape::Varying) {
            llvm::Value* lanes = widen(v);
            if (mask_ && !declaration)
                lanes = builder_.CreateSelect(mask_, lanes, builder_.CreateLoad(lanes->getType(), b.storage));
            builder_.CreateStore(lanes, b.storage);
            return;
        }
        if (v.shape == Shape::Varying) {
            unsupported(form.location, "a per-lane value in a variable every lane shares (internal error)");
            return;
        }
        builder_.CreateStore(v.v, b.storage);  // uniform value, or the base of a linear one
    }

    // target op= value (value null: the step's 1).
    void assign(const Expr& target, const std::string& op, const Expr* value_expr, SourceLocation at) {
        if (width_ && target.var.size() == 1 && target.var[0].indices.empty() && lane_variables_.count(target.form)) {
            const Binding& b = binding(target.form, at);
            Val v = value_expr ? value(*value_expr) : Val{i32(1), Shape::Uniform, Primitive::Int};
            if (op != "=") v = arithmetic(op.substr(0, op.size() - 1), variable(target), v, at);
            assign_lane_variable(b, *target.form, v, false);
            return;
        }
        if (op == "=" && target.type.record && !target.type.is_array()) {
            copy_record(place(target).address, *value_expr);
            return;
        }
        Place p = place(target);
        Primitive type = primitive_of(p.element);
        Val v = value_expr ? value(*value_expr) : Val{i32(1), Shape::Uniform, Primitive::Int};
        if (op != "=") v = arithmetic(op.substr(0, op.size() - 1), load(p, type), v, at);
        store(p, convert(v, type), type);
    }

    void swap(const Stmt& s) {
        const Expr &a = *s.target, &b = *s.value;
        bool whole = a.var.size() == 1 && a.var[0].indices.empty() && b.var.size() == 1 && b.var[0].indices.empty() &&
                     a.form->resolved_type.is_array();
        if (whole) {
            // the two names trade their storage, as pointers would
            Binding &x = binding(a.form, a.location), &y = binding(b.form, b.location);
            if (x.unit_depth >= 0 || y.unit_depth >= 0) {
                unsupported(s.location, "a swap of arrays that exist once per unit in lock-step code");
                return;
            }
            llvm::Value* px = builder_.CreateLoad(builder_.getPtrTy(), x.storage);
            llvm::Value* py = builder_.CreateLoad(builder_.getPtrTy(), y.storage);
            builder_.CreateStore(py, x.storage);
            builder_.CreateStore(px, y.storage);
            return;
        }
        if (width_) {
            unsupported(s.location, "a swap in vector code");
            return;
        }
        Place pa = place(a), pb = place(b);
        llvm::Value* bytes = place_bytes(pa);
        // byte by byte through a register: the two places may be sub-arrays
        llvm::Function* fn = state_->function;
        llvm::BasicBlock* before = builder_.GetInsertBlock();
        llvm::BasicBlock* loop = llvm::BasicBlock::Create(context_, "swap", fn);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "swap.body", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "swap.done", fn);
        builder_.CreateBr(loop);
        builder_.SetInsertPoint(loop);
        llvm::PHINode* k = builder_.CreatePHI(builder_.getInt64Ty(), 2);
        k->addIncoming(i64(0), before);
        builder_.CreateCondBr(builder_.CreateICmpSLT(k, bytes), body, done);
        builder_.SetInsertPoint(body);
        llvm::Value* xa = builder_.CreateGEP(builder_.getInt8Ty(), pa.address, k);
        llvm::Value* xb = builder_.CreateGEP(builder_.getInt8Ty(), pb.address, k);
        llvm::Value* va = builder_.CreateLoad(builder_.getInt8Ty(), xa);
        llvm::Value* vb = builder_.CreateLoad(builder_.getInt8Ty(), xb);
        builder_.CreateStore(vb, xa);
        builder_.CreateStore(va, xb);
        k->addIncoming(builder_.CreateAdd(k, i64(1)), body);
        builder_.CreateBr(loop);
        builder_.SetInsertPoint(done);
    }

    void views(const Stmt& s) {
        Place of = place(*s.target);
        if (of.shape != Shape::Uniform) {
            unsupported(s.location, "a view of a per-lane place");
            return;
        }
        const Binding& source = binding(s.target->form, s.target->location);
        for (const BasicDecl& v : s.views) {
            Binding b;
            b.is_array = v.resolved_type.is_array();
            b.element = v.resolved_type.element();
            b.memory = memory_type(v.resolved_type);
            b.storage_id = source.storage_id;
            b.private_array = source.private_array;
            if (b.is_array) {
                b.storage = entry_alloca(builder_.getPtrTy(), v.name + ".data");
                builder_.CreateStore(of.address, b.storage);
                b.extents = extents_of(v.type);
            } else {
                b.storage = of.address;
            }
            state_->env[&v] = b;
        }
    }

    // --- control flow ------------------------------------------------------------------------------

    // PTX in the IR, as nvcc's pipeline primitives write it: the cp.async
    // intrinsics of LLVM 19 have no instruction for a 32-bit shared address
    // beside a 64-bit global one (the shared pointers here are 32-bit). Each
    // statement touches memory as far as LLVM knows, so no access moves
    // across it.
    void ptx_statement(const std::string& text, const std::string& constraints, llvm::ArrayRef<llvm::Value*> args) {
        std::vector<llvm::Type*> types;
        for (llvm::Value* a : args) types.push_back(a->getType());
        auto* type = llvm::FunctionType::get(builder_.getVoidTy(), types, false);
        builder_.CreateCall(llvm::InlineAsm::get(type, text, constraints + (constraints.empty() ? "" : ",") + "~{memory}", true),
                            args);
    }

    // cp.async.wait_all: the thread's asynchronous copies have landed.
    void wait_for_async_copies() { ptx_statement("cp.async.wait_all;", "", {}); }

    // An element copied from global into shared memory without waiting
    // (AsyncCopies.h); where a zero-filling copy's condition is false, no
    // byte is read (the source is the array's start) and the element is
    // zero: one copy either way, its source size 0 there.
    void async_copy(const AsyncCopy& copy) {
        int64_t bytes = mcpl::element_byte_size(copy.target->type);
        llvm::Value* target = builder_.CreatePtrToInt(
            builder_.CreateAddrSpaceCast(place(*copy.target).address, builder_.getPtrTy(3)), builder_.getInt32Ty());
        auto global = [&](llvm::Value* p) {
            return builder_.CreatePtrToInt(builder_.CreateAddrSpaceCast(p, builder_.getPtrTy(1)), builder_.getInt64Ty());
        };
        std::string instruction = fmt::format("cp.async.ca.shared.global [$0], [$1], {}", bytes);
        if (!copy.condition) {
            ptx_statement(instruction + ";", "r,l", {target, global(place(*copy.source).address)});
            return;
        }
        llvm::Value* in = value_as(*copy.condition, Primitive::Bool).v;
        // The element's address is only arithmetic here (no check faults on
        // the GPU), and the select keeps it only where it is in bounds.
        llvm::Value* element = place(*copy.source).address;
        llvm::Value* start = array_data(binding(copy.source->form, copy.source->location));
        llvm::Value* size = builder_.CreateSelect(in, builder_.getInt32(static_cast<uint32_t>(bytes)), builder_.getInt32(0));
        ptx_statement(instruction + ", $2;", "r,l,r", {target, global(builder_.CreateSelect(in, element, start)), size});
    }

    void if_stmt(const Stmt& s) {
        Val c = value_as(*s.condition, Primitive::Bool);
        llvm::Function* fn = state_->function;
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "endif", fn);
        // inside the then branch, what the condition says about indices
        // (for this unit, or for the lanes the branch runs under)
        auto facts = IndexRanges::facts_below(*s.condition);
        size_t known_facts = facts_below_.size();
        auto then_branch = [&] {
            facts_below_.insert(facts_below_.end(), facts.begin(), facts.end());
            block(*s.then_branch);
            facts_below_.resize(known_facts);
        };
        if (c.shape == Shape::Uniform) {
            llvm::BasicBlock* then_block = llvm::BasicBlock::Create(context_, "then", fn);
            llvm::BasicBlock* else_block = s.else_branch ? llvm::BasicBlock::Create(context_, "else", fn) : done;
            builder_.CreateCondBr(c.v, then_block, else_block);
            builder_.SetInsertPoint(then_block);
            then_branch();
            if (!terminated()) builder_.CreateBr(done);
            if (s.else_branch) {
                builder_.SetInsertPoint(else_block);
                block(*s.else_branch);
                if (!terminated()) builder_.CreateBr(done);
            }
            builder_.SetInsertPoint(done);
            return;
        }
        // lanes disagree: each branch under its mask, skipped when no lane
        // takes it; where every lane was active, a branch that every lane
        // takes runs unmasked (a guard such as `if (j < m)` fails only in
        // the last vector)
        llvm::Value* lanes = widen(c);
        llvm::Value* saved = mask_;
        auto masked_branch = [&](llvm::Value* branch_mask, const Stmt& body, bool is_then) {
            if (is_then) facts_below_.insert(facts_below_.end(), facts.begin(), facts.end());
            llvm::BasicBlock* run = llvm::BasicBlock::Create(context_, "lanes", fn);
            llvm::BasicBlock* next = llvm::BasicBlock::Create(context_, "lanes.next", fn);
            if (!saved) {
                llvm::BasicBlock* all = llvm::BasicBlock::Create(context_, "lanes.all", fn);
                llvm::BasicBlock* some = llvm::BasicBlock::Create(context_, "lanes.some", fn);
                builder_.CreateCondBr(builder_.CreateAndReduce(branch_mask), all, some);
                builder_.SetInsertPoint(all);
                block(body);
                builder_.CreateBr(next);
                builder_.SetInsertPoint(some);
            }
            builder_.CreateCondBr(any_lane(branch_mask), run, next);
            builder_.SetInsertPoint(run);
            mask_ = branch_mask;
            block(body);
            mask_ = saved;
            facts_below_.resize(known_facts);
            builder_.CreateBr(next);
            builder_.SetInsertPoint(next);
        };
        llvm::Value* else_mask = s.else_branch ? and_mask(builder_.CreateNot(lanes)) : nullptr;
        masked_branch(and_mask(lanes), *s.then_branch, true);
        if (s.else_branch) masked_branch(else_mask, *s.else_branch, false);
        builder_.CreateBr(done);
        builder_.SetInsertPoint(done);
    }

    // Attaches loop metadata to a loop's latch branch: its parallel
    // accesses; no unrolling or vectorization unless `transform`, complete
    // unrolling when `unroll_fully`, and no runtime unrolling (with its
    // remainder loop) when compiling quickly.
    void set_loop_metadata(llvm::BranchInst* latch, llvm::MDNode* parallel_group, bool transform = true,
                           bool unroll_fully = false) {
        llvm::SmallVector<llvm::Metadata*, 4> items;
        items.push_back(nullptr);  // the loop's own identity, replaced below
        if (parallel_group)
            items.push_back(llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.parallel_accesses"), parallel_group}));
        if (unroll_fully)
            items.push_back(llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.full")}));
        if (options_.quick_compile && transform)
            items.push_back(llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.runtime.disable")}));
        if (!transform) {
            items.push_back(llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.disable")}));
            items.push_back(llvm::MDNode::get(
                context_, {llvm::MDString::get(context_, "llvm.loop.vectorize.enable"), llvm::ConstantAsMetadata::get(builder_.getFalse())}));
        }
        llvm::MDNode* loop = llvm::MDNode::getDistinct(context_, items);
        loop->replaceOperandWith(0, loop);
        latch->setMetadata(llvm::LLVMContext::MD_loop, loop);
    }

    void for_stmt(const Stmt& s) {
        llvm::Function* fn = state_->function;
        state_->heap_scopes.emplace_back();
        declare(*s.decl);
        llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "for", fn);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "for.body", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "for.done", fn);
        llvm::Value* saved = mask_;
        llvm::AllocaInst* loop_mask = nullptr;
        if (width_) {
            // the lanes still in the loop (a lane that left stays out)
            loop_mask = entry_alloca(vector_of(builder_.getInt1Ty()), "loop.lanes");
            builder_.CreateStore(mask_ ? mask_ : llvm::ConstantInt::getTrue(vector_of(builder_.getInt1Ty())), loop_mask);
        }
        llvm::BranchInst* enter = builder_.CreateBr(header);
        // vector code reading along the lanes' rows: tiles, emptied on entry
        bool tiles_here = width_ && !row_tiles_ && row_tile_width(width_) && writes_only_scalars(s);
        if (tiles_here) row_tiles_ = std::make_unique<RowTiles>(s, state_->entry, enter, width_, options_.quick_compile);
        builder_.SetInsertPoint(header);
        leave_loop_after_fault(done);
        Val c = value_as(*s.condition, Primitive::Bool);
        if (c.shape == Shape::Uniform) {
            builder_.CreateCondBr(c.v, body, done);
            builder_.SetInsertPoint(body);
        } else {
            llvm::Value* lanes = builder_.CreateAnd(builder_.CreateLoad(loop_mask->getAllocatedType(), loop_mask), widen(c));
            builder_.CreateStore(lanes, loop_mask);
            builder_.CreateCondBr(any_lane(lanes), body, done);
            builder_.SetInsertPoint(body);
            mask_ = lanes;
        }
        block(*s.loop_body);
        if (!terminated()) {
            stmt(*s.step);
            // As the cuda backend does (Backend.h); CPU code keeps LLVM's heuristics.
            set_loop_metadata(builder_.CreateBr(header), nullptr, true, options_.grid && gpu_unrolls_fully(s));
        }
        mask_ = saved;
        if (tiles_here) row_tiles_.reset();
        builder_.SetInsertPoint(done);
        free_heap_scopes(state_->heap_scopes.size() - 1);
        state_->heap_scopes.pop_back();
    }

    // --- foreach -----------------------------------------------------------------------------------

    static bool contains_foreach(const Stmt& body) {
        bool found = false;
        mcpl::for_each_stmt(body, [&](const Stmt& s) { found = found || s.kind == Stmt::Kind::Foreach; });
        return found;
    }

    // How many units a vector holds for an innermost foreach: the
    // description's width where its units run on SIMD lanes, else as many of
    // the body's widest values as the widest vector register holds.
    int vector_width(const Stmt& s) {
        if (const hdl::HardwareModel* model = find_model_(state_->source->hardware))
            if (const hdl::ParGroup* group = model->find_par_group(s.name))
                for (const hdl::DeviceNode* unit : model->execution_units_for(group->unit->name))
                    if (unit->kind == hdl::BlockKind::SimdUnit && group->units.bound == hdl::UnitCount::Bound::Exact &&
                        !group->units.count.unlimited)
                        return static_cast<int>(std::clamp<int64_t>(group->units.count.value, 1, 64));
        int widest = 8;
        mcpl::for_each_stmt(*s.loop_body, [&](const Stmt& inner) {
            mcpl::for_each_own_expr(inner, [&](const Expr& e) {
                std::function<void(const Expr&)> visit = [&](const Expr& x) {
                    if (x.type.primitive == Primitive::Double) widest = std::max(widest, 64);
                    if (x.type.primitive == Primitive::Int || x.type.primitive == Primitive::Float) widest = std::max(widest, 32);
                    for (const auto& a : x.args) visit(*a);
                    for (const VarPart& part : x.var)
                        for (const auto& group : part.indices)
                            for (const auto& i : group) visit(*i);
                };
                visit(e);
            });
        });
        return std::max(1, options_.vector_bits / widest);
    }

    // A foreach's number of units as an i32 that is at least 0.
    llvm::Value* unit_count(const Stmt& s) {
        llvm::Value* n = uniform_int(*s.count);
        return builder_.CreateSelect(builder_.CreateICmpSGT(n, i32(0)), n, i32(0));
    }

    void bind_index(const Stmt& s, Shape shape) {
        Binding b;
        b.memory = builder_.getInt32Ty();
        b.element = s.decl->forms.front().resolved_type;
        b.storage = entry_alloca(builder_.getInt32Ty(), s.decl->name());
        b.shape = shape;
        b.storage_id = next_storage_id_++;
        state_->env[&s.decl->forms.front()] = b;
    }
    llvm::Value* index_storage(const Stmt& s) { return state_->env.at(&s.decl->forms.front()).storage; }

    void foreach(const Stmt& s) {
        if (options_.grid) {
            if (!grid_launch_) unsupported(s.location, "a foreach inside a function called from a kernel, for NVIDIA GPUs");
            else grid_foreach(s);
            return;
        }
        if (width_) {
            unsupported(s.location, "a foreach inside vector code (internal error)");
            return;
        }
        if (is_lockstep(s)) {
            lockstep_foreach(s);
            return;
        }
        bool is_kernel = state_->function->getLinkage() == llvm::Function::ExternalLinkage;
        if (options_.parallel && is_kernel && !in_parallel_ && state_->foreach_depth == 0 && !state_->in_lockstep) {
            parallel_foreach(s);
            return;
        }
        bool innermost = !contains_foreach(*s.loop_body);
        if (innermost && !state_->in_lockstep) {
            VaryingInfo info = analyze_varying(s);
            int w = vector_width(s);
            if (info.vectorizable && w > 1) {
                vector_loop(s, info, w);
                return;
            }
        }
        scalar_loop(s, innermost);
    }

    // for (i = 0; i < count; ++i) body, its accesses marked parallel when innermost.
    void scalar_loop(const Stmt& s, bool innermost) {
        llvm::Value* count = unit_count(s);
        bind_index(s, Shape::Uniform);
        llvm::Value* index = index_storage(s);
        llvm::Function* fn = state_->function;
        builder_.CreateStore(i32(0), index);
        llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "foreach", fn);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "foreach.body", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "foreach.done", fn);
        builder_.CreateBr(header);
        builder_.SetInsertPoint(header);
        builder_.CreateCondBr(builder_.CreateICmpSLT(builder_.CreateLoad(builder_.getInt32Ty(), index), count), body, done);
        builder_.SetInsertPoint(body);
        llvm::MDNode* saved_group = current_access_group_;
        llvm::MDNode* group = innermost ? llvm::MDNode::getDistinct(context_, {}) : nullptr;
        if (innermost) current_access_group_ = group;
        ++state_->foreach_depth;
        block(*s.loop_body);
        --state_->foreach_depth;
        current_access_group_ = saved_group;
        builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(builder_.getInt32Ty(), index), i32(1)), index);
        set_loop_metadata(builder_.CreateBr(header), group);
        builder_.SetInsertPoint(done);
    }

    // The body of `s` for the W units from `base` (an i32) on, of `count`:
    // all W at once when they all exist, else under the mask of those that do.
    void vector_body(const Stmt& s, const VaryingInfo& info, int w, llvm::Value* base, llvm::Value* count) {
        int saved_width = width_;
        const VaryingInfo* saved_info = varying_;
        std::set<const BasicDecl*> saved_lanes = lane_variables_;
        width_ = w;
        varying_ = &info;
        lane_variables_.clear();
        lane_variables_.insert(&s.decl->forms.front());
        for (const auto& [decl, shape] : info.shapes) lane_variables_.insert(&decl->forms.front());
        bind_index(s, Shape::Linear);
        builder_.CreateStore(base, index_storage(s));
        llvm::Function* fn = state_->function;
        llvm::BasicBlock* full = llvm::BasicBlock::Create(context_, "vector.full", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "vector.done", fn);
        // a constant count that is a multiple of W has no tail
        auto* constant_count = llvm::dyn_cast<llvm::ConstantInt>(count);
        bool has_tail = !constant_count || constant_count->getSExtValue() % w != 0;
        llvm::BasicBlock* tail = has_tail ? llvm::BasicBlock::Create(context_, "vector.tail", fn) : nullptr;
        if (has_tail) {
            llvm::Value* end = builder_.CreateAdd(builder_.CreateSExt(base, builder_.getInt64Ty()), i64(w));
            builder_.CreateCondBr(builder_.CreateICmpSLE(end, builder_.CreateSExt(count, builder_.getInt64Ty())), full, tail);
        } else {
            builder_.CreateBr(full);
        }
        ++state_->foreach_depth;
        builder_.SetInsertPoint(full);
        mask_ = nullptr;
        block(*s.loop_body);
        builder_.CreateBr(done);
        if (has_tail) {
            builder_.SetInsertPoint(tail);
            mask_ = builder_.CreateICmpSLT(widen({base, Shape::Linear, Primitive::Int}),
                                           builder_.CreateVectorSplat(static_cast<unsigned>(w), count));
            block(*s.loop_body);
            builder_.CreateBr(done);
        }
        --state_->foreach_depth;
        builder_.SetInsertPoint(done);
        mask_ = nullptr;
        width_ = saved_width;
        varying_ = saved_info;
        lane_variables_ = saved_lanes;
    }

    // for (base = 0; base < count; base += W) vector_body(base)
    void vector_loop(const Stmt& s, const VaryingInfo& info, int w) {
        llvm::Value* count = unit_count(s);
        llvm::Function* fn = state_->function;
        llvm::AllocaInst* base = entry_alloca(builder_.getInt32Ty(), "vector.base");
        builder_.CreateStore(i32(0), base);
        llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "vectors", fn);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "vectors.body", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "vectors.done", fn);
        builder_.CreateBr(header);
        builder_.SetInsertPoint(header);
        builder_.CreateCondBr(builder_.CreateICmpSLT(builder_.CreateLoad(builder_.getInt32Ty(), base), count), body, done);
        builder_.SetInsertPoint(body);
        vector_body(s, info, w, builder_.CreateLoad(builder_.getInt32Ty(), base), count);
        builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(builder_.getInt32Ty(), base), i32(w)), base);
        set_loop_metadata(builder_.CreateBr(header), nullptr);
        builder_.SetInsertPoint(done);
    }

    // --- the thread pool ---------------------------------------------------------------------------

    // What an outlined foreach body takes from the function around it.
    struct Capture {
        enum class Kind { Array, Value, Address };
        const BasicDecl* form = nullptr;
        Kind kind = Kind::Value;
        std::vector<llvm::Value*> values;  // at the call: data pointer and extents, the value, or the address
    };

    // The variables bound here that statements use (in the order of first
    // use), those they may write (targets, swaps, arguments passed by
    // pointer) and those they declare.
    struct VariableUses {
        std::vector<const BasicDecl*> used;
        std::set<const BasicDecl*> written, declared;
    };
    VariableUses variable_uses(const std::vector<const Stmt*>& stmts) {
        VariableUses uses;
        std::set<const BasicDecl*> seen;
        auto note = [&](const Expr& v) {
            if (v.form && state_->env.count(v.form) && seen.insert(v.form).second) uses.used.push_back(v.form);
        };
        for (const Stmt* top : stmts)
            mcpl::for_each_stmt(*top, [&](const Stmt& s) {
                mcpl::for_each_own_expr(s, [&](const Expr& e) {
                    mcpl::for_each_var(e, note);
                    mcpl::for_each_call(e, [&](const Expr& c) {
                        if (!c.function) return;
                        for (size_t k = 0; k < c.function->params.size() && k < c.args.size(); ++k)
                            if (by_pointer(*c.function->params[k]) && c.args[k]->form) uses.written.insert(c.args[k]->form);
                    });
                });
                if (s.target && s.target->form) uses.written.insert(s.target->form);
                if (s.kind == Stmt::Kind::Swap && s.value && s.value->form) uses.written.insert(s.value->form);
                if (s.decl)
                    for (const BasicDecl& form : s.decl->forms) uses.declared.insert(&form);
            });
        return uses;
    }

    std::vector<Capture> captures_of(const Stmt& body) {
        VariableUses uses = variable_uses({&body});
        const std::vector<const BasicDecl*>& forms = uses.used;
        const std::set<const BasicDecl*>& addressed = uses.written;
        std::vector<Capture> out;
        for (const BasicDecl* form : forms) {
            const Binding& b = state_->env.at(form);
            Capture c;
            c.form = form;
            if (b.is_array) {
                c.kind = Capture::Kind::Array;
                c.values.push_back(array_data(b));
                c.values.insert(c.values.end(), b.extents.begin(), b.extents.end());
            } else if (addressed.count(form) || form->resolved_type.record) {
                c.kind = Capture::Kind::Address;
                c.values.push_back(scalar_address(b));
            } else {
                c.kind = Capture::Kind::Value;
                c.values.push_back(builder_.CreateLoad(b.memory, scalar_address(b)));
            }
            out.push_back(std::move(c));
        }
        return out;
    }

    bool has_swap_or_view(const Function& f) {
        bool found = false;
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            found = found || s.kind == Stmt::Kind::Swap || s.kind == Stmt::Kind::As;
        });
        return found;
    }

    // Histograms: an int array of a small constant size that the parallel
    // body only updates with atomicAddInt. Each range of units then counts
    // into a zeroed copy of its own without atomics and adds the copy's
    // nonzero counts into the array at the end of the range: integer sums
    // are the same in any order (both adds wrap, so also where a partial
    // count would overflow), and the threads stop passing the array's cache
    // lines between them on every update.
    static constexpr uint64_t kMaxPrivateHistogram = 4096;  // elements (16 KiB of stack)

    static bool is_atomic_int_add(const Expr& call) {
        return call.function && call.function->builtin_body && call.callee == "atomicAddInt" && !call.args.empty() &&
               call.args[0]->kind == Expr::Kind::Var && call.args[0]->var.size() == 1;
    }

    // The histograms among `captures` of the pool's `body`, with their
    // number of elements.
    std::map<const BasicDecl*, uint64_t> private_histograms(const Stmt& body, const std::vector<Capture>& captures) {
        std::map<const BasicDecl*, uint64_t> out;
        if (has_swap_or_view(*state_->source)) return out;
        std::map<const BasicDecl*, int> uses, atomic_updates;
        mcpl::for_each_stmt(body, [&](const Stmt& s) {
            mcpl::for_each_own_expr(s, [&](const Expr& e) {
                mcpl::for_each_var(e, [&](const Expr& v) { ++uses[v.form]; });
                mcpl::for_each_call(e, [&](const Expr& c) {
                    if (is_atomic_int_add(c)) ++atomic_updates[c.args[0]->form];
                });
            });
        });
        for (const Capture& c : captures) {
            if (c.kind != Capture::Kind::Array || !atomic_updates.count(c.form) || uses[c.form] != atomic_updates[c.form])
                continue;
            const Binding& b = state_->env.at(c.form);
            if (b.memory != builder_.getInt32Ty() || b.unit_depth >= 0) continue;
            uint64_t elements = 1;
            for (size_t k = 1; k < c.values.size() && elements <= kMaxPrivateHistogram; ++k) {
                auto* extent = llvm::dyn_cast<llvm::ConstantInt>(c.values[k]);
                bool small = extent && !extent->isNegative() && extent->getZExtValue() <= kMaxPrivateHistogram;
                elements = small ? elements * extent->getZExtValue() : kMaxPrivateHistogram + 1;
            }
            if (elements > 0 && elements <= kMaxPrivateHistogram) out[c.form] = elements;
        }
        return out;
    }

    // Adds each nonzero count of `copy` (i32, `elements` of them) into
    // `shared` atomically.
    void add_private_counts(llvm::Value* copy, llvm::Value* shared, uint64_t elements) {
        llvm::Function* fn = state_->function;
        llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "histogram.merge", fn);
        llvm::BasicBlock* add = llvm::BasicBlock::Create(context_, "histogram.add", fn);
        llvm::BasicBlock* next = llvm::BasicBlock::Create(context_, "histogram.next", fn);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "histogram.done", fn);
        llvm::BasicBlock* before = builder_.GetInsertBlock();
        builder_.CreateBr(header);
        builder_.SetInsertPoint(header);
        llvm::PHINode* k = builder_.CreatePHI(builder_.getInt64Ty(), 2, "k");
        k->addIncoming(i64(0), before);
        llvm::Value* count = builder_.CreateLoad(builder_.getInt32Ty(), builder_.CreateGEP(builder_.getInt32Ty(), copy, k));
        builder_.CreateCondBr(builder_.CreateICmpNE(count, i32(0)), add, next);
        builder_.SetInsertPoint(add);
        builder_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, builder_.CreateGEP(builder_.getInt32Ty(), shared, k), count,
                                 llvm::Align(4), llvm::AtomicOrdering::Monotonic);
        builder_.CreateBr(next);
        builder_.SetInsertPoint(next);
        llvm::Value* k_next = builder_.CreateAdd(k, i64(1));
        k->addIncoming(k_next, next);
        builder_.CreateCondBr(builder_.CreateICmpEQ(k_next, i64(static_cast<int64_t>(elements))), done, header);
        builder_.SetInsertPoint(done);
    }

    // The outermost foreach nest of a kernel on the thread pool: its units
    // (vectors of units, when the innermost loop is vector code) are numbered
    // 0..total-1 and handed out in ranges to an outlined function.
    void parallel_foreach(const Stmt& s) {
        std::vector<const Stmt*> nest{&s};
        for (;;) {
            const Stmt* body = nest.back()->loop_body.get();
            if (body->kind == Stmt::Kind::Block && body->body.size() == 1) body = body->body.front().get();
            if (body->kind != Stmt::Kind::Foreach || body->name != s.name || is_lockstep(*body)) break;
            nest.push_back(body);
        }
        const Stmt& inner = *nest.back();
        std::vector<llvm::Value*> counts;  // i32, at least 0
        for (const Stmt* loop : nest) counts.push_back(unit_count(*loop));
        VaryingInfo info;
        int w = 1;
        if (!contains_foreach(*inner.loop_body)) {
            info = analyze_varying(inner);
            w = info.vectorizable ? vector_width(inner) : 1;
        }
        bool vectorize = w > 1;
        std::vector<llvm::Value*> dims;  // i64 work items per loop
        for (size_t k = 0; k < counts.size(); ++k) {
            llvm::Value* c = builder_.CreateSExt(counts[k], builder_.getInt64Ty());
            if (vectorize && k + 1 == counts.size()) c = builder_.CreateSDiv(builder_.CreateAdd(c, i64(w - 1)), i64(w));
            dims.push_back(c);
        }
        llvm::Value* total = product(dims);

        std::vector<Capture> captures = captures_of(*s.loop_body);
        std::set<int> ids;
        bool distinct = !has_swap_or_view(*state_->source);
        for (const Capture& c : captures)
            if (c.kind == Capture::Kind::Array) distinct = distinct && ids.insert(state_->env.at(c.form).storage_id).second;

        // impl(begin, end, counts..., captures...)
        std::vector<llvm::Type*> params{builder_.getInt64Ty(), builder_.getInt64Ty()};
        std::vector<llvm::Value*> args;
        for (llvm::Value* c : counts) {
            params.push_back(builder_.getInt32Ty());
            args.push_back(c);
        }
        for (const Capture& c : captures)
            for (llvm::Value* v : c.values) {
                params.push_back(v->getType());
                args.push_back(v);
            }
        std::string name = fmt::format("{}.foreach{}", state_->function->getName().str(), ++outlined_);
        auto* impl = llvm::Function::Create(llvm::FunctionType::get(builder_.getVoidTy(), params, false),
                                            llvm::Function::InternalLinkage, name + ".units", module_);
        set_attributes(*impl);
        impl->addFnAttr(llvm::Attribute::NoInline);  // keeps its noalias parameters meaningful
        unsigned next = 2 + static_cast<unsigned>(counts.size());
        for (const Capture& c : captures) {
            if (c.kind == Capture::Kind::Array && distinct) impl->addParamAttr(next, llvm::Attribute::NoAlias);
            next += static_cast<unsigned>(c.values.size());
        }

        // body(ctx, begin, end): what mcl_llvm_parallel_for calls
        std::vector<llvm::Type*> fields;
        for (size_t k = 2; k < params.size(); ++k) fields.push_back(params[k]);
        llvm::StructType* context_type = llvm::StructType::get(context_, fields);
        auto* trampoline = llvm::Function::Create(
            llvm::FunctionType::get(builder_.getVoidTy(), {builder_.getPtrTy(), builder_.getInt64Ty(), builder_.getInt64Ty()}, false),
            llvm::Function::InternalLinkage, name, module_);
        set_attributes(*trampoline);
        {
            llvm::IRBuilder<> b(llvm::BasicBlock::Create(context_, "entry", trampoline));
            std::vector<llvm::Value*> unpacked{trampoline->getArg(1), trampoline->getArg(2)};
            for (unsigned k = 0; k < fields.size(); ++k)
                unpacked.push_back(b.CreateLoad(fields[k], b.CreateStructGEP(context_type, trampoline->getArg(0), k)));
            b.CreateCall(impl, unpacked);
            b.CreateRetVoid();
        }

        // the call: the context on the stack, the pool runs the ranges
        llvm::AllocaInst* ctx = entry_alloca(context_type, name + ".context");
        for (unsigned k = 0; k < args.size(); ++k) builder_.CreateStore(args[k], builder_.CreateStructGEP(context_type, ctx, k));
        llvm::FunctionCallee pool = module_.getOrInsertFunction(
            "mcl_llvm_parallel_for", builder_.getVoidTy(), builder_.getPtrTy(), builder_.getPtrTy(), builder_.getInt64Ty());
        builder_.CreateCall(pool, {trampoline, ctx, total});

        define_units(*impl, nest, captures, private_histograms(*s.loop_body, captures), vectorize ? &info : nullptr, w);
    }

    // The outlined function: for each work item of [begin, end), the units'
    // indices from its number, then the innermost body.
    void define_units(llvm::Function& impl, const std::vector<const Stmt*>& nest, const std::vector<Capture>& captures,
                      const std::map<const BasicDecl*, uint64_t>& histograms,
                      const VaryingInfo* info, int w) {
        llvm::IRBuilderBase::InsertPointGuard guard(builder_);
        FunctionState state;
        state.function = &impl;
        state.source = state_->source;
        state.entry = llvm::BasicBlock::Create(context_, "entry", &impl);
        state.heap_scopes.emplace_back();
        FunctionState* outer = state_;
        state_ = &state;
        builder_.SetInsertPoint(state.entry);
        unsigned arg = 2;
        std::vector<llvm::Value*> counts;
        for (size_t k = 0; k < nest.size(); ++k) counts.push_back(impl.getArg(arg++));
        for (const Capture& c : captures) {
            Binding b = outer->env.at(c.form);
            b.unit_depth = -1;
            if (c.kind == Capture::Kind::Array) {
                llvm::Value* data = impl.getArg(arg++);
                b.extents.clear();
                for (size_t e = 1; e < c.values.size(); ++e) b.extents.push_back(impl.getArg(arg++));
                b.storage = entry_alloca(builder_.getPtrTy(), c.form->name + ".data");
                builder_.CreateStore(data, b.storage);
            } else if (c.kind == Capture::Kind::Address) {
                b.storage = impl.getArg(arg++);
            } else {
                b.storage = entry_alloca(b.memory, c.form->name);
                builder_.CreateStore(impl.getArg(arg++), b.storage);
            }
            state.env[c.form] = b;
        }
        struct PrivateCopy {
            const BasicDecl* form;
            llvm::Value* copy;
            llvm::Value* shared;
            uint64_t elements;
        };
        std::vector<PrivateCopy> copies;
        for (const auto& [form, elements] : histograms) {
            Binding& b = state.env.at(form);
            llvm::Value* shared = builder_.CreateLoad(builder_.getPtrTy(), b.storage);
            llvm::AllocaInst* copy = entry_alloca(llvm::ArrayType::get(builder_.getInt32Ty(), elements), form->name + ".counts");
            builder_.CreateMemSet(copy, builder_.getInt8(0), elements * 4, llvm::Align(4));
            builder_.CreateStore(copy, b.storage);
            copies.push_back({form, copy, shared, elements});
            private_histograms_.insert(form);
        }
        bool was_parallel = in_parallel_;
        in_parallel_ = true;

        llvm::BasicBlock* loop = llvm::BasicBlock::Create(context_, "items", &impl);
        llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "item", &impl);
        llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "items.done", &impl);
        llvm::AllocaInst* item = entry_alloca(builder_.getInt64Ty(), "item");
        builder_.CreateStore(impl.getArg(0), item);
        builder_.CreateBr(loop);
        builder_.SetInsertPoint(loop);
        builder_.CreateCondBr(builder_.CreateICmpSLT(builder_.CreateLoad(builder_.getInt64Ty(), item), impl.getArg(1)), body, done);
        builder_.SetInsertPoint(body);
        llvm::Value* rest = builder_.CreateLoad(builder_.getInt64Ty(), item);
        std::vector<llvm::Value*> indices(nest.size());
        for (size_t k = nest.size(); k-- > 0;) {
            llvm::Value* count = builder_.CreateSExt(counts[k], builder_.getInt64Ty());
            if (info && k + 1 == nest.size()) count = builder_.CreateSDiv(builder_.CreateAdd(count, i64(w - 1)), i64(w));
            if (k == 0) {
                indices[k] = rest;
            } else {
                indices[k] = builder_.CreateSRem(rest, count);
                rest = builder_.CreateSDiv(rest, count);
            }
        }
        const Stmt& inner = *nest.back();
        for (size_t k = 0; k + 1 < nest.size(); ++k) {
            bind_index(*nest[k], Shape::Uniform);
            builder_.CreateStore(builder_.CreateTrunc(indices[k], builder_.getInt32Ty()), index_storage(*nest[k]));
        }
        state.foreach_depth = static_cast<int>(nest.size()) - 1;
        llvm::MDNode* group = nullptr;
        if (info) {
            llvm::Value* base = builder_.CreateTrunc(builder_.CreateMul(indices.back(), i64(w)), builder_.getInt32Ty());
            vector_body(inner, *info, w, base, counts.back());
        } else {
            bind_index(inner, Shape::Uniform);
            builder_.CreateStore(builder_.CreateTrunc(indices.back(), builder_.getInt32Ty()), index_storage(inner));
            if (!contains_foreach(*inner.loop_body)) group = llvm::MDNode::getDistinct(context_, {});
            llvm::MDNode* saved_group = current_access_group_;
            current_access_group_ = group;
            ++state.foreach_depth;
            block(*inner.loop_body);
            --state.foreach_depth;
            current_access_group_ = saved_group;
        }
        builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(builder_.getInt64Ty(), item), i64(1)), item);
        set_loop_metadata(builder_.CreateBr(loop), group);
        builder_.SetInsertPoint(done);
        for (const PrivateCopy& c : copies) {
            add_private_counts(c.copy, c.shared, c.elements);
            private_histograms_.erase(c.form);
        }
        report_faults();
        builder_.CreateRetVoid();
        in_parallel_ = was_parallel;
        state_ = outer;
    }

    // --- units in lock-step (work-item loops) ------------------------------------------------------

    // The first unit: what a condition around a barrier is evaluated for
    // (the units agree on it; the interpreter checks that they do).
    void select_first_unit() {
        for (const UnitDimension& d : state_->units) builder_.CreateStore(i32(0), d.index);
    }

    // Runs `body` for every unit of the lock-step dimensions, one after the other.
    void for_every_unit(const std::function<void()>& body) {
        llvm::Function* fn = state_->function;
        std::vector<std::pair<llvm::BasicBlock*, llvm::BasicBlock*>> loops;  // header, done
        for (const UnitDimension& d : state_->units) {
            builder_.CreateStore(i32(0), d.index);
            llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "unit", fn);
            llvm::BasicBlock* inside = llvm::BasicBlock::Create(context_, "unit.body", fn);
            llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "unit.done", fn);
            builder_.CreateBr(header);
            builder_.SetInsertPoint(header);
            llvm::Value* index = builder_.CreateSExt(builder_.CreateLoad(builder_.getInt32Ty(), d.index), builder_.getInt64Ty());
            builder_.CreateCondBr(builder_.CreateICmpSLT(index, d.count), inside, done);
            builder_.SetInsertPoint(inside);
            loops.emplace_back(header, done);
        }
        llvm::AllocaInst* current = entry_alloca(builder_.getInt64Ty(), "unit.number");
        builder_.CreateStore(unit_number(static_cast<int>(state_->units.size())), current);
        llvm::AllocaInst* enclosing = std::exchange(state_->current_unit, current);
        state_->heap_scopes.emplace_back();
        body();
        state_->current_unit = enclosing;
        if (!terminated()) free_heap_scopes(state_->heap_scopes.size() - 1);
        state_->heap_scopes.pop_back();
        for (size_t k = loops.size(); k-- > 0;) {
            if (!terminated()) {
                llvm::Value* index = state_->units[k].index;
                builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(builder_.getInt32Ty(), index), i32(1)), index);
                // A work-item loop runs a whole stretch of a GPU kernel for
                // hundreds of units: unrolling or vectorizing it (with
                // gathers, a remainder and an epilogue) multiplies its code
                // and the compile time of `mclc run` and `verify`, which
                // run GPU levels here to check them, not for speed.
                set_loop_metadata(builder_.CreateBr(loops[k].first), nullptr, false);
            }
            builder_.SetInsertPoint(loops[k].second);
        }
    }

    // A per-unit scalar that the current unit keeps in a local of its own
    // while it runs one stretch. Its accesses then become SSA values when
    // LLVM promotes the local, instead of loads and stores into the units'
    // shared block that LICM, GVN, DSE and loop load elimination must prove
    // independent one by one (64 accumulators made matmul_hopper_v2 the
    // slowest kernel for `mclc run` to compile).
    struct UnitLocal {
        const BasicDecl* form = nullptr;
        Binding shared;  // the binding to the units' block
        bool written = false;
    };

    // Copies the current unit's per-unit scalars that `stretch` uses into
    // locals and binds their names there (those it declares keep their
    // shared storage: `declare` initializes the unit's copy in place).
    std::vector<UnitLocal> localize_unit_scalars(const std::vector<const Stmt*>& stretch) {
        VariableUses uses = variable_uses(stretch);
        std::vector<UnitLocal> locals;
        for (const BasicDecl* form : uses.used) {
            const Binding& b = state_->env.at(form);
            if (b.is_array || b.unit_depth != static_cast<int>(state_->units.size()) || uses.declared.count(form))
                continue;
            UnitLocal local{form, b, uses.written.count(form) > 0};
            Binding own = b;
            own.unit_depth = -1;
            own.unit_stride = nullptr;
            own.storage = entry_alloca(b.memory, form->name + ".unit");
            builder_.CreateStore(builder_.CreateLoad(b.memory, scalar_address(b)), own.storage);
            state_->env[form] = own;
            locals.push_back(std::move(local));
        }
        return locals;
    }

    // Writes the locals back to the unit's copies and rebinds the names to them.
    void unlocalize_unit_scalars(const std::vector<UnitLocal>& locals) {
        for (const UnitLocal& local : locals) {
            const Binding& own = state_->env.at(local.form);
            if (local.written && !terminated())
                builder_.CreateStore(builder_.CreateLoad(own.memory, own.storage), scalar_address(local.shared));
            state_->env[local.form] = local.shared;
        }
    }

    // One copy of each of `decls` per unit of the current lock-step
    // dimensions, made before the units run (array extents as the first
    // unit computes them). The scalars share one block, each unit's copies
    // side by side: one base pointer for all of them keeps the work-item
    // loops' address arithmetic (and LLVM's strength reduction of it) small.
    void allocate_per_unit(const std::vector<const Decl*>& decls, std::vector<llvm::Value*>& heap) {
        if (decls.empty()) return;
        select_first_unit();
        std::vector<llvm::Value*> counts;
        for (const UnitDimension& u : state_->units) counts.push_back(u.count);
        llvm::Value* units = product(counts);
        std::vector<std::pair<const Decl*, uint64_t>> scalars;  // and their offsets in a unit's copies
        uint64_t unit_bytes = 0;
        for (const Decl* d : decls) {
            const BasicDecl& first = d->forms.front();
            Binding b;
            b.element = first.resolved_type.element();
            b.memory = memory_type(first.resolved_type);
            b.is_array = first.resolved_type.is_array();
            b.private_array = true;
            b.storage_id = next_storage_id_++;
            b.unit_depth = static_cast<int>(state_->units.size());
            if (b.is_array) {
                b.extents = extents_of(first.type);
                b.unit_stride = product(b.extents);
                bool on_heap = false;
                b.storage = allocate(b.memory, builder_.CreateMul(units, b.unit_stride), first.name + ".units", &on_heap);
                if (on_heap) heap.push_back(b.storage);
            } else {
                unit_bytes = llvm::alignTo(unit_bytes, alignment(b.memory));
                scalars.emplace_back(d, unit_bytes);
                unit_bytes += byte_size(b.memory);
            }
            state_->env[&first] = b;
            per_unit_.insert(d);
        }
        if (!scalars.empty()) {
            // 8-byte words: aligned for every scalar type
            unit_bytes = llvm::alignTo(unit_bytes, 8);
            bool on_heap = false;
            llvm::Value* block = allocate(builder_.getInt64Ty(), builder_.CreateMul(units, i64(static_cast<int64_t>(unit_bytes / 8))),
                                          "scalars.units", &on_heap);
            if (on_heap) heap.push_back(block);
            for (const auto& [d, offset] : scalars) {
                Binding& b = state_->env[&d->forms.front()];
                b.storage = builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), block, offset, d->name() + ".units");
                b.unit_stride = i64(static_cast<int64_t>(unit_bytes));
            }
        }
        for (const Decl* d : decls)
            for (size_t k = 1; k < d->forms.size(); ++k) bind_view(state_->env[&d->forms.front()], d->forms[k]);
    }

    // The views of an `as` statement that later stretches of lock-step code
    // see, bound before the units run. Bound inside the loop over units, as
    // views() binds them, their extents would not dominate those stretches,
    // and a view of a per-unit array would hold the last unit's copy;
    // bind_view keeps it per unit. The extents are parameters and constants
    // (sema), the same for every unit.
    void hoist_views(const Stmt& s) {
        const Binding of = binding(s.target->form, s.target->location);
        for (const BasicDecl& view : s.views) bind_view(of, view);
        hoisted_views_.insert(&s);
    }

    // Statements of units in lock-step: each stretch without a barrier runs
    // for every unit before any unit goes on.
    // Per-unit storage on the heap is freed at the end of the statement list
    // that declared it (the only way out of lock-step code: it has no return).
    void free_all(const std::vector<llvm::Value*>& heap) {
        llvm::FunctionCallee free_fn = module_.getOrInsertFunction("free", builder_.getVoidTy(), builder_.getPtrTy());
        if (!terminated())
            for (llvm::Value* p : heap) builder_.CreateCall(free_fn, {p});
    }

    void lockstep_statements(const std::vector<const Stmt*>& list) {
        std::vector<llvm::Value*> heap;
        size_t k = 0;
        while (k < list.size()) {
            if (terminated()) continue_unreachable();
            if (has_barrier(*list[k])) {
                // `float s = f(...)` of a function with a barrier: later stretches see s
                if (list[k]->kind == Stmt::Kind::Decl) allocate_per_unit({list[k]->decl.get()}, heap);
                lockstep_statement(*list[k]);
                ++k;
                continue;
            }
            size_t end = k;
            while (end < list.size() && !has_barrier(*list[end])) ++end;
            if (end < list.size()) {  // declarations that later stretches see
                std::vector<const Decl*> seen_later;
                for (size_t j = k; j < end; ++j)
                    if (list[j]->kind == Stmt::Kind::Decl) seen_later.push_back(list[j]->decl.get());
                allocate_per_unit(seen_later, heap);
                for (size_t j = k; j < end; ++j)
                    if (list[j]->kind == Stmt::Kind::As) hoist_views(*list[j]);
            }
            std::vector<const Stmt*> stretch(list.begin() + static_cast<std::ptrdiff_t>(k),
                                             list.begin() + static_cast<std::ptrdiff_t>(end));
            for_every_unit([&] {
                std::vector<UnitLocal> locals = localize_unit_scalars(stretch);
                for (const Stmt* t : stretch) stmt(*t);
                unlocalize_unit_scalars(locals);
            });
            k = end;
        }
        free_all(heap);
    }

    void lockstep_statement(const Stmt& s) {
        llvm::Function* fn = state_->function;
        switch (s.kind) {
        case Stmt::Kind::Barrier: return;  // the end of a stretch
        case Stmt::Kind::Block: lockstep_statements(statements_of(s)); return;
        case Stmt::Kind::If: {
            lockstep_calls_in(*s.condition);
            select_first_unit();
            Val c = value_as(*s.condition, Primitive::Bool);
            forget_lockstep_calls();
            llvm::BasicBlock* then_block = llvm::BasicBlock::Create(context_, "units.then", fn);
            llvm::BasicBlock* else_block = llvm::BasicBlock::Create(context_, "units.else", fn);
            llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "units.endif", fn);
            builder_.CreateCondBr(c.v, then_block, else_block);
            builder_.SetInsertPoint(then_block);
            lockstep_statements(statements_of(*s.then_branch));
            builder_.CreateBr(done);
            builder_.SetInsertPoint(else_block);
            if (s.else_branch) lockstep_statements(statements_of(*s.else_branch));
            builder_.CreateBr(done);
            builder_.SetInsertPoint(done);
            return;
        }
        case Stmt::Kind::For: {
            std::vector<llvm::Value*> heap;
            allocate_per_unit({s.decl.get()}, heap);
            if (s.decl->init) lockstep_calls_in(*s.decl->init);
            for_every_unit([&] { declare(*s.decl); });
            forget_lockstep_calls();
            llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "units.for", fn);
            llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "units.for.body", fn);
            llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "units.for.done", fn);
            builder_.CreateBr(header);
            builder_.SetInsertPoint(header);
            leave_loop_after_fault(done);
            lockstep_calls_in(*s.condition);
            select_first_unit();
            llvm::Value* again = value_as(*s.condition, Primitive::Bool).v;
            forget_lockstep_calls();
            builder_.CreateCondBr(again, body, done);
            builder_.SetInsertPoint(body);
            lockstep_statements(statements_of(*s.loop_body));
            if (has_barrier(*s.step)) lockstep_statement(*s.step);
            else for_every_unit([&] { stmt(*s.step); });
            builder_.CreateBr(header);
            builder_.SetInsertPoint(done);
            free_all(heap);
            return;
        }
        case Stmt::Kind::Foreach: {
            lockstep_calls_in(*s.count);
            select_first_unit();
            llvm::Value* count = builder_.CreateSExt(unit_count(s), builder_.getInt64Ty());
            forget_lockstep_calls();
            bind_index(s, Shape::Uniform);
            state_->units.push_back({count, index_storage(s)});
            // no units: nothing runs (and there is no first unit to decide
            // the conditions around barriers)
            std::vector<llvm::Value*> counts;
            for (const UnitDimension& u : state_->units) counts.push_back(u.count);
            llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "units", fn);
            llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "units.done", fn);
            builder_.CreateCondBr(builder_.CreateICmpSGT(product(counts), i64(0)), body, done);
            builder_.SetInsertPoint(body);
            ++state_->foreach_depth;
            lockstep_statements(statements_of(*s.loop_body));
            --state_->foreach_depth;
            state_->units.pop_back();
            if (!terminated()) builder_.CreateBr(done);
            builder_.SetInsertPoint(done);
            return;
        }
        default:
            // A statement that calls functions with a barrier (`float s = 2.0
            // * smooth(t, i) + 1.0;`): the units make those calls together,
            // then each runs the statement with its own values.
            mcpl::for_each_own_expr(s, [&](const Expr& e) { lockstep_calls_in(e); });
            if (s.kind != Stmt::Kind::Call || !barriers_.call_reaches_barrier(*s.call))
                for_every_unit([&] { stmt(s); });
            forget_lockstep_calls();
            return;
        }
    }

    // Makes every call in `e` of a function with a barrier for the units
    // together, in evaluation order (a call's arguments first); value()
    // then reads each unit's result.
    void lockstep_calls_in(const Expr& e) {
        barriers_.for_each_barrier_call(
            e, [&](const Expr& c) { lockstep_call(c); },
            [&](const Expr& c, const std::string& op) {
                unsupported(c.location, fmt::format("a call of a function with a barrier in the right operand of "
                                                    "'{}' (the units it decides skip it)",
                                                    op));
            });
    }

    // A call of a function with a barrier in lock-step code: its body is
    // lowered in place for the units together (its barriers end stretches as
    // the caller's do), its scalar parameters a copy per unit, its arrays and
    // written scalars the arguments' storage; each unit's return value is
    // kept until the statement that made the call has run.
    void lockstep_call(const Expr& c) {
        const Function& callee = *c.function;
        std::vector<const Stmt*> body = statements_of(*callee.body);
        int returns = 0;
        mcpl::for_each_stmt(*callee.body, [&](const Stmt& t) { returns += t.kind == Stmt::Kind::Return ? 1 : 0; });
        bool returns_last = !body.empty() && body.back()->kind == Stmt::Kind::Return;
        if (returns > (returns_last ? 1 : 0)) {
            unsupported(c.location, "a call of a function with a barrier that returns before its last statement, in "
                                    "code whose units run in lock-step");
            return;
        }
        if (callee.resolved_return_type.record) {
            unsupported(c.location, "a function with a barrier that returns a record, in code whose units run in "
                                    "lock-step");
            return;
        }
        if (!lockstep_callees_.insert(&callee).second) {
            unsupported(c.location, "a recursive call of a function with a barrier");
            return;
        }
        std::vector<llvm::Value*> heap;
        std::vector<size_t> by_value;
        std::vector<const Decl*> copies;
        for (size_t k = 0; k < callee.params.size(); ++k)
            if (!by_pointer(*callee.params[k])) {
                by_value.push_back(k);
                copies.push_back(callee.params[k].get());
            }
        allocate_per_unit(copies, heap);
        for_every_unit([&] {
            for (size_t k : by_value) {
                const BasicDecl& form = callee.params[k]->forms.front();
                Primitive type = primitive_of(form.resolved_type);
                builder_.CreateStore(to_memory(value_as(*c.args[k], type).v, type), scalar_address(state_->env.at(&form)));
            }
        });
        select_first_unit();  // array extents: parameters and constants, the same for every unit
        for (size_t k = 0; k < callee.params.size(); ++k) {
            const Decl& p = *callee.params[k];
            if (!by_pointer(p)) continue;
            const Expr& arg = *c.args[k];
            if (arg.kind != Expr::Kind::Var || arg.var.size() != 1 || !arg.var.front().indices.empty()) {
                unsupported(arg.location, "an element or a field as the argument of a function with a barrier, in "
                                          "code whose units run in lock-step");
                continue;
            }
            const Binding of = binding(arg.form, arg.location);
            if (p.forms.front().resolved_type.is_array()) bind_view(of, p.forms.front());
            else state_->env[&p.forms.front()] = of;
            for (size_t v = 1; v < p.forms.size(); ++v) bind_view(state_->env.at(&p.forms.front()), p.forms[v]);
        }
        Binding result;
        if (!callee.resolved_return_type.is_void()) {
            std::vector<llvm::Value*> counts;
            for (const UnitDimension& u : state_->units) counts.push_back(u.count);
            result.element = callee.resolved_return_type;
            result.memory = memory_type(callee.resolved_return_type);
            bool on_heap = false;
            result.storage = allocate(result.memory, product(counts), callee.name + ".returned", &on_heap);
            if (on_heap) lockstep_call_heap_.push_back(result.storage);
            result.unit_depth = static_cast<int>(state_->units.size());
            result.unit_stride = i64(static_cast<int64_t>(byte_size(result.memory)));
            result.storage_id = next_storage_id_++;
        }
        const Function* caller = std::exchange(state_->source, &callee);
        const Binding* outer_return = std::exchange(state_->lockstep_return, result.memory ? &result : nullptr);
        lockstep_statements(body);
        state_->lockstep_return = outer_return;
        state_->source = caller;
        lockstep_callees_.erase(&callee);
        free_all(heap);
        if (result.memory) lockstep_call_results_[&c] = result;
    }

    // After the statement that used them: the results of its lock-step calls.
    void forget_lockstep_calls() {
        free_all(lockstep_call_heap_);
        lockstep_call_heap_.clear();
        lockstep_call_results_.clear();
    }

    // A foreach whose units synchronise at a barrier inside it.
    void lockstep_foreach(const Stmt& s) {
        bool was_lockstep = state_->in_lockstep;
        state_->in_lockstep = true;
        lockstep_statement(s);
        state_->in_lockstep = was_lockstep;
    }

    const FindModel& find_model_;
    const LoweringOptions& options_;
    llvm::Module& module_;
    llvm::LLVMContext& context_;
    llvm::IRBuilder<> builder_;
    LoweredModule& lowered_;
    DiagnosticEngine& diags_;
    size_t errors_at_start_;

    std::map<const Function*, llvm::Function*> functions_;
    std::vector<const Function*> pending_;  // device functions declared, not yet defined
    FunctionState* state_ = nullptr;
    mcpl::BarrierScopes barriers_;
    struct RangeAnalyses {
        explicit RangeAnalyses(const Function& f) : ranges(f), bounds(ranges) {}
        IndexRanges ranges;
        LinearBounds bounds;
    };
    std::map<const Function*, std::unique_ptr<RangeAnalyses>> range_analyses_;  // made when first asked
    std::vector<std::pair<const mcpl::Decl*, const mcpl::Decl*>> facts_below_;  // (x, d): x < d here
    std::set<const Decl*> per_unit_;
    // Calls of functions with a barrier made for the units of lock-step code
    // together: each unit's result, storage to free after the statement, and
    // the functions being lowered in place (a recursive one is refused).
    std::map<const Expr*, Binding> lockstep_call_results_;
    std::vector<llvm::Value*> lockstep_call_heap_;
    std::set<const Function*> lockstep_callees_;
    std::set<const Stmt*> hoisted_views_;  // bound by hoist_views: views() leaves them
    int next_storage_id_ = 1;
    int outlined_ = 0;
    std::set<const BasicDecl*> private_histograms_;  // arrays whose atomic adds go to a copy of the range's own
    bool in_parallel_ = false;
    llvm::MDNode* current_access_group_ = nullptr;
    // NVIDIA device code: the launch being lowered, its slot sizes, scratch
    // arrays and group arrays' offsets
    const GridLaunchLowering* grid_launch_ = nullptr;
    std::vector<llvm::Value*> grid_slot_sizes_[2];
    std::map<const Decl*, llvm::Value*> grid_scratch_;
    std::map<const Decl*, llvm::Value*> grid_shared_;
    llvm::Value* pushed_guard_ = nullptr;  // the guard pushed into the statements lowered (i1), or null
    // vector code
    int width_ = 0;  // 0: scalar code
    llvm::Value* mask_ = nullptr;  // the active lanes; null: all
    const VaryingInfo* varying_ = nullptr;
    std::set<const BasicDecl*> lane_variables_;
    std::unique_ptr<RowTiles> row_tiles_;  // inside a loop of vector code that writes only scalars
};

}  // namespace

bool lower_to_ir(const std::vector<const Function*>& kernels, const FindModel& find_model,
                 const LoweringOptions& options, llvm::Module& module, LoweredModule& lowered, DiagnosticEngine& diags) {
    return Lowering(find_model, options, module, lowered, diags).run(kernels);
}

}  // namespace mcl::backends::llvmir
