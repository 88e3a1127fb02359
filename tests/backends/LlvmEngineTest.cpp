// The llvm engine (backends/llvm/LlvmEngine.h, LowerToIr.h,
// VaryingAnalysis.h) against the reference interpreter: every test compiles
// a small MCPL kernel with CompiledKernel::compile, runs it and the
// interpreter on the same inputs, and compares every cell of every written
// parameter bitwise (no contraction or reassociation is promised, so float
// results must be equal, not close). Faults (division by zero, INT_MIN / -1,
// indices out of range) must come back located at the construct the
// interpreter names, never as a crash. Sizes such as 0, 1, 7, 15, 16, 17,
// 31, 33, 100 and 1000 exercise the masked tails of the vector code (16
// lanes of floats with AVX-512, 8 at x86_avx2's `vectors`).
//
// Kernels that may hang or crash run in a child process with a time limit
// (engine_run_in_child). Every bug these tests found stays as a test: the
// comment above each names what went wrong.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "backends/llvm/LlvmEngine.h"
#include "compiler/interpret/Interpreter.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::backends::llvmir {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using interpret::Scalar;
using interpret::Storage;
using interpret::StoragePtr;
using interpret::UnitOrder;
using mcpl::Primitive;

// Inputs of one run: scalar parameters by name (int parameters not named
// here are 0); arrays by name, every cell in the interpreter's order, or
// else seeded values (floats and doubles in [-1, 1], ints in
// [int_low, int_high], bytes 0..255, bools 0 or 1).
struct Args {
    std::map<std::string, double> scalars;
    std::map<std::string, std::vector<double>> arrays;
    uint64_t seed = 1;
    int64_t int_low = 0;
    int64_t int_high = 6;
};

struct Compiled {
    mcpl::testing::CheckedText checked;
    const mcpl::Function* kernel = nullptr;
    std::unique_ptr<CompiledKernel> engine;
    std::string problem;  // why compile() failed: the diagnostics or its error
};

const mcpl::Function* find_kernel(const mcpl::testing::CheckedText& checked, const std::string& name) {
    const mcpl::Module* m = checked.module();
    if (!m || m->functions.empty()) return nullptr;
    if (name.empty()) return m->functions.back().get();
    for (const auto& f : m->functions)
        if (f->name == name) return f.get();
    return nullptr;
}

// Checks `source` (lib imports from examples/) and compiles its last
// function (or `kernel`) with the llvm engine and `options`; `engine` is
// null when it refused, with the reason in `problem`.
Compiled compile(const std::string& source, const std::string& kernel = "", const EngineOptions& options = {}) {
    Compiled c{mcpl::testing::check_text(source, "t.mcl", {MCL_EXAMPLES_DIR}), nullptr, nullptr, ""};
    mcpl::testing::expect_clean(c.checked);
    c.kernel = find_kernel(c.checked, kernel);
    if (!c.kernel || c.checked.diags->has_errors()) {
        c.problem = "the source does not check";
        return c;
    }
    size_t before = c.checked.diags->diagnostics().size();
    std::string error;
    c.engine = CompiledKernel::compile(*c.kernel, *c.checked.library, options, *c.checked.diags, error);
    if (!c.engine) {
        const auto& all = c.checked.diags->diagnostics();
        c.problem = all.size() > before ? c.checked.text() : "error: " + error;
    }
    return c;
}

Scalar cell(Primitive p, double v) { return interpret::convert(Scalar::of_double(v), p).value; }

// Storages for `kernel` laid out as parameter_layouts says; empty (after a
// test failure) when the layouts cannot be made.
std::vector<StoragePtr> make_storages(const mcpl::Function& kernel, const Args& args) {
    std::vector<Scalar> scalars;
    for (const auto& p : kernel.params) {
        const mcpl::Type& t = p->forms.front().resolved_type;
        if (t.is_array() || t.record) continue;
        auto found = args.scalars.find(p->forms.front().name);
        scalars.push_back(cell(t.primitive.value_or(Primitive::Int), found == args.scalars.end() ? 0 : found->second));
    }
    std::vector<interpret::ParameterLayout> layouts;
    if (auto error = interpret::parameter_layouts(kernel, scalars, layouts)) {
        ADD_FAILURE() << "parameter layouts: " << error->message;
        return {};
    }
    std::mt19937_64 rng(args.seed);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int64_t> ints(args.int_low, args.int_high);
    std::vector<StoragePtr> out;
    size_t next_scalar = 0;
    for (const auto& layout : layouts) {
        auto storage = std::make_shared<Storage>();
        const mcpl::Type& t = layout.decl->forms.front().resolved_type;
        if (!layout.is_array && !t.record) {
            storage->cells.push_back(scalars[next_scalar++]);
        } else if (auto given = args.arrays.find(layout.name); given != args.arrays.end()) {
            if (given->second.size() != static_cast<size_t>(layout.cell_count()))
                ADD_FAILURE() << layout.name << ": " << given->second.size() << " values for " << layout.cell_count() << " cells";
            for (int64_t c = 0; c < layout.cell_count(); ++c) {
                Primitive p = layout.element_cells[static_cast<size_t>(c) % layout.element_cells.size()];
                storage->cells.push_back(cell(p, static_cast<size_t>(c) < given->second.size() ? given->second[static_cast<size_t>(c)] : 0));
            }
        } else {
            for (int64_t e = 0; e < layout.elements(); ++e)
                for (Primitive p : layout.element_cells) {
                    double v = p == Primitive::Float || p == Primitive::Double ? unit(rng)
                               : p == Primitive::Int                           ? static_cast<double>(ints(rng))
                               : p == Primitive::Bool                          ? static_cast<double>(rng() % 2)
                                                                               : static_cast<double>(rng() % 256);
                    storage->cells.push_back(cell(p, v));
                }
        }
        out.push_back(storage);
    }
    return out;
}

std::vector<StoragePtr> deep_copy(const std::vector<StoragePtr>& storages) {
    std::vector<StoragePtr> out;
    for (const auto& s : storages) {
        auto copy = std::make_shared<Storage>();
        copy->cells = s->cells;
        out.push_back(copy);
    }
    return out;
}

uint64_t bits(const Scalar& s) {
    if (s.type == Primitive::Float) return std::bit_cast<uint32_t>(static_cast<float>(s.f));
    if (s.type == Primitive::Double) return std::bit_cast<uint64_t>(s.f);
    return static_cast<uint64_t>(s.i);
}

// "" when every cell of every written parameter is the same bitwise; else
// the first difference.
std::string first_difference(const mcpl::Function& kernel, const std::vector<StoragePtr>& want,
                             const std::vector<StoragePtr>& got) {
    for (size_t k = 0; k < kernel.params.size(); ++k) {
        if (!kernel.params[k]->is_written) continue;
        const auto& w = want[k]->cells;
        const auto& g = got[k]->cells;
        if (w.size() != g.size()) return fmt::format("{}: {} cells, not {}", kernel.params[k]->name(), g.size(), w.size());
        for (size_t c = 0; c < w.size(); ++c) {
            if (w[c].poison) return fmt::format("{} cell {}: the interpreter computed it from unwritten memory", kernel.params[k]->name(), c);
            if (bits(w[c]) != bits(g[c]))
                return fmt::format("{} cell {}: llvm {} (bits {:#x}), interpreter {} (bits {:#x})", kernel.params[k]->name(), c,
                                   g[c].str(), bits(g[c]), w[c].str(), bits(w[c]));
        }
    }
    return "";
}

std::string describe(const Args& args) {
    std::vector<std::string> parts;
    for (const auto& [name, v] : args.scalars) parts.push_back(fmt::format("{}={}", name, v));
    return fmt::format("{} (seed {})", fmt::join(parts, " "), args.seed);
}

// Runs the interpreter and the engine on the same inputs and expects both
// to succeed with the same results.
void expect_same_results(const Compiled& c, const Args& args, UnitOrder order = UnitOrder::Shuffled) {
    ASSERT_TRUE(c.engine) << c.problem;
    std::vector<StoragePtr> want = make_storages(*c.kernel, args);
    ASSERT_FALSE(want.empty() && !c.kernel->params.empty());
    std::vector<StoragePtr> got = deep_copy(want);
    interpret::InterpretOptions options;
    options.order = order;
    options.seed = args.seed;
    auto interpreted = interpret::run_kernel(*c.checked.library, *c.kernel, want, options);
    ASSERT_FALSE(interpreted) << describe(args) << ": the interpreter failed at " << interpreted->location.line << ":"
                              << interpreted->location.column << ": " << interpreted->message;
    auto fault = c.engine->run(got);
    ASSERT_FALSE(fault) << describe(args) << ": the llvm engine failed at " << fault->location.line << ":"
                        << fault->location.column << ": " << fault->message;
    std::string difference = first_difference(*c.kernel, want, got);
    EXPECT_EQ(difference, "") << describe(args);
}

// expect_same_results at every size n and m of the lists, seeded by both;
// int inputs in [0, int_high].
void expect_same_results_at_sizes(const Compiled& c, std::initializer_list<int> ns, std::initializer_list<int> ms,
                                  int64_t int_high = 6) {
    for (int n : ns) {
        for (int m : ms) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = m;
            args.seed = static_cast<uint64_t>(n * 100 + m);
            args.int_high = int_high;
            expect_same_results(c, args);
        }
    }
}

// Both fail at the same place; the engine's message names it as its own
// and contains `message`. `column`: the engine's column when it is not
// the interpreter's (the interpreter locates a fault of any index of an
// index group at the group's first index, the engine at the index).
void expect_same_fault(const Compiled& c, const Args& args, const std::string& message, uint32_t column = 0) {
    ASSERT_TRUE(c.engine) << c.problem;
    std::vector<StoragePtr> want = make_storages(*c.kernel, args);
    std::vector<StoragePtr> got = deep_copy(want);
    auto interpreted = interpret::run_kernel(*c.checked.library, *c.kernel, want, {});
    ASSERT_TRUE(interpreted) << describe(args) << ": the interpreter ran to completion";
    auto fault = c.engine->run(got);
    ASSERT_TRUE(fault) << describe(args) << ": the llvm engine ran to completion; the interpreter failed at "
                       << interpreted->location.line << ":" << interpreted->location.column << ": " << interpreted->message;
    EXPECT_EQ(fault->location.line, interpreted->location.line) << fault->message << " / " << interpreted->message;
    EXPECT_EQ(fault->location.column, column ? column : interpreted->location.column)
        << fault->message << " / " << interpreted->message;
    EXPECT_TRUE(fault->location.valid());
    EXPECT_THAT(fault->message, HasSubstr(message));
    EXPECT_THAT(fault->message, HasSubstr("(llvm engine)"));
}

// The cells of parameter `k` after a run of the engine alone.
std::vector<double> engine_values(const Compiled& c, const Args& args, size_t k) {
    std::vector<StoragePtr> storages = make_storages(*c.kernel, args);
    auto fault = c.engine->run(storages);
    EXPECT_FALSE(fault) << (fault ? fault->message : "");
    std::vector<double> out;
    for (const Scalar& s : storages.at(k)->cells) out.push_back(s.as_double());
    return out;
}

