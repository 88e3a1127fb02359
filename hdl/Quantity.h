// Evaluation of HDL expressions and normalisation of units.
//
// Integer expressions are evaluated with overflow checks; a value with a unit
// is normalised to the base unit of its Dimension: bytes, bits, cycles,
// bytes per second or hertz. Storage prefixes (k, M, G on B or bit) are
// binary, as memory capacities are quoted in vendor documentation; rate and
// frequency prefixes (GB/s, MHz) are decimal. `unlimited` is a value of its
// own. Errors come back as values so that the validator can report them and
// the model builder can rely on their absence.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "hdl/Ast.h"
#include "hdl/Schema.h"

namespace mcl::hdl {

struct Quantity {
    bool unlimited = false;
    int64_t value = 0;  // in the dimension's base unit when !unlimited

    friend bool operator==(const Quantity&, const Quantity&) = default;
};

struct EvalError {
    SourceLocation location;
    std::string message;
};

template <typename T>
using Evaluated = std::variant<T, EvalError>;

// An integer expression: literals, + - * / %, parentheses, unary minus.
Evaluated<int64_t> evaluate_integer(const Expr& e);
// A property value `expr unit?` normalised to `dimension`.
Evaluated<Quantity> evaluate_quantity(const Expr& value, const std::optional<Unit>& unit,
                                      Dimension dimension, bool allow_unlimited);

}  // namespace mcl::hdl
