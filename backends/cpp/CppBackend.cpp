#include "backends/cpp/CppBackend.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <functional>
#include <map>
#include <set>

#include <fmt/format.h>

#include "backends/Runtime.h"
#include "compiler/ast/AstWalk.h"

namespace mcl::backends {

namespace {

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

const std::set<std::string> kCppKeywords = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // names the generated code itself uses
    "std", "mcl", "kernels", "device", "mcl_atomic_add"};

// An MCPL name as a C++ identifier: keywords get a trailing underscore.
std::string ident(const std::string& name) { return kCppKeywords.count(name) ? name + "_" : name; }

std::string primitive_spelling(Primitive p) {
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

// The element type of `t` (its array groups dropped) in C++.
std::string element_spelling(const Type& t) {
    if (t.record) return ident(t.record->name);
    return primitive_spelling(t.primitive.value_or(Primitive::Void));
}

std::vector<const Expr*> all_extents(const TypeExpr& t) {
    std::vector<const Expr*> out;
    for (const auto& group : t.dimensions)
        for (const auto& extent : group) out.push_back(extent.get());
    return out;
}

// `s` without its outer parentheses when they enclose all of it (for
// conditions, which have their own).
std::string unwrap(const std::string& s) {
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return s;
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')' && --depth == 0 && i + 1 < s.size()) return s;
    }
    return s.substr(1, s.size() - 2);
}

// How a parameter is passed: kernels and their host functions take written
// scalars as pointers, device functions as references.
enum class Role { Host, Kernel, Device };

class Generator {
public:
    Generator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : in_(input), config_(config), diags_(diags), module_(ident(input.module.name)) {}

    std::vector<GeneratedFile> run() {
        kernels_ = module_kernels(in_.module);
        if (kernels_.empty()) {
            diags_.error(in_.module.location, fmt::format("module '{}' has no kernel to generate: it exports no "
                                                          "function and none has a foreach", in_.module.name));
            return {};
        }
        for (const Function* k : kernels_) collect_calls(*k);
        for (const Function* k : kernels_) collect_records(*k);
        for (const Function* f : device_functions_) collect_records(*f);

        std::string header = emit_header();
        std::string kernels = emit_kernels();
        std::string glue = emit_glue();
        if (diags_.error_count() != errors_at_start_) return {};
        return {{in_.module.name + ".h", header},
                {in_.module.name + "_kernels.cpp", kernels},
                {in_.module.name + ".cpp", glue},
                {"mcl_runtime.h", runtime_file("mcl_runtime.h")}};
    }

private:
    // --- what to emit --------------------------------------------------------

