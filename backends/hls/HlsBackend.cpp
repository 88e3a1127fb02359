#include "backends/hls/HlsBackend.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "backends/cfamily/InProcessEmitter.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/CheckLimits.h"

namespace mcl::backends {

namespace {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

class HlsGenerator : public InProcessEmitter {
public:
    HlsGenerator(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags)
        : InProcessEmitter(input, config, diags, {"MCL_HLS"}) {}

private:
    // How one foreach is emitted.
    struct Loop {
        bool unroll_wanted = false;         // configured "unroll"
        bool unroll = false;                // and it can be
        std::optional<int64_t> trip_count;  // when constant
        std::string pragma;                 // "" for none
        std::string comment;                // why it is not mapped as configured
    };

    std::string backend_name() const override { return "hls"; }
    // A circuit's memories are wired to the loops that use them: HLS tools
    // synthesise no pointer that a swap could redirect from one to another,
    // so two arrays of the kernel's own trade their elements instead.
    bool redirects_arrays() const override { return false; }
    bool swaps_elements(const Decl& d) const override { return unviewed_constant_array(d); }

    std::string linkage(Role role) const override { return role == Role::Kernel ? "extern \"C\" " : ""; }

    // C has one namespace: `<module>_<kernel>` keeps the top functions of
    // modules with kernels of the same name apart in one program.
    std::string kernel_symbol(const Function& k) const override { return module_ + "_" + ident(k.name); }

    std::string glue_note() const override {
        return "// C simulation: each host function calls the kernel's top function in this\n"
               "// process. On the card, the XRT runtime would instead load the xclbin that\n"
               "// v++ builds from " + in_.module.name + "_kernels.cpp and run the kernel there.\n";
    }

    // The backend-specific keys: "loop" of each par_group, "partition" of
    // each memory space.
    bool valid_config() override {
        bool valid = true;
        auto check = [&](const std::string& what, const std::string& name, const ConfigEntry& entry,
                         const std::string& key, const std::set<std::string>& values, bool may_be_absent) {
            if (may_be_absent && !entry.properties.contains(key)) return;
            std::string value = entry.string(key);
            if (values.count(value)) return;
            valid = false;
            auto& d = diags_.error(entry.location, fmt::format("{} '{}' has no valid \"{}\" for backend 'hls' in '{}'",
                                                               what, name, key, in_.target.path));
            DiagnosticEngine::add_note(d, entry.location,
                                       fmt::format("\"{}\" must be \"{}\"", key, fmt::join(values, "\" or \"")));
        };
        for (const auto& [name, entry] : config_.par_groups)
            check("par_group", name, entry, "loop", {"pipeline", "unroll"}, false);
        for (const auto& [name, entry] : config_.memory_spaces)
            check("memory space", name, entry, "partition", {"complete", "cyclic"}, true);
        return valid;
    }

    std::string kernels_file() override {
        return in_process_kernels(
            {"algorithm", "cmath"},
            "// HLS pragmas: in effect when Vitis HLS synthesises the kernels, nothing in C\n"
            "// simulation (where g++ would warn about pragmas it does not know)\n"
            "#ifdef __SYNTHESIS__\n#define MCL_HLS(x) _Pragma(#x)\n#else\n#define MCL_HLS(x)\n#endif\n\n",
            "");
    }

    // A kernel's ports, then the mapping of the function's loops and arrays.
    void function_prologue(const Function& f, Role role) override {
        storage_arrays_.clear();
        circuit_use_.clear();
        if (role == Role::Kernel) {
            for (const auto& p : f.params) {
                bool port = p->is_written || p->forms.front().resolved_type.is_array();
                line(fmt::format("MCL_HLS(HLS INTERFACE {} port={}{})", port ? "m_axi" : "s_axilite",
                                 ident(p->forms.front().name), port ? " offset=slave bundle=gmem" : ""));
            }
            for (const Decl* d : storage_arrays(f)) {
                line(fmt::format("MCL_HLS(HLS INTERFACE m_axi port={} offset=slave bundle=gmem)",
                                 ident(d->forms.front().name)));
                storage_arrays_.insert(d);
            }
            line("MCL_HLS(HLS INTERFACE s_axilite port=return)");
        }
        InProcessEmitter::function_prologue(f, role);
        plan(f);
    }

