// Pass: move a function's `nr_processors` hardware values one level down.
//
// Needs: a function at description `from` and the ParGroupMapping from
//   `from` to its child description `to`.
// Does: each hardware value `from.<hierarchy>.<path to G>.nr_processors`
//   (how many execution units run G's units side by side; translation's
//   choice of threads per block reads it) becomes the same value of `to`
//   for the outermost par_group that G maps to, when `to` describes
//   processors for it; otherwise it stays as it is. A value of `nr_units`,
//   `max_nr_units`, or one naming another description is left alone: those
//   name the description the code was written for, while `nr_processors`
//   means the device the code runs on, as precisely as the level knows it.
// Guarantees: a function translated straight to a leaf and one translated
//   level by level hold the same values (each step moves them by one); at a
//   leaf they are the leaf's numbers (hopper's 132 multiprocessors where gpu
//   said 16).
#pragma once

#include "compiler/ast/Ast.h"
#include "compiler/translate/ParGroupMapping.h"
#include "hdl/HardwareModel.h"

namespace mcl::translate {

void translate_hardware_values(mcpl::Function& f, const hdl::HardwareModel& from, const hdl::HardwareModel& to,
                               const ParGroupMapping& mapping);

}  // namespace mcl::translate
