// Name resolution and type checking: every rule with a bad input whose
// message and file:line:col are checked, and the good cases around them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/LargeStack.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct BadCase {
    const char* rule;
    std::string text;
    const char* expected;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.rule; }

// Wraps function text in a module that imports perfect and gpu.
std::string module(const std::string& body) {
    return "module t;\nimport perfect;\nimport gpu;\n" + body;
}

std::vector<BadCase> bad_cases() {
    return {
        {"syntax error", module("perfect void f(int n) { n = ; }\n"), "t.mcl:4:29: error: syntax error"},
        {"unknown hardware description", module("perfekt void f() { }\n"),
         "t.mcl:4:1: error: unknown hardware description 'perfekt'; did you mean 'perfect'?"},
        {"undeclared identifier", module("perfect void f(int n, float[n] a) { a[0] = nn; }\n"),
         "t.mcl:4:44: error: use of undeclared identifier 'nn'; did you mean 'n'?"},
        {"redefinition of a local", module("perfect void f(int n) { int x = 1; float x = 2.0; }\n"),
         "t.mcl:4:42: error: redefinition of 'x'"},
        {"redefinition of a function", module("perfect void f() { }\nperfect void f() { }\n"),
         "t.mcl:5:14: error: redefinition of 'f'"},
        {"unknown type", module("perfect void f(int n, Compex[n] a) { }\n"),
         "t.mcl:4:23: error: unknown type 'Compex'"},
        {"void variable", module("perfect void f() { void x; }\n"),
         "t.mcl:4:20: error: 'void' is only a function's return type"},
        {"wrong number of indices", module("perfect void f(int n, float[n,n] a) { a[0] = 1.0; }\n"),
         "t.mcl:4:41: error: 'a' of type float[,] takes 2 indices here, not 1"},
        {"too many index groups", module("perfect void f(int n, float[n] a) { a[0][1] = 1.0; }\n"),
         "t.mcl:4:37: error: 'a' of type float[] has 1 index group, not 2"},
        {"index is not an int", module("perfect void f(int n, float[n] a) { a[1.5] = 1.0; }\n"),
         "t.mcl:4:39: error: an index must be an int, not float"},
        {"unknown field", module("type C { float re; float im; }\nperfect void f(C c) { c.real = 1.0; }\n"),
         "t.mcl:5:25: error: record 'C' has no field 'real'"},
        {"field of a non-record", module("perfect void f(float x) { x.y = 1.0; }\n"),
         "t.mcl:4:29: error: float has no field 'y'"},
        {"assign bool to float", module("perfect void f(float x) { x = true; }\n"),
         "t.mcl:4:31: error: cannot assign bool to float"},
        {"compound assignment on bool", module("perfect void f(bool b) { b += true; }\n"),
         "t.mcl:4:26: error: '+=' needs numbers, not bool and bool"},
        {"assign to a whole array", module("perfect void f(int n, float[n] a, float[n] b) { a = b; }\n"),
         "t.mcl:4:49: error: cannot assign to a whole array of type float[]; index it"},
        {"modulo on floats", module("perfect void f(float x) { x = x % 2.0; }\n"),
         "t.mcl:4:33: error: '%' needs ints, not float and float"},
        {"condition must be bool or int", module("perfect void f(float x) { if (x) { x = 1.0; } }\n"),
         "t.mcl:4:31: error: a condition must be bool or int, not float"},
        {"call to an undeclared function", module("perfect void f(float x) { x = sqr(x); }\n"),
         "t.mcl:4:31: error: call to undeclared function 'sqr'"},
        {"wrong number of arguments", module("perfect float g(float y) { return y; }\nperfect void f(float x) { x = g(x, x); }\n"),
         "t.mcl:5:31: error: 'g' takes 1 argument, not 2"},
        {"wrong argument type", module("perfect void g(int n, float[n] a) { }\nperfect void f(int n, int[n] b) { g(n, b); }\n"),
         "t.mcl:5:40: error: argument 2 of 'g' must be float[], not int[]"},
        {"wrong argument type for a function defined later",
         module("perfect void f(int n, float[n] b) { b[0] = g(b[0], 3.5); }\nperfect float g(float x, int[4] y) { return x; }\n"),
         "t.mcl:4:52: error: argument 2 of 'g' must be int[], not float"},
        {"float literal past a float beside a float",
         module("perfect void f(double d, float x) { d = x * 1e300; }\n"),
         "t.mcl:4:45: error: floating literal '1e300' is too large for a float (at most 3.4028235e+38); beside a "
         "float operand a literal is a float: make that operand a double (toDouble) to keep the literal a double"},
        {"float literal past a float in a float's initializer", module("perfect void f(float x) { x = 1e300; }\n"),
         "t.mcl:4:31: error: floating literal '1e300' is too large for a float (at most 3.4028235e+38)\n"},
        {"float literal past a double beside a float", module("perfect void f(double d, float x) { d = min(x, 1e999); }\n"),
         "t.mcl:4:48: error: floating literal '1e999' is too large for a float (at most 3.4028235e+38)\n"},
        {"float literal rounding to zero beside a float in a comparison",
         module("perfect void f(bool b, float x) { b = x > -1e-60; }\n"),
         "t.mcl:4:44: error: floating literal '1e-60' is too small for a float: it would be 0 (the smallest is 1e-45); "
         "beside a float operand a literal is a float: make that operand a double (toDouble) to keep the literal a double"},
        {"double literal past a double", module("perfect void f(double d) { d = 1e-330; }\n"),
         "t.mcl:4:32: error: floating literal '1e-330' is too small for a double: it would be 0 (the smallest is 5e-324)"},
        {"suffixed literal where a double is wanted", module("perfect void f(double d) { d = 1e-50f; }\n"),
         "t.mcl:4:32: error: floating literal '1e-50f' is too small for a float: it would be 0 (the smallest is 1e-45)"},
        {"builtin arity", module("perfect void f(float x) { x = min(x); }\n"),
         "t.mcl:4:31: error: 'min' takes 2 arguments, not 1"},
        {"divide_up needs ints", module("perfect void f(float x, int n) { n = divide_up(x, n); }\n"),
         "t.mcl:4:48: error: 'divide_up' needs ints, not float"},
        {"return type mismatch", module("perfect bool f(float x) { return x; }\n"),
         "t.mcl:4:34: error: 'f' returns bool, not float"},
        {"value returned from void", module("perfect void f(float x) { return x; }\n"),
         "t.mcl:4:34: error: 'f' returns void, not a value"},
        {"missing return value", module("perfect float f(float x) { return; }\n"),
         "t.mcl:4:28: error: 'f' must return a float"},
        {"array size over a local", module("perfect void f(int n) { int m = n; float[m] a; }\n"),
         "t.mcl:4:42: error: an array size must be constant: 'm' is neither a parameter nor a constant"},
        {"array size over a foreach index",
         module("perfect void f(int n) { foreach (int i in n threads) { float[i] a; } }\n"),
         "t.mcl:4:62: error: an array size must be constant: 'i' is neither a parameter nor a constant"},
        {"array size is not an int", module("perfect void f(float x) { float[x] a; }\n"),
         "t.mcl:4:33: error: an array size must be an int, not float"},
        {"constant without a value", module("perfect void f() { const int c; }\n"),
         "t.mcl:4:20: error: constant 'c' needs a value"},
        {"array initializer", module("perfect void f(int n) { float[n] a = 1.0; }\n"),
         "t.mcl:4:38: error: an array cannot be initialized in its declaration"},
        {"hardware value with a bad path",
         module("gpu void f() { const int t = gpu.hierarchy.threads.max; }\n"),
         "t.mcl:4:30: error: 'gpu.hierarchy.threads.max' is not a hardware value"},
        {"hardware value of the wrong kind",
         module("gpu void f() { const int t = gpu.hierarchy.blocks.block.threads.nr_units; }\n"),
         "t.mcl:4:65: error: par_group 'threads' of 'gpu' has 'max_nr_units', not 'nr_units'"},
        {"unlimited hardware value",
         module("perfect void f() { const int t = perfect.hierarchy.threads.max_nr_units; }\n"),
         "t.mcl:4:34: error: par_group 'threads' of 'perfect' has an unlimited number of units"},
        {"processors of a description with unlimited ones",
         module("perfect void f() { const int p = perfect.hierarchy.threads.nr_processors; }\n"),
         "t.mcl:4:60: error: no execution unit of 'perfect' has a fixed number of slots for 'thread' units"},
        {"builtin read outside a library function",
         module("perfect void f(float x) { x = 1.0; mcl_builtin_read(x); }\n"),
         "t.mcl:4:36: error: 'mcl_builtin_read' is only allowed in a library function"},
        {"export of an undefined name", "module t;\nexport g;\nimport perfect;\nperfect void f() { }\n",
         "t.mcl:2:8: error: module 't' exports 'g', which it does not define"},
        {"missing module", module("import lib.nothing;\nperfect void f() { }\n"),
         "t.mcl:4:8: error: cannot find 'lib.nothing': it is neither a hardware description nor a module "
         "'lib/nothing.mcl' under an include root"},
        {"module importing itself", "package p;\nmodule t;\nimport p.t;\n", "t.mcl:3:8: error: module 'p.t' imports itself"},
        {"swap of different types", module("perfect void f(float x, int y) { x <=> y; }\n"),
         "t.mcl:4:34: error: cannot swap float and int"},
        {"as view with other elements",
         module("perfect void f() { int[2,3] a as float[6] b; }\n"),
         "t.mcl:4:43: error: 'b' views 'a' as float[], but its elements are int"},
        {"step on a bool", module("perfect void f(bool b) { b++; }\n"), "t.mcl:4:26: error: '++' needs a number, not bool"},
        {"calling a variable", module("perfect void f(float x) { x = x(1); }\n"),
         "t.mcl:4:31: error: cannot call 'x': it names a variable here"},
        {"calling a function a local hides",
         module("perfect float g(float y) { return y; }\nperfect void f(float x) { float g = 1.0; x = g(x); }\n"),
         "t.mcl:5:46: error: cannot call 'g': it names a variable here"},
        {"function used as a variable", module("perfect float g() { return 1.0; }\nperfect void f(float x) { x = g; }\n"),
         "t.mcl:5:31: error: 'g' is a function; call it with (...)"},
        {"record containing itself", module("type R { float x; R next; }\nperfect void f() { }\n"),
         "t.mcl:4:19: error: record 'R' contains itself"},
        {"function returning an array", module("perfect float[2] g() { float[2] a; return a; }\n"),
         "t.mcl:4:9: error: 'g' returns float[]: a function returns a number, a bool or a record; give an array "
         "back through a parameter it writes"},
        {"function that can end without a return",
         module("perfect float pick(int i) { if (i > 3) { return 1.0; } }\n"),
         "t.mcl:4:15: error: control can reach the end of 'pick', which returns float, without a return"},
        {"function whose loop can end without a return",
         module("perfect int first(int n) { for (int i = 0; i < n; i++) { return i; } }\n"),
         "t.mcl:4:13: error: control can reach the end of 'first', which returns int, without a return"},
        {"function whose else branch ends without a return",
         module("perfect int sign(int i) { if (i < 0) { return -1; } else if (i > 0) { return 1; } }\n"),
         "t.mcl:4:13: error: control can reach the end of 'sign', which returns int, without a return"},
    };
}

