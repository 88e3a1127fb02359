// Translation between levels: every example to every description below its
// level (the result checks there, prints stably and keeps the user's
// statements), straight and stepwise translation agree, translating to the
// own level changes nothing, and the error cases are located and explained.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/ast/AstWalk.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/translate/ParGroupMapping.h"
#include "compiler/translate/Translate.h"
#include "tests/compiler/CompilerTestSupport.h"
#include "tests/compiler/McplTestSupport.h"

namespace mcl::mcpl::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

namespace fs = std::filesystem;

std::vector<std::string> example_kernels() {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(MCL_EXAMPLES_DIR))
        if (e.path().extension() == ".mcl" && e.path().string().find("/lib/") == std::string::npos)
            out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Translates the module text `text` (named `path`) to `target`; returns the
// printed result, or "" after recording the diagnostics in `errors`.
std::string translate_text(const std::string& path, const std::string& text, const std::string& target,
                           std::string* errors = nullptr) {
    CheckedText c = check_text(text, path, {MCL_EXAMPLES_DIR});
    bool ok = !c.diags->has_errors() && translate::translate_program(c.program, target, *c.library, *c.diags);
    if (errors) *errors = c.text();
    if (!ok) {
        if (!errors) ADD_FAILURE() << "translating " << path << " to " << target << ":\n" << c.text();
        return "";
    }
    return print_module(*c.module());
}

// The hardware description the (first) function of a module targets.
std::string level_of(const std::string& text) {
    ParsedModule p = parse_text(text);
    return p.module && !p.module->functions.empty() ? p.module->functions[0]->hardware : "";
}

const hdl::HardwareLibrary& stdlib() {
    static CheckedText c = check_text("module empty;");
    return *c.library;
}

// The descriptions strictly below `level`.
std::vector<std::string> below(const std::string& level) {
    std::vector<std::string> out;
    for (const std::string& n : stdlib().names())
        if (n != level && stdlib().is_ancestor(level, n)) out.push_back(n);
    return out;
}

// The printed statements that translation must keep as written.
std::vector<std::string> user_statements(const std::string& text) {
    ParsedModule p = parse_text(text);
    std::vector<std::string> out;
    std::set<const Stmt*> for_steps;  // printed inside their for header, not on a line of their own
    for (const auto& f : p.module->functions)
        for_each_stmt(*f->body, [&](const Stmt& s) {
            if (s.step) for_steps.insert(s.step.get());
            if (for_steps.count(&s)) return;
            if (s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step || s.kind == Stmt::Kind::Call ||
                s.kind == Stmt::Kind::Return) {
                Module m;
                m.name = "statement";
                auto fn = std::make_unique<Function>();
                fn->hardware = "perfect";
                fn->name = "f";
                fn->return_type.primitive = Primitive::Void;
                fn->body = std::make_unique<Stmt>();
                fn->body->body.push_back(s.clone());
                m.functions.push_back(std::move(fn));
                std::string printed = print_module(m);
                size_t open = printed.find("{\n") + 2;
                out.push_back(printed.substr(open, printed.rfind("\n}") - open));
            }
        });
    return out;
}

std::string trimmed_lines(const std::string& block) {
    std::stringstream in(block), out;
    std::string line;
    while (std::getline(in, line)) {
        size_t text = line.find_first_not_of(' ');
        if (text != std::string::npos) out << line.substr(text) << '\n';
    }
    return out.str();
}

TEST(Translate, EveryExampleToEveryDescriptionBelowIt) {
    size_t translations = 0;
    for (const std::string& path : example_kernels()) {
        const std::string text = read(path);
        const std::string level = level_of(text);
        for (const std::string& target : below(level)) {
            SCOPED_TRACE(path + " -> " + target);
            std::string out = translate_text(path, text, target);
            if (out.empty()) continue;
            ++translations;
            // The result checks at its level...
            CheckedText again = check_text(out, path, {MCL_EXAMPLES_DIR});
            EXPECT_FALSE(again.diags->has_errors()) << again.text() << out;
            EXPECT_EQ(level_of(out), target);
            // ...prints stably (check_text verifies print . parse is a fixed point)...
            EXPECT_EQ(print_module(*again.module()), out);
            // ...and keeps the user's statements as they were written.
            std::string flat = trimmed_lines(out);
            for (const std::string& s : user_statements(text))
                EXPECT_THAT(flat, HasSubstr(trimmed_lines(s))) << out;
        }
    }
    EXPECT_GT(translations, 60u);
}

TEST(Translate, StraightAndStepwiseAgree) {
    for (const std::string& path : example_kernels()) {
        const std::string text = read(path);
        const std::string level = level_of(text);
        for (const std::string& leaf : stdlib().leaves()) {
            if (!stdlib().is_ancestor(level, leaf) || leaf == level) continue;
            SCOPED_TRACE(path + " -> " + leaf);
            std::string straight = translate_text(path, text, leaf);
            std::string stepwise = text;
            const std::vector<std::string> steps = *stdlib().path(level, leaf);
            for (const std::string& step : steps) {
                if (step == level) continue;
                stepwise = translate_text(path, stepwise, step);
            }
            EXPECT_EQ(straight, stepwise);
        }
    }
}

