// libFuzzer target for the Concurrent Collections front end: the input is
// one .cnc graph whose imports are looked up under tests/inputs/cnc (the
// step kernels of filters.mcl, loaded and checked for each input), parsed
// and checked against those kernels. Any crash, sanitizer report, escaping
// exception or hang is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "cnc/CheckGraph.h"
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
    for (const mcl::cnc::Import& i : graph->imports)
        if (i.path.size() == 1 && i.path.front() == "filters") files.push_back(MCL_CNC_INPUTS_DIR "/filters.mcl");
    mcl::mcpl::Program program = mcl::mcpl::load_modules(files, {}, sources, stdlib(), diags);
    if (diags.has_errors()) return 0;
    mcl::mcpl::check_program(program, stdlib(), diags);
    if (diags.has_errors()) return 0;
    mcl::cnc::check_graph(*graph, program, diags);
    return 0;
}
