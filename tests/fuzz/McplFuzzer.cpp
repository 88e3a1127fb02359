// libFuzzer target for the MCPL front end, translation and code generation:
// the input is one .mcl module, checked against the built-in hardware
// library (loaded once) and, when valid, translated to a leaf chosen by the
// input's size and generated with every backend that leaf has a
// configuration for. Every stage runs: parse, import resolution, name
// resolution and types, mapping checks, read/write inference, feedback
// (before and after translation), the reference interpreter (each kernel at
// small sizes, with a small step limit), translation (which checks its
// result again), code generation, printing and JSON. Any crash, sanitizer
// report, escaping exception or diagnostic that says "internal error" is a
// bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "backends/Backend.h"
#include "backends/TargetConfig.h"
#include "compiler/ast/AstJson.h"
#include "compiler/interpret/Interpreter.h"
#include "compiler/lower/Lower.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/Translate.h"
#include "feedback/RunFeedback.h"
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

// Runs every kernel of the root module in the interpreter: int scalars 3,
// other scalars, record fields and array elements 1, in a shuffled order.
// Errors are expected (an index out of range, a step limit); a crash is not.
void interpret_kernels(const mcl::mcpl::Program& program) {
    if (program.roots.empty()) return;
    for (const mcl::mcpl::Function* kernel : mcl::backends::module_kernels(*program.roots.front())) {
        std::vector<mcl::interpret::Scalar> scalars;
        for (const auto& p : kernel->params) {
            const mcl::mcpl::Type& t = p->forms.front().resolved_type;
            if (t.is_array() || t.record) continue;
            mcl::interpret::Scalar one = mcl::interpret::Scalar::of_int(t.primitive == mcl::mcpl::Primitive::Int ? 3 : 1);
            scalars.push_back(t.primitive ? mcl::interpret::convert(one, *t.primitive).value : one);
        }
        std::vector<mcl::interpret::ParameterLayout> layouts;
        if (mcl::interpret::parameter_layouts(*kernel, scalars, layouts)) continue;
        std::vector<mcl::interpret::StoragePtr> arguments;
        size_t next_scalar = 0;
        int64_t cells = 0;
        for (const mcl::interpret::ParameterLayout& layout : layouts) {
            cells += layout.cell_count();
            if (cells > (int64_t{1} << 20)) return;
            auto storage = std::make_shared<mcl::interpret::Storage>();
            if (!layout.is_array && layout.element_cells.size() == 1) {
                storage->cells.push_back(scalars.at(next_scalar++));
            } else {
                for (int64_t e = 0; e < layout.elements(); ++e)
                    for (mcl::mcpl::Primitive p : layout.element_cells)
                        storage->cells.push_back(mcl::interpret::convert(mcl::interpret::Scalar::of_int(1), p).value);
            }
            arguments.push_back(std::move(storage));
        }
        mcl::interpret::InterpretOptions options;
        options.step_limit = 100'000;
        (void)mcl::interpret::run_kernel(stdlib(), *kernel, arguments, options);
    }
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
        const mcl::feedback::Params params{{"n", 1000}, {"m", 100}};
        if (!program.roots.empty()) (void)mcl::feedback::run_feedback(program, *program.roots.front(), library, params);
        interpret_kernels(program);
        static const char* const kTargets[] = {"gpu", "fermi", "hopper", "mi100", "x86_avx2", "xeon_phi", "alveo_u250"};
        const char* target = kTargets[size % std::size(kTargets)];
        mcl::translate::translate_program(program, target, library, diags);
        if (!diags.has_errors()) {
            (void)mcl::feedback::run_feedback(program, *program.roots.front(), library, params);
            if (mcl::lower::lower_for_engines(program, library, diags)) generate_all(program, target, sources, diags);
        }
    }
    for (const auto& m : program.modules) {
        (void)mcl::mcpl::print_module(*m);
        (void)mcl::mcpl::module_to_json(*m, sources).dump();
    }
    for (const mcl::Diagnostic& d : diags.diagnostics()) {
        // a stage that reports its own bug (an expression name resolution
        // left untyped, invalid IR) found one, as a crash would
        if (d.message.find("internal error") != std::string::npos) {
            std::fprintf(stderr, "%s\n", diags.format_text(d).c_str());
            std::abort();
        }
        (void)diags.format_text(d);
    }
    return 0;
}
