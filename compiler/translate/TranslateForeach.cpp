#include "compiler/translate/TranslateForeach.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstBuild.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/GuardPushing.h"
#include "compiler/sema/ResolveNames.h"

namespace mcl::translate {

namespace {

using mcpl::Expr;
using mcpl::ExprPtr;
using mcpl::Stmt;
using mcpl::StmtPtr;
using namespace mcpl::build;

// --- analysis helpers ------------------------------------------------------

// Whether `e` reads a variable called one of `names`.
bool mentions_any(const Expr& e, const std::set<std::string>& names) {
    bool found = false;
    mcpl::for_each_var(e, [&](const Expr& v) { found |= names.count(v.var[0].name) > 0; });
    return found;
}

// Whether `count` could have another value when the units of its foreach
// evaluate it than when the loop starts: it reads memory (an element or a
// field), calls a function that is not pure, or reads a variable that
// `body` (the loop's) writes.
bool may_change_in(const Expr& count, const Stmt& body) {
    std::set<const mcpl::Decl*> written;
    mcpl::for_each_stmt(body, [&](const Stmt& s) {
        mcpl::for_each_own_write(
            s, [](const mcpl::Decl& param) { return param.is_written; },
            [&](const Expr& v, const Expr*) { written.insert(v.decl); });
    });
    bool changes = false;
    mcpl::for_each_expr(count, [&](const Expr& e) {
        if (e.kind == Expr::Kind::Call) changes |= !mcpl::is_pure_call(e);
        if (e.kind != Expr::Kind::Var || e.hardware) return;
        changes |= e.var.size() > 1 || !e.var[0].indices.empty() || written.count(e.decl) > 0;
    });
    return changes;
}

std::string capitalized(std::string s) {
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

// --- the pass -----------------------------------------------------------------

class ForeachTranslator {
public:
    ForeachTranslator(mcpl::Function& f, const hdl::HardwareModel& to, const ParGroupMapping& m,
                      const OuterNames& outer, DiagnosticEngine& diags)
        : f_(f), to_(to), mapping_(m), diags_(diags), names_(f, outer), user_constants_(outer.constant_values) {}

    void run() { translate_list(f_.body->body); }

private:
    // Constant values of `const int` declarations seen so far, for deciding
    // whether a guard is needed: the user's by declaration (one name may
    // stand for different variables in different scopes), the generated ones,
    // whose uses the checker has not annotated yet, by their unique names.
    std::optional<int64_t> constant_value(const Expr& e) const {
        return mcpl::constant_int_value(e, [&](const Expr& var) -> std::optional<int64_t> {
            if (var.decl) {
                auto it = user_constants_.find(var.decl);
                return it == user_constants_.end() ? std::nullopt : std::optional<int64_t>(it->second);
            }
            auto it = generated_constants_.find(var.var[0].name);
            return it == generated_constants_.end() ? std::nullopt : std::optional<int64_t>(it->second);
        });
    }

    void note_constant(const Stmt& s) {
        if (s.kind != Stmt::Kind::Decl || !s.decl->is_const || !s.decl->init) return;
        if (auto v = constant_value(*s.decl->init)) user_constants_[s.decl.get()] = *v;
    }

    void translate_list(std::vector<StmtPtr>& list) {
        std::vector<StmtPtr> out;
        for (StmtPtr& s : list) {
            note_constant(*s);
            if (s->kind == Stmt::Kind::Foreach) {
                for (StmtPtr& r : translate_nest(std::move(s))) out.push_back(std::move(r));
            } else {
                translate_children(*s);
                out.push_back(std::move(s));
            }
        }
        list = std::move(out);
    }

    // A child statement slot (if/for body): a foreach there may become
    // several statements, which then need a block.
    void translate_slot(StmtPtr& slot) {
        if (!slot) return;
        if (slot->kind != Stmt::Kind::Foreach) {
            translate_children(*slot);
            return;
        }
        SourceLocation loc = slot->location;
        std::vector<StmtPtr> stmts = translate_nest(std::move(slot));
        slot = stmts.size() == 1 ? std::move(stmts[0]) : block(std::move(stmts), loc);
    }

    void translate_children(Stmt& s) {
        if (s.kind == Stmt::Kind::Block) translate_list(s.body);
        translate_slot(s.then_branch);
        translate_slot(s.else_branch);
        translate_slot(s.loop_body);
    }

    // The foreach statements of a perfect nest over one par_group, outermost first.
    static std::vector<Stmt*> nest_of(Stmt& outer) {
        std::vector<Stmt*> nest{&outer};
        for (;;) {
            Stmt* body = nest.back()->loop_body.get();
            if (body->kind == Stmt::Kind::Block && body->body.size() == 1) body = body->body[0].get();
            if (body->kind != Stmt::Kind::Foreach || body->name != outer.name) return nest;
            nest.push_back(body);
        }
    }

    std::vector<StmtPtr> translate_nest(StmtPtr outer) {
        std::vector<Stmt*> nest = nest_of(*outer);
        Stmt& innermost = *nest.back();
        const ParGroupMapEntry* entry = mapping_.find(outer->name);
        std::vector<StmtPtr> result;
        if (!entry) {  // checked code names only par_groups of `from`
            diags_.error(outer->name_location, fmt::format("'{}' has no equivalent in '{}'", outer->name, to_.name));
            result.push_back(std::move(outer));
            return result;
        }
        sequentialize_imperfect_nests(innermost, outer->name);
        if (entry->to.size() == 1) {
            for (Stmt* s : nest) s->name = entry->to[0]->name;
            translate_slot(innermost.loop_body);
            result.push_back(std::move(outer));
            return result;
        }
        if (StmtPtr flat = linearised(nest, entry->to)) {
            split_innermost(*flat, {}, entry->to, result);
            return result;
        }
        for (size_t i = 0; i + 1 < nest.size(); ++i) nest[i]->name = entry->to.front()->name;
        split_innermost(innermost, {nest.begin(), nest.end() - 1}, entry->to, result);
        if (nest.size() == 1) return result;  // `outer` was the split loop itself, now replaced
        // The nest keeps its outer loops; the innermost is replaced in its parent.
        Stmt& parent = *nest[nest.size() - 2];
        StmtPtr& slot = parent.loop_body->kind == Stmt::Kind::Block ? parent.loop_body->body[0] : parent.loop_body;
        StmtPtr split = std::move(result.back());
        result.pop_back();
        slot = std::move(split);
        result.push_back(std::move(outer));
        return result;
    }

    // Split as it is, a nest leaves lanes idle when its innermost count does
    // not fill whole units of the innermost par_group `groups` ends in, a
    // group of SIMD lanes with an exact count W: at hopper, gpu's `foreach
    // (rr in 32 threads) foreach (l in 8 threads)` became 32 warps of 32
    // threads, 8 of each warp's threads working. Where every count of the
    // nest is a final constant and the innermost one is not a multiple of W,
    // the nest is replaced by one foreach over the product of the counts
    // (which the check keeps within the par_group, and so within `groups`),
    // whose index gives the user's back by division and remainder by
    // constants (`const int rr = rr_l / 8; const int l = rr_l % 8;`, the
    // order of a 2-D CUDA block), and the split fills every group but the
    // last; null otherwise. It adds no guard the split nest lacked: that one
    // needs a guard whenever W does not divide the innermost count.
    StmtPtr linearised(const std::vector<Stmt*>& nest, const std::vector<const hdl::ParGroup*>& groups) {
        const hdl::ParGroup& lanes = *groups.back();
        if (nest.size() < 2 || lanes.units.bound != hdl::UnitCount::Bound::Exact || lanes.units.count.unlimited)
            return nullptr;
        std::vector<int64_t> counts;
        int64_t product = 1;
        for (const Stmt* loop : nest) {
            std::optional<int64_t> count = constant_value(*loop->count);
            if (!count || *count < 1 || reads_processors(*loop->count)) return nullptr;
            if (product > std::numeric_limits<int32_t>::max() / *count) return nullptr;
            counts.push_back(*count);
            product *= *count;
        }
        if (counts.back() % lanes.units.count.value == 0) return nullptr;

        Stmt& outer = *nest.front();
        Stmt& innermost = *nest.back();
        std::string flat_name;
        std::set<std::string> indices;
        for (const Stmt* loop : nest) {
            flat_name += (flat_name.empty() ? "" : "_") + loop->decl->name();
            indices.insert(loop->decl->name());
        }
        const std::string flat = names_.fresh(flat_name);
        ExprPtr count = outer.count->clone();
        for (size_t i = 1; i < nest.size(); ++i) count = binary("*", std::move(count), nest[i]->count->clone());

        // Each index from the flat one, outermost first: (flat / inner) % count.
        std::vector<StmtPtr> body;
        int64_t inner = product;
        for (size_t i = 0; i < nest.size(); ++i) {
            SourceLocation loc = nest[i]->location;
            inner /= counts[i];
            ExprPtr index = var(flat, loc);
            if (inner > 1) index = binary("/", std::move(index), int_literal(inner, loc));
            if (i > 0) index = binary("%", std::move(index), int_literal(counts[i], loc));
            body.push_back(const_int(nest[i]->decl->name(), std::move(index), loc));
        }
        // The user's body keeps a scope of its own where it declares a name like an index.
        std::set<std::string> declared;
        if (innermost.loop_body->kind == Stmt::Kind::Block) {
            for (const StmtPtr& s : innermost.loop_body->body) {
                if (s->decl)
                    for (const auto& form : s->decl->forms) declared.insert(form.name);
                for (const auto& view : s->views) declared.insert(view.name);
            }
        }
        bool shadows =
            std::any_of(declared.begin(), declared.end(), [&](const std::string& n) { return indices.count(n) > 0; });
        if (shadows) {
            body.push_back(std::move(innermost.loop_body));
        } else {
            for (StmtPtr& s : take_statements(std::move(innermost.loop_body))) body.push_back(std::move(s));
        }
        return foreach_stmt(flat, std::move(count), outer.name, block(std::move(body), outer.location), outer.location);
    }

    // A foreach over the same par_group deeper in the body, but not as a
    // perfect nest, cannot be split consistently: its units run one after
    // another in each unit around it instead, in a for loop (an order of
    // its units that MCPL allows), with a note saying so. Units that wait
    // at a barrier or return (which would then end the unit around them)
    // cannot, and are reported.
    void sequentialize_imperfect_nests(Stmt& innermost, const std::string& group) {
        mcpl::for_each_stmt(*innermost.loop_body, [&](Stmt& s) {
            if (s.kind != Stmt::Kind::Foreach || s.name != group) return;
            const char* why = mcpl::reaches_barrier(*s.loop_body) ? "its units reach a barrier"
                              : mcpl::may_return(*s.loop_body)   ? "its units return"
                                                                 : nullptr;
            if (why) {
                diags_.error(s.location,
                             fmt::format("cannot translate this foreach over '{}' to '{}': it is nested in another "
                                         "foreach over '{}' with other statements around it, and {}; nest them "
                                         "directly",
                                         group, to_.name, group, why));
                return;
            }
            diags_.report(Severity::Note, s.location,
                          fmt::format("the units of this foreach over '{}' run one after another in each unit of "
                                      "the foreach at line {} on '{}': it is nested there with other statements "
                                      "around it; nest them directly to run them in parallel",
                                      group, innermost.location.line, to_.name));
            s = std::move(*sequential_loop(std::move(s)));
        });
    }

    // `foreach (int k in count g) body` as `{ const int count_k = count;
    // for (int k = 0; k < count_k; k++) body }`: the count is read once.
    StmtPtr sequential_loop(Stmt&& loop) {
        const std::string index = loop.decl->name();
        const SourceLocation loc = loop.location;
        mcpl::ExprPtr count = std::move(loop.count);
        if (count->kind == mcpl::Expr::Kind::IntLiteral)
            return counting_loop(index, std::move(count), std::move(loop.loop_body), loc);
        std::vector<StmtPtr> body;
        const std::string name = names_.fresh(fmt::format("count_{}", index));
        body.push_back(const_int(name, std::move(count), loc));
        body.push_back(counting_loop(index, var(name, loc), std::move(loop.loop_body), loc));
        return block(std::move(body), loc);
    }

    // Replaces `loop` (moved out of its slot by the caller; `outer` are the
    // loops of its nest around it, which stay) by dimension statements
    // (appended to `out` first) and the nest of split loops (appended last).
    void split_innermost(Stmt& loop, const std::vector<Stmt*>& outer, const std::vector<const hdl::ParGroup*>& groups,
                         std::vector<StmtPtr>& out) {
        const std::string index = loop.decl->name();
        const SourceLocation loc = loop.location;
        const size_t k = groups.size();
        // The guard and the index statement sit where the index (and the
        // body's declarations) hide the names the count was written with,
        // and each unit evaluates the guard: a count that could differ
        // there is read once, before the loop, as the foreach reads it.
        std::set<std::string> hiding = mcpl::declared_names(*loop.loop_body);
        hiding.insert(index);
        if (mentions_any(*loop.count, hiding) || may_change_in(*loop.count, *loop.loop_body)) {
            std::string count = names_.fresh(fmt::format("count_{}", index));
            StmtPtr hoisted = const_int(count, std::move(loop.count), loc);
            note_constant(*hoisted);
            out.push_back(std::move(hoisted));
            loop.count = var(count, loc);
        }
        std::vector<std::string> dims(k), indices(k);
        std::vector<ExprPtr> dim_values(k);
        // Innermost first: its size comes from the description; outer ones
        // cover the rest of the range unless their count is exact.
        for (size_t j = k; j-- > 0;) {
            const hdl::ParGroup& g = *groups[j];
            dims[j] = names_.fresh(fmt::format("nr{}_{}", capitalized(g.name), index));
            indices[j] = names_.fresh(fmt::format("{}_{}", g.name.substr(0, 1), index));
            bool exact = g.units.bound == hdl::UnitCount::Bound::Exact;
            if (j + 1 == k && !exact && k == 2) {
                dim_values[j] = units_filling_processors(loop, outer, *groups[0], g, loc);
            } else if (j + 1 == k || exact) {
                dim_values[j] = hardware_count(g, loc);
            } else {
                ExprPtr inner = var(dims[j + 1], loc);
                for (size_t i = j + 2; i < k; ++i) inner = binary("*", std::move(inner), var(dims[i], loc));
                dim_values[j] = call("divide_up", loop.count->clone(), std::move(inner));
            }
        }
        // Innermost first: each outer dimension is computed from the inner ones.
        for (size_t j = k; j-- > 0;) {
            if (auto v = constant_value(*dim_values[j]); v && !reads_processors(*dim_values[j]))
                generated_constants_[dims[j]] = *v;
            out.push_back(const_int(dims[j], std::move(dim_values[j]), loc));
        }
        // The old index from the new ones: ((i1 * d2 + i2) * d3 + i3) ...
        ExprPtr old_index = var(indices[0], loc);
        for (size_t j = 1; j < k; ++j)
            old_index = binary("+", binary("*", std::move(old_index), var(dims[j], loc)), var(indices[j], loc));

        // Translate the body first (deeper par_groups), then wrap it.
        translate_slot(loop.loop_body);
        std::vector<StmtPtr> body;
        body.push_back(const_int(index, std::move(old_index), loc));
        std::vector<StmtPtr> user = take_statements(std::move(loop.loop_body));
        if (needs_guard(loop, dims)) {
            ExprPtr guard = binary("<", var(index, loc), loop.count->clone());
            for (StmtPtr& s : guarded(std::move(user), *guard, index)) body.push_back(std::move(s));
        } else {
            for (StmtPtr& s : user) body.push_back(std::move(s));
        }
        StmtPtr inner = block(std::move(body), loc);
        for (size_t j = k; j-- > 0;) {
            inner = foreach_stmt(indices[j], var(dims[j], loc), groups[j]->name, std::move(inner), loc);
            if (j > 0) inner = block(vec(std::move(inner)), loc);
        }
        out.push_back(std::move(inner));
    }

    static std::vector<StmtPtr> vec(StmtPtr s) {
        std::vector<StmtPtr> v;
        v.push_back(std::move(s));
        return v;
    }

    static std::vector<StmtPtr> take_statements(StmtPtr body) {
        if (body->kind == Stmt::Kind::Block) return std::move(body->body);
        return vec(std::move(body));
    }

    // `to.hierarchy.<groups down to g>.nr_units` or `.max_nr_units`; the
    // count itself where a user's name hides the description `to`.
    ExprPtr hardware_count(const hdl::ParGroup& g, SourceLocation loc) {
        if (names_.declared_by_user(to_.name)) return int_literal(g.units.count.value, loc);
        return hardware_value(g, g.units.bound == hdl::UnitCount::Bound::Exact ? "nr_units" : "max_nr_units",
                              g.units.count.value, loc);
    }

    // `to.hierarchy.<groups down to g>.<property>`, of value `value`.
    ExprPtr hardware_value(const hdl::ParGroup& g, const std::string& property, int64_t value, SourceLocation loc) {
        std::vector<std::string> path{to_.name};
        for (std::string& part : to_.par_group_path(g)) path.push_back(std::move(part));
        path.push_back(property);
        ExprPtr e = dotted(path, loc);
        mcpl::HardwareValue hv{to_.name, {path.begin() + 1, path.end()}, value};
        e->hardware = hv;
        return e;
    }

    // The units of `inner`, a par_group with only a maximum whose units
    // time-share SIMD lanes (a GPU's threads per block), for `loop` split
    // over `outer_group` x `inner`. Its maximum can leave most of the
    // device idle: `foreach (i in n threads)` at gpu's 1024 threads per
    // block gives n / 1024 blocks, 8 of an H100's 132 multiprocessors for n
    // = 8192 (bench/gpu/units measured 11 times the time of 64-thread
    // blocks there; matmul's 4096 x 4096 units fill the device at any size
    // and run fastest at 1024). So the units are what spreads the work over
    // all processors (`outer_group.nr_processors`, which later steps move
    // down to the leaf's number), rounded up to whole SIMD groups, between
    // one SIMD group and the maximum:
    //   divide_up(max(W, min(MAX, divide_up(count, divide_up(P, C)))), W) * W
    // with W the SIMD width, MAX the maximum, P the processors and C the
    // outer loops' units (capped at P, at least 1), so that C x
    // divide_up(count, units) blocks reach P where the counts allow. Every
    // intermediate stays within int for any count. Where the rule does not
    // apply (no processors or SIMD lanes described, as many lanes as units
    // (an FPGA's datapath), counts that name variables of the nest, a name
    // hiding `to`), the maximum.
    ExprPtr units_filling_processors(const Stmt& loop, const std::vector<Stmt*>& outer,
                                     const hdl::ParGroup& outer_group, const hdl::ParGroup& inner,
                                     SourceLocation loc) {
        int64_t processors = outer_group.unit ? to_.nr_processors(outer_group.unit->name) : 0;
        int64_t width = inner.unit ? to_.simd_width(inner.unit->name) : 0;
        std::set<std::string> nest_names;
        for (const Stmt* o : outer) nest_names.insert(o->decl->name());
        bool counts_outside = !mentions_any(*loop.count, nest_names);
        for (const Stmt* o : outer) counts_outside &= !mentions_any(*o->count, nest_names);
        if (names_.declared_by_user(to_.name) || inner.units.count.unlimited || processors == 0 || width == 0 ||
            inner.units.count.value <= width || !counts_outside)
            return hardware_count(inner, loc);
        auto processors_value = [&] { return hardware_value(outer_group, "nr_processors", processors, loc); };
        ExprPtr per_processor;  // divide_up(P, C): the outer units each processor gets at most
        if (outer.empty()) {
            per_processor = processors_value();
        } else {
            ExprPtr units = call("min", outer[0]->count->clone(), processors_value());
            for (size_t i = 1; i < outer.size(); ++i)
                units = call("min", binary("*", std::move(units), call("min", outer[i]->count->clone(), processors_value())),
                             processors_value());
            per_processor = call("divide_up", processors_value(), call("max", int_literal(1, loc), std::move(units)));
        }
        ExprPtr wanted = call("divide_up", loop.count->clone(), std::move(per_processor));
        ExprPtr bounded = call("max", int_literal(width, loc), call("min", hardware_count(inner, loc), std::move(wanted)));
        return binary("*", call("divide_up", std::move(bounded), int_literal(width, loc)), int_literal(width, loc));
    }

    // Whether `e` reads an `nr_processors` value: a later step of translation
    // moves it to the next description's number (TranslateHardwareValues),
    // so a count computed from it is not final until the leaf. At gpu,
    // 4096 units over 16 processors gave 256 threads a block, 16 blocks and
    // no guard; at fermi the same expression gives 288 threads, 15 blocks
    // and 224 units past the count.
    static bool reads_processors(const Expr& e) {
        bool reads = false;
        mcpl::for_each_var(e, [&](const Expr& var) {
            reads = reads || (var.hardware && !var.hardware->path.empty() && var.hardware->path.back() == "nr_processors");
        });
        return reads;
    }

    // The units cover exactly `count` when all are constants (final ones)
    // and multiply to it.
    bool needs_guard(const Stmt& loop, const std::vector<std::string>& dims) const {
        auto count = constant_value(*loop.count);
        if (!count) return true;
        int64_t total = 1;
        for (const std::string& d : dims) {
            auto it = generated_constants_.find(d);
            if (it == generated_constants_.end()) return true;
            total *= it->second;
        }
        return total != *count;
    }

    // `if (guard) { stmts }`, with the guard pushed past barriers so that every
    // unit still reaches each barrier (GuardPushing.h says where it goes).
    std::vector<StmtPtr> guarded(std::vector<StmtPtr> stmts, const Expr& guard, const std::string& index) {
        std::vector<const Stmt*> body;
        for (const StmtPtr& s : stmts) body.push_back(s.get());
        mcpl::GuardContext context;
        context.index = index;
        context.extra_units = fmt::format("the units that '{}' adds beyond its range", index);
        context.refuse = [&](SourceLocation location, const std::string& problem) {
            diags_.error(location, fmt::format("cannot translate safely to '{}': {}", to_.name, problem));
        };
        mcpl::PushedGuard pushed = mcpl::push_guard(body, context);
        return guarded(std::move(stmts), guard, pushed);
    }

    // Puts the statements that `pushed` leaves under the guard into `if
    // (guard)` runs, going into the open statements.
    std::vector<StmtPtr> guarded(std::vector<StmtPtr> stmts, const Expr& guard, const mcpl::PushedGuard& pushed) {
        std::vector<StmtPtr> out;
        std::vector<StmtPtr> run;  // consecutive statements under the guard
        auto flush = [&] {
            if (run.empty()) return;
            out.push_back(if_then(guard.clone(), block(std::move(run), guard.location)));
            run.clear();
        };
        auto inside = [&](StmtPtr branch, SourceLocation location) {
            return block(guarded(take_statements(std::move(branch)), guard, pushed), location);
        };
        for (StmtPtr& s : stmts) {
            if (!pushed.open.count(s.get()) && !pushed.outside.count(s.get())) {
                run.push_back(std::move(s));
                continue;
            }
            if (pushed.split.count(s.get())) {
                // `float v = a[t];` becomes `float v;` and, guarded, `v = a[t];`
                flush();
                SourceLocation at = s->decl->init->location;
                run.push_back(assignment(var(s->decl->name(), at), std::move(s->decl->init)));
                s->decl->is_const = false;
                out.push_back(std::move(s));
                continue;
            }
            flush();
            if (s->kind == Stmt::Kind::Block) {
                s->body = guarded(std::move(s->body), guard, pushed);
            } else if (s->kind == Stmt::Kind::For) {
                s->loop_body = inside(std::move(s->loop_body), s->location);
            } else if (s->kind == Stmt::Kind::If) {
                // every unit decides the branch and reaches its barriers; only
                // the statements are guarded
                s->then_branch = inside(std::move(s->then_branch), s->location);
                if (s->else_branch) s->else_branch = inside(std::move(s->else_branch), s->location);
            }
            out.push_back(std::move(s));
        }
        flush();
        return out;
    }

    mcpl::Function& f_;
    const hdl::HardwareModel& to_;
    const ParGroupMapping& mapping_;
    DiagnosticEngine& diags_;
    FreshNames names_;
    std::map<const mcpl::Decl*, int64_t> user_constants_;
    std::map<std::string, int64_t> generated_constants_;
};

}  // namespace

void translate_foreach(mcpl::Function& f, const hdl::HardwareModel& to, const ParGroupMapping& mapping,
                       const OuterNames& outer, DiagnosticEngine& diags) {
    ForeachTranslator(f, to, mapping, outer, diags).run();
}

}  // namespace mcl::translate
