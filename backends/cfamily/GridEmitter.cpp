#include "backends/cfamily/GridEmitter.h"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::backends {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Primitive;
using mcpl::Stmt;
using mcpl::Type;

bool GridEmitter::plan_kernels() {
    auto levels = grid_levels(config_, in_.target.path, diags_);
    if (!levels) return false;
    levels_ = *levels;
    for (const Function* k : kernels_) {
        auto plan = plan_grid(in_.program, *k, config_, levels_, in_.target.path, module_constants_, diags_);
        if (!plan) return false;
        if (copies_asynchronously())
            for (const GridLaunch& launch : plan->launches)
                async_plans_[launch.root] = plan_async_copies(*k, launch, config_);
        plans_.emplace(k, std::move(*plan));
    }
    return true;
}

std::string GridEmitter::host_expr(const Expr& e) {
    bool was = host_mode_;
    host_mode_ = true;
    std::string s = expr(e);
    host_mode_ = was;
    return s;
}

std::string GridEmitter::host_elements(const mcpl::TypeExpr& shape) {
    bool was = host_mode_;
    host_mode_ = true;
    std::string s = element_count(shape);
    host_mode_ = was;
    return s;
}

std::string GridEmitter::min_max(const std::string& which, const Type& type, const std::string& a,
                                 const std::string& b) {
    if (host_mode_) return fmt::format("std::{}<{}>({}, {})", which, element_spelling(type), a, b);
    return device_min_max(which, type, a, b);
}

std::string GridEmitter::power(const Type& type, const std::string& a, const std::string& b) {
    if (host_mode_) return host_power(type, a, b);
    // pow in float is not exact past 2^24 (nor within OpenCL's 16 ulp)
    if (type.primitive == Primitive::Int || type.primitive == Primitive::Byte)
        return fmt::format("(({})mcl_ipow({}, {}))", element_spelling(type), a, b);
    return device_power(type, a, b);
}

bool GridEmitter::uses_integer_power() const {
    bool found = false;
    auto check_function = [&](const Function& f) {
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            mcpl::for_each_own_expr(s, [&](const Expr& top) {
                mcpl::for_each_expr(top, [&](const Expr& e) {
                    found = found || (e.kind == Expr::Kind::Binary && e.op == "^" &&
                                      (e.type.primitive == Primitive::Int || e.type.primitive == Primitive::Byte));
                });
            });
        });
    };
    for (const Function* f : kernels_) check_function(*f);
    for (const Function* f : device_functions_) check_function(*f);
    return found;
}

std::string GridEmitter::integer_power_function(const std::string& qualifier) {
    return "\n// a ^ b on ints, exact (a negative exponent truncates the fraction: 1, +-1 or 0)\n" + qualifier +
           "int mcl_ipow(int base, int exponent) {\n"
           "    if (exponent < 0) return base == 1 ? 1 : base == -1 ? (exponent % 2 == 0 ? 1 : -1) : 0;\n"
           "    unsigned int result = 1u, factor = (unsigned int)base;\n"
           "    for (; exponent > 0; exponent >>= 1) {\n"
           "        if (exponent & 1) result *= factor;\n"
           "        factor *= factor;\n"
           "    }\n"
           "    return (int)result;\n"
           "}\n";
}

std::string GridEmitter::slot_size_name(GridLevel level, size_t slot) {
    return fmt::format("{}{}", level == GridLevel::Group ? "mcl_groups_" : "mcl_items_", slot);
}

std::string GridEmitter::shared_offset_name(size_t k) { return fmt::format("mcl_shared_offset_{}", k); }

