// Every backend, one line each. Adding a backend: its folder, its sources in
// backends/CMakeLists.txt, and a line here.
#include "backends/BackendList.h"

#include "backends/cpp/CppBackend.h"
#include "backends/cuda/CudaBackend.h"
#include "backends/hls/HlsBackend.h"
#include "backends/opencl/OpenClBackend.h"
#ifdef MCL_WITH_LLVM
#include "backends/llvm/LlvmBackend.h"
#endif

namespace mcl::backends {

std::vector<std::unique_ptr<Backend>> make_all_backends() {
    std::vector<std::unique_ptr<Backend>> all;
    all.push_back(std::make_unique<CppBackend>());
    all.push_back(std::make_unique<CudaBackend>());
    all.push_back(std::make_unique<HlsBackend>());
    all.push_back(std::make_unique<OpenClBackend>());
#ifdef MCL_WITH_LLVM
    all.push_back(std::make_unique<LlvmBackend>());
#endif
    return all;
}

}  // namespace mcl::backends
