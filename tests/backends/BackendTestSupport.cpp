#include "tests/backends/BackendTestSupport.h"

#include <gtest/gtest.h>

#include "backends/TargetConfig.h"
#include "compiler/translate/Translate.h"

namespace mcl::backends::testing {

std::string Generated::file(const std::string& name) const {
    for (const GeneratedFile& f : files)
        if (f.name == name) return f.text;
    return "";
}

Generated generate(const std::string& text, const std::string& leaf, const std::string& backend,
                   const std::string& config_text) {
    Generated g{mcpl::testing::check_text(text), {}};
    auto& c = g.checked;
    if (c.diags->has_errors() || !c.module()) return g;
    WriteCoverage coverage = WriteCoverage::of(*c.module());
    if (!translate::translate_program(c.program, leaf, *c.library, *c.diags)) return g;
    const hdl::HardwareModel* model = c.library->find(leaf);
    std::string path = std::string(MCL_STDLIB_HW_DIR) + "/targets/" + leaf + ".json";
    std::optional<TargetConfig> config =
        config_text.empty() ? load_target_config(path, *model, *c.sources, *c.diags)
                            : parse_target_config("test-config.json", config_text, *model, *c.sources, *c.diags);
    if (!config) return g;
    const Backend* b = find_backend(backend);
    if (!b) {
        ADD_FAILURE() << "no backend " << backend;
        return g;
    }
    g.files = b->generate(GenerationInput{c.program, *c.module(), *model, *config, std::move(coverage)}, *c.diags);
    return g;
}

}  // namespace mcl::backends::testing
