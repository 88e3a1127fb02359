#include "backends/cpp/CppBackend.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "backends/Runtime.h"
#include "backends/cfamily/CFamilyEmitter.h"
#include "compiler/ast/AstWalk.h"

namespace mcl::backends {

namespace {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;
using mcpl::Type;

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

class CppGenerator : public CFamilyEmitter {
public:
    CppGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : CFamilyEmitter(input, config, diags, kCppKeywords) {}

    std::vector<GeneratedFile> run() {
        if (!collect()) return {};
        std::string header = emit_header();
        std::string kernels = emit_kernels();
        std::string glue = emit_glue();
        if (generation_failed()) return {};
        return {{in_.module.name + ".h", header},
                {in_.module.name + "_kernels.cpp", kernels},
                {in_.module.name + ".cpp", glue},
                {"mcl_runtime.h", runtime_file("mcl_runtime.h")}};
    }

private:
    std::string backend_name() const override { return "cpp"; }

    std::string emit_header() {
        std::string out = banner(in_.module.name + ".h", "host interface");
        out += "#pragma once\n\nnamespace " + module_ + " {\n\n" + record_definitions();
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
        out_ += "#include <algorithm>\n#include <cmath>\n#include <cstddef>\n#include <memory>\n\n";
        out_ += "#include \"" + in_.module.name + ".h\"\n\nnamespace " + module_ + "::kernels {\n\n";
        out_ += "// r += a as one indivisible step, for the configuration's atomic builtins\n"
                "template <typename T, typename U>\n"
                "inline void mcl_atomic_add(T& r, U a) {\n"
                "#pragma omp atomic\n"
                "    r += static_cast<T>(a);\n"
                "}\n\n";
        out_ += constant_definitions("[[maybe_unused]] const");
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

    void emit_function(const Function& f, Role role) {
        in_parallel_ = in_simd_ = false;
        indent_ = 1;
        out_ += signature(f, role, true) + " {\n";
        begin_function(f, role);
        for (const auto& s : f.body->body) stmt(*s);
        out_ += "}\n";
    }

    std::string parameter(const Decl& d, Role role, bool definition) override {
        return (definition ? "[[maybe_unused]] " : "") + CFamilyEmitter::parameter(d, role, definition);
    }

    std::string device_call(const Function& callee, const std::vector<std::string>& args) override {
        return fmt::format("device::{}({})", ident(callee.name), fmt::join(args, ", "));
    }

    std::string min_max(const std::string& which, const Type& type, const std::string& a,
                        const std::string& b) override {
        return fmt::format("std::{}<{}>({}, {})", which, element_spelling(type), a, b);
    }

    std::string power(const Type& type, const std::string& a, const std::string& b) override {
        return fmt::format("(({})std::pow({}, {}))", element_spelling(type), a, b);
    }

    // Local arrays live on the heap: their sizes may be parameters and large.
    void array_declaration(const Decl& d, const std::string& qualifier) override {
        const BasicDecl& first = d.forms.front();
        std::string el = element_spelling(first.resolved_type), name = ident(first.name);
        std::vector<std::string> extents;
        for (const Expr* e : all_extents(first.type)) extents.push_back("static_cast<std::size_t>(" + expr(*e) + ")");
        line(fmt::format("{}std::unique_ptr<{}[]> {}_storage(new {}[{}]());", qualifier, el, name, el,
                         fmt::join(extents, " * ")));
        line(fmt::format("[[maybe_unused]] {}* {} = {}_storage.get();", el, name, name));
    }

    void foreach(const Stmt& s) override {
        const ConfigEntry* entry = par_group_entry(s);
        if (!entry) return;
        std::string map = entry->string("map");
        if (map != "parallel_for" && map != "simd_loop" && map != "loop") {
            auto& d = diags_.error(s.name_location,
                                   fmt::format("par_group '{}' has no valid \"map\" for backend 'cpp' in '{}'",
                                               s.name, in_.target.path));
            DiagnosticEngine::add_note(d, entry->location,
                                       "\"map\" must be \"parallel_for\", \"simd_loop\" or \"loop\"");
            return;
        }
        // A unit's `return` would leave the whole loop (and OpenMP forbids it).
        if (reject_return_in(s)) return;
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
            std::string head = fmt::format("for (int {} = 0; {} < {}; ++{})", index, index, unwrap(expr(*loop.count)),
                                           index);
            if (k + 1 < nest.size()) {
                line(head);
                ++indent_;
            } else {
                out_ += indentation() + head;
                block(*loop.loop_body);
                out_ += "\n";
            }
        }
        indent_ -= static_cast<int>(nest.size()) - 1;
        in_parallel_ = was_parallel;
        in_simd_ = was_simd;
    }

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
    return CppGenerator(input, *config, diags).run();
}

}  // namespace mcl::backends
