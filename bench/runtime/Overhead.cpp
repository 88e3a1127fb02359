// The runtime's cost per task: N calls of an empty kernel (independent:
// they only read one array), and as the reference in the same process the
// same number of StarPU tasks of an empty codelet submitted directly. The
// difference is what mcl::rt adds (version dispatch, accounting); the rest
// is StarPU's scheduling and, on OpenCL workers, the launch.
//
//   runtime_overhead [TASKS]   (StarPU's variables pick the workers)
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <vector>

#include "empty.h"

namespace {

void do_nothing(void*[], void*) {}

double seconds_for(const std::function<void()>& submit_all) {
    auto start = std::chrono::steady_clock::now();
    submit_all();
    starpu_task_wait_for_all();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        int tasks = argc > 1 ? std::atoi(argv[1]) : 2000;
        std::vector<float> data(1, 1.0f);
        mcl::rt::Vector<float> x(runtime, data.data(), data.size());

        starpu_codelet empty_codelet;
        starpu_codelet_init(&empty_codelet);
        empty_codelet.cpu_funcs[0] = do_nothing;
        empty_codelet.opencl_funcs[0] = do_nothing;
        empty_codelet.nbuffers = 1;
        empty_codelet.modes[0] = STARPU_R;
        empty_codelet.name = "starpu_empty";

        // Warm up both (OpenCL program builds, StarPU's first transfers).
        for (int i = 0; i < 20; ++i) {
            empty::submit(runtime, 1, x);
            starpu_task_insert(&empty_codelet, STARPU_R, x.handle(), 0);
        }
        starpu_task_wait_for_all();

        double mcl = seconds_for([&] {
            for (int i = 0; i < tasks; ++i) empty::submit(runtime, 1, x);
        });
        double raw = seconds_for([&] {
            for (int i = 0; i < tasks; ++i) starpu_task_insert(&empty_codelet, STARPU_R, x.handle(), 0);
        });
        std::cout << "mcl_rt_us_per_task: " << 1e6 * mcl / tasks << "\n"
                  << "starpu_us_per_task: " << 1e6 * raw / tasks << "\n";
        runtime.print_summary(std::cout);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "runtime_overhead: " << e.what() << "\n";
        return 1;
    }
}
