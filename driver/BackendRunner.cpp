#include "driver/BackendRunner.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "backends/starpu/CodeletGenerator.h"
#include "cnc/GenerateGraph.h"
#include "driver/RuntimeGen.h"
#include "support/OutputFile.h"

namespace mcl::driver {

using mcpl::Primitive;

namespace {

std::string c_type(const mcpl::Type& t) {
    if (t.record) return backends::host_identifier(t.record->name);
    switch (t.primitive.value_or(Primitive::Int)) {
    case Primitive::Float: return "float";
    case Primitive::Double: return "double";
    case Primitive::Byte: return "unsigned char";
    case Primitive::Bool: return "bool";
    default: return "int";
    }
}

// The records a kernel's parameters use, each with the C++ type that names
// it: through the kernel's parameter or the field that holds it
// (`decltype`), as the generated header spells it (a backend qualifies an
// imported record named like another). An enclosing record comes first.
struct HarnessRecord {
    const mcpl::RecordType* record;
    std::string alias;  // mcl_record_<n>
    std::string named;  // a C++ type expression over earlier aliases
};

void collect_records(const mcpl::Type& t, const std::string& named, std::vector<HarnessRecord>& out) {
    if (!t.record) return;
    for (const HarnessRecord& r : out)
        if (r.record == t.record) return;
    std::string alias = fmt::format("mcl_record_{}", out.size());
    out.push_back({t.record, alias, named});
    for (const auto& f : t.record->fields)
        collect_records(f->forms.front().resolved_type,
                        fmt::format("std::remove_all_extents_t<decltype({}::{})>", alias,
                                    backends::host_identifier(f->forms.front().name)),
                        out);
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string shell_quoted(const std::string& s) { return fmt::format("'{}'", s); }

// Writes the arguments of one run for the harness to read, streamed (a
// run's cells are too large to copy into one string first).
bool write_run_arguments(const std::string& path, const KernelData& data, std::string& error) {
    return write_output_file(path, [&](std::ostream& out) { write_cells(out, data); }, error);
}

// Runs a shell command with its output in `log`; the exit status.
int run_command(const std::string& command, const std::string& log) {
    int status = std::system(fmt::format("{} > {} 2>&1", command, shell_quoted(log)).c_str());
    return status == -1 ? -1 : WEXITSTATUS(status);
}

// Builds a harness in `work_dir`; "" when it builds, else what did not
// (`what`) with the compiler's output.
std::string build_harness(const std::string& work_dir, const std::string& build_command, const std::string& what) {
    std::string log = (std::filesystem::path(work_dir) / "build.log").string();
    if (run_command(fmt::format("cd {} && {}", shell_quoted(work_dir), build_command), log) == 0) return "";
    return fmt::format("{} does not build warning-free:\n{}", what, read_file(log));
}

// The command that builds harness.cpp with the runtime's generated
// `sources` against StarPU. Its include directories only: StarPU's cflags
// turn on deprecated names, which warn.
std::string runtime_build_command(const std::string& sources) {
    return fmt::format("${{CXX:-c++}} -std=c++17 -O1 -fopenmp -Wall -Wextra -Werror -I gen "
                       "$(pkg-config --cflags-only-I libstarpu) harness.cpp {} -o harness "
                       "$(pkg-config --libs libstarpu) -lOpenCL",
                       sources);
}

// The environment of a harness run: an OpenCL build log must be clean.
constexpr const char* kHarnessEnvironment = "MCL_OPENCL_REQUIRE_CLEAN_BUILD=1";

// The kernel call a harness makes: the generated glue's host function, or
// a runtime's submit function (arrays as mcl::rt::Vector, then a wait).
struct HarnessCall {
    std::string header;    // included: declares `function`
    std::string function;  // qualified
    bool runtime = false;
};

std::string harness_source(const mcpl::Function& kernel, const HarnessCall& call) {
    const std::string& function = call.function;
    // The runtime's submit takes the runtime first.
    size_t first_argument = call.runtime ? 1 : 0;
    auto parameter_type = [&](size_t k) {
        return fmt::format("mcl_element_t<mcl_parameter_t<decltype(&{}), {}>>", function, k + first_argument);
    };
    std::vector<HarnessRecord> records;
    for (size_t k = 0; k < kernel.params.size(); ++k)
        collect_records(kernel.params[k]->forms.front().resolved_type, parameter_type(k), records);
    std::string out = fmt::format(
        "// The harness of `mclc run`/`verify`: reads the arguments of each run, calls {0}, writes them back.\n"
        "#include <cstdint>\n#include <cstdio>\n#include <exception>\n#include <fstream>\n#include <memory>\n"
        "#include <tuple>\n#include <type_traits>\n\n#include \"{1}\"\n\nnamespace {{\n\nstd::ifstream in;\nstd::ofstream out;\n\n"
        "// The type of parameter I of F, without pointer, reference and const: a record as the header spells it.\n"
        "template <typename F, size_t I> struct mcl_parameter;\n"
        "template <typename R, typename... A, size_t I> struct mcl_parameter<R (*)(A...), I> {{\n"
        "    using type = std::remove_cv_t<std::remove_pointer_t<std::remove_reference_t<std::tuple_element_t<I, "
        "std::tuple<A...>>>>>;\n}};\n"
        "template <typename F, size_t I> using mcl_parameter_t = typename mcl_parameter<F, I>::type;\n"
        "// The element of an array parameter that the call takes as a container.\n"
        "template <typename T> struct mcl_element {{ using type = T; }};\n{2}"
        "template <typename T> using mcl_element_t = typename mcl_element<T>::type;\n\n"
        "int64_t cells() {{\n    int64_t n = 0;\n    in.read(reinterpret_cast<char*>(&n), sizeof n);\n    return n;\n}}\n"
        "template <typename T> void get(T& v) {{\n"
        "    if constexpr (std::is_floating_point_v<T>) {{ double d = 0; in.read(reinterpret_cast<char*>(&d), 8); "
        "v = static_cast<T>(d); }}\n"
        "    else {{ int64_t i = 0; in.read(reinterpret_cast<char*>(&i), 8); v = static_cast<T>(i); }}\n}}\n"
        "template <typename T> void put(const T& v) {{\n"
        "    if constexpr (std::is_floating_point_v<T>) {{ double d = v; out.write(reinterpret_cast<const char*>(&d), 8); }}\n"
        "    else {{ int64_t i = static_cast<int64_t>(v); out.write(reinterpret_cast<const char*>(&i), 8); }}\n}}\n",
        function, call.header,
        call.runtime ? "template <typename T> struct mcl_element<mcl::rt::Vector<T>> { using type = T; };\n" : "");
    for (const HarnessRecord& r : records)
        out += fmt::format("using {0} = {1};\nvoid get({0}& r);\nvoid put(const {0}& r);\n", r.alias, r.named);
    for (const HarnessRecord& r : records) {
        std::string get_body, put_body;
        for (const auto& f : r.record->fields) {
            std::string name = backends::host_identifier(f->forms.front().name);
            if (f->forms.front().resolved_type.is_array()) {
                get_body += fmt::format("    for (auto& x : r.{}) get(x);\n", name);
                put_body += fmt::format("    for (const auto& x : r.{}) put(x);\n", name);
            } else {
                get_body += fmt::format("    get(r.{});\n", name);
                put_body += fmt::format("    put(r.{});\n", name);
            }
        }
        out += fmt::format("void get({0}& r) {{\n{1}}}\nvoid put(const {0}& r) {{\n{2}}}\n", r.alias, get_body,
                           put_body);
    }
    out += "\n}  // namespace\n\nint main(int argc, char** argv) {\n";
    // One runtime for every run; StarPU's variables choose its workers.
    if (call.runtime)
        out += "    mcl::rt::Options options;\n    options.scheduler = \"eager\";\n    options.quiet = true;\n"
               "    std::unique_ptr<mcl::rt::Runtime> started;\n"
               "    try {\n        started = std::make_unique<mcl::rt::Runtime>(options);\n"
               "    } catch (const std::exception& e) {\n        std::fprintf(stderr, \"%s\\n\", e.what());\n"
               "        return 1;\n    }\n    mcl::rt::Runtime& runtime = *started;\n";
    out += "    for (int run = 1; run + 1 < argc; run += 2) {\n"
           "        in.open(argv[run], std::ios::binary);\n";
    std::vector<std::string> args, writes, vectors;
    for (size_t k = 0; k < kernel.params.size(); ++k) {
        const mcpl::Decl& p = *kernel.params[k];
        const mcpl::Type& t = p.forms.front().resolved_type;
        std::string type = c_type(t);
        for (const HarnessRecord& r : records)
            if (r.record == t.record) type = r.alias;
        size_t per_element = std::max<size_t>(interpret::element_cells(t).size(), 1);
        if (t.is_array()) {
            // The runtime's Vector holds the element type of its submit.
            if (call.runtime) type = parameter_type(k);
            out += fmt::format("        int64_t n{0} = cells() / {1};\n"
                               "        auto p{0} = std::make_unique<{2}[]>(static_cast<size_t>(n{0}));\n"
                               "        for (int64_t k = 0; k < n{0}; ++k) get(p{0}[k]);\n",
                               k, per_element, type);
            if (call.runtime) {
                vectors.push_back(fmt::format("                mcl::rt::Vector<{0}> v{1}(runtime, p{1}.get(), "
                                              "static_cast<size_t>(n{1}));\n",
                                              type, k));
                args.push_back(fmt::format("v{}", k));
            } else {
                args.push_back(fmt::format("p{}.get()", k));
            }
            writes.push_back(fmt::format("        put(int64_t{{n{0} * {1}}});\n"
                                         "        for (int64_t k = 0; k < n{0}; ++k) put(p{0}[k]);\n",
                                         k, per_element));
        } else {
            out += fmt::format("        cells();\n        {1} p{0}{{}};\n        get(p{0});\n", k, type);
            args.push_back(p.is_written ? fmt::format("&p{}", k) : fmt::format("p{}", k));
            writes.push_back(fmt::format("        put(int64_t{{{1}}});\n        put(p{0});\n", k, per_element));
        }
    }
    // A short argument file or a failed write of the results stops the
    // harness with the reason, rather than running on zeros or leaving
    // `verify` a truncated file to puzzle over.
    out += "        if (!in) {\n            std::fprintf(stderr, \"cannot read the arguments in %s\\n\", argv[run]);\n"
           "            return 1;\n        }\n        in.close();\n        try {\n";
    if (call.runtime) {
        // The Vectors' destructors unregister them, which brings the results back.
        out += "            {\n";
        for (const std::string& v : vectors) out += v;
        args.insert(args.begin(), "runtime");
        out += fmt::format("                {}({});\n                runtime.wait_all();\n            }}\n", function,
                           fmt::join(args, ", "));
    } else {
        out += fmt::format("            {}({});\n", function, fmt::join(args, ", "));
    }
    out += "        } catch (const std::exception& e) {\n"
           "            std::fprintf(stderr, \"%s\\n\", e.what());\n            return 1;\n        }\n"
           "        out.open(argv[run + 1], std::ios::binary);\n";
    for (const std::string& w : writes) out += w;
    out += "        out.close();\n        if (!out) {\n"
           "            std::fprintf(stderr, \"cannot write the results to %s\\n\", argv[run + 1]);\n"
           "            return 1;\n        }\n    }\n    return 0;\n}\n";
    return out;
}

}  // namespace

const std::vector<std::string>& runnable_backends() {
#ifdef MCL_WITH_LLVM
    static const std::vector<std::string> names = {"cpp", "hls", "llvm", "opencl"};
#else
    static const std::vector<std::string> names = {"cpp", "hls", "opencl"};
#endif
    return names;
}

bool can_defer(const std::string& backend) {
    return backend == "cuda" || backend == "llvm" ||
           std::find(runnable_backends().begin(), runnable_backends().end(), backend) != runnable_backends().end();
}

bool runs_here(const std::string& backend, const backends::BackendConfig& config) {
    if (std::find(runnable_backends().begin(), runnable_backends().end(), backend) == runnable_backends().end()) return false;
    return backend != "llvm" || config.device_type == "cpu";
}

BackendHarness::BackendHarness(const backends::GenerationInput& input, const backends::Backend& backend,
                               const mcpl::Function& kernel, const std::string& work_dir, DiagnosticEngine& diags)
    : work_dir_(work_dir), backend_(backend.name()) {
    namespace fs = std::filesystem;
    std::vector<backends::GeneratedFile> files = backend.generate(input, diags);
    if (diags.has_errors()) {
        error_ = "code generation failed";
        return;
    }
    fs::path gen = fs::path(work_dir) / "gen";
    std::error_code ec;
    fs::create_directories(gen, ec);
    std::vector<std::string> sources;
    bool ptx = false;
    for (const auto& f : files) {
        if (!write_output_file((gen / f.name).string(), f.text, error_)) return;
        std::string extension = fs::path(f.name).extension().string();
        ptx = ptx || extension == ".ptx";
        if (extension == ".cpp" || extension == ".o" || extension == ".cu")
            sources.push_back(shell_quoted((fs::path("gen") / f.name).string()));
    }
    // nvcc compiles the harness as CUDA, so that it sees the glue's header as nvcc does.
    std::string harness = backend_ == "cuda" ? "harness.cu" : "harness.cpp";
    HarnessCall call{fmt::format("{}.h", input.module.name),
                     fmt::format("{}::{}", backends::host_namespace_identifier(input.module.name),
                                 backends::host_identifier(kernel.name))};
    if (!write_output_file((fs::path(work_dir) / harness).string(), harness_source(kernel, call), error_)) return;
    executable_ = (fs::path(work_dir) / "harness").string();
    // Paths are relative to the work directory and the tools are shell
    // expansions, so that the same command builds here and in a deferred
    // run.sh on another machine.
    std::string cuda = "\"${CUDA_HOME:-/usr/local/cuda}\"";
    if (backend_ == "cuda")
        build_command_ = fmt::format("\"${{NVCC:-$(command -v nvcc || echo {0}/bin/nvcc)}}\" -std=c++17 -O2 "
                                     "-arch=\"${{CUDA_ARCH:-native}}\" -Werror all-warnings -Xcompiler -Wall,-Wextra "
                                     "-I gen {1} {2} -o harness",
                                     cuda, harness, fmt::join(sources, " "));
    else if (ptx)
        build_command_ = fmt::format("${{CXX:-c++}} -std=c++17 -O1 -Wall -Wextra -Werror -I gen -I {0}/include "
                                     "{1} {2} -L {0}/lib64 -L {0}/lib64/stubs -lcuda -lcudart -o harness",
                                     cuda, harness, fmt::join(sources, " "));
    else
        build_command_ = fmt::format("${{CXX:-c++}} -std=c++17 -O1 -fopenmp -Wall -Wextra -Werror -I gen {} {} -o "
                                     "harness{}",
                                     harness, fmt::join(sources, " "), backend_ == "opencl" ? " -lOpenCL" : "");
}

BackendHarness::BackendHarness(const FrontendOptions& options, const std::vector<std::string>& files,
                               const mcpl::Function& kernel, const std::string& work_dir)
    : work_dir_(work_dir), backend_("starpu") {
    namespace fs = std::filesystem;
    constexpr const char* kTasks = "verify_tasks";
    GenOptions gen;
    gen.files = files;
    gen.runtime = "starpu";
    gen.name = kTasks;
    gen.output_dir = (fs::path(work_dir) / "gen").string();
    std::ostringstream printed, diagnostics;
    size_t kernel_count = 0;
    if (runtime_gen_command(options, gen, printed, diagnostics, &kernel_count) != 0) {
        std::string text = diagnostics.str();
        refusal_ = error_ = text.substr(0, text.find('\n'));
        return;
    }
    HarnessCall call{fmt::format("{}.h", kTasks),
                     fmt::format("{}::{}", kTasks, backends::starpu::submit_function_name(kernel_count, kernel.name)),
                     true};
    if (!write_output_file((fs::path(work_dir) / "harness.cpp").string(), harness_source(kernel, call), error_)) return;
    executable_ = (fs::path(work_dir) / "harness").string();
    build_command_ = runtime_build_command(fmt::format("gen/{}.cpp", kTasks));
}

bool BackendHarness::build() {
    if (!ok()) return false;
    error_ = build_harness(work_dir_, build_command_, fmt::format("the generated {} code", backend_));
    built_ = ok();
    return built_;
}

bool BackendHarness::run(std::vector<KernelData*> runs, const std::string& opencl_build_options,
                         const std::string& environment_variables) {
    namespace fs = std::filesystem;
    if (!built_) return false;
    error_.clear();
    std::string environment = kHarnessEnvironment;
    if (!environment_variables.empty()) environment += " " + environment_variables;
    if (!opencl_build_options.empty())
        environment += fmt::format(" MCL_OPENCL_BUILD_OPTIONS=\"$MCL_OPENCL_BUILD_OPTIONS\"{}",
                                   shell_quoted(" " + opencl_build_options));
    std::string command = fmt::format("{} timeout 600 {}", environment, shell_quoted(executable_));
    for (size_t k = 0; k < runs.size(); ++k) {
        std::string in = (fs::path(work_dir_) / fmt::format("in{}", k)).string();
        if (!write_run_arguments(in, *runs[k], error_)) return false;
        command += fmt::format(" {} {}", shell_quoted(in),
                               shell_quoted((fs::path(work_dir_) / fmt::format("out{}", k)).string()));
    }
    std::string log = (fs::path(work_dir_) / "run.log").string();
    int status = run_command(command, log);
    if (status != 0) {
        error_ = fmt::format("the {} harness failed (exit status {}): {}", backend_, status, read_file(log));
        return false;
    }
    error_ = read_outputs(work_dir_, backend_, runs);
    return error_.empty();
}

bool BackendHarness::defer(const std::vector<KernelData*>& runs) {
    namespace fs = std::filesystem;
    if (!ok()) return false;
    std::string arguments;
    for (size_t k = 0; k < runs.size(); ++k) {
        if (!write_run_arguments((fs::path(work_dir_) / fmt::format("in{}", k)).string(), *runs[k], error_))
            return false;
        arguments += fmt::format(" in{0} out{0}", k);
    }
    fs::path script = fs::path(work_dir_) / "run.sh";
    std::string script_text = fmt::format(
        "#!/bin/sh\n"
        "# Written by `mclc verify --defer`: builds the {0} harness unless it is built (BUILD_ONLY=1: only that),\n"
        "# runs it on in0... and leaves out0..., run.log and status for `mclc verify --deferred-results`.\n"
        "cd \"$(dirname \"$0\")\" || exit 1\n"
        "rm -f status run.log\n"
        "if [ ! -x harness ]; then\n"
        "  if ! {{ {1}; }} > build.log 2>&1; then echo build > status; exit 1; fi\n"
        "fi\n"
        "[ -z \"${{BUILD_ONLY:-}}\" ] || exit 0\n"
        "{2} timeout 600 ./harness{3} > run.log 2>&1\n"
        "code=$?\n"
        "echo $code > status\n"
        "exit $code\n",
        backend_, build_command_, kHarnessEnvironment, arguments);
    if (!write_output_file(script.string(), script_text, error_)) return false;
    std::error_code ec;
    fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec,
                    ec);
    if (ec) error_ = fmt::format("cannot make {} executable: {}", script.string(), ec.message());
    return ok();
}

std::vector<RuntimeWorkerRun> runtime_worker_runs(const std::string& starpu_home) {
    std::string common = fmt::format("STARPU_HOME={} STARPU_SILENT=1 STARPU_WORKERS_NOBIND=1", shell_quoted(starpu_home));
    return {{"CPU workers", common + " STARPU_NCPU=1 STARPU_NOPENCL=0"},
            {"OpenCL workers", common + " STARPU_NCPU=0 STARPU_NOPENCL=1"}};
}

TemporaryDirectory::TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "mclc-XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
}

