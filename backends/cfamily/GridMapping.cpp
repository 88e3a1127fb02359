#include "backends/cfamily/GridMapping.h"

#include "backends/cfamily/GroupPhases.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/lower/InlineKernelCalls.h"
#include "compiler/sema/GuardPushing.h"

namespace mcl::backends {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

std::optional<std::array<GridLevelConfig, 2>> grid_levels(const BackendConfig& config, const std::string& path,
                                                          DiagnosticEngine& diags) {
    std::array<GridLevelConfig, 2> out;
    const char* names[2] = {"group", "item"};
    const nlohmann::json& levels = config.raw.contains("levels") ? config.raw["levels"] : nlohmann::json();
    for (int l = 0; l < 2; ++l) {
        const nlohmann::json* level = levels.is_object() && levels.contains(names[l]) ? &levels[names[l]] : nullptr;
        bool valid = level && level->is_object() && level->contains("dimensions") &&
                     (*level)["dimensions"].is_number_integer() && level->contains("index") &&
                     (*level)["index"].is_array();
        if (valid) {
            out[l].dimensions = (*level)["dimensions"].get<int>();
            for (const auto& q : (*level)["index"])
                if (q.is_string()) out[l].index.push_back(q.get<std::string>());
            valid = out[l].dimensions >= 1 && static_cast<int>(out[l].index.size()) == out[l].dimensions;
        }
        if (!valid) {
            diags.error(config.location,
                        fmt::format("backend '{}' in '{}' needs \"levels\": {{\"{}\": {{\"dimensions\": D, \"index\": "
                                    "[one id query per dimension]}}}}",
                                    config.backend, path, names[l]));
            return std::nullopt;
        }
    }
    return out;
}

void for_each_guarded_run(const GridLaunch& launch, const std::vector<const Stmt*>& list,
                          const std::function<void(const Stmt&)>& every_item,
                          const std::function<void(const std::vector<const Stmt*>&)>& guarded) {
    std::vector<const Stmt*> run;
    auto flush = [&] {
        if (!run.empty()) guarded(run);
        run.clear();
    };
    for (const Stmt* s : list) {
        if (launch.open_statements.count(s) || launch.outside_statements.count(s)) {
            flush();
            every_item(*s);
            if (launch.split_statements.count(s)) run.push_back(s);
        } else {
            run.push_back(s);
        }
    }
    flush();
}

bool is_item_loop(const GridLaunch& launch, const Stmt& s) {
    auto it = launch.placements.find(&s);
    return s.kind == Stmt::Kind::Foreach && it != launch.placements.end() && it->second.level == GridLevel::Item;
}

std::optional<int64_t> max_items_per_group(const GridLaunch& launch, const hdl::HardwareModel& leaf) {
    constexpr int64_t kLimit = 2147483647;
    int64_t items = 1;
    for (const GridSlot& slot : launch.slots[static_cast<int>(GridLevel::Item)]) {
        int64_t largest = 0;
        for (const mcpl::Stmt* loop : slot.loops) {
            std::optional<int64_t> count = mcpl::checked_constant_int_value(*loop->count);
            if (!count) {
                const hdl::ParGroup* group = nullptr;
                for (const hdl::ParGroup* g : leaf.par_groups())
                    if (g->name == loop->name) group = g;
                if (!group || group->units.count.unlimited) return std::nullopt;
                count = group->units.count.value;
            }
            largest = std::max(largest, *count);
        }
        if (largest > kLimit / std::max<int64_t>(items, 1)) return std::nullopt;
        items *= std::max<int64_t>(largest, 1);
    }
    return items;
}

namespace {

// Why `blocks` blocks of at most `threads` items cannot all be resident on
// one processor of `leaf`, or "" when they can.
std::string blocks_per_processor_problem(int64_t blocks, std::optional<int64_t> threads,
                                         const hdl::HardwareModel& leaf) {
    const std::string& item = leaf.executing_par_unit().name;
    std::vector<const hdl::DeviceNode*> units = leaf.execution_units_for(item);
    if (!threads) return fmt::format("the number of {}s of its blocks has no bound in '{}'", item, leaf.name);
    if (units.empty()) return fmt::format("'{}' describes no processor that holds its {}s", leaf.name, item);
    const hdl::DeviceNode& processor = *units.front();
    for (const hdl::ParGroup* g : leaf.par_groups()) {
        if (!g->unit || g->unit->name == item) continue;
        int64_t slots = processor.slots_for(g->unit->name);
        if (slots <= 0) continue;
        if (blocks > slots)
            return fmt::format("one '{}' of '{}' holds at most {} {}s", processor.name, leaf.name, slots, g->unit->name);
        break;
    }
    int64_t item_slots = processor.slots_for(item);
    if (blocks > item_slots / *threads)
        return fmt::format("{} blocks of up to {} {}s are more than the {} {}s one '{}' of '{}' holds", blocks, *threads,
                           item, item_slots, item, processor.name, leaf.name);
    return "";
}

}  // namespace

std::optional<int64_t> checked_min_blocks_per_processor(std::optional<int64_t> asked, const mcpl::Function& kernel,
                                                        const GridLaunch& launch, std::optional<int64_t> threads,
                                                        const hdl::HardwareModel& leaf, DiagnosticEngine& diags) {
    if (!asked) return std::nullopt;
    std::string problem = blocks_per_processor_problem(*asked, threads, leaf);
    if (problem.empty()) return asked;
    diags.error(launch.root ? launch.root->location : kernel.location,
                fmt::format("--min-blocks-per-processor {}: the blocks that kernel '{}' launches here cannot have that "
                            "many resident at once: {}",
                            *asked, kernel.name, problem));
    return std::nullopt;
}

std::string slot_index(const GridLaunch& launch, GridLevel level, size_t slot, const GridLevelConfig& config,
                       const std::vector<std::string>& size_names) {
    const auto& slots = launch.slots[static_cast<int>(level)];
    const GridSlot& s = slots[slot];
    std::string id = config.index[static_cast<size_t>(s.dimension)];
    if (!s.linearised) return id;
    size_t last = 0;  // the last linearised slot
    while (last + 1 < slots.size() && slots[last + 1].linearised) ++last;
    std::vector<std::string> divisor;
    for (size_t k = slot + 1; k <= last; ++k) divisor.push_back(size_names[k]);
    std::string q = divisor.empty() ? id : fmt::format("({} / ({}))", id, fmt::join(divisor, " * "));
    return slot == 0 ? q : fmt::format("({} % {})", q, size_names[slot]);
}

namespace {

class GridPlanner {
public:
    GridPlanner(const mcpl::Program& program, const Function& kernel, const BackendConfig& config,
                const std::array<GridLevelConfig, 2>& levels, const std::string& path,
                const std::set<const Decl*>& module_constants, DiagnosticEngine& diags)
        : program_(program), kernel_(kernel), config_(config), levels_(levels), path_(path), diags_(diags),
          host_known_(module_constants), prologue_known_(module_constants) {}