TEST(Translate, ToTheOwnLevelChangesNothing) {
    for (const std::string& path : example_kernels()) {
        const std::string text = read(path);
        const std::string level = level_of(text);
        SCOPED_TRACE(path);
        ParsedModule original = parse_text(text);
        EXPECT_EQ(translate_text(path, text, level), print_module(*original.module));
        for (const std::string& target : below(level)) {
            std::string once = translate_text(path, text, target);
            EXPECT_EQ(translate_text(path, once, target), once) << target;
        }
    }
}

TEST(Translate, MatmulToGpuHasTheStructureOfThesisFig39) {
    std::string out = translate_text("matmul.mcl", read(std::string(MCL_EXAMPLES_DIR) + "/matmul/matmul.mcl"), "gpu");
    EXPECT_THAT(out, HasSubstr("const int nrThreads_j = divide_up(max(32, min(gpu.hierarchy.blocks.block.threads."
                               "max_nr_units, divide_up(m, divide_up(gpu.hierarchy.blocks.nr_processors, max(1, "
                               "min(n, gpu.hierarchy.blocks.nr_processors)))))), 32) * 32;\n"
                               "    const int nrBlocks_j = divide_up(m, nrThreads_j);\n"
                               "    foreach (int i in n blocks) {\n"
                               "        foreach (int b_j in nrBlocks_j blocks) {\n"
                               "            foreach (int t_j in nrThreads_j threads) {\n"
                               "                const int j = b_j * nrThreads_j + t_j;\n"
                               "                if (j < m) {\n"));
}

TEST(Translate, ThreadsPerBlockSpreadTheWorkOverEveryProcessor) {
    const std::string gesummv = read(std::string(MCL_EXAMPLES_DIR) + "/gesummv/gesummv.mcl");
    std::string gpu = translate_text("gesummv.mcl", gesummv, "gpu");
    EXPECT_THAT(gpu, HasSubstr("    const int nrThreads_i = divide_up(max(32, min(gpu.hierarchy.blocks.block.threads."
                               "max_nr_units, divide_up(n, gpu.hierarchy.blocks.nr_processors))), 32) * 32;\n"
                               "    const int nrBlocks_i = divide_up(n, nrThreads_i);\n"));
    // Each step moves the processors one level down: at a leaf they are the
    // leaf's (hopper's 132 multiprocessors), straight or level by level.
    std::string hopper = translate_text("gesummv.mcl", gesummv, "hopper");
    EXPECT_THAT(hopper, HasSubstr("divide_up(n, hopper.hierarchy.blocks.nr_processors)"));
    EXPECT_THAT(hopper, Not(HasSubstr("gpu.hierarchy.blocks.nr_processors")));
    EXPECT_EQ(translate_text("gesummv.mcl", translate_text("gesummv.mcl", gpu, "nvidia"), "hopper"), hopper);
    // The loops around the split one count: matmul's n rows of m threads.
    std::string matmul = translate_text("matmul.mcl", read(std::string(MCL_EXAMPLES_DIR) + "/matmul/matmul.mcl"), "gpu");
    EXPECT_THAT(matmul, HasSubstr("divide_up(m, divide_up(gpu.hierarchy.blocks.nr_processors, max(1, min(n, "
                                  "gpu.hierarchy.blocks.nr_processors))))"));
    // An FPGA's lanes are its datapath's lanes: their maximum stays.
    EXPECT_THAT(translate_text("gesummv.mcl", gesummv, "alveo_u250"),
                HasSubstr("const int nrLanes_i = fpga.hierarchy.pipelines.pipeline.lanes.max_nr_units;\n"));
}

TEST(Translate, ProcessorsAUserWroteMoveDownToo) {
    std::string out = translate_text("p.mcl", R"(module p;
import gpu;
gpu void k(int n, dev float[n] a) {
    const int spread = gpu.hierarchy.blocks.nr_processors;
    const int units = gpu.hierarchy.blocks.block.threads.max_nr_units;
    foreach (int b in spread blocks) {
        foreach (int t in units threads) {
            a[0] = toFloat(spread);
        }
    }
}
)",
                                     "hopper");
    EXPECT_THAT(out, HasSubstr("const int spread = hopper.hierarchy.blocks.nr_processors;"));
    EXPECT_THAT(out, HasSubstr("const int units = gpu.hierarchy.blocks.block.threads.max_nr_units;"));
}

TEST(Translate, NoGuardWhenConstantCountsDivideEvenly) {
    // 1024 threads split into warps of 32: the units cover the range exactly,
    // so the barrier stays outside any guard.
    std::string out = translate_text(
        "v1.mcl", read(std::string(MCL_EXAMPLES_DIR) + "/matmul/matmul_gpu_v1.mcl"), "fermi");
    EXPECT_THAT(out, HasSubstr("const int tj = w_tj * nrThreads_tj + t_tj;"));
    EXPECT_THAT(out, Not(HasSubstr("if (tj < nrThreadsM)")));
    EXPECT_THAT(out, HasSubstr("barrier(shared);"));
}

