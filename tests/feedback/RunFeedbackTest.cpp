// run_feedback never takes mclc down: a division by zero that reaches the
// symbolic analysis (a checked program cannot have a constant one; example
// values can make one) stops the analysis with a remark.
#include <gtest/gtest.h>

#include "compiler/sema/CheckMapping.h"
#include "compiler/sema/InferReadWrite.h"
#include "compiler/sema/LoadModules.h"
#include "compiler/sema/ResolveNames.h"
#include "feedback/RunFeedback.h"
#include "tests/feedback/FeedbackTestSupport.h"

namespace mcl::feedback::testing {
namespace {

TEST(RunFeedback, ADivisionByZeroStopsTheAnalysisNotMclc) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    hdl::HardwareLibrary library(sources, diags);
    library.load(MCL_STDLIB_HW_DIR, {});
    // Checked without check_constants, which refuses `n / 0`: what a pass
    // would meet if a constant division by zero slipped through.
    mcpl::Program program = mcpl::load_modules_from_text("t.mcl", R"(module t;
import perfect;
perfect void f(int n, float[n] a) { foreach (int i in n / 0 threads) { a[i] = 0.0; } }
)",
                                                         {}, sources, library, diags);
    mcpl::resolve_names(program, library, diags);
    mcpl::check_mapping(program, library, diags);
    mcpl::infer_read_write(program, diags);
    ASSERT_FALSE(diags.has_errors());
    std::vector<Remark> remarks;
    EXPECT_NO_THROW(remarks = run_feedback(program, *program.roots.front(), library, {}));
    bool stopped = false;
    for (const Remark& r : remarks) stopped |= r.message.find("analysis stopped: ") != std::string::npos;
    EXPECT_TRUE(stopped);
}

TEST(RunFeedback, AZeroParameterValueStopsTheAnalysisNotMclc) {
    FeedbackResult r = feedback_for(R"(module t;
import perfect;
perfect void f(int n, int m, float[n] a, float[n] b) {
    foreach (int i in n / m threads) { b[i % m] = a[i / m] + toFloat(n / m); }
}
)",
                                    "gpu", {{"n", 100}, {"m", 0}});
    EXPECT_EQ(r.diagnostics, "");
    bool stopped = false;
    for (const Remark& remark : r.remarks) stopped |= remark.message.find("analysis stopped: ") != std::string::npos;
    EXPECT_TRUE(stopped);
}

}  // namespace
}  // namespace mcl::feedback::testing