class BadMcpl : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadMcpl, ReportsLocatedError) {
    const BadCase& c = GetParam();
    CheckedText r = check_text(c.text);
    EXPECT_THAT(r.text(), HasSubstr(c.expected)) << "rule: " << c.rule;
    EXPECT_TRUE(r.diags->has_errors());
}

INSTANTIATE_TEST_SUITE_P(AllRules, BadMcpl, ::testing::ValuesIn(bad_cases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             std::string name;
                             for (char ch : std::string(info.param.rule))
                                 name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                             return name;
                         });

TEST(ResolveNames, HardwareNotImportedIsAWarning) {
    CheckedText r = check_text("module t;\nperfect void f() { }\n");
    EXPECT_THAT(r.text(), HasSubstr("t.mcl:2:1: warning: function 'f' targets 'perfect', which module 't' does "
                                    "not import; add 'import perfect;'"));
    EXPECT_FALSE(r.diags->has_errors());
}

TEST(ResolveNames, FunctionsThatReturnOnEveryPathCheck) {
    CheckedText r = check_text(module(R"(perfect int sign(int i) {
    if (i < 0) { return -1; } else { if (i > 0) { return 1; } else { return 0; } }
}
perfect float late(float x) {
    float y = x;
    return y;
    y = 2.0;
}
perfect int forever(int n) {
    for (int i = 0; true; i++) { if (i * i >= n) { return i; } }
}
perfect int chosen(int n) {
    if (true) { return n; }
}
)"));
    EXPECT_FALSE(r.diags->has_errors()) << r.text();
}