    std::optional<GridPlan> run() {
        size_t errors = diags_.error_count();
        plan_ = GridPlan{};
        for (const auto& p : kernel_.params)
            if (!p->forms.front().resolved_type.is_array() && !p->is_written) {
                host_known_.insert(p.get());
                prologue_known_.insert(p.get());
            }
        for (const auto& s : kernel_.body->body) plan_host(*s, true);
        if (diags_.error_count() != errors) return std::nullopt;
        return std::move(plan_);
    }

private:
    // A statement the host runs: a foreach is a launch; loops, ifs and
    // scalar statements around launches run on the host.
    void plan_host(const Stmt& s, bool top_level) {
        switch (s.kind) {
        case Stmt::Kind::Foreach:
            plan_.launches.push_back(plan_launch(s));
            plan_.launches.back().kernel_arrays = plan_.kernel_arrays.size();
            return;
        case Stmt::Kind::Decl: {
            const Decl& d = *s.decl;
            if (d.forms.front().resolved_type.is_array()) {
                if (top_level && is_scratch_array(d)) {
                    if (host_sized(d)) plan_.kernel_arrays.push_back(&d);
                    return;
                }
                break;
            }
            if (d.init && !host_computable(*d.init)) break;
            // A constant, every launch computes itself (the device compiler
            // folds it); other scalars are the host's, computed once and
            // passed to the launches that use them, so that no thread
            // recomputes them (translation's threads per block divides).
            if (top_level && d.init && !d.is_written && computable_from(*d.init, prologue_known_) &&
                mcpl::checked_constant_int_value(*d.init)) {
                plan_.prologue.push_back(&d);
                prologue_known_.insert(&d);
            } else {
                plan_.host_variables.push_back(&d);
            }
            host_known_.insert(&d);
            return;
        }
        case Stmt::Kind::Block:
            for (const auto& c : s.body) plan_host(*c, false);
            return;
        case Stmt::Kind::If:
            if (!host_computable(*s.condition)) break;
            plan_host(*s.then_branch, false);
            if (s.else_branch) plan_host(*s.else_branch, false);
            return;
        case Stmt::Kind::For:
            if (s.decl->init && !host_computable(*s.decl->init)) break;
            plan_.host_variables.push_back(s.decl.get());
            host_known_.insert(s.decl.get());
            if (!host_computable(*s.condition) || !host_statement(*s.step)) break;
            plan_host(*s.loop_body, false);
            return;
        case Stmt::Kind::Assign:
        case Stmt::Kind::Step:
            if (host_statement(s)) return;
            break;
        case Stmt::Kind::Swap:
            if (host_swap(s)) return;
            break;
        case Stmt::Kind::Call: {
            Diagnostic& refusal =
                diags_.error(s.location, fmt::format("the {} backend cannot call '{}' outside the foreach loops: a "
                                                     "kernel's statements there run on the host, which runs no device "
                                                     "code; call it inside a foreach, or, for a kernel, write its "
                                                     "foreach loops here",
                                                     config_.backend, s.call->callee));
            if (auto why = lower::why_kernel_call_stays(program_, kernel_, s))
                DiagnosticEngine::add_note(refusal, s.location,
                                           fmt::format("'{}' is not inlined here: {}", s.call->callee, *why));
            return;
        }
        default: break;
        }
        diags_.error(s.location,
                     fmt::format("the {} backend runs a kernel as launches of its top-level foreach loops; "
                                 "statements outside them run on the host and must be loops, ifs, "
                                 "declarations, assignments and swaps of scalars, computable from the scalar "
                                 "parameters and the host's scalars, and swaps of whole arrays the host "
                                 "allocates or is passed",
                                 config_.backend));
    }

