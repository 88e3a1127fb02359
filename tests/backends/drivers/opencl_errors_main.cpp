// Errors in generated OpenCL glue reach the caller as mcl::Error carrying the
// backend's text: a device choice that does not exist, a malformed choice,
// a program that fails to build, and an allocation larger than the device
// allows. Also the resident-data API: arrays kept on the device across two
// launches; and the cache of released buffers: reuse by size, copies that
// share a buffer, eviction beyond the limit, and host calls that reuse
// buffers holding an earlier call's data. Built against the glue of examples/vectoradd for any OpenCL
// target (run_opencl_errors.sh).
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "DriverSupport.h"
#include "vectoradd.h"

namespace {

// Runs `call`; true when it throws an mcl::Error whose text has every part.
template <typename Call>
bool throws_with(const char* what, Call call, std::vector<std::string> parts) {
    try {
        call();
    } catch (const mcl::Error& e) {
        std::string text = e.what();
        for (const std::string& p : parts) {
            if (text.find(p) == std::string::npos) {
                std::printf("%s: the error lacks '%s': %s\n", what, p.c_str(), text.c_str());
                return false;
            }
        }
        std::printf("%s: mcl::Error as expected: %s\n", what, text.substr(0, text.find('\n')).c_str());
        return true;
    }
    std::printf("%s: no mcl::Error was thrown\n", what);
    return false;
}

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
                throws_with("MCL_DEVICE_ARRAY_CACHE_MB=-1", [] { mcl::device_array_cache_bytes(1); },
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

int main() {
    mcl::test::Checker check("opencl_errors");
    std::vector<float> a{1, 2, 3}, b{10, 20, 30}, c(3);
    auto add = [&] { vectoradd::vectoradd(3, c.data(), a.data(), b.data()); };

    setenv("MCL_OPENCL_DEVICE", "7:0", 1);
    check.exact("no such platform", 0,
                throws_with("MCL_OPENCL_DEVICE=7:0", add,
                            {"vectoradd::vectoradd (opencl backend)", "there is no OpenCL platform 7"}),
                1);
    setenv("MCL_OPENCL_DEVICE", "0:99", 1);
    check.exact("no such device", 1, throws_with("MCL_OPENCL_DEVICE=0:99", add, {"has no device 99"}), 1);
    setenv("MCL_OPENCL_DEVICE", "first", 1);
    check.exact("malformed choice", 2, throws_with("MCL_OPENCL_DEVICE=first", add, {"PLATFORM:DEVICE"}), 1);
    for (const char* malformed : {"0:", ":0", "0:0:0", "-0:0", "0:1x"}) {
        setenv("MCL_OPENCL_DEVICE", malformed, 1);
        check.exact(std::string("malformed choice ") + malformed, 2,
                    throws_with((std::string("MCL_OPENCL_DEVICE=") + malformed).c_str(), add, {"PLATFORM:DEVICE"}), 1);
    }
    unsetenv("MCL_OPENCL_DEVICE");

    check.exact("failing build", 3,
                throws_with("a failing build",
                            [] { vectoradd::device().program("broken", "__kernel void broken(__global int* x) { x[0] = ; }"); },
                            {"building OpenCL program 'broken'", "error"}),
                1);
    check.exact("too large", 4,
                throws_with("out of device memory",
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
    return check.finish();
}