TEST(Translate, ModuleConstantCountsAreConstants) {
    // THREADS is 128 wherever it is read, of this module or another: whole
    // warps, so the threads need no guard and the barrier no pushing.
    std::string out = translate_text("k.mcl", R"(module k;
import gpu;
const int HALF = 64;
const int THREADS = HALF * 2;
gpu void k(int n, dev float[n] a) {
    foreach (int b in divide_up(n, THREADS) blocks) {
        local float[THREADS] s;
        foreach (int t in THREADS threads) {
            s[t] = 1.0;
            barrier(local);
            int i = b * THREADS + t;
            if (i < n) {
                a[i] = s[(t + 1) % THREADS];
            }
        }
    }
}
)",
                                     "fermi");
    EXPECT_THAT(out, HasSubstr("const int t = w_t * nrThreads_t + t_t;\n"
                               "                s[t] = 1.0;\n"
                               "                barrier(shared);\n"));
    EXPECT_THAT(out, Not(HasSubstr("if (t < THREADS)")));
}

constexpr const char* kBarrierKernel = R"(module k;
import gpu;
gpu void k(int n, int t, dev float[n] a) {
    foreach (int b in n blocks) {
        local float[1024] buffer;
        foreach (int i in t threads) {
            int j = b * t + i;
            BODY
        }
    }
}
)";

std::string barrier_kernel(const std::string& body) {
    std::string s = kBarrierKernel;
    return s.replace(s.find("BODY"), 4, body);
}

constexpr const char* kThreadNest = R"(module k;
import gpu;
gpu void k(int n, dev float[n, 256] a) {
    const int rows = 32;
    foreach (int b in n blocks) {
        foreach (int rr in rows threads) {
            foreach (int l in LANES threads) {
                a[b, rr * 8 + l] = 1.0;
            }
        }
    }
}
)";

std::string thread_nest(const std::string& lanes) {
    std::string s = kThreadNest;
    return s.replace(s.find("LANES"), 5, lanes);
}

TEST(Translate, ThreadNestWithASmallInnerCountFillsWholeWarps) {
    // Split as it was, `l` in 8 threads got a warp of its own in each of 32
    // warps, 24 of its 32 threads idle; one loop over 256 threads fills 8.
    std::string out = translate_text("k.mcl", thread_nest("8"), "hopper");
    EXPECT_THAT(out, HasSubstr("        const int nrWarps_rr_l = divide_up(rows * 8, nrThreads_rr_l);\n"
                               "        foreach (int w_rr_l in nrWarps_rr_l warps) {\n"
                               "            foreach (int t_rr_l in nrThreads_rr_l threads) {\n"
                               "                const int rr_l = w_rr_l * nrThreads_rr_l + t_rr_l;\n"
                               "                const int rr = rr_l / 8;\n"
                               "                const int l = rr_l % 8;\n"
                               "                a[b, rr * 8 + l] = 1.0;\n"));
    EXPECT_THAT(out, Not(HasSubstr("if (")));
    // The same at a CPU's 8 vector lanes: 4 x 3 units in 2 threads, not 4.
    EXPECT_THAT(translate_text("c.mcl", R"(module c;
import perfect;
perfect void c(float[4, 3] a) {
    foreach (int i in 4 threads) {
        foreach (int j in 3 threads) {
            a[i, j] = 1.0;
        }
    }
}
)",
                               "cpu"),
                HasSubstr("    const int nrThreads_i_j = divide_up(4 * 3, nrVectors_i_j);\n"
                          "    foreach (int t_i_j in nrThreads_i_j threads) {\n"
                          "        foreach (int v_i_j in nrVectors_i_j vectors) {\n"
                          "            const int i_j = t_i_j * nrVectors_i_j + v_i_j;\n"
                          "            if (i_j < 4 * 3) {\n"
                          "                const int i = i_j / 3;\n"
                          "                const int j = i_j % 3;\n"));
}

TEST(Translate, ThreadNestThatFillsWarpsOrHasAVariableCountStaysANest) {
    // An innermost count of whole warps leaves no lane idle.
    EXPECT_THAT(translate_text("k.mcl", thread_nest("32"), "hopper"),
                HasSubstr("        foreach (int rr in rows warps) {\n"
                          "            foreach (int w_l in nrWarps_l warps) {\n"));
    // A count that is not a constant would cost a division by a variable.
    std::string out = translate_text("k.mcl", thread_nest("n % 8 + 1"), "hopper");
    EXPECT_THAT(out, HasSubstr("foreach (int rr in rows warps) {"));
    EXPECT_THAT(out, HasSubstr("if (l < n % 8 + 1) {"));
}

