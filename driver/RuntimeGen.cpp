#include "driver/RuntimeGen.h"

#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <ostream>

#include <fmt/format.h>

#include "backends/Backend.h"
#include "backends/Runtime.h"
#include "backends/WriteCoverage.h"
#include "backends/starpu/CodeletGenerator.h"
#include "backends/starpu/VersionTable.h"
#include "cnc/GenerateGraph.h"
#include "compiler/lower/Lower.h"
#include "compiler/translate/Translate.h"
#include "feedback/RunFeedback.h"
#include "feedback/Symbolic.h"
#include "support/OutputFile.h"

namespace mcl::driver {

namespace {

namespace rtgen = backends::starpu;
using mcpl::Function;

// One version as loaded: its checked (untranslated) program and kernels.
struct LoadedVersion {
    std::string file;
    mcpl::Program program;
    const mcpl::Module* module = nullptr;
    std::vector<const Function*> kernels;
    backends::WriteCoverage coverage;
};

bool write_file(const std::filesystem::path& path, const std::string& text, std::ostream& err) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    std::string error;
    if (!write_output_file(path.string(), text, error)) {
        err << fmt::format("mclc: error: {}\n", error);
        return false;
    }
    return true;
}

// Reports the parameters of `f` that differ from those of `base`.
void check_same_parameters(const Function& base, const Function& f, DiagnosticEngine& diags) {
    if (base.params.size() != f.params.size()) {
        diags.error(f.location, fmt::format("this version of '{}' has {} parameters, the one in module '{}' has {}: "
                                            "every version of a kernel takes the same arguments",
                                            f.name, f.params.size(), base.module->name, base.params.size()));
        return;
    }
    for (size_t i = 0; i < f.params.size(); ++i) {
        const mcpl::BasicDecl& a = base.params[i]->forms.front();
        const mcpl::BasicDecl& b = f.params[i]->forms.front();
        if (a.name == b.name && rtgen::same_parameter_type(a.resolved_type, b.resolved_type)) continue;
        // Records of one spelling differ in their fields.
        bool fields_differ = a.resolved_type.str() == b.resolved_type.str() && a.resolved_type.record;
        diags.error(b.location, fmt::format("parameter {} of '{}' is '{} {}' here but '{} {}' in module '{}'{}: "
                                            "every version of a kernel takes the same arguments",
                                            i + 1, f.name, b.resolved_type.str(), b.name, a.resolved_type.str(),
                                            a.name, base.module->name,
                                            fields_differ ? ", a record of other fields" : ""));
    }
}

// The access mode of each parameter over every version: read when none
// writes it, written when every version writes every element and none
// reads it, else read and written (StarPU must bring the old contents).
std::vector<rtgen::Access> access_modes(const std::vector<std::pair<const LoadedVersion*, const Function*>>& uses) {
    const Function& base = *uses.front().second;
    std::vector<rtgen::Access> modes;
    for (size_t i = 0; i < base.params.size(); ++i) {
        bool written = false, read = false, fully = true;
        for (const auto& [version, f] : uses) {
            const mcpl::Decl& p = *f->params[i];
            written = written || p.is_written;
            read = read || p.is_read;
            fully = fully && p.is_written && version->coverage.fully_written(*f, i);
        }
        modes.push_back(!written ? rtgen::Access::read
                        : fully && !read ? rtgen::Access::write
                                         : rtgen::Access::read_write);
    }
    return modes;
}

// The kernel's computations (the operation-statistics remark) as C++ over
// the parameters; "0" when they depend on anything else.
std::string flop_count(Session& session, const LoadedVersion& version, const Function& f) {
    std::vector<feedback::NamedPass> passes;
    for (const feedback::NamedPass& p : feedback::feedback_passes())
        if (std::string(p.name) == "operation-statistics") passes.push_back(p);
    std::vector<feedback::Remark> remarks =
        feedback::run_feedback(version.program, *version.module, session.library, {}, passes);
    for (const feedback::Remark& r : remarks) {
        if (r.kind != feedback::RemarkKind::Operations || !(r.location == f.location)) continue;
        for (const feedback::NamedQuantity& q : r.quantities) {
            if (q.name != "computations") continue;
            GiNaC::exmap renamed;
            for (GiNaC::const_preorder_iterator it = q.expr.preorder_begin(); it != q.expr.preorder_end(); ++it) {
                if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
                std::string name = GiNaC::ex_to<GiNaC::symbol>(*it).get_name();
                bool scalar = false;
                for (const auto& p : f.params)
                    scalar = scalar || (p->name() == name && !p->forms.front().resolved_type.is_array());
                if (!scalar) return "0";
                renamed[*it] = GiNaC::symbol(rtgen::parameter_spelling(name));
            }
            return feedback::Symbols::c_text(q.expr.subs(renamed)).value_or("0");
        }
    }
    return "0";
}

}  // namespace

