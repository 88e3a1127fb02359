// C++ reference for examples/vectoradd (vectoradd.mcl).
//
// c = a + b for n floats. Exact: one float addition per element.
#pragma once

namespace mcl::examples {

inline void vectoradd_reference(int n, float* c, const float* a,
                                const float* b) {
    for (int i = 0; i < n; ++i) {
        c[i] = a[i] + b[i];
    }
}

}  // namespace mcl::examples
