// Asynchronous copies into shared memory (AsyncCopies.h) as the cuda
// backend prints them: which statements become cp.async copies, and that
// each thread waits for its copies exactly where something could see an
// element before its copy lands (a barrier, an access of the same element,
// another copy into it, a call, the end of the thread's code) and nowhere
// else. Each test reads the kernel as the sequence of its copies, waits,
// barriers and writes of `out`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/backends/BackendTestSupport.h"

namespace mcl::backends::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A kernel of one block of 32 threads with a shared float[2, 64] s, the
// thread's code `body` (index t), out a float[n, 32] and g a const
// float[4, 64]; module `m`, `functions` before it.
Generated kernel(const std::string& body, const std::string& functions = "") {
    return generate(R"(module m;
import hopper;
)" + functions + R"(
hopper void k(int n, int tiles, float[n, 32] out, const float[4, 64] g, float[4, 64] h, const int[4, 64] gi) {
    foreach (int b in n blocks) {
        shared float[2, 64] s;
        foreach (int w in 1 warps) {
            foreach (int t in 32 threads) {
)" + body + R"(
            }
        }
    }
}
)",
                    "hopper", "cuda");
}

// The kernel's copies, waits, barriers and writes of out, in order.
std::vector<std::string> events(const Generated& g) {
    std::vector<std::string> out;
    std::istringstream lines(g.file("m_kernels.cuh"));
    for (std::string line; std::getline(lines, line);) {
        if (line.find("__pipeline_memcpy_async") != std::string::npos) out.push_back("copy");
        if (line.find("__pipeline_wait_prior(0)") != std::string::npos) out.push_back("wait");
        if (line.find("__syncthreads()") != std::string::npos) out.push_back("barrier");
        if (line.find("out[") != std::string::npos) out.push_back("out");
    }
    return out;
}

// The next tile is copied while the thread reads the other buffer: the
// thread waits only before the barriers.
TEST(AsyncCopies, DoubleBufferedTilesWaitOnlyBeforeTheBarrier) {
    Generated g = kernel(R"(
    float sum = 0.0;
    for (int e = 0; e < 2; e++) { s[0, t + 32 * e] = g[0, t + 32 * e]; }
    barrier(shared);
    for (int kt = 0; kt < tiles; kt++) {
        if (kt + 1 < tiles) {
            for (int e = 0; e < 2; e++) {
                if (kt + 1 < 4) { s[(kt + 1) % 2, t + 32 * e] = g[kt + 1, t + 32 * e]; }
                else { s[(kt + 1) % 2, t + 32 * e] = 0.0; }
            }
        }
        sum += s[kt % 2, 63 - t];
        barrier(shared);
    }
    out[b, t] = sum;)");
    // the first tile's copies overlap nothing before the barrier: plain copies
    EXPECT_THAT(events(g), ElementsAre("barrier", "copy", "copy", "wait", "barrier", "out"))
        << g.diagnostics() << g.file("m_kernels.cuh");
    std::string cu = g.file("m_kernels.cuh");
    EXPECT_THAT(cu, HasSubstr("#include <cuda_pipeline.h>"));
    // where the condition is false no byte is read and the element is zero
    EXPECT_THAT(cu, HasSubstr(" : g, sizeof(float), mcl_in ? 0 : sizeof(float)); }"));
}

// A read of the element being copied waits for it; a read of another
// buffer does not, and the thread then waits at the end of its code.
TEST(AsyncCopies, ReadOfTheCopiedElementWaits) {
    EXPECT_THAT(events(kernel("s[0, t] = g[0, t]; float x = g[3, t]; out[b, t] = s[0, t] + x;")),
                ElementsAre("copy", "wait", "out"));
    EXPECT_THAT(events(kernel("s[0, t] = g[0, t]; out[b, t] = s[1, t];")), ElementsAre("copy", "out", "wait"));
    EXPECT_THAT(events(kernel("s[0, t] = g[0, t]; out[b, t] = s[0, t + 32];")), ElementsAre("copy", "out", "wait"));
    // the same index expression after its variable changed may name the element
    EXPECT_THAT(events(kernel("int i = t; s[0, i] = g[0, t]; i = 31 - t; float x = g[3, t]; out[b, t] = s[0, i + 32] + x;")),
                ElementsAre("copy", "wait", "out"));
    // a copy waited for before the thread does anything else is a plain assignment
    EXPECT_THAT(events(kernel("s[0, t] = g[0, t]; out[b, t] = s[0, t];")), ElementsAre("out"));
}