    // An assignment or step of one of the host's scalars, from values the
    // host knows.
    bool host_statement(const Stmt& s) const {
        const Expr& target = *s.target;
        bool host_scalar = target.kind == Expr::Kind::Var && target.var.size() == 1 &&
                           target.var[0].indices.empty() &&
                           std::count(plan_.host_variables.begin(), plan_.host_variables.end(), target.decl) > 0;
        return host_scalar && (!s.value || host_computable(*s.value));
    }

    // A swap the host makes: of two of its scalars, or of two whole arrays
    // it holds (the kernel's parameters, its top-level scratch arrays),
    // whose device storage it trades (ArraySwaps.h).
    bool host_swap(const Stmt& s) const {
        auto held = [&](const Expr& e) {
            if (e.kind != Expr::Kind::Var || !e.decl || e.var.size() != 1 || !e.var[0].indices.empty()) return false;
            if (!e.type.is_array())
                return std::count(plan_.host_variables.begin(), plan_.host_variables.end(), e.decl) > 0;
            bool parameter = std::any_of(kernel_.params.begin(), kernel_.params.end(),
                                         [&](const auto& p) { return p.get() == e.decl; });
            return e.form == &e.decl->forms.front() &&
                   (parameter ||
                    std::count(plan_.kernel_arrays.begin(), plan_.kernel_arrays.end(), e.decl) > 0);
        };
        return held(*s.target) && held(*s.value);
    }

    // A scalar declaration whose value the host can compute before a launch.
    bool host_declaration(const Decl& d) {
        if (d.forms.front().resolved_type.is_array() || !d.init || !host_computable(*d.init)) return false;
        host_known_.insert(&d);
        return true;
    }

    // An array in a device-scoped space (the host allocates it).
    bool is_scratch_array(const Decl& d) const {
        return d.forms.front().resolved_type.is_array() && memory_scope(config_, d.memory_space) == "device";
    }