// The optimized IR of the function that runs the units of the kernel's
// first foreach (the parameters' sizes are checked before it); a failure
// and "" when there is none.
std::string units_function_ir(const Compiled& c) {
    EngineOptions options;
    options.keep_ir = true;
    std::string error;
    auto kept = CompiledKernel::compile(*c.kernel, *c.checked.library, options, *c.checked.diags, error);
    EXPECT_TRUE(kept) << error;
    if (!kept) return "";
    const std::string& ir = kept->optimized_ir();
    size_t units = ir.find("foreach1.units(");
    EXPECT_NE(units, std::string::npos) << ir;
    if (units == std::string::npos) return "";
    return ir.substr(units, ir.find("\ndefine ", units) - units);
}

// How the engine's run on `storages` ends, in a child process (for kernels
// that may hang or crash; the child's results are not seen here): "ok",
// "fault" (a located error), "crash (signal N)" or "hangs" (killed after
// `seconds`).
std::string engine_run_in_child(const Compiled& c, std::vector<StoragePtr> storages, int seconds) {
    pid_t child = fork();
    if (child == 0) {
        auto fault = c.engine->run(storages);
        _exit(fault ? 1 : 0);
    }
    for (int k = 0; k < seconds * 20; ++k) {
        int status = 0;
        if (waitpid(child, &status, WNOHANG) == child) {
            if (WIFSIGNALED(status)) return fmt::format("crash (signal {})", WTERMSIG(status));
            return WEXITSTATUS(status) == 0 ? "ok" : "fault";
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    return "hangs";
}

bool engine_ends_within(const Compiled& c, std::vector<StoragePtr> storages, int seconds) {
    std::string how = engine_run_in_child(c, std::move(storages), seconds);
    return how != "hangs";
}

const std::vector<int> kSizes = {0, 1, 7, 15, 16, 17, 31, 33, 100, 1000};

// --- scalar arithmetic and conversions ---------------------------------------------------------

// Every operator on every type at kernel level (scalar code) and in a
// foreach (vector code), with C's conversions between them.
const char* kArithmetic = R"(module m;
import perfect;

perfect void arith(int n, const int[n] ia, const int[n] ib, const float[n] fa, const float[n] fb,
                   const double[n] da, const byte[n] ba, const bool[n] qa,
                   int[n, 12] io, float[n, 8] fo, double[n, 6] dout, byte[n, 5] bo, bool[n, 6] qo) {
    foreach (int i in n threads) {
        int x = ia[i];
        int y = ib[i] + 1;
        io[i, 0] = x + y * 3 - 7;
        io[i, 1] = x / y + x % y;
        io[i, 2] = (x - 50) / y;
        io[i, 3] = (x - 50) % y;
        io[i, 4] = (x << 3) >> 1;
        io[i, 5] = (x - 60) >> 2;
        io[i, 6] = (x & y) | (x & 5);
        io[i, 7] = -x + toInt(fa[i] * 100.0);
        io[i, 8] = toInt(-fa[i] * 1000.5);
        io[i, 9] = ba[i] + ba[i] * 2;
        io[i, 10] = toInt(da[i] * 12345.678);
        io[i, 11] = x * y - (x - y) * (x + y);
        fo[i, 0] = fa[i] + fb[i] * fa[i] - fb[i] / (fa[i] + 3.0);
        fo[i, 1] = toFloat(x) / 3.0 + toFloat(ia[i] * 16777) * 1.5;
        fo[i, 2] = fa[i] * 1e30 * 1e10;
        fo[i, 3] = -fa[i] / 0.0;
        fo[i, 4] = toFloat(ba[i]) * fa[i];
        fo[i, 5] = toFloat(da[i]);
        fo[i, 6] = fa[i] + toFloat(x);
        fo[i, 7] = toFloat(16777217 + x);
        dout[i, 0] = da[i] * 3.0 + toDouble(fa[i]);
        dout[i, 1] = da[i] / 7.0 - toDouble(x);
        dout[i, 2] = toDouble(fa[i]) * toDouble(fb[i]);
        dout[i, 3] = da[i] * da[i] * 3e38;
        dout[i, 4] = toDouble(ba[i]) + da[i];
        dout[i, 5] = fa[i] + da[i];
        bo[i, 0] = ba[i] + 200;
        bo[i, 1] = ba[i] * ba[i];
        bo[i, 2] = x - 100;
        bo[i, 3] = -ba[i];
        bo[i, 4] = toInt(fa[i] * 100.0 + 120.0);
        qo[i, 0] = qa[i] && x > 3;
        qo[i, 1] = qa[i] || fa[i] < 0.0;
        qo[i, 2] = !qa[i];
        qo[i, 3] = fa[i] != fb[i];
        qo[i, 4] = ba[i] >= 128 == qa[i];
        qo[i, 5] = da[i] <= 0.25;
    }
}
)";

TEST(LlvmEngine, ArithmeticOfEveryTypeMatchesTheInterpreter) {
    Compiled c = compile(kArithmetic);
    for (int n : {1, 7, 16, 17, 33, 100}) {
        Args args;
        args.scalars["n"] = n;
        args.seed = static_cast<uint64_t>(n);
        args.int_high = 100;
        expect_same_results(c, args);
    }
}

// The same expressions in straight-line kernel code (no foreach): scalar
// code, not vector code.
TEST(LlvmEngine, ArithmeticInScalarCodeMatchesTheInterpreter) {
    std::string source = kArithmetic;
    size_t at = source.find("foreach (int i in n threads)");
    source.replace(at, std::string("foreach (int i in n threads)").size(), "for (int i = 0; i < n; i++)");
    Compiled c = compile(source);
    for (int n : {1, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        args.seed = static_cast<uint64_t>(n) + 100;
        args.int_high = 100;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, ConversionsFollowC) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void conv(int n, const float[n] f, const double[n] d, const int[n] k, int[n, 4] io, byte[n, 3] bo,
                  float[n, 3] fo, bool[n, 3] qo) {
    foreach (int i in n threads) {
        io[i, 0] = toInt(f[i]);
        io[i, 1] = toInt(d[i]);
        int t = f[i];
        io[i, 2] = t;
        io[i, 3] = toInt(toFloat(k[i]));
        byte b = k[i];
        bo[i, 0] = b;
        bo[i, 1] = toInt(f[i] * 0.0 + 255.9);
        bo[i, 2] = k[i] % 1000 * 7 + 3;
        fo[i, 0] = k[i];
        fo[i, 1] = d[i];
        fo[i, 2] = toFloat(toDouble(f[i]) * 1.0000001);
        bool q = f[i] != 0.0;
        qo[i, 0] = q;
        qo[i, 1] = k[i] != 0;
        qo[i, 2] = d[i] * 0.0 == 0.0;
    }
}
)");
    Args args;
    args.scalars["n"] = 12;
    args.arrays["f"] = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2147483520.0, -2147483648.0, 1e-30, -1e-30, 255.0, 3.99};
    args.arrays["d"] = {0.0, -0.9, 0.9, -2.5, 2.5, 2147483647.0, -2147483648.0, 1e-300, 16777217.0, 0.1, -0.1, 7.0};
    args.arrays["k"] = {0, -1, 1, 255, 256, -256, 16777217, -16777217, 2147483520, -2147483647, 1000000, 7};
    expect_same_results(c, args);
}

// --- faults, located ---------------------------------------------------------------------------

TEST(LlvmEngine, DivisionByZeroIsALocatedFault) {
    // kernel level, a scalar loop, vector code (varying and uniform
    // divisors), remainder, compound assignment and divide_up
    const std::vector<std::string> bodies = {
        "out[0] = 10 / d;",
        "for (int i = 0; i < n; i++) { out[i] = 10 / (d + i); }",
        "foreach (int i in n threads) { out[i] = 100 / (i - 5 + d); }",
        "foreach (int i in n threads) { out[i] = i / d; }",
        "foreach (int i in n threads) { out[i] = i % (d + k[i] - k[i]); }",
        "foreach (int i in n threads) { int x = 7; x /= d; out[i] = x; }",
        "foreach (int i in n threads) { out[i] = divide_up(i, d); }",
        "foreach (int i in n threads) { foreach (int j in n threads) { g[i, j] = (i + j) / (d + i + j - 3); } }",
    };
    for (const std::string& body : bodies) {
        SCOPED_TRACE(body);
        Compiled c = compile("module m;\nimport perfect;\n\nperfect void f(int n, int d, const int[n] k, int[n] out, int[n, n] g) {\n    " + body +
                             "\n}\n");
        Args args;
        args.scalars["n"] = 33;
        args.scalars["d"] = 0;
        expect_same_fault(c, args, "division by zero");
    }
}

// The first fault is the one reported, also when a called function
// faults after it (4f3ceeb reported the callee's later fault; fixed in
// b9397d4).
TEST(LlvmEngine, TheFirstFaultIsReportedAlsoBeforeACall) {
    Compiled c = compile(R"(module m;
import perfect;

perfect int bad(const int d) {
    return 10 / d;
}

perfect void f(int n, int z, int[n] out) {
    out[0] = 5 / z;
    out[1] = bad(z);
}
)");
    Args args;
    args.scalars["n"] = 2;
    expect_same_fault(c, args, "division by zero");
}

TEST(LlvmEngine, SmallestIntByMinusOneIsALocatedFault) {
    for (const std::string& body : {std::string("out[0] = m / d;"), std::string("out[0] = m % d;"),
                                    std::string("foreach (int i in n threads) { out[i] = (m + i - i) / d; }"),
                                    std::string("foreach (int i in n threads) { out[i] = (m + k[i] - k[i]) % (d + k[i] - k[i]); }")}) {
        SCOPED_TRACE(body);
        Compiled c = compile("module m;\nimport perfect;\n\nperfect void f(int n, int m, int d, const int[n] k, int[n] out) {\n    " + body + "\n}\n");
        Args args;
        args.scalars["n"] = 20;
        args.scalars["m"] = std::numeric_limits<int32_t>::min();
        args.scalars["d"] = -1;
        expect_same_fault(c, args, "overflow");
    }
}

TEST(LlvmEngine, IndexOutOfRangeIsALocatedFault) {
    const std::vector<std::string> bodies = {
        "out[n] = 1;",                                                                   // uniform store
        "out[0] = k[n + 3];",                                                            // uniform load
        "foreach (int i in n + 1 threads) { out[i] = 1; }",                              // linear store, tail
        "foreach (int i in n threads) { out[i] = k[i + 1]; }",                           // linear load
        "foreach (int i in n threads) { out[i] = k[k[i] * 10]; }",                       // gather
        "foreach (int i in n threads) { out[k[i] * 10] = i; }",                          // scatter
        "foreach (int i in n threads) { out[i - 1] = i; }",                              // negative
        "foreach (int i in n threads) { int[4] t; for (int j = 0; j <= 4; j++) { t[j] = j; } out[i] = t[0]; }",
        "foreach (int i in n threads) { foreach (int j in n threads) { g[i, j + 1] = 1; } }",  // 2-D
        "for (int i = 0; i < n; i++) { g[i, n] = 2; }",
    };
    for (const std::string& body : bodies) {
        // the second index of g: the engine names it (a binary expression
        // at its operator), the interpreter the first index
        size_t second = body.find("g[i, ");
        size_t at = second == std::string::npos ? second : body.find_first_of("+n", second + 5);
        uint32_t column = at == std::string::npos ? 0 : static_cast<uint32_t>(4 + at + 1);
        SCOPED_TRACE(body);
        Compiled c = compile("module m;\nimport perfect;\n\nperfect void f(int n, const int[n] k, int[n] out, int[n, n] g) {\n    " + body +
                             "\n}\n");
        for (int n : {1, 16, 33}) {
            Args args;
            args.scalars["n"] = n;
            args.int_low = 1;
            args.int_high = 6;
            expect_same_fault(c, args, "index", column);
        }
    }
}