std::string GridEmitter::shared_memory_layout(const GridLaunch& launch, size_t n, int alignment) {
    const std::vector<const Decl*>& shared = launch.group_arrays;
    std::string out = fmt::format("            size_t mcl_shared_bytes_{} = 0;\n", n);
    for (size_t d = 0; d < shared.size(); ++d) {
        std::string elements = constant_elements(*shared[d]) ? std::to_string(*constant_elements(*shared[d]))
                                                              : host_elements(shared[d]->forms.front().type);
        out += fmt::format("            const size_t {} = mcl_shared_bytes_{};\n", shared_offset_name(d), n);
        out += fmt::format("            mcl_shared_bytes_{} += (sizeof({}) * std::max<size_t>(1, (size_t)({})) + {}) / {} * {};\n",
                           n, element_spelling(shared[d]->forms.front().resolved_type), elements, alignment - 1,
                           alignment, alignment);
    }
    return out;
}

std::vector<std::string> GridEmitter::launch_arguments(const Function& k, const GridLaunch& launch,
                                                       const std::string& offset_cast) {
    std::vector<std::string> args;
    for (const auto& p : k.params) {
        const Type& t = p->forms.front().resolved_type;
        std::string name = ident(p->forms.front().name);
        args.push_back(t.is_array() ? launch_handle(*p, name) : p->is_written ? device_handle(name) : name);
    }
    for (int l = 0; l < 2; ++l)
        for (size_t s = 0; s < launch.slots[l].size(); ++s)
            args.push_back("(int)" + slot_size_name(static_cast<GridLevel>(l), s));
    for (const Decl* d : host_arguments(plan_of(k), launch)) args.push_back(ident(d->name()));
    for (const ScratchParameter& a : scratch_parameters(plan_of(k), launch))
        args.push_back(scratch_handle(a));
    for (size_t d = 0; d < launch.group_arrays.size(); ++d) args.push_back(offset_cast + shared_offset_name(d));
    return args;
}

std::string GridEmitter::grid_is_nonempty(size_t launch_index) {
    return fmt::format("mcl_group_count_{0}[0] * mcl_group_count_{0}[1] * mcl_group_count_{0}[2] * "
                       "mcl_group_size_{0}[0] * mcl_group_size_{0}[1] * mcl_group_size_{0}[2] > 0",
                       launch_index);
}

// The storage of a launch's k-th scratch array: numbered, since arrays in
// sibling blocks may share a name.
std::string GridEmitter::scratch_storage_name(const GridLaunch& launch, size_t k) {
    return fmt::format("mcl_scratch_{}_{}", k, ident(launch.scratch_arrays[k].decl->name()));
}

std::vector<GridEmitter::ScratchParameter> GridEmitter::scratch_parameters(const GridPlan& plan,
                                                                          const GridLaunch& launch) {
    std::vector<ScratchParameter> out;
    for (size_t k = 0; k < launch.kernel_arrays; ++k) {
        const Decl* d = plan.kernel_arrays[k];
        out.push_back({d, ident(d->name()), "mcl_scratch_" + ident(d->name()), true});
    }
    for (size_t k = 0; k < launch.scratch_arrays.size(); ++k) {
        std::string name = scratch_storage_name(launch, k);
        out.push_back({launch.scratch_arrays[k].decl, name, name, false});
    }
    return out;
}

std::string GridEmitter::launch_handle(const Decl& d, const std::string& array) {
    return redirected(d) ? "mcl_at_" + ident(d.forms.front().name) : device_handle(array);
}

std::string GridEmitter::scratch_handle(const ScratchParameter& a) {
    return a.kernel_level ? launch_handle(*a.decl, a.host_name) : device_handle(a.host_name);
}

std::string GridEmitter::host_array_handle(const Decl& d, const std::string& array, const std::string& pad) {
    if (!redirected(d)) return "";
    return fmt::format("{}auto {} = {};\n", pad, launch_handle(d, array), device_handle(array));
}

std::string GridEmitter::scratch_allocation(const Decl& d, const std::string& name, const std::string& instances,
                                            const std::string& runtime) {
    const mcpl::BasicDecl& form = d.forms.front();
    return fmt::format("        {}::DeviceArray<{}> {}(mcl_device, {}(size_t)({}));\n", runtime,
                       element_spelling(form.resolved_type), name, instances, host_elements(form.type));
}