TemporaryDirectory::~TemporaryDirectory() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TemporaryDirectory::sub(const std::string& name) const {
    return (std::filesystem::path(path_) / name).string();
}

namespace {

constexpr const char* kGraphName = "verify_graph";

// An item's cells as the harness's C++ array holds them, and back.
void append_cell_bytes(const interpret::Scalar& cell, std::string& out) {
    auto append = [&](auto v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
    switch (cell.type) {
    case Primitive::Float: append(static_cast<float>(cell.f)); break;
    case Primitive::Double: append(cell.f); break;
    case Primitive::Byte: append(static_cast<unsigned char>(cell.i)); break;
    case Primitive::Bool: append(static_cast<bool>(cell.i)); break;
    default: append(static_cast<int32_t>(cell.i)); break;
    }
}

size_t cell_bytes(Primitive type) {
    switch (type) {
    case Primitive::Double: return sizeof(double);
    case Primitive::Byte: return sizeof(unsigned char);
    case Primitive::Bool: return sizeof(bool);
    default: return 4;
    }
}

interpret::Scalar cell_from_bytes(Primitive type, const char* at) {
    auto read = [&](auto v) {
        std::memcpy(&v, at, sizeof v);
        return v;
    };
    switch (type) {
    case Primitive::Float: return interpret::Scalar::of_float(read(float{}));
    case Primitive::Double: return interpret::Scalar::of_double(read(double{}));
    case Primitive::Byte: return interpret::Scalar{Primitive::Byte, read((unsigned char){}), 0, false};
    case Primitive::Bool: return interpret::Scalar::of_bool(read(bool{}));
    default: return interpret::Scalar::of_int(read(int32_t{}));
    }
}

}  // namespace

GraphHarness::GraphHarness(const FrontendOptions& options, const std::string& graph_file,
                           const std::vector<std::string>& versions, const cnc::Graph& graph,
                           const cnc::CheckedGraph& checked, const std::string& work_dir)
    : work_dir_(work_dir), item_elements_(checked.item_elements) {
    namespace fs = std::filesystem;
    GenOptions gen;
    gen.graph = graph_file;
    gen.files = versions;
    gen.name = kGraphName;
    gen.output_dir = (fs::path(work_dir) / "gen").string();
    std::ostringstream printed, diagnostics;
    if (graph_gen_command(options, gen, printed, diagnostics) != 0) {
        std::string text = diagnostics.str();
        refusal_ = error_ = text.substr(0, text.find('\n'));
        return;
    }
    // An array a field of the Environment: every target of its collection in turn.
    for (const cnc::EnvironmentField& field : cnc::environment_fields(graph)) {
        EnvironmentItems items{&cnc::item_named(graph, field.item), field.name, {}};
        for (const cnc::EnvTarget& target : field.gets ? graph.env_gets : graph.env_puts)
            if (!target.is_tag && target.name == field.item)
                for (cnc::TagValue& tag : cnc::range_tags(target, checked)) items.tags.push_back(std::move(tag));
        (field.gets ? gets_ : puts_).push_back(std::move(items));
    }
    if (!write_output_file((fs::path(work_dir) / "harness.cpp").string(), harness_source(), error_)) return;
    build_command_ = runtime_build_command(fmt::format("gen/{0}.cpp gen/{0}_steps.cpp", kGraphName));
}

std::string GraphHarness::harness_source() const {
    std::string declarations, fields, writes;
    for (const EnvironmentItems& e : puts_) {
        size_t count = e.tags.size() * static_cast<size_t>(elements(*e.item));
        declarations += fmt::format("    auto item_{0} = std::make_unique<{1}[]>({2});\n"
                                    "    if (!read_values(\"put_{0}\", item_{0}.get(), {2})) return 1;\n",
                                    e.field, cnc::element_spelling(*e.item), count);
        fields += fmt::format("    environment.{0} = item_{0}.get();\n", e.field);
    }
    for (const EnvironmentItems& e : gets_) {
        size_t count = e.tags.size() * static_cast<size_t>(elements(*e.item));
        declarations += fmt::format("    auto item_{0} = std::make_unique<{1}[]>({2});\n", e.field,
                                    cnc::element_spelling(*e.item), count);
        fields += fmt::format("    environment.{0} = item_{0}.get();\n", e.field);
        writes += fmt::format("    if (!write_values(\"get_{0}\", item_{0}.get(), {1})) return 1;\n", e.field, count);
    }
    return fmt::format(R"(// The harness of `mclc verify` for a graph: reads the items the environment
// puts, runs the graph on the runtime, writes the items it gets.
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>

#include "{0}.h"

namespace {{

template <class T>
bool read_values(const char* path, T* values, size_t count) {{
    std::ifstream in(path, std::ios::binary);
    if (in.read(reinterpret_cast<char*>(values), static_cast<std::streamsize>(count * sizeof(T)))) return true;
    std::cerr << "cannot read " << path << "\n";
    return false;
}}

template <class T>
bool write_values(const char* path, const T* values, size_t count) {{
    std::ofstream out(path, std::ios::binary);
    if (out.write(reinterpret_cast<const char*>(values), static_cast<std::streamsize>(count * sizeof(T)))) return true;
    std::cerr << "cannot write " << path << "\n";
    return false;
}}

}}  // namespace

int main(int argc, char** argv) {{
    try {{
    mcl::rt::Runtime runtime(&argc, &argv);
{1}    {0}::Environment environment;
{2}    {0}::run(runtime, environment);
{3}    return 0;
    }} catch (const std::exception& e) {{
        std::cerr << "harness: " << e.what() << "\n";
        return 1;
    }}
}}
)",
                       kGraphName, declarations, fields, writes);
}

