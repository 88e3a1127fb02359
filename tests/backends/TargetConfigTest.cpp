// Target configurations: the built-in ones load, and every schema error is a
// located diagnostic that names the file (and a plausible correction).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "backends/Backend.h"
#include "backends/TargetConfig.h"
#include "hdl/HardwareLibrary.h"

namespace mcl::backends {
namespace {

using ::testing::HasSubstr;

struct Loaded {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    hdl::HardwareLibrary library{sources, diags};
    std::optional<TargetConfig> config;

    std::string text() const {
        std::string out;
        for (const Diagnostic& d : diags.diagnostics()) out += diags.format_text(d);
        return out;
    }
};

std::unique_ptr<Loaded> load(const std::string& json, const std::string& leaf = "x86_avx2") {
    auto l = std::make_unique<Loaded>();
    l->library.load(MCL_STDLIB_HW_DIR, {});
    l->config = parse_target_config("targets/x86_avx2.json", json, *l->library.find(leaf), l->sources, l->diags);
    return l;
}

const char* kValid = R"({
  "leaf": "x86_avx2",
  "backends": {
    "cpp": {
      "device_type": "cpu",
      "par_groups": { "threads": { "map": "parallel_for" }, "vectors": { "map": "simd_loop" } },
      "memory_spaces": { "main": { "qualifier": "" } },
      "builtins": { "sqrt": "std::sqrt" }
    },
    "opencl": {
      "device_type": "cpu",
      "par_groups": { "threads": { "index_query": "get_group_id" } },
      "memory_spaces": { "main": { "qualifier": "__global" } }
    }
  }
})";

TEST(TargetConfig, EveryBuiltInConfigurationLoads) {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    hdl::HardwareLibrary library{sources, diags};
    library.load(MCL_STDLIB_HW_DIR, {});
    auto configs = find_target_configs({MCL_STDLIB_HW_DIR});
    ASSERT_TRUE(configs.count("x86_avx2"));
    for (const auto& [leaf, path] : configs) {
        ASSERT_TRUE(library.find(leaf)) << leaf;
        EXPECT_TRUE(library.children(leaf).empty()) << leaf << " is not a leaf";
        auto config = load_target_config(path, *library.find(leaf), sources, diags);
        ASSERT_TRUE(config) << leaf;
        for (const std::string& b : config->backend_names()) {
            if (b == "cpp") {
                EXPECT_TRUE(find_backend(b)) << b;
            }
        }
    }
    EXPECT_FALSE(diags.has_errors());
}

TEST(TargetConfig, ValidConfigurationWithSeveralBackends) {
    auto l = load(kValid);
    ASSERT_TRUE(l->config) << l->text();
    EXPECT_EQ(l->config->leaf, "x86_avx2");
    EXPECT_EQ(l->config->backend_names(), (std::vector<std::string>{"cpp", "opencl"}));
    const BackendConfig* cpp = l->config->backend("cpp");
    ASSERT_TRUE(cpp);
    EXPECT_EQ(cpp->device_type, "cpu");
    EXPECT_EQ(cpp->par_groups.at("vectors").string("map"), "simd_loop");
    EXPECT_EQ(cpp->builtins.at("sqrt"), "std::sqrt");
    EXPECT_EQ(l->config->backend("opencl")->par_groups.at("threads").string("index_query"), "get_group_id");
    EXPECT_EQ(cpp->par_groups.at("vectors").location.line, 6u);
}

TEST(TargetConfig, UnknownParGroupIsLocatedWithSuggestion) {
    std::string json = kValid;
    json.replace(json.find("\"vectors\""), 9, "\"vector\"");
    auto l = load(json);
    EXPECT_FALSE(l->config);
    EXPECT_THAT(l->text(), HasSubstr("targets/x86_avx2.json:6:"));
    EXPECT_THAT(l->text(), HasSubstr("unknown par_group 'vector': 'x86_avx2' has no par_group of that name; did "
                                     "you mean 'vectors'?"));
}

TEST(TargetConfig, UnknownMemorySpace) {
    std::string json = kValid;
    json.replace(json.find("\"main\": { \"qualifier\": \"\""), 6, "\"local\"");
    auto l = load(json);
    EXPECT_FALSE(l->config);
    EXPECT_THAT(l->text(), HasSubstr("targets/x86_avx2.json:7:"));
    EXPECT_THAT(l->text(), HasSubstr("unknown memory space 'local'"));
}

