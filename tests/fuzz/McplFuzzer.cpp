// libFuzzer target for the MCPL front end, translation and code generation:
// the input is one .mcl module, checked against the built-in hardware
// library (loaded once) and, when valid, translated to a leaf chosen by the
// input's size and generated with every backend that leaf has a
// configuration for. Every stage runs: parse, import resolution, name
// resolution and types, mapping checks, read/write inference, translation
// (which checks its result again), code generation, printing and JSON. Any
// crash, sanitizer report or escaping exception is a bug.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "backends/Backend.h"
#include "backends/TargetConfig.h"
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

// The text of stdlib-hw/targets/<leaf>.json ("" when there is none), read once.
const std::string& target_config_text(const std::string& leaf) {
    static std::map<std::string, std::string> texts;
    auto [it, fresh] = texts.emplace(leaf, "");
    if (fresh) {
        std::ifstream in(std::string(MCL_STDLIB_HW_DIR) + "/targets/" + leaf + ".json");
        std::ostringstream text;
        text << in.rdbuf();
        it->second = text.str();
    }
    return it->second;
}

// Generates the translated root module with every backend of `leaf`.
void generate_all(const mcl::mcpl::Program& program, const std::string& leaf, mcl::SourceManager& sources,
                  mcl::DiagnosticEngine& diags) {
    const mcl::hdl::HardwareModel* model = stdlib().find(leaf);
    const std::string& text = target_config_text(leaf);
    if (!model || text.empty() || program.roots.empty()) return;
    auto config = mcl::backends::parse_target_config(leaf + ".json", text, *model, sources, diags);
    if (!config) return;
    for (const std::string& name : config->backend_names()) {
        const mcl::backends::Backend* backend = mcl::backends::find_backend(name);
        if (!backend) continue;
        mcl::backends::GenerationInput input{program, *program.roots.front(), *model, *config};
        (void)backend->generate(input, diags);
    }
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
        const char* target = kTargets[size % std::size(kTargets)];
        mcl::translate::translate_program(program, target, library, diags);
        if (!diags.has_errors()) generate_all(program, target, sources, diags);
    }
    for (const auto& m : program.modules) {
        (void)mcl::mcpl::print_module(*m);
        (void)mcl::mcpl::module_to_json(*m, sources).dump();
    }
    for (const mcl::Diagnostic& d : diags.diagnostics()) (void)diags.format_text(d);
    return 0;
}
