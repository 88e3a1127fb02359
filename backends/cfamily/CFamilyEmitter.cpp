#include "backends/cfamily/CFamilyEmitter.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>

#include <fmt/format.h>

#include "backends/cfamily/RecursiveCalls.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::backends {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Primitive;
using mcpl::RecordType;
using mcpl::Stmt;
using mcpl::Type;
using mcpl::TypeExpr;
using mcpl::VarPart;

CFamilyEmitter::CFamilyEmitter(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags,
                               std::set<std::string> reserved_names)
    : in_(input),
      config_(config),
      diags_(diags),
      errors_at_start_(diags.error_count()),
      reserved_(std::move(reserved_names)) {
    // A function at global scope may not be called main in C, C++, OpenCL C
    // or CUDA (OpenCL: "function cannot be called 'main'"), and kernels may
    // call one of theirs so.
    reserved_.insert("main");
    module_ = input.host_namespace.empty() ? host_namespace_identifier(input.module.name) : input.host_namespace;
}

// --- what to emit ----------------------------------------------------------------

bool CFamilyEmitter::collect() {
    kernels_ = module_kernels(in_.module, diags_);
    if (kernels_.empty()) return false;
    for (const Function* k : kernels_) collect_calls(*k);
    for (const Function* k : kernels_) collect_records(*k);
    for (const Function* f : device_functions_) collect_records(*f);
    for (const auto& m : in_.program.modules)
        for (const auto& c : m->constants) module_constants_.insert(c.get());
    for (const Function* k : kernels_) collect_constants(*k);
    for (const Function* f : device_functions_) collect_constants(*f);
    for (const Function* k : kernels_) note_reads_beyond_own_updates(*k);
    for (const Function* f : device_functions_) note_reads_beyond_own_updates(*f);
    std::vector<const Function*> printed = kernels_;
    printed.insert(printed.end(), device_functions_.begin(), device_functions_.end());
    array_swaps_ = plan_array_swaps(printed);
    qualify_clashing_names();
    if (allows_recursion()) return true;
    std::vector<const Expr*> recursive = recursive_calls(kernels_);
    for (const Expr* call : recursive)
        diags_.error(call->location, fmt::format("this call of '{}' is recursive (it reaches itself again): the {} "
                                                 "backend cannot express recursion",
                                                 call->callee, backend_name()));
    return recursive.empty();
}

// MCPL's modules are namespaces; the C the backends print is one. Of the
// functions, constants and records printed under one name, the root
// module's (else the first) keeps it and the others take their module's:
// `mcl_<length><module>_<name>` (`mcl_7squares_square`), a name the user's
// never are (target_identifier maps those away from `mcl_`). The root's
// kernels keep their names too, which the host's functions have. Records
// are printed by every backend, as the host's types, so an application that
// uses an imported record whose name the root module also gives one spells
// it that way.
void CFamilyEmitter::qualify_clashing_names() {
    std::map<std::string, std::vector<std::pair<const mcpl::Module*, std::string*>>> by_name;
    std::set<std::string> taken;
    auto add = [&](std::string spelled, const mcpl::Module* module, std::string& identifier) {
        identifier = std::move(spelled);
        by_name[identifier].push_back({module, &identifier});
        taken.insert(identifier);
    };
    std::vector<std::string> kernel_names(kernels_.size());
    for (size_t k = 0; k < kernels_.size(); ++k) add(host_identifier(kernels_[k]->name), &in_.module, kernel_names[k]);
    if (prints_device_functions())
        for (const Function* f : device_functions_) add(ident(f->name), f->module, function_identifiers_[f]);
    for (const auto& m : in_.program.modules)
        for (const auto& c : m->constants)
            if (seen_constants_.count(c.get())) add(ident(c->name()), m.get(), constant_identifiers_[c.get()]);
    for (const RecordType* r : records_) add(host_identifier(r->name), r->module, record_identifiers_[r]);
    for (auto& [name, holders] : by_name) {
        if (holders.size() < 2) continue;
        // MCPL gives a name one meaning per module; a kernel that another
        // calls is also a device function of its name.
        const mcpl::Module* keeper = &in_.module;
        if (std::none_of(holders.begin(), holders.end(), [&](const auto& h) { return h.first == keeper; }))
            keeper = holders.front().first;
        for (auto& [module_of, identifier] : holders) {
            if (module_of == keeper) continue;
            std::string module = module_of ? ident(module_of->name) : "module";
            std::string qualified = fmt::format("mcl_{}{}_{}", module.size(), module, name);
            for (int n = 2; !taken.insert(qualified).second; ++n)
                qualified = fmt::format("mcl_{}{}_{}_{}", module.size(), module, name, n);
            *identifier = qualified;
        }
    }
}

std::string CFamilyEmitter::function_identifier(const Function& f) const {
    auto it = function_identifiers_.find(&f);
    return it == function_identifiers_.end() ? ident(f.name) : it->second;
}

std::string CFamilyEmitter::constant_identifier(const Decl& c) const {
    auto it = constant_identifiers_.find(&c);
    return it == constant_identifiers_.end() ? ident(c.name()) : it->second;
}

std::string CFamilyEmitter::record_identifier(const RecordType& r) const {
    auto it = record_identifiers_.find(&r);
    return it == record_identifiers_.end() ? host_identifier(r.name) : it->second;
}

void CFamilyEmitter::collect_calls(const Function& f) {
    mcpl::for_each_call_in(*f.body, [&](const Expr& call) {
        const Function* callee = call.function;
        if (!callee || callee->builtin_body) return;
        // A kernel called by another function is also emitted as a device
        // function.
        if (!seen_functions_.insert(callee).second) return;
        device_functions_.push_back(callee);
        collect_calls(*callee);
    });
}

void CFamilyEmitter::add_record(const RecordType* r) {
    if (!r || seen_records_.count(r)) return;
    seen_records_.insert(r);
    for (const auto& field : r->fields) add_record(field->forms.back().resolved_type.record);
    records_.push_back(r);  // after the records its fields use
}

void CFamilyEmitter::collect_records(const Function& f) {
    add_record(f.resolved_return_type.record);
    for (const auto& p : f.params) add_record(p->forms.front().resolved_type.record);
    mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
        if (s.kind == Stmt::Kind::Decl && s.decl) add_record(s.decl->forms.front().resolved_type.record);
    });
}

void CFamilyEmitter::add_constants_in(const Expr& e) {
    mcpl::for_each_var(e, [&](const Expr& v) {
        const Decl* c = v.decl;
        if (!c || !module_constants_.count(c) || seen_constants_.count(c)) return;
        seen_constants_.insert(c);
        if (c->init) add_constants_in(*c->init);
        constants_.push_back(c);  // after the constants its value reads
    });
}

