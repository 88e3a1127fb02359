// Errors in generated OpenCL glue reach the caller as mcl::Error carrying the
// backend's text: a device choice that does not exist, a malformed choice,
// a program that fails to build, and an allocation larger than the device
// allows. Also the resident-data API: arrays kept on the device across two
// launches; and the cache of released buffers: reuse by size, copies that
// share a buffer, eviction beyond the limit, and host calls that reuse
// buffers holding an earlier call's data; and the checks of the arrays a
// call is given (check_argument_checks). Built against the glue of
// examples/vectoradd for any OpenCL
// target (run_opencl_errors.sh).
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "DriverSupport.h"
#include "vectoradd.h"

namespace {

// The buffers of released arrays come back for arrays of the same byte size.
void check_buffer_cache(mcl::test::Checker& check) {
    mcl::opencl::Device& device = vectoradd::device();
    const std::shared_ptr<mcl::opencl::BufferCache>& cache = device.buffer_cache();
    cache->clear();
    cl_mem first = nullptr;
    {
        mcl::opencl::DeviceArray<float> x(device, 1000);
        first = x.buffer()();
        mcl::opencl::DeviceArray<float> copy = x;
        {
            mcl::opencl::DeviceArray<float> gone = std::move(x);
        }
        check.exact("held while a copy lives", 0, static_cast<long>(cache->held_bytes()), 0);
    }
    check.exact("held after the last copy", 0, static_cast<long>(cache->held_bytes()), 4000);
    mcl::opencl::DeviceArray<int> other_size(device, 999);
    check.exact("other size reuses", 0, other_size.buffer()() == first, 0);
    mcl::opencl::DeviceArray<int> same_bytes(device, 1000);
    check.exact("same bytes reuse", 0, same_bytes.buffer()() == first, 1);
    check.exact("held after reuse", 0, static_cast<long>(cache->held_bytes()), 0);

    // Beyond the limit, the buffer released longest ago goes.
    mcl::opencl::BufferCache small(100);
    cl::Buffer older(device.context(), CL_MEM_READ_WRITE, 60), newer(device.context(), CL_MEM_READ_WRITE, 60);
    cl_mem newer_handle = newer();
    small.give(older, 60);
    small.give(newer, 60);
    small.give(cl::Buffer(device.context(), CL_MEM_READ_WRITE, 200), 200);
    check.exact("held within the limit", 0, static_cast<long>(small.held_bytes()), 60);
    check.exact("newer kept", 0, small.take(60)() == newer_handle, 1);
    check.exact("none left", 0, small.take(60)() == nullptr, 1);

    // Host calls of several sizes: outputs that come from the cache hold the
    // last call's values until the kernel overwrites them.
    mcl::test::Random random(7);
    for (int call = 0; call < 6; ++call) {
        int n = call % 2 ? 1000 : 1001;
        std::vector<float> x(n), y(n), z(n);
        for (int i = 0; i < n; ++i) x[i] = random.uniform(-1, 1), y[i] = random.uniform(-1, 1);
        vectoradd::vectoradd(n, z.data(), x.data(), y.data());
        for (int i = 0; i < n; ++i) check.close("host call " + std::to_string(call), i, z[i], x[i] + y[i], 0, 0);
    }
    check.exact("cache in use", 0, cache->held_bytes() > 0, 1);

    setenv("MCL_DEVICE_ARRAY_CACHE_MB", "3", 1);
    check.exact("cache setting", 0, static_cast<long>(mcl::device_array_cache_bytes(1)), 3L << 20);
    setenv("MCL_DEVICE_ARRAY_CACHE_MB", "0", 1);
    check.exact("cache off", 0, static_cast<long>(mcl::device_array_cache_bytes(1)), 0);
    setenv("MCL_DEVICE_ARRAY_CACHE_MB", "-1", 1);
    check.exact("malformed cache setting", 0,
                mcl::test::throws_with("MCL_DEVICE_ARRAY_CACHE_MB=-1", [] { mcl::device_array_cache_bytes(1); },
                                       {"MCL_DEVICE_ARRAY_CACHE_MB='-1'"}),
                1);
    unsetenv("MCL_DEVICE_ARRAY_CACHE_MB");

    int index = 0;
    for (const char* malformed : {"", "-1", "+1", " 1", "1 ", "1x", "0x1", "99999999999999999999999"})
        check.exact(std::string("not a whole number: '") + malformed + "'", index++,
                    mcl::whole_number(malformed).has_value(), 0);
    check.exact("whole number", 0, static_cast<long>(mcl::whole_number("0042").value_or(0)), 42);
}

}  // namespace

