// The MCPL printer: the exact layout of a module that uses every construct,
// minimal parentheses, and round trips (parse -> print -> parse -> print)
// that must give the same text and the same AST, on snippets and on every
// example kernel.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "compiler/print/PrintMcpl.h"
#include "tests/compiler/McplTestSupport.h"

namespace mcl::mcpl {
namespace {

using testing::expect_round_trip;
using testing::ast_skeleton;
using testing::parse_text;
using testing::ParsedModule;

// Prints `text`, parses the result and prints again: the two prints are equal
// and the ASTs of the text and of its print differ only in locations.
// A module whose function `f` holds the given statements.
std::string in_function(const std::string& statements) {
    return "module m;\nperfect void f(int n) {\n" + statements + "\n}\n";
}

// The expression `x = <text>;` assigns, parsed; `parsed` keeps it alive.
const Expr& parse_expr(const std::string& text, ParsedModule& parsed) {
    parsed = parse_text(in_function("x = " + text + ";"));
    if (!parsed.module) throw std::runtime_error(parsed.text() + "\n" + text);
    return *parsed.module->functions.at(0)->body->body.at(0)->value;
}

// The expression's shape with every operator application parenthesised,
// `(- (^ a 2))`: equal shapes mean equal ASTs up to locations.
std::string shape(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::Unary: return "(" + e.op + " " + shape(*e.args[0]) + ")";
    case Expr::Kind::Binary: return "(" + e.op + " " + shape(*e.args[0]) + " " + shape(*e.args[1]) + ")";
    default: return print_expr(e);
    }
}

ExprPtr var(const std::string& name) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Var;
    e->var.push_back(VarPart{name, {}, {}});
    return e;
}

ExprPtr unary(const std::string& op, ExprPtr operand) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Unary;
    e->op = op;
    e->args.push_back(std::move(operand));
    return e;
}

ExprPtr binary(const std::string& op, ExprPtr left, ExprPtr right) {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Binary;
    e->op = op;
    e->args.push_back(std::move(left));
    e->args.push_back(std::move(right));
    return e;
}

const std::vector<std::string> kBinaryOperators = {"||", "&&", "|", "&", "==", "!=", "<", "<=", ">",
                                                   ">=", "<<", ">>", "+", "-", "*", "/", "%", "^"};

// Prints a built expression, parses the print and checks the shape survived.
void expect_shape_survives(const Expr& built) {
    std::string printed = print_expr(built);
    ParsedModule parsed;
    const Expr& reparsed = parse_expr(printed, parsed);
    EXPECT_EQ(shape(reparsed), shape(built)) << printed;
}

TEST(PrintMcpl, LayoutOfEveryConstruct) {
    const char* source = R"(package a.b;  module m ; export f,g; import perfect; import lib.math.complex;
type Complex { float real; float imag; }
const int N = 4;
const float PI = 3.14159f;
perfect void f(int n, dev const float[n,N] a, reg main float[2][3] t, Complex[n] cs) {
  float[2,3] x as float[6] y = 0.0;
  int i = 0;
  x[1,2] = a[0, 1] * 2.5e3;
  y[i] += 1; y[i] -= 1; y[i] *= 2; y[i] /= 2; i %= 3; i <<= 1; i >>= 1;
  i++; i--;
  x[0,0] <=> x[1,1];
  g(n, i);
  cs[0].real = cs[1].imag;
  t as float[6] flat as float[2,3] grid;
  barrier(local);
  if (i < n) { return; } else if (i > n) return; else { i = 0; }
  if (true) i = 1;
  for (int k = 0; k < n; k++) { i += k; }
  for (int k = n; k > 0; k--) i -= k;
  foreach (int j in n threads) { foreach (int l in N threads) x[0,0] = gpu.hierarchy.blocks.block.threads.max_nr_units; }
  { int nested = 1; }
  {}
  return;
}
perfect int g(int n, int i) { return n ^ 2 + -i; }
)";
    const char* expected = R"(package a.b;
module m;
export f, g;
import perfect;
import lib.math.complex;

const int N = 4;
const float PI = 3.14159f;

type Complex {
    float real;
    float imag;
}