// Indices the range analysis (IndexRanges.h) must not take as proven:
// each misses its extent by one in some unit, and the engine must fault
// where the interpreter does.
TEST(LlvmEngine, AnIndexThatRangesDoNotProveIsStillChecked) {
    const std::vector<std::string> bodies = {
        "foreach (int i in n threads) { int j = i % 8; int[8] t; t[j] = 1; t[j + 1] = 2; out[i] = t[0]; }",
        "foreach (int i in n threads) { int[8] t; for (int k = 0; k <= 8; k++) { t[k] = k; } out[i] = t[0]; }",
        "foreach (int i in n threads) { int[8] t; for (int k = 0; k < 8; k++) { k = k + 0; t[k + 1] = k; } out[i] = t[0]; }",
        "foreach (int i in n threads) { int[8] t; t[-(i % 8)] = 1; out[i] = t[0]; }",
        "foreach (int i in n threads) { int[8] t; t[max(i, 1)] = 1; out[i] = t[0]; }",
        "foreach (int i in n threads) { int[8] t; t[divide_up(i, 1)] = 1; out[i] = t[0]; }",
        "foreach (int i in n threads) { int[8] t; t[(i % 16) / 1] = 1; out[i] = t[0]; }",
        "foreach (int i in n threads) { if (i < n) { out[i + 1] = 1; } }",
        "foreach (int i in m threads) { int x = i; if (x < m) { out[x] = 1; } }",
        "foreach (int i in n threads) { foreach (int j in m threads) { g[j, i] = 1; } }",
        "foreach (int i in n threads) { int x = 0; x = m - 1; out[x] = 1; }",
        "foreach (int i in n threads) { int x = i; if (x > m) { out[x] = 1; } else { out[x + 1] = 2; } }",
    };
    for (const std::string& body : bodies) {
        SCOPED_TRACE(body);
        Compiled c = compile("module m;\nimport perfect;\n\nperfect void f(int n, int m, int[n] out, int[n, n] g) {\n    " + body +
                             "\n}\n");
        for (int n : {9, 16, 33}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = n + 1;
            expect_same_fault(c, args, "index");
        }
    }
}

// Indices that are inside their extents by construction need no check:
// unit numbers and counters into constant tiles, a foreach index into the
// extent it counts to, a guarded index. The optimized code then reports
// no fault at all.
TEST(LlvmEngine, IndicesProvenInRangeAreNotChecked) {
    const std::string source = R"(module m;
import perfect;

perfect void f(int n, int m, const float[n] a, float[n] out, float[m] h, float[n, m] g) {
    const int tile = 16;
    foreach (int i in n threads) {
        float[tile] t;
        for (int k = 0; k < tile; k++) { t[k] = a[i] + toFloat(k); }
        int j = (i / 2) % tile;
        int r = i;
        out[i] = t[j] + t[tile - 1 - j] + t[min(j, 3)];
        if (r < m) { h[r] = t[r % tile]; }
        foreach (int c in m threads) { g[i, c] = t[c % tile]; }
    }
}
)";
    Compiled c = compile(source);
    ASSERT_TRUE(c.engine) << c.problem;
    EXPECT_THAT(units_function_ir(c), Not(HasSubstr("@mcl_llvm_fault")));
    for (int n : {1, 17, 40}) {
        Args args;
        args.scalars["n"] = n;
        args.scalars["m"] = n / 3 + 1;
        expect_same_results(c, args);
    }
}

// Near misses for the linear bounds (LinearBounds.h): each index reaches
// its extent in the last tile, step or unit when n and p are multiples of
// 12, and the engine must fault where the interpreter does.
TEST(LlvmEngine, AnIndexThatLinearBoundsDoNotProveIsStillChecked) {
    const std::vector<std::string> bodies = {
        "foreach (int t in n / 4 threads) { out[t * 4 + 4] = 1; }",
        "foreach (int t in n / 4 threads) { int i = t * 4; out[i + 4] = 1; }",
        "foreach (int t in n / 4 threads) { int i = t * 4; i += 1; out[i + 3] = 1; }",
        "foreach (int t in (n + 4) / 4 threads) { out[t * 4] = 1; }",
        "foreach (int t in n / 4 threads) { foreach (int v in 5 threads) { out[t * 4 + v] = 1; } }",
        "for (int k = 0; k < n / 4 * 4; k += 4) { out[k + 4] = 1; }",
        "for (int k = 1; k < n / 4 * 4; k += 4) { out[k + 3] = 1; }",
        "for (int k = 0; k < n / 3 * 4; k += 4) { out[k + 3] = 1; }",
        "for (int k = 0; k <= n / 4 * 4; k += 4) { out[k] = 1; }",
        "int full = n / 4 * 4; foreach (int r in n - full + 1 threads) { out[full + r] = 1; }",
        "foreach (int i in n threads) { int j = i + 1; if (i < m) { out[j] = 1; } }",
        "foreach (int t in n / 2 threads) { int j = 2 * t; out[j + 2] = 1; }",
        "foreach (int t in n / 2 threads) { g[t * 2 + 2, 0] = 1; }",
    };
    for (const std::string& body : bodies) {
        SCOPED_TRACE(body);
        Compiled c = compile("module m;\nimport perfect;\n\nperfect void f(int n, int m, int p, int[n] out, int[n, p] g) {\n    " +
                             body + "\n}\n");
        for (int n : {12, 24, 48}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = n + 1;
            args.scalars["p"] = n;
            expect_same_fault(c, args, "index");
        }
    }
}

// A register-tiled loop nest whose indices are inside only in relation to
// the sizes: rows of 6-row tiles over n / 6 tiles, columns k + 3 with k
// stepping by 4 below p / 4 * 4, the remainder rows after the tiles. The
// units' function has no check left, and computes what the interpreter
// does at every size, tiles or remainders empty included.
TEST(LlvmEngine, IndicesLinearBoundsProveAreNotChecked) {
    const std::string source = R"(module m;
import perfect;

perfect void f(int n, int m, int p, const float[n, p] a, float[n, m] c) {
    const int tileN = 6;
    const int nrTiles = n / tileN;
    const int fullP = p / 4 * 4;
    foreach (int ti in nrTiles threads) {
        foreach (int tj in m / 2 threads) {
            int i = ti * tileN;
            int j = tj * 2;
            float sum0 = 0.0;
            float sum5 = 0.0;
            for (int k = 0; k < fullP; k += 4) {
                sum0 += a[i, k] + a[i, k + 1] * a[i + 1, k + 2] - a[i + 2, k + 3];
                sum5 += a[i + 5, k + 3] * a[i + 4, k] + a[i + 3, k + 1];
            }
            c[i, j] = sum0;
            c[i + 5, j + 1] = sum5;
            c[ti * tileN + tileN - 1, j] = sum0 + sum5;
        }
    }
}
)";
    Compiled c = compile(source);
    ASSERT_TRUE(c.engine) << c.problem;
    EXPECT_THAT(units_function_ir(c), Not(HasSubstr("@mcl_llvm_fault")));
    for (int n : {0, 5, 6, 13, 36}) {
        for (int p : {0, 3, 4, 9}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = 5;
            args.scalars["p"] = p;
            expect_same_results(c, args);
        }
    }
}

// `&&` and `||` evaluate their right operand only where it decides: lanes
// beyond n must not index out of range.
TEST(LlvmEngine, ShortCircuitGuardsAnIndexInEveryLane) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n] a, const int[n] k, float[m] out, int[m] cnt) {
    foreach (int i in m threads) {
        float v = 0.0;
        if (i < n && a[i] > 0.0) { v = a[i]; }
        if (i >= n || a[i] < -0.5) { v = v - 1.0; }
        if (i < n && k[i] > 2 && a[k[i]] > 0.0) { v = v + 10.0; }
        out[i] = v;
        int c = 0;
        for (int j = 0; j < 5 && i + j < n; j++) { c += k[i + j]; }
        cnt[i] = c;
    }
}
)");
    for (int n : {7, 16, 20, 100}) {
        for (int extra : {0, 1, 9, 40}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = n + extra;
            args.int_high = 6;
            expect_same_results(c, args);
        }
    }
}

// --- power, min, max, divide_up, toInt, toFloat ------------------------------------------------

TEST(LlvmEngine, IntegerPowerIsExactWithNegativeExponents) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const int[n] base, const int[n] e, int[n] out, int[n] uni) {
    foreach (int i in n threads) {
        out[i] = base[i] ^ e[i];
        uni[i] = base[3] ^ e[5] + 2 ^ 10 - (-3) ^ 3;
    }
    out[0] = base[1] ^ e[2];
}
)");
    Args args;
    args.scalars["n"] = 18;
    args.arrays["base"] = {1, -1, 2, -2, 3, 1, -1, 7, -7, 2, 10, 5, -1, 1, 2, 46340, -3, 13};
    args.arrays["e"] = {-5, -5, -1, -3, 0, 0, 31, 2, 3, 30, 9, 13, -2, -100, 0, 2, 19, 8};
    expect_same_results(c, args);
}

// 0 ^ -1 is a division by zero for the interpreter (the engine gave 0
// without a fault before b9397d4).
TEST(LlvmEngine, ZeroToANegativePowerIsAFault) {
    Compiled c = compile("module m;\nimport perfect;\n\nperfect void f(int n, int z, int[n] out) {\n    out[0] = z ^ (z - 1);\n}\n");
    Args args;
    args.scalars["n"] = 1;
    expect_same_fault(c, args, "division by zero");
}

TEST(LlvmEngine, FloatPowerGivesTheInterpretersBits) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const float[n] a, const float[n] b, const double[n] d, float[n, 7] out, double[n, 2] dout) {
    foreach (int i in n threads) {
        float x = a[i] * a[i] * 4.0 + 0.001;
        out[i, 0] = x ^ b[i];
        out[i, 1] = x ^ 4;
        out[i, 2] = x ^ 3;
        out[i, 3] = x ^ 0.25;
        out[i, 4] = x ^ -2;
        out[i, 5] = 2.0 ^ (b[i] * 10.0);
        out[i, 6] = x ^ 1.5;
        dout[i, 0] = (d[i] * d[i]) ^ 3.5;
        dout[i, 1] = (d[i] * 3.0) ^ toDouble(b[i]);
    }
}
)");
    for (uint64_t seed : {1, 2, 3}) {
        Args args;
        args.scalars["n"] = 100;
        args.seed = seed;
        expect_same_results(c, args);
    }
}

