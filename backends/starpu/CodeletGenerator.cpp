#include "backends/starpu/CodeletGenerator.h"

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>

#include "compiler/ast/ConstantValue.h"

namespace mcl::backends::starpu {

std::string parameter_spelling(const std::string& name) { return host_identifier(name); }

std::string submit_function_name(size_t kernels, const std::string& kernel) {
    return kernels == 1 ? "submit" : "submit_" + host_identifier(kernel);
}

namespace {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Primitive;

// A parameter's element as C++: a number, or a record the header defines.
std::string element_type(const mcpl::Type& t) {
    if (t.record) return host_identifier(t.record->name);
    switch (*t.primitive) {
    case Primitive::Int: return "int";
    case Primitive::Float: return "float";
    case Primitive::Double: return "double";
    case Primitive::Byte: return "unsigned char";
    case Primitive::Bool: return "bool";
    case Primitive::Void: break;
    }
    return "void";
}

const char* access_name(Access a) {
    return a == Access::read ? "mcl::rt::Access::read" : a == Access::write ? "mcl::rt::Access::write"
                                                                            : "mcl::rt::Access::read_write";
}

const char* kind_spelling(WorkerKind k) {
    return k == WorkerKind::cpu ? "mcl::rt::WorkerKind::cpu" : "mcl::rt::WorkerKind::opencl";
}

// A C++ string literal of `s` (regular expressions from the configuration).
std::string literal(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// An array extent as C++ over the parameters (64-bit), or "" when it uses
// anything but parameters, integer literals and + - * /.
std::string extent(const Expr& e, const Function& f) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral: return fmt::format("{}LL", e.int_value);
    case Expr::Kind::Var: {
        if (e.var.size() != 1 || !e.var[0].indices.empty()) return "";
        for (const auto& p : f.params)
            if (p.get() == e.decl && !p->forms.front().resolved_type.is_array())
                return "(long long)" + parameter_spelling(e.var[0].name);
        return "";
    }
    case Expr::Kind::Binary: {
        if (e.op != "+" && e.op != "-" && e.op != "*" && e.op != "/") return "";
        std::string a = extent(*e.args[0], f), b = extent(*e.args[1], f);
        if (a.empty() || b.empty()) return "";
        return "(" + a + " " + e.op + " " + b + ")";
    }
    default: return "";
    }
}

class Generator {
public:
    Generator(const RuntimeModule& module, DiagnosticEngine& diags) : m_(module), diags_(diags) {}

    std::vector<GeneratedFile> run() {
        size_t errors = diags_.error_count();
        for (const RuntimeKernel& k : m_.kernels) check_runtime_parameters(*k.signature, diags_);
        collect_records();
        if (diags_.error_count() != errors) return {};
        return {{m_.name + ".h", header()}, {m_.name + ".cpp", source()}};
    }

private:
    // The records of the kernels' parameters, each after the records of its
    // fields; one per name. A name that two records of other fields share,
    // or that the generated code gives something else, is refused at the
    // record.
    void collect_records() {
        std::set<std::string> taken = {"leaf_matches"};
        for (const RuntimeKernel& k : m_.kernels) {
            std::string name = host_identifier(k.signature->name);
            taken.insert(submit_name(k));
            for (const char* suffix : {"_args", "_kernel", "_registered"}) taken.insert(name + suffix);
            for (size_t i = 0; i < k.implementations.size(); ++i) {
                taken.insert(fmt::format("{}_{}", name, i));
                taken.insert(fmt::format("{}_{}_on_host", name, i));
            }
        }
        std::function<void(const mcpl::RecordType&)> add = [&](const mcpl::RecordType& r) {
            for (const auto& f : r.fields)
                if (const mcpl::RecordType* inner = f->forms.front().resolved_type.record) add(*inner);
            std::string name = host_identifier(r.name);
            for (const mcpl::RecordType* known : records_)
                if (host_identifier(known->name) == name) {
                    if (!same_record_fields(*known, r))
                        diags_.error(r.location, fmt::format("the runtime's header defines one record '{}', but the "
                                                             "kernels' parameters use two of other fields (the other "
                                                             "in module '{}'): rename one",
                                                             r.name, known->module ? known->module->name : "?"));
                    return;
                }
            if (taken.count(name))
                diags_.error(r.location, fmt::format("record '{}' is named like a function of the runtime's generated "
                                                     "code for module '{}': rename it",
                                                     r.name, m_.name));
            records_.push_back(&r);
        };
        for (const RuntimeKernel& k : m_.kernels)
            for (const auto& p : k.signature->params)
                if (const mcpl::RecordType* r = p->forms.front().resolved_type.record) add(*r);
    }