perfect void f(int n, const dev float[n, N] a, reg main float[2][3] t, Complex[n] cs) {
    float[2, 3] x as float[6] y = 0.0;
    int i = 0;
    x[1, 2] = a[0, 1] * 2.5e3;
    y[i] += 1;
    y[i] -= 1;
    y[i] *= 2;
    y[i] /= 2;
    i %= 3;
    i <<= 1;
    i >>= 1;
    i++;
    i--;
    x[0, 0] <=> x[1, 1];
    g(n, i);
    cs[0].real = cs[1].imag;
    t as float[6] flat as float[2, 3] grid;
    barrier(local);
    if (i < n) {
        return;
    } else if (i > n)
        return;
    else {
        i = 0;
    }
    if (true)
        i = 1;
    for (int k = 0; k < n; k++) {
        i += k;
    }
    for (int k = n; k > 0; k--)
        i -= k;
    foreach (int j in n threads) {
        foreach (int l in N threads)
            x[0, 0] = gpu.hierarchy.blocks.block.threads.max_nr_units;
    }
    {
        int nested = 1;
    }
    {
    }
    return;
}

perfect int g(int n, int i) {
    return n ^ 2 + -i;
}
)";
    ParsedModule parsed = parse_text(source);
    ASSERT_NE(parsed.module, nullptr) << parsed.text();
    EXPECT_EQ(print_module(*parsed.module), expected);
    expect_round_trip(source);
}

TEST(PrintMcpl, ModuleHeaders) {
    expect_round_trip("module m;");
    expect_round_trip("package p; module m;");
    expect_round_trip("package a.b.c; module m; export f; import x; import y.z;\nperfect void f() {}");
    expect_round_trip("module m; export f, g, h; perfect void f() {} gpu void g() {} cpu void h() {}");
    EXPECT_EQ(print_module(*parse_text("module m;").module), "module m;\n");
}

TEST(PrintMcpl, ConstantsAndRecords) {
    expect_round_trip("module m; const int N = 1024; const double E = 2.718281828; const bool B = !false;");
    expect_round_trip("module m; const int M = N * 2 + (N - 1) / 3;");
    expect_round_trip("module m; type Empty {} type Pair { int first; float[4] second; const bool flag; }");
    expect_round_trip("module m; type Complex { float re; float im; }\n"
                      "perfect void f(int n, Complex[n] c) { c[0].re = c[1].im; }");
}

TEST(PrintMcpl, FunctionsAndDeclarations) {
    expect_round_trip("module m; perfect float sqrt(const float x) { mcl_builtin_read(x); }");
    expect_round_trip("module m; gpu void f(int n, int m, dev float[n,m] c, const dev float[n,m] a,"
                      " const shared local float[2,2][3,3] t) {}");
    expect_round_trip(in_function("float x; int y = 3; const int z = y * 2; local float[n] s;"));
    expect_round_trip(in_function("int[2,3] a as int[6] b; int[6] c as int[2][3] d as int[3,2] e = 0;"));
    expect_round_trip(in_function("reg main float v = 1.0f; byte b = 0; bool ok = true; double d = 1e-3;"));
    EXPECT_EQ(print_decl(*parse_text("module m; perfect void f(main const int[2][3] x) {}")
                              .module->functions[0]
                              ->params[0]),
              "const main int[2][3] x");
}

TEST(PrintMcpl, Statements) {
    expect_round_trip(in_function("x = 1; x += 1; x -= 1; x *= 2; x /= 2; x %= 2; x <<= 1; x >>= 1;"));
    expect_round_trip(in_function("x++; x--; a[i,j][k] <=> b.c[0]; f(); f(1, g(2), 3.0);"));
    expect_round_trip(in_function("return; return 1; return f(x) + 1;"));
    expect_round_trip(in_function("barrier(local); barrier(global);"));
    expect_round_trip(in_function("a as float[2,3] b; a[0] as int[6] c as int[3][2] d;"));
    expect_round_trip(in_function("{ { x = 1; } {} }"));
}

