#include "driver/VerifyGraph.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <random>

#include <fmt/format.h>

#include "cnc/InterpretGraph.h"
#include "driver/BackendRunner.h"
#include "driver/KernelData.h"
#include "driver/RuntimeGen.h"
#include "driver/Session.h"

namespace mcl::driver {

namespace {

constexpr int kUsageError = 2;
// The values a graph's reference run may hold (32 bytes each: 1 GiB).
constexpr uint64_t kMaxReferenceValues = uint64_t{1} << 25;

class GraphVerifier {
public:
    GraphVerifier(const FrontendOptions& options, const std::vector<std::string>& files, const VerifyOptions& verify,
                  std::ostream& out, std::ostream& err)
        : options_(options), files_(files), verify_(verify), out_(out), err_(err), session_(options.hardware) {}

    int run() {
        const std::string& file = files_.front();
        std::optional<cnc::CheckedGraph> checked = load_and_check_graph(session_, options_, file, program_, loaded_);
        if (!checked) return session_.report(err_);
        const cnc::Graph& graph = loaded_->graph;
        if (auto error = cnc::too_large_to_interpret(graph, *checked, kMaxReferenceValues)) {
            err_ << session_.located_error(error->location, error->message)
                 << fmt::format("mclc: error: {} is too large to verify\n", file);
            return 1;
        }
        cnc::ItemValues puts = environment_puts(graph, *checked);
        cnc::ItemValues reference = puts;
        interpret::InterpretOptions io;
        io.seed = verify_.execution.seed;
        if (auto error = cnc::interpret_graph(graph, *checked, session_.library, reference, io)) {
            err_ << session_.located_error(error->location, error->message)
                 << fmt::format("mclc: error: the reference ({}, interpreter) fails\n", file);
            return 1;
        }
        report("interpreter (the reference)", "");
        note_not_a_number(graph, *checked, reference);
        TemporaryDirectory work;
        std::vector<std::string> versions(files_.begin() + 1, files_.end());
        GraphHarness harness(options_, file, versions, graph, *checked, work.sub("harness"));
        if (!harness.refusal().empty()) {
            report(kRuntimeEngine, fmt::format("refused: {}", harness.refusal()), true);
        } else if (!harness.build()) {
            report(kRuntimeEngine, harness.error());
        } else {
            for (const RuntimeWorkerRun& workers : runtime_worker_runs(work.sub(""))) {
                cnc::ItemValues gets;
                std::string what = fmt::format("{}, {}", kRuntimeEngine, workers.name);
                if (!harness.run(puts, gets, workers.variables))
                    report(what, harness.error());
                else
                    report(what, first_difference(graph, *checked, gets, reference));
            }
        }
        out_ << fmt::format("{} ok, {} failed, {} skipped\n", passed_, failed_, skipped_);
        return failed_ > 0 ? 1 : 0;
    }

private:
    // Seeded values for every item the environment puts; ints stay below
    // the smallest positive int constant (data used as an index).
    cnc::ItemValues environment_puts(const cnc::Graph& graph, const cnc::CheckedGraph& checked) const {
        int64_t int_bound = 0;
        for (const auto& [name, value] : checked.int_constants)
            if (value > 0 && (int_bound == 0 || value < int_bound)) int_bound = value;
        if (int_bound == 0) int_bound = 16;
        std::mt19937_64 rng(verify_.execution.seed);
        return cnc::environment_items(graph, checked,
                                      [&](mcpl::Primitive type) { return random_cell(type, rng, int_bound); });
    }

    // The first element of an item the environment gets where `got` differs
    // from the reference; "" when none does.
    std::string first_difference(const cnc::Graph& graph, const cnc::CheckedGraph& checked,
                                 const cnc::ItemValues& got, const cnc::ItemValues& reference) const {
        for (const cnc::EnvTarget& target : graph.env_gets)
            for (const cnc::TagValue& tag : cnc::range_tags(target, checked)) {
                auto collection = got.find(target.name);
                if (collection == got.end() || !collection->second.count(tag)) continue;  // also put by the environment
                const auto& g = collection->second.at(tag);
                const auto& w = reference.at(target.name).at(tag);
                for (size_t e = 0; e < w.size(); ++e)
                    if (!cells_close(g[e], w[e], verify_.tolerance))
                        return fmt::format("[{}: {}] element {} = {}, the reference gives {}", target.name,
                                           cnc::describe_tag(tag), e, g[e].str(), w[e].str());
            }
        return "";
    }

    // Random inputs may not suit a graph (a factorization of a matrix that
    // is not positive definite): NaN agrees with NaN, so a result that is
    // NaN in the reference checks nothing. Says how much that is.
    void note_not_a_number(const cnc::Graph& graph, const cnc::CheckedGraph& checked,
                           const cnc::ItemValues& reference) const {
        size_t values = 0, not_a_number = 0;
        for (const cnc::EnvTarget& target : graph.env_gets)
            for (const cnc::TagValue& tag : cnc::range_tags(target, checked))
                for (const interpret::Scalar& cell : reference.at(target.name).at(tag)) {
                    ++values;
                    if (cell.is_floating() && std::isnan(cell.f)) ++not_a_number;
                }
        if (not_a_number > 0)
            out_ << fmt::format("note: {} of the {} values the environment gets are NaN in the reference: "
                                "no run is checked there\n",
                                not_a_number, values);
    }

    void report(const std::string& engine, const std::string& problem, bool skipped = false) {
        const char* verdict = skipped ? "skip" : problem.empty() ? "ok" : "FAIL";
        out_ << fmt::format("{:<5} {}: {}{}\n", verdict, files_.front(), engine,
                            problem.empty() ? "" : fmt::format(": {}", problem));
        (skipped ? skipped_ : problem.empty() ? passed_ : failed_)++;
    }

    const FrontendOptions& options_;
    const std::vector<std::string>& files_;
    const VerifyOptions& verify_;
    std::ostream& out_;
    std::ostream& err_;
    Session session_;
    mcpl::Program program_;
    std::optional<cnc::LoadedGraph> loaded_;
    int passed_ = 0, failed_ = 0, skipped_ = 0;
};

}  // namespace

int verify_graph_command(const FrontendOptions& options, const std::vector<std::string>& files,
                         const VerifyOptions& verify, std::ostream& out, std::ostream& err) {
    // A graph has no sizes, backends or engines to choose: its constants fix
    // its sizes, and it runs with the interpreter and on the runtime only.
    for (const auto& [option, given] : {std::pair<const char*, bool>{"--kernel", !verify.execution.kernel.empty()},
                                        {"--param", !verify.execution.params.empty()},
                                        {"--sizes", !verify.sizes.empty()},
                                        {"--max-size", verify.max_size != 0},
                                        {"--backends", !verify.backends.empty()},
                                        {"--targets", !verify.targets.empty()},
                                        {"--engine", !verify.engines.empty()},
                                        {"--defer", !verify.defer_dir.empty()},
                                        {"--deferred-results", !verify.deferred_results_dir.empty()}})
        if (given) {
            err << fmt::format("mclc: error: {} applies to a kernel, not to a graph (.cnc): a graph runs with the "
                               "interpreter and on the runtime\n",
                               option);
            return kUsageError;
        }
    if (!verify.runtime.empty() && !unknown_runtime(verify.runtime).empty()) {
        err << fmt::format("mclc: error: {}\n", unknown_runtime(verify.runtime));
        return kUsageError;
    }
    return GraphVerifier(options, files, verify, out, err).run();
}

}  // namespace mcl::driver
