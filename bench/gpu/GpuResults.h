// What the GPU benchmark programs share about their results (GpuBench.cu
// and bench/gpu/units/PerfectUnits.cu): the entry of a result, the best
// time of repeated calls with CUDA events, and the JSON file in Google
// Benchmark's format that bench/report.py and bench/gpu/report.py read.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "mcl_cuda.h"  // mcl::cuda::check, beside every generated module

namespace gpu_bench {

// One entry of the results.
struct Result {
    Result(std::string entry, std::string size) : name(std::move(entry)), label(std::move(size)) {}

    std::string name, label;
    double seconds = 0;             // best of the timed calls
    double gflops = 0, gbps = 0;    // 0: not reported (no flops / no minimum byte count)
    std::string reference;          // the entry whose time the stdout table compares with ("": none)
    std::string error;              // not empty: failed (wrong result or an error thrown) and not timed
};

// A CUDA event, destroyed with its scope.
class Event {
public:
    Event() { mcl::cuda::check(cudaEventCreate(&event_), "cudaEventCreate"); }
    ~Event() { cudaEventDestroy(event_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

// The best of `repetitions` calls in seconds, each after a reset that the
// events do not include.
inline double best_time(const std::function<void()>& reset, const std::function<void()>& call, int repetitions) {
    Event start, stop;
    float best = 0;
    for (int r = 0; r < repetitions; ++r) {
        reset();
        mcl::cuda::check(cudaEventRecord(start.get()), "cudaEventRecord");
        call();
        mcl::cuda::check(cudaEventRecord(stop.get()), "cudaEventRecord");
        mcl::cuda::check(cudaEventSynchronize(stop.get()), "cudaEventSynchronize");
        float ms = 0;
        mcl::cuda::check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
        best = r == 0 ? ms : std::min(best, ms);
    }
    return best * 1e-3;
}

// `text` as a JSON string, quoted and escaped.
inline std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// Writes `results`, measured on `host`, to `path`; false when the file
// cannot be written.
inline bool write_json(const char* path, const std::string& host, const std::vector<Result>& results) {
    FILE* out = std::fopen(path, "w");
    if (!out) return false;
    std::fprintf(out, "{\"context\": {\"host_name\": %s}, \"benchmarks\": [\n", json_string(host).c_str());
    for (size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        std::fprintf(out, "{\"name\": %s, \"run_type\": \"iteration\", \"real_time\": %.9g, \"time_unit\": \"s\", ",
                     json_string(r.name).c_str(), r.seconds);
        if (r.gflops > 0) std::fprintf(out, "\"GFLOPS\": %.9g, ", r.gflops);
        if (r.gbps > 0) std::fprintf(out, "\"GBps\": %.9g, ", r.gbps);
        std::fprintf(out, "\"label\": %s", json_string(r.label).c_str());
        if (!r.error.empty())
            std::fprintf(out, ", \"error_occurred\": true, \"error_message\": %s", json_string(r.error).c_str());
        std::fprintf(out, "}%s\n", i + 1 < results.size() ? "," : "");
    }
    std::fprintf(out, "]}\n");
    return std::fclose(out) == 0;
}

}  // namespace gpu_bench
