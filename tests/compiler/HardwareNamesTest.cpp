// Names that are also hardware descriptions: the user's variable wins where
// one is in scope; a function or record of that name does not hide the
// description's values; and a hardware value, once resolved (by the checker
// or written by translation), keeps its value whatever the kernel's own
// names are, so translation can check its output again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "compiler/ast/AstWalk.h"
#include "compiler/translate/Translate.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

// Every Var expression of a function's body, in order.
std::vector<const Expr*> vars_of(const Function& f) {
    std::vector<const Expr*> out;
    for_each_stmt(*f.body, [&](const Stmt& s) {
        for_each_own_expr(s, [&](const Expr& e) { for_each_var(e, [&](const Expr& v) { out.push_back(&v); }); });
    });
    return out;
}

const Function& function(const CheckedText& c, const std::string& name) {
    for (const auto& f : c.module()->functions)
        if (f->name == name) return *f;
    throw std::runtime_error("no function " + name);
}

TEST(HardwareNames, AVariableNamedLikeADescriptionIsTheVariable) {
    CheckedText c = check_text(R"(module t;
import gpu;
gpu void f(int gpu, int n, float[n] a) {
    foreach (int i in n blocks) { a[i] = toFloat(gpu); }
}
)");
    expect_clean(c);
    for (const Expr* v : vars_of(function(c, "f")))
        if (v->var[0].name == "gpu") {
            EXPECT_FALSE(v->hardware);
            EXPECT_EQ(v->decl, function(c, "f").params[0].get());
        }
}

TEST(HardwareNames, AFunctionNamedLikeADescriptionDoesNotHideItsValues) {
    CheckedText c = check_text(R"(module t;
import perfect;
import gpu;
perfect int gpu(int x) { return x; }
gpu void f(int n, float[n] a) {
    const int t = gpu.hierarchy.blocks.block.threads.max_nr_units;
    foreach (int i in n blocks) { a[i] = toFloat(t); }
}
)");
    expect_clean(c);
    const Decl* t = find_decl(c, "f", "t");
    ASSERT_TRUE(t && t->init);
    ASSERT_TRUE(t->init->hardware);
    EXPECT_EQ(t->init->hardware->value, 1024);
}

TEST(HardwareNames, AVariableInScopeIsNotAHardwareValue) {
    expect_error(R"(module t;
import gpu;
gpu void f(int gpu, int n, float[n] a) {
    foreach (int i in n blocks) { a[i] = toFloat(gpu.hierarchy.blocks.block.threads.max_nr_units); }
}
)",
                 "int has no field 'hierarchy'");
}

// Translation to gpu writes `gpu.hierarchy.blocks.block.threads.max_nr_units`
// into a kernel with a parameter `gpu`; checking the result again keeps the
// hardware value instead of reading the parameter's fields.
TEST(HardwareNames, TranslationIntoAKernelWithADescriptionsNameChecks) {
    CheckedText c = check_text(R"(module t;
import perfect;
import gpu;
import hopper;
perfect void f(int gpu, int hopper, float[gpu] a) {
    foreach (int i in gpu threads) { a[i] = toFloat(hopper); }
}
)");
    expect_clean(c);
    for (const char* target : {"gpu", "hopper"}) {
        CheckedText again = check_text(R"(module t;
import perfect;
import gpu;
import hopper;
perfect void f(int gpu, int hopper, float[gpu] a) {
    foreach (int i in gpu threads) { a[i] = toFloat(hopper); }
}
)");
        ASSERT_TRUE(translate::translate_program(again.program, target, *again.library, *again.diags))
            << again.text();
        // The user's gpu and hopper hide those descriptions: every use of the
        // names is the user's parameter, and the unit counts that translation
        // needs are numbers, not hardware values named by a hidden description.
        int user_uses = 0;
        for (const Expr* v : vars_of(function(again, "f"))) {
            const std::string& name = v->var.front().name;
            if (name == "gpu" || name == "hopper") {
                ++user_uses;
                EXPECT_FALSE(v->hardware) << target;
                EXPECT_TRUE(v->decl) << target;
            }
            if (v->hardware) {
                EXPECT_NE(v->hardware->description, target);
            }
        }
        EXPECT_GT(user_uses, 0) << target;
    }
}

}  // namespace
}  // namespace mcl::mcpl::testing