TEST(TargetConfig, MissingFields) {
    std::string json = kValid;
    json.erase(json.find("\"device_type\": \"cpu\","), 21);
    auto l = load(json);
    EXPECT_FALSE(l->config);
    EXPECT_THAT(l->text(), HasSubstr("targets/x86_avx2.json:4:5: error: backend 'cpp' has no string field "
                                     "\"device_type\""));

    auto no_backends = load(R"({ "leaf": "x86_avx2" })");
    EXPECT_FALSE(no_backends->config);
    EXPECT_THAT(no_backends->text(), HasSubstr("targets/x86_avx2.json: error: missing object field \"backends\""));

    auto no_groups = load(R"({ "leaf": "x86_avx2", "backends": { "cpp": { "device_type": "cpu",
        "memory_spaces": {} } } })");
    EXPECT_THAT(no_groups->text(), HasSubstr("backend 'cpp' has no field \"par_groups\""));
}

TEST(TargetConfig, WrongLeafAndUnknownField) {
    std::string json = kValid;
    json.replace(json.find("\"x86_avx2\""), 10, "\"hopper\"");
    auto l = load(json);
    EXPECT_FALSE(l->config);
    EXPECT_THAT(l->text(), HasSubstr("targets/x86_avx2.json:2:3: error: \"leaf\" is 'hopper', but this is the "
                                     "configuration of 'x86_avx2'"));

    auto extra = load(R"({ "leaf": "x86_avx2", "backend": {} })");
    EXPECT_THAT(extra->text(), HasSubstr("unknown field \"backend\" in target configuration; did you mean "
                                         "'backends'?"));
}

TEST(TargetConfig, BuiltinsMustBeStrings) {
    std::string json = kValid;
    json.replace(json.find("\"std::sqrt\""), 11, "42");
    auto l = load(json);
    EXPECT_FALSE(l->config);
    EXPECT_THAT(l->text(), HasSubstr("targets/x86_avx2.json:8:"));
    EXPECT_THAT(l->text(), HasSubstr("builtin 'sqrt' of backend 'cpp' must be spelt by a non-empty string"));
}

// The device match of the runtime: three strings, a known device type and
// valid regular expressions, each error at its key.
std::string with_match(const std::string& match) {
    std::string json = kValid;
    json.insert(json.rfind('}'), ",\n  \"match\": " + match + "\n");
    return json;
}

TEST(TargetConfig, DeviceMatch) {
    auto l = load(with_match(R"({ "device_type": "cpu", "vendor": "Intel|AMD", "name": "." })"));
    ASSERT_TRUE(l->config) << l->text();
    ASSERT_TRUE(l->config->match);
    EXPECT_EQ(l->config->match->device_type, "cpu");
    EXPECT_EQ(l->config->match->vendor, "Intel|AMD");
    EXPECT_FALSE(load(kValid)->config->match);

    auto type = load(with_match(R"({ "device_type": "fpga", "vendor": "X", "name": "." })"));
    EXPECT_FALSE(type->config);
    EXPECT_THAT(type->text(), HasSubstr("device_type 'fpga' is not cpu, gpu or accelerator"));
    auto regex = load(with_match(R"({ "device_type": "gpu", "vendor": "[", "name": "." })"));
    EXPECT_THAT(regex->text(), HasSubstr("error: \"vendor\" is not a valid regular expression"));
    auto missing = load(with_match(R"({ "device_type": "gpu", "vendor": "NVIDIA", "nmae": "H100" })"));
    EXPECT_THAT(missing->text(), HasSubstr("unknown field \"nmae\" in \"match\"; did you mean 'name'?"));
    EXPECT_THAT(missing->text(), HasSubstr("\"match\" has no string field \"name\""));
}

TEST(TargetConfig, InvalidJsonIsLocated) {
    auto l = load("{\n  \"leaf\": \"x86_avx2\",\n  \"backends\": { ,\n}\n");
    EXPECT_FALSE(l->config);
    EXPECT_THAT(l->text(), HasSubstr("targets/x86_avx2.json:3:17: error: invalid JSON in target configuration"));
}

TEST(Backends, RegistryKnowsEveryBackend) {
#ifdef MCL_WITH_LLVM
    const std::vector<std::string> all = {"cpp", "cuda", "hls", "llvm", "opencl"};
#else
    const std::vector<std::string> all = {"cpp", "cuda", "hls", "opencl"};
#endif
    for (const std::string& name : all) {
        ASSERT_TRUE(find_backend(name)) << name;
        EXPECT_EQ(find_backend(name)->name(), name);
    }
    EXPECT_FALSE(find_backend("fortran"));
    EXPECT_EQ(backend_names(), all);
}

}  // namespace
}  // namespace mcl::backends
