// Pass: build the HardwareModel of a validated description.
//
// Needs: a description that validate_description accepted, and the library's
//   Resolution.
// Does: instantiates the parallelism hierarchy and the device tree, including
//   referenced blocks where they are referenced (one DeviceNode per instance,
//   so a memory referenced from two execution units appears twice), evaluates
//   and normalises every property, resolves `connects` endpoints to the
//   instances they denote and derives an interconnect's bandwidth from
//   clock_frequency * width when it gives no bandwidth.
// Guarantees: a complete model; no diagnostics (validation found them).
#pragma once

#include <memory>

#include "hdl/Ast.h"
#include "hdl/HardwareModel.h"
#include "hdl/ResolveReferences.h"

namespace mcl::hdl {

std::unique_ptr<HardwareModel> build_hardware_model(const Description& d,
                                                    const Resolution& resolution);

}  // namespace mcl::hdl