    // A kernel's local arrays whose size is not constant, outside its
    // foreach loops, in a memory space of scope "device" (off the chip),
    // with extents computed from its int parameters: they live in device
    // memory that the host allocates for each call and passes as further
    // m_axi ports (the GPU backends' scratch arrays). Those whose name
    // another of them or a parameter has keep the error of
    // array_declaration.
    std::vector<const Decl*> storage_arrays(const Function& k) const {
        std::set<std::string> names;
        std::set<const Decl*> parameters;
        for (const auto& p : k.params) {
            names.insert(p->forms.front().name);
            parameters.insert(p.get());
        }
        std::vector<const Decl*> found;
        std::function<void(const Stmt&)> visit = [&](const Stmt& s) {
            if (s.kind == Stmt::Kind::Foreach) return;
            if (s.kind == Stmt::Kind::Decl && s.decl->forms.front().resolved_type.is_array() &&
                memory_scope(config_, s.decl->memory_space) == "device") {
                const BasicDecl& first = s.decl->forms.front();
                bool constant = true, from_parameters = true;
                for (const Expr* e : all_extents(first.type)) {
                    constant = constant && mcpl::checked_constant_int_value(*e).has_value();
                    mcpl::for_each_var(*e, [&](const Expr& v) {
                        from_parameters = from_parameters && v.decl && parameters.count(v.decl) &&
                                          !v.decl->forms.front().resolved_type.is_array();
                    });
                }
                if (!constant && from_parameters && names.insert(first.name).second) found.push_back(s.decl.get());
            }
            mcpl::for_each_child_stmt(s, visit);
        };
        visit(*k.body);
        return found;
    }

    std::vector<StorageParameter> storage_parameters(const Function& k) override {
        std::vector<StorageParameter> out;
        for (const Decl* d : storage_arrays(k)) {
            const BasicDecl& first = d->forms.front();
            std::string element = element_spelling(first.resolved_type);
            out.push_back({fmt::format("{}* {}", element, ident(first.name)), element, element_count(first.type)});
        }
        return out;
    }

    // --- the mapping of a function's loops and local arrays ------------------------

    // The first loop inside `body` that stays a loop (is not unrolled), or nullptr.
    const Stmt* first_rolled_loop(const Stmt& body) const {
        const Stmt* found = nullptr;
        mcpl::for_each_stmt(body, [&](const Stmt& s) {
            if (found) return;
            if (s.kind == Stmt::Kind::For) found = &s;
            if (s.kind == Stmt::Kind::Foreach) {
                auto it = loops_.find(&s);
                if (it == loops_.end() || !it->second.unroll) found = &s;
            }
        });
        return found;
    }

