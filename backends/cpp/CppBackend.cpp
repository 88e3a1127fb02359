#include "backends/cpp/CppBackend.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/cfamily/InProcessEmitter.h"

namespace mcl::backends {

namespace {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

// The largest local array kept on the stack, in elements (16 KiB of floats).
constexpr int64_t kMaxStackElements = 4096;

class CppGenerator : public InProcessEmitter {
public:
    CppGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : InProcessEmitter(input, config, diags, {"mcl_atomic_add"}) {}

private:
    std::string backend_name() const override { return "cpp"; }
    // Kernels are C++ functions the host runs, on its stack.
    bool allows_recursion() const override { return true; }

    std::string kernels_file() override {
        return in_process_kernels({"algorithm", "cmath", "cstddef", "memory"}, "",
                                  "// r += a as one indivisible step, for the configuration's atomic builtins\n"
                                  "template <typename T, typename U>\n"
                                  "inline void mcl_atomic_add(T& r, U a) {\n"
                                  "#pragma omp atomic\n"
                                  "    r += static_cast<T>(a);\n"
                                  "}\n\n");
    }

    void function_prologue(const Function& f, Role role) override {
        in_parallel_ = in_simd_ = false;
        InProcessEmitter::function_prologue(f, role);
    }

    // Local arrays live on the heap: their sizes may be parameters and large.
    // Small arrays of constant size (a thread's tile of accumulators, say)
    // live on the stack, where the C++ compiler can keep them in registers;
    // others on the heap: their sizes may be parameters and large.
    void array_declaration(const Decl& d, const std::string& qualifier) override {
        const BasicDecl& first = d.forms.front();
        std::string el = element_spelling(first.resolved_type), name = ident(first.name);
        if (auto elements = constant_elements(d); elements && *elements <= kMaxStackElements) {
            line(fmt::format("{}{}{} {}[{}] = {{}};", unused_prefix(d), qualifier, el, storage_name(d),
                             *elements ? *elements : 1));
            if (redirected(d)) line(fmt::format("{}* {} = {};", el, name, storage_name(d)));  // a swap redirects it
            return;
        }
        std::vector<std::string> extents;
        for (const Expr* e : all_extents(first.type)) extents.push_back("static_cast<std::size_t>(" + expr(*e) + ")");
        line(fmt::format("{}std::unique_ptr<{}[]> mcl_storage_{}(new {}[{}]());", qualifier, el, name, el,
                         fmt::join(extents, " * ")));
        line(fmt::format("[[maybe_unused]] {}* {} = mcl_storage_{}.get();", el, name, name));
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
        std::vector<std::string> counts;  // before the pragma, which the loops must follow
        for (const Stmt* loop : nest) counts.push_back(unwrap(foreach_count(*loop)));
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
            std::string head = fmt::format("for (int {} = 0; {} < {}; ++{})", index, index, counts[k], index);
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
    return generate_with<CppGenerator>(input, name(), diags);
}

}  // namespace mcl::backends