TEST(ResolveNames, LiteralsWhereADoubleIsWantedAreDoubles) {
    CheckedText r = check_text(module(R"(perfect double f(double d, float x) {
    d = 1e-300;
    d = -(1.0 / 3) * d + x * 0.5;
    return 1e300 + min(d, 0.25f);
}
)"));
    ASSERT_FALSE(r.diags->has_errors()) << r.text();
    const Stmt& body = *r.module()->functions[0]->body;
    EXPECT_EQ(body.body[0]->value->type.str(), "double");
    const Expr& sum = *body.body[1]->value;
    const Expr& negated_third = *sum.args[0]->args[0];
    EXPECT_EQ(negated_third.type.str(), "double");
    EXPECT_EQ(negated_third.args[0]->type.str(), "double");            // 1.0 / 3
    EXPECT_EQ(negated_third.args[0]->args[1]->type.str(), "int");      // 3
    EXPECT_EQ(sum.args[1]->args[1]->type.str(), "float");              // 0.5 beside a float
    const Expr& returned = *body.body[2]->value;
    EXPECT_EQ(returned.args[0]->type.str(), "double");                 // 1e300
    EXPECT_EQ(returned.args[1]->args[1]->type.str(), "float");         // 0.25f
}

TEST(ResolveNames, AnnotatesTypesDeclsAndHardwareValues) {
    CheckedText r = check_text(module(R"(gpu void f(int n, float[n] a) {
    const int t = gpu.hierarchy.blocks.block.threads.max_nr_units;
    foreach (int b in divide_up(n, t) blocks) {
        foreach (int i in t threads) {
            int k = b * t + i;
            if (k < n) { a[k] = toFloat(k) ^ 2; }
        }
    }
}
)"));
    ASSERT_EQ(r.text(), "");
    const Function& f = *r.module()->functions[0];
    const Stmt& decl = *f.body->body[0];
    EXPECT_EQ(decl.decl->init->hardware->value, 1024);
    EXPECT_EQ(decl.decl->init->type.str(), "int");
    const Stmt& inner = *f.body->body[1]->loop_body->body[0]->loop_body->body[1];
    const Expr& target = *inner.then_branch->body[0]->target;
    EXPECT_EQ(target.decl, f.params[1].get());
    EXPECT_EQ(target.type.str(), "float");
    EXPECT_EQ(inner.then_branch->body[0]->value->type.str(), "float");
}