bool is_identifier(const std::string& name) {
    bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front()));
    for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    return ok;
}

std::string unknown_runtime(const std::string& runtime) {
    return runtime == "starpu" ? "" : fmt::format("unknown runtime '{}' (there is: starpu)", runtime);
}

int runtime_gen_command(const FrontendOptions& options, const GenOptions& gen, std::ostream& out, std::ostream& err,
                        size_t* kernel_count) {
    Session session(options.hardware);
    auto fail = [&](const std::string& message) {
        session.diags.error(SourceLocation{}, message);
        return session.report(err);
    };
    if (std::string unknown = unknown_runtime(gen.runtime); !unknown.empty()) return fail(unknown);
    if (!gen.target.empty() || !gen.backend.empty())
        return fail("--runtime picks the leaves and backends itself: leave out --target and --backend");
    if (!gen.name.empty() && !is_identifier(gen.name))
        return fail(fmt::format("--name '{}' is not an identifier (it names the namespace and the files)", gen.name));
    if (!gen.name.empty() && !backends::check_file_stem(gen.name, SourceLocation{}, session.diags))
        return session.report(err);

    // The leaves with a configuration, their backends and device matches.
    std::vector<rtgen::LeafSource> leaves;
    std::vector<rtgen::LeafDevice> devices;
    std::map<std::string, backends::TargetConfig> configs;
    for (const auto& [leaf, path] : backends::find_target_configs(config_dirs(options.hardware))) {
        std::optional<backends::TargetConfig> config = load_config(session, leaf, path);
        if (!config) continue;
        std::vector<std::string> names = config->backend_names();
        leaves.push_back({leaf, {names.begin(), names.end()}});
        if (config->match) {
            size_t depth = 0;
            for (std::optional<std::string> p = session.library.parent(leaf); p; p = session.library.parent(*p)) ++depth;
            devices.push_back({leaf, static_cast<int>(depth), *config->match});
        }
        configs.emplace(leaf, std::move(*config));
    }
    if (session.diags.has_errors()) return session.report(err);

    // The versions, checked, with their kernels.
    std::vector<std::unique_ptr<LoadedVersion>> loaded;
    std::vector<rtgen::VersionSource> versions;
    for (const std::string& file : gen.files) {
        auto v = std::make_unique<LoadedVersion>();
        v->file = file;
        v->program = load_and_check(session, options, {file});
        if (session.diags.has_errors() || v->program.roots.empty()) return session.report(err);
        v->module = v->program.roots.front();
        v->kernels = backends::module_kernels(*v->module, session.diags);
        if (v->kernels.empty()) return session.report(err);
        v->coverage = backends::WriteCoverage::of(*v->module);
        rtgen::VersionSource source{v->module->name, v->kernels.front()->hardware, {}};
        for (const Function* k : v->kernels) {
            if (k->hardware != source.level)
                session.diags.error(k->hardware_location,
                                    fmt::format("kernel '{}' targets '{}' but '{}' of the same module targets '{}': "
                                                "a version is at one level", k->name, k->hardware,
                                                v->kernels.front()->name, source.level));
            source.kernels.push_back(k->name);
        }
        for (const rtgen::VersionSource& other : versions)
            if (other.module == source.module)
                session.diags.error(SourceLocation{}, fmt::format("module '{}' is given twice", source.module));
        versions.push_back(std::move(source));
        loaded.push_back(std::move(v));
    }
    if (session.diags.has_errors()) return session.report(err);

    // Each kernel's versions, most abstract first (its signature).
    std::vector<rtgen::KernelTable> tables = rtgen::choose_versions(versions, leaves, session.library);
    std::map<std::string, std::vector<std::pair<const LoadedVersion*, const Function*>>> uses;
    for (const rtgen::KernelTable& t : tables) {
        std::vector<std::pair<size_t, std::pair<const LoadedVersion*, const Function*>>> ranked;
        for (const auto& v : loaded)
            for (const Function* k : v->kernels)
                if (k->name == t.kernel) {
                    size_t depth = 0;
                    for (auto p = session.library.parent(k->hardware); p; p = session.library.parent(*p)) ++depth;
                    ranked.push_back({depth, {v.get(), k}});
                }
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& r : ranked) uses[t.kernel].push_back(r.second);
        const Function& base = *uses[t.kernel].front().second;
        // Every version: a refined one may write what the base only reads.
        for (const auto& [version, f] : uses[t.kernel]) {
            rtgen::check_runtime_parameters(*f, session.diags);
            check_same_parameters(base, *f, session.diags);
        }
    }
    if (session.diags.has_errors()) return session.report(err);

    std::string table = rtgen::version_table_text(tables, versions);
    out << table;

    // Generate each chosen version for its leaf, once per backend.
    rtgen::RuntimeModule module;
    module.name = gen.name.empty() ? uses.at(tables.front().kernel).front().first->module->name : gen.name;
    module.leaves = devices;
    std::vector<backends::GeneratedFile> files = {{"versions.txt", table}};
    // (version, leaf, backend) -> the host namespace and header of its glue
    std::map<std::tuple<size_t, std::string, std::string>, std::pair<std::string, std::string>> generated;
    for (const rtgen::KernelTable& t : tables) {
        for (const rtgen::Implementation& impl : t.implementations) {
            std::string backend_name = rtgen::worker_kind_backend(impl.kind);
            auto key = std::make_tuple(impl.version, impl.leaf, backend_name);
            if (generated.count(key)) continue;
            const LoadedVersion& v = *loaded[impl.version];
            mcpl::Program program = load_and_check(session, options, {v.file});
            if (session.diags.has_errors()) return session.report(err);
            translate::translate_program(program, impl.leaf, session.library, session.diags);
            if (!session.diags.has_errors()) lower::lower_for_engines(program, session.library, session.diags);
            if (session.diags.has_errors()) return session.report(err);
            std::string ns = "mcl_leaf_" + backends::host_identifier(impl.leaf) + "_" + backend_name + "::" +
                             backends::host_identifier(v.module->name);
            backends::GenerationInput input{program, *program.roots.front(), *session.library.find(impl.leaf),
                                            configs.at(impl.leaf), v.coverage, ns, &session.library};
            std::vector<backends::GeneratedFile> made =
                backends::find_backend(backend_name)->generate(input, session.diags);
            if (session.diags.has_errors()) return session.report(err);
            std::string dir = impl.leaf + "-" + backend_name + "/";
            for (backends::GeneratedFile& f : made) {
                if (f.name.size() > 4 && f.name.substr(f.name.size() - 4) == ".cpp") module.sources.push_back(dir + f.name);
                f.name = dir + f.name;
                files.push_back(std::move(f));
            }
            generated[key] = {ns, dir + v.module->name + ".h"};
        }
    }

    for (const rtgen::KernelTable& t : tables) {
        const auto& kernel_uses = uses.at(t.kernel);
        rtgen::RuntimeKernel k;
        k.signature = kernel_uses.front().second;
        k.modes = access_modes(kernel_uses);
        k.flops = flop_count(session, *kernel_uses.front().first, *k.signature);
        std::map<std::pair<std::string, rtgen::WorkerKind>, size_t> index;
        auto add = [&](size_t version, const std::string& leaf, rtgen::WorkerKind kind) {
            auto found = index.find({leaf, kind});
            if (found != index.end() && k.implementations[found->second].module == versions[version].module)
                return found->second;
            auto key = std::make_tuple(version, leaf, std::string(rtgen::worker_kind_backend(kind)));
            const auto& [ns, header] = generated.at(key);
            k.implementations.push_back({kind, leaf, versions[version].module, ns, header});
            // A leaf's own version stays the one found for it; a generic
            // version generated for the same leaf is reached through the
            // generic table only.
            index.emplace(std::make_pair(leaf, kind), k.implementations.size() - 1);
            return k.implementations.size() - 1;
        };
        for (const rtgen::LeafChoice& c : t.leaves)
            for (rtgen::WorkerKind kind : c.kinds) add(*c.version, c.leaf, kind);
        for (const rtgen::GenericChoice& g : t.generic)
            k.generic.push_back({g.device_type, g.kind, g.level, add(g.version, g.leaf, g.kind)});
        module.kernels.push_back(std::move(k));
    }
    if (kernel_count) *kernel_count = module.kernels.size();
    std::vector<backends::GeneratedFile> codelets = rtgen::generate_codelets(module, session.diags);
    if (int status = session.report(err)) return status;
    for (backends::GeneratedFile& f : codelets) files.push_back(std::move(f));
    for (const char* header : {"mcl_starpu.h", "mcl_cnc.h", "mcl_opencl.h", "mcl_runtime.h"})
        files.push_back({header, backends::runtime_file(header)});

    for (const backends::GeneratedFile& f : files)
        if (!write_file(std::filesystem::path(gen.output_dir) / f.name, f.text, err)) return 1;
    return 0;
}

}  // namespace mcl::driver