void CFamilyEmitter::collect_constants(const Function& f) {
    for (const auto& p : f.params)
        for (const Expr* extent : all_extents(p->forms.front().type)) add_constants_in(*extent);
    mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
        mcpl::for_each_own_expr(s, [&](const Expr& e) { add_constants_in(e); });
    });
}

// --- names and types ----------------------------------------------------------------

std::string CFamilyEmitter::ident(const std::string& name) const { return target_identifier(name, reserved_); }

std::string CFamilyEmitter::primitive_spelling(Primitive p) {
    switch (p) {
    case Primitive::Void: return "void";
    case Primitive::Int: return "int";
    case Primitive::Float: return "float";
    case Primitive::Double: return "double";
    case Primitive::Byte: return "unsigned char";
    case Primitive::Bool: return "bool";
    }
    return "void";
}

std::string CFamilyEmitter::element_spelling(const Type& t) const {
    if (t.record) return record_identifier(*t.record);
    return primitive_spelling(t.primitive.value_or(Primitive::Void));
}

std::vector<const Expr*> CFamilyEmitter::all_extents(const TypeExpr& t) {
    std::vector<const Expr*> out;
    for (const auto& group : t.dimensions)
        for (const auto& extent : group) out.push_back(extent.get());
    return out;
}

std::optional<int64_t> CFamilyEmitter::constant_elements(const Decl& d) {
    int64_t elements = 1;
    for (const Expr* e : all_extents(d.forms.front().type)) {
        auto v = mcpl::checked_constant_int_value(*e);
        if (!v || *v < 0) return std::nullopt;
        elements *= *v;
    }
    return elements;
}

std::string CFamilyEmitter::unwrap(const std::string& s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0 && i + 1 < s.size()) return s;
    }
    return s.substr(1, s.size() - 2);
}

std::string CFamilyEmitter::banner(const std::string& file, const std::string& what) const {
    return fmt::format("// {}: {} of MCPL module '{}' for '{}', generated by `mclc gen --backend {}`.\n"
                       "// Do not edit: regenerate it.\n",
                       file, what, in_.module.name, in_.leaf.name, backend_name());
}

std::string CFamilyEmitter::record_definitions() {
    std::string out;
    for (const RecordType* r : records_) {
        // typedef'd, so that C spells the type without `struct` as C++ does
        std::string name = record_identifier(*r);
        out += "typedef struct " + name + " {\n";
        for (const auto& field : r->fields) out += "    " + field_declaration(*field) + ";\n";
        out += "} " + name + ";\n\n";
    }
    return out;
}

std::string CFamilyEmitter::field_declaration(const Decl& field) {
    const BasicDecl& form = field.forms.front();
    std::string s = element_spelling(form.resolved_type) + " " + host_identifier(form.name);
    if (form.resolved_type.is_array()) s += fmt::format("[{}]", mcpl::record_field_element_count(form));
    return s;
}

namespace {

// Whether `init` uses ^ or a call other than a conversion: what neither
// OpenCL's __constant nor CUDA's constexpr can evaluate (pow is a run-time
// function there).
bool needs_run_time_computation(const Expr& init) {
    bool computed = false;
    mcpl::for_each_expr(init, [&](const Expr& e) {
        bool conversion = e.kind == Expr::Kind::Call && !e.function &&
                          (e.callee == "toFloat" || e.callee == "toDouble" || e.callee == "toInt");
        computed = computed || (e.kind == Expr::Kind::Call && !conversion) ||
                   (e.kind == Expr::Kind::Binary && e.op == "^");
    });
    return computed;
}

}  // namespace

std::string CFamilyEmitter::constant_definitions(const std::string& storage, bool compile_time) {
    if (!constant_declarators_) constant_declarators_ = checked_constant_declarators(compile_time);
    std::string out;
    for (const std::string& declarator : *constant_declarators_) out += storage + " " + declarator + ";\n";
    return out.empty() ? out : out + "\n";
}

std::vector<std::string> CFamilyEmitter::checked_constant_declarators(bool compile_time) {
    std::vector<std::string> declarators;
    for (const Decl* c : constants_) {
        const Type& t = c->forms.front().resolved_type;
        if (t.is_array()) {
            unsupported(c->location, "constant arrays");
            continue;
        }
        std::string value = c->init ? unwrap(converted(t, *c->init)) : "0";
        if (compile_time && c->init) {
            std::optional<int64_t> folded = mcpl::checked_constant_int_value(*c->init);
            if (folded && (t.primitive == Primitive::Int || t.primitive == Primitive::Byte)) {
                value = t.primitive == Primitive::Byte ? fmt::format("(unsigned char)({})", *folded)
                                                       : fmt::format("{}", *folded);
            } else if (needs_run_time_computation(*c->init)) {
                diags_.error(c->init->location,
                             fmt::format("the {} backend needs constant '{}' at compile time, and cannot compute "
                                         "^ or a function call there; write its value",
                                         backend_name(), c->name()));
                continue;
            }
        }
        declarators.push_back(fmt::format("{} {} = {}", element_spelling(t), constant_identifier(*c), value));
    }
    return declarators;
}

std::set<std::string> CFamilyEmitter::cpp_keywords() {
    return {"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
            "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval",
            "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
            "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
            "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
            "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
            "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
            "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true",
            "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
            "wchar_t", "while", "xor", "xor_eq"};
}

// --- host files of kernels that run in the host process ----------------------------------

std::string CFamilyEmitter::host_header() {
    std::string out = banner(in_.module.name + ".h", "host interface");
    out += "#pragma once\n\nnamespace " + module_ + " {\n\n" + record_definitions();
    for (const Function* k : kernels_) {
        out += fmt::format("// {}: parameters in MCPL order; arrays are row-major\n", k->name);
        out += signature(*k, Role::Host, false) + ";\n\n";
    }
    out += "}  // namespace " + module_ + "\n";
    return out;
}