TEST(ResolveNames, ProcessorsAreAHardwareValue) {
    CheckedText r = check_text(module("gpu void f() { const int p = gpu.hierarchy.blocks.nr_processors; }\n"));
    ASSERT_EQ(r.text(), "");
    const Expr& value = *r.module()->functions[0]->body->body[0]->decl->init;
    EXPECT_EQ(value.hardware->value, 16);  // gpu's representative 16 processors
    EXPECT_EQ(value.type.str(), "int");
}

std::string chain(int terms) {
    std::string s = "1";
    for (int i = 1; i < terms; ++i) s += " + 1";
    return s;
}

TEST(ResolveNames, LongOperatorChainsAreRejectedNotOverflowed) {
    CheckedText r = check_text(module("perfect void f(int x) { x = " + chain(100000) + "; }\n"));
    EXPECT_THAT(r.text(), HasSubstr("error: statement longer than 4000 tokens"));
}

TEST(ResolveNames, ChainsBelowTheLimitCheck) {
    // On the stack mclc gives its work: the recursion a chain at the limit
    // needs fits there in every build, sanitizers' included.
    std::string errors;
    mcl::run_on_large_stack([&] {
        errors = check_text(module("perfect void f(int x) { x = " + chain(1990) + "; }\n")).text();
        return 0;
    });
    EXPECT_EQ(errors, "");
}