// Copies into one element may land in either order: the second waits for
// the first, and is then an ordinary assignment.
TEST(AsyncCopies, SecondCopyIntoAnElementWaitsForTheFirst) {
    EXPECT_THAT(events(kernel("s[0, t] = g[0, t]; float x = g[3, t]; s[0, t] = g[1, t]; out[b, t] = s[1, t] + x;")),
                ElementsAre("copy", "wait", "out"));
    EXPECT_THAT(events(kernel("s[0, t] = g[0, t]; s[1, t] = g[1, t]; out[b, t] = g[3, t];")),
                ElementsAre("copy", "copy", "out", "wait"));
    // a copy repeated in a loop waits unless each iteration has its own
    // element; one that would wait before it starts is a plain assignment
    EXPECT_THAT(events(kernel("for (int e = 0; e < 2; e++) { s[0, t] = g[e, t]; } out[b, t] = s[1, t];")),
                ElementsAre("out"));
    EXPECT_THAT(events(kernel("for (int e = 0; e < 2; e++) { s[e, t] = g[e, t]; } out[b, t] = g[3, t];")),
                ElementsAre("copy", "copy", "out", "wait"));
    EXPECT_THAT(events(kernel("for (int e = 0; e < 4; e++) { int i = t + 32 * e; s[i / 64, i % 64] = g[e, t]; } "
                              "out[b, t] = g[3, t];")),
                ElementsAre("copy", "copy", "copy", "copy", "out", "wait"));
    // an index that the loop changes other than through its counter proves nothing
    EXPECT_THAT(events(kernel("int j = t; for (int e = 0; e < 2; e++) { s[0, j] = g[e, t]; j = j + 32; }")),
                ElementsAre());
}

// A user function may read anything it is given: the thread waits first.
TEST(AsyncCopies, CallWaitsForPendingCopies) {
    Generated g = kernel("s[0, t] = g[0, t]; float x = g[3, t]; out[b, t] = twice(x);",
                         "hopper float twice(float v) { return 2.0 * v; }\n");
    EXPECT_THAT(events(g), ElementsAre("copy", "wait", "out")) << g.diagnostics();
}

// A loop whose condition reads what its copies write has no statement to
// wait before: those copies are plain assignments.
TEST(AsyncCopies, CopiesALoopConditionReadsAreSynchronous) {
    Generated g = kernel("for (int e = t; e < 64 && s[0, e] >= 0.0; e += 32) { s[0, e] = g[0, e]; }");
    EXPECT_THAT(g.file("m_kernels.cuh"), Not(HasSubstr("__pipeline"))) << g.diagnostics();
    EXPECT_THAT(g.file("m_kernels.cuh"), HasSubstr("s[(long long)(0) * (64) + (e)] = g[(long long)(0) * (64) + (e)];"));
}

// Only a plain copy of an element of a read-only array of device memory
// into a shared array, of one type, becomes a cp.async, and only where the
// thread accesses memory otherwise before it waits for it.
TEST(AsyncCopies, OtherAssignmentsStayAssignments) {
    for (const char* body :
         {"s[0, t] = h[0, t]; h[1, t] = 1.0;", "s[0, t] = gi[0, t]; out[b, t] = g[3, t];",
          "s[0, t] = g[0, t] + 1.0; out[b, t] = g[3, t];", "float[2] r; r[0] = g[0, t]; out[b, t] = r[0];",
          "s[0, t] = g[0, t]; float x = 2.0 * toFloat(t); barrier(shared); out[b, t] = s[0, 31 - t] + x;"}) {
        Generated g = kernel(body);
        ASSERT_FALSE(g.files.empty()) << body << g.diagnostics();
        EXPECT_THAT(g.file("m_kernels.cuh"), Not(HasSubstr("__pipeline"))) << body;
    }
}

}  // namespace
}  // namespace mcl::backends::testing
