// Values of the reference interpreter and the arithmetic on them, with the
// semantics the generated C-family code has (DESIGN.md section 10): `int` is
// 32-bit two's complement, `byte` an unsigned 8-bit number, `bool` 0 or 1;
// arithmetic follows C's usual conversions (byte and bool promote to int,
// int with float gives float, anything with double gives double); float
// arithmetic is done in single precision.
//
// Where C leaves the result undefined (signed overflow, division by zero, a
// shift out of range, a float that does not fit an int), the operation fails
// with a message instead of picking a value: a program that does this has no
// defined result to compare against. A value computed from memory that
// nothing wrote is poisoned; poison spreads through arithmetic, and the
// interpreter reports it where it decides control flow, an index or a count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ast/Ast.h"

namespace mcl::interpret {

struct Scalar {
    mcpl::Primitive type = mcpl::Primitive::Int;
    int64_t i = 0;  // int, byte and bool
    double f = 0;   // float (rounded to single precision) and double
    bool poison = false;

    static Scalar of_int(int64_t v) { return Scalar{mcpl::Primitive::Int, v, 0, false}; }
    static Scalar of_bool(bool v) { return Scalar{mcpl::Primitive::Bool, v ? 1 : 0, 0, false}; }
    static Scalar of_float(double v);
    static Scalar of_double(double v) { return Scalar{mcpl::Primitive::Double, 0, v, false}; }
    static Scalar poisoned(mcpl::Primitive t) { return Scalar{t, 0, 0, true}; }

    bool is_floating() const { return type == mcpl::Primitive::Float || type == mcpl::Primitive::Double; }
    double as_double() const { return is_floating() ? f : static_cast<double>(i); }
    bool truth() const { return is_floating() ? f != 0 : i != 0; }
    std::string str() const;
};

// The result of an operation, or why it has none.
struct Outcome {
    Scalar value;
    std::string error;  // empty on success
    bool ok() const { return error.empty(); }
};

// `v` converted to `to` as a C assignment or cast does.
Outcome convert(const Scalar& v, mcpl::Primitive to);

// `a op b` for the binary operators of MCPL except && and || (which the
// interpreter short-circuits) and ^ (see power).
Outcome binary(const std::string& op, const Scalar& a, const Scalar& b);

// `-a` and `!a`.
Outcome unary(const std::string& op, const Scalar& a);

// `a ^ b`, the result converted to `result` (the expression's type): exact
// for integers, pow in the operands' precision for floating point.
Outcome power(const Scalar& a, const Scalar& b, mcpl::Primitive result);

}  // namespace mcl::interpret