// LLVM's simplifier rewrote pow(x, 2) as x * x, pow(x, 0.5) as
// fabs(sqrt(x)) and pow(x, -1) as 1 / x: correctly rounded, which glibc's
// powf (the interpreter's) is not always (x = 0x1.001p-1: x ^ 2 is
// 0x1.002002p-2 by powf, 0x1.002p-2 by x * x), and for x = -1 x ^ 0.5 was
// nan instead of -nan (fixed in b9397d4).
TEST(LlvmEngine, FloatPowerOfSmallAndNegativeNumbers) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const float[n] a, float[n, 3] out) {
    foreach (int i in n threads) {
        out[i, 0] = a[i] ^ 0.5;
        out[i, 1] = a[i] ^ -1;
        out[i, 2] = a[i] ^ 2;
    }
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 5;
    args.arrays["a"] = {0x1.001p-1, 0x1.03792p-129, 0x1.3a3d7p-128, 0x1.354134p-125, -1.0};
    expect_same_results(c, args);
}

TEST(LlvmEngine, MinMaxDivideUpToIntToFloat) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const int[n] a, const int[n] b, const float[n] x, const float[n] y, int[n, 6] io, float[n, 4] fo) {
    foreach (int i in n threads) {
        io[i, 0] = min(a[i], b[i]);
        io[i, 1] = max(a[i], b[i] - 3);
        io[i, 2] = divide_up(a[i], max(b[i], 0) + 1);
        io[i, 3] = divide_up(a[i] - 3, 4);
        io[i, 4] = toInt(min(x[i], y[i]) * 1000.0);
        io[i, 5] = min(i, 5) + max(3, i);
        fo[i, 0] = min(x[i], y[i]);
        fo[i, 1] = max(x[i], y[i]);
        fo[i, 2] = toFloat(a[i]) / 3.0;
        fo[i, 3] = max(x[i], toFloat(a[i]));
    }
    io[0, 0] = divide_up(n, 16) + min(n, 3);
}
)");
    for (int n : {1, 7, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        args.int_low = -10;
        args.int_high = 10;
        args.seed = static_cast<uint64_t>(n);
        expect_same_results(c, args);
    }
    // signed zeros and NaN: which operand min and max pick
    Args args;
    args.scalars["n"] = 6;
    double nan = std::numeric_limits<double>::quiet_NaN();
    args.arrays["x"] = {0.0, -0.0, nan, 1.0, nan, -1.0};
    args.arrays["y"] = {-0.0, 0.0, 1.0, nan, nan, -1.0};
    args.arrays["a"] = {0, 1, 2, 3, 4, 5};
    args.arrays["b"] = {0, 1, 2, 3, 4, 5};
    std::vector<StoragePtr> s = make_storages(*c.kernel, args);
    // toInt of a NaN is undefined: only the float outputs are compared
    ASSERT_TRUE(c.engine) << c.problem;
    std::vector<StoragePtr> got = deep_copy(s);
    ASSERT_FALSE(c.engine->run(got));
    // min(x, y) = x < y ? x : y, max(x, y) = x < y ? y : x, as the interpreter picks
    for (size_t i = 0; i < 6; ++i) {
        float x = static_cast<float>(args.arrays["x"][i]), y = static_cast<float>(args.arrays["y"][i]);
        float mn = x < y ? x : y, mx = x < y ? y : x;
        EXPECT_EQ(std::bit_cast<uint32_t>(static_cast<float>(got[6]->cells[i * 4 + 0].f)), std::bit_cast<uint32_t>(mn)) << i;
        EXPECT_EQ(std::bit_cast<uint32_t>(static_cast<float>(got[6]->cells[i * 4 + 1].f)), std::bit_cast<uint32_t>(mx)) << i;
    }
}

// --- records ---------------------------------------------------------------------------------------

const char* kRecordPrelude = R"(module m;
import perfect;

type P {
    float x;
    int k;
    float[3] v;
    bool on;
    double w;
}

perfect void bump(P p, const float d) {
    p.x = p.x + d;
    p.v[1] = p.v[0] * d + p.v[2];
    p.k = p.k + 1;
    p.on = !p.on;
    p.w = p.w * 2.0;
}

perfect float weight(const P p) {
    return p.x * toFloat(p.k) + p.v[2];
}
)";

TEST(LlvmEngine, RecordFieldsArraysInFieldsAndRecordParameters) {
    // scalar code: calls with records take the foreach off vector code
    Compiled c = compile(std::string(kRecordPrelude) + R"(
perfect void f(int n, P[n] ps, const float[n] d, float[n] out, const P origin) {
    foreach (int i in n threads) {
        bump(ps[i], d[i]);
        out[i] = weight(ps[i]) + origin.x + origin.v[i % 3];
    }
    P loc;
    loc.x = 1.0;
    loc.k = 2;
    loc.v[0] = 3.0;
    loc.v[1] = 4.0;
    loc.v[2] = 5.0;
    loc.on = true;
    loc.w = 0.5;
    bump(loc, 2.0);
    out[0] = loc.x + loc.v[1] + toFloat(loc.k) + toFloat(loc.w);
}
)");
    for (int n : {1, 7, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, RecordFieldsInVectorCode) {
    Compiled c = compile(std::string(kRecordPrelude) + R"(
perfect void f(int n, P[n] ps, float[n] out) {
    foreach (int i in n threads) {
        ps[i].x = ps[i].x * 2.0 + toFloat(ps[i].k);
        ps[i].on = ps[i].x > 0.0;
        out[i] = ps[i].x;
    }
}
)");
    for (int n : kSizes) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, ArrayFieldOfARecordInVectorCode) {
    Compiled c = compile(std::string(kRecordPrelude) + R"(
perfect void f(int n, P[n] ps, float[n] out) {
    foreach (int i in n threads) {
        out[i] = ps[i].v[1];
        ps[i].v[2] = ps[i].v[0] + toFloat(i);
    }
}
)");
    for (int n : {1, 16, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// `out[i] = ps[i]` in vector code copied the first lane's record only
// (fixed in b9397d4).
TEST(LlvmEngine, RecordCopyInVectorCode) {
    Compiled c = compile(std::string(kRecordPrelude) + R"(
perfect void f(int n, const P[n] ps, P[n] out) {
    foreach (int i in n threads) {
        out[i] = ps[i];
    }
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    for (int n : {1, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, RecordCopyInScalarCode) {
    Compiled c = compile(std::string(kRecordPrelude) + R"(
perfect void f(int n, const P[n] ps, P[n] out) {
    for (int i = 0; i < n; i++) {
        P t = ps[n - 1 - i];
        out[i] = t;
    }
}
)");
    for (int n : {1, 7, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// A function that returns a record, called in vector code (invalid IR
// before b9397d4), against the engine's own scalar loop.
TEST(LlvmEngine, RecordReturnedByAFunction) {
    const std::string prelude = R"(module m;
import perfect;
type C {
    float re;
    float im;
}

perfect C make(const float a) {
    C c;
    c.re = a;
    c.im = a * 2.0;
    return c;
}
)";
    Compiled scalar = compile(prelude + R"(
perfect void f(int n, const float[n] a, C[n] out) {
    for (int i = 0; i < n; i++) {
        out[i] = make(a[i]);
    }
}
)");
    ASSERT_TRUE(scalar.engine) << scalar.problem;
    Args args;
    args.scalars["n"] = 33;
    std::vector<double> want = engine_values(scalar, args, 2);
    ASSERT_EQ(want.size(), 66u);
    EXPECT_EQ(want[5], want[4] * 2.0);
    Compiled vector = compile(prelude + R"(
perfect void f(int n, const float[n] a, C[n] out) {
    foreach (int i in n threads) {
        out[i] = make(a[i]);
    }
}
)");
    ASSERT_TRUE(vector.engine) << vector.problem;
    EXPECT_EQ(engine_values(vector, args, 2), want);
}

// A record field whose size is a module constant (both the interpreter and
// the engine took it as 0 and faulted at every index; the cpp backend
// refused it).
TEST(LlvmEngine, RecordFieldSizedByAConstant) {
    Compiled c = compile(R"(module m;
import perfect;

const int N = 3;

type R {
    float[N] v;
    int k;
}

perfect void f(int n, R[n] r, float[n] out) {
    for (int i = 0; i < n; i++) {
        r[i].v[2] = r[i].v[1] + toFloat(r[i].k);
        out[i] = r[i].v[2];
    }
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 5;
    expect_same_results(c, args);
}

TEST(LlvmEngine, LibraryComplexNumbers) {
    Compiled c = compile(R"(module m;
import perfect;
import lib.math.complex;

perfect void f(int n, Complex[n] c, const Complex[n] a, const Complex[n] b) {
    foreach (int i in n threads) {
        Complex t;
        Complex u;
        mul(t, a[i], b[i]);
        add(u, t, a[i]);
        assign(c[i], u);
    }
}
)");
    for (int n : {1, 16, 17, 100}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// --- views and swaps -------------------------------------------------------------------------------

TEST(LlvmEngine, ViewsOfArrays) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a as float[n * m] flat, float[n * m] out as float[n, m] out2,
               float[n] rows) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            out2[i, j] = flat[i * m + j] * 2.0;
        }
    }
    for (int i = 0; i < n; i++) {
        float s = 0.0;
        for (int j = 0; j < m; j++) { s += flat[i * m + j] - a[i, j] * 0.5; }
        rows[i] = s;
    }
    a as float[m, n] turned;
    if (n > 1 && m > 1) { rows[1] = turned[1, 1]; }
    float[6] t as float[2, 3] t2;
    for (int k = 0; k < 6; k++) { t[k] = toFloat(k); }
    t as float[3, 2] t3;
    if (n > 0 && m > 0) { out[0] = t2[1, 2] + t3[2, 0]; }
}
)");
    expect_same_results_at_sizes(c, {1, 3, 17}, {1, 16, 33});
}

TEST(LlvmEngine, WholeArraySwapAndElementSwap) {
    // double buffering: a time step loop swaps the two buffers
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int steps, float[n] a, float[n] b, float[n][2] g, float[n] rest) {
    for (int t = 0; t < steps; t++) {
        foreach (int i in n threads) {
            float left = 0.0;
            if (i > 0) { left = a[i - 1]; }
            b[i] = (a[i] + left) * 0.5;
        }
        a <=> b;
    }
    for (int i = 0; i + 1 < n; i += 2) {
        g[i][0] <=> g[i + 1][1];
        g[i] <=> g[i + 1];
    }
    float[4] x;
    float[4] y;
    for (int k = 0; k < 4; k++) { x[k] = toFloat(k); y[k] = toFloat(10 * k); }
    x <=> y;
    x[0] <=> y[3];
    if (n > 1) { rest[0] = x[0] + x[1] * 2.0 + y[3]; rest[1] = y[0]; }
}
)");
    for (int steps : {0, 1, 2, 5}) {
        for (int n : {1, 16, 33}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["steps"] = steps;
            expect_same_results(c, args);
        }
    }
}

// After `a <=> b` the interpreter's view `a2` (a second form of a's
// declaration) still names a's first storage; the engine's view followed
// the swap (it shared a's pointer slot) before b9397d4.
TEST(LlvmEngine, AViewKeepsItsStorageAcrossASwap) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, float[n] out) {
    float[4] a as float[2, 2] a2;
    float[4] b;
    for (int k = 0; k < 4; k++) { a[k] = 1.0; b[k] = 2.0; }
    a <=> b;
    out[0] = a2[0, 0];
    out[1] = a[0];
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 2;
    expect_same_results(c, args);
}

// --- local arrays ---------------------------------------------------------------------------------

TEST(LlvmEngine, LocalArraysStartZeroed) {
    // small (stack), large (heap), of a parameter's size (heap), and one
    // declared in a loop, zeroed again on every iteration
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, float[n, 5] out) {
    foreach (int i in n threads) {
        int[8] small;
        float[5000] large;
        double[n] sized;
        bool[3] flags;
        float again = 0.0;
        for (int r = 0; r < 3; r++) {
            float[4] fresh;
            again += fresh[r];
            fresh[r] = 7.0;
        }
        out[i, 0] = toFloat(small[i % 8]);
        out[i, 1] = large[4999 - i % 5000];
        out[i, 2] = toFloat(sized[n - 1 - i]);
        if (flags[i % 3]) { out[i, 3] = 1.0; } else { out[i, 3] = 0.0; }
        out[i, 4] = again;
    }
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    for (int n : {1, 17, 40}) {
        Args args;
        args.scalars["n"] = n;
        std::vector<double> v = engine_values(c, args, 1);
        EXPECT_EQ(v, std::vector<double>(static_cast<size_t>(n) * 5, 0.0)) << n;
    }
}

TEST(LlvmEngine, LocalArraysWrittenThenRead) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const float[n] a, float[n] out, float[n] heap) {
    foreach (int i in n threads) {
        float[4] t;
        for (int k = 0; k < 4; k++) { t[k] = a[(i + k) % n]; }
        out[i] = t[0] + t[1] * t[2] - t[3];
        float[n] big;
        for (int k = 0; k < n; k++) { big[k] = a[k] * toFloat(i); }
        float s = 0.0;
        for (int k = n - 1; k >= 0; k--) { s += big[k]; }
        heap[i] = s;
    }
    float[4096] stack;
    for (int k = 0; k < 4096; k++) { stack[k] = toFloat(k); }
    if (n > 0) { out[0] = stack[4095] + stack[n - 1]; }
}
)");
    for (int n : {1, 7, 16, 33, 100}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, ZeroSizedArrays) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, float[m] out, float[n] rows) {
    float[m] t;
    foreach (int i in n threads) {
        float s = 0.0;
        for (int j = 0; j < m; j++) { s += a[i, j]; }
        rows[i] = s;
    }
    foreach (int j in m threads) { out[j] = 1.0; }
    for (int j = 0; j < m; j++) { t[j] = out[j]; }
}
)");
    for (auto [n, m] : std::vector<std::pair<int, int>>{{0, 0}, {0, 5}, {5, 0}, {1, 0}, {0, 1}}) {
        Args args;
        args.scalars["n"] = n;
        args.scalars["m"] = m;
        expect_same_results(c, args);
    }
}

// --- device functions --------------------------------------------------------------------------------

TEST(LlvmEngine, DeviceFunctions) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void inc(int x, const int by) {
    x = x + by;
}

perfect int fact(const int k) {
    if (k <= 1) { return 1; }
    return k * fact(k - 1);
}

perfect int fib(const int k) {
    if (k < 2) { return k; }
    return fib(k - 1) + fib(k - 2);
}

perfect float dot(int n, const float[n] x, const float[n] y) {
    float s = 0.0;
    for (int k = 0; k < n; k++) { s += x[k] * y[k]; }
    return s;
}

perfect void scale(int n, float[n] x, const float by) {
    for (int k = 0; k < n; k++) { x[k] = x[k] * by; }
}

perfect float poly(const float x) {
    return x * x * 3.0 - x + 0.25;
}

perfect void f(int n, int m, float[n][m] a, const float[m] b, int[n] k, float[n] out, int count) {
    foreach (int i in n threads) {
        scale(m, a[i], 0.5);
        out[i] = dot(m, a[i], b) + poly(b[0]);
        int mine = k[i];
        inc(mine, 3);
        inc(k[i], mine + fact(i % 8) + fib(i % 12));
    }
    foreach (int i in n threads) {
        out[i] = out[i] + poly(out[i]) + toFloat(fact(i % 6));
    }
    inc(count, n);
}
)");
    for (int n : {1, 7, 17, 33}) {
        for (int m : {1, 5, 16}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = m;
            args.scalars["count"] = 5;
            expect_same_results(c, args);
        }
    }
}

