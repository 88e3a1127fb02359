// Pass: translate the memory spaces of a function's declarations and
// barriers one level down (thesis appendix B.3).
//
// Needs: a checked function at description `from`, a child `to` and the
//   ParGroupMapping between them.
// Does: a memory space declared at the top level of `from` maps to one at the
//   top level of `to`; one declared in the par_unit of par_group G maps to one
//   in the par_unit of the innermost par_group that stands for G, so that the
//   units that shared it still share its equivalent and a barrier on it
//   still synchronises the same units. Among the candidates it prefers, in
//   order: the same name, the same `default`-ness and read-only-ness, the
//   same read-only-ness; a read-only space may become a writable one, never
//   the reverse. Rewrites every memory-space modifier of parameters and
//   declarations and every `barrier(...)`. Declarations without a modifier
//   keep none: they take the default of their scope at `to`, which the
//   driver verifies by checking the result.
// Guarantees: every rewritten name is a memory space of `to`, or an error at
//   the declaration or barrier that names no equivalent.
#pragma once

#include <string>
#include <variant>

#include "compiler/ast/Ast.h"
#include "compiler/translate/ParGroupMapping.h"
#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"

namespace mcl::translate {

// The memory space of `to` that stands for `space` of `from`.
std::variant<std::string, MappingError> equivalent_memory_space(const std::string& space,
                                                                const hdl::HardwareModel& from,
                                                                const hdl::HardwareModel& to,
                                                                const ParGroupMapping& mapping);

void translate_memory_spaces(mcpl::Function& f, const hdl::HardwareModel& from, const hdl::HardwareModel& to,
                             const ParGroupMapping& mapping, DiagnosticEngine& diags);

}  // namespace mcl::translate