std::string CFamilyEmitter::in_process_glue(const std::string& linkage, const std::string& note) {
    std::string out = banner(in_.module.name + ".cpp", "host glue") + note;
    out += "#include \"" + in_.module.name + ".h\"\n\n#include <exception>\n#include <memory>\n#include <string>\n\n"
           "#include \"mcl_runtime.h\"\n\n";
    out += "namespace " + module_ + "::kernels {\n";
    for (const Function* k : kernels_) out += linkage + signature(*k, Role::Kernel, false) + ";\n";
    out += "}  // namespace " + module_ + "::kernels\n\nnamespace " + module_ + " {\n";
    for (const Function* k : kernels_) {
        std::vector<std::string> args;
        for (const auto& p : k->params) args.push_back(ident(p->forms.front().name));
        out += fmt::format("\n{} {{\n", signature(*k, Role::Host, false));
        out += "    try {\n";
        // checked first: a refused call allocates nothing
        out += arrays_apart_check(
            *k,
            [&](const Decl& d) {
                std::optional<std::string> count = glue_element_count(*k, d.forms.front().type);
                return count ? host_pointer_span(d, *count) : ArgumentSpan{};
            },
            "        ");
        std::vector<StorageParameter> storage = storage_parameters(*k);
        for (size_t s = 0; s < storage.size(); ++s) {
            // value-initialised: zeroed
            out += fmt::format("        std::unique_ptr<{0}[]> mcl_storage_{1}(new {0}[{2}]());\n", storage[s].element, s,
                               storage[s].elements);
            args.push_back(fmt::format("mcl_storage_{}.get()", s));
        }
        out += fmt::format("        return kernels::{}({});\n", kernel_symbol(*k), fmt::join(args, ", "));
        out += "    } catch (const std::exception& e) {\n";
        out += fmt::format("        throw mcl::Error(std::string(\"{}::{} ({} backend): \") + e.what());\n", module_,
                           host_identifier(k->name), backend_name());
        out += "    }\n}\n";
    }
    out += "\n}  // namespace " + module_ + "\n";
    return out;
}

std::string CFamilyEmitter::arrays_apart_check(const Function& k, const std::function<ArgumentSpan(const Decl&)>& span,
                                               const std::string& pad) {
    std::vector<std::string> arguments;
    bool writes = false;
    for (const auto& p : k.params) {
        if (!p->forms.front().resolved_type.is_array() && !p->is_written) continue;
        ArgumentSpan s = span(*p);
        if (s.begin.empty()) return "";
        arguments.push_back(fmt::format("{{\"{}\", {}, {}, {}}}", p->forms.front().name, s.begin, s.bytes,
                                        p->is_written ? "true" : "false"));
        writes = writes || p->is_written;
    }
    if (arguments.size() < 2 || !writes) return "";
    return fmt::format("{}mcl::check_arrays_apart({{{}}});\n", pad, fmt::join(arguments, ", "));
}

std::optional<std::string> CFamilyEmitter::glue_element_count(const Function& k, const mcpl::TypeExpr& shape) {
    bool folds = true;
    for (const Expr* extent : all_extents(shape))
        mcpl::for_each_var(*extent, [&](const Expr& v) {
            bool parameter = std::any_of(k.params.begin(), k.params.end(),
                                         [&](const std::unique_ptr<Decl>& p) { return p.get() == v.decl; });
            folds = folds && (parameter || v.hardware ||
                              (module_constants_.count(v.decl) && mcpl::checked_constant_int_value(v)));
        });
    if (!folds) return std::nullopt;
    bool was = fold_constants_;
    fold_constants_ = true;
    std::string count = element_count(shape);
    fold_constants_ = was;
    return count;
}

CFamilyEmitter::ArgumentSpan CFamilyEmitter::host_pointer_span(const Decl& d, const std::string& elements) {
    const mcpl::BasicDecl& form = d.forms.front();
    std::string element = "sizeof(" + element_spelling(form.resolved_type) + ")";
    if (!form.resolved_type.is_array()) return {ident(form.name), element};
    return {ident(form.name), fmt::format("mcl::array_bytes((long long)({}), {})", unwrap(elements), element)};
}

// --- expressions -----------------------------------------------------------------------

std::string CFamilyEmitter::expr(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral:
        return e.int_value > INT_MAX || e.int_value < INT_MIN ? fmt::format("{}LL", e.int_value)
                                                              : fmt::format("{}", e.int_value);
    case Expr::Kind::FloatLiteral: return float_literal(e);
    case Expr::Kind::BoolLiteral: return e.bool_value ? "true" : "false";
    case Expr::Kind::Var: return var(e);
    case Expr::Kind::Call: return call(e);
    case Expr::Kind::Unary: return "(" + e.op + expr(*e.args[0]) + ")";
    case Expr::Kind::Binary:
        if (e.op == "^") return power(e.type, expr(*e.args[0]), expr(*e.args[1]));
        if (std::optional<bool> decided = decided_by_byte_range(e))
            return fmt::format("(((void)({}), (void)({}), {}))", expr(*e.args[0]), expr(*e.args[1]),
                               *decided ? "true" : "false");
        return "(" + expr(*e.args[0]) + " " + e.op + " " + expr(*e.args[1]) + ")";
    }
    return "";
}

// A byte (0 to 255) compared with a constant that decides the comparison for
// every byte, like `b >= 0`: the C compilers warn about it (gcc's
// -Wtype-limits, nvcc's "pointless comparison of unsigned integer with
// zero"), so the backends write its value, both operands still evaluated
// (a constant's name stays used; in parentheses that unwrap leaves one pair
// of, so that a call's argument stays one).
std::optional<bool> CFamilyEmitter::decided_by_byte_range(const Expr& e) {
    if (!mcpl::is_comparison(e.op) || e.args.size() != 2) return std::nullopt;
    auto is_byte = [](const Expr& x) { return x.type.primitive == Primitive::Byte && !x.type.is_array(); };
    bool byte_left = is_byte(*e.args[0]);
    if (byte_left == is_byte(*e.args[1])) return std::nullopt;
    std::optional<int64_t> constant = mcpl::checked_constant_int_value(*e.args[byte_left ? 1 : 0]);
    if (!constant) return std::nullopt;
    auto result_for = [&](int64_t byte) {
        return *mcpl::compare(e.op, byte_left ? byte : *constant, byte_left ? *constant : byte);
    };
    // Each comparison is monotone in the byte, except == and != (decided
    // only by a constant outside 0 to 255).
    bool inside = *constant >= 0 && *constant <= 255;
    if ((e.op == "==" || e.op == "!=") ? inside : result_for(0) != result_for(255)) return std::nullopt;
    return result_for(0);
}

std::string CFamilyEmitter::host_power(const Type& type, const std::string& a, const std::string& b) const {
    if (type.primitive == Primitive::Byte) return fmt::format("((unsigned char)(int)std::pow({}, {}))", a, b);
    return fmt::format("(({})std::pow({}, {}))", element_spelling(type), a, b);
}