    // Reports a scratch array whose size the host cannot compute.
    bool host_sized(const Decl& d) {
        for (const auto& group : d.forms.front().type.dimensions)
            for (const auto& e : group)
                if (!host_computable(*e)) {
                    diags_.error(e->location,
                                 fmt::format("the {} backend allocates arrays in device memory that a kernel "
                                             "declares on the host: their sizes must be computable there, from "
                                             "scalar parameters, hardware values and constant declarations that "
                                             "do not depend on indices or memory",
                                             config_.backend));
                    return false;
                }
        return true;
    }

    bool host_computable(const Expr& e) const { return computable_from(e, host_known_); }

    // Whether `e` reads only hardware values and the scalars in `known`.
    static bool computable_from(const Expr& e, const std::set<const Decl*>& known) {
        switch (e.kind) {
        case Expr::Kind::Var:
            if (e.hardware) return true;
            return e.var.size() == 1 && e.var[0].indices.empty() && known.count(e.decl);
        case Expr::Kind::Call:
            if (e.function) return false;  // device code, or a library function of the target
            break;
        default: break;
        }
        for (const auto& a : e.args)
            if (!computable_from(*a, known)) return false;
        return true;
    }

    GridLaunch plan_launch(const Stmt& root) {
        GridLaunch launch;
        launch.root = &root;
        launch_ = &launch;
        std::set<const Decl*> saved = host_known_;
        place(root, {0, 0});
        host_known_ = std::move(saved);
        align_item_slots(launch);
        for (int l = 0; l < 2; ++l) assign_dimensions(launch, l);
        std::array<std::set<size_t>, 2> on_path;
        mark_idle_slots(root, on_path);
        check_barriers(root, false);
        plan_group_phases(launch, config_, diags_);
        return launch;
    }

    void place(const Stmt& s, std::array<size_t, 2> depth) {
        switch (s.kind) {
        case Stmt::Kind::Foreach: {
            auto entry = config_.par_groups.find(s.name);
            if (entry == config_.par_groups.end()) {
                diags_.error(s.name_location, fmt::format("par_group '{}' has no entry in \"par_groups\" of backend "
                                                          "'{}' in '{}'", s.name, config_.backend, path_));
                return;
            }
            std::string level_name = entry->second.string("level");
            if (level_name != "group" && level_name != "item") {
                auto& d = diags_.error(s.name_location, fmt::format("par_group '{}' has no valid \"level\" for "
                                                                    "backend '{}' in '{}'",
                                                                    s.name, config_.backend, path_));
                DiagnosticEngine::add_note(d, entry->second.location, "\"level\" must be \"group\" or \"item\"");
                return;
            }
            int level = level_name == "group" ? 0 : 1;
            if (level == 0 && depth[1] > 0) {
                diags_.error(s.name_location, fmt::format("a foreach over '{}' (work-groups) inside a foreach over "
                                                          "items of a group is not supported by the {} backend",
                                                          s.name, config_.backend));
                return;
            }
            if (!host_computable(*s.count)) {
                diags_.error(s.count->location,
                             fmt::format("the {} backend needs foreach counts that the host can compute before the "
                                         "launch: from scalar parameters, hardware values and constant "
                                         "declarations that do not depend on indices or memory",
                                         config_.backend));
            }
            auto& slots = launch_->slots[level];
            if (slots.size() <= depth[level]) slots.resize(depth[level] + 1);
            slots[depth[level]].loops.push_back(&s);
            launch_->placements[&s] = ForeachPlacement{static_cast<GridLevel>(level), depth[level], false, {}};
            ++depth[static_cast<size_t>(level)];
            place(*s.loop_body, depth);
            return;
        }
        case Stmt::Kind::Decl: {
            const Decl& d = *s.decl;
            if (d.forms.front().resolved_type.is_array()) {
                if (memory_scope(config_, d.memory_space) == "group") launch_->group_arrays.push_back(&d);
                if (is_scratch_array(d) && depth[1] == 0 && host_sized(d))
                    launch_->scratch_arrays.push_back(ScratchArray{&d, depth[0]});
            } else if (d.is_const && host_declaration(d)) {
                launch_->host_declarations.push_back(&d);
            }
            return;
        }
        case Stmt::Kind::Block:
            for (const auto& c : s.body) place(*c, depth);
            return;
        case Stmt::Kind::If:
            place(*s.then_branch, depth);
            if (s.else_branch) place(*s.else_branch, depth);
            return;
        case Stmt::Kind::For: place(*s.loop_body, depth); return;
        default: return;
        }
    }

