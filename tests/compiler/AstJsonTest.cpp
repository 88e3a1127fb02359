// The JSON dump of the MCPL AST: valid JSON with kinds, names and locations
// after parsing; the checker's annotations once they are set, by hand and by
// the front end on example kernels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ast/AstJson.h"
#include "tests/compiler/CompilerTestSupport.h"
#include "tests/compiler/McplTestSupport.h"

namespace mcl::mcpl {
namespace {

using nlohmann::json;
using testing::check_files;
using testing::check_text;
using testing::CheckedText;
using testing::parse_text;
using testing::ParsedModule;

const char* const kSource = R"(package lib.demo;
module demo;
export scale;
import perfect;

const int N = 4;
type Pair { int first; float second; }

perfect void scale(int n, float[n, N] a, const float f) {
    foreach (int i in n threads) {
        a[i, 0] = a[i, 0] * f + sqrt(2.5f);
    }
    barrier(local);
    toFloat(n);
}
)";

// Every object that has a "kind" also has a location of two positive numbers.
void expect_located(const json& j) {
    if (j.is_array()) {
        for (const json& element : j) expect_located(element);
    } else if (j.is_object()) {
        if (j.contains("kind")) {
            ASSERT_TRUE(j.contains("loc")) << j.dump();
            ASSERT_TRUE(j["loc"].is_array());
            ASSERT_EQ(j["loc"].size(), 2u);
            EXPECT_GT(j["loc"][0].get<int>(), 0);
            EXPECT_GT(j["loc"][1].get<int>(), 0);
        }
        for (const auto& item : j.items()) expect_located(item.value());
    }
}

TEST(AstJson, ParsedModule) {
    ParsedModule parsed = parse_text(kSource, "demo.mcl");
    ASSERT_NE(parsed.module, nullptr) << parsed.text();
    json j = module_to_json(*parsed.module, *parsed.sources);

    EXPECT_EQ(json::parse(j.dump()), j);
    expect_located(j);

    EXPECT_EQ(j["kind"], "module");
    EXPECT_EQ(j["file"], "demo.mcl");
    EXPECT_EQ(j["name"], "demo");
    EXPECT_EQ(j["loc"], json::array({2, 8}));
    EXPECT_EQ(j["package"], json::array({"lib", "demo"}));
    EXPECT_EQ(j["checked"], false);
    EXPECT_EQ(j["exports"][0]["name"], "scale");
    EXPECT_EQ(j["imports"][0]["name"], "perfect");

    const json& constant = j["constants"][0];
    EXPECT_EQ(constant["const"], true);
    EXPECT_EQ(constant["forms"][0]["name"], "N");
    EXPECT_EQ(constant["forms"][0]["type"], "int");
    EXPECT_EQ(constant["init"]["kind"], "int");
    EXPECT_EQ(constant["init"]["value"], 4);

    EXPECT_EQ(j["records"][0]["name"], "Pair");
    EXPECT_EQ(j["records"][0]["fields"][1]["forms"][0]["type"], "float");

    const json& f = j["functions"][0];
    EXPECT_EQ(f["name"], "scale");
    EXPECT_EQ(f["hardware"], "perfect");
    EXPECT_EQ(f["return_type"], "void");
    EXPECT_EQ(f["loc"], json::array({9, 14}));
    EXPECT_EQ(f["params"][1]["forms"][0]["type"], "float[n, N]");
    EXPECT_EQ(f["params"][2]["const"], true);
    EXPECT_FALSE(f.contains("reads")) << "no annotations before checking";

    const json& foreach = f["body"]["body"][0];
    EXPECT_EQ(foreach["kind"], "foreach");
    EXPECT_EQ(foreach["index"]["forms"][0]["name"], "i");
    EXPECT_EQ(foreach["par_group"]["name"], "threads");
    EXPECT_EQ(foreach["count"]["parts"][0]["name"], "n");

    const json& assign = foreach["body"]["body"][0];
    EXPECT_EQ(assign["kind"], "assign");
    EXPECT_EQ(assign["op"], "=");
    EXPECT_EQ(assign["target"]["parts"][0]["indices"][0][1]["value"], 0);
    const json& sum = assign["value"];
    EXPECT_EQ(sum["kind"], "binary");
    EXPECT_EQ(sum["op"], "+");
    EXPECT_EQ(sum["args"][1]["kind"], "call");
    EXPECT_EQ(sum["args"][1]["callee"], "sqrt");
    EXPECT_EQ(sum["args"][1]["args"][0]["spelling"], "2.5f");
    EXPECT_FALSE(sum.contains("type"));

    EXPECT_EQ(f["body"]["body"][1]["kind"], "barrier");
    EXPECT_EQ(f["body"]["body"][1]["memory_space"]["name"], "local");
}

TEST(AstJson, CheckerAnnotations) {
    ParsedModule parsed = parse_text(kSource, "demo.mcl");
    ASSERT_NE(parsed.module, nullptr) << parsed.text();
    // Set by hand what the checker would set.
    Module& m = *parsed.module;
    Function& f = *m.functions[0];
    f.module = &m;
    f.resolved_return_type.primitive = Primitive::Void;
    f.params[0]->is_read = true;
    f.params[1]->is_read = true;
    f.params[1]->is_written = true;
    f.params[1]->memory_space = "main";
    f.params[2]->is_read = true;
    Stmt& assign = *f.body->body[0]->loop_body->body[0];
    assign.value->type.primitive = Primitive::Float;
    assign.target->decl = f.params[1].get();
    Expr& sqrt_call = *assign.value->args[1];
    sqrt_call.function = &f;  // stands in for lib.math's sqrt
    Expr& f_var = *assign.value->args[0]->args[1];
    f_var.hardware = HardwareValue{"perfect", {"hierarchy", "threads", "max_nr_units"}, 1024};

    json j = module_to_json(m, *parsed.sources);
    EXPECT_EQ(j["checked"], true);
    const json& fj = j["functions"][0];
    EXPECT_EQ(fj["reads"], json::array({"n", "a", "f"}));
    EXPECT_EQ(fj["writes"], json::array({"a"}));
    EXPECT_EQ(fj["resolved_return_type"], "void");
    EXPECT_EQ(fj["params"][1]["memory_space"], "main");
    EXPECT_EQ(fj["params"][1]["written"], true);
    EXPECT_EQ(fj["params"][0]["written"], false);

    const json& aj = fj["body"]["body"][0]["body"]["body"][0];
    EXPECT_EQ(aj["value"]["type"], "float");
    EXPECT_EQ(aj["target"]["declaration"]["name"], "a");
    EXPECT_EQ(aj["target"]["declaration"]["loc"], json::array({9, 39}));
    EXPECT_EQ(aj["value"]["args"][1]["target"]["name"], "scale");
    EXPECT_EQ(aj["value"]["args"][1]["target"]["module"], "demo");
    EXPECT_EQ(aj["value"]["args"][0]["args"][1]["hardware"]["value"], 1024);
    EXPECT_EQ(aj["value"]["args"][0]["args"][1]["hardware"]["path"][2], "max_nr_units");
    // A call the checker left without a function is a builtin.
    EXPECT_EQ(fj["body"]["body"][2]["call"]["target"], "builtin");
}

TEST(AstJson, CheckedGpuKernel) {
    CheckedText checked = check_files({MCL_EXAMPLES_DIR "/matmul/matmul_gpu.mcl"});
    ASSERT_NE(checked.module(), nullptr) << checked.text();
    ASSERT_FALSE(checked.diags->has_errors()) << checked.text();
    json j = module_to_json(*checked.module(), *checked.sources);
    expect_located(j);
    EXPECT_EQ(j["checked"], true);

    const json& f = j["functions"][0];
    EXPECT_EQ(f["reads"], json::array({"n", "m", "p", "c", "a", "b"}));
    EXPECT_EQ(f["writes"], json::array({"c"}));
    EXPECT_EQ(f["params"][3]["memory_space"], "dev");
    EXPECT_EQ(f["params"][3]["forms"][0]["resolved_type"], "float[,]");

    // const int nrThreadsM = gpu.hierarchy.blocks.block.threads.max_nr_units;
    const json& threads = f["body"]["body"][0]["decl"]["init"];
    EXPECT_EQ(threads["hardware"]["description"], "gpu");
    EXPECT_GT(threads["hardware"]["value"].get<int64_t>(), 0);
    EXPECT_EQ(threads["type"], "int");
    // const int nrBlocksM = divide_up(m, nrThreadsM);
    const json& blocks = f["body"]["body"][1]["decl"]["init"];
    EXPECT_EQ(blocks["target"], "builtin");
    EXPECT_EQ(blocks["args"][1]["declaration"]["name"], "nrThreadsM");
}

TEST(AstJson, VariablesNameTheirAsView) {
    CheckedText checked = check_text("module m;\nimport perfect;\n"
                                     "perfect void f(int[2, 3] a as int[6] b) {\n"
                                     "    b[0] = a[1, 1];\n"
                                     "}\n");
    ASSERT_NE(checked.module(), nullptr) << checked.text();
    ASSERT_FALSE(checked.diags->has_errors()) << checked.text();
    json j = module_to_json(*checked.module(), *checked.sources);
    const json& assign = j["functions"][0]["body"]["body"][0];
    EXPECT_EQ(assign["target"]["declaration"]["name"], "b");
    EXPECT_EQ(assign["target"]["declaration"]["loc"], json::array({3, 38}));
    EXPECT_EQ(assign["value"]["declaration"]["name"], "a");
    EXPECT_EQ(assign["value"]["declaration"]["loc"], json::array({3, 26}));
}

TEST(AstJson, CallIntoAnImportedModule) {
    CheckedText checked =
        check_files({MCL_EXAMPLES_DIR "/complexmul/complexmul.mcl"}, {MCL_EXAMPLES_DIR});
    ASSERT_NE(checked.module(), nullptr) << checked.text();
    ASSERT_FALSE(checked.diags->has_errors()) << checked.text();
    json j = module_to_json(*checked.module(), *checked.sources);

    // foreach (...) { Complex t; mul(t, a[i], b[i]); ... }
    const json& call = j["functions"][0]["body"]["body"][0]["body"]["body"][1]["call"];
    EXPECT_EQ(call["callee"], "mul");
    EXPECT_EQ(call["target"]["name"], "mul");
    EXPECT_EQ(call["target"]["module"], "complex");
    EXPECT_THAT(call["target"]["file"].get<std::string>(), ::testing::EndsWith("lib/math/complex.mcl"));
    EXPECT_EQ(j["functions"][0]["writes"], json::array({"c"}));
}

}  // namespace
}  // namespace mcl::mcpl
