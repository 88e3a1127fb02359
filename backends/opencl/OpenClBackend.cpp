#include "backends/opencl/OpenClBackend.h"

#include <utility>
#include <vector>

#include <fmt/format.h>

#include "backends/Runtime.h"
#include "backends/cfamily/GridEmitter.h"
#include "compiler/ast/AstWalk.h"

namespace mcl::backends {

namespace {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Primitive;
using mcpl::Stmt;
using mcpl::Type;

// OpenCL C and C++ keywords, OpenCL C builtin functions a kernel might
// shadow, and the names the generated code itself uses.
const std::set<std::string> kOpenClReserved = {
    "auto", "bool", "break", "case", "char", "const", "constant", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "global", "goto", "half", "if", "image2d_t", "inline", "int", "kernel",
    "local", "long", "private", "register", "restrict", "return", "short", "signed", "sizeof", "static",
    "struct", "switch", "typedef", "uchar", "uint", "ulong", "union", "unsigned", "ushort", "void", "volatile",
    "while", "true", "false", "read_only", "write_only", "read_write", "size_t", "ptrdiff_t", "intptr_t",
    "uintptr_t", "event_t", "sampler_t", "float2", "float4", "int2", "int4", "barrier", "get_global_id",
    "get_local_id", "get_group_id", "get_local_size", "get_num_groups", "get_global_size", "min", "max",
    "fmin", "fmax", "pow", "sqrt", "rsqrt", "exp", "exp2", "log", "log2", "fabs", "floor", "ceil", "sin", "cos",
    "tan", "tanh", "erf", "native_exp", "native_log", "native_divide", "native_recip", "fma", "mad", "dot", "clamp", "mix", "sign", "select", "abs", "atomic_add",
    "atomic_cmpxchg", "atomic_inc", "convert_int", "as_int", "as_float", "class", "namespace", "new", "delete",
    "template", "this", "operator", "public", "private_", "protected", "virtual", "friend", "using", "try",
    "catch", "throw", "mcl", "std", "cl", "device", "resident", "on_device", "kSource", "mcl_atomic_add_float",
    "mcl_atomic_add_float_local"};

class OpenClGenerator : public GridEmitter {
public:
    OpenClGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : GridEmitter(input, config, diags, kOpenClReserved) {}

    std::vector<GeneratedFile> run() {
        if (!collect() || !plan_kernels()) return {};
        std::string kernels = emit_kernel_source();
        std::string header = emit_header();
        std::string glue = emit_glue(kernels);
        if (generation_failed()) return {};
        return {{in_.module.name + ".h", header},
                {in_.module.name + ".cl", kernels},
                {in_.module.name + ".cpp", glue},
                {"mcl_runtime.h", runtime_file("mcl_runtime.h")},
                {"mcl_opencl.h", runtime_file("mcl_opencl.h")}};
    }

private:
    std::string backend_name() const override { return "opencl"; }
    bool has_references() const override { return false; }
    // Declarations the host also computes (a block count, say), foreach
    // indices and parameters may go unused in a launch: not worth a warning
    // under -Wall -Wextra.
    std::string unused_attribute() const override { return "__attribute__((unused)) "; }
    std::string wide_int() const override { return host_mode_ ? "long long" : "long"; }

    // --- the kernel source ------------------------------------------------------------