std::string CFamilyEmitter::float_literal(const Expr& e) const {
    std::string s = e.spelling.empty() ? fmt::format("{}", e.float_value) : e.spelling;
    while (!s.empty() && (s.back() == 'f' || s.back() == 'F')) s.pop_back();
    if (s.find_first_of(".eEnN") == std::string::npos) s += ".0";
    bool is_double = e.type.primitive == Primitive::Double && !e.type.is_array();
    return is_double ? s : s + "f";
}

std::string CFamilyEmitter::element_count(const TypeExpr& shape) { return extent_product(shape, 0).first; }

std::pair<std::string, bool> CFamilyEmitter::extent_product(const TypeExpr& shape, size_t from) {
    std::vector<const Expr*> extents = all_extents(shape);
    std::vector<std::string> factors;
    int64_t constant = 1;
    bool constant_fits = true;
    for (size_t k = from; k < extents.size(); ++k) {
        factors.push_back(fmt::format("({})", unwrap(expr(*extents[k]))));
        auto v = mcpl::checked_constant_int_value(*extents[k]);
        constant_fits =
            constant_fits && v && !__builtin_mul_overflow(constant, *v, &constant) && constant <= INT_MAX;
    }
    if (factors.empty()) return {"1", true};
    // The product in 64 bits unless constants keep it within an int: arrays
    // may have more than 2^31 elements. One factor keeps its own type.
    if (!constant_fits && factors.size() > 1) factors[0] = "(" + wide_int() + ")" + factors[0];
    return {fmt::format("{}", fmt::join(factors, " * ")), constant_fits};
}

std::string CFamilyEmitter::indexed(std::string base, const VarPart& part, const TypeExpr& shape) {
    std::vector<const Expr*> extents = all_extents(shape);
    std::vector<const Expr*> indices;
    for (const auto& group : part.indices)
        for (const auto& i : group) indices.push_back(i.get());
    if (indices.empty()) return base;
    // Row-major offsets in 64 bits, from the first product on: an array of
    // several dimensions may have more than 2^31 elements.
    bool multiplies = indices.size() > 1 || indices.size() < extents.size();
    std::string lin = (multiplies ? "(" + wide_int() + ")(" : "(") + expr(*indices[0]) + ")";
    for (size_t k = 1; k < indices.size(); ++k) {
        if (k >= 2) lin = "(" + lin + ")";
        lin += " * (" + expr(*extents[k]) + ") + (" + expr(*indices[k]) + ")";
    }
    if (indices.size() == extents.size()) return base + "[" + lin + "]";
    // A tile or row: a pointer to its first element.
    std::vector<std::string> rest;
    for (size_t k = indices.size(); k < extents.size(); ++k) rest.push_back(fmt::format("({})", expr(*extents[k])));
    if (indices.size() >= 2) lin = "(" + lin + ")";
    return fmt::format("({} + {} * {})", base, lin, fmt::join(rest, " * "));
}

std::string CFamilyEmitter::var(const Expr& e) {
    if (e.hardware) {
        return fmt::format("{} /* {}.{} */", e.hardware->value, e.hardware->description,
                           fmt::join(e.hardware->path, "."));
    }
    if (fold_constants_ && module_constants_.count(e.decl))
        if (std::optional<int64_t> value = mcpl::checked_constant_int_value(e)) return fmt::format("{}LL", *value);
    const VarPart& head = e.var.front();
    std::string s = e.decl && constant_identifiers_.count(e.decl) ? constant_identifier(*e.decl) : ident(head.name);
    if (!e.form) return s;  // not annotated (cannot happen in a checked program)
    Type t = e.form->resolved_type;
    if (!t.is_array() && pointer_scalars_.count(e.decl)) s = "(*" + s + ")";
    s = indexed(s, head, e.form->type);
    for (size_t k = 1; k < e.var.size(); ++k) {
        const VarPart& part = e.var[k];
        const Decl* field = t.record ? t.record->field(part.name) : nullptr;
        if (!field) return s + "." + host_identifier(part.name);
        s = indexed(s + "." + host_identifier(part.name), part, field->forms.back().type);
        t = field->forms.back().resolved_type;
    }
    return s;
}

std::string CFamilyEmitter::device_call(const Expr& call, const std::vector<std::string>& args) {
    return fmt::format("{}({})", variant_of(call).name, fmt::join(args, ", "));
}

const CFamilyEmitter::DeviceVariant& CFamilyEmitter::variant_of(const Expr& call) {
    const Function& f = *call.function;
    std::vector<std::string> keys;
    for (size_t i = 0; i < f.params.size(); ++i) {
        const Decl* storage = i < call.args.size() ? call.args[i]->decl : nullptr;
        keys.push_back(storage && varies_with_argument(*f.params[i]) ? argument_key(*storage) : "");
    }
    auto [it, fresh] = variant_index_.emplace(std::make_pair(&f, keys), device_variants_.size());
    if (fresh) {
        bool first = std::none_of(device_variants_.begin(), device_variants_.end(),
                                  [&](const DeviceVariant& v) { return v.function == &f; });
        std::string codes;
        for (size_t i = 0; i < keys.size(); ++i)
            if (varies_with_argument(*f.params[i])) codes += key_code(keys[i]);
        std::string name = function_identifier(f);
        device_variants_.push_back({&f, keys, first ? name : "mcl_as_" + codes + "_" + name});
    }
    return device_variants_[it->second];
}

void CFamilyEmitter::collect_variants() {
    auto walk = [&](const Function& f, Role role) {
        function_ = &f;
        role_ = role;
        mcpl::for_each_call_in(*f.body, [&](const Expr& call) {
            if (call.function && !call.function->builtin_body) variant_of(call);
        });
    };
    for (const Function* k : kernels_) {
        bind_kernel_parameters(*k);
        walk(*k, Role::Kernel);
    }
    for (size_t i = 0; i < device_variants_.size(); ++i) {  // grows while walked
        const DeviceVariant v = device_variants_[i];
        bind_variant_parameters(v);
        walk(*v.function, Role::Device);
    }
    function_ = nullptr;
}

void CFamilyEmitter::bind_kernel_parameters(const Function& k) {
    parameter_keys_.clear();
    for (const auto& p : k.params) parameter_keys_[p.get()] = kernel_parameter_key(*p);
}

void CFamilyEmitter::bind_variant_parameters(const DeviceVariant& v) {
    parameter_keys_.clear();
    for (size_t i = 0; i < v.function->params.size(); ++i) parameter_keys_[v.function->params[i].get()] = v.keys[i];
}