std::string GridEmitter::scratch_allocations(const GridLaunch& launch, const std::string& runtime) {
    std::string out;
    for (size_t k = 0; k < launch.scratch_arrays.size(); ++k) {
        std::string instances;
        for (size_t j = 0; j < launch.scratch_arrays[k].group_depth; ++j)
            instances += "(size_t)" + slot_size_name(GridLevel::Group, j) + " * ";
        out += scratch_allocation(*launch.scratch_arrays[k].decl, scratch_storage_name(launch, k), instances, runtime);
    }
    return out;
}

std::string GridEmitter::host_declaration(const Decl& d) {
    return fmt::format("    [[maybe_unused]] const {} {} = {};\n", element_spelling(d.forms.front().resolved_type),
                       ident(d.name()), unwrap(host_expr(*d.init)));
}

std::vector<const Decl*> GridEmitter::host_arguments(const GridPlan& plan, const GridLaunch& launch) {
    note_launch_uses(plan, launch);
    std::vector<const Decl*> out;
    for (const Decl* d : plan.host_variables)
        if (used_.count(d)) out.push_back(d);
    return out;
}

std::string GridEmitter::host_launch_sizes(const GridLaunch& launch, size_t launch_index) {
    std::string out;
    for (const Decl* d : launch.host_declarations) out += host_declaration(*d);
    const char* names[2] = {"mcl_group_count", "mcl_group_size"};
    for (int l = 0; l < 2; ++l) {
        GridLevel level = static_cast<GridLevel>(l);
        std::vector<std::string> per_dimension(3, "1");
        for (size_t k = 0; k < launch.slots[l].size(); ++k) {
            const GridSlot& slot = launch.slots[l][k];
            std::vector<std::string> counts;
            for (const Stmt* loop : slot.loops) counts.push_back("(long long)(" + unwrap(host_expr(*loop->count)) + ")");
            counts.push_back("0LL");
            std::string name = slot_size_name(level, k);
            out += fmt::format("    const long long {} = std::max<long long>({{{}}});\n", name,
                               fmt::join(counts, ", "));
            std::string& d = per_dimension[static_cast<size_t>(slot.dimension)];
            d = d == "1" ? name : d + " * " + name;
        }
        out += fmt::format("    const size_t {}_{}[3] = {{(size_t)({}), (size_t)({}), (size_t)({})}};\n", names[l],
                           launch_index, per_dimension[0], per_dimension[1], per_dimension[2]);
    }
    return out;
}

std::string GridEmitter::where(const Function& k) const {
    return fmt::format("{}::{} ({} backend)", module_, host_identifier(k.name), backend_name());
}

std::string GridEmitter::resident_parameter(const Decl& d, const std::string& runtime) {
    const mcpl::BasicDecl& form = d.forms.front();
    const Type& t = form.resolved_type;
    if (!t.is_array() && !d.is_written) return CFamilyEmitter::parameter(d, Role::Host, false);
    return fmt::format("{}{}::DeviceArray<{}>& {}", d.is_written ? "" : "const ", runtime, element_spelling(t),
                       ident(form.name));
}

std::string GridEmitter::resident_signature(const Function& k, const std::string& runtime, bool on_device) {
    std::vector<std::string> params;
    if (on_device) params.push_back(runtime + "::Device& mcl_device");
    for (const auto& p : k.params) params.push_back(resident_parameter(*p, runtime));
    return fmt::format("void {}({})", host_identifier(k.name), fmt::join(params, ", "));
}