// --- lib.math ---------------------------------------------------------------------------------------

TEST(LlvmEngine, MathFunctionsGiveTheInterpretersBits) {
    const std::vector<std::string> unary = {"sqrt", "rsqrt", "exp", "exp2", "log",  "log2", "fabs",
                                            "floor", "ceil", "sin", "cos", "tan", "tanh", "erf",
                                            // on a CPU the native_ forms are the exact functions
                                            "native_exp", "native_log", "native_recip"};
    std::string body;
    for (size_t k = 0; k < unary.size(); ++k) body += fmt::format("        out[i, {}] = {}(x[i] * s);\n", k, unary[k]);
    body += fmt::format("        out[i, {}] = fmin(x[i], y[i]);\n", unary.size());
    body += fmt::format("        out[i, {}] = fmax(x[i], y[i] * s);\n", unary.size() + 1);
    body += fmt::format("        out[i, {}] = native_divide(x[i], y[i] * s);\n", unary.size() + 2);
    std::string kernel_level;
    for (size_t k = 0; k < unary.size(); ++k) kernel_level += fmt::format("    top[{}] = {}(x[0] * s + 0.5);\n", k, unary[k]);
    Compiled c = compile(fmt::format(R"(module m;
import perfect;
import lib.math;

perfect void f(int n, float s, const float[n] x, const float[n] y, float[n, {}] out, float[{}] top) {{
    foreach (int i in n threads) {{
{}    }}
{}}}
)",
                                     unary.size() + 3, unary.size(), body, kernel_level));
    for (double s : {1.0, 10.0, 100.0}) {
        for (int n : {1, 17, 100}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["s"] = s;
            args.seed = static_cast<uint64_t>(n * 7 + static_cast<int>(s));
            expect_same_results(c, args);
        }
    }
    // special values: signed zeros, infinities, NaN, subnormals, negatives
    Args args;
    args.scalars["n"] = 12;
    args.scalars["s"] = 1.0;
    double inf = std::numeric_limits<double>::infinity();
    double nan = std::numeric_limits<double>::quiet_NaN();
    args.arrays["x"] = {0.0, -0.0, inf, -inf, nan, 1e-40, -1e-40, -1.0, 88.8, -104.0, 1e30, 0.5};
    args.arrays["y"] = {-1.0, 1.0, nan, 1.0, 2.0, -inf, inf, -1.0, nan, 3.0, -1e30, 0.5};
    expect_same_results(c, args);
    // fmin and fmax of zeros of both signs (llvm.minnum picked +0 where
    // std::fmin gives -0 before b9397d4)
    args.arrays["y"] = {-0.0, 0.0, nan, 1.0, 2.0, -inf, inf, -1.0, nan, 3.0, -1e30, 0.5};
    expect_same_results(c, args);
}

// --- atomics ----------------------------------------------------------------------------------------

TEST(LlvmEngine, AtomicsFromManyUnits) {
    // float sums of small integers are exact in any order
    Compiled c = compile(R"(module m;
import perfect;
import lib.atomics;

perfect void f(int n, int bins, const int[n] v, int[bins] hist, float[bins] fhist, main float sum, main int count) {
    foreach (int i in n threads) {
        int b = v[i] % bins;
        atomicAddInt(hist[b], 1);
        atomicAdd(fhist[b], toFloat(v[i]));
        atomicAdd(sum, 1.0);
        atomicAddInt(count, v[i]);
    }
}
)");
    for (int n : {0, 1, 17, 1000}) {
        for (int bins : {1, 3, 16}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["bins"] = bins;
            args.scalars["sum"] = 2;
            args.scalars["count"] = -4;
            args.int_high = 50;
            args.arrays["fhist"] = std::vector<double>(static_cast<size_t>(bins), 0.0);
            expect_same_results(c, args);
        }
    }
}

// An int array of a small constant size that the parallel body only
// updates with atomicAddInt (a histogram) is counted in a copy per range of
// units and added into the array at the end of the range; an array too
// large, updated inside a called function, or of floats keeps its atomics.
// The counts are the interpreter's either way.
TEST(LlvmEngine, HistogramsCountIntoACopyPerRangeOfUnits) {
    Compiled c = compile(R"(module m;
import perfect;
import lib.atomics;

perfect void bump(int[16] h, int k) {
    atomicAddInt(h[k], 1);
}

perfect void f(int n, const int[n] v, int[256] hist, int[4, 8] pairs, int[5000] big, int[16] via_call,
               float[16] fhist) {
    foreach (int i in n threads) {
        int x = v[i];
        atomicAddInt(hist[x % 256], 1);
        atomicAddInt(pairs[x % 4, x % 8], x % 1000);
        atomicAddInt(big[x % 5000], 1);
        bump(via_call, x % 16);
        atomicAdd(fhist[x % 16], 1.0);
    }
}
)",
                         "f");
    ASSERT_TRUE(c.engine) << c.problem;
    std::string ir = units_function_ir(c);
    EXPECT_THAT(ir, HasSubstr("%hist.counts = alloca [256 x i32]"));
    EXPECT_THAT(ir, HasSubstr("%pairs.counts = alloca [32 x i32]"));
    for (const char* shared : {"big", "via_call", "fhist"}) EXPECT_THAT(ir, Not(HasSubstr(std::string(shared) + ".counts")));
    for (int n : {0, 1, 17, 1000, 100000}) {
        Args args;
        args.scalars["n"] = n;
        args.int_high = 1 << 20;
        args.arrays["fhist"] = std::vector<double>(16, 0.0);
        expect_same_results(c, args);
    }
}

// --- foreach nests at perfect ---------------------------------------------------------------------

// An innermost body with lane-varying ifs, lane-varying trip counts, a
// linear variable, gathers, a uniform read and integer work.
const char* kBody1D = R"(module m;
import perfect;

perfect void f(int n, const float[n] a, const int[n] k, float[n] out, int[n] iout) {
    foreach (int i in n threads) {
        float x = a[i];
        if (x > 0.0) {
            x = x * 2.0;
        } else {
            if (x < -0.5) { x = -x; } else { x = x + 1.0; }
        }
        int trips = k[i];
        float s = 0.0;
        for (int j = 0; j < trips; j++) {
            s += a[(i + j) % n];
        }
        int next = i + 1;
        if (next < n) { s = s - a[next] * 0.5; }
        out[i] = x + s + a[0];
        iout[i] = i * 3 + trips - k[n - 1 - i] + next % 4;
    }
}
)";

TEST(LlvmEngine, OneDimensionalNestAtEverySize) {
    Compiled c = compile(kBody1D);
    for (int n : kSizes) {
        Args args;
        args.scalars["n"] = n;
        args.seed = static_cast<uint64_t>(n) + 1;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, TwoDimensionalNestAtEverySize) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, const int[m] k, float[n, m] out, float[n] rowsum) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            float v = a[i, j];
            if (j % 3 == 0 && v > 0.0) { v = v * 10.0; }
            float s = 0.0;
            for (int t = 0; t < k[j]; t++) { s += a[i, (j + t) % m]; }
            out[i, j] = v + s;
            if (j == 0) {
                float r = 0.0;
                for (int t = 0; t < m; t++) { r += a[i, t]; }
                rowsum[i] = r;
            }
        }
    }
}
)");
    for (int n : {0, 1, 7, 16, 17}) {
        for (int m : kSizes) {
            if (n * m > 20000) continue;
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = m;
            args.seed = static_cast<uint64_t>(n * 1000 + m);
            expect_same_results(c, args);
        }
    }
}