const std::string* CFamilyEmitter::bound_key(const Decl& param) const {
    auto it = parameter_keys_.find(&param);
    return it == parameter_keys_.end() ? nullptr : &it->second;
}

void CFamilyEmitter::print_device_variants(const std::string& prefix) {
    auto signature_of = [&](const DeviceVariant& v, bool definition) {
        bind_variant_parameters(v);
        return prefix + signature(*v.function, Role::Device, definition, v.name);
    };
    for (const DeviceVariant& v : device_variants_) out_ += signature_of(v, false) + ";\n";
    for (const DeviceVariant& v : device_variants_) {
        out_ += "\n";
        print_function(*v.function, Role::Device, [&] { return signature_of(v, true); });
    }
}

std::string CFamilyEmitter::converted(const Type& to, const Expr& e) {
    const Type& from = e.type;
    bool numbers = !to.is_array() && !from.is_array() && to.is_numeric() && from.is_numeric();
    if (numbers && (mcpl::numeric_rank(*to.primitive) < mcpl::numeric_rank(*from.primitive) ||
                    (*to.primitive == Primitive::Float && *from.primitive == Primitive::Int)))
        return fmt::format("({})({})", element_spelling(to), unwrap(expr(e)));
    return expr(e);
}

std::vector<std::string> CFamilyEmitter::call_arguments(const Expr& e) {
    std::vector<std::string> args;
    for (size_t i = 0; i < e.args.size(); ++i) {
        // a function's scalar parameter takes its argument converted (one
        // it writes takes the caller's variable itself)
        bool scalar_parameter = e.function && i < e.function->params.size() && !e.function->params[i]->is_written &&
                                !e.function->params[i]->forms.front().resolved_type.is_array();
        args.push_back(scalar_parameter ? converted(e.function->params[i]->forms.front().resolved_type, *e.args[i])
                                        : expr(*e.args[i]));
    }
    return args;
}

std::string CFamilyEmitter::call(const Expr& e) {
    std::vector<std::string> args = call_arguments(e);
    if (!e.function) {  // a builtin of the language
        const std::string& c = e.callee;
        if (c == "toFloat") return "((float)" + args[0] + ")";
        if (c == "toDouble") return "((double)" + args[0] + ")";
        if (c == "toInt") return "((int)" + args[0] + ")";
        // The ceiling of a / b (b > 0): C's division truncates, which is the
        // ceiling for a <= 0. In 64 bits: a + b - 1 overflows int for a near
        // 2^31. The arguments are evaluated more than once (the checker lets
        // no call in them write).
        if (c == "divide_up")
            return fmt::format("((int)(({0}){1} > 0 ? (({0}){1} + {2} - 1) / {2} : ({0}){1} / {2}))", wide_int(),
                               args[0], args[1]);
        if (c == "min" || c == "max") {
            // both of the result's type: OpenCL's and CUDA's overloads take
            // two of one type, and min(uchar, int) is ambiguous. C promotes
            // a byte that is computed (`-b`, `b + b`) to int, where MCPL
            // keeps it a byte, so only a byte variable is a uchar already.
            for (size_t k = 0; k < 2; ++k) {
                const Expr& arg = *e.args[k];
                bool promoted = e.type.primitive == Primitive::Byte && arg.kind != Expr::Kind::Var;
                if (arg.type.primitive != e.type.primitive || promoted)
                    args[k] = fmt::format("({})({})", element_spelling(e.type), unwrap(args[k]));
            }
            return min_max(c, e.type, args[0], args[1]);
        }
        unsupported(e.location, fmt::format("the builtin '{}'", c));
        return c;
    }
    if (e.function->builtin_body) {
        const std::string* found = library_spelling(e);
        if (!found) {
            diags_.error(e.location, fmt::format("library function '{}' has no spelling in \"builtins\" of "
                                                 "backend '{}' in '{}'", e.callee, backend_name(), in_.target.path));
            return e.callee;
        }
        const std::string& spelling = *found;
        if (spelling.find('$') == std::string::npos) return fmt::format("{}({})", spelling, fmt::join(args, ", "));
        std::string out;
        for (size_t i = 0; i < spelling.size(); ++i) {
            if (spelling[i] == '$' && i + 1 < spelling.size() &&
                std::isdigit(static_cast<unsigned char>(spelling[i + 1]))) {
                size_t n = static_cast<size_t>(spelling[i + 1] - '0');
                if (n < args.size()) out += "(" + args[n] + ")";
                ++i;
            } else {
                out += spelling[i];
            }
        }
        return out;
    }
    if (!has_references()) {
        for (size_t i = 0; i < args.size() && i < e.function->params.size(); ++i) {
            const Decl& p = *e.function->params[i];
            if (p.is_written && !p.forms.front().resolved_type.is_array()) args[i] = "&" + args[i];
        }
    }
    return device_call(e, args);
}

// --- statements -------------------------------------------------------------------------

void CFamilyEmitter::line(const std::string& text) { out_ += indentation() + text + "\n"; }

void CFamilyEmitter::block(const Stmt& s) {
    out_ += " {\n";
    ++indent_;
    statements(s);
    --indent_;
    out_ += indentation() + "}";
}

void CFamilyEmitter::statements(const Stmt& s) {
    if (s.kind != Stmt::Kind::Block) {
        stmt(s);
        return;
    }
    for (const auto& child : s.body) stmt(*child);
}

void CFamilyEmitter::unrolled_loop(const Stmt& for_loop) {
    const mcpl::ConstantLoop loop = *mcpl::constant_loop(for_loop);
    const Decl& d = *for_loop.decl;
    std::string index = ident(d.name());
    line(fmt::format("// the loop at line {}, unrolled: {} iterations, {} from {} by {}", for_loop.location.line,
                     loop.trips, index, loop.first, loop.stride));
    bool index_used = false;
    mcpl::for_each_stmt(*for_loop.loop_body, [&](const Stmt& s) {
        mcpl::for_each_own_expr(s, [&](const Expr& e) {
            mcpl::for_each_var(e, [&](const Expr& v) { index_used = index_used || v.decl == &d; });
        });
    });
    for (int64_t k = 0; k < loop.trips; ++k) {
        line("{");
        ++indent_;
        // Not `const`: nvcc's front end folds a const's value into the body
        // and warns where the user's code is fine for every index but this
        // one (`k <= b` with k = 0 and an unsigned b is "pointless"); its
        // optimizer propagates the value all the same.
        if (index_used)
            line(fmt::format("{} {} = {};", element_spelling(d.forms.front().resolved_type), index,
                             loop.first + k * loop.stride));
        stmt(*for_loop.loop_body);
        --indent_;
        line("}");
    }
}

