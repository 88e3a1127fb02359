// libFuzzer target for the HDL front end: the input is one .hdl file, loaded
// into a library beside a fixed valid `perfect` so that references into
// another description are exercised. Every stage runs: parse, resolve,
// validate, hierarchy checks, model building, JSON and diagnostics output.
// Any crash, sanitizer report or escaping exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "hdl/HardwareLibrary.h"
#include "hdl/ModelJson.h"

namespace {
constexpr const char* kPerfect = R"(hardware_description perfect;
parallelism hierarchy {
  memory_space main { default; }
  par_group threads { max_nr_units = unlimited;
    par_unit thread { memory_space reg { default; } } }
}
device perfect { mem; ic; cores; }
memory mem { space(main); capacity = unlimited B; }
memory regs { space(reg); capacity = unlimited B; addressable = false; }
interconnect ic { connects(mem, cores.core[*]); latency = 1 cycle; bandwidth = unlimited bit/s; }
execution_group cores { max_nr_units = unlimited;
  execution_unit core { ls_units; regs; slots(thread, 1); instructions ops { op((+), 1); } } }
load_store_group ls_units { max_nr_units = unlimited;
  load_store_unit ls_unit { slots(thread, 1); instructions ls_ops { op("load", 1); } } }
)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    mcl::SourceManager sources;
    mcl::DiagnosticEngine diags(sources);
    mcl::hdl::HardwareLibrary library(sources, diags);
    library.add_buffer("perfect.hdl", kPerfect, false);
    library.add_buffer("fuzz.hdl", std::string(reinterpret_cast<const char*>(data), size), true);
    library.finish();
    for (const std::string& name : library.names()) {
        (void)mcl::hdl::model_to_json(*library.find(name), sources).dump();
        (void)library.path(mcl::hdl::kRootDescription, name);
    }
    for (const mcl::Diagnostic& d : diags.diagnostics()) (void)diags.format_text(d);
    return 0;
}
