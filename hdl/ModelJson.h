// JSON form of a HardwareModel (`mclc show-hwd NAME --json`): the
// parallelism tree and the device tree with normalised numbers (bytes,
// bits, cycles, bytes_per_second, hertz); `"unlimited"` where a quantity is.
#pragma once

#include <nlohmann/json.hpp>

#include "hdl/HardwareModel.h"
#include "support/SourceManager.h"

namespace mcl::hdl {

nlohmann::json model_to_json(const HardwareModel& m, const SourceManager& sources);

}  // namespace mcl::hdl