TEST(Translate, LinearisedNestGuardsAroundItsBarriers) {
    // 2 x 3 x 5 = 30 threads in one warp: the 2 past the range reach the
    // barrier and skip the rest; the indices come back outermost first.
    std::string out = translate_text("k.mcl", R"(module k;
import gpu;
gpu void k(int n, dev float[n, 30] a) {
    foreach (int b in n blocks) {
        local float[30] s;
        foreach (int i in 2 threads) {
            foreach (int j in 3 threads) {
                foreach (int k in 5 threads) {
                    s[(i * 3 + j) * 5 + k] = a[b, (i * 3 + j) * 5 + k];
                    barrier(local);
                    int row = (i * 3 + j) * 5 + k;
                    int i = 29 - row;
                    a[b, i] = s[i];
                }
            }
        }
    }
}
)",
                                     "fermi");
    EXPECT_THAT(out, HasSubstr("                const int i_j_k = w_i_j_k * nrThreads_i_j_k + t_i_j_k;\n"
                               "                const int i = i_j_k / 15;\n"
                               "                const int j = i_j_k / 5 % 3;\n"
                               "                const int k = i_j_k % 5;\n"
                               "                {\n"
                               "                    if (i_j_k < 2 * 3 * 5) {\n"
                               "                        s[(i * 3 + j) * 5 + k] = a[b, (i * 3 + j) * 5 + k];\n"
                               "                    }\n"
                               "                    barrier(shared);\n"
                               "                    int row = (i * 3 + j) * 5 + k;\n"
                               "                    int i = 29 - row;\n"
                               "                    if (i_j_k < 2 * 3 * 5) {\n"
                               "                        a[b, i] = s[i];\n"
                               "                    }\n"
                               "                }\n"));
}

TEST(Translate, GuardIsPushedPastBarriers) {
    std::string out = translate_text(
        "k.mcl", barrier_kernel("if (j < n) { buffer[i] = a[j]; }\n barrier(local);\n for (int r = 0; r < 2; r++) "
                                "{ a[j] = buffer[i]; barrier(local); }"),
        "fermi");
    EXPECT_THAT(out, HasSubstr("                if (i < t) {\n"
                           "                    if (j < n) {\n"
                           "                        buffer[i] = a[j];\n"
                           "                    }\n"
                           "                }\n"
                           "                barrier(shared);\n"
                           "                for (int r = 0; r < 2; r++) {\n"
                           "                    if (i < t) {\n"
                           "                        a[j] = buffer[i];\n"
                           "                    }\n"
                           "                    barrier(shared);\n"
                           "                }\n"));
}

TEST(Translate, GuardIsPushedIntoTheBranchesOfAnIfAroundABarrier) {
    // every unit decides the branch (no memory read) and reaches the barrier
    std::string out = translate_text(
        "k.mcl", barrier_kernel("if (b > 0) {\n buffer[i] = a[j];\n barrier(local);\n } else {\n a[j] = 0.0;\n }"),
        "fermi");
    EXPECT_THAT(out, HasSubstr("                if (b > 0) {\n"
                               "                    if (i < t) {\n"
                               "                        buffer[i] = a[j];\n"
                               "                    }\n"
                               "                    barrier(shared);\n"
                               "                } else {\n"
                               "                    if (i < t) {\n"
                               "                        a[j] = 0.0;\n"
                               "                    }\n"
                               "                }\n"));
}

TEST(Translate, BarrierUnderAConditionReadingMemoryCannotBeGuarded) {
    std::string errors;
    EXPECT_EQ(translate_text("k.mcl", barrier_kernel("if (a[0] > 0.0) {\n barrier(local);\n }"), "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:9:2: error: cannot translate safely to 'fermi': the units that 'i' adds "
                                  "beyond its range must skip the code around this barrier but still reach it"));
}

TEST(Translate, CallReachingABarrierCannotBeGuarded) {
    // The guard would leave the barrier in `wait_block` to some threads only.
    std::string errors;
    EXPECT_EQ(translate_text("call.mcl", R"(module call;
import gpu;
gpu void wait_block() { barrier(local); }
gpu void k(int n, int t, dev float[n] a) {
    foreach (int b in n blocks) { foreach (int i in t threads) { a[b] = 1.0; wait_block(); } }
}
)",
                             "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("call.mcl:5:78: error: cannot translate safely to 'fermi': this statement calls a "
                                  "function that reaches a barrier; the units that 'i' adds beyond its range must "
                                  "skip the call but still reach the barrier"));
}

// The units past the range must not read `a[j]`, but later statements see
// `x`: it is declared by every unit and given its value under the guard.
TEST(Translate, DeclarationReadingMemoryBeforeABarrierIsSplit) {
    std::string out = translate_text(
        "k.mcl", barrier_kernel("const float x = a[j];\n buffer[i] = x;\n barrier(local);\n a[j] = x + buffer[0];"),
        "fermi");
    EXPECT_THAT(out, HasSubstr("                int j = b * t + i;\n"
                               "                float x;\n"
                               "                if (i < t) {\n"
                               "                    x = a[j];\n"
                               "                    buffer[i] = x;\n"
                               "                }\n"
                               "                barrier(shared);\n"
                               "                if (i < t) {\n"
                               "                    a[j] = x + buffer[0];\n"));
}

