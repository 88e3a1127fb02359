// Pass: load a leaf's code-generation configuration,
// stdlib-hw/targets/<leaf>.json (DESIGN.md section 7).
//
// Needs: the path of the file, the leaf's hardware model (to validate names
//   against), the source manager (the file is registered there so that
//   errors point into it) and the diagnostics engine.
// Does: parses the JSON and checks the schema shared by every backend:
//     { "leaf": "<leaf>",
//       "backends": {
//         "<backend>": {
//           "device_type": "cpu",
//           "par_groups":    { "<par_group>":    { <backend-specific keys> } },
//           "memory_spaces": { "<memory space>": { <backend-specific keys> } },
//           "builtins":      { "<library function>": "<spelling>" },
//           <other backend-specific keys> } },
//       "match": { "device_type": ..., "vendor": ..., "name": ... } }
//   "leaf" must name the leaf; par_groups and memory_spaces must name ones
//   of the leaf; builtin spellings are strings (`$n` is the n-th argument;
//   a key `<library function>@<scope>` spells calls whose first argument
//   lives in memory of that scope apart). What the backend-specific
//   keys mean (e.g. "map" for cpp, "index_query" for OpenCL) is the
//   backend's business: each validates its own keys when it generates.
//   "match" (optional, DeviceMatch) must have all three strings, valid
//   regular expressions and a known device type.
// Guarantees: on success every name in the result exists in the leaf; every
//   error is located in the JSON file (at the offending key where it can be
//   found, at the file otherwise) and names it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hdl/HardwareModel.h"
#include "support/Diagnostics.h"
#include "support/SourceManager.h"

namespace mcl::backends {

// One par_group or memory space entry: its backend-specific properties.
struct ConfigEntry {
    nlohmann::json properties;  // a JSON object
    SourceLocation location;    // the entry's key in the file

    // A string property, or "" when it is absent or not a string.
    std::string string(const std::string& key) const;
};

struct BackendConfig {
    std::string backend;
    std::string device_type;
    std::map<std::string, ConfigEntry> par_groups;
    std::map<std::string, ConfigEntry> memory_spaces;
    std::map<std::string, std::string> builtins;
    std::map<std::string, SourceLocation> builtin_locations;
    nlohmann::json raw;        // the whole section, for backend-specific keys
    SourceLocation location;   // the backend's key in the file
};

// The scope ("device", "group" or "item") configured for a memory space, or
// "" when it has none.
std::string memory_scope(const BackendConfig& config, const std::string& space);

// Which devices are this leaf (the runtime maps each worker's device to a
// leaf with it): "match": { "device_type": "gpu", "vendor": "NVIDIA",
// "name": "H100|H200" }. vendor and name are ECMAScript regular expressions
// searched for in the device's vendor and name (OpenCL's CL_DEVICE_VENDOR
// and CL_DEVICE_NAME; for the host CPU, /proc/cpuinfo's vendor_id and model
// name); device_type is cpu, gpu or accelerator.
struct DeviceMatch {
    std::string device_type;
    std::string vendor;
    std::string name;
    SourceLocation location;  // the "match" key in the file
};

struct TargetConfig {
    std::string leaf;
    std::optional<DeviceMatch> match;
    std::string path;           // the file it was loaded from
    uint32_t file = 0;          // its id in the source manager
    std::map<std::string, BackendConfig> backends;

    const BackendConfig* backend(const std::string& name) const;
    std::vector<std::string> backend_names() const;  // sorted
};

// Loads and validates the configuration for `leaf` from `path`; std::nullopt
// (with errors reported) when it cannot be read or is invalid.
std::optional<TargetConfig> load_target_config(const std::string& path, const hdl::HardwareModel& leaf,
                                               SourceManager& sources, DiagnosticEngine& diags);
// The same from text already in memory (tests).
std::optional<TargetConfig> parse_target_config(const std::string& path, std::string text,
                                                const hdl::HardwareModel& leaf, SourceManager& sources,
                                                DiagnosticEngine& diags);

// The configuration files found under `<dir>/targets/*.json` for each of
// `dirs`, by leaf name (the file's stem); a directory earlier in the list
// wins over a later one for the same leaf.
std::map<std::string, std::string> find_target_configs(const std::vector<std::string>& dirs);

}  // namespace mcl::backends