TEST(PrintMcpl, ControlFlow) {
    expect_round_trip(in_function("if (a) x = 1;"));
    expect_round_trip(in_function("if (a) x = 1; else x = 2;"));
    expect_round_trip(in_function("if (a) { x = 1; } else { x = 2; }"));
    expect_round_trip(in_function("if (a) { x = 1; } else x = 2;"));
    expect_round_trip(in_function("if (a) x = 1; else { x = 2; }"));
    expect_round_trip(in_function("if (a) x = 1; else if (b) x = 2; else if (c) { x = 3; } else x = 4;"));
    expect_round_trip(in_function("if (a) if (b) x = 1; else x = 2;"));
    expect_round_trip(in_function("if (a) { if (b) x = 1; } else x = 2;"));
    expect_round_trip(in_function("if (a) if (b) x = 1; else x = 2; else x = 3;"));
    expect_round_trip(in_function("for (int i = 0; i < n; i++) x += i;"));
    expect_round_trip(in_function("for (int i = n - 1; i >= 0; i -= 2) { for (int j = 0; j < i; j++) {} }"));
    expect_round_trip(in_function("for (int i = 0; i < n; i = i * 2) if (i) x = 1;"));
    expect_round_trip(in_function("foreach (int i in n threads) x[i] = 0;"));
    expect_round_trip(in_function("foreach (int b in divide_up(n, 32) blocks) {"
                                  " foreach (int t in 32 threads) { x[b * 32 + t] = 0; } }"));
    expect_round_trip(in_function("foreach (int i in n + 1 threads) foreach (int j in n threads) "
                                  "if (i < j) x[i,j] = 1; else x[i,j] = 0;"));
}

TEST(PrintMcpl, ElseIfStaysOnTheClosingBraceLine) {
    ParsedModule parsed = parse_text(in_function("if (a) { x = 1; } else if (b) { x = 2; } else { x = 3; }"));
    ASSERT_NE(parsed.module, nullptr) << parsed.text();
    EXPECT_EQ(print_module(*parsed.module), R"(module m;

perfect void f(int n) {
    if (a) {
        x = 1;
    } else if (b) {
        x = 2;
    } else {
        x = 3;
    }
}
)");
}

TEST(PrintMcpl, DanglingElseGetsBraces) {
    // No parse gives this shape: `if (a) <if (b) x = 1;> else x = 2;`, with the
    // else on the outer `if`. A pass could build it.
    for (const char* inner : {"if (b) x = 1;", "for (int i = 0; i < n; i++) if (b) x = 1;",
                              "if (b) x = 1; else if (c) x = 3;"}) {
        ParsedModule parsed = parse_text(in_function(std::string("if (a) { ") + inner + " } else x = 2;"));
        ASSERT_NE(parsed.module, nullptr) << parsed.text();
        Stmt& outer = *parsed.module->functions[0]->body->body[0];
        StmtPtr unwrapped = std::move(outer.then_branch->body[0]);
        outer.then_branch = std::move(unwrapped);

        std::string printed = print_module(*parsed.module);
        SCOPED_TRACE(printed);
        ParsedModule reparsed = parse_text(printed);
        ASSERT_NE(reparsed.module, nullptr) << reparsed.text();
        const Stmt& reparsed_outer = *reparsed.module->functions[0]->body->body[0];
        ASSERT_EQ(reparsed_outer.kind, Stmt::Kind::If);
        EXPECT_NE(reparsed_outer.else_branch, nullptr);
        EXPECT_EQ(reparsed_outer.then_branch->kind, Stmt::Kind::Block);
        EXPECT_EQ(print_module(*reparsed.module), printed);
    }
}

TEST(PrintMcpl, MinimalParentheses) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"a - (b - c)", "a - (b - c)"},
        {"(a - b) - c", "a - b - c"},
        {"a + b * c", "a + b * c"},
        {"(a + b) * c", "(a + b) * c"},
        {"a * (b / c)", "a * (b / c)"},
        {"a / b * c", "a / b * c"},
        {"a % (b % c)", "a % (b % c)"},
        {"-a ^ 2", "-a ^ 2"},
        {"(-a) ^ 2", "(-a) ^ 2"},
        {"-(a ^ 2)", "-a ^ 2"},
        {"a ^ b ^ c", "a ^ b ^ c"},
        {"(a ^ b) ^ c", "(a ^ b) ^ c"},
        {"a ^ -b", "a ^ -b"},
        {"a ^ (-b)", "a ^ -b"},
        {"-a ^ -b ^ c", "-a ^ -b ^ c"},
        {"2 ^ (a + b)", "2 ^ (a + b)"},
        {"a * -b", "a * -b"},
        {"a - -b", "a - -b"},
        {"-a * b", "-a * b"},
        {"-(a * b)", "-(a * b)"},
        {"-(a + b)", "-(a + b)"},
        {"-(-a)", "- -a"},
        {"- -a", "- -a"},
        {"-!a", "-!a"},
        {"!!a", "!!a"},
        {"!(a && b)", "!(a && b)"},
        {"a || b && c", "a || b && c"},
        {"(a || b) && c", "(a || b) && c"},
        {"a || (b || c)", "a || (b || c)"},
        {"a & b | c & d", "a & b | c & d"},
        {"(a | b) & c", "(a | b) & c"},
        {"a == (b < c)", "a == b < c"},
        {"(a == b) == c", "a == b == c"},
        {"a == (b == c)", "a == (b == c)"},
        {"(a < b) < c", "a < b < c"},
        {"a << 1 + b", "a << 1 + b"},
        {"(a << 1) + b", "(a << 1) + b"},
        {"a >> (b >> c)", "a >> (b >> c)"},
        {"(a & b) == c", "(a & b) == c"},
        {"a & (b == c)", "a & b == c"},
        {"((a))", "a"},
        {"f(a + b, -c, (d))", "f(a + b, -c, d)"},
        {"x.re[i, j][k] * y.im", "x.re[i, j][k] * y.im"},
        {"a[(i + 1), j * 2][k]", "a[i + 1, j * 2][k]"},
        {"gpu.hierarchy.blocks.block.threads.max_nr_units / 2",
         "gpu.hierarchy.blocks.block.threads.max_nr_units / 2"},
        {"1.5e-3f + .5 + 2. + 1E+2", "1.5e-3f + .5 + 2. + 1E+2"},
        {"true && !false", "true && !false"},
    };
    for (const auto& [input, expected] : cases) {
        ParsedModule parsed;
        const Expr& e = parse_expr(input, parsed);
        EXPECT_EQ(print_expr(e), expected) << input;
        expect_shape_survives(e);
    }
}

