// Pass: check the constant parts of every expression: what the compiler
// computes itself must be computable.
//
// Needs: a Program after resolve_names (Var annotations, hardware values and
//   expression types set).
// Does: folds every expression with constant_int_value's int semantics
//   (32-bit, signed) and reports, located at the offending operand or
//   operation: division or modulo by a constant zero (`n / 0` too: the
//   divisor alone decides), divide_up by zero, a constant result outside
//   int's range (`2147483647 + 1`, `2 ^ 100`), an integer literal outside
//   it; and a top-level constant defined through itself (`const int A = A;`,
//   directly or through other constants).
// Guarantees: on a program without errors, checked_constant_int_value gives
//   a value or "not constant" for every expression, never a division by zero
//   or an overflow, and terminates; later passes (feedback's symbolic
//   quantities, translation's folding, backends' sizes) meet no constant
//   they cannot compute.
#pragma once

#include "compiler/sema/Program.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

void check_constants(const Program& program, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