    // The records, as C++ structs of the fields in MCPL order: the layout of
    // every version's glue.
    std::string record_definitions() const {
        std::string out;
        if (!records_.empty()) out += "\n// The records of the kernels' parameters (C layout, as every version has them).\n";
        for (const mcpl::RecordType* r : records_) {
            out += "struct " + host_identifier(r->name) + " {\n";
            for (const auto& f : r->fields) {
                const mcpl::BasicDecl& form = f->forms.front();
                out += "    " + element_type(form.resolved_type) + " " + host_identifier(form.name);
                if (form.resolved_type.is_array()) out += fmt::format("[{}]", mcpl::record_field_element_count(form));
                out += ";\n";
            }
            out += "};\n";
        }
        return out;
    }

    std::string submit_name(const RuntimeKernel& k) const {
        return submit_function_name(m_.kernels.size(), k.signature->name);
    }

    std::string submit_signature(const RuntimeKernel& k, bool with_default) const {
        std::vector<std::string> params = {"mcl::rt::Runtime& mcl_runtime"};
        for (const auto& p : k.signature->params) {
            const mcpl::Type& t = p->forms.front().resolved_type;
            if (t.is_array())
                params.push_back(fmt::format("const mcl::rt::Vector<{}>& {}", element_type(t),
                                             parameter_spelling(p->name())));
            else
                params.push_back(fmt::format("{} {}", element_type(t), parameter_spelling(p->name())));
        }
        params.push_back(std::string("const mcl::rt::SubmitOptions& mcl_options") + (with_default ? " = {}" : ""));
        return fmt::format("void {}({})", submit_name(k), fmt::join(params, ", "));
    }

    std::string header() const {
        std::string out = fmt::format(
            "// {}.h: kernels of '{}' as tasks of the MCL runtime on StarPU, generated by `mclc gen --runtime "
            "starpu`.\n// Do not edit: regenerate it. versions.txt beside it says which version each device "
            "runs.\n#pragma once\n\n#include \"mcl_starpu.h\"\n\nnamespace {} {{\n",
            m_.name, m_.name, host_namespace_identifier(m_.name));
        out += record_definitions();
        for (const RuntimeKernel& k : m_.kernels) {
            std::vector<std::string> uses;
            size_t i = 0;
            for (const auto& p : k.signature->params) {
                if (p->forms.front().resolved_type.is_array())
                    uses.push_back(fmt::format("{} {}", p->name(),
                                               k.modes[i] == Access::read    ? "read"
                                               : k.modes[i] == Access::write ? "written"
                                                                             : "read and written"));
                ++i;
            }
            out += fmt::format("\n// {}: submits a call; arrays are row-major ({}). Throws mcl::Error when an\n"
                               "// array is smaller than the kernel's extent or no worker can run the call.\n",
                               k.signature->name, fmt::join(uses, ", "));
            out += submit_signature(k, true) + ";\n";
        }
        return out + "\n}  // namespace " + host_namespace_identifier(m_.name) + "\n";
    }

    std::string source() const {
        std::string out = fmt::format(
            "// {}.cpp: StarPU codelets of '{}', generated by `mclc gen --runtime starpu`.\n// Do not edit: "
            "regenerate it.\n#include \"{}.h\"\n\n#include <string>\n\n// The versions' host glue and kernels, "
            "compiled here so that a build adds one file.\n",
            m_.name, m_.name, m_.name);
        for (const std::string& s : m_.sources) out += "#include \"" + s + "\"\n";
        out += "\nnamespace " + host_namespace_identifier(m_.name) + " {\n\nnamespace {\n";
        out += leaf_table();
        for (const RuntimeKernel& k : m_.kernels) out += kernel_definitions(k);
        out += "}  // namespace\n";
        for (const RuntimeKernel& k : m_.kernels) out += submit_function(k);
        return out + "\n}  // namespace " + host_namespace_identifier(m_.name) + "\n";
    }

