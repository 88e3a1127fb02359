// libFuzzer target for the MCPL front end and translation: the input is one
// .mcl module, checked against the built-in hardware library (loaded once)
// and, when valid, translated to a leaf chosen by the input's size. Every
// stage runs: parse, import resolution, name resolution and types, mapping
// checks, read/write inference, translation (which checks its result again),
// printing and JSON. Any crash, sanitizer report or escaping exception is a
// bug.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>

#include "compiler/ast/AstJson.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/Translate.h"
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
    const mcl::hdl::HardwareLibrary& library = stdlib();
    mcl::SourceManager sources;
    mcl::DiagnosticEngine diags(sources);
    mcl::mcpl::Program program = mcl::mcpl::load_modules_from_text(
        "fuzz.mcl", std::string(reinterpret_cast<const char*>(data), size), {}, sources, library, diags);
    if (!diags.has_errors() && mcl::mcpl::check_program(program, library, diags)) {
        static const char* const kTargets[] = {"gpu", "fermi", "hopper", "mi100", "x86_avx2", "xeon_phi", "alveo_u250"};
        mcl::translate::translate_program(program, kTargets[size % std::size(kTargets)], library, diags);
    }
    for (const auto& m : program.modules) {
        (void)mcl::mcpl::print_module(*m);
        (void)mcl::mcpl::module_to_json(*m, sources).dump();
    }
    for (const mcl::Diagnostic& d : diags.diagnostics()) (void)diags.format_text(d);
    return 0;
}
