#include "backends/llvm/CodegenUnits.h"

#include <algorithm>
#include <numeric>
#include <thread>
#include <unordered_map>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace mcl::backends::llvmir {

struct CodegenUnits::Unit {
    std::string bitcode;  // the unit until optimize() reads it into `module`
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
    std::unique_ptr<llvm::TargetMachine> machine;
    std::string error;
};

namespace {

// A unit's module, read from its bitcode into `context`; null, with the
// reason in `error`, when the bitcode does not read.
std::unique_ptr<llvm::Module> read_unit(const std::string& bitcode, llvm::LLVMContext& context, std::string& error) {
    llvm::Expected<std::unique_ptr<llvm::Module>> read =
        llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "unit"), context);
    if (read) return std::move(*read);
    error = "cannot read back a code generation unit: " + llvm::toString(read.takeError());
    return nullptr;
}

// Disjoint sets of function indices, joined along direct calls.
class Components {
public:
    explicit Components(size_t count) : parent_(count) { std::iota(parent_.begin(), parent_.end(), size_t{0}); }

    size_t find(size_t k) {
        while (parent_[k] != k) k = parent_[k] = parent_[parent_[k]];
        return k;
    }
    void join(size_t a, size_t b) { parent_[find(a)] = find(b); }

private:
    std::vector<size_t> parent_;
};

// Which unit each defined function of `module` goes to, numbered from 0;
// empty when the module stays one unit. Functions whose address is taken
// are added to `escaping`.
std::unordered_map<const llvm::Function*, int> assign_units(llvm::Module& module, int max_units,
                                                            std::vector<llvm::Function*>& escaping) {
    if (max_units < 2 || !module.global_empty() || !module.alias_empty() || !module.ifunc_empty()) return {};
    std::vector<llvm::Function*> defined;
    std::unordered_map<const llvm::Function*, size_t> index;
    for (llvm::Function& f : module) {
        if (f.isDeclaration()) continue;
        index[&f] = defined.size();
        defined.push_back(&f);
    }
    Components components(defined.size());
    for (llvm::Function* f : defined) {
        for (const llvm::Use& use : f->uses()) {
            // A use outside an instruction (a constant expression, say) is
            // one this split does not follow: keep the module whole.
            auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
            if (!user) return {};
            auto* call = llvm::dyn_cast<llvm::CallBase>(user);
            if (call && call->isCallee(&use))
                components.join(index[f], index[user->getFunction()]);
            else if (std::find(escaping.begin(), escaping.end(), f) == escaping.end())
                escaping.push_back(f);
        }
    }

    std::unordered_map<size_t, uint64_t> weight;  // instructions per component
    for (size_t k = 0; k < defined.size(); ++k) weight[components.find(k)] += defined[k]->getInstructionCount();
    if (weight.size() < 2) return {};
    std::vector<std::pair<uint64_t, size_t>> heaviest_first;
    for (const auto& [root, instructions] : weight) heaviest_first.emplace_back(instructions, root);
    std::sort(heaviest_first.begin(), heaviest_first.end(), std::greater<>());

    // Largest first into the lightest unit so far.
    size_t units = std::min<size_t>(static_cast<size_t>(max_units), weight.size());
    std::vector<uint64_t> load(units, 0);
    std::unordered_map<size_t, int> unit_of_root;
    for (const auto& [instructions, root] : heaviest_first) {
        auto lightest = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
        load[static_cast<size_t>(lightest)] += instructions;
        unit_of_root[root] = lightest;
    }
    std::unordered_map<const llvm::Function*, int> unit_of;
    for (size_t k = 0; k < defined.size(); ++k) unit_of[defined[k]] = unit_of_root[components.find(k)];
    return unit_of;
}

}  // namespace

CodegenUnits::CodegenUnits(std::vector<std::unique_ptr<Unit>> units) : units_(std::move(units)) {}
CodegenUnits::~CodegenUnits() = default;