// `x = x * 2.0 + a[j];` after `float x;` would read the inner `x`, not the
// one the declaration hides, so that declaration cannot be split.
TEST(Translate, DeclarationReadingWhatItHidesIsNotSplit) {
    std::string errors;
    EXPECT_EQ(translate_text("k.mcl",
                             barrier_kernel("float x = a[j];\n {\n float x = x * 2.0 + a[j];\n buffer[i] = x;\n "
                                            "barrier(local);\n a[j] = x;\n }"),
                             "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:10:2: error: cannot translate safely to 'fermi': this declaration reads "
                                  "memory before a barrier, but the units that 'i' adds beyond its range must skip it "
                                  "and still reach the barrier; its value reads the 'x' it hides, so it cannot be "
                                  "declared first and assigned after: rename it"));
}

// `i - t` is 0 for the first unit past the range: it must not divide by it.
TEST(Translate, DeclarationThatCouldFailPastTheRangeIsSplit) {
    std::string out =
        translate_text("k.mcl", barrier_kernel("int q = 100 / (t - i);\n barrier(local);\n a[j] = toFloat(q);"), "fermi");
    EXPECT_THAT(out, HasSubstr("                int j = b * t + i;\n"
                               "                int q;\n"
                               "                if (i < t) {\n"
                               "                    q = 100 / (t - i);\n"
                               "                }\n"
                               "                barrier(shared);\n"));
}

// Only the units that run give a split declaration its value, so a loop
// or condition around a barrier cannot depend on it, even where every unit
// would read the same value.
TEST(Translate, SplitDeclarationCannotDecideABarrier) {
    std::string errors;
    EXPECT_EQ(translate_text("k.mcl",
                             barrier_kernel("int m = toInt(a[0]);\n int r = m + 1;\n if (r > 2) {\n barrier(local);\n }"),
                             "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:10:8: error: cannot translate safely to 'fermi': the units that 'i' adds "
                                  "beyond its range could decide this condition otherwise than the units that run (it "
                                  "depends on 'r', which is computed from 'm')"));
}
// Builtins read only their arguments: every unit runs a loop whose bound
// calls one, and computes a declaration that does.
TEST(Translate, PureCallsAroundABarrierAreNotGuarded) {
    std::string out = translate_text(
        "k.mcl",
        barrier_kernel("float s = toFloat(i + 1);\n for (int r = 0; r < min(n, 4); r++) {\n barrier(local);\n "
                       "a[j] = s;\n }"),
        "fermi");
    EXPECT_THAT(out, HasSubstr("                float s = toFloat(i + 1);\n"
                               "                for (int r = 0; r < min(n, 4); r++) {\n"
                               "                    barrier(shared);\n"
                               "                    if (i < t) {\n"
                               "                        a[j] = s;\n"));
}

// `100 / (t - q)` is 0 for a unit past the range, so only the units that
// run may compute it; but it reads the `q` it hides, so it cannot be split.
TEST(Translate, DeclarationThatCouldFailAndReadsWhatItHidesIsRefused) {
    std::string errors;
    EXPECT_EQ(translate_text("k.mcl",
                             barrier_kernel("int q = i;\n {\n int q = 100 / (t - q);\n barrier(local);\n "
                                            "a[j] = toFloat(q);\n }"),
                             "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:10:2: error: cannot translate safely to 'fermi': this declaration before a "
                                  "barrier could fail for the units that 'i' adds beyond its range (its value divides, "
                                  "shifts or raises to a power by a value they do not share), which must skip it and "
                                  "still reach the barrier; its value reads the 'q' it hides, so it cannot be declared "
                                  "first and assigned after: rename it"));
}

// The units past the range skip the guarded statements, so they must
// decide a loop or a condition around a barrier as the others do: not from
// their own index, from what the guarded statements change, or from what
// is computed from either.
TEST(Translate, BarrierUnderAConditionTheUnitsPastTheRangeWouldDecideOtherwise) {
    std::string errors;
    EXPECT_EQ(translate_text("k.mcl",
                             barrier_kernel("int m = 0;\n m = 2;\n for (int r = 0; r < m; r++) { barrier(local); }"),
                             "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:10:20: error: cannot translate safely to 'fermi': the units that 'i' adds "
                                  "beyond its range could decide this loop otherwise than the units that run (it "
                                  "depends on 'm', which the guarded statements change and they do not), and then "
                                  "not reach the barrier inside it as often as they do"));
    errors.clear();
    EXPECT_EQ(translate_text("k.mcl", barrier_kernel("if (j < n) {\n barrier(local);\n }"), "fermi", &errors), "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:8:19: error: cannot translate safely to 'fermi': the units that 'i' adds "
                                  "beyond its range could decide this condition otherwise than the units that run (it "
                                  "depends on 'j', which is computed from 'i')"));
    errors.clear();
    EXPECT_EQ(translate_text("k.mcl", barrier_kernel("for (int r = 0; r < i / 1024 + 1; r++) { barrier(local); }"),
                             "fermi", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("(it depends on 'i', which is past the count for them)"));
}