    // The item loops of the nest `loop` heads, counted along its deepest
    // path (1 for an innermost item loop).
    size_t item_height(const Stmt& loop) const {
        size_t below = 0;
        mcpl::for_each_child_stmt(loop, [&](const Stmt& c) {
            mcpl::for_each_stmt(c, [&](const Stmt& inner) {
                if (is_item_loop(*launch_, inner)) below = std::max(below, item_height(inner));
            });
        });
        return below + 1;
    }

    // place() numbered the item slots from the outermost; renumber them
    // from the innermost (the header says why), keeping source order
    // within a slot. Every slot stays taken: a nest of height h has a loop
    // of each height below h.
    void align_item_slots(GridLaunch& launch) {
        auto& slots = launch.slots[static_cast<int>(GridLevel::Item)];
        std::vector<GridSlot> aligned(slots.size());
        mcpl::for_each_stmt(*launch.root, [&](const Stmt& s) {
            if (!is_item_loop(launch, s)) return;
            size_t slot = slots.size() - item_height(s);
            launch.placements[&s].slot = slot;
            aligned[slot].loops.push_back(&s);
        });
        slots = std::move(aligned);
    }

    // ForeachPlacement::idle_slots of every innermost item loop below `s`;
    // `on_path` holds the slots the loops around `s` take.
    void mark_idle_slots(const Stmt& s, std::array<std::set<size_t>, 2>& on_path) {
        auto it = launch_->placements.find(&s);
        if (s.kind != Stmt::Kind::Foreach || it == launch_->placements.end()) {
            mcpl::for_each_child_stmt(s, [&](const Stmt& c) { mark_idle_slots(c, on_path); });
            return;
        }
        ForeachPlacement& place = it->second;
        int level = static_cast<int>(place.level);
        bool added = on_path[level].insert(place.slot).second;
        // aligned at the innermost, the innermost item loops are those of the last slot
        if (place.level == GridLevel::Item && place.slot + 1 == launch_->slots[level].size()) {
            for (int l = 0; l < 2; ++l)
                for (size_t k = 0; k < launch_->slots[l].size(); ++k)
                    if (!on_path[l].count(k)) place.idle_slots.emplace_back(static_cast<GridLevel>(l), k);
        }
        mark_idle_slots(*s.loop_body, on_path);
        if (added) on_path[level].erase(place.slot);
    }

    void assign_dimensions(GridLaunch& launch, int level) {
        auto& slots = launch.slots[level];
        // The slot is as large as its largest count: a loop of that
        // count, known where every count is a constant or all are the same
        // value, needs no guard.
        for (GridSlot& slot : slots) {
            if (slot.loops.size() < 2) continue;
            if (std::all_of(slot.loops.begin(), slot.loops.end(), [&](const Stmt* loop) {
                    return mcpl::same_int_value(*loop->count, *slot.loops.front()->count);
                }))
                continue;
            std::vector<std::optional<int64_t>> counts;
            for (const Stmt* loop : slot.loops) counts.push_back(mcpl::checked_constant_int_value(*loop->count));
            bool all_constant = std::all_of(counts.begin(), counts.end(), [](const auto& c) { return c.has_value(); });
            int64_t largest = 0;
            for (const auto& c : counts)
                if (c) largest = std::max(largest, *c);
            for (size_t k = 0; k < slot.loops.size(); ++k)
                if (!all_constant || *counts[k] < largest) launch.placements[slot.loops[k]].guarded = true;
        }
        int d = levels_[static_cast<size_t>(level)].dimensions;
        int k = static_cast<int>(slots.size());
        launch.dimensions[level] = std::max(1, std::min(k, d));
        int shared = k > d ? k - d + 1 : 0;  // the outermost slots, linearised in dimension d-1
        for (int j = 0; j < k; ++j) {
            if (j < shared) {
                slots[static_cast<size_t>(j)].dimension = d - 1;
                slots[static_cast<size_t>(j)].linearised = true;
            } else {
                slots[static_cast<size_t>(j)].dimension = k - 1 - j;
            }
        }
    }

