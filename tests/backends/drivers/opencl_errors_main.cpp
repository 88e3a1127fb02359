// Errors in generated OpenCL glue reach the caller as mcl::Error carrying the
// backend's text: a device choice that does not exist, a malformed choice,
// a program that fails to build, and an allocation larger than the device
// allows. Also the resident-data API: arrays kept on the device across two
// launches. Built against the glue of examples/vectoradd for any OpenCL
// target (run_opencl_errors.sh).
#include <cstdlib>
#include <string>
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
    return check.finish();
}