std::string GridEmitter::glue_header(const std::string& build, const std::string& runtime_header,
                                     const std::string& runtime, const std::string& device_note) {
    std::string out = banner(in_.module.name + ".h", "host interface");
    out += build + "\n#pragma once\n\n#include \"" + runtime_header + "\"\n\nnamespace " + module_ + " {\n\n" +
           record_definitions();
    out += device_note + "\n" + runtime + "::Device& device();\n\n";
    for (const Function* k : kernels_) {
        out += fmt::format("// {}: parameters in MCPL order; arrays are row-major host memory, copied to the\n"
                           "// device and back for this call. Throws mcl::Error.\n", k->name);
        out += signature(*k, Role::Host, false) + ";\n\n";
    }
    out += "// The same kernels on data that stays on device() between calls.\nnamespace resident {\n";
    for (const Function* k : kernels_) out += resident_signature(*k, runtime, false) + ";\n";
    out += "}  // namespace resident\n\n";
    out += "// The resident kernels on a device the caller set up (a task runtime's context and queue).\n"
           "namespace on_device {\n";
    for (const Function* k : kernels_) out += resident_signature(*k, runtime, true) + ";\n";
    out += "}  // namespace on_device\n\n}  // namespace " + module_ + "\n";
    return out;
}

std::string GridEmitter::resident_function(const Function& k, const std::string& runtime, const std::string& setup,
                                           const LaunchCode& launch_code, const std::string& finish,
                                           const std::string& api_catch) {
    const GridPlan& plan = plan_of(k);
    std::string out = fmt::format("\n{} {{\n    try {{\n", resident_signature(k, runtime, true));
    out += setup;
    // The device arrays must lie on the device, hold what the parameters say
    // and be apart: an array lies in an allocation of its own or shares one
    // whole (a copy of an OpenCL array), so one byte at its memory() stands
    // for it.
    for (const auto& p : k.params)
        if (p->forms.front().resolved_type.is_array()) {
            const std::string& name = p->forms.front().name;
            out += fmt::format("        mcl::check_array_device(\"{}\", {}, mcl_device);\n", name, ident(name));
            out += fmt::format("        mcl::check_array_size(\"{}\", {}, (long long)({}));\n", name, ident(name),
                               unwrap(host_elements(p->forms.front().type)));
        }
    out += arrays_apart_check(
        k, [&](const Decl& d) { return ArgumentSpan{ident(d.forms.front().name) + ".memory()", "1"}; },
        "        ");
    for (const auto& p : k.params)
        if (p->forms.front().resolved_type.is_array())
            out += host_array_handle(*p, ident(p->forms.front().name), "        ");
    for (const auto& s : k.body->body) out += host_statement(plan, *s, runtime, launch_code, 2);
    out += finish + api_catch;
    out += "    } catch (const std::exception& e) {\n";
    out += fmt::format("        throw mcl::error_in(\"{}\", e);\n", where(k));
    out += "    }\n}\n";
    return out;
}

std::string GridEmitter::launch_block(const GridPlan& plan, size_t n, const std::string& runtime,
                                      const LaunchCode& launch_code) {
    const GridLaunch& launch = plan.launches[n];
    std::string out = fmt::format("        {{  // launch {}: the foreach at line {}\n", n, launch.root->location.line);
    for (const std::string& l : split_lines(host_launch_sizes(launch, n))) out += "        " + l + "\n";
    for (const std::string& l : split_lines(scratch_allocations(launch, runtime))) out += "    " + l + "\n";
    out += launch_code(launch, n) + "        }\n";
    return out;
}

