// partial_write (tests/backends/kernels): kernels that write an array only
// in part leave the other elements as the caller had them, through the
// copying API and, for the grid backends, the resident API.
#include <vector>

#include "DriverSupport.h"
#include "partial_write.h"

#if __has_include("mcl_opencl.h")
namespace device_runtime = mcl::opencl;
#define MCL_TEST_RESIDENT 1
#elif __has_include("mcl_cuda.h")
namespace device_runtime = mcl::cuda;
#define MCL_TEST_RESIDENT 1
#endif

namespace {

// What each kernel leaves in `out` (which held `before`).
std::vector<float> interior_reference(const std::vector<float>& x, const std::vector<float>& before) {
    std::vector<float> out = before;
    for (size_t i = 1; i + 1 < x.size(); ++i) out[i] = x[i - 1] + x[i] + x[i + 1];
    return out;
}

std::vector<float> shift_reference(const std::vector<float>& x, const std::vector<float>& before) {
    std::vector<float> out = before;
    for (size_t i = 0; i + 1 < x.size(); ++i) out[i] = x[i + 1];
    return out;
}

void compare(mcl::test::Checker& check, const char* what, const std::vector<float>& got,
             const std::vector<float>& want) {
    for (size_t i = 0; i < got.size(); ++i) check.close(what, long(i), got[i], want[i], 1e-5, 1e-5);
}

}  // namespace

int main() {
    mcl::test::Checker check("partial_write");
    mcl::test::Random rng(11);
    for (int n : {1, 2, 3, 1000003}) {
        std::vector<float> x(static_cast<size_t>(n)), before(x.size());
        for (float& v : x) v = rng.uniform(-1, 1);
        for (float& v : before) v = rng.uniform(5, 6);  // unlike anything the kernels write
        std::vector<float> smooth = before, shifted = before;
        partial_write::interior(n, smooth.data(), x.data());
        partial_write::shift(n, shifted.data(), x.data());
        compare(check, "interior", smooth, interior_reference(x, before));
        compare(check, "shift", shifted, shift_reference(x, before));
#ifdef MCL_TEST_RESIDENT
        // Resident arrays keep what the kernel does not write.
        device_runtime::Device& device = partial_write::device();
        device_runtime::DeviceArray<float> x_device(device, x.size(), x.data());
        device_runtime::DeviceArray<float> out_device(device, before.size(), before.data());
        partial_write::resident::interior(n, out_device, x_device);
        std::vector<float> resident_out(before.size());
        out_device.download(resident_out.data());
        compare(check, "resident interior", resident_out, interior_reference(x, before));
#endif
    }
    return check.finish();
}
