// The runtime functions that JIT-compiled kernels call, as compiled into
// mclc: the thread pool and the fault record of runtime/mcl_llvm.h, whose
// single implementation this folder's ParallelRuntime.cpp instantiates.
//
// Needs: nothing; the pool starts its threads on the first parallel call.
// Guarantees: runtime_symbols() names every extern "C" function of
//   runtime/mcl_llvm.h with its address in this process, in the form
//   JitSession::create takes, so generated code links to the same pool and
//   fault record that mclc reads.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mcl::backends::llvmir {

std::vector<std::pair<std::string, void*>> runtime_symbols();

// How many threads the pool runs kernels on (MCL_NUM_THREADS, else the
// hardware threads): also how many the engine compiles on.
int runtime_thread_count();

}  // namespace mcl::backends::llvmir
