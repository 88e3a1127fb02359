// The one translation unit of mclc that defines runtime/mcl_llvm.h's
// functions.
#define MCL_LLVM_RUNTIME_IMPLEMENTATION
#include "runtime/mcl_llvm.h"

#include "backends/llvm/ParallelRuntime.h"

namespace mcl::backends::llvmir {

std::vector<std::pair<std::string, void*>> runtime_symbols() {
    return {
        {"mcl_llvm_parallel_for", reinterpret_cast<void*>(&mcl_llvm_parallel_for)},
        {"mcl_llvm_fault", reinterpret_cast<void*>(&mcl_llvm_fault)},
        {"mcl_llvm_take_fault", reinterpret_cast<void*>(&mcl_llvm_take_fault)},
    };
}

int runtime_thread_count() { return mcl::llvm_runtime::ThreadPool::thread_count(); }

}  // namespace mcl::backends::llvmir