std::string GridEmitter::host_statement(const GridPlan& plan, const Stmt& s, const std::string& runtime,
                                        const LaunchCode& launch_code, int depth) {
    std::string pad(4 * static_cast<size_t>(depth), ' ');
    bool was = host_mode_;
    host_mode_ = true;
    std::string out;
    auto contains = [](const std::vector<const Decl*>& v, const Decl* d) {
        return std::find(v.begin(), v.end(), d) != v.end();
    };
    auto nested = [&](const Stmt& body) {
        std::string text;
        if (body.kind == Stmt::Kind::Block)
            for (const auto& c : body.body) text += host_statement(plan, *c, runtime, launch_code, depth + 1);
        else
            text = host_statement(plan, body, runtime, launch_code, depth + 1);
        return text;
    };
    switch (s.kind) {
    case Stmt::Kind::Foreach:
        for (size_t n = 0; n < plan.launches.size(); ++n) {
            if (plan.launches[n].root != &s) continue;
            // The block is written two levels deep; in host loops and ifs it moves right.
            std::string shift(4 * static_cast<size_t>(depth - 2), ' ');
            for (const std::string& l : split_lines(launch_block(plan, n, runtime, launch_code)))
                out += shift + l + "\n";
        }
        break;
    case Stmt::Kind::Decl: {
        const Decl& d = *s.decl;
        if (contains(plan.kernel_arrays, &d)) {
            out = scratch_allocation(d, "mcl_scratch_" + ident(d.name()), "", runtime);
            out = pad + out.substr(8) + host_array_handle(d, "mcl_scratch_" + ident(d.name()), pad);
        } else if (contains(plan.prologue, &d)) {
            out = pad + host_declaration(d).substr(4);
        } else if (contains(plan.host_variables, &d)) {
            const mcpl::Type& t = d.forms.front().resolved_type;
            out = fmt::format("{}[[maybe_unused]] {} {} = {};\n", pad, element_spelling(t), ident(d.name()),
                              d.init ? unwrap(expr(*d.init)) : "0");
        }
        break;
    }
    case Stmt::Kind::Block: out = pad + "{\n" + nested(s) + pad + "}\n"; break;
    case Stmt::Kind::If:
        out = fmt::format("{}if ({}) {{\n{}", pad, unwrap(expr(*s.condition)), nested(*s.then_branch));
        if (s.else_branch) out += pad + "} else {\n" + nested(*s.else_branch);
        out += pad + "}\n";
        break;
    case Stmt::Kind::For: {
        const Decl& d = *s.decl;
        out = fmt::format("{}for ({} {} = {}; {}; {}) {{\n{}{}}}\n", pad,
                          element_spelling(d.forms.front().resolved_type), ident(d.name()),
                          d.init ? unwrap(expr(*d.init)) : "0", unwrap(expr(*s.condition)), simple(*s.step),
                          nested(*s.loop_body), pad);
        break;
    }
    case Stmt::Kind::Assign:
    case Stmt::Kind::Step: out = pad + simple(s) + ";\n"; break;
    case Stmt::Kind::Swap:
        // GridMapping allows only swaps of the host's scalars and of arrays it holds.
        if (auto refused = array_swaps_.refused.find(&s); refused != array_swaps_.refused.end())
            unsupported(s.location, refused->second);
        else if (s.target->type.is_array())
            out = fmt::format("{}std::swap({}, {});\n", pad, launch_handle(*s.target->decl, ""),
                              launch_handle(*s.value->decl, ""));
        else
            out = fmt::format("{}std::swap({}, {});\n", pad, ident(s.target->decl->name()),
                              ident(s.value->decl->name()));
        break;
    default: break;
    }
    host_mode_ = was;
    return out;
}

std::string GridEmitter::glue_namespace(const std::string& prelude, const std::string& device_definition,
                                        const std::string& runtime,
                                        const std::function<std::string(const Function&)>& resident) {
    // The constants the host computes sizes and counts with, as the kernels
    // see them.
    std::string out = "namespace " + module_ + " {\n\n" + prelude +
                      constant_definitions("[[maybe_unused]] constexpr", true);
    out += runtime + "::Device& device() { return " + device_definition + "; }\n\n";
    out += "namespace on_device {\n";
    for (const Function* k : kernels_) out += resident(*k);
    out += "}  // namespace on_device\n\nnamespace resident {\n";
    for (const Function* k : kernels_) {
        std::vector<std::string> args = {"device()"};
        for (const auto& p : k->params) args.push_back(ident(p->forms.front().name));
        out += fmt::format("\n{} {{\n    on_device::{}({});\n}}\n", resident_signature(*k, runtime, false),
                           host_identifier(k->name), fmt::join(args, ", "));
    }
    out += "}  // namespace resident\n";
    for (const Function* k : kernels_) out += copying_function(*k, runtime);
    out += "\n}  // namespace " + module_ + "\n";
    return out;
}