    // Refuses barriers that would synchronise the work-groups of a launch,
    // and pushes the guards of item loops past the barriers in their bodies.
    void check_barriers(const Stmt& s, bool in_group_loop) {
        if (s.kind == Stmt::Kind::Barrier && in_group_loop && memory_scope(config_, s.name) == "device") {
            diags_.error(s.location,
                         fmt::format("barrier({0}) would synchronise every work-group of the launch (they all share "
                                     "'{0}'), and the {1} backend cannot make work-groups wait for each other inside "
                                     "one launch; end the foreach before the barrier and continue in a second "
                                     "top-level foreach (each top-level foreach is its own launch)",
                                     s.name, config_.backend));
            return;
        }
        if (s.kind == Stmt::Kind::Foreach) {
            auto it = launch_->placements.find(&s);
            bool placed = it != launch_->placements.end();
            if (placed && it->second.level == GridLevel::Item &&
                (it->second.guarded || !it->second.idle_slots.empty()) && mcpl::reaches_barrier(*s.loop_body))
                push_guard_past_barriers(s, it->second);
            bool group_loop = placed && it->second.level == GridLevel::Group;
            check_barriers(*s.loop_body, in_group_loop || group_loop);
            return;
        }
        // A function called here runs its barriers here.
        mcpl::for_each_own_call(s, [&](const Expr& call) {
            if (!call.function || !followed_calls_.insert(call.function).second) return;
            check_barriers(*call.function->body, in_group_loop);
            followed_calls_.erase(call.function);
        });
        mcpl::for_each_child_stmt(s, [&](const Stmt& c) { check_barriers(c, in_group_loop); });
    }

    // Every item of a group must reach a barrier, also those that skip the
    // body of `loop` (GuardPushing.h).
    void push_guard_past_barriers(const Stmt& loop, ForeachPlacement& place) {
        mcpl::GuardContext context;
        if (place.guarded) {
            context.index = loop.decl->name();
            context.extra_units = fmt::format("the items of the group past the count of '{}' (a longer loop shares "
                                              "its hardware dimension)",
                                              context.index);
        } else {
            context.extra_units = "the items of the group that only a deeper sibling nest uses";
        }
        context.through_foreach = true;
        context.refuse = [&](SourceLocation location, const std::string& problem) {
            diags_.error(location, fmt::format("the {} backend cannot keep every item of the group at the barriers of "
                                               "the foreach on line {}: {}",
                                               config_.backend, loop.location.line, problem));
        };
        mcpl::PushedGuard pushed = mcpl::push_guard(mcpl::statements_of(*loop.loop_body), context);
        place.pushes_guard = true;
        launch_->open_statements.insert(pushed.open.begin(), pushed.open.end());
        launch_->outside_statements.insert(pushed.outside.begin(), pushed.outside.end());
        launch_->split_statements.insert(pushed.split.begin(), pushed.split.end());
    }

    const mcpl::Program& program_;
    const Function& kernel_;
    const BackendConfig& config_;
    const std::array<GridLevelConfig, 2>& levels_;
    const std::string& path_;
    DiagnosticEngine& diags_;
    std::set<const Decl*> host_known_;      // scalars the host has computed where it is planning (and constants)
    std::set<const Decl*> prologue_known_;  // the module constants, the scalar parameters and the prologue
    GridPlan plan_;
    GridLaunch* launch_ = nullptr;
    std::set<const Function*> followed_calls_;  // the calls check_barriers is inside (recursion ends there)
};

}  // namespace

std::optional<GridPlan> plan_grid(const mcpl::Program& program, const Function& kernel, const BackendConfig& config,
                                  const std::array<GridLevelConfig, 2>& levels, const std::string& config_path,
                                  const std::set<const mcpl::Decl*>& module_constants, DiagnosticEngine& diags) {
    return GridPlanner(program, kernel, config, levels, config_path, module_constants, diags).run();
}

}  // namespace mcl::backends
