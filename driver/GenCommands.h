// The `mclc` subcommands of code generation (DESIGN.md sections 7 and 9):
// `list-targets` prints each leaf that has a target configuration
// (targets/<leaf>.json under the hardware directories) with its backends;
// `gen --target LEAF --backend B FILE -o DIR` checks the module, translates
// it to LEAF, runs backend B and writes its files into DIR.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "backends/TargetConfig.h"

#include "driver/FrontendCommands.h"

namespace mcl::driver {

// Where target configurations live: targets/ beside the descriptions, user
// directories first so that they override built-in ones.
std::vector<std::string> config_dirs(const HardwarePaths& paths);
bool is_leaf(const hdl::HardwareLibrary& library, const std::string& name);
// The validated configuration of `leaf` (read from `path`), with errors
// reported to the session.
std::optional<backends::TargetConfig> load_config(Session& session, const std::string& leaf,
                                                  const std::string& path);

int list_targets_command(const HardwarePaths& paths, std::ostream& out, std::ostream& err);

struct GenOptions {
    std::vector<std::string> files;  // one without `runtime`
    std::string target;   // a leaf
    std::string backend;
    std::string runtime;  // "starpu": every version of the kernels in `files` as runtime tasks
    std::string name;     // with `runtime` or `graph`: the generated namespace
    std::string graph;    // a .cnc graph: its coordination code and its steps as runtime tasks
    std::string output_dir;
    backends::FloatingPointFreedom floating_point;  // llvm backend only
    std::string cpu;  // llvm backend, CPU leaves: the CPU the object is for ("native": this machine's)
    std::optional<int64_t> min_blocks_per_processor;  // cuda and llvm backends, GPU leaves
};

int gen_command(const FrontendOptions& options, const GenOptions& gen, std::ostream& out, std::ostream& err);

}  // namespace mcl::driver