std::string GridEmitter::copying_function(const Function& k, const std::string& runtime) {
    std::string out = fmt::format("\n{} {{\n    try {{\n", signature(k, Role::Host, false));
    out += "        " + runtime + "::Device& mcl_device = device();\n";
    std::vector<std::string> args;
    std::vector<std::string> copy_out;
    for (size_t position = 0; position < k.params.size(); ++position) {
        const Decl* p = k.params[position].get();
        const Type& t = p->forms.front().resolved_type;
        std::string name = ident(p->forms.front().name);
        if (!t.is_array() && !p->is_written) {
            args.push_back(name);
            continue;
        }
        // What the kernel does not overwrite must come back as it was: a
        // written array is copied in unless every element is written, a
        // written scalar always (one element).
        bool copy_in = p->is_read || !t.is_array() || !in_.write_coverage.fully_written(k, position);
        std::string count = t.is_array() ? host_elements(p->forms.front().type) : "1";
        out += fmt::format("        {}::DeviceArray<{}> {}_device(mcl_device, (size_t)({}), {});\n", runtime,
                           element_spelling(t), name, count, copy_in ? name : "nullptr");
        args.push_back(name + "_device");
        if (p->is_written) copy_out.push_back(fmt::format("        {}_device.download({});\n", name, name));
    }
    out += arrays_apart_check(
        k, [&](const Decl& d) { return host_pointer_span(d, host_elements(d.forms.front().type)); }, "        ");
    out += fmt::format("        resident::{}({});\n", host_identifier(k.name), fmt::join(args, ", "));
    for (const std::string& c : copy_out) out += c;
    out += "    } catch (const std::exception& e) {\n";
    out += fmt::format("        throw mcl::error_in(\"{}\", e);\n", where(k));
    out += "    }\n}\n";
    return out;
}