    std::string leaf_table() const {
        std::string out = "\n// The devices each leaf is (targets/<leaf>.json, \"match\").\n";
        out += "const std::vector<mcl::rt::LeafMatch>& leaf_matches() {\n"
               "    static const std::vector<mcl::rt::LeafMatch> matches = {\n";
        for (const LeafDevice& l : m_.leaves)
            out += fmt::format("        {{{}, {}, {}, {}, {}}},\n", literal(l.leaf), l.depth,
                               literal(l.match.device_type), literal(l.match.vendor), literal(l.match.name));
        return out + "    };\n    return matches;\n}\n";
    }

    // The arguments of a version's host function `function` (whose first
    // `skipped` parameters come before the kernel's): numbers from the
    // struct, arrays from `array(position, type)`, and records as the types
    // of that version's glue: arrays from `records_as(position, type,
    // parameter)` when given (the parameter's type spelled through
    // `function`), scalars copied.
    std::string call_arguments(const RuntimeKernel& k, const std::string& function, size_t skipped,
                               const std::function<std::string(size_t, const std::string&)>& array,
                               const std::function<std::string(size_t, const std::string&, const std::string&)>&
                                   records_as) const {
        std::vector<std::string> args;
        size_t buffer = 0, position = skipped;
        for (const auto& p : k.signature->params) {
            const mcpl::Type& t = p->forms.front().resolved_type;
            std::string parameter = fmt::format("mcl::rt::parameter_t<decltype(&{}), {}>", function, position++);
            if (t.is_array() && t.record && records_as)
                args.push_back(records_as(buffer++, element_type(t), parameter));
            else if (t.is_array())
                args.push_back(array(buffer++, element_type(t)));
            else if (t.record)
                args.push_back(fmt::format("mcl::rt::record_as<{}, {}>(mcl_a.{})", parameter, element_type(t),
                                           parameter_spelling(p->name())));
            else
                args.push_back("mcl_a." + parameter_spelling(p->name()));
        }
        return fmt::format("{}", fmt::join(args, ", "));
    }

