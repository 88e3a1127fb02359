// Shared by the OpenCL (PoCL) application benchmarks: the hand-written naive
// kernel of an application, built on the device of a generated module, and
// the registration of every version as "kernel" (resident data) and
// "with_transfers" (host API). Each program includes the generated glue's
// runtime header mcl_opencl.h through the generated include directories.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "BenchSupport.h"
#include "mcl_opencl.h"

namespace mcl::bench {

// A hand-written OpenCL kernel, built once on `device` (the program is
// cached there under the name "naive").
class NaiveKernel {
public:
    NaiveKernel(mcl::opencl::Device& device, const char* source, const char* name)
        : device_(device), kernel_(device.program("naive", source), name) {}

    // Runs it over `global` work-items (groups of `local`) on `args` in order
    // (device arrays pass their buffers), and waits for it.
    template <typename... Args>
    void run(const cl::NDRange& global, const cl::NDRange& local, const Args&... args) {
        cl_uint i = 0;
        (kernel_.setArg(i++, arg(args)), ...);
        device_.queue().enqueueNDRangeKernel(kernel_, cl::NullRange, global, local);
        device_.queue().finish();
    }

private:
    template <typename T>
    static const cl::Buffer& arg(const mcl::opencl::DeviceArray<T>& array) { return array.buffer(); }
    template <typename T>
    static const T& arg(const T& value) { return value; }

    mcl::opencl::Device& device_;
    cl::Kernel kernel_;
};

// The body of a benchmark with its data in device arrays: "kernel" when
// `resident` (`launch` timed; `download` once to verify), else
// "with_transfers" (`upload`, `launch` and `download` timed together).
template <typename Upload, typename Launch, typename Download, typename Check>
bool timed_opencl(benchmark::State& state, bool resident, Upload upload, Launch launch, Download download,
                  Check check) {
    if (resident) return timed(state, launch, [&] { download(); return check(); });
    return timed(state, [&] { upload(); launch(); download(); }, check);
}

// One version of an application on OpenCL, run resident or not.
struct OpenClVersion {
    std::string variant;
    std::function<void(benchmark::State&, bool resident)> run;
};

// A generated module as a version: `run(state, device(), host, res,
// resident)` measures its resident API `res` or its host API `host`.
template <typename Run, typename Host, typename Res>
OpenClVersion generated(const char* variant, Run run, mcl::opencl::Device& (*device)(), Host host, Res res) {
    return {variant, [=](benchmark::State& s, bool resident) { run(s, device(), host, res, resident); }};
}

// Registers "<app>/pocl/<variant>/kernel" (resident) or
// "<app>/pocl/<variant>/with_transfers" for each version, in order.
inline void add_opencl(const std::string& app, const std::vector<OpenClVersion>& versions, bool resident,
                       int iterations) {
    for (const OpenClVersion& v : versions) {
        auto run = v.run;
        add(app + "/pocl/" + v.variant + (resident ? "/kernel" : "/with_transfers"),
            [run, resident](benchmark::State& s) { run(s, resident); }, iterations);
    }
}

// Every version as "kernel", then every version as "with_transfers".
inline void add_opencl(const std::string& app, const std::vector<OpenClVersion>& versions, int iterations) {
    for (bool resident : {true, false}) add_opencl(app, versions, resident, iterations);
}

}  // namespace mcl::bench
