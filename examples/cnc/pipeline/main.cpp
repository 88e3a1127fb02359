// The image pipeline graph (image_pipeline.cnc) on the MCL runtime: 8
// frames of 240 x 320 through denoise, gradient and threshold, checked
// against the C++ reference of the three stages (pipeline_reference.h).
//
//   cnc_image_pipeline   (StarPU's variables pick the workers; runs under mpirun)
#include <iostream>
#include <vector>

#include "cnc/pipeline/pipeline_reference.h"
#include "image_pipeline.h"
#include "runtime/common/RuntimeApp.h"

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        const int h = 240, w = 320, frames = 8;
        const float t = 0.3f;
        const size_t pixels = size_t(h) * w;
        std::vector<float> images = mcl::examples::random_values(frames * pixels, 3, 0, 1);
        std::vector<float> masks(frames * pixels, -1.0f), expected(frames * pixels);
        for (int f = 0; f < frames; ++f)
            mcl::examples::pipeline_reference(h, w, t, expected.data() + f * pixels, images.data() + f * pixels);
        image_pipeline::Environment environment;
        environment.image = images.data();
        environment.mask = masks.data();
        mcl::examples::Stopwatch stopwatch;
        image_pipeline::run(runtime, environment);
        double seconds = stopwatch.seconds();
        bool ok = true;
        if (runtime.rank() == 0) {
            // A gradient within rounding of the threshold may land on either side.
            size_t differ = 0;
            for (size_t i = 0; i < masks.size(); ++i) differ += masks[i] != expected[i];
            ok = differ <= masks.size() / 10000;
            if (!ok) std::cerr << "masks: " << differ << " of " << masks.size() << " pixels differ\n";
        }
        return mcl::examples::finish(runtime, "cnc_image_pipeline", ok, seconds);
    } catch (const std::exception& e) {
        std::cerr << "cnc_image_pipeline: " << e.what() << "\n";
        return 1;
    }
}