bool GraphHarness::build() {
    if (!ok()) return false;
    error_ = build_harness(work_dir_, build_command_, "the graph's generated code");
    built_ = ok();
    return built_;
}

bool GraphHarness::run(const cnc::ItemValues& puts, cnc::ItemValues& gets, const std::string& environment_variables) {
    namespace fs = std::filesystem;
    if (!built_) return false;
    error_.clear();
    for (const EnvironmentItems& e : puts_) {
        std::string bytes;
        const auto& items = puts.at(e.item->name);
        for (const cnc::TagValue& tag : e.tags)
            for (const interpret::Scalar& cell : items.at(tag)) append_cell_bytes(cell, bytes);
        if (!write_output_file((fs::path(work_dir_) / ("put_" + e.field)).string(), bytes, error_)) return false;
    }
    std::string log = (fs::path(work_dir_) / "run.log").string();
    int status = run_command(fmt::format("cd {} && {} {} timeout 600 ./harness", shell_quoted(work_dir_),
                                         kHarnessEnvironment, environment_variables),
                             log);
    if (status != 0) {
        error_ = fmt::format("the graph's harness failed (exit status {}): {}", status, read_file(log));
        return false;
    }
    for (const EnvironmentItems& e : gets_) {
        Primitive type = cnc::item_element_type(*e.item);
        std::string bytes = read_file((fs::path(work_dir_) / ("get_" + e.field)).string());
        size_t per_item = static_cast<size_t>(elements(*e.item)), size = cell_bytes(type);
        if (bytes.size() != e.tags.size() * per_item * size) {
            error_ = fmt::format("the graph's harness wrote {} bytes of '{}', not {}", bytes.size(), e.item->name,
                                 e.tags.size() * per_item * size);
            return false;
        }
        for (size_t t = 0; t < e.tags.size(); ++t) {
            std::vector<interpret::Scalar>& cells = gets[e.item->name][e.tags[t]];
            cells.clear();
            for (size_t c = 0; c < per_item; ++c)
                cells.push_back(cell_from_bytes(type, bytes.data() + (t * per_item + c) * size));
        }
    }
    return true;
}

std::string read_outputs(const std::string& dir, const std::string& backend, const std::vector<KernelData*>& runs) {
    for (size_t k = 0; k < runs.size(); ++k) {
        std::ifstream i((std::filesystem::path(dir) / fmt::format("out{}", k)).string(), std::ios::binary);
        if (!read_cells(i, *runs[k]))
            return fmt::format("the {} harness wrote results that do not fit the kernel's parameters", backend);
    }
    return "";
}

std::string read_deferred_results(const std::string& dir, const std::string& backend,
                                  const std::vector<KernelData*>& runs) {
    namespace fs = std::filesystem;
    std::ifstream status_file(fs::path(dir) / "status");
    std::string status;
    if (!(status_file >> status))
        return fmt::format("not run: {} has no status (run {}/run.sh where {} code runs)", dir, dir, backend);
    if (status == "build")
        return fmt::format("the generated {} code does not build warning-free:\n{}", backend,
                           read_file((fs::path(dir) / "build.log").string()));
    if (status != "0")
        return fmt::format("the {} harness failed (exit status {}): {}", backend, status,
                           read_file((fs::path(dir) / "run.log").string()));
    return read_outputs(dir, backend, runs);
}

}  // namespace mcl::driver