void CFamilyEmitter::stmt(const Stmt& s) {
    if (lowered_statement(s)) return;
    switch (s.kind) {
    case Stmt::Kind::Block:
        line("{");
        ++indent_;
        statements(s);
        --indent_;
        line("}");
        return;
    case Stmt::Kind::Decl: declaration(*s.decl); return;
    case Stmt::Kind::Assign:
    case Stmt::Kind::Step: line(simple(s) + ";"); return;
    case Stmt::Kind::Swap: {
        if (s.target->type.is_array()) {
            array_swap(s);
            return;
        }
        std::string a = expr(*s.target), b = expr(*s.value);
        line(fmt::format("{{ {} mcl_swap_tmp = {}; {} = {}; {} = mcl_swap_tmp; }}", element_spelling(s.target->type),
                         a, a, b, b));
        return;
    }
    case Stmt::Kind::Call: call_statement(s); return;
    case Stmt::Kind::Return: line(s.value ? "return " + unwrap(converted(return_type_, *s.value)) + ";" : "return;"); return;
    case Stmt::Kind::If: {
        out_ += indentation() + "if (" + unwrap(expr(*s.condition)) + ")";
        block(*s.then_branch);
        if (s.else_branch) {
            out_ += " else";
            block(*s.else_branch);
        }
        out_ += "\n";
        return;
    }
    case Stmt::Kind::For: {
        if (unrolls_in_source(s)) {
            unrolled_loop(s);
            return;
        }
        const Decl& d = *s.decl;
        std::string init = element_spelling(d.forms.front().resolved_type) + " " + ident(d.name()) + " = " +
                           (d.init ? initialiser(d) : "0");
        if (std::string hint = loop_hint(s); !hint.empty()) out_ += indentation() + hint + "\n";
        out_ += indentation() + fmt::format("for ({}; {}; {})", init, unwrap(expr(*s.condition)), simple(*s.step));
        block(*s.loop_body);
        out_ += "\n";
        return;
    }
    case Stmt::Kind::Foreach: foreach(s); return;
    case Stmt::Kind::Barrier: barrier(s); return;
    case Stmt::Kind::As: {
        const Expr& target = *s.target;
        if (!target.form || !target.form->resolved_type.is_array()) {
            unsupported(s.location, "'as' views of scalars");
            return;
        }
        // A view is the same storage under another shape: a pointer to it,
        // in the storage's address space, const where the function takes
        // the array as const (see parameter()).
        std::string storage = expr(target);
        std::string space = target.decl ? pointer_space_of(*target.decl) : "";
        bool read_only_parameter = target.decl && !target.decl->is_written && function_ &&
                                   std::any_of(function_->params.begin(), function_->params.end(),
                                               [&](const std::unique_ptr<Decl>& p) { return p.get() == target.decl; });
        for (const BasicDecl& view : s.views)
            line(fmt::format("{}{}{}{}* {} = {};", unused_prefix(view), space, read_only_parameter ? "const " : "",
                             element_spelling(view.resolved_type), ident(view.name), storage));
        return;
    }
    }
}

void CFamilyEmitter::call_statement(const Stmt& s) { line(unwrap(expr(*s.call)) + ";"); }

std::string CFamilyEmitter::simple(const Stmt& s) {
    if (s.kind == Stmt::Kind::Step) return expr(*s.target) + s.op;
    if (s.op == "=") {
        std::string target = expr(*s.target), value = unwrap(converted(s.target->type, *s.value));
        // `x = x;` does nothing, and clang (OpenCL C) warns about it (-Wself-assign)
        if (target == value) return "(void)" + target;
        return target + " = " + value;
    }
    return expr(*s.target) + " " + s.op + " " + unwrap(expr(*s.value));
}

void CFamilyEmitter::barrier(const Stmt& s) {
    diags_.error(s.location, fmt::format("barriers are not supported by the {} backend", backend_name()));
}

void CFamilyEmitter::check_memory_space(const Decl& d) {
    if (d.memory_space.empty() || config_.memory_spaces.count(d.memory_space)) return;
    diags_.error(d.location, fmt::format("memory space '{}' has no entry in \"memory_spaces\" of backend '{}' in "
                                         "'{}'", d.memory_space, backend_name(), in_.target.path));
}

std::string CFamilyEmitter::storage_scope(const Decl& variable) const {
    if (function_)
        for (const auto& p : function_->params)
            if (p.get() == &variable) return role_ == Role::Device ? "" : "device";
    auto it = config_.memory_spaces.find(variable.memory_space);
    return it == config_.memory_spaces.end() ? "item" : it->second.string("scope");
}

const std::string* CFamilyEmitter::library_spelling(const Expr& call) const {
    if (!call.args.empty() && call.args[0]->kind == Expr::Kind::Var && call.args[0]->decl) {
        std::string scope = storage_scope(*call.args[0]->decl);
        auto it = config_.builtins.find(call.callee + "@" + scope);
        if (!scope.empty() && it != config_.builtins.end()) return &it->second;
    }
    auto it = config_.builtins.find(call.callee);
    return it == config_.builtins.end() ? nullptr : &it->second;
}

std::string CFamilyEmitter::qualifier_of(const std::string& space) const {
    auto it = config_.memory_spaces.find(space);
    if (it == config_.memory_spaces.end()) return "";
    std::string q = it->second.string("qualifier");
    return q.empty() ? q : q + " ";
}

void CFamilyEmitter::declaration(const Decl& d, bool with_value) {
    check_memory_space(d);
    std::string qualifier = qualifier_of(d.memory_space);
    const BasicDecl& first = d.forms.front();
    const Type& t = first.resolved_type;
    std::string name = ident(first.name);
    if (t.is_array()) {
        if (d.init) unsupported(d.init->location, "initialised local arrays");
        array_declaration(d, qualifier);
    } else {
        std::string init = d.init && with_value ? initialiser(d) : (t.record ? "{}" : "0");
        // A variable the kernel only writes (or only updates from itself) is
        // the user's to keep; not worth a warning either. Nor is a constant
        // that sizes a local array, whose size a backend may fold.
        bool folded_constant =
            sizes_arrays_.count(&d) && d.is_const && d.init && mcpl::checked_constant_int_value(*d.init);
        std::string unused = read_beyond_own_updates_.count(&d) && !folded_constant ? unused_prefix(d)
                                                                                   : unused_attribute();
        // A scalar of device memory declared in code is the running item's
        // own (each item runs the declaration), as private arrays are;
        // OpenCL C allows no `__global` variable at function scope.
        if (memory_scope(config_, d.memory_space) == "device") qualifier.clear();
        line(fmt::format("{}{}{}{} {} = {};", unused, qualifier, d.is_const && with_value ? "const " : "",
                         element_spelling(t), name, init));
    }
    // A view of an array is a pointer into its storage's address space
    // (`__local float*`), not a variable of that space (CUDA allows no
    // initialised `__shared__` variable).
    std::string alias_space = t.is_array() ? pointer_space_of(d) : qualifier;
    for (size_t i = 1; i < d.forms.size(); ++i) {
        const BasicDecl& alias = d.forms[i];
        line(fmt::format("{}{}{}{} {} = {};", unused_prefix(alias), alias_space, element_spelling(alias.resolved_type),
                         t.is_array() ? "*" : "", ident(alias.name), name));
    }
}

