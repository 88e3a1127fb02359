#include "tests/compiler/McplTestSupport.h"

#include <sstream>

#include "compiler/ast/AstJson.h"
#include "compiler/parse/ParseMcpl.h"

namespace mcl::mcpl::testing {

namespace {

void strip_locations(nlohmann::json& j) {
    if (j.is_array()) {
        for (auto& element : j) strip_locations(element);
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end();) {
            const std::string& key = it.key();
            if (key == "loc" || key == "file" || key.ends_with("_loc")) {
                it = j.erase(it);
            } else {
                strip_locations(*it);
                ++it;
            }
        }
    }
}

}  // namespace

std::string ParsedModule::text() const {
    std::ostringstream out;
    diags->print_text(out);
    return out.str();
}

ParsedModule parse_text(const std::string& text, const std::string& path) {
    ParsedModule parsed;
    uint32_t file = parsed.sources->add_buffer(path, text);
    parsed.module = parse_mcpl(file, *parsed.sources, *parsed.diags);
    return parsed;
}

nlohmann::json ast_skeleton(const ParsedModule& parsed) {
    nlohmann::json j = module_to_json(*parsed.module, *parsed.sources);
    strip_locations(j);
    return j;
}

}  // namespace mcl::mcpl::testing