    void plan(const Function& f) {
        loops_.clear();
        partitions_.clear();
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            if (s.kind != Stmt::Kind::Foreach) return;
            const ConfigEntry* entry = par_group_entry(s);
            if (!entry) return;
            Loop loop;
            loop.trip_count = mcpl::checked_constant_int_value(*s.count);
            loop.unroll_wanted = entry->string("loop") == "unroll";
            loop.unroll = loop.unroll_wanted && loop.trip_count;
            loops_[&s] = loop;
        });
        for (auto& [s, loop] : loops_) {
            std::string not_unrolled = loop.unroll_wanted && !loop.unroll ? "UNROLL needs a constant trip count" : "";
            if (loop.unroll) {
                loop.pragma = "HLS UNROLL";
            } else if (const Stmt* inner = first_rolled_loop(*s->loop_body)) {
                loop.comment = fmt::format("{}: {}PIPELINE would unroll the loop over '{}' inside: HLS pipelines "
                                           "that loop instead", s->name,
                                           not_unrolled.empty() ? "" : not_unrolled + " and ", inner->decl->name());
            } else {
                loop.pragma = "HLS PIPELINE II=1";
                if (!not_unrolled.empty()) loop.comment = s->name + ": " + not_unrolled + ": pipelined instead";
            }
        }
        // Which local arrays an unrolled loop's index (or a value computed
        // from it) selects elements of, and that loop's trip count.
        std::map<const Decl*, int64_t> lanes;
        std::set<const Decl*> local_arrays;
        auto lane_count = [&](const Expr& e) {
            int64_t count = 0;
            mcpl::for_each_var(e, [&](const Expr& v) {
                auto it = lanes.find(v.decl);
                if (it != lanes.end()) count = std::max(count, it->second);
            });
            return count;
        };
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            auto loop = loops_.find(&s);
            if (loop != loops_.end() && loop->second.unroll) lanes[s.decl.get()] = *loop->second.trip_count;
            if (s.kind == Stmt::Kind::Decl) {
                if (s.decl->forms.front().resolved_type.is_array()) local_arrays.insert(s.decl.get());
                int64_t count = s.decl->init ? lane_count(*s.decl->init) : 0;
                if (count > 0) lanes[s.decl.get()] = count;
            }
            mcpl::for_each_own_expr(s, [&](const Expr& e) {
                mcpl::for_each_var(e, [&](const Expr& v) {
                    if (!local_arrays.count(v.decl) || !v.form) return;
                    // Lanes that select elements `stride` apart hit distinct
                    // banks of a cyclic partition by lanes * stride.
                    std::vector<const Expr*> extents = all_extents(v.form->type);
                    size_t position = 0;
                    for (const auto& group : v.var.front().indices)
                        for (const auto& index : group) {
                            ++position;
                            int64_t stride = 1;
                            for (size_t later = position; later < extents.size(); ++later)
                                stride *= mcpl::checked_constant_int_value(*extents[later]).value_or(1);
                            int64_t& factor = partitions_[v.decl];
                            factor = std::max(factor, lane_count(*index) * stride);
                        }
                });
            });
        });
    }

    // --- what differs from the other C-family backends -----------------------------

    void barrier(const Stmt& s) override {
        diags_.error(s.location, "barriers are not supported by the hls backend: the units of a pipeline are "
                                 "iterations of sequential C loops, which cannot wait for each other");
    }

    // A C array of constant size, zeroed, partitioned as its memory space
    // says; a storage array is zeroed where it is declared.
    void array_declaration(const Decl& d, const std::string& qualifier) override {
        const BasicDecl& first = d.forms.front();
        if (storage_arrays_.count(&d)) {
            line(fmt::format("std::fill_n({}, {}, {}{{}});", ident(first.name), element_count(first.type),
                             element_spelling(first.resolved_type)));
            return;
        }
        int64_t size = 1;
        for (const Expr* e : all_extents(first.type)) {
            std::optional<int64_t> extent = mcpl::checked_constant_int_value(*e);
            if (!extent) {
                unsupported(e->location, fmt::format("local arrays in memory space '{}' whose size is not a "
                                                     "constant expression",
                                                     d.memory_space));
                return;
            }
            size *= *extent;
        }
        if (size <= 0) {
            unsupported(d.location, "local arrays without elements");
            return;
        }
        if (!fits_the_circuit(d, size)) return;
        std::string name = ident(first.name);
        line(fmt::format("{}{}{} {}[{}] = {{}};", unused_prefix(d), qualifier, element_spelling(first.resolved_type), name,
                         size));
        auto space = config_.memory_spaces.find(d.memory_space);
        std::string partition = space == config_.memory_spaces.end() ? "" : space->second.string("partition");
        auto factor = partitions_.find(&d);
        bool lanes_select = factor != partitions_.end() && factor->second > 1;
        if (partition == "complete" || (partition == "cyclic" && lanes_select && factor->second >= size)) {
            line(fmt::format("MCL_HLS(HLS ARRAY_PARTITION variable={} complete dim=1)", name));
        } else if (partition == "cyclic" && lanes_select) {
            line(fmt::format("MCL_HLS(HLS ARRAY_PARTITION variable={} cyclic factor={} dim=1)", name,
                             factor->second));
        }
    }

    // check counts the arrays of two launches of a kernel apart, as a GPU
    // runs them one after the other (CheckLimits); here every launch is a
    // loop of one circuit, whose arrays all take the memory at once.
    bool fits_the_circuit(const Decl& d, int64_t elements) {
        if (d.memory_space.empty()) return true;
        std::optional<mcpl::SpaceCapacity> capacity = mcpl::space_capacity(in_.leaf, d.memory_space);
        if (!capacity) return true;
        CircuitUse& use = circuit_use_[d.memory_space];
        if (use.reported) return false;
        int64_t bytes = 0;
        if (__builtin_mul_overflow(elements, mcpl::element_byte_size(d.forms.front().resolved_type), &bytes) ||
            __builtin_add_overflow(use.bytes, bytes, &use.bytes))
            use.bytes = std::numeric_limits<int64_t>::max();
        if (use.bytes <= capacity->bytes) return true;
        use.reported = true;
        diags_.error(d.forms.front().location,
                     mcpl::past_capacity_message(d.forms.front().name, d.memory_space,
                                                 fmt::format("{} bytes", use.bytes), in_.leaf.name, *capacity,
                                                 " in the circuit the hls backend builds (one for all of a "
                                                 "kernel's loops, whose arrays take room together)"));
        return false;
    }

    void foreach(const Stmt& s) override {
        auto it = loops_.find(&s);
        if (it == loops_.end() || reject_return_in(s)) return;  // no entry for its par_group: reported
        const Loop& loop = it->second;
        if (!loop.comment.empty()) line("// " + loop.comment);
        std::string index = ident(s.decl->name());
        line(fmt::format("for (int {} = 0; {} < {}; ++{}) {{", index, index, unwrap(foreach_count(s)), index));
        ++indent_;
        if (!loop.pragma.empty()) line("MCL_HLS(" + loop.pragma + ")");
        if (s.loop_body->kind == Stmt::Kind::Block)
            for (const auto& child : s.loop_body->body) stmt(*child);
        else
            stmt(*s.loop_body);
        --indent_;
        line("}");
    }

    std::map<const Stmt*, Loop> loops_;          // the foreach loops of the function being emitted
    std::map<const Decl*, int64_t> partitions_;  // its local arrays' cyclic partition factors
    std::set<const Decl*> storage_arrays_;        // the kernel's local arrays that are ports (storage_arrays)
    struct CircuitUse {
        int64_t bytes = 0;
        bool reported = false;
    };
    std::map<std::string, CircuitUse> circuit_use_;  // the function's constant-size arrays, per memory space
};

}  // namespace

std::vector<GeneratedFile> HlsBackend::generate(const GenerationInput& input, DiagnosticEngine& diags) const {
    return generate_with<HlsGenerator>(input, name(), diags);
}

}  // namespace mcl::backends
