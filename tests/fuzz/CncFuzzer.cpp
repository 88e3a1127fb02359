// libFuzzer target for the Concurrent Collections front end: the input is
// one .cnc graph whose imports are looked up under tests/inputs/cnc (the
// step kernels of filters.mcl) and tests/cnc/verify (graph_steps.mcl),
// loaded and checked for each input, parsed and checked against those
// kernels; a graph that checks is generated for the runtime (`gen --graph`)
// and, where it is small, run by the reference interpreter of graphs (what
// `mclc verify` runs). Any crash, sanitizer report, escaping exception or
// hang is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cnc/CheckGraph.h"
#include "cnc/GenerateGraph.h"
#include "cnc/InterpretGraph.h"
#include "cnc/ParseCnC.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "hdl/HardwareLibrary.h"

namespace {
const mcl::hdl::HardwareLibrary& stdlib() {
    static mcl::SourceManager sources;
    static mcl::DiagnosticEngine diags(sources);
    static mcl::hdl::HardwareLibrary library = [] {
        mcl::hdl::HardwareLibrary l(sources, diags);
        l.load(MCL_STDLIB_HW_DIR, {});
        return l;
    }();
    return library;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    mcl::SourceManager sources;
    mcl::DiagnosticEngine diags(sources);
    uint32_t file = sources.add_buffer("fuzz.cnc", std::string(reinterpret_cast<const char*>(data), size));
    std::optional<mcl::cnc::Graph> graph = mcl::cnc::parse_cnc(file, sources, diags);
    if (!graph) return 0;
    std::vector<std::string> files;
    for (const mcl::cnc::Import& i : graph->imports) {
        if (i.path.size() != 1) continue;
        if (i.path.front() == "filters") files.push_back(MCL_CNC_INPUTS_DIR "/filters.mcl");
        if (i.path.front() == "graph_steps") files.push_back(MCL_CNC_VERIFY_DIR "/graph_steps.mcl");
    }
    mcl::mcpl::Program program = mcl::mcpl::load_modules(files, {}, sources, stdlib(), diags);
    if (diags.has_errors()) return 0;
    mcl::mcpl::check_program(program, stdlib(), diags);
    if (diags.has_errors()) return 0;
    std::optional<mcl::cnc::CheckedGraph> checked = mcl::cnc::check_graph(*graph, program, diags);
    if (!checked || diags.has_errors()) return 0;
    mcl::cnc::GraphCode code{"fuzz", "fuzz", "fuzz_steps", [](const std::string& kernel) { return "submit_" + kernel; },
                             "fuzz_steps.h"};
    mcl::cnc::generate_graph(*graph, *checked, code, diags);
    // small enough to run each input quickly: the interpreter's values and steps bounded
    if (mcl::cnc::too_large_to_interpret(*graph, *checked, 1 << 14)) return 0;
    mcl::cnc::ItemValues items = mcl::cnc::environment_items(*graph, *checked, [](mcl::mcpl::Primitive type) {
        return mcl::interpret::convert(mcl::interpret::Scalar::of_int(1), type).value;
    });
    mcl::interpret::InterpretOptions options;
    options.step_limit = 1'000'000;
    mcl::cnc::interpret_graph(*graph, *checked, stdlib(), items, options);
    return 0;
}