    std::string emit_kernel_source() {
        out_ = banner(in_.module.name + ".cl", "OpenCL C 1.2 kernels");
        if (uses_double()) out_ += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
        // r += v as one indivisible step for a float (atomicAdd; @group: in
        // local memory), which OpenCL C 1.2 has for ints only.
        for (const auto& [suffix, space] : {std::pair{"", "__global"}, std::pair{"_local", "__local"}})
            out_ += fmt::format("\nvoid mcl_atomic_add_float{0}(volatile {1} float* r, float v) {{\n"
                                "    union {{ unsigned int u; float f; }} old_value, new_value;\n"
                                "    do {{\n"
                                "        old_value.f = *r;\n"
                                "        new_value.f = old_value.f + v;\n"
                                "    }} while (atomic_cmpxchg((volatile {1} unsigned int*)r, old_value.u, new_value.u) != "
                                "old_value.u);\n"
                                "}}\n",
                                suffix, space);
        out_ += "\n";
        if (uses_integer_power()) out_ += integer_power_function("");
        out_ += record_definitions();
        out_ += constant_definitions("__constant", true);
        collect_variants();
        print_device_variants("");
        for (const Function* k : kernels_) {
            const GridPlan& plan = plan_of(*k);
            for (size_t n = 0; n < plan.launches.size(); ++n) emit_launch_kernel(*k, plan, n);
        }
        return out_;
    }

    // --- device functions per address space ---------------------------------------------
    // OpenCL C 1.2 pointers carry their address space, so a device function
    // that one call passes a __global array and another a __local or
    // private one is printed once for each combination its calls need: the
    // variant's key of a pointer parameter (an array, or a scalar or record
    // it writes: an element of a __global array passed to a written scalar
    // is a __global pointer, a local variable a private one) is the
    // argument's qualifier (pointer_space_of).

    static bool by_pointer(const Decl& param) {
        return param.forms.front().resolved_type.is_array() || param.is_written;
    }
    bool varies_with_argument(const Decl& param) const override { return by_pointer(param); }
    std::string argument_key(const Decl& argument) const override { return pointer_space_of(argument); }
    char key_code(const std::string& key) const override {
        return key == "__global " ? 'g' : key == "__local " ? 'l' : key == "__constant " ? 'c' : 'p';
    }
    std::string kernel_parameter_key(const Decl& param) const override { return pointer_space(param); }

    std::string pointer_space_of(const Decl& array) const override {
        const std::string* key = bound_key(array);
        return key ? *key : qualifier_of(array.memory_space);
    }

    // A device function's parameter lives where its variant's qualifier
    // says (a written scalar is a private pointer).
    std::string storage_scope(const Decl& variable) const override {
        const std::string* key = bound_key(variable);
        if (!key) return CFamilyEmitter::storage_scope(variable);
        for (const auto& [space, entry] : config_.memory_spaces)
            if (qualifier_of(space) == *key) return entry.string("scope");
        return "";
    }

    bool uses_double() const {
        auto is_double = [](const Type& t) { return t.primitive == Primitive::Double; };
        bool found = false;
        auto check_function = [&](const Function& f) {
            for (const auto& p : f.params) found = found || is_double(p->forms.front().resolved_type);
            mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
                if (s.decl) found = found || is_double(s.decl->forms.front().resolved_type);
                mcpl::for_each_own_expr(s, [&](const Expr& e) { found = found || is_double(e.type); });
            });
        };
        for (const Function* f : kernels_) check_function(*f);
        for (const Function* f : device_functions_) check_function(*f);
        return found;
    }