std::string CFamilyEmitter::initialiser(const Decl& d) {
    const Type& t = d.forms.front().resolved_type;
    std::string value = unwrap(converted(t, *d.init));
    bool reads_hidden = false;
    mcpl::for_each_var(*d.init, [&](const Expr& v) { reads_hidden |= !v.hardware && v.var.front().name == d.name(); });
    if (!reads_hidden) return value;
    std::string computed = "mcl_init_" + ident(d.name());
    line(fmt::format("const {} {} = {};", element_spelling(t), computed, value));
    return computed;
}

void CFamilyEmitter::initial_value(const Decl& d) {
    const BasicDecl& first = d.forms.front();
    line(fmt::format("{} = {};", ident(first.name), unwrap(converted(first.resolved_type, *d.init))));
}

std::string CFamilyEmitter::parameter(const Decl& d, Role role, bool) {
    const BasicDecl& form = d.forms.front();
    const Type& t = form.resolved_type;
    std::string el = element_spelling(t), name = ident(form.name);
    if (t.is_array()) {
        if (d.is_written) return el + "* " + name;
        return "const " + el + "* " + (may_restrict(d, role) ? "__restrict__ " : "") + name;
    }
    if (d.is_written) return el + (role == Role::Device && has_references() ? "& " : "* ") + name;
    if (t.record && role == Role::Device) return "const " + el + "& " + name;
    return el + " " + name;
}

std::string CFamilyEmitter::signature(const Function& f, Role role, bool definition) {
    return signature(f, role, definition,
                     role == Role::Kernel ? kernel_symbol(f)
                     : role == Role::Host ? host_identifier(f.name)
                                          : function_identifier(f));
}

std::string CFamilyEmitter::signature(const Function& f, Role role, bool definition, const std::string& name) {
    std::vector<std::string> params;
    for (const auto& p : f.params) params.push_back(parameter(*p, role, definition));
    if (role == Role::Kernel)
        for (const StorageParameter& storage : storage_parameters(f)) params.push_back(storage.spelling);
    return fmt::format("{} {}({})", element_spelling(f.resolved_return_type), name, fmt::join(params, ", "));
}

void CFamilyEmitter::note_uses(const Expr& e) {
    mcpl::for_each_var(e, [&](const Expr& v) {
        if (v.decl) used_.insert(v.decl);
        if (v.form) used_forms_.insert(v.form);
    });
}

void CFamilyEmitter::print_function(const Function& f, Role role, const std::function<std::string()>& head) {
    indent_ = 1;
    forget_uses();
    note_uses(*f.body);
    out_ += head() + " {\n";
    function_prologue(f, role);
    for (const auto& s : f.body->body) stmt(*s);
    out_ += "}\n";
}

void CFamilyEmitter::note_reads_beyond_own_updates(const Function& f) {
    mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
        bool update = s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step;
        const Decl* updated = update && s.target ? s.target->decl : nullptr;
        auto note = [&](const Expr& e) {
            mcpl::for_each_var(e, [&](const Expr& v) {
                if (v.decl && v.decl != updated) read_beyond_own_updates_.insert(v.decl);
            });
        };
        mcpl::for_each_own_expr(s, [&](const Expr& e) {
            if (&e != s.target.get() || !update) return note(e);
            for (const mcpl::VarPart& part : e.var)  // the target's indices are read
                for (const auto& group : part.indices)
                    for (const mcpl::ExprPtr& index : group) note(*index);
        });
    });
}

void CFamilyEmitter::note_uses(const Stmt& s) {
    for_each_printed_stmt(s, [&](const Stmt& inner) { note_own_uses(inner); });
}

void CFamilyEmitter::note_own_uses(const Stmt& s) {
    // An `as` view's extents are printed only where an index needs them
    // (`len` of `a as float[len * 2] flat` never is): left out here, a
    // variable used only there gets unused_attribute() at worst.
    if (s.kind == Stmt::Kind::As) {
        note_uses(*s.target);
        return;
    }
    mcpl::for_each_own_expr(s, [&](const Expr& e) { note_uses(e); });
    if (s.kind == Stmt::Kind::Decl && s.decl->forms.front().resolved_type.is_array())
        for (const mcpl::BasicDecl& form : s.decl->forms)
            for (const auto& group : form.type.dimensions)
                for (const mcpl::ExprPtr& extent : group)
                    mcpl::for_each_var(*extent, [&](const Expr& v) {
                        if (v.decl) sizes_arrays_.insert(v.decl);
                    });
}

void CFamilyEmitter::for_each_printed_stmt(const Stmt& s, const std::function<void(const Stmt&)>& visit) const {
    if (s.kind == Stmt::Kind::For && unrolls_in_source(s)) {
        for_each_printed_stmt(*s.loop_body, visit);
        return;
    }
    visit(s);
    mcpl::for_each_child_stmt(s, [&](const Stmt& child) { for_each_printed_stmt(child, visit); });
}

void CFamilyEmitter::begin_function(const Function& f, Role role) {
    pointer_scalars_.clear();
    return_type_ = f.resolved_return_type;
    function_ = &f;
    role_ = role;
    for (const auto& p : f.params) {
        check_memory_space(*p);
        const Type& t = p->forms.front().resolved_type;
        if (p->is_written && !t.is_array() && (role == Role::Kernel || !has_references()))
            pointer_scalars_.insert(p.get());
        for (size_t i = 1; i < p->forms.size(); ++i) {
            const BasicDecl& alias = p->forms[i];
            // A launch or function may use the parameter through some of its forms only.
            line(fmt::format("{}{}{}{} {} = {};", unused_attribute(), t.is_array() && role != Role::Host ? pointer_space_of(*p) : "",
                             t.is_array() ? (p->is_written ? "" : "const ") : "",
                             element_spelling(alias.resolved_type) + (t.is_array() ? "*" : ""), ident(alias.name),
                             ident(p->forms.front().name)));
        }
    }
}