TEST(Translate, CountHiddenByABodyDeclarationIsHoisted) {
    // The guards after the barrier sit where the body's `t` hides the count.
    std::string out = translate_text("k.mcl", barrier_kernel("float t = 1.0;\n barrier(local);\n a[j] = t;"),
                                     "fermi");
    EXPECT_THAT(out, HasSubstr("        const int count_i = t;\n"));
    EXPECT_THAT(out, HasSubstr("                float t = 1.0;\n"
                               "                barrier(shared);\n"
                               "                if (i < count_i) {\n"
                               "                    a[j] = t;\n"));
}

// --- hygiene: generated names never capture or hide the user's ---------------

TEST(Translate, ForeachIndexNamedLikeItsCount) {
    // The count `n` is the parameter; inside the loop `n` is the index, so
    // the guard and the dimensions read a copy made before the loop.
    std::string out = translate_text("idx.mcl", R"(module idx;
import perfect;
perfect void k(int n, float[n] a) {
    foreach (int n in n threads) { a[n] = 1.0; }
}
)",
                                     "gpu");
    EXPECT_THAT(out, HasSubstr("    const int count_n = n;\n"
                               "    const int nrThreads_n = divide_up(max(32, min(gpu.hierarchy.blocks.block.threads."
                               "max_nr_units, divide_up(count_n, gpu.hierarchy.blocks.nr_processors))), 32) * 32;\n"
                               "    const int nrBlocks_n = divide_up(count_n, nrThreads_n);\n"));
    EXPECT_THAT(out, HasSubstr("            const int n = b_n * nrThreads_n + t_n;\n"
                               "            if (n < count_n) {\n"
                               "                a[n] = 1.0;\n"));
}

TEST(Translate, GeneratedNamesAvoidTheModulesNames) {
    // A constant and a function of the module named like what translation
    // introduces: the body still reads them, not the dimension or index.
    std::string out = translate_text("mod.mcl", R"(module mod;
import perfect;
const int nrThreads_i = 2;
perfect int b_i(int x) { return x + 1; }
perfect void k(int n, float[n] a) {
    foreach (int i in n threads) { a[i] = toFloat(b_i(nrThreads_i)); }
}
)",
                                     "gpu");
    EXPECT_THAT(out, HasSubstr("    const int nrThreads_i_2 = divide_up(max(32, min(gpu.hierarchy.blocks.block.threads."
                               "max_nr_units, divide_up(n, gpu.hierarchy.blocks.nr_processors))), 32) * 32;\n"
                               "    const int nrBlocks_i = divide_up(n, nrThreads_i_2);\n"
                               "    foreach (int b_i_2 in nrBlocks_i blocks) {\n"));
    EXPECT_THAT(out, HasSubstr("const int i = b_i_2 * nrThreads_i_2 + t_i;"));
    EXPECT_THAT(out, HasSubstr("a[i] = toFloat(b_i(nrThreads_i));"));
}

TEST(Translate, UserNamesLikeDescriptionsGetConstantCounts) {
    // `gpu.hierarchy...` would name the parameter `gpu`, and
    // `hopper.hierarchy...` the local `hopper`: the counts are written out.
    std::string out = translate_text("hw.mcl", R"(module hw;
import perfect;
perfect void k(int n, int gpu, float[n] a) {
    foreach (int i in n threads) { int hopper = gpu; a[i] = toFloat(hopper); }
}
)",
                                     "hopper");
    EXPECT_THAT(out, HasSubstr("    const int nrThreads_i = 1024;\n"));
    EXPECT_THAT(out, HasSubstr("        const int nrThreads_t_i = 32;\n"));
    EXPECT_THAT(out, Not(HasSubstr(".hierarchy.")));
    // Without such names they stay hardware values.
    std::string plain = translate_text("hw.mcl", R"(module hw;
import perfect;
perfect void k(int n, float[n] a) { foreach (int i in n threads) { a[i] = 1.0; } }
)",
                                       "hopper");
    EXPECT_THAT(plain, HasSubstr("const int nrThreads_t_i = hopper.hierarchy.blocks.block.warps.warp.threads.nr_units;"));
}

// --- barriers that a grid cannot keep ------------------------------------------

constexpr const char* kGridBarrierKernel = R"(module gb;
import perfect;
perfect void k(int n, float[n] a, float[n] b) {
    foreach (int i in n threads) {
        b[i] = a[i];
        barrier(main);
        a[i] = b[(i + 1) % n];
    }
}
)";

TEST(Translate, BarrierOverAllThreadsAtAGridLevelIsAnError) {
    std::string errors;
    EXPECT_EQ(translate_text("gb.mcl", kGridBarrierKernel, "hopper", &errors), "");
    EXPECT_THAT(errors, HasSubstr("gb.mcl:6:9: error: barrier(main) would synchronise every unit of 'blocks' at "
                                  "'hopper' ('main' becomes 'global' there, which all of them share), and 'hopper' "
                                  "cannot do that inside one launch; end the foreach before the barrier and "
                                  "continue in a second top-level foreach (each top-level foreach is its own "
                                  "launch)"));
    EXPECT_EQ(translate_text("gb.mcl", kGridBarrierKernel, "alveo_u250", &errors), "");
    EXPECT_THAT(errors, HasSubstr("gb.mcl:6:9: error: barrier(main) would synchronise every unit of 'pipelines' at "
                                  "'alveo_u250'"));
}