TEST(LlvmEngine, ThreeDimensionalNestAtEverySize) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, int p, const float[n, m, p] a, float[n, m, p] out, int[n, m, p] where) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            foreach (int k in p threads) {
                float v = a[i, j, k];
                if (k > 0) { v = v + a[i, j, k - 1]; }
                if (i + 1 < n && j + 1 < m) { v = v - a[i + 1, j + 1, k]; }
                out[i, j, k] = v;
                where[i, j, k] = (i * m + j) * p + k;
            }
        }
    }
}
)");
    for (int n : {0, 1, 3}) {
        for (int m : {1, 7, 17}) {
            for (int p : kSizes) {
                if (n * m * p > 20000) continue;
                Args args;
                args.scalars["n"] = n;
                args.scalars["m"] = m;
                args.scalars["p"] = p;
                expect_same_results(c, args);
            }
        }
    }
}

// A reduction in a nested loop, written by one lane (`if (j == 0)`), and a
// varying value stored at a uniform index by exactly one lane.
TEST(LlvmEngine, ReductionsWrittenByOneLane) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, float[n] out, int[n] last, float[n] mine) {
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            float s = 0.0;
            for (int t = 0; t < m; t++) { s += a[i, t]; }
            if (j == 0) { out[i] = s; }
            if (j == m - 1) { last[i] = j; }
            if (j == i % m) { mine[i] = a[i, j] + toFloat(j); }
        }
    }
}
)");
    expect_same_results_at_sizes(c, {1, 7, 33}, {1, 2, 15, 16, 17, 100});
}

// A float sum over a loop in scalar code (the local array keeps the body
// out of vector code) is vectorized by LLVM's loop vectorizer with its adds
// in source order (an ordered llvm.vector.reduce.fadd, no reassociation):
// the loads and multiplies become vector code, the results stay the
// interpreter's bit for bit.
TEST(LlvmEngine, AFloatSumInAScalarLoopVectorizesWithItsAddsInOrder) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, const float[m] b, float[n] out) {
    foreach (int i in n threads) {
        float[2] start;
        start[0] = 0.5;
        start[1] = 0.25;
        float s = start[i % 2];
        for (int k = 0; k < m; k++) { s += a[i, k] * b[k]; }
        out[i] = s;
    }
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    std::string ir = units_function_ir(c);
    EXPECT_THAT(ir, HasSubstr("@llvm.vector.reduce.fadd"));
    EXPECT_THAT(ir, Not(HasSubstr("reassoc")));
    expect_same_results_at_sizes(c, {1, 7}, {1, 15, 16, 17, 63, 64, 65, 1000});
}

// Without checks (objects, like C) int arithmetic is nsw, so that LLVM
// widens `e + 1` to 64-bit addressing: the loop of four partial sums
// unrolled by hand (spmv_x86's) runs on one 64-bit induction variable (with
// wrapping adds its `e` stayed a 32-bit phi), each sum keeps its adds in
// order, and the results stay the interpreter's. Whether the vectorizer
// then takes the loop is the host CPU's cost model (znver3: two of the four
// sums, in one 2-lane vector), so the test does not ask.
TEST(LlvmEngine, WithoutChecksIndexSumsOfAnUnrolledLoopAreWidened) {
    const std::string source = R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, const int[n] starts, const int[m] cols, const float[m] x,
               float[n] out) {
    foreach (int i in n threads) {
        float[1] keep_scalar;
        keep_scalar[0] = 0.0;
        int begin = starts[i];
        int end4 = begin + (m - begin) / 4 * 4;
        float s0 = keep_scalar[0];
        float s1 = 0.0;
        float s2 = 0.0;
        float s3 = 0.0;
        for (int e = begin; e < end4; e = e + 4) {
            s0 += a[i, e] * x[cols[e]];
            s1 += a[i, e + 1] * x[cols[e + 1]];
            s2 += a[i, e + 2] * x[cols[e + 2]];
            s3 += a[i, e + 3] * x[cols[e + 3]];
        }
        for (int e = end4; e < m; e++) { s0 += a[i, e] * x[cols[e]]; }
        out[i] = (s0 + s1) + (s2 + s3);
    }
}
)";
    EngineOptions unchecked;
    unchecked.checks = false;
    unchecked.keep_ir = true;
    Compiled c = compile(source, "", unchecked);
    ASSERT_TRUE(c.engine) << c.problem;
    const std::string& ir = c.engine->optimized_ir();
    EXPECT_THAT(ir, Not(HasSubstr("phi i32"))) << ir;
    EXPECT_THAT(ir, Not(HasSubstr("reassoc")));
    expect_same_results_at_sizes(c, {1, 5}, {7, 8, 9, 63, 64, 65, 1000});
}

TEST(LlvmEngine, DoublesInVectorCode) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const double[n] a, const double[n] b, double[n] out, double[n] acc) {
    foreach (int i in n threads) {
        double x = a[i] * b[i] + 1.0 / (a[i] + 3.0);
        if (x > 0.25) { x = x * x; }
        double s = 0.0;
        for (int k = 0; k < i % 9; k++) { s += b[k % n] * toDouble(k); }
        out[i] = x;
        acc[i] = s + toDouble(toFloat(x));
    }
}
)");
    for (int n : kSizes) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, BoolsAndBytesInVectorCode) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const bool[n] q, const byte[n] b, bool[n] oq, byte[n] ob, int[n] oi) {
    foreach (int i in n threads) {
        bool t = q[i] && b[i] > 100 || !q[(i + 1) % n];
        oq[i] = t;
        byte x = b[i];
        x = x + 200;
        x = x * 3;
        ob[i] = x;
        byte y = 0;
        for (int k = 0; k < 40; k++) { y = y + b[i]; }
        if (t) { oi[i] = y; } else { oi[i] = -y; }
    }
}
)");
    for (int n : kSizes) {
        if (n == 0) continue;
        Args args;
        args.scalars["n"] = n;
        args.seed = static_cast<uint64_t>(n) * 3;
        expect_same_results(c, args);
    }
}

// int parameters used as floats and doubles, and conversions of the index.
TEST(LlvmEngine, IntParametersUsedAsFloats) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int scale, float[n] out, double[n] dout) {
    float s = scale;
    foreach (int i in n threads) {
        out[i] = s * toFloat(i) / toFloat(n) + scale;
        dout[i] = toDouble(i) / n + toDouble(scale) * 0.1;
    }
}
)");
    for (int n : {1, 7, 100}) {
        for (int scale : {-3, 0, 1000, 16777217}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["scale"] = scale;
            expect_same_results(c, args);
        }
    }
}

// C converts the int to float before `float + int`; the interpreter added
// the exact int in double precision and rounded once (fixed in b9397d4).
TEST(LlvmEngine, FloatPlusAnIntThatFloatsCannotHold) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int big, const float[n] a, float[n] out, bool[n] gt) {
    foreach (int i in n threads) {
        out[i] = a[i] + big;
        gt[i] = big > 16777216.0;
    }
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 1;
    args.scalars["big"] = 16777217;
    args.arrays["a"] = {0.5};
    expect_same_results(c, args);
}

TEST(LlvmEngine, ForeachOverNoUnitsOrANegativeCount) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, float[n] out) {
    foreach (int i in m threads) {
        out[0] = 1.0;
    }
    foreach (int i in n threads) {
        foreach (int j in m threads) {
            out[i] = 2.0;
        }
    }
    for (int t = 0; t < 2; t++) {
        foreach (int i in m - n threads) { out[i] = 3.0; }
    }
}
)");
    for (int m : {0, -1, -1000}) {
        Args args;
        args.scalars["n"] = 5;
        args.scalars["m"] = m;
        expect_same_results(c, args);
    }
}

// A nest of six foreach loops, and loops and ifs nested deep inside one.
TEST(LlvmEngine, VeryDeepNests) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int[n, 3, 2, 3, 2, 5] out, int[n] deep) {
    foreach (int a in n threads) {
        foreach (int b in 3 threads) {
            foreach (int c in 2 threads) {
                foreach (int d in 3 threads) {
                    foreach (int e in 2 threads) {
                        foreach (int g in 5 threads) {
                            out[a, b, c, d, e, g] = ((((a * 3 + b) * 2 + c) * 3 + d) * 2 + e) * 5 + g;
                        }
                    }
                }
            }
        }
    }
    foreach (int a in n threads) {
        int s = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < a % 4; j++) {
                if (i != j) {
                    for (int k = 0; k < 2; k++) {
                        if ((a + k) % 2 == 0) {
                            for (int l = i; l < 3; l++) {
                                if (l > j || a > 5) { s += i * 1000 + j * 100 + k * 10 + l; } else { s -= 1; }
                            }
                        }
                    }
                }
            }
        }
        deep[a] = s;
    }
}
)");
    for (int n : {0, 1, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// --- x86_avx2: threads and vectors ----------------------------------------------------------------

TEST(LlvmEngine, ThreadsAndVectorsAtX86) {
    Compiled c = compile(R"(module m;
import x86_avx2;

x86_avx2 void f(int n, int m, int v, const float[n, m] a, float[n, m] out, double[n] dsum, int[n, v] lanes) {
    foreach (int i in n threads) {
        foreach (int t in divide_up(m, 8) threads) {
            foreach (int w in 8 vectors) {
                int j = t * 8 + w;
                if (j < m) {
                    out[i, j] = a[i, j] * 2.0 + toFloat(w);
                }
            }
        }
    }
    foreach (int i in n threads) {
        foreach (int w in 8 vectors) {
            if (w == 0) {
                double s = 0.0;
                for (int j = 0; j < m; j++) { s += toDouble(a[i, j]); }
                dsum[i] = s;
            }
        }
        foreach (int w in v vectors) {
            lanes[i, w] = w * 10 + i;
        }
    }
}
)");
    for (int n : {0, 1, 7, 33}) {
        for (int m : {0, 1, 7, 8, 9, 16, 100}) {
            for (int v : {0, 1, 5, 8, 13, 16}) {
                Args args;
                args.scalars["n"] = n;
                args.scalars["m"] = m;
                args.scalars["v"] = v;
                expect_same_results(c, args);
            }
        }
    }
}

// --- row tiles: each lane reading along its own row (RowTiles.h) ------------------------------------


// gesummv's pattern: the lanes over the rows, a loop over the columns. The
// rows are read through tiles (no gathers); every lane, column and size,
// rows shorter than a tile and tails of rows included, gives the
// interpreter's bits.
TEST(LlvmEngine, RowTilesReadEachLanesRow) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, const float[n, m] b, const float[m] x, float[n] y,
               const double[n, m] d, double[n] dy, const int[n, m] k, int[n] ky) {
    foreach (int i in n threads) {
        float sa = 0.0;
        float sb = 0.0;
        double sd = 0.0;
        int sk = 0;
        for (int j = 0; j < m; j++) {
            sa += a[i, j] * x[j];
            sb += b[i, j] * x[j];
            sd += d[i, j];
            sk = (sk * 3 + k[i, j]) % 100003;
        }
        y[i] = 1.5 * sa + 2.5 * sb;
        dy[i] = sd;
        ky[i] = sk;
    }
}
)");
    EXPECT_THAT(units_function_ir(c), AllOf(HasSubstr("tile.fill"), Not(HasSubstr("masked.gather"))));
    expect_same_results_at_sizes(c, {1, 7, 16, 17, 33, 100}, {0, 1, 3, 8, 15, 16, 17, 40}, 1000);
}