    std::string kernel_definitions(const RuntimeKernel& k) const {
        std::string name = host_identifier(k.signature->name);
        std::string kernel = host_identifier(k.signature->name);
        std::string args = name + "_args";
        std::string out = fmt::format("\n// {}\n\nstruct {} {{\n", k.signature->name, args);
        bool any = false;
        for (const auto& p : k.signature->params) {
            const mcpl::Type& t = p->forms.front().resolved_type;
            if (t.is_array()) continue;
            out += fmt::format("    {} {};\n", element_type(t), parameter_spelling(p->name()));
            any = true;
        }
        if (!any) out += "    int mcl_none;  // StarPU passes at least one value\n";
        out += "};\n";
        auto host_pointer = [](size_t i, const std::string& type) {
            return fmt::format("static_cast<{}*>(mcl_buffers[{}])", type, i);
        };
        auto host_records = [](size_t i, const std::string& type, const std::string& parameter) {
            return fmt::format("mcl::rt::records_at<{}, {}>(mcl_buffers[{}])", parameter, type, i);
        };
        for (size_t i = 0; i < k.implementations.size(); ++i) {
            const GeneratedImplementation& impl = k.implementations[i];
            std::string unpack = fmt::format("    [[maybe_unused]] const {}& mcl_a = *static_cast<const {}*>(mcl_args);\n",
                                             args, args);
            if (impl.kind == WorkerKind::cpu) {
                out += fmt::format("\n// {} for {} on CPU workers (cpp backend)\nvoid {}_{}(void* const* mcl_buffers, "
                                   "const void* mcl_args) {{\n{}    {}::{}({});\n}}\n",
                                   impl.module, impl.leaf, name, i, unpack, impl.host_namespace, kernel,
                                   call_arguments(k, impl.host_namespace + "::" + kernel, 0, host_pointer,
                                                  host_records));
                continue;
            }
            std::string on_device = impl.host_namespace + "::on_device::" + kernel;
            std::string arrays;
            size_t buffer = 0, position = 1;  // after the device
            for (const auto& p : k.signature->params) {
                const mcpl::Type& t = p->forms.front().resolved_type;
                ++position;
                if (!t.is_array()) continue;
                if (t.record)
                    arrays += fmt::format("    auto mcl_array_{0} = mcl::rt::device_records<mcl::rt::parameter_t<decltype("
                                          "&{1}), {2}>, {3}>(mcl_device, cl::Buffer(mcl_buffers[{0}], true), "
                                          "mcl_counts[{0}]);\n",
                                          buffer, on_device, position - 1, element_type(t));
                else
                    arrays += fmt::format("    mcl::opencl::DeviceArray<{}> mcl_array_{}(mcl_device, cl::Buffer("
                                          "mcl_buffers[{}], true), mcl_counts[{}]);\n",
                                          element_type(t), buffer, buffer, buffer);
                ++buffer;
            }
            // the device arrays above, of numbers or of the glue's records
            auto device_array = [](size_t b, const std::string&) { return fmt::format("mcl_array_{}", b); };
            out += fmt::format("\n// {} for {} on OpenCL workers (opencl backend), on the worker's context, queue and "
                               "buffers\nvoid {}_{}(mcl::opencl::Device& mcl_device, [[maybe_unused]] const cl_mem* "
                               "mcl_buffers, [[maybe_unused]] const size_t* mcl_counts, const void* mcl_args) {{\n"
                               "{}{}    {}::on_device::{}(mcl_device{}{});\n}}\n",
                               impl.module, impl.leaf, name, i, unpack, arrays, impl.host_namespace, kernel,
                               k.signature->params.empty() ? "" : ", ",
                               call_arguments(k, on_device, 1, device_array, {}));
            out += fmt::format("\n// the same on host memory, through a device of the glue's own (the fallback)\nvoid "
                               "{}_{}_on_host(void* const* mcl_buffers, const void* mcl_args) {{\n{}    {}::{}({});\n}}\n",
                               name, i, unpack, impl.host_namespace, kernel,
                               call_arguments(k, impl.host_namespace + "::" + kernel, 0, host_pointer, host_records));
        }
        out += fmt::format("\nmcl::rt::Kernel& {}_kernel() {{\n    static mcl::rt::Kernel kernel(mcl::rt::KernelInfo{{\n",
                           name);
        out += fmt::format("        {}, {},\n", literal(m_.name + "::" + k.signature->name),
                           literal("mcl_" + m_.name + "_" + k.signature->name));
        std::vector<std::string> modes;
        size_t position = 0;
        for (const auto& p : k.signature->params) {
            if (p->forms.front().resolved_type.is_array()) modes.push_back(access_name(k.modes[position]));
            ++position;
        }
        out += fmt::format("        {{{}}},\n        sizeof({}),\n        {{\n", fmt::join(modes, ", "), args);
        for (size_t i = 0; i < k.implementations.size(); ++i) {
            const GeneratedImplementation& impl = k.implementations[i];
            bool cpu = impl.kind == WorkerKind::cpu;
            out += fmt::format("            {{{}, {}, {}, {}, {}, {}, {}}},\n", kind_spelling(impl.kind),
                               literal(impl.leaf), literal(impl.module), literal(worker_kind_backend(impl.kind)),
                               cpu ? fmt::format("&{}_{}", name, i) : "nullptr",
                               cpu ? "nullptr" : fmt::format("&{}_{}", name, i),
                               cpu ? fmt::format("&{}_{}", name, i) : fmt::format("&{}_{}_on_host", name, i));
        }
        out += "        },\n        leaf_matches(),\n        {";
        std::vector<std::string> generic, levels;
        for (const GenericImplementation& g : k.generic) {
            generic.push_back(fmt::format("{{{}, {}}}", literal(g.device_type + "/" + worker_kind_name(g.kind)),
                                          g.implementation));
            std::string level = fmt::format("{{{}, {}}}", literal(g.device_type), literal(g.level));
            if (std::find(levels.begin(), levels.end(), level) == levels.end()) levels.push_back(level);
        }
        out += fmt::format("{}}},\n        {{{}}}}});\n    return kernel;\n}}\n", fmt::join(generic, ", "),
                           fmt::join(levels, ", "));
        out += fmt::format("// Made before main, so that MCL_RT_LEAF is checked against every kernel.\n"
                           "[[maybe_unused]] mcl::rt::Kernel& {}_registered = {}_kernel();\n",
                           name, name);
        return out;
    }

