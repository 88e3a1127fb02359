// C++ reference for examples/complexmul (complexmul.mcl).
//
// c[i] = a[i] * b[i] for n complex numbers. Complex has the layout of the
// MCPL record lib.math.complex.Complex: two floats, real then imag. Same
// float operations as the kernel; results differ only through fused
// multiply-add contraction: compare with a relative tolerance.
#pragma once

namespace mcl::examples {

struct Complex {
    float real;
    float imag;
};

static_assert(sizeof(Complex) == 2 * sizeof(float));

inline void complexmul_reference(int n, Complex* c, const Complex* a,
                                 const Complex* b) {
    for (int i = 0; i < n; ++i) {
        c[i].real = a[i].real * b[i].real - a[i].imag * b[i].imag;
        c[i].imag = a[i].real * b[i].imag + a[i].imag * b[i].real;
    }
}

}  // namespace mcl::examples