// The resident API refuses arrays that break the kernel's signature before
// any launch: one OpenCL buffer behind a written array and another, a
// device array shorter than its parameter says, and one of another context.
// Arrays only read may share a buffer. (vectoradd_main checks host arrays
// that share memory.)
void check_argument_checks(mcl::test::Checker& check) {
    std::vector<float> x{1, 2, 3, 4}, y{10, 20, 30, 40};
    mcl::opencl::Device& device = vectoradd::device();
    mcl::opencl::DeviceArray<float> dx(device, 4, x.data()), dy(device, 4, y.data()), dz(device, 4);
    mcl::opencl::DeviceArray<float> short_array(device, 3);
    check.exact("short device array", 7,
                mcl::test::throws_with("c holds 3 of 4", [&] { vectoradd::resident::vectoradd(4, short_array, dx, dy); },
                                       {"the array passed for 'c' holds 3 elements, fewer than the 4"}),
                1);
    mcl::opencl::DeviceArray<float> same_buffer = dx;
    check.exact("device result is an input", 8,
                mcl::test::throws_with("c shares a's buffer", [&] { vectoradd::resident::vectoradd(4, same_buffer, dx, dy); },
                                       {"'c' and 'a' share memory"}),
                1);
    // A buffer of another context (the same OpenCL device set up twice).
    cl::Context other_context(device.device());
    mcl::opencl::Device other(device.device(), other_context, cl::CommandQueue(other_context, device.device()));
    mcl::opencl::DeviceArray<float> elsewhere(other, 4);
    check.exact("device array of another context", 9,
                mcl::test::throws_with("c on another context", [&] { vectoradd::resident::vectoradd(4, elsewhere, dx, dy); },
                                       {"the array passed for 'c' was allocated for another device"}),
                1);
    vectoradd::resident::vectoradd(4, dz, dy, dy);
    std::vector<float> z(4);
    dz.download(z.data());
    for (int i = 0; i < 4; ++i) check.close("device inputs may share memory", i, z[i], 2 * y[i], 0, 0);
}

int main() {
    mcl::test::Checker check("opencl_errors");
    std::vector<float> a{1, 2, 3}, b{10, 20, 30}, c(3);
    auto add = [&] { vectoradd::vectoradd(3, c.data(), a.data(), b.data()); };

    setenv("MCL_OPENCL_DEVICE", "7:0", 1);
    check.exact("no such platform", 0,
                mcl::test::throws_with("MCL_OPENCL_DEVICE=7:0", add,
                                       {"vectoradd::vectoradd (opencl backend)", "there is no OpenCL platform 7"}),
                1);
    setenv("MCL_OPENCL_DEVICE", "0:99", 1);
    check.exact("no such device", 1, mcl::test::throws_with("MCL_OPENCL_DEVICE=0:99", add, {"has no device 99"}), 1);
    setenv("MCL_OPENCL_DEVICE", "first", 1);
    check.exact("malformed choice", 2, mcl::test::throws_with("MCL_OPENCL_DEVICE=first", add, {"PLATFORM:DEVICE"}), 1);
    for (const char* malformed : {"0:", ":0", "0:0:0", "-0:0", "0:1x"}) {
        setenv("MCL_OPENCL_DEVICE", malformed, 1);
        check.exact(std::string("malformed choice ") + malformed, 2,
                    mcl::test::throws_with((std::string("MCL_OPENCL_DEVICE=") + malformed).c_str(), add, {"PLATFORM:DEVICE"}), 1);
    }
    unsetenv("MCL_OPENCL_DEVICE");

    check.exact("failing build", 3,
                mcl::test::throws_with("a failing build",
                            [] { vectoradd::device().program("broken", "__kernel void broken(__global int* x) { x[0] = ; }"); },
                                       {"building OpenCL program 'broken'", "error"}),
                1);
    check.exact("too large", 4,
                mcl::test::throws_with("out of device memory",
                            [] { mcl::opencl::DeviceArray<float> huge(vectoradd::device(), size_t(1) << 42); },
                                       {"allocating", "CL_"}),
                1);

    // The device still works after the failures, and resident arrays keep
    // their values across launches: c = a + b, then c2 = c + b.
    add();
    for (int i = 0; i < 3; ++i) check.close("c", i, c[i], a[i] + b[i], 0, 0);
    mcl::opencl::DeviceArray<float> da(vectoradd::device(), 3, a.data()), db(vectoradd::device(), 3, b.data());
    mcl::opencl::DeviceArray<float> dc(vectoradd::device(), 3), dc2(vectoradd::device(), 3);
    vectoradd::resident::vectoradd(3, dc, da, db);
    vectoradd::resident::vectoradd(3, dc2, dc, db);
    std::vector<float> c2(3);
    dc2.download(c2.data());
    for (int i = 0; i < 3; ++i) check.close("resident c2", i, c2[i], a[i] + 2 * b[i], 0, 0);
    check_buffer_cache(check);
    check_argument_checks(check);
    return check.finish();
}
