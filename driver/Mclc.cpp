// mclc: the command line of the MCL compiler (DESIGN.md section 9).
// Exit status: 0 success, 1 the input has errors, 2 bad usage, 3 internal
// error (a bug in mclc).
#include <algorithm>
#include <exception>
#include <iostream>
#include <limits>
#include <new>
#include <vector>

#include <CLI/CLI.hpp>

#include "driver/FeedbackCommands.h"
#include "driver/FrontendCommands.h"
#include "driver/GenCommands.h"
#include "driver/HardwareCommands.h"
#include "driver/ReportCommands.h"
#include "driver/RunCommands.h"
#include "driver/VerifyGraph.h"
#include "driver/RuntimeGen.h"
#include "lsp/LanguageServer.h"
#include "support/LargeStack.h"
#include "support/Spelling.h"

namespace {

constexpr int kUsageError = 2;
constexpr int kInternalError = 3;

int run(int argc, char** argv) {
    CLI::App app{"mclc: the Many-Core Levels compiler"};
    app.require_subcommand(1);

    std::vector<std::string> hwd_paths;
    auto add_hwd_path = [&](CLI::App* sub) {
        sub->add_option("--hwd-path", hwd_paths,
                        "Directory with more hardware descriptions (repeatable; also MCL_HWD_PATH, "
                        "colon-separated)")
            ->type_name("DIR");
    };

    int status = 0;
    auto* list = app.add_subcommand("list-hwd", "Print the hierarchy of hardware descriptions as a tree");
    add_hwd_path(list);
    list->callback([&] {
        status = mcl::driver::list_hwd(mcl::driver::hardware_paths(hwd_paths), std::cout, std::cerr);
    });

    std::string show_name;
    bool show_json = false;
    auto* show = app.add_subcommand("show-hwd", "Print one resolved hardware description");
    show->add_option("NAME", show_name, "Name of the description")->required();
    show->add_flag("--json", show_json, "Print the full resolved model as JSON");
    add_hwd_path(show);
    show->callback([&] {
        status = mcl::driver::show_hwd(mcl::driver::hardware_paths(hwd_paths), show_name, show_json,
                                       std::cout, std::cerr);
    });

    std::vector<std::string> include_roots;
    auto frontend_options = [&] {
        mcl::driver::HardwarePaths paths = mcl::driver::hardware_paths(hwd_paths);
        paths.user_errors = mcl::hdl::UserErrors::Defer;
        return mcl::driver::FrontendOptions{paths, include_roots};
    };
    auto add_include = [&](CLI::App* sub) {
        sub->add_option("-I", include_roots, "Include root for imported modules (repeatable)")
            ->type_name("DIR")
            ->allow_extra_args(false);  // `-I DIR FILE`: FILE is not a second root
    };

    auto add_floating_point = [](CLI::App* sub, mcl::backends::FloatingPointFreedom& freedom) {
        sub->add_flag("--fp-contract", freedom.contract,
                      "llvm engine and backend: fuse a multiply and an add into one FMA where the CPU or GPU has "
                      "one, as C compilers do by default (results may differ from the interpreter's in the last "
                      "bits)");
        sub->add_flag("--fast-math", freedom.fast_math,
                      "llvm engine and backend: also reassociate, and assume no NaN, infinity or signed zero");
    };

    std::vector<std::string> check_files;
    auto* check = app.add_subcommand("check", "Parse and check MCPL modules and what they import, and Concurrent Collections graphs (.cnc)");
    check->add_option("FILE", check_files, "MCPL files and .cnc graphs")->required();
    add_include(check);
    add_hwd_path(check);
    check->callback([&] {
        status = mcl::driver::check_command(frontend_options(), check_files, std::cout, std::cerr);
    });

    std::string translate_file, translate_target, translate_output;
    auto* translate = app.add_subcommand("translate", "Translate a module down to a hardware description and "
                                                      "print it as MCPL");
    translate->add_option("--hwd", translate_target, "The description to translate to")->required();
    translate->add_option("FILE", translate_file, "MCPL file")->required();
    translate->add_option("-o", translate_output, "Write the result here instead of to standard output")
        ->type_name("OUT");
    add_include(translate);
    add_hwd_path(translate);
    translate->callback([&] {
        status = mcl::driver::translate_command(frontend_options(), translate_file, translate_target,
                                                translate_output, std::cout, std::cerr);
    });

    std::string feedback_file;
    mcl::driver::FeedbackOptions feedback_options;
    auto* feedback = app.add_subcommand("feedback", "Performance remarks on a module's own lines, at its level or "
                                                    "at --hwd after translating");
    feedback->add_option("FILE", feedback_file, "MCPL file")->required();
    feedback->add_option("--hwd", feedback_options.level, "Translate to this description first");
    feedback->add_option("--param", feedback_options.params,
                         "Example value for a parameter, e.g. --param n=2048 (repeatable)")
        ->type_name("NAME=VALUE");
    feedback->add_option("--format", feedback_options.format, "text (default), json or sarif");
    feedback->add_flag("--all", feedback_options.all,
                       "Every remark, unfolded (text shows the bound and the ten of highest impact by default)");
    add_include(feedback);
    add_hwd_path(feedback);
    feedback->callback([&] {
        status = mcl::driver::feedback_command(frontend_options(), feedback_options, feedback_file, std::cout,
                                               std::cerr);
    });

    std::string ast_file;
    auto* ast = app.add_subcommand("print-ast-json",
                                   "Print the checked AST of a module as JSON (types, memory spaces, "
                                   "read/write sets)");
    ast->add_option("FILE", ast_file, "MCPL file")->required();
    add_include(ast);
    add_hwd_path(ast);
    ast->callback([&] {
        status = mcl::driver::print_ast_json_command(frontend_options(), ast_file, std::cout, std::cerr);
    });

    auto* list_targets = app.add_subcommand("list-targets", "Print the leaves with a code-generation "
                                                            "configuration and their backends");
    add_hwd_path(list_targets);
    list_targets->callback([&] {
        status = mcl::driver::list_targets_command(mcl::driver::hardware_paths(hwd_paths), std::cout, std::cerr);
    });

    mcl::driver::GenOptions gen_options;
    auto* gen = app.add_subcommand("gen", "Translate a module to a leaf and generate kernel source and host glue; "
                                          "with --runtime starpu, every version of a kernel as runtime tasks");
    auto* gen_target = gen->add_option("--target", gen_options.target, "The leaf to generate code for (see list-targets)")
                           ->type_name("LEAF");
    auto* gen_backend =
        gen->add_option("--backend", gen_options.backend, "The code generator (e.g. cpp)")->type_name("B");
    auto* gen_runtime = gen->add_option("--runtime", gen_options.runtime,
                                        "Generate the versions in FILE... as tasks of the runtime (starpu): the most "
                                        "specific version per leaf, codelets and submit functions")
                            ->type_name("R");
    auto* gen_graph = gen->add_option("--graph", gen_options.graph,
                                      "Generate a Concurrent Collections graph (.cnc) on the runtime: its coordination "
                                      "code, and its steps' kernels (with the further versions FILE...) as tasks")
                          ->type_name("G.cnc");
    gen->add_option("--name", gen_options.name,
                    "With --runtime or --graph: the namespace and file names (default: the most abstract version's "
                    "module, or the graph file's name)")
        ->type_name("NAME");
    gen_target->excludes(gen_graph);
    gen_backend->excludes(gen_graph);
    gen_runtime->excludes(gen_graph);
    gen_target->excludes(gen_runtime);
    gen_backend->excludes(gen_runtime);
    gen->add_option("FILE", gen_options.files,
                    "MCPL file (with --runtime: every version of the kernels; with --graph: further versions)");
    gen->add_option("-o", gen_options.output_dir, "Directory to write the files into (created when missing)")
        ->required()
        ->type_name("DIR");
    add_floating_point(gen, gen_options.floating_point);
    gen->add_option("--cpu", gen_options.cpu,
                    "llvm backend, CPU leaves: the processor the object is for instead of the leaf's (an LLVM CPU "
                    "name such as skylake-avx512, or native: this machine's, like -march=native)")
        ->type_name("NAME");
    gen->add_option("--min-blocks-per-processor", gen_options.min_blocks_per_processor,
                    "cuda and llvm backends, GPU leaves: how many blocks of each kernel should fit on one "
                    "multiprocessor at once, so that the GPU compiler keeps the registers within that share (CUDA's "
                    "__launch_bounds__(threads, N), PTX .minnctapersm N); it may spill registers to get there")
        ->type_name("N")
        // The leaf's multiprocessor decides how many fit; only int, the type of launch bounds, limits it here.
        ->check(CLI::Range(int64_t{1}, int64_t{std::numeric_limits<int>::max()}));
    add_include(gen);
    add_hwd_path(gen);
    gen->callback([&] {
        if (gen_options.min_blocks_per_processor && gen_options.target.empty())
            throw CLI::ValidationError("gen", "--min-blocks-per-processor needs --target and --backend");
        if (!gen_options.graph.empty()) {
            status = mcl::driver::graph_gen_command(frontend_options(), gen_options, std::cout, std::cerr);
            return;
        }
        if (!gen_options.runtime.empty()) {
            if (gen_options.files.empty()) throw CLI::ValidationError("gen", "--runtime needs FILE...");
            status = mcl::driver::runtime_gen_command(frontend_options(), gen_options, std::cout, std::cerr);
            return;
        }
        if (gen_options.target.empty() || gen_options.backend.empty() || gen_options.files.size() != 1)
            throw CLI::ValidationError("gen", "needs --target, --backend and one FILE (or --runtime and FILE...)");
        status = mcl::driver::gen_command(frontend_options(), gen_options, std::cout, std::cerr);
    });

    auto add_execution = [&](CLI::App* sub, mcl::driver::ExecutionOptions& execution) {
        sub->add_option("--kernel", execution.kernel, "The kernel to run (default: the module's first kernel)");
        sub->add_option("--param", execution.params,
                        "Value of a scalar parameter, e.g. --param n=1000 (repeatable); int parameters not given are sizes")
            ->type_name("NAME=VALUE");
        sub->add_option("--seed", execution.seed, "Seed of the generated inputs and of the units' order");
    };

    std::string run_file;
    mcl::driver::RunOptions run_options;
    auto* run_cmd = app.add_subcommand("run", "Run a kernel on seeded inputs with the reference interpreter or a "
                                              "backend runnable here; print a checksum per output and the time");
    run_cmd->add_option("FILE", run_file, "MCPL file")->required();
    add_execution(run_cmd, run_options.execution);
    run_cmd->add_option("--backend", run_options.backend,
                        "Run through this backend (cpp, hls, opencl, or llvm where built) instead")
        ->type_name("B");
    run_cmd->add_option("--target", run_options.target, "The leaf to generate code for, with --backend")
        ->type_name("LEAF");
    run_cmd->add_option("--engine", run_options.engine,
                        "Execute with this engine: llvm (JIT, the default where built) or interp (the reference "
                        "interpreter)")
        ->type_name("E");
    run_cmd->add_option("--emit-llvm", run_options.emit_llvm, "With the llvm engine: write the optimized LLVM IR here")
        ->type_name("FILE");
    add_floating_point(run_cmd, run_options.floating_point);
    add_include(run_cmd);
    add_hwd_path(run_cmd);
    run_cmd->callback([&] {
        status = mcl::driver::run_command(frontend_options(), run_file, run_options, std::cout, std::cerr);
    });

    std::vector<std::string> verify_files;
    mcl::driver::VerifyOptions verify_options;
    auto* verify = app.add_subcommand("verify", "Run every version of a kernel and every backend runnable here on "
                                                "the same inputs against the interpreter running the first file");
    verify->add_option("FILE", verify_files,
                       "MCPL files: the reference first, then its refined versions; or a graph (.cnc) first, run by "
                       "the interpreter and on the runtime (with further versions of its steps)")
        ->required();
    add_execution(verify, verify_options.execution);
    verify->add_option("--sizes", verify_options.sizes,
                       "Sizes to run at (default 1,7,33, and T+1 for the largest tile T of the versions "
                       "that the interpreter runs in about two seconds): with base b, int parameter j is b + 2j")
        ->delimiter(',');
    verify->add_option("--max-size", verify_options.max_size,
                       "With the default sizes: the size added for a tile keeps every int parameter at most this "
                       "(a kernel meant only for smaller sizes)");
    verify->add_option("--backends", verify_options.backends,
                       "Backends to run (default: every one runnable here: cpp, hls, opencl, and llvm where built)")
        ->delimiter(',');
    verify->add_option("--runtime", verify_options.runtime,
                       "starpu: also run every version together as tasks of the runtime on StarPU, once on CPU "
                       "workers only and once on OpenCL workers only");
    verify->add_option("--targets", verify_options.targets, "Leaves to translate to (default: every configured leaf)")
        ->delimiter(',');
    verify->add_option("--engine", verify_options.engines,
                       "Engines to check besides the reference interpreter (default: llvm where built; "
                       "interp: none)")
        ->delimiter(',');
    auto* defer = verify->add_option("--defer", verify_options.defer_dir,
                                     "Write the harness, code and inputs of the backends chosen (default: those that "
                                     "cannot run here, cuda and llvm's PTX) into DIR, each with a run.sh that builds "
                                     "and runs it where it runs");
    verify->add_option("--deferred-results", verify_options.deferred_results_dir,
                       "Compare the results that the run.sh scripts of an earlier --defer DIR left there")
        ->excludes(defer);
    verify->add_option("--rtol", verify_options.tolerance.relative, "Relative tolerance for floating point (1e-4)");
    verify->add_option("--atol", verify_options.tolerance.absolute, "Absolute tolerance for floating point (1e-5)");
    add_include(verify);
    add_hwd_path(verify);
    verify->callback([&] {
        auto command = mcl::driver::is_graph_file(verify_files.front()) ? mcl::driver::verify_graph_command
                                                                        : mcl::driver::verify_command;
        status = command(frontend_options(), verify_files, verify_options, std::cout, std::cerr);
    });

    mcl::driver::ReportOptions report_options;
    auto* report = app.add_subcommand("report", "One self-contained HTML page for kernel versions at a level: "
                                                "sources with remarks, a roofline plot, versions side by side");
    report->add_option("FILE", report_options.files, "MCPL files (versions of a kernel)")->required();
    report->add_option("--hwd", report_options.level, "The level to report at")->required();
    report->add_option("--param", report_options.params, "Example value for a parameter (repeatable)")
        ->type_name("NAME=VALUE");
    report->add_option("--bench", report_options.bench, "Google Benchmark JSON with measured times")
        ->type_name("RESULTS.json");
    report->add_option("-o", report_options.output, "The HTML file to write")->required()->type_name("OUT.html");
    add_include(report);
    add_hwd_path(report);
    report->callback([&] {
        status = mcl::driver::report_command(frontend_options(), report_options, std::cout, std::cerr);
    });

    auto* lsp = app.add_subcommand("lsp", "Serve MCPL and HDL documents to an editor: the Language Server "
                                          "Protocol on standard input and output");
    add_include(lsp);
    add_hwd_path(lsp);
    lsp->callback([&] {
        mcl::driver::HardwarePaths paths = mcl::driver::hardware_paths(hwd_paths);
        mcl::lsp::LanguageServer server({paths.builtin_dir, paths.user_dirs, include_roots}, std::cout);
        status = server.serve(std::cin);
    });

    // CLI11 would only say that a subcommand is required; name the typo.
    if (argc > 1 && argv[1][0] != '-') {
        std::vector<std::string> known;
        for (const CLI::App* sub : app.get_subcommands({})) known.push_back(sub->get_name());
        if (std::find(known.begin(), known.end(), argv[1]) == known.end()) {
            std::cerr << "mclc: error: unknown subcommand '" << argv[1] << "'"
                      << mcl::did_you_mean(argv[1], known) << "\nRun with --help for more information.\n";
            return kUsageError;
        }
    }

    // A repeatable option takes one value each time it is given: CLI11
    // would let `--param n=5 kernel.mcl` take the file as a second value.
    std::vector<CLI::App*> apps = app.get_subcommands({});
    apps.push_back(&app);
    for (CLI::App* each : apps)
        for (CLI::Option* option : each->get_options([](CLI::Option* o) { return !o->get_positional(); }))
            option->allow_extra_args(false);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsageError;
    }
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return mcl::run_on_large_stack([&] { return run(argc, argv); });
    } catch (const std::bad_alloc&) {
        // Not a bug: a program or size that needs more memory than there is.
        std::cerr << "mclc: error: out of memory\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "mclc: internal compiler error: " << e.what()
                  << "\nThis is a bug in mclc; please report it with the input that caused it.\n";
    } catch (...) {
        std::cerr << "mclc: internal compiler error: unknown exception\n"
                  << "This is a bug in mclc; please report it with the input that caused it.\n";
    }
    return kInternalError;
}