    std::string submit_function(const RuntimeKernel& k) const {
        std::string name = host_identifier(k.signature->name);
        // Appended piece by piece: GCC 12's -Wrestrict misfires on "\n" + std::string&& at -O3.
        std::string out = "\n";
        out += submit_signature(k, false);
        out += " {\n";
        for (const auto& p : k.signature->params) {
            const mcpl::Type& t = p->forms.front().resolved_type;
            if (!t.is_array()) continue;
            std::vector<std::string> factors;
            bool known = true;
            for (const auto& group : p->forms.front().type.dimensions)
                for (const auto& dim : group) {
                    std::string e = extent(*dim, *k.signature);
                    if (e.empty()) known = false;
                    factors.push_back(e);
                }
            if (!known || factors.empty()) continue;
            out += fmt::format("    mcl::rt::check_extent(\"{}::{}\", \"{}\", {}.size(), {});\n", m_.name,
                               k.signature->name, p->name(), parameter_spelling(p->name()), fmt::join(factors, " * "));
        }
        std::vector<std::string> scalars, arrays;
        for (const auto& p : k.signature->params) {
            if (p->forms.front().resolved_type.is_array())
                arrays.push_back(parameter_spelling(p->name()));
            else
                scalars.push_back(parameter_spelling(p->name()));
        }
        out += fmt::format("    {}_args mcl_a{{{}}};\n", name, scalars.empty() ? "0" : fmt::format("{}", fmt::join(scalars, ", ")));
        out += fmt::format("    mcl_runtime.submit({}_kernel(), &mcl_a, sizeof mcl_a, static_cast<double>({}), "
                           "mcl_options{}{});\n}}\n",
                           name, k.flops, arrays.empty() ? "" : ", ", fmt::join(arrays, ", "));
        return out;
    }

    const RuntimeModule& m_;
    DiagnosticEngine& diags_;
    std::vector<const mcpl::RecordType*> records_;
};

}  // namespace

void check_runtime_parameters(const mcpl::Function& kernel, DiagnosticEngine& diags) {
    for (const auto& p : kernel.params) {
        const mcpl::Type& t = p->forms.front().resolved_type;
        if (!t.is_array() && p->is_written)
            diags.error(p->forms.front().location,
                        fmt::format("kernel '{}' writes its scalar parameter '{}'; the runtime passes scalars by "
                                    "value: make it an array of one element", kernel.name, p->name()));
    }
}

bool same_parameter_type(const mcpl::Type& a, const mcpl::Type& b) {
    if (a.primitive != b.primitive || a.group_ranks != b.group_ranks || !a.record != !b.record) return false;
    return !a.record || a.record == b.record || same_record_fields(*a.record, *b.record);
}

bool same_record_fields(const mcpl::RecordType& a, const mcpl::RecordType& b) {
    if (a.name != b.name || a.fields.size() != b.fields.size()) return false;
    for (size_t i = 0; i < a.fields.size(); ++i) {
        const mcpl::BasicDecl &x = a.fields[i]->forms.front(), &y = b.fields[i]->forms.front();
        if (x.name != y.name || !same_parameter_type(x.resolved_type, y.resolved_type) ||
            mcpl::record_field_extents(x) != mcpl::record_field_extents(y))
            return false;
    }
    return true;
}

std::vector<GeneratedFile> generate_codelets(const RuntimeModule& module, DiagnosticEngine& diags) {
    return Generator(module, diags).run();
}

}  // namespace mcl::backends::starpu