namespace mcl::driver {

int graph_gen_command(const FrontendOptions& options, const GenOptions& gen, std::ostream& out, std::ostream& err) {
    Session session(options.hardware);
    auto fail = [&](const std::string& message) {
        session.diags.error(SourceLocation{}, message);
        return session.report(err);
    };
    if (!gen.target.empty() || !gen.backend.empty() || !gen.runtime.empty())
        return fail("--graph generates for the runtime on StarPU: leave out --target, --backend and --runtime");
    std::string name = gen.name.empty() ? std::filesystem::path(gen.graph).stem().string() : gen.name;
    if (!is_identifier(name))
        return fail(fmt::format("the graph's name '{}' is not an identifier: rename the file or give --name", name));
    if (!backends::check_file_stem(name, SourceLocation{}, session.diags)) return session.report(err);
    mcpl::Program program;
    std::optional<cnc::LoadedGraph> loaded;
    std::optional<cnc::CheckedGraph> checked = load_and_check_graph(session, options, gen.graph, program, loaded);
    if (!checked) return session.report(err);

    // The steps' kernels as runtime tasks: the imported modules and the
    // further versions given as FILE...
    GenOptions steps = gen;
    steps.runtime = "starpu";
    steps.name = name + "_steps";
    steps.files = loaded->module_files;
    steps.files.insert(steps.files.end(), gen.files.begin(), gen.files.end());
    size_t kernel_count = 0;
    if (int status = runtime_gen_command(options, steps, out, err, &kernel_count)) return status;

    cnc::GraphCode code{name, backends::host_namespace_identifier(name), backends::host_namespace_identifier(steps.name),
                        [&](const std::string& kernel) { return rtgen::submit_function_name(kernel_count, kernel); },
                        steps.name + ".h"};
    std::vector<backends::GeneratedFile> files = cnc::generate_graph(loaded->graph, *checked, code, session.diags);
    if (int status = session.report(err)) return status;
    for (const backends::GeneratedFile& f : files)
        if (!write_file(std::filesystem::path(gen.output_dir) / f.name, f.text, err)) return 1;
    return 0;
}

}  // namespace mcl::driver