TEST(PrintMcpl, EveryOperatorPairKeepsItsShape) {
    for (const std::string& outer : kBinaryOperators) {
        for (const std::string& inner : kBinaryOperators) {
            expect_shape_survives(*binary(outer, binary(inner, var("a"), var("b")), var("c")));
            expect_shape_survives(*binary(outer, var("a"), binary(inner, var("b"), var("c"))));
        }
        for (const char* prefix : {"-", "!"}) {
            expect_shape_survives(*unary(prefix, binary(outer, var("a"), var("b"))));
            expect_shape_survives(*binary(outer, unary(prefix, var("a")), var("b")));
            expect_shape_survives(*binary(outer, var("a"), unary(prefix, var("b"))));
            expect_shape_survives(*binary(outer, var("a"), unary(prefix, binary("^", var("b"), var("c")))));
            expect_shape_survives(*unary(prefix, unary("-", var("a"))));
        }
    }
}

TEST(PrintMcpl, LiteralsThatAPassBuilt) {
    auto literal = [](Expr::Kind kind) {
        auto e = std::make_unique<Expr>();
        e->kind = kind;
        return e;
    };
    ExprPtr whole = literal(Expr::Kind::FloatLiteral);
    whole->float_value = 1.0;
    EXPECT_EQ(print_expr(*whole), "1.0");
    ExprPtr half = literal(Expr::Kind::FloatLiteral);
    half->float_value = 0.5;
    EXPECT_EQ(print_expr(*half), "0.5");
    ExprPtr large = literal(Expr::Kind::FloatLiteral);
    large->float_value = 1e20;
    EXPECT_EQ(print_expr(*large), "1e+20");

    ExprPtr negative = literal(Expr::Kind::IntLiteral);
    negative->int_value = -2;
    EXPECT_EQ(print_expr(*binary("^", std::move(negative), var("b"))), "(-2) ^ b");
}

TEST(PrintMcpl, UnknownOperatorThrows) {
    EXPECT_THROW(print_expr(*binary("**", var("a"), var("b"))), std::invalid_argument);
}

// Every .mcl file under `dir` that parses is a fixed point of
// print . parse; returns how many parsed.
size_t expect_fixed_points_under(const std::string& dir) {
    size_t parsed_files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.path().extension() != ".mcl") continue;
        SCOPED_TRACE(entry.path().string());
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        if (!parse_text(text.str()).module) continue;
        ++parsed_files;
        expect_round_trip(text.str());
    }
    return parsed_files;
}

TEST(PrintMcpl, ExamplesAreFixedPoints) {
    size_t kernels = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(MCL_EXAMPLES_DIR))
        kernels += entry.path().extension() == ".mcl";
    EXPECT_EQ(expect_fixed_points_under(MCL_EXAMPLES_DIR), kernels) << "every example parses";
}

TEST(PrintMcpl, TestInputsAreFixedPoints) {
    // Malformed inputs that do not parse are skipped; the rest must round-trip.
    EXPECT_GT(expect_fixed_points_under(MCL_TEST_INPUTS_DIR), 5u);
}

}  // namespace
}  // namespace mcl::mcpl