// Columns that do not walk up one by one: backwards, in steps of 3, a
// column computed from the loop variable, a loop variable the body moves,
// and a nested loop revisiting columns; each use still reads its own column.
TEST(LlvmEngine, RowTilesFollowAnyColumnOrder) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, float[n, 5] out) {
    foreach (int i in n threads) {
        float s0 = 0.0;
        float s1 = 0.0;
        float s2 = 0.0;
        float s3 = 0.0;
        float s4 = 0.0;
        for (int j = m - 1; j >= 0; j--) { s0 = s0 * 0.5 + a[i, j]; }
        for (int j = 1; j < m; j += 3) { s1 = s1 * 0.5 + a[i, j]; }
        for (int j = 0; j < m / 2; j++) { s2 = s2 * 0.5 + a[i, m - 1 - 2 * j]; }
        for (int j = 0; j < m; j++) {
            s3 = s3 * 0.5 + a[i, j];
            if (j % 4 == 1) { j = j + 5; }
        }
        for (int j = 0; j < m; j += 7) {
            for (int q = j; q >= 0; q -= 2) { s4 = s4 * 0.5 + a[i, q]; }
        }
        out[i, 0] = s0;
        out[i, 1] = s1;
        out[i, 2] = s2;
        out[i, 3] = s3;
        out[i, 4] = s4;
    }
}
)");
    EXPECT_THAT(units_function_ir(c), HasSubstr("tile.fill"));
    expect_same_results_at_sizes(c, {1, 17, 33}, {1, 2, 9, 16, 31, 50});
}

// Rows that change inside the loop (a row variable the loop moves, a row
// computed from the column) and active lanes that change with the column.
// The tile is loaded again whenever a lane's row moved or a lane that was
// not loaded becomes active. (A loop whose trip count differs between the
// lanes is not vector code: VaryingAnalysis.h.)
TEST(LlvmEngine, RowTilesFollowMovingRowsAndLanes) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, const float[n, m] a, float[n, 3] out) {
    foreach (int i in n threads) {
        float s0 = 0.0;
        float s1 = 0.0;
        float s2 = 0.0;
        int r = i;
        for (int j = 0; j < m; j++) {
            s0 = s0 * 0.5 + a[r, j];
            if (j % 3 == 2) { r = (r + 1) % n; }
            s1 = s1 * 0.5 + a[(i + j) % n, j];
            if ((i + j) % 3 == 0) { s2 = s2 * 0.5 + a[i, j]; }
        }
        out[i, 0] = s0;
        out[i, 1] = s1;
        out[i, 2] = s2;
    }
}
)");
    EXPECT_THAT(units_function_ir(c), HasSubstr("tile.fill"));
    expect_same_results_at_sizes(c, {1, 7, 17, 33, 100}, {1, 5, 16, 23});
}

// A loop that writes an array (here the one it reads) could change an
// element between a tile's load and its use: it gathers instead. So does a
// loop that calls a user function (which may write its arguments); a math
// function writes nothing.
TEST(LlvmEngine, RowTilesOnlyWhereTheLoopWritesNoArray) {
    Compiled writes = compile(R"(module m;
import perfect;

perfect void f(int n, int m, float[n, m] a, float[n] out) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int j = 0; j < m; j++) {
            s = s * 0.5 + a[i, j];
            if (j + 1 < m) { a[i, j + 1] = a[i, j + 1] + s; }
        }
        out[i] = s;
    }
}
)");
    EXPECT_THAT(units_function_ir(writes), Not(HasSubstr("tile.fill")));
    Compiled calls = compile(R"(module m;
import perfect;

perfect float twice(const float v) { return 2.0 * v; }

perfect void f(int n, int m, const float[n, m] a, float[n] out) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int j = 0; j < m; j++) { s = s * 0.5 + twice(a[i, j]); }
        out[i] = s;
    }
}
)");
    EXPECT_THAT(units_function_ir(calls), Not(HasSubstr("tile.fill")));
    Compiled math = compile(R"(module m;
import perfect;
import lib.math;

perfect void f(int n, int m, const float[n, m] a, float[n] out) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int j = 0; j < m; j++) { s = s * 0.5 + fabs(a[i, j]); }
        out[i] = s;
    }
}
)");
    EXPECT_THAT(units_function_ir(math), HasSubstr("tile.fill"));
    for (const Compiled* c : {&writes, &calls, &math}) {
        for (int n : {1, 17, 33}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = 19;
            expect_same_results(*c, args);
        }
    }
}

// A field of the records in the lanes' rows is not a row of floats: it is
// gathered (a tile would read the next fields as the next columns).
TEST(LlvmEngine, RowTilesLeaveFieldsOfRecordsToGathers) {
    Compiled c = compile(std::string(kRecordPrelude) + R"(
perfect void f(int n, int m, const P[n, m] ps, float[n] out) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int j = 0; j < m; j++) { s = s * 0.5 + ps[i, j].x + ps[i, j].v[2]; }
        out[i] = s;
    }
}
)");
    EXPECT_THAT(units_function_ir(c), Not(HasSubstr("tile.fill")));
    expect_same_results_at_sizes(c, {1, 17, 33}, {1, 9, 20});
}

// A column past the row's end faults where the interpreter does (the tile
// reads nothing beyond the row; the engine names the column's own index,
// the interpreter its index group), and so does a row past the last.
TEST(LlvmEngine, RowTilesFaultAtAColumnOrRowOutOfRange) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, int m, int e, int r, const float[n, m] a, float[n] out) {
    foreach (int i in n threads) {
        float s = 0.0;
        for (int j = 0; j < m + e; j++) { s = s + a[i + r, j]; }
        out[i] = s;
    }
}
)");
    Args args;
    args.scalars["n"] = 17;
    args.scalars["m"] = 9;
    args.scalars["e"] = 1;
    expect_same_fault(c, args, "outside the array's extent", 60);
    args.scalars["e"] = 0;
    args.scalars["r"] = 1;
    expect_same_fault(c, args, "outside the array's extent");
    args.scalars["r"] = 0;
    expect_same_results(c, args);
}

// At x86_avx2 the lanes are `vectors` of 8: tiles of 8 x 8, and of bytes.
TEST(LlvmEngine, RowTilesAtX86Vectors) {
    Compiled c = compile(R"(module m;
import x86_avx2;

x86_avx2 void f(int n, int m, const float[n, m] a, const byte[n, m] b, float[n] out, int[n] bout) {
    foreach (int t in divide_up(n, 8) threads) {
        foreach (int w in 8 vectors) {
            int i = t * 8 + w;
            if (i < n) {
                float s = 0.0;
                int q = 0;
                for (int j = 0; j < m; j++) {
                    s = s * 0.5 + a[i, j];
                    q = (q * 7 + b[i, j]) % 10007;
                }
                out[i] = s;
                bout[i] = q;
            }
        }
    }
}
)");
    EXPECT_THAT(units_function_ir(c), HasSubstr("tile.fill"));
    expect_same_results_at_sizes(c, {1, 7, 8, 9, 33}, {1, 7, 8, 9, 30});
}

// --- gpu levels: barriers and lock-step -----------------------------------------------------------