    void emit_launch_kernel(const Function& k, const GridPlan& plan, size_t n) {
        const GridLaunch& launch = plan.launches[n];
        // The body first: the signature marks what it does not use.
        std::string head = std::move(out_);
        out_.clear();
        indent_ = 1;
        for (const Decl* d : launch.group_arrays)
            if (auto elements = constant_elements(*d)) {
                line(fmt::format("__local {} {}[{}];", element_spelling(d->forms.front().resolved_type),
                                 storage_name(*d), *elements ? *elements : 1));
            }
        bind_kernel_parameters(k);
        begin_function(k, Role::Kernel);
        emit_launch_body(plan, launch);
        std::string body = std::move(out_);
        out_ = std::move(head);

        std::vector<std::string> params;
        for (const auto& p : k.params) params.push_back(parameter(*p, Role::Kernel, true));
        for (int l = 0; l < 2; ++l)
            for (size_t s = 0; s < launch.slots[l].size(); ++s) {
                std::string size = slot_size_name(static_cast<GridLevel>(l), s);
                bool used = body.find(size) != std::string::npos;  // mcl_ names are the generator's own
                params.push_back((used ? "" : unused_attribute()) + "const int " + size);
            }
        for (const Decl* d : host_arguments(plan, launch)) {
            const Type& t = d->forms.front().resolved_type;
            if (t.primitive == Primitive::Bool)
                unsupported(d->location, "bool scalars of host statements that a launch uses (OpenCL kernels "
                                         "cannot take them)");
            params.push_back(fmt::format("const {} {}", element_spelling(t), ident(d->name())));
        }
        for (const ScratchParameter& a : scratch_parameters(plan, launch))
            params.push_back(fmt::format("{}{}{}* restrict {}", unused_prefix(*a.decl), pointer_space(*a.decl),
                                         element_spelling(a.decl->forms.front().resolved_type), a.name));
        for (const Decl* d : dynamic_arrays(launch))
            params.push_back(fmt::format("{}__local {}* restrict {}", unused_prefix(*d),
                                         element_spelling(d->forms.front().resolved_type),
                                         storage_name(*d)));
        out_ += fmt::format("\n__kernel void {}_{}({}) {{\n", ident(k.name), n, fmt::join(params, ", "));
        out_ += body + "}\n";
    }

    std::string device_handle(const std::string& array) const override { return array + ".buffer()"; }

    std::string pointer_space(const Decl& d) const {
        std::string q = qualifier_of(d.memory_space);
        return q.empty() ? "__global " : q;
    }

    std::string parameter(const Decl& d, Role role, bool definition) override {
        if (role == Role::Host) return CFamilyEmitter::parameter(d, role, definition);
        // A launch need not use every parameter of its kernel.
        return (definition ? unused_prefix(d) : "") + device_parameter(d, role);
    }

    std::string device_parameter(const Decl& d, Role role) {
        const BasicDecl& form = d.forms.front();
        const Type& t = form.resolved_type;
        std::string el = element_spelling(t), name = ident(form.name);
        if (t.is_array()) {
            std::string space = role == Role::Kernel ? pointer_space(d) : pointer_space_of(d);
            return fmt::format("{}{}{}* {}{}", space, d.is_written ? "" : "const ", el,
                               role == Role::Kernel && may_restrict(d, role) ? "restrict " : "", name);
        }
        if (d.is_written)
            return fmt::format("{}{}* {}", role == Role::Kernel ? "__global " : pointer_space_of(d), el, name);
        if (role == Role::Kernel && t.primitive == Primitive::Bool)
            unsupported(d.location, "bool kernel parameters (OpenCL kernels cannot take them)");
        return el + " " + name;
    }

    std::string device_min_max(const std::string& which, const Type& type, const std::string& a,
                               const std::string& b) override {
        bool floating = type.primitive == Primitive::Float || type.primitive == Primitive::Double;
        return fmt::format("{}{}({}, {})", floating ? "f" : "", which, a, b);
    }

    std::string device_power(const Type& type, const std::string& a, const std::string& b) override {
        std::string t = element_spelling(type);
        std::string f = type.primitive == Primitive::Double ? "double" : "float";
        return fmt::format("(({})pow(({}){}, ({}){}))", t, f, a, f, b);
    }

    // --- host interface and glue -----------------------------------------------------------

    std::string emit_header() {
        return glue_header("// Build: c++ -std=c++17 -I DIR app.cpp DIR/*.cpp -lOpenCL", "mcl_opencl.h",
                           "mcl::opencl",
                           fmt::format("// The OpenCL device the kernels run on (a {} device; see mcl_opencl.h).",
                                       config_.device_type));
    }

