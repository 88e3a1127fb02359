// The graph tests/inputs/cnc/pipeline.cnc on the runtime (mclc gen --graph):
// 16 frames blurred and thresholded by the steps blur and sobel, checked
// against the same arithmetic done here. tests/runtime/run_app.sh runs it
// with CPU workers, the OpenCL worker, both, and two MPI ranks.
#include <iostream>
#include <vector>

#include "pipeline.h"
#include "runtime/common/RuntimeApp.h"

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        const size_t frames = 16, pixels = 64 * 64;
        std::vector<float> frame = mcl::examples::random_values(frames * pixels, 5, -1, 1);
        std::vector<float> edges(frames * pixels, -1.0f), expected(frames * pixels);
        for (size_t i = 0; i < expected.size(); ++i) expected[i] = 0.5f * frame[i] > 0.25f ? 1.0f : 0.0f;
        pipeline::Environment environment;
        environment.frame = frame.data();
        environment.edges = edges.data();
        mcl::examples::Stopwatch stopwatch;
        pipeline::run(runtime, environment);
        double seconds = stopwatch.seconds();
        bool ok = runtime.rank() != 0 ||
                  mcl::examples::close("edges", edges.data(), expected.data(), edges.size(), 0, 0);
        return mcl::examples::finish(runtime, "cnc_pipeline", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "cnc_pipeline: " << e.what() << "\n";
        return 1;
    }
}