TEST(LlvmEngine, TreeReductionWithBarriersInALoop) {
    Compiled c = compile(R"(module m;
import gpu;

gpu void f(int n, int nb, const dev float[n] src, dev float[nb] out) {
    foreach (int b in nb blocks) {
        local float[64] part;
        foreach (int t in 64 threads) {
            int i = b * 64 + t;
            if (i < n) { part[t] = src[i]; } else { part[t] = 0.0; }
            barrier(local);
            for (int s = 32; s > 0; s = s / 2) {
                if (t < s) { part[t] = part[t] + part[t + s]; }
                barrier(local);
            }
            if (t == 0) { out[b] = part[0]; }
        }
    }
}
)");
    for (int n : {1, 7, 64, 65, 100, 1000}) {
        Args args;
        args.scalars["n"] = n;
        args.scalars["nb"] = (n + 63) / 64;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, TiledMatmulWithTwoDimensionalThreads) {
    Compiled c = compile(R"(module m;
import gpu;

gpu void f(int n, dev float[n, n] c, const dev float[n, n] a, const dev float[n, n] b) {
    foreach (int bi in divide_up(n, 4) blocks) {
        foreach (int bj in divide_up(n, 4) blocks) {
            local float[4, 4] ta;
            local float[4, 4] tb;
            foreach (int ti in 4 threads) {
                foreach (int tj in 4 threads) {
                    int i = bi * 4 + ti;
                    int j = bj * 4 + tj;
                    float sum = 0.0;
                    for (int kt = 0; kt < divide_up(n, 4); kt++) {
                        int ka = kt * 4 + tj;
                        int kb = kt * 4 + ti;
                        if (i < n && ka < n) { ta[ti, tj] = a[i, ka]; } else { ta[ti, tj] = 0.0; }
                        if (kb < n && j < n) { tb[ti, tj] = b[kb, j]; } else { tb[ti, tj] = 0.0; }
                        barrier(local);
                        for (int k = 0; k < 4; k++) { sum += ta[ti, k] * tb[k, tj]; }
                        barrier(local);
                    }
                    if (i < n && j < n) { c[i, j] = sum; }
                }
            }
        }
    }
}
)");
    for (int n : {1, 4, 7, 17, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// Statements before a nested foreach over threads, per-thread arrays and
// scalars that live across barriers.
TEST(LlvmEngine, PerThreadValuesAcrossBarriers) {
    Compiled c = compile(R"(module m;
import gpu;

gpu void f(int nb, const dev float[nb, 32] src, dev float[nb, 32] out, dev int[nb, 32] iout) {
    foreach (int b in nb blocks) {
        local float[32] sh;
        local int[32] order;
        foreach (int t in 32 threads) {
            float[3] mine;
            int twice = t * 2;
            mine[0] = src[b, t];
            mine[1] = mine[0] * 2.0;
            sh[t] = mine[0];
            order[t] = 31 - t;
            barrier(local);
            mine[2] = sh[(t + 1) % 32];
            int other = order[t];
            barrier(local);
            sh[t] = mine[2] * 0.5;
            barrier(local);
            out[b, t] = mine[0] + mine[1] + mine[2] + sh[other];
            iout[b, t] = twice + other;
        }
    }
}
)");
    for (int nb : {1, 2, 5}) {
        Args args;
        args.scalars["nb"] = nb;
        expect_same_results(c, args);
    }
}

TEST(LlvmEngine, SharedMemoryBarrierAtHopper) {
    Compiled c = compile(R"(module m;
import hopper;

hopper void f(int nb, const global float[nb, 64] src, global float[nb, 64] out) {
    foreach (int b in nb blocks) {
        shared float[64] s;
        foreach (int w in 2 warps) {
            foreach (int t in 32 threads) {
                int me = w * 32 + t;
                s[me] = src[b, me];
                barrier(shared);
                out[b, me] = s[63 - me] + s[(me + 1) % 64];
            }
        }
    }
}
)");
    for (int nb : {1, 3}) {
        Args args;
        args.scalars["nb"] = nb;
        expect_same_results(c, args);
    }
}

// A barrier over `main` at perfect: all units of the kernel in lock-step.
TEST(LlvmEngine, KernelWideBarrierAtPerfect) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, float[n] a, float[n] out) {
    foreach (int i in n threads) {
        a[i] = a[i] * 2.0;
        barrier(main);
        out[i] = a[(i + 1) % n] + a[i];
    }
}
)");
    for (int n : {1, 7, 33}) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// Two blocks write the same element: a race the oracle must report, or
// verify compares the engine with an arbitrary order of blocks; also with a
// barrier(local) between, which orders only the threads of one block (it
// hid the race until the interpreter's barriers ordered only the units
// they synchronise).
TEST(LlvmEngine, TheInterpreterSeesARaceBetweenBlocksAcrossABarrier) {
    const std::string without = R"(module m;
import gpu;

gpu void f(int m, dev int[m] out) {
    foreach (int b in 2 blocks) {
        foreach (int t in m threads) {
            out[t] = b;
        }
    }
}
)";
    std::string with = without;
    with.replace(with.find("            out[t] = b;"), 0, "            barrier(local);\n");
    for (const std::string& source : {without, with}) {
        SCOPED_TRACE(source);
        Compiled c = compile(source);
        Args args;
        args.scalars["m"] = 3;
        std::vector<StoragePtr> s = make_storages(*c.kernel, args);
        auto error = interpret::run_kernel(*c.checked.library, *c.kernel, s, {});
        ASSERT_TRUE(error) << "no race reported";
        EXPECT_THAT(error->message, HasSubstr("data race on 'out'"));
    }
}

TEST(LlvmEngine, GpuKernelWithoutBarriers) {
    Compiled c = compile(R"(module m;
import gpu;

gpu void f(int n, const dev float[n] a, dev float[n] out) {
    foreach (int b in divide_up(n, 32) blocks) {
        foreach (int t in 32 threads) {
            int i = b * 32 + t;
            if (i < n) { out[i] = a[i] * toFloat(t) + toFloat(b); }
        }
    }
}
)");
    for (int n : kSizes) {
        Args args;
        args.scalars["n"] = n;
        expect_same_results(c, args);
    }
}

// A function with a barrier, called in lock-step code: its body runs in
// place for the threads together, its value kept per thread.
TEST(LlvmEngine, ABarrierInACalledFunctionRunsForTheThreadsTogether) {
    Compiled c = compile(R"(module m;
import gpu;

gpu float swap_halves(local float[32] s, const int t, float mine) {
    s[t] = mine;
    barrier(local);
    float other = s[(t + 16) % 32];
    barrier(local);
    return other;
}

gpu void f(int nb, dev float[nb, 32] out) {
    foreach (int b in nb blocks) {
        local float[32] s;
        foreach (int t in 32 threads) {
            float x = 1.0 + swap_halves(s, t, toFloat(b * 32 + t));
            out[b, t] = x + swap_halves(s, t, x * 2.0);
        }
    }
}
)");
    for (int nb : {1, 3}) {
        Args args;
        args.scalars["nb"] = nb;
        expect_same_results(c, args);
    }
}

// One it cannot lower in place: a return before the last statement.
TEST(LlvmEngine, ABarrierInAFunctionThatReturnsEarlyIsALocatedError) {
    Compiled c = compile(R"(module m;
import gpu;

gpu void sync(local float[32] s, const int t) {
    s[t] = 1.0;
    barrier(local);
    if (t > 40) { return; }
    s[t] = 2.0;
}

gpu void f(int nb, dev float[nb, 32] out) {
    foreach (int b in nb blocks) {
        local float[32] s;
        foreach (int t in 32 threads) {
            sync(s, t);
            out[b, t] = s[t];
        }
    }
}
)");
    EXPECT_FALSE(c.engine);
    EXPECT_THAT(c.problem, HasSubstr("t.mcl:15:13: error: backend 'llvm' does not support a call of a function with "
                                     "a barrier that returns before its last statement"));
}

// --- the example applications --------------------------------------------------------------------------

TEST(LlvmEngine, ExampleMatmulVersionsMatchTheInterpreter) {
    for (const char* file : {"matmul/matmul.mcl", "matmul/matmul_gpu.mcl", "matmul/matmul_gpu_v1.mcl",
                             "matmul/matmul_hopper.mcl", "matmul/matmul_x86_avx2.mcl"}) {
        SCOPED_TRACE(file);
        Compiled c;
        c.checked = mcpl::testing::check_files({std::string(MCL_EXAMPLES_DIR) + "/" + file}, {MCL_EXAMPLES_DIR});
        mcpl::testing::expect_clean(c.checked);
        c.kernel = find_kernel(c.checked, "matmul");
        ASSERT_TRUE(c.kernel);
        std::string error;
        c.engine = CompiledKernel::compile(*c.kernel, *c.checked.library, {}, *c.checked.diags, error);
        ASSERT_TRUE(c.engine) << c.checked.text() << error;
        for (auto [n, m, p] : std::vector<std::array<int, 3>>{{1, 1, 1}, {7, 9, 5}, {17, 33, 16}}) {
            Args args;
            args.scalars["n"] = n;
            args.scalars["m"] = m;
            args.scalars["p"] = p;
            expect_same_results(c, args);
        }
    }
}

// A foreach whose units meet at a barrier, over no units: nothing runs.
// The engine evaluated a condition around a barrier for the first unit,
// which does not exist: a loop whose step no unit runs never ended, and an
// index of that unit was out of range (fixed in b9397d4).
TEST(LlvmEngine, LockStepForeachOverNoUnits) {
    Compiled loop = compile(R"(module m;
import gpu;

gpu void f(int n, int m, dev int[2, n] out) {
    foreach (int b in 2 blocks) {
        foreach (int t in m threads) {
            for (int r = 0; r < 3; r++) {
                barrier(local);
            }
            out[b, t] = b;
        }
    }
}
)");
    Compiled indexed = compile(R"(module m;
import gpu;

gpu void f(int n, int m, const dev int[n] cnt, dev int[2, n] out) {
    foreach (int b in 2 blocks) {
        foreach (int t in m threads) {
            if (cnt[t] > 0) {
                barrier(local);
            }
            out[b, t] = b;
        }
    }
}
)");
    ASSERT_TRUE(loop.engine) << loop.problem;
    ASSERT_TRUE(indexed.engine) << indexed.problem;
    for (int m : {3, 1}) {
        Args args;
        args.scalars["n"] = m;
        args.scalars["m"] = m;
        args.int_low = 1;
        expect_same_results(loop, args);
        expect_same_results(indexed, args);
    }
    for (int m : {0, -2}) {
        Args args;
        args.scalars["n"] = 0;
        args.scalars["m"] = m;
        ASSERT_TRUE(engine_ends_within(loop, make_storages(*loop.kernel, args), 10)) << "m = " << m << ": hangs";
        expect_same_results(loop, args);
        expect_same_results(indexed, args);
    }
}

// After a fault the engine goes on with a harmless value (element 0 for an
// index out of range). Where that value decides a loop's progress, the
// kernel must still end, with the fault (it hung before b9397d4).
TEST(LlvmEngine, AFaultThatDecidesALoopEndsTheKernel) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, const int[n] step, int[n] out) {
    int total = 0;
    for (int k = 0; k < 10; k += step[k + n] - step[0]) {
        total += 1;
    }
    out[0] = total;
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 4;
    ASSERT_TRUE(engine_ends_within(c, make_storages(*c.kernel, args), 10)) << "hangs";
    expect_same_fault(c, args, "index");
}

// A local array of negative size is an error at its declaration for the
// interpreter; the engine allocated one element and checked indices against
// the negative extent as an unsigned number, so every index passed: a heap
// overflow that aborted mclc (fixed in b9397d4).
TEST(LlvmEngine, ALocalArrayOfNegativeSizeIsAFaultNotACrash) {
    Compiled c = compile(R"(module m;
import perfect;

perfect void f(int n, float[n] out) {
    float[n - 40] t;
    for (int k = 0; k < 100000; k++) { t[k] = 1.0; }
    out[0] = t[5];
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 33;
    std::vector<StoragePtr> s = make_storages(*c.kernel, args);
    auto interpreted = interpret::run_kernel(*c.checked.library, *c.kernel, deep_copy(s), {});
    ASSERT_TRUE(interpreted);
    EXPECT_THAT(interpreted->message, HasSubstr("array size is negative"));
    EXPECT_EQ(engine_run_in_child(c, s, 20), "fault");
}

// The interpreter refuses calls nested more than 1000 deep; the engine's
// recursion ran until the stack overflowed (fixed in b9397d4).
TEST(LlvmEngine, DeepRecursionIsAFaultNotACrash) {
    Compiled c = compile(R"(module m;
import perfect;

perfect int depth(const int k) {
    int[1000] scratch;
    for (int j = 0; j < 1000; j++) { scratch[j] = j + k; }
    if (k == 0) { return 0; }
    int s = depth(k - 1);
    for (int j = 0; j < 1000; j += 7) { s += scratch[j] % 2; }
    return s % 1000;
}

perfect void f(int n, int d, int[n] out) {
    out[0] = depth(d);
}
)");
    ASSERT_TRUE(c.engine) << c.problem;
    Args args;
    args.scalars["n"] = 1;
    args.scalars["d"] = 200;
    expect_same_results(c, args);
    args.scalars["d"] = 100000;
    auto interpreted = interpret::run_kernel(*c.checked.library, *c.kernel, make_storages(*c.kernel, args), {});
    ASSERT_TRUE(interpreted);
    EXPECT_THAT(interpreted->message, HasSubstr("calls nested more than"));
    EXPECT_EQ(engine_run_in_child(c, make_storages(*c.kernel, args), 60), "fault");
}

// A kernel compiled once runs many times, at different sizes.
TEST(LlvmEngine, OneCompiledKernelRunsAtManySizes) {
    Compiled c = compile(kBody1D);
    for (int round = 0; round < 3; ++round)
        for (int n : {33, 1, 100, 7}) {
            Args args;
            args.scalars["n"] = n;
            args.seed = static_cast<uint64_t>(round * 100 + n);
            expect_same_results(c, args);
        }
    // a fault in one run does not stay for the next
    Compiled d = compile("module m;\nimport perfect;\n\nperfect void f(int n, int[n] out) {\n    out[n] = 1;\n}\n");
    ASSERT_TRUE(d.engine) << d.problem;
    Args bad;
    bad.scalars["n"] = 3;
    std::vector<StoragePtr> s = make_storages(*d.kernel, bad);
    EXPECT_TRUE(d.engine->run(s));
    Compiled e = compile("module m;\nimport perfect;\n\nperfect void f(int n, int[n] out) {\n    out[n - 1] = 1;\n}\n");
    ASSERT_TRUE(e.engine) << e.problem;
    s = make_storages(*e.kernel, bad);
    EXPECT_FALSE(e.engine->run(s));
}

}  // namespace
}  // namespace mcl::backends::llvmir