std::unique_ptr<CodegenUnits> CodegenUnits::split(std::unique_ptr<llvm::Module> module,
                                                  std::unique_ptr<llvm::LLVMContext> context, int max_units,
                                                  std::string& error) {
    if (!verify_module(*module, error)) return nullptr;
    std::vector<llvm::Function*> escaping;
    std::unordered_map<const llvm::Function*, int> unit_of = assign_units(*module, max_units, escaping);
    std::vector<std::unique_ptr<Unit>> units;
    if (unit_of.empty()) {
        auto whole = std::make_unique<Unit>();
        whole->context = std::move(context);
        whole->module = std::move(module);
        units.push_back(std::move(whole));
        return std::unique_ptr<CodegenUnits>(new CodegenUnits(std::move(units)));
    }
    // Another unit may call a body through its address, so it needs a
    // symbol; hidden keeps it out of the process's dynamic symbols.
    for (llvm::Function* f : escaping) {
        if (!f->hasLocalLinkage()) continue;
        f->setLinkage(llvm::GlobalValue::ExternalLinkage);
        f->setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    int count = 0;
    for (const auto& [f, unit] : unit_of) count = std::max(count, unit + 1);
    for (int k = 0; k < count; ++k) {
        llvm::ValueToValueMapTy copied;
        std::unique_ptr<llvm::Module> part = llvm::CloneModule(*module, copied, [&](const llvm::GlobalValue* value) {
            auto* f = llvm::dyn_cast<llvm::Function>(value);
            return f && unit_of.at(f) == k;
        });
        auto unit = std::make_unique<Unit>();
        llvm::raw_string_ostream bitcode(unit->bitcode);
        llvm::WriteBitcodeToFile(*part, bitcode);
        bitcode.flush();
        units.push_back(std::move(unit));
    }
    module.reset();  // before its context
    return std::unique_ptr<CodegenUnits>(new CodegenUnits(std::move(units)));
}

template <typename Work>
bool CodegenUnits::for_each_unit(Work work, std::string& error) {
    std::vector<std::thread> helpers;
    for (size_t k = 1; k < units_.size(); ++k) helpers.emplace_back([&work, this, k] { work(*units_[k], k); });
    work(*units_.front(), 0);
    for (std::thread& helper : helpers) helper.join();
    for (const auto& unit : units_) {
        if (!unit->error.empty()) {
            error = unit->error;
            return false;
        }
    }
    return true;
}

bool CodegenUnits::optimize(bool fast_math, std::string& error) {
    return for_each_unit(
        [fast_math](Unit& unit, size_t) {
            if (!unit.module) {
                unit.context = std::make_unique<llvm::LLVMContext>();
                unit.module = read_unit(unit.bitcode, *unit.context, unit.error);
                if (!unit.module) return;
                unit.bitcode.clear();
            }
            unit.machine = host_target_machine(unit.error);
            if (unit.machine) llvmir::optimize(*unit.module, *unit.machine, fast_math);
        },
        error);
}

bool CodegenUnits::generate(std::vector<std::string>& objects, std::string& error) {
    objects.assign(units_.size(), std::string());
    return for_each_unit(
        [&objects](Unit& unit, size_t k) {
            if (!unit.module || !unit.machine) {
                unit.error = "code generation unit " + std::to_string(k) + " was not optimized";
                return;
            }
            emit_object(*unit.module, *unit.machine, objects[k], unit.error);
        },
        error);
}

std::string CodegenUnits::ir() const {
    std::string text;
    llvm::raw_string_ostream out(text);
    for (size_t k = 0; k < units_.size(); ++k) {
        if (units_.size() > 1) out << "; code generation unit " << k + 1 << " of " << units_.size() << "\n";
        const Unit& unit = *units_[k];
        if (unit.module) {
            unit.module->print(out, nullptr);
            continue;
        }
        // Not read back yet (before optimize): print it from its bitcode.
        llvm::LLVMContext context;
        std::string error;
        if (std::unique_ptr<llvm::Module> read = read_unit(unit.bitcode, context, error)) read->print(out, nullptr);
        else out << "; " << error << "\n";
    }
    out.flush();
    return text;
}

}  // namespace mcl::backends::llvmir