    void collect_calls(const Function& f) {
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            mcpl::for_each_own_expr(s, [&](const Expr& e) {
                mcpl::for_each_call(e, [&](const Expr& call) {
                    const Function* callee = call.function;
                    if (!callee || callee->builtin_body) return;
                    // A kernel called by another function is also emitted as
                    // a device function (its written scalars as references).
                    if (!seen_functions_.insert(callee).second) return;
                    device_functions_.push_back(callee);
                    collect_calls(*callee);
                });
            });
        });
    }

    void add_record(const RecordType* r) {
        if (!r || seen_records_.count(r)) return;
        seen_records_.insert(r);
        for (const auto& field : r->fields) add_record(field->forms.back().resolved_type.record);
        records_.push_back(r);  // after the records its fields use
    }

    void collect_records(const Function& f) {
        add_record(f.resolved_return_type.record);
        for (const auto& p : f.params) add_record(p->forms.front().resolved_type.record);
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            if (s.kind == Stmt::Kind::Decl && s.decl) add_record(s.decl->forms.front().resolved_type.record);
        });
    }

    // --- files ---------------------------------------------------------------

    std::string banner(const std::string& file, const std::string& what) const {
        return fmt::format("// {}: {} of MCPL module '{}' for '{}', generated by `mclc gen --backend cpp`.\n"
                           "// Do not edit: regenerate it.\n",
                           file, what, in_.module.name, in_.leaf.name);
    }

    std::string emit_header() {
        std::string out = banner(in_.module.name + ".h", "host interface");
        out += "#pragma once\n\nnamespace " + module_ + " {\n\n";
        for (const RecordType* r : records_) {
            out += "struct " + ident(r->name) + " {\n";
            for (const auto& field : r->fields) out += "    " + field_declaration(*field) + ";\n";
            out += "};\n\n";
        }
        for (const Function* k : kernels_) {
            out += fmt::format("// {}: parameters in MCPL order; arrays are row-major\n", k->name);
            out += signature(*k, Role::Host, false) + ";\n\n";
        }
        out += "}  // namespace " + module_ + "\n";
        return out;
    }

    std::string emit_glue() {
        std::string out = banner(in_.module.name + ".cpp", "host glue");
        out += "#include \"" + in_.module.name + ".h\"\n\n#include <exception>\n#include <string>\n\n"
               "#include \"mcl_runtime.h\"\n\n";
        out += "namespace " + module_ + "::kernels {\n";
        for (const Function* k : kernels_) out += signature(*k, Role::Kernel, false) + ";\n";
        out += "}  // namespace " + module_ + "::kernels\n\nnamespace " + module_ + " {\n";
        for (const Function* k : kernels_) {
            std::vector<std::string> args;
            for (const auto& p : k->params) args.push_back(ident(p->forms.front().name));
            out += "\n" + signature(*k, Role::Host, false) + " {\n";
            out += "    try {\n";
            out += fmt::format("        return kernels::{}({});\n", ident(k->name), fmt::join(args, ", "));
            out += "    } catch (const std::exception& e) {\n";
            out += fmt::format("        throw mcl::Error(std::string(\"{}::{} (cpp backend): \") + e.what());\n",
                               module_, ident(k->name));
            out += "    }\n}\n";
        }
        out += "\n}  // namespace " + module_ + "\n";
        return out;
    }

    std::string emit_kernels() {
        out_ = banner(in_.module.name + "_kernels.cpp", "kernels");
        out_ += "#include <algorithm>\n#include <cmath>\n#include <cstddef>\n#include <memory>\n#include <utility>\n\n";
        out_ += "#include \"" + in_.module.name + ".h\"\n\nnamespace " + module_ + "::kernels {\n\n";
        out_ += "// r += a as one indivisible step, for the configuration's atomic builtins\n"
                "template <typename T, typename U>\n"
                "inline void mcl_atomic_add(T& r, U a) {\n"
                "#pragma omp atomic\n"
                "    r += static_cast<T>(a);\n"
                "}\n\n";
        emit_constants();
        if (!device_functions_.empty()) {
            out_ += "namespace device {\n";
            for (const Function* f : device_functions_) out_ += signature(*f, Role::Device, false) + ";\n";
            for (const Function* f : device_functions_) {
                out_ += "\n";
                emit_function(*f, Role::Device);
            }
            out_ += "}  // namespace device\n\n";
        }
        for (const Function* k : kernels_) {
            emit_function(*k, Role::Kernel);
            out_ += "\n";
        }
        out_ += "}  // namespace " + module_ + "::kernels\n";
        return out_;
    }

    void emit_constants() {
        std::set<const mcpl::Module*> modules{&in_.module};
        for (const Function* f : device_functions_) modules.insert(f->module);
        std::map<std::string, const Decl*> names;
        bool any = false;
        for (const auto& m : in_.program.modules) {
            if (!modules.count(m.get())) continue;
            for (const auto& c : m->constants) {
                auto [it, fresh] = names.emplace(c->name(), c.get());
                if (!fresh) {
                    auto& d = diags_.error(c->location, fmt::format("the cpp backend needs distinct names for "
                                                                    "constants; '{}' is defined twice",
                                                                    c->name()));
                    DiagnosticEngine::add_note(d, it->second->location, "other definition is here");
                    continue;
                }
                const Type& t = c->forms.front().resolved_type;
                if (t.is_array()) {
                    unsupported(c->location, "constant arrays");
                    continue;
                }
                out_ += fmt::format("[[maybe_unused]] const {} {} = {};\n", element_spelling(t),
                                    ident(c->name()), c->init ? expr(*c->init) : "{}");
                any = true;
            }
        }
        if (any) out_ += "\n";
    }

    // --- declarations ----------------------------------------------------------

    std::string field_declaration(const Decl& field) {
        const BasicDecl& form = field.forms.front();
        std::string s = element_spelling(form.resolved_type) + " " + ident(form.name);
        if (form.resolved_type.is_array()) {
            int64_t size = 1;
            for (const Expr* e : all_extents(form.type)) {
                if (e->kind != Expr::Kind::IntLiteral) {
                    unsupported(e->location, "record fields whose array sizes are not integer literals");
                    return s;
                }
                size *= e->int_value;
            }
            s += fmt::format("[{}]", size);
        }
        return s;
    }

    std::string parameter(const Decl& d, Role role, bool definition) {
        const BasicDecl& form = d.forms.front();
        const Type& t = form.resolved_type;
        std::string el = element_spelling(t), name = ident(form.name);
        std::string attr = definition ? "[[maybe_unused]] " : "";
        if (t.is_array()) {
            if (d.is_written) return attr + el + "* " + name;
            return attr + "const " + el + "* " + (role == Role::Host ? "" : "__restrict__ ") + name;
        }
        if (d.is_written) return attr + el + (role == Role::Device ? "& " : "* ") + name;
        if (t.record && role == Role::Device) return attr + "const " + el + "& " + name;
        return attr + el + " " + name;
    }

    std::string signature(const Function& f, Role role, bool definition) {
        std::vector<std::string> params;
        for (const auto& p : f.params) params.push_back(parameter(*p, role, definition));
        return fmt::format("{} {}({})", element_spelling(f.resolved_return_type), ident(f.name),
                           fmt::join(params, ", "));
    }

    // --- functions and statements ----------------------------------------------

    void emit_function(const Function& f, Role role) {
        pointer_scalars_.clear();
        in_parallel_ = in_simd_ = false;
        indent_ = 1;
        out_ += signature(f, role, true) + " {\n";
        for (const auto& p : f.params) {
            check_memory_space(*p);
            const Type& t = p->forms.front().resolved_type;
            if (role == Role::Kernel && p->is_written && !t.is_array()) pointer_scalars_.insert(p.get());
            for (size_t i = 1; i < p->forms.size(); ++i)
                line(fmt::format("[[maybe_unused]] auto {} = {};", ident(p->forms[i].name),
                                 ident(p->forms.front().name)));
        }
        for (const auto& s : f.body->body) stmt(*s);
        out_ += "}\n";
    }

    void line(const std::string& text) { out_ += std::string(4 * static_cast<size_t>(indent_), ' ') + text + "\n"; }

    // A statement as the body of if/for: always a braced block.
    void block(const Stmt& s) {
        out_ += " {\n";
        ++indent_;
        if (s.kind == Stmt::Kind::Block)
            for (const auto& child : s.body) stmt(*child);
        else
            stmt(s);
        --indent_;
        out_ += std::string(4 * static_cast<size_t>(indent_), ' ') + "}";
    }

    void stmt(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Block:
            line("{");
            ++indent_;
            for (const auto& child : s.body) stmt(*child);
            --indent_;
            line("}");
            return;
        case Stmt::Kind::Decl: declaration(*s.decl); return;
        case Stmt::Kind::Assign:
        case Stmt::Kind::Step: line(simple(s) + ";"); return;
        case Stmt::Kind::Swap: line(fmt::format("std::swap({}, {});", expr(*s.target), expr(*s.value))); return;
        case Stmt::Kind::Call: line(expr(*s.call) + ";"); return;
        case Stmt::Kind::Return: line(s.value ? "return " + unwrap(expr(*s.value)) + ";" : "return;"); return;
        case Stmt::Kind::If: {
            out_ += std::string(4 * static_cast<size_t>(indent_), ' ') + "if (" + unwrap(expr(*s.condition)) + ")";
            block(*s.then_branch);
            if (s.else_branch) {
                out_ += " else";
                block(*s.else_branch);
            }
            out_ += "\n";
            return;
        }
        case Stmt::Kind::For: {
            const Decl& d = *s.decl;
            std::string init = element_spelling(d.forms.front().resolved_type) + " " + ident(d.name()) +
                               (d.init ? " = " + expr(*d.init) : "{}");
            out_ += std::string(4 * static_cast<size_t>(indent_), ' ') +
                    fmt::format("for ({}; {}; {})", init, unwrap(expr(*s.condition)), simple(*s.step));
            block(*s.loop_body);
            out_ += "\n";
            return;
        }
        case Stmt::Kind::Foreach: foreach(s); return;
        case Stmt::Kind::Barrier:
            diags_.error(s.location, "barriers are not supported by the cpp backend");
            return;
        case Stmt::Kind::As: {
            const Expr& target = *s.target;
            if (!target.form || !target.form->resolved_type.is_array()) {
                unsupported(s.location, "'as' views of scalars");
                return;
            }
            for (const BasicDecl& view : s.views)
                line(fmt::format("[[maybe_unused]] auto {} = {};", ident(view.name), expr(target)));
            return;
        }
        }
    }

    // An assignment or step without its semicolon (also a for loop's step).
    std::string simple(const Stmt& s) {
        if (s.kind == Stmt::Kind::Step) return expr(*s.target) + s.op;
        return expr(*s.target) + " " + s.op + " " + unwrap(expr(*s.value));
    }

    void check_memory_space(const Decl& d) {
        if (d.memory_space.empty() || config_.memory_spaces.count(d.memory_space)) return;
        diags_.error(d.location, fmt::format("memory space '{}' has no entry in \"memory_spaces\" of backend 'cpp' "
                                             "in '{}'", d.memory_space, in_.target.path));
    }

    void declaration(const Decl& d) {
        check_memory_space(d);
        std::string qualifier;
        if (auto it = config_.memory_spaces.find(d.memory_space); it != config_.memory_spaces.end()) {
            qualifier = it->second.string("qualifier");
            if (!qualifier.empty()) qualifier += " ";
        }
        const BasicDecl& first = d.forms.front();
        const Type& t = first.resolved_type;
        std::string el = element_spelling(t), name = ident(first.name);
        if (t.is_array()) {
            if (d.init) unsupported(d.init->location, "initialised local arrays");
            std::vector<std::string> extents;
            for (const Expr* e : all_extents(first.type)) extents.push_back("static_cast<std::size_t>(" + expr(*e) + ")");
            line(fmt::format("{}std::unique_ptr<{}[]> {}_storage(new {}[{}]());", qualifier, el, name, el,
                             fmt::join(extents, " * ")));
            line(fmt::format("[[maybe_unused]] {}* {} = {}_storage.get();", el, name, name));
        } else {
            line(fmt::format("[[maybe_unused]] {}{}{} {}{};", qualifier, d.is_const ? "const " : "", el, name,
                             d.init ? " = " + unwrap(expr(*d.init)) : "{}"));
        }
        for (size_t i = 1; i < d.forms.size(); ++i)
            line(fmt::format("[[maybe_unused]] auto {} = {};", ident(d.forms[i].name), name));
    }

    void foreach(const Stmt& s) {
        auto it = config_.par_groups.find(s.name);
        if (it == config_.par_groups.end()) {
            diags_.error(s.name_location, fmt::format("par_group '{}' has no entry in \"par_groups\" of backend "
                                                      "'cpp' in '{}'", s.name, in_.target.path));
            return;
        }
        std::string map = it->second.string("map");
        if (map != "parallel_for" && map != "simd_loop" && map != "loop") {
            auto& d = diags_.error(s.name_location,
                                   fmt::format("par_group '{}' has no valid \"map\" for backend 'cpp' in '{}'",
                                               s.name, in_.target.path));
            DiagnosticEngine::add_note(d, it->second.location,
                                       "\"map\" must be \"parallel_for\", \"simd_loop\" or \"loop\"");
            return;
        }
        // A unit's `return` would leave the whole loop (and OpenMP forbids it).
        bool returns = false;
        mcpl::for_each_stmt(*s.loop_body, [&](const Stmt& inner) {
            if (inner.kind == Stmt::Kind::Return && !returns) {
                returns = true;
                diags_.error(inner.location, "return statements inside a foreach are not supported by the cpp "
                                             "backend");
            }
        });
        if (returns) return;
        // A perfect nest of loops over the same par_group collapses.
        std::vector<const Stmt*> nest{&s};
        for (;;) {
            const Stmt* body = nest.back()->loop_body.get();
            if (body->kind == Stmt::Kind::Block && body->body.size() == 1) body = body->body.front().get();
            if (body->kind != Stmt::Kind::Foreach || body->name != s.name) break;
            nest.push_back(body);
        }
        std::string collapse = nest.size() > 1 ? fmt::format(" collapse({})", nest.size()) : "";
        bool was_parallel = in_parallel_, was_simd = in_simd_;
        if (map == "parallel_for" && !in_parallel_) {
            line("#pragma omp parallel for" + collapse);
            in_parallel_ = true;
        } else if (map == "simd_loop" && !in_simd_) {
            line("#pragma omp simd" + collapse);
            in_simd_ = true;
        }
        for (size_t k = 0; k < nest.size(); ++k) {
            const Stmt& loop = *nest[k];
            std::string index = ident(loop.decl->name());
            std::string head = fmt::format("for (int {} = 0; {} < {}; ++{})", index, index, expr(*loop.count), index);
            if (k + 1 < nest.size()) {
                line(head);
                ++indent_;
            } else {
                out_ += std::string(4 * static_cast<size_t>(indent_), ' ') + head;
                block(*loop.loop_body);
                out_ += "\n";
            }
        }
        indent_ -= static_cast<int>(nest.size()) - 1;
        in_parallel_ = was_parallel;
        in_simd_ = was_simd;
    }

    // --- expressions -------------------------------------------------------------

    std::string expr(const Expr& e) {
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
            if (e.op == "^")
                return fmt::format("static_cast<{}>(std::pow({}, {}))", element_spelling(e.type), expr(*e.args[0]),
                                   expr(*e.args[1]));
            return "(" + expr(*e.args[0]) + " " + e.op + " " + expr(*e.args[1]) + ")";
        }
        return "";
    }

    static std::string float_literal(const Expr& e) {
        std::string s = e.spelling.empty() ? fmt::format("{}", e.float_value) : e.spelling;
        while (!s.empty() && (s.back() == 'f' || s.back() == 'F')) s.pop_back();
        if (s.find_first_of(".eEnN") == std::string::npos) s += ".0";
        bool is_double = e.type.primitive == Primitive::Double && !e.type.is_array();
        return is_double ? s : s + "f";
    }

    // Row-major linearisation of `part`'s indices over the extents of `shape`.
    std::string indexed(std::string base, const VarPart& part, const TypeExpr& shape) {
        std::vector<const Expr*> extents = all_extents(shape);
        std::vector<const Expr*> indices;
        for (const auto& group : part.indices)
            for (const auto& i : group) indices.push_back(i.get());
        if (indices.empty()) return base;
        std::string lin = "(" + expr(*indices[0]) + ")";
        for (size_t k = 1; k < indices.size(); ++k) {
            if (k >= 2) lin = "(" + lin + ")";
            lin += " * (" + expr(*extents[k]) + ") + (" + expr(*indices[k]) + ")";
        }
        if (indices.size() == extents.size()) return base + "[" + lin + "]";
        // A tile or row: a pointer to its first element.
        std::vector<std::string> rest;
        for (size_t k = indices.size(); k < extents.size(); ++k) rest.push_back("(" + expr(*extents[k]) + ")");
        if (indices.size() >= 2) lin = "(" + lin + ")";
        return fmt::format("({} + {} * {})", base, lin, fmt::join(rest, " * "));
    }

    std::string var(const Expr& e) {
        if (e.hardware) {
            return fmt::format("{} /* {}.{} */", e.hardware->value, e.hardware->description,
                               fmt::join(e.hardware->path, "."));
        }
        const VarPart& head = e.var.front();
        std::string s = ident(head.name);
        if (!e.form) return s;  // not annotated (cannot happen in a checked program)
        Type t = e.form->resolved_type;
        if (!t.is_array() && pointer_scalars_.count(e.decl)) s = "(*" + s + ")";
        s = indexed(s, head, e.form->type);
        for (size_t k = 1; k < e.var.size(); ++k) {
            const VarPart& part = e.var[k];
            const Decl* field = nullptr;
            if (t.record)
                for (const auto& f : t.record->fields)
                    if (f->name() == part.name) field = f.get();
            if (!field) return s + "." + ident(part.name);
            s = indexed(s + "." + ident(part.name), part, field->forms.back().type);
            t = field->forms.back().resolved_type;
        }
        return s;
    }

    std::string call(const Expr& e) {
        std::vector<std::string> args;
        for (const auto& a : e.args) args.push_back(expr(*a));
        if (!e.function) {  // a builtin of the language
            const std::string& c = e.callee;
            if (c == "toFloat") return "static_cast<float>(" + args[0] + ")";
            if (c == "toDouble") return "static_cast<double>(" + args[0] + ")";
            if (c == "toInt") return "static_cast<int>(" + args[0] + ")";
            if (c == "divide_up") return fmt::format("((({}) + ({}) - 1) / ({}))", args[0], args[1], args[1]);
            if (c == "min" || c == "max")
                return fmt::format("std::{}<{}>({}, {})", c, element_spelling(e.type), args[0], args[1]);
            unsupported(e.location, fmt::format("the builtin '{}'", c));
            return c;
        }
        if (e.function->builtin_body) {
            auto it = config_.builtins.find(e.callee);
            if (it == config_.builtins.end()) {
                diags_.error(e.location, fmt::format("library function '{}' has no spelling in \"builtins\" of "
                                                     "backend 'cpp' in '{}'", e.callee, in_.target.path));
                return e.callee;
            }
            const std::string& spelling = it->second;
            if (spelling.find('$') == std::string::npos)
                return fmt::format("{}({})", spelling, fmt::join(args, ", "));
            std::string out;
            for (size_t i = 0; i < spelling.size(); ++i) {
                if (spelling[i] == '$' && i + 1 < spelling.size() && std::isdigit(static_cast<unsigned char>(spelling[i + 1]))) {
                    size_t n = static_cast<size_t>(spelling[i + 1] - '0');
                    if (n < args.size()) out += "(" + args[n] + ")";
                    ++i;
                } else {
                    out += spelling[i];
                }
            }
            return out;
        }
        return fmt::format("device::{}({})", ident(e.function->name), fmt::join(args, ", "));
    }

    void unsupported(SourceLocation loc, const std::string& what) {
        diags_.error(loc, fmt::format("{} are not supported by the cpp backend", what));
    }

    const GenerationInput& in_;
    const BackendConfig& config_;
    DiagnosticEngine& diags_;
    size_t errors_at_start_ = diags_.error_count();
    std::string module_;

    std::vector<const Function*> kernels_;
    std::vector<const Function*> device_functions_;
    std::set<const Function*> seen_functions_;
    std::vector<const RecordType*> records_;
    std::set<const RecordType*> seen_records_;

    // per function
    std::string out_;
    int indent_ = 0;
    std::set<const Decl*> pointer_scalars_;  // a kernel's written scalars, passed as pointers
    bool in_parallel_ = false;
    bool in_simd_ = false;
};

}  // namespace

std::vector<GeneratedFile> CppBackend::generate(const GenerationInput& input, DiagnosticEngine& diags) const {
    const BackendConfig* config = input.target.backend(name());
    if (!config) {
        diags.error(SourceLocation{input.target.file, 0, 0},
                    fmt::format("target '{}' has no configuration for backend 'cpp'", input.leaf.name));
        return {};
    }
    return Generator(input, *config, diags).run();
}

}  // namespace mcl::backends
