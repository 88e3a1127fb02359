#include "tests/compiler/McplTestSupport.h"

#include <sstream>

#include <gtest/gtest.h>

#include "compiler/ast/AstJson.h"
#include "compiler/parse/ParseMcpl.h"
#include "compiler/print/PrintMcpl.h"

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

void expect_round_trip(const std::string& text) {
    ParsedModule original = parse_text(text);
    ASSERT_NE(original.module, nullptr) << original.text() << "\n" << text;
    std::string printed = print_module(*original.module);
    ParsedModule reparsed = parse_text(printed, "printed.mcl");
    ASSERT_NE(reparsed.module, nullptr) << reparsed.text() << "\n" << printed;
    EXPECT_EQ(print_module(*reparsed.module), printed);
    EXPECT_EQ(ast_skeleton(reparsed), ast_skeleton(original)) << printed;
}

}  // namespace mcl::mcpl::testing