std::string CFamilyEmitter::foreach_count(const Stmt& foreach_stmt) {
    const std::string& index = foreach_stmt.decl->name();
    bool hidden = false;
    mcpl::for_each_var(*foreach_stmt.count, [&](const Expr& v) { hidden |= v.var[0].name == index; });
    if (!hidden) return expr(*foreach_stmt.count);
    std::string copy = "mcl_count_" + ident(index);
    line(fmt::format("const int {} = {};", copy, unwrap(expr(*foreach_stmt.count))));
    return copy;
}

bool CFamilyEmitter::reject_return_in(const Stmt& foreach_stmt) {
    bool returns = false;
    mcpl::for_each_stmt(*foreach_stmt.loop_body, [&](const Stmt& inner) {
        if (inner.kind == Stmt::Kind::Return && !returns) {
            returns = true;
            diags_.error(inner.location, fmt::format("return statements inside a foreach are not supported by the "
                                                     "{} backend", backend_name()));
        }
    });
    return returns;
}

const ConfigEntry* CFamilyEmitter::par_group_entry(const Stmt& s) {
    auto it = config_.par_groups.find(s.name);
    if (it != config_.par_groups.end()) return &it->second;
    diags_.error(s.name_location, fmt::format("par_group '{}' has no entry in \"par_groups\" of backend '{}' in '{}'",
                                              s.name, backend_name(), in_.target.path));
    return nullptr;
}

bool CFamilyEmitter::unviewed_constant_array(const Decl& d) const {
    if (array_swaps_.viewed.count(&d) || !constant_elements(d)) return false;
    for (const auto& p : function_->params)
        if (p.get() == &d) return false;
    return true;
}

void CFamilyEmitter::array_swap(const Stmt& s) {
    if (auto refused = array_swaps_.refused.find(&s); refused != array_swaps_.refused.end()) {
        unsupported(s.location, refused->second);
        return;
    }
    if (!swaps_whole_arrays(s)) {
        tile_swap(s);
        return;
    }
    const Decl& a = *s.target->decl;
    std::string x = ident(a.forms.front().name), y = ident(s.value->decl->forms.front().name);
    if (swaps_elements(a) && swaps_elements(*s.value->decl)) {
        line(fmt::format("for (int mcl_k = 0; mcl_k < {0}; ++mcl_k) {{ {1} mcl_swap_tmp = {2}[mcl_k]; "
                         "{2}[mcl_k] = {3}[mcl_k]; {3}[mcl_k] = mcl_swap_tmp; }}",
                         std::max<int64_t>(1, constant_elements(a).value_or(1)),
                         element_spelling(s.target->type), x, y));
        return;
    }
    if (!redirects_arrays()) {
        unsupported(s.location, "swaps of parameters, of arrays whose size is not constant and of arrays that a "
                                "view names (only the elements of two arrays of the kernel's own can trade places)");
        return;
    }
    if (pointer_space_of(a) != pointer_space_of(*s.value->decl)) {  // a device function's variant
        auto spelled = [](std::string space) {
            while (!space.empty() && space.back() == ' ') space.pop_back();
            return space.empty() ? std::string("private") : space;
        };
        unsupported(s.location, fmt::format("swaps of arrays in two address spaces ('{}' and '{}' here)",
                                            spelled(pointer_space_of(a)), spelled(pointer_space_of(*s.value->decl))));
        return;
    }
    bool read_only_parameter = false;
    for (const auto& p : function_->params) read_only_parameter |= p.get() == &a && !a.is_written;
    std::string pointer = fmt::format("{}{}{}*", pointer_space_of(a), read_only_parameter ? "const " : "",
                                      element_spelling(s.target->type));
    line(fmt::format("{{ {} mcl_swap_tmp = {}; {} = {}; {} = mcl_swap_tmp; }}", pointer, x, x, y, y));
}

// The interpreter finds both tiles (or record fields) first, then copies
// their elements through a temporary; the two are either one storage or
// disjoint (tiles of one shape start at multiples of their size), so
// trading element by element is the same. Both places are taken once,
// before the loop: an index may read an element that the swap changes
// (`p[q[1][0]] <=> q[1]`).
void CFamilyEmitter::tile_swap(const Stmt& s) {
    auto [count, fits_int] = elements_named(*s.target);
    std::string element = element_spelling(s.target->type);
    auto pointer = [&](const Expr& e) { return fmt::format("{}{}*", pointer_space_of(*e.decl), element); };
    line(fmt::format("{{ {0} mcl_swap_a = {1}; {2} mcl_swap_b = {3}; for ({4} mcl_k = 0; mcl_k < {5}; ++mcl_k) {{ "
                     "{6} mcl_swap_tmp = mcl_swap_a[mcl_k]; mcl_swap_a[mcl_k] = mcl_swap_b[mcl_k]; mcl_swap_b[mcl_k] "
                     "= mcl_swap_tmp; }} }}",
                     pointer(*s.target), var(*s.target), pointer(*s.value), var(*s.value),
                     fits_int ? "int" : wide_int(), count, element));
}

std::pair<std::string, bool> CFamilyEmitter::elements_named(const Expr& e) {
    const VarPart* part = &e.var.front();
    const BasicDecl* form = e.form;
    for (size_t k = 1; k < e.var.size() && form; ++k) {
        const mcpl::RecordType* record = form->resolved_type.record;
        const Decl* field = record ? record->field(e.var[k].name) : nullptr;
        form = field ? &field->forms.back() : nullptr;
        part = &e.var[k];
    }
    if (!form) return {"0", true};  // not annotated (cannot happen in a checked program)
    size_t indexed = 0;
    for (const auto& group : part->indices) indexed += group.size();
    if (part == &e.var.front()) return extent_product(form->type, indexed);
    // A record field's extents are constants the checker folded.
    std::vector<int64_t> extents = mcpl::record_field_extents(*form);
    int64_t count = 1;
    for (size_t k = indexed; k < extents.size(); ++k) count *= extents[k];
    return {std::to_string(count), count <= INT_MAX};
}

void CFamilyEmitter::unsupported(SourceLocation loc, const std::string& what) {
    diags_.error(loc, fmt::format("{} are not supported by the {} backend", what, backend_name()));
}

}  // namespace mcl::backends
