// Two runtime modules in one program without MPI (mcl_add_runtime_kernels):
// scale (one kernel: scale::submit) and pair (two: pair::submit_fill,
// pair::submit_axpy). y = 2 * x, then z = 3 (W), z += 0.5 * y (RW), the
// calls ordered by their access modes only; checked against the arithmetic.
// A call on arrays smaller than it uses, or with one array for the result
// and the input, is refused, and so is a second array over registered memory.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "pair.h"
#include "scale.h"

int main(int argc, char** argv) {
    try {
        mcl::rt::Runtime runtime(&argc, &argv);
        const int n = 1003;
        std::vector<float> x(n), y(n, -1.0f), z(n, -1.0f);
        for (int i = 0; i < n; ++i) x[i] = float(i);
        {
            mcl::rt::Vector<float> vx(runtime, x.data(), n), vy(runtime, y.data(), n), vz(runtime, z.data(), n);
            scale::submit(runtime, n, 2.0f, vy, vx);
            pair::submit_fill(runtime, n, 3.0f, vz);
            pair::submit_axpy(runtime, n, 0.5f, vz, vy);
            try {
                scale::submit(runtime, n + 1, 2.0f, vy, vx);  // larger than the arrays: refused
                std::printf("runtime_main: FAIL (an array smaller than the call was accepted)\n");
                return 1;
            } catch (const mcl::Error& e) {
                if (std::string(e.what()).find("holds 1003 elements, fewer than the 1004") == std::string::npos) {
                    std::printf("runtime_main: FAIL (%s)\n", e.what());
                    return 1;
                }
            }
            try {
                scale::submit(runtime, n, 2.0f, vx, vx);  // the result is the input: refused
                std::printf("runtime_main: FAIL (one array for the result and the input was accepted)\n");
                return 1;
            } catch (const mcl::Error& e) {
                if (std::string(e.what()).find("must not alias") == std::string::npos) {
                    std::printf("runtime_main: FAIL (%s)\n", e.what());
                    return 1;
                }
            }
            try {
                mcl::rt::Vector<float> overlapping(runtime, y.data() + n / 2, n / 2);  // inside vy: refused
                std::printf("runtime_main: FAIL (a second array over registered memory was accepted)\n");
                return 1;
            } catch (const mcl::Error& e) {
                if (std::string(e.what()).find("shares memory with an array registered before") ==
                    std::string::npos) {
                    std::printf("runtime_main: FAIL (%s)\n", e.what());
                    return 1;
                }
            }
            mcl::rt::Vector<float> empty(runtime, x.data(), 0);  // spans no memory: accepted
        }
        {
            // unregistered above, so the same memory registers again
            mcl::rt::Vector<float> vy(runtime, y.data(), n);
        }
        for (int i = 0; i < n; ++i)
            if (y[i] != 2.0f * i || z[i] != 3.0f + float(i)) {
                std::printf("runtime_main: FAIL at %d: y = %g, z = %g\n", i, y[i], z[i]);
                return 1;
            }
        runtime.print_summary(std::cout);
        std::printf("runtime_main: PASS\n");
        return 0;
    } catch (const std::exception& e) {
        std::printf("runtime_main: FAIL (%s)\n", e.what());
        return 1;
    }
}