TEST(Translate, BarrierInAFunctionCalledInsideTheForeach) {
    // A perfect foreach keeps its guard even where its constant count splits
    // evenly at gpu (2048 over 16 processors): the threads per block come
    // from nr_processors, which the later steps change. A call that reaches
    // a barrier cannot be guarded.
    std::string errors;
    EXPECT_EQ(translate_text("call.mcl", R"(module call;
import perfect;
perfect void wait_all() { barrier(main); }
perfect void k(int n, float[n] a, float[n] b) {
    foreach (int i in 2048 threads) { b[i] = a[i]; wait_all(); a[i] = b[(i + 1) % n]; }
}
)",
                             "hopper", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("call.mcl:5:52: error: cannot translate safely to 'gpu': this statement calls a "
                                  "function that reaches a barrier"));
    // Written for gpu, the blocks are the user's: the barrier over all of
    // them is reported where it is, and the call that reaches it.
    errors.clear();
    EXPECT_EQ(translate_text("call.mcl", R"(module call;
import gpu;
gpu void wait_all() { barrier(dev); }
gpu void k(int n, float[n] a, float[n] b) {
    foreach (int bb in 16 blocks) { foreach (int t in 128 threads) { b[t % n] = a[t % n]; wait_all(); } }
}
)",
                             "hopper", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("call.mcl:3:23: error: barrier(dev) would synchronise every unit of 'blocks' at "
                                  "'gpu'"));
    EXPECT_THAT(errors, HasSubstr("call.mcl:5:91: note: reached through this call of 'wait_all' inside a foreach "
                                  "over 'blocks'"));
}

TEST(Translate, BarrierOverAllThreadsWithoutAGridStays) {
    // accelerator has one par_group: all its threads are one launch's units.
    EXPECT_THAT(translate_text("gb.mcl", kGridBarrierKernel, "accelerator"), HasSubstr("barrier(dev);"));
}

TEST(Translate, BarrierOverDeviceMemoryWrittenAtGpuIsAnError) {
    // `dev` is shared by the threads of all blocks, and blocks cannot wait
    // for each other: refused at gpu itself, before any translation.
    std::string errors;
    EXPECT_EQ(translate_text("k.mcl", barrier_kernel("a[j] = 1.0;\n barrier(dev);"), "fermi", &errors), "");
    EXPECT_THAT(errors, HasSubstr("k.mcl:9:2: error: barrier(dev) would synchronise every unit of 'blocks' at "
                                  "'gpu', and 'gpu' cannot do that inside one launch"));
}

TEST(Translate, TargetAboveTheKernel) {
    std::string errors;
    EXPECT_EQ(translate_text("g.mcl", "module g;\nimport gpu;\ngpu void f() { }\n", "perfect", &errors), "");
    EXPECT_THAT(errors, HasSubstr("g.mcl:3:1: error: cannot translate to 'perfect': it is not below the "
                                  "description of any function here ('f' targets 'gpu')"));
}

TEST(Translate, FunctionsNotAboveTheTargetAreLeftWithANote) {
    std::string errors;
    std::string out = translate_text(
        "two.mcl", "module two;\nimport perfect;\nimport cpu;\nperfect void f() { }\ncpu void g() { }\n", "gpu",
        &errors);
    EXPECT_THAT(errors, HasSubstr("two.mcl:5:1: note: 'g' is left as it is: its description 'cpu' is not above "
                                  "'gpu'"));
    EXPECT_THAT(out, HasSubstr("gpu void f()"));
    EXPECT_THAT(out, HasSubstr("cpu void g()"));
}

TEST(Translate, UnknownTarget) {
    std::string errors;
    EXPECT_EQ(translate_text("u.mcl", "module u;\nimport perfect;\nperfect void f() { }\n", "hoper", &errors), "");
    EXPECT_THAT(errors, HasSubstr("mclc: error: unknown hardware description 'hoper'; did you mean 'hopper'?"));
}

// A translation that stops at an error leaves the program half translated,
// and the foreach statements it replaced are gone with their indices'
// declarations: no variable may still name one (the fuzzer found its JSON
// dump of such a program reading a freed one).
TEST(Translate, AFailedTranslationLeavesNoVariableNamingAFreedDeclaration) {
    CheckedText c = check_text(R"(module m;
import gpu;
gpu float first(local float[64] t, int i) {
    t[i % 64] = 1.0;
    barrier(local);
    return t[0];
}
gpu void k(int n, float[n] out) {
    foreach (int b in n blocks) {
        local float[64] t;
        foreach (int i in 65 threads) {
            float s = first(t, i);
            if (i == 0) {
                out[b] = s;
            }
        }
    }
}
)",
                               "m.mcl");
    ASSERT_FALSE(c.diags->has_errors()) << c.text();
    EXPECT_FALSE(translate::translate_program(c.program, "fermi", *c.library, *c.diags));
    EXPECT_THAT(c.text(), HasSubstr("m.mcl:12:13: error: cannot translate safely to 'fermi'"));

    std::set<const Decl*> alive;
    std::vector<const Expr*> vars;
    for (const auto& f : c.module()->functions) {
        for (const auto& p : f->params) alive.insert(p.get());
        for_each_stmt(static_cast<const Stmt&>(*f->body), [&](const Stmt& s) {
            if (s.decl) alive.insert(s.decl.get());
            for_each_own_expr(s, [&](const Expr& e) { for_each_var(e, [&](const Expr& v) { vars.push_back(&v); }); });
        });
    }
    ASSERT_FALSE(vars.empty());
    for (const Expr* v : vars)
        EXPECT_TRUE(!v->decl || alive.count(v->decl)) << "'" << v->var[0].name << "' names a freed declaration";
}