TEST(ResolveNames, ImportsSeeOnlyExports) {
    namespace fs = std::filesystem;
    fs::path root = fs::temp_directory_path() / "mcl_resolve_imports";
    fs::create_directories(root / "lib");
    std::ofstream(root / "lib" / "util.mcl") << "package lib;\nmodule util;\nexport twice;\nimport perfect;\n"
                                                "perfect float twice(float x) { return 2.0 * x; }\n"
                                                "perfect float hidden(float x) { return x; }\n";
    std::ofstream(root / "app.mcl") << "module app;\nimport perfect;\nimport lib.util;\n"
                                       "perfect void f(float x) { x = twice(x); x = hidden(x); }\n";
    CheckedText r = check_files({(root / "app.mcl").string()}, {root.string()});
    EXPECT_THAT(r.text(), HasSubstr("app.mcl:4:45: error: call to undeclared function 'hidden'"));
    EXPECT_THAT(r.text(), Not(HasSubstr("'twice'")));
    fs::remove_all(root);
}

// A call's type is its callee's return type wherever the callee is
// defined: min of a float call and a float is a float (left untyped, the
// interpreter took min as ints and gave 0 for min(fabs(0.73), 10.0)).
TEST(ResolveNames, CallsToLaterAndImportedFunctionsHaveTheirTypes) {
    namespace fs = std::filesystem;
    fs::path root = fs::temp_directory_path() / "mcl_resolve_call_types";
    fs::create_directories(root / "lib");
    std::ofstream(root / "lib" / "util.mcl") << "package lib;\nmodule util;\nexport twice;\nimport perfect;\n"
                                                "perfect float twice(float x) { return 2.0 * x; }\n";
    std::ofstream(root / "app.mcl") << "module app;\nimport perfect;\nimport lib.util;\n"
                                       "perfect void f(float x, float y) { x = min(twice(x), 10.0); y = max(half(y), 1.0); }\n"
                                       "perfect float half(float v) { return v / 2.0; }\n";
    CheckedText r = check_files({(root / "app.mcl").string()}, {root.string()});
    ASSERT_EQ(r.text(), "");
    const Module& app = *r.module();
    ASSERT_EQ(app.name, "app");
    const Stmt& body = *app.functions[0]->body;
    for (size_t k = 0; k < 2; ++k) {
        const Expr& call = *body.body[k]->value;
        EXPECT_EQ(call.type.str(), "float") << call.callee;
        EXPECT_EQ(call.args[0]->type.str(), "float") << call.args[0]->callee;
    }
    fs::remove_all(root);
}

TEST(ResolveNames, ImportedFileMustDeclareItsPackage) {
    namespace fs = std::filesystem;
    fs::path root = fs::temp_directory_path() / "mcl_resolve_package";
    fs::create_directories(root / "lib");
    std::ofstream(root / "lib" / "util.mcl") << "package other;\nmodule util;\n";
    std::ofstream(root / "app.mcl") << "module app;\nimport lib.util;\n";
    CheckedText r = check_files({(root / "app.mcl").string()}, {root.string()});
    EXPECT_THAT(r.text(), HasSubstr("app.mcl:2:8: error: '" + (root / "lib" / "util.mcl").string() +
                                    "' declares 'package other; module util;', not what the import names"));
    fs::remove_all(root);
}

}  // namespace
}  // namespace mcl::mcpl::testing
