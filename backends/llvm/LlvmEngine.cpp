#include "backends/llvm/LlvmEngine.h"

#include <chrono>
#include <cstring>

#include <fmt/format.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/Support/raw_ostream.h>

#include "backends/llvm/CodegenUnits.h"
#include "backends/llvm/LlvmSupport.h"
#include "backends/llvm/LowerToIr.h"
#include "backends/llvm/ParallelRuntime.h"
#include "compiler/ast/ConstantValue.h"
#include "runtime/mcl_llvm.h"

namespace mcl::backends::llvmir {

using mcpl::Primitive;

namespace {

// Where each cell of one element lies in native memory.
struct NativeLayout {
    uint64_t element_bytes = 0;
    std::vector<std::pair<uint64_t, Primitive>> cells;  // byte offset, type; in the interpreter's cell order
    bool written = false;
};

void add_cells(const llvm::DataLayout& layout, llvm::LLVMContext& context, const mcpl::Type& element, uint64_t offset,
               NativeLayout& out) {
    if (!element.record) {
        out.cells.emplace_back(offset, element.primitive.value_or(Primitive::Int));
        return;
    }
    auto* type = llvm::cast<llvm::StructType>(element_type(context, element));
    const llvm::StructLayout* fields = layout.getStructLayout(type);
    for (unsigned k = 0; k < element.record->fields.size(); ++k) {
        const mcpl::BasicDecl& form = element.record->fields[k]->forms.front();
        mcpl::Type field_element = form.resolved_type.element();
        auto count = static_cast<uint64_t>(mcpl::record_field_element_count(form));
        uint64_t size = layout.getTypeAllocSize(element_type(context, field_element)).getFixedValue();
        for (uint64_t i = 0; i < count; ++i)
            add_cells(layout, context, field_element, offset + fields->getElementOffset(k).getFixedValue() + i * size, out);
    }
}

void write_cell(std::byte* at, Primitive type, const interpret::Scalar& v) {
    switch (type) {
    case Primitive::Int: {
        auto x = static_cast<int32_t>(v.poison ? 0 : v.i);
        std::memcpy(at, &x, sizeof x);
        return;
    }
    case Primitive::Float: {
        auto x = static_cast<float>(v.poison ? 0 : v.f);
        std::memcpy(at, &x, sizeof x);
        return;
    }
    case Primitive::Double: {
        double x = v.poison ? 0 : v.f;
        std::memcpy(at, &x, sizeof x);
        return;
    }
    case Primitive::Byte:
    case Primitive::Bool: {
        auto x = static_cast<uint8_t>(v.poison ? 0 : v.i);
        std::memcpy(at, &x, sizeof x);
        return;
    }
    case Primitive::Void: return;
    }
}

interpret::Scalar read_cell(const std::byte* at, Primitive type) {
    switch (type) {
    case Primitive::Int: {
        int32_t x;
        std::memcpy(&x, at, sizeof x);
        return interpret::Scalar::of_int(x);
    }
    case Primitive::Float: {
        float x;
        std::memcpy(&x, at, sizeof x);
        return interpret::Scalar::of_float(x);
    }
    case Primitive::Double: {
        double x;
        std::memcpy(&x, at, sizeof x);
        return interpret::Scalar::of_double(x);
    }
    case Primitive::Byte: {
        uint8_t x;
        std::memcpy(&x, at, sizeof x);
        return interpret::Scalar{Primitive::Byte, x, 0, false};
    }
    case Primitive::Bool: {
        uint8_t x;
        std::memcpy(&x, at, sizeof x);
        return interpret::Scalar::of_bool(x != 0);
    }
    case Primitive::Void: break;
    }
    return interpret::Scalar{};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string fault_message(int32_t code) {
    switch (code) {
    case mcl_llvm_fault_division_by_zero: return "integer division by zero";
    case mcl_llvm_fault_division_overflow: return "signed integer overflow in a division (the smallest int divided by -1)";
    case mcl_llvm_fault_index_out_of_range: return "index outside the array's extent";
    case mcl_llvm_fault_negative_size: return "array size is negative";
    case mcl_llvm_fault_call_depth: return "calls nested deeper than the llvm engine allows (1000)";
    default: return fmt::format("fault {} in generated code", code);
    }
}

}  // namespace

struct CompiledKernel::Impl {
    std::unique_ptr<JitSession> session;
    void (*entry)(void**) = nullptr;
    std::vector<NativeLayout> layouts;
    std::vector<SourceLocation> fault_sites;
};

CompiledKernel::CompiledKernel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledKernel::~CompiledKernel() = default;

std::unique_ptr<CompiledKernel> CompiledKernel::compile(const mcpl::Function& kernel, const hdl::HardwareLibrary& library,
                                                        const EngineOptions& options, DiagnosticEngine& diags,
                                                        std::string& error) {
    auto start = std::chrono::steady_clock::now();
    std::unique_ptr<llvm::TargetMachine> machine = host_target_machine(error);
    if (!machine) return nullptr;
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>(kernel.name, *context);
    prepare_module(*module, *machine);

    LoweringOptions lowering;
    lowering.checks = options.checks;
    lowering.floating_point = options.floating_point;
    lowering.quick_compile = true;
    lowering.vector_bits = widest_vector_bits(*machine);
    LoweredModule lowered;
    FindModel find_model = [&library](const std::string& name) { return library.find(name); };
    if (!lower_to_ir({&kernel}, find_model, lowering, *module, lowered, diags)) return nullptr;
    auto impl = std::make_unique<Impl>();
    impl->fault_sites = lowered.fault_sites;
    const llvm::DataLayout& data_layout = module->getDataLayout();
    for (const auto& p : kernel.params) {
        NativeLayout layout;
        const mcpl::Type& t = p->forms.front().resolved_type;
        layout.element_bytes = data_layout.getTypeAllocSize(element_type(*context, t.element())).getFixedValue();
        add_cells(data_layout, *context, t.element(), 0, layout);
        layout.written = p->is_written;
        impl->layouts.push_back(std::move(layout));
    }
    CompileTimes times;
    times.lower = seconds_since(start);

    start = std::chrono::steady_clock::now();
    std::unique_ptr<CodegenUnits> units =
        CodegenUnits::split(std::move(module), std::move(context), runtime_thread_count(), error);
    if (!units || !units->optimize(options.floating_point.fast_math, error)) return nullptr;
    times.optimize = seconds_since(start);
    std::string ir;
    if (options.keep_ir) ir = units->ir();

    start = std::chrono::steady_clock::now();
    std::vector<std::string> objects;
    if (!units->generate(objects, error)) return nullptr;
    std::string entry_symbol = lowered.kernels.front().entry_symbol;
    impl->session = JitSession::create(objects, runtime_symbols(), error);
    if (!impl->session) return nullptr;
    void* entry = impl->session->lookup(entry_symbol, error);
    if (!entry) return nullptr;
    impl->entry = reinterpret_cast<void (*)(void**)>(entry);
    times.generate = seconds_since(start);

    std::unique_ptr<CompiledKernel> compiled(new CompiledKernel(std::move(impl)));
    compiled->times_ = times;
    compiled->ir_ = std::move(ir);
    return compiled;
}

std::optional<interpret::InterpretError> CompiledKernel::run(const std::vector<interpret::StoragePtr>& storages) const {
    if (storages.size() != impl_->layouts.size())
        return interpret::InterpretError{{}, fmt::format("the kernel takes {} arguments, not {}", impl_->layouts.size(), storages.size())};
    // One buffer per parameter, 16-byte aligned, never empty (a checked
    // access that was out of range reads element 0 instead).
    std::vector<std::vector<std::max_align_t>> buffers(storages.size());
    std::vector<void*> args;
    for (size_t k = 0; k < storages.size(); ++k) {
        const NativeLayout& layout = impl_->layouts[k];
        const auto& cells = storages[k]->cells;
        size_t per_element = std::max<size_t>(layout.cells.size(), 1);
        size_t elements = cells.size() / per_element;
        size_t bytes = std::max<size_t>(elements, 1) * layout.element_bytes;
        buffers[k].assign((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t), std::max_align_t{});
        auto* base = reinterpret_cast<std::byte*>(buffers[k].data());
        for (size_t e = 0; e < elements; ++e)
            for (size_t c = 0; c < layout.cells.size(); ++c)
                write_cell(base + e * layout.element_bytes + layout.cells[c].first, layout.cells[c].second,
                           cells[e * per_element + c]);
        args.push_back(base);
    }
    int32_t code = 0, site = 0;
    mcl_llvm_take_fault(&code, &site);  // none left over from an earlier run
    impl_->entry(args.data());
    if (mcl_llvm_take_fault(&code, &site)) {
        SourceLocation at = site >= 0 && static_cast<size_t>(site) < impl_->fault_sites.size()
                                ? impl_->fault_sites[static_cast<size_t>(site)]
                                : SourceLocation{};
        return interpret::InterpretError{at, fault_message(code) + " (llvm engine)"};
    }
    for (size_t k = 0; k < storages.size(); ++k) {
        const NativeLayout& layout = impl_->layouts[k];
        if (!layout.written) continue;
        auto& cells = storages[k]->cells;
        size_t per_element = std::max<size_t>(layout.cells.size(), 1);
        const auto* base = reinterpret_cast<const std::byte*>(buffers[k].data());
        for (size_t e = 0; e < cells.size() / per_element; ++e)
            for (size_t c = 0; c < layout.cells.size(); ++c)
                cells[e * per_element + c] =
                    read_cell(base + e * layout.element_bytes + layout.cells[c].first, layout.cells[c].second);
    }
    return std::nullopt;
}

}  // namespace mcl::backends::llvmir