    std::string emit_glue(const std::string& kernel_source) {
        std::string out = banner(in_.module.name + ".cpp", "OpenCL host glue");
        out += "#include \"" + in_.module.name + ".h\"\n\n#include <algorithm>\n#include <cmath>\n#include <cstddef>\n"
               "#include <string>\n\n#include \"mcl_opencl.h\"\n#include \"mcl_runtime.h\"\n\n";
        std::string prelude = "namespace {\n\n// " + in_.module.name + ".cl\n";
        prelude += "const char* const kSource = R\"mcl_cl_source(" + kernel_source + ")mcl_cl_source\";\n\n";
        prelude += "}  // namespace\n\n";
        return out + glue_namespace(prelude, fmt::format("mcl::opencl::Device::for_type(\"{}\")", config_.device_type),
                                    "mcl::opencl", [&](const Function& k) { return emit_resident(k); });
    }

    // The arrays of group-scoped spaces in `launch` whose size is not
    // constant: the glue passes their storage in (cl::Local).
    static std::vector<const Decl*> dynamic_arrays(const GridLaunch& launch) {
        std::vector<const Decl*> dynamic;
        for (const Decl* d : launch.group_arrays)
            if (!constant_elements(*d)) dynamic.push_back(d);
        return dynamic;
    }

    std::string emit_resident(const Function& k) {
        std::string setup =
            fmt::format("        cl::Program& mcl_program = mcl_device.program(\"{}\", kSource);\n", module_);
        auto launch_code = [&](const GridLaunch& launch, size_t n) {
            std::string out = "            if (" + grid_is_nonempty(n) + ") {\n";
            out += fmt::format("                cl::Kernel mcl_kernel(mcl_program, \"{}_{}\");\n", ident(k.name), n);
            out += "                cl_uint mcl_arg = 0;\n";
            for (const auto& p : k.params) {
                const Type& t = p->forms.front().resolved_type;
                std::string name = ident(p->forms.front().name);
                out += fmt::format("                mcl_kernel.setArg(mcl_arg++, {});\n",
                                   t.is_array() ? launch_handle(*p, name) : p->is_written ? device_handle(name) : name);
            }
            for (int l = 0; l < 2; ++l)
                for (size_t s = 0; s < launch.slots[l].size(); ++s)
                    out += fmt::format("                mcl_kernel.setArg(mcl_arg++, (cl_int){});\n",
                                       slot_size_name(static_cast<GridLevel>(l), s));
            for (const Decl* d : host_arguments(plan_of(k), launch))
                out += fmt::format("                mcl_kernel.setArg(mcl_arg++, {});\n", ident(d->name()));
            for (const ScratchParameter& a : scratch_parameters(plan_of(k), launch))
                out += fmt::format("                mcl_kernel.setArg(mcl_arg++, {});\n", scratch_handle(a));
            for (const Decl* d : dynamic_arrays(launch))
                out += fmt::format("                mcl_kernel.setArg(mcl_arg++, cl::Local(sizeof({}) * "
                                   "std::max<size_t>(1, (size_t)({}))));\n",
                                   element_spelling(d->forms.front().resolved_type),
                                   host_elements(d->forms.front().type));
            out += fmt::format("                mcl_device.queue().enqueueNDRangeKernel(\n"
                               "                    mcl_kernel, cl::NullRange,\n"
                               "                    cl::NDRange(mcl_group_count_{0}[0] * mcl_group_size_{0}[0], "
                               "mcl_group_count_{0}[1] * mcl_group_size_{0}[1],\n"
                               "                                mcl_group_count_{0}[2] * mcl_group_size_{0}[2]),\n"
                               "                    cl::NDRange(mcl_group_size_{0}[0], mcl_group_size_{0}[1], "
                               "mcl_group_size_{0}[2]));\n            }}\n",
                               n);
            return out;
        };
        std::string api_catch = "    } catch (const cl::Error& e) {\n" +
                                fmt::format("        throw mcl::Error(\"{}: \" + mcl::opencl::error_text(e));\n",
                                            where(k));
        return resident_function(k, "mcl::opencl", setup, launch_code, "        mcl_device.queue().finish();\n",
                                 api_catch);
    }
};

}  // namespace

std::vector<GeneratedFile> OpenClBackend::generate(const GenerationInput& input, DiagnosticEngine& diags) const {
    return generate_with<OpenClGenerator>(input, name(), diags);
}

}  // namespace mcl::backends