std::vector<std::string> GridEmitter::split_lines(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

void GridEmitter::note_launch_uses(const GridPlan& plan, const GridLaunch& launch) {
    forget_uses();
    for (const Decl* d : plan.prologue) note_uses(*d->init);
    // A foreach's count is printed only in its guard.
    for_each_printed_stmt(*launch.root, [&](const Stmt& s) {
        if (s.kind == Stmt::Kind::Foreach) {
            auto it = launch.placements.find(&s);
            if (it != launch.placements.end() && it->second.guarded) note_uses(*s.count);
            return;
        }
        note_own_uses(s);
    });
}

void GridEmitter::emit_launch_body(const GridPlan& plan, const GridLaunch& launch) {
    note_launch_uses(plan, launch);
    launch_ = &launch;
    for (const Decl* d : plan.prologue)
        line(fmt::format("{}const {} {} = {};", unused_prefix(*d), element_spelling(d->forms.front().resolved_type), ident(d->name()),
                         unwrap(expr(*d->init))));
    stmt(*launch.root);
    launch_ = nullptr;
}

void GridEmitter::foreach(const Stmt& s) {
    if (!launch_ || !launch_->placements.count(&s)) {
        diags_.error(s.location, fmt::format("a foreach inside a function called from a kernel is not supported by "
                                             "the {} backend", backend_name()));
        return;
    }
    if (reject_return_in(s)) return;
    const ForeachPlacement& place = launch_->placements.at(&s);
    auto index_of = [&](GridLevel level, size_t slot) {
        int l = static_cast<int>(level);
        std::vector<std::string> sizes;
        for (size_t k = 0; k < launch_->slots[l].size(); ++k) sizes.push_back(slot_size_name(level, k));
        return slot_index(*launch_, level, slot, levels_[static_cast<size_t>(l)], sizes);
    };
    std::string name = ident(s.decl->name());
    if (launch_->barriers_before.count(&s)) group_phase_barrier();
    line("{");
    ++indent_;
    // foreach_count may print a copy of a count that the index hides, which must come first.
    std::string count = place.guarded ? foreach_count(s) : "";
    line(fmt::format("{}const int {} = {};", unused_prefix(*s.decl), name, index_of(place.level, place.slot)));
    std::vector<std::string> conditions;
    if (place.guarded) conditions.push_back(fmt::format("{} < {}", name, count));
    for (const auto& [level, slot] : place.idle_slots) conditions.push_back(fmt::format("{} == 0", index_of(level, slot)));
    if (place.pushes_guard) {
        // inside the guards of the loops around, which are pushed here too
        if (!pushed_guard_.empty()) conditions.insert(conditions.begin(), pushed_guard_);
        std::string runs = "mcl_runs_" + name;
        if (runs == pushed_guard_) runs += "_inner";
        line(fmt::format("const bool {} = {};", runs, fmt::join(conditions, " && ")));
        std::string around = std::exchange(pushed_guard_, runs);
        statements(*s.loop_body);
        pushed_guard_ = around;
    } else if (!conditions.empty()) {
        out_ += indentation() + fmt::format("if ({})", fmt::join(conditions, " && "));
        block(*s.loop_body);
        out_ += "\n";
    } else {
        statements(*s.loop_body);
    }
    auto async = async_plans_.find(launch_->root);
    if (async != async_plans_.end() && async->second.waits_after.count(&s)) line(async_copy_wait());
    --indent_;
    line("}");
    if (launch_->barriers_after.count(&s)) group_phase_barrier();
}

void GridEmitter::statements(const Stmt& s) {
    if (pushed_guard_.empty()) {
        CFamilyEmitter::statements(s);
        return;
    }
    auto split = [&](const Stmt& c) { return launch_->split_statements.count(&c) > 0; };
    for_each_guarded_run(
        *launch_, mcpl::statements_of(s),
        [&](const Stmt& c) {
            if (split(c)) declaration(*c.decl, false);
            else stmt(c);
        },
        [&](const std::vector<const Stmt*>& run) {
            line(fmt::format("if ({}) {{", pushed_guard_));
            ++indent_;
            std::string guard = std::exchange(pushed_guard_, "");
            for (const Stmt* r : run) {
                if (split(*r)) initial_value(*r->decl);
                else stmt(*r);
            }
            pushed_guard_ = guard;
            --indent_;
            line("}");
        });
}

bool GridEmitter::uses_async_copies() const {
    return std::any_of(async_plans_.begin(), async_plans_.end(),
                       [](const auto& entry) { return !entry.second.copies.empty(); });
}

AsyncCopyPlan GridEmitter::planned_async_copies(const Function& kernel) {
    AsyncCopyPlan all;
    if (!collect() || !plan_kernels()) return all;
    auto plan = plans_.find(&kernel);
    if (plan == plans_.end()) return all;
    for (const GridLaunch& launch : plan->second.launches) {
        auto async = async_plans_.find(launch.root);
        if (async == async_plans_.end()) continue;
        all.copies.insert(async->second.copies.begin(), async->second.copies.end());
        all.waits_before.insert(async->second.waits_before.begin(), async->second.waits_before.end());
        all.waits_after.insert(async->second.waits_after.begin(), async->second.waits_after.end());
    }
    return all;
}

bool GridEmitter::lowered_statement(const Stmt& s) {
    auto async = launch_ ? async_plans_.find(launch_->root) : async_plans_.end();
    if (async == async_plans_.end()) return false;
    if (async->second.waits_before.count(&s)) line(async_copy_wait());
    auto copy = async->second.copies.find(&s);
    if (copy == async->second.copies.end()) return false;
    line(async_copy(copy->second));
    return true;
}

// The items of a work-group wait for each other, and see each other's
// writes, in every memory space they share: group- and device-scoped ones.
void GridEmitter::group_phase_barrier() {
    std::set<std::string> written;
    for (const auto& [space, entry] : config_.memory_spaces) {
        std::string scope = memory_scope(config_, space), spelling = entry.string("barrier");
        if ((scope == "group" || scope == "device") && !spelling.empty() && written.insert(spelling).second)
            line(spelling + ";");
    }
}

void GridEmitter::barrier(const Stmt& s) {
    auto it = config_.memory_spaces.find(s.name);
    std::string spelling = it == config_.memory_spaces.end() ? "" : it->second.string("barrier");
    if (spelling.empty()) {
        diags_.error(s.location, fmt::format("memory space '{}' has no \"barrier\" spelling for backend '{}' in '{}'",
                                             s.name, backend_name(), in_.target.path));
        return;
    }
    line(spelling + ";");
}

bool GridEmitter::swaps_elements(const Decl& d) const {
    if (!unviewed_constant_array(d) || memory_scope(config_, d.memory_space) == "group") return false;
    for (size_t a = 0; launch_ && a < launch_->scratch_arrays.size(); ++a)
        if (launch_->scratch_arrays[a].decl == &d) return false;
    return true;
}

void GridEmitter::array_declaration(const Decl& d, const std::string& qualifier) {
    std::string scope = memory_scope(config_, d.memory_space);
    std::string el = element_spelling(d.forms.front().resolved_type), name = ident(d.forms.front().name);
    // At kernel scope, where the backend places it; a swap redirects this
    // unit's pointer to it, from its declaration on.
    if (scope == "group") {
        if (redirected(d)) line(fmt::format("{}{}* {} = {};", pointer_space_of(d), el, name, array_storage_name(d)));
        return;
    }
    for (size_t a = 0; launch_ && a < launch_->scratch_arrays.size(); ++a) {
        if (launch_->scratch_arrays[a].decl != &d) continue;
        // This group instance's part: instances are numbered row-major over
        // the group slots around the declaration.
        std::vector<std::string> sizes;
        for (size_t j = 0; j < launch_->slots[0].size(); ++j) sizes.push_back(slot_size_name(GridLevel::Group, j));
        std::string instance = "(size_t)0";
        for (size_t k = 0; k < launch_->scratch_arrays[a].group_depth; ++k) {
            std::string index = slot_index(*launch_, GridLevel::Group, k, levels_[0], sizes);
            instance = k == 0 ? "(size_t)" + index
                              : fmt::format("({} * (size_t){} + (size_t){})", instance, sizes[k], index);
        }
        line(fmt::format("{}{}{}*{} {} = {} + {} * (size_t)({});", unused_prefix(d), qualifier, el,
                         redirected(d) ? "" : " const", name, scratch_storage_name(*launch_, a), instance,
                         element_count(d.forms.front().type)));
        return;
    }
    auto elements = constant_elements(d);
    if (!elements) {
        unsupported(d.location, scope == "item" ? "private arrays whose size is not constant"
                                                : "arrays in device memory whose size is not constant, declared "
                                                  "inside item loops or in functions called from a kernel");
        return;
    }
    // A private array: of an item-scoped space, or of device memory inside
    // item loops (only its item sees it).
    bool pointer = redirected(d) && !swaps_elements(d);
    std::string storage = pointer ? array_storage_name(d) : name;
    line(fmt::format("{}{}{} {}[{}];", unused_prefix(d), scope == "item" ? qualifier : "", el, storage,
                     *elements ? *elements : 1));
    if (pointer) line(fmt::format("{}{}* {} = {};", pointer_space_of(d), el, name, storage));
}

}  // namespace mcl::backends