// A foreach nested with statements around it in one over the same
// par_group runs its units one after another in each outer unit; units
// that return or reach a barrier cannot.
TEST(Translate, ImperfectNestOverOnePargroup) {
    std::string notes;
    std::string out = translate_text("nest.mcl", R"(module nest;
import perfect;
perfect void f(int n, float[n,n] a) {
    foreach (int i in n threads) {
        float x = 1.0;
        foreach (int j in n threads) { a[i,j] = x; }
        foreach (int k in 4 threads) { a[i,k] += x; }
    }
}
)",
                                     "gpu", &notes);
    EXPECT_THAT(out, HasSubstr(R"(                float x = 1.0;
                {
                    const int count_j = n;
                    for (int j = 0; j < count_j; j++) {
                        a[i, j] = x;
                    }
                }
                for (int k = 0; k < 4; k++) {
                    a[i, k] += x;
                }
)")) << out;
    EXPECT_THAT(notes, HasSubstr("nest.mcl:6:9: note: the units of this foreach over 'threads' run one after another "
                                 "in each unit of the foreach at line 4 on 'accelerator'"));
    std::string errors;
    EXPECT_EQ(translate_text("nest.mcl", R"(module nest;
import perfect;
perfect void f(int n, float[n,n] a) {
    foreach (int i in n threads) {
        float x = 1.0;
        foreach (int j in n threads) {
            if (j > i) { return; }
            a[i,j] = x;
        }
    }
}
)",
                             "gpu", &errors),
              "");
    EXPECT_THAT(errors, HasSubstr("nest.mcl:6:9: error: cannot translate this foreach over 'threads' to "
                                  "'accelerator': it is nested in another foreach over 'threads' with other "
                                  "statements around it, and its units return"));
}

// A child of gpu that breaks the rules of thesis section 3.6.1: its threads
// outnumber gpu's.
constexpr const char* kBrokenChild = R"(hardware_description widegpu;
specializes gpu;
parallelism hierarchy {
  memory_space dev { default; }
  par_group blocks { max_nr_units = 65535;
    par_unit block { memory_space local { }
      par_group threads { max_nr_units = 4096; par_unit thread { memory_space reg { default; } } } } }
}
device widegpu { mem; sms; }
memory mem { space(dev); }
execution_group sms { nr_units = 1; execution_unit sm { slots(block, 1); slots(thread, 4096); } }
)";

TEST(Translate, ThroughAChildThatBreaksTheRules) {
    CheckedText c = check_text("module w;\nimport perfect;\nperfect void f(int n, float[n] a) {\n"
                               "    foreach (int i in n threads) { a[i] = 0.0; }\n}\n",
                               "w.mcl");
    // A library with the broken child added as a user description.
    auto sources = std::make_unique<SourceManager>();
    DiagnosticEngine diags(*sources);
    hdl::HardwareLibrary library(*sources, diags);
    library.add_directory(MCL_STDLIB_HW_DIR, false);
    library.add_buffer("widegpu.hdl", kBrokenChild, true);
    library.finish();
    ASSERT_FALSE(diags.has_errors());
    auto mapping = translate::find_par_group_mapping(*library.find("gpu"), *library.find("widegpu"));
    ASSERT_TRUE(std::holds_alternative<translate::MappingError>(mapping));
    EXPECT_THAT(std::get<translate::MappingError>(mapping).message,
                HasSubstr("'threads' of 'gpu' has fewer units (1024) than 'threads' of 'widegpu' (4096)"));
    Program program = load_modules_from_text("w.mcl", "module w;\nimport perfect;\nperfect void f(int n, float[n] a) "
                                             "{\n    foreach (int i in n threads) { a[i] = 0.0; }\n}\n",
                                             {}, *sources, library, diags);
    ASSERT_TRUE(check_program(program, library, diags));
    EXPECT_FALSE(translate::translate_program(program, "widegpu", library, diags));
    std::ostringstream text;
    diags.print_text(text);
    EXPECT_THAT(text.str(), HasSubstr("w.mcl:3:1: error: cannot translate 'f' from 'gpu' to 'widegpu': 'widegpu' "
                                      "breaks the rules for a child description (thesis section 3.6.1)"));
    EXPECT_THAT(text.str(), HasSubstr("widegpu.hdl:1:22: note: 'widegpu' is described here"));
}

}  // namespace
}  // namespace mcl::mcpl::testing
