#include "driver/GenCommands.h"

#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "backends/Backend.h"
#include "backends/TargetConfig.h"
#include "compiler/lower/Lower.h"
#include "compiler/translate/Translate.h"
#include "support/OutputFile.h"
#include "support/Spelling.h"

namespace mcl::driver {

std::vector<std::string> config_dirs(const HardwarePaths& paths) {
    std::vector<std::string> dirs = paths.user_dirs;
    dirs.push_back(paths.builtin_dir);
    return dirs;
}

bool is_leaf(const hdl::HardwareLibrary& library, const std::string& name) {
    return library.find(name) && library.children(name).empty();
}

std::optional<backends::TargetConfig> load_config(Session& session, const std::string& leaf,
                                                  const std::string& path) {
    const hdl::HardwareModel* model = session.library.find(leaf);
    if (!model) {
        session.diags.error(SourceLocation{}, fmt::format("target configuration '{}' names no valid hardware "
                                                          "description '{}'", path, leaf));
        return std::nullopt;
    }
    if (!is_leaf(session.library, leaf)) {
        session.diags.error(SourceLocation{}, fmt::format("target configuration '{}' is for '{}', which is not a "
                                                          "leaf of the hierarchy", path, leaf));
        return std::nullopt;
    }
    return backends::load_target_config(path, *model, session.sources, session.diags);
}

int list_targets_command(const HardwarePaths& paths, std::ostream& out, std::ostream& err) {
    Session session(paths);
    std::vector<std::pair<std::string, std::vector<std::string>>> rows;
    for (const auto& [leaf, path] : backends::find_target_configs(config_dirs(paths)))
        if (auto config = load_config(session, leaf, path)) rows.emplace_back(leaf, config->backend_names());
    int status = session.report(err);
    for (const auto& [leaf, names] : rows) out << leaf << ": " << fmt::format("{}", fmt::join(names, " ")) << '\n';
    return status;
}

int gen_command(const FrontendOptions& options, const GenOptions& gen, std::ostream&, std::ostream& err) {
    Session session(options.hardware);
    auto fail = [&](const std::string& message) {
        session.diags.error(SourceLocation{}, message);
        return session.report(err);
    };

    const backends::Backend* backend = backends::find_backend(gen.backend);
    if (!backend)
        return fail(fmt::format("unknown backend '{}'{}", gen.backend,
                                did_you_mean(gen.backend, backends::backend_names())));

    if (gen.floating_point.any() && gen.backend != "llvm")
        return fail(fmt::format("--fp-contract and --fast-math apply to the llvm backend only; the {} backend's "
                                "compiler decides how it rounds", gen.backend));
    if (!gen.cpu.empty() && gen.backend != "llvm")
        return fail(fmt::format("--cpu applies to the llvm backend only; the {} backend's compiler takes the CPU "
                                "from its own flags (e.g. -march)", gen.backend));

    if (gen.min_blocks_per_processor && gen.backend != "cuda" && gen.backend != "llvm")
        return fail(fmt::format("--min-blocks-per-processor applies to the cuda and llvm backends only (GPU leaves); "
                                "the {} backend has no blocks to fit",
                                gen.backend));

    std::map<std::string, std::string> configs = backends::find_target_configs(config_dirs(options.hardware));
    if (!session.library.find(gen.target)) {
        std::vector<std::string> leaves;
        for (const auto& [leaf, path] : configs) leaves.push_back(leaf);
        std::vector<std::string> names = session.library.names();
        std::string hint = did_you_mean(gen.target, leaves);
        return fail(fmt::format("unknown target '{}'{}", gen.target,
                                hint.empty() ? did_you_mean(gen.target, names) : hint));
    }
    if (!is_leaf(session.library, gen.target))
        return fail(fmt::format("target '{}' is not a leaf of the hierarchy; code is generated for leaves "
                                "(see mclc list-targets)", gen.target));
    auto found = configs.find(gen.target);
    if (found == configs.end())
        return fail(fmt::format("target '{}' has no code-generation configuration (targets/{}.json); see mclc "
                                "list-targets", gen.target, gen.target));
    std::optional<backends::TargetConfig> config = load_config(session, gen.target, found->second);
    if (!config) return session.report(err);
    if (!config->backend(gen.backend))
        return fail(fmt::format("target '{}' has no configuration for backend '{}' (it has: {})", gen.target,
                                gen.backend, fmt::join(config->backend_names(), ", ")));

    mcpl::Program program = load_and_check(session, options, {gen.files.front()});
    if (session.diags.has_errors() || program.roots.empty()) return session.report(err);
    // Before translation, whose guarded index arithmetic hides which
    // elements a loop writes.
    backends::WriteCoverage coverage = backends::WriteCoverage::of(*program.roots.front());
    translate::translate_program(program, gen.target, session.library, session.diags);
    if (!session.diags.has_errors()) lower::lower_for_engines(program, session.library, session.diags);
    if (session.diags.has_errors()) return session.report(err);

    const mcpl::Module& module = *program.roots.front();
    backends::GenerationInput input{program, module, *session.library.find(gen.target), *config,
                                    std::move(coverage), "", &session.library, gen.floating_point,
                                    gen.cpu, gen.min_blocks_per_processor};
    std::vector<backends::GeneratedFile> files = backend->generate(input, session.diags);
    int status = session.report(err);
    if (status != 0) return status;

    std::error_code ec;
    std::filesystem::create_directories(gen.output_dir, ec);
    if (ec) {
        err << fmt::format("mclc: error: cannot create directory '{}': {}\n", gen.output_dir, ec.message());
        return 1;
    }
    for (const backends::GeneratedFile& f : files) {
        std::filesystem::path path = std::filesystem::path(gen.output_dir) / f.name;
        std::string error;
        if (!write_output_file(path.string(), f.text, error)) {
            err << fmt::format("mclc: error: {}\n", error);
            return 1;
        }
    }
    return 0;
}

}  // namespace mcl::driver
