#include "compiler/sema/GuardPushing.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/ResolveNames.h"

namespace mcl::mcpl {

namespace {

bool reaches_barrier(const Stmt& s, std::set<const Function*>& explored) {
    bool found = false;
    for_each_stmt(s, [&](const Stmt& c) {
        found |= c.kind == Stmt::Kind::Barrier;
        for_each_own_call(c, [&](const Expr& call) {
            if (found || !call.function || !call.function->body || !explored.insert(call.function).second) return;
            found = reaches_barrier(*call.function->body, explored);
        });
    });
    return found;
}

bool has_own_barrier(const Stmt& s) {
    bool found = false;
    for_each_stmt(s, [&](const Stmt& c) { found |= c.kind == Stmt::Kind::Barrier; });
    return found;
}

// Whether evaluating `e` reads memory or calls a function that may read or
// write it.
bool touches_memory(const Expr& e) {
    if (e.kind == Expr::Kind::Call && !is_pure_call(e)) return true;
    if (e.kind == Expr::Kind::Var) {
        if (e.hardware) return false;
        if (e.var.size() > 1) return true;
        if (!e.var[0].indices.empty()) return true;
        if (e.decl && e.type.is_array()) return true;
    }
    for (const ExprPtr& a : e.args)
        if (touches_memory(*a)) return true;
    return false;
}

// Whether evaluating `e` can fail for some values of its variables: a
// division or remainder by (`divide_up` included), a shift by, or a power
// with an operand that is not a constant (a nonzero one, or 0 to 31 for a
// shift).
bool may_fault(const Expr& e) {
    if (e.kind == Expr::Kind::Call && e.callee == "divide_up" && !e.function && e.args.size() == 2) {
        std::optional<int64_t> divisor = checked_constant_int_value(*e.args[1]);
        if (!divisor || *divisor == 0) return true;
    }
    if (e.kind == Expr::Kind::Binary && e.args.size() == 2) {
        std::optional<int64_t> right = checked_constant_int_value(*e.args[1]);
        if ((e.op == "/" || e.op == "%") && (!right || *right == 0)) return true;
        if ((e.op == "<<" || e.op == ">>") && (!right || *right < 0 || *right > 31)) return true;
        if (e.op == "^" && (!right || !checked_constant_int_value(*e.args[0]))) return true;
    }
    for (const ExprPtr& a : e.args)
        if (may_fault(*a)) return true;
    return false;
}

// What a declaration or a view computes as it is made (the value, the
// extents): the first part that reads memory, or null.
const Expr* memory_read_in_declaration(const Stmt& s) {
    if (s.kind == Stmt::Kind::Decl) return s.decl->init && touches_memory(*s.decl->init) ? s.decl->init.get() : nullptr;
    for (const BasicDecl& view : s.views)
        for (const auto& group : view.type.dimensions)
            for (const ExprPtr& extent : group)
                if (touches_memory(*extent)) return extent.get();
    return nullptr;
}

// The expressions of a `for` header (start, condition, step) or an `if`'s condition.
std::vector<const Expr*> header_of(const Stmt& s) {
    std::vector<const Expr*> parts;
    if (s.kind == Stmt::Kind::For) {
        if (s.decl && s.decl->init) parts.push_back(s.decl->init.get());
        if (s.step) for_each_own_expr(*s.step, [&](const Expr& e) { parts.push_back(&e); });
    }
    if (s.condition) parts.push_back(s.condition.get());
    return parts;
}

class GuardPusher {
public:
    explicit GuardPusher(const GuardContext& context) : context_(context) {}

    PushedGuard run(const std::vector<const Stmt*>& body) {
        place_list(body);
        find_changed();
        for (const Stmt* s : headers_) check_header(*s);
        return std::move(result_);
    }

private:
    void place_list(const std::vector<const Stmt*>& list) {
        std::vector<bool> reaches(list.size());
        for (size_t k = 0; k < list.size(); ++k) reaches[k] = reaches_barrier(*list[k]);
        bool any_barrier = std::find(reaches.begin(), reaches.end(), true) != reaches.end();
        for (size_t k = 0; k < list.size(); ++k) {
            const Stmt* s = list[k];
            if (reaches[k]) {
                place_open(*s);
            } else if (any_barrier && (s->kind == Stmt::Kind::Decl || s->kind == Stmt::Kind::As)) {
                keep_outside(*s);
            } else {
                guarded_.push_back(s);
            }
        }
    }

    void keep_outside(const Stmt& s) {
        result_.outside.insert(&s);
        const Expr* read = memory_read_in_declaration(s);
        if (!read) return;
        if (splittable(s)) {
            result_.split.insert(&s);
            return;
        }
        bool is_decl = s.kind == Stmt::Kind::Decl;
        context_.refuse(is_decl ? s.location : read->location,
                        fmt::format("this {} reads memory before a barrier, but {} must skip it and still reach the "
                                    "barrier{}",
                                    is_decl ? "declaration" : "view's extent", context_.extra_units,
                                    unsplittable_because(s)));
    }

    // Why a declaration is not splittable, as the end of a refusal; empty
    // for one that is not a scalar with a value.
    static std::string unsplittable_because(const Stmt& s) {
        if (!scalar_with_value(s)) return "";  // the only scalar that is not splittable hides what it reads
        return fmt::format("; its value reads the '{}' it hides, so it cannot be declared first and assigned after: "
                           "rename it",
                           s.decl->name());
    }

    static bool scalar_with_value(const Stmt& s) {
        return s.kind == Stmt::Kind::Decl && s.decl->init && s.decl->forms.size() == 1 &&
               s.decl->forms.front().type.dimensions.empty();
    }

    // A scalar declaration every unit can make without its value: one whose
    // value reads no variable of its name (`float x = x * 2.0;` reads the
    // `x` it hides, which `x = x * 2.0;` after the declaration would not).
    static bool splittable(const Stmt& s) {
        if (!scalar_with_value(s)) return false;
        bool reads_own_name = false;
        for_each_var(*s.decl->init, [&](const Expr& v) { reads_own_name |= v.var.front().name == s.decl->name(); });
        return !reads_own_name;
    }

    void place_open(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Barrier: result_.open.insert(&s); return;
        case Stmt::Kind::Block:
            result_.open.insert(&s);
            place_list(statements_of(s));
            return;
        case Stmt::Kind::For:
        case Stmt::Kind::If: {
            bool reads = false;
            for (const Expr* part : header_of(s)) reads |= touches_memory(*part);
            if (reads) break;
            result_.open.insert(&s);
            headers_.push_back(&s);
            place_list(statements_of(s.kind == Stmt::Kind::For ? *s.loop_body : *s.then_branch));
            if (s.else_branch) place_list(statements_of(*s.else_branch));
            return;
        }
        case Stmt::Kind::Foreach:
            if (!context_.through_foreach) break;
            result_.open.insert(&s);
            place_list(statements_of(*s.loop_body));
            return;
        default:
            if (!has_own_barrier(s)) {
                context_.refuse(s.location, fmt::format("this statement calls a function that reaches a barrier; "
                                                        "{} must skip the call but still reach the barrier",
                                                        context_.extra_units));
                return;
            }
            break;
        }
        SourceLocation barrier = s.location;
        for_each_stmt(s, [&](const Stmt& c) {
            if (c.kind == Stmt::Kind::Barrier) barrier = c.location;
        });
        context_.refuse(barrier, fmt::format("{} must skip the code around this barrier but still reach it, and it "
                                             "is inside control flow the guard cannot be moved into",
                                             context_.extra_units));
    }

    // The variables whose values the extra units may not share with the
    // units that run: the index past the count, whatever the guarded
    // statements assign, and what every unit computes from those.
    void find_changed() {
        if (!context_.index.empty()) changed_.emplace(context_.index, "which is past the count for them");
        for (const Stmt* s : result_.split)
            changed_.emplace(s->decl->name(), "which only the units that run are given a value");
        for (const Stmt* run : guarded_)
            for_each_stmt(*run, [&](const Stmt& s) {
                for_each_own_write(
                    s, [](const Decl& param) { return param.is_written; },
                    [&](const Expr& v, const Expr*) { mark(v); });
            });
        for (size_t before = 0; before != changed_.size();) {
            before = changed_.size();
            for (const Stmt* s : result_.outside)
                if (s->kind == Stmt::Kind::Decl && s->decl->init && derive(s->decl->name(), *s->decl->init) &&
                    may_fault(*s->decl->init))
                    split_faulting(*s);
            for (const Stmt* s : headers_)
                if (s->kind == Stmt::Kind::For)
                    for (const Expr* part : header_of(*s))
                        if (part != s->condition.get()) derive(s->decl->name(), *part);
        }
    }

    // `s` may fail for the extra units (`q = 64 / (q - 105)`): only the
    // units that run compute its value.
    void split_faulting(const Stmt& s) {
        if (splittable(s)) {
            result_.split.insert(&s);
        } else if (refused_.insert(&s).second) {
            context_.refuse(s.location,
                            fmt::format("this declaration before a barrier could fail for {} (its value divides, "
                                        "shifts or raises to a power by a value they do not share), which must "
                                        "skip it and still reach the barrier{}",
                                        context_.extra_units, unsplittable_because(s)));
        }
    }

    void mark(const Expr& target) {
        if (target.kind == Expr::Kind::Var && !target.var.empty())
            changed_.emplace(target.var.front().name, "which the guarded statements change and they do not");
    }

    // `name`, computed from `value`, differs where `value` does; whether it does.
    bool derive(const std::string& name, const Expr& value) {
        const Expr* from = changed_in(value);
        if (from) changed_.emplace(name, fmt::format("which is computed from '{}'", from->var.front().name));
        return from;
    }

    const Expr* changed_in(const Expr& e) const {
        const Expr* found = nullptr;
        for_each_var(e, [&](const Expr& v) {
            if (!found && !v.hardware && changed_.count(v.var.front().name)) found = &v;
        });
        return found;
    }

    void check_header(const Stmt& s) {
        for (const Expr* part : header_of(s)) {
            const Expr* cause = changed_in(*part);
            if (!cause) continue;
            const std::string& name = cause->var.front().name;
            context_.refuse(part->location,
                            fmt::format("{} could decide this {} otherwise than the units that run (it depends on "
                                        "'{}', {}), and then not reach the barrier inside it as often as they do",
                                        context_.extra_units, s.kind == Stmt::Kind::For ? "loop" : "condition", name,
                                        changed_.at(name)));
            return;
        }
    }

    const GuardContext& context_;
    PushedGuard result_;
    std::vector<const Stmt*> guarded_;  // the statements run only under the guard
    std::vector<const Stmt*> headers_;  // the open `for` and `if` statements
    std::map<std::string, std::string> changed_;  // a variable the extra units do not share, and why
    std::set<const Stmt*> refused_;                // declarations refused while finding `changed_`
};

}  // namespace

PushedGuard push_guard(const std::vector<const Stmt*>& body, const GuardContext& context) {
    return GuardPusher(context).run(body);
}

bool reaches_barrier(const Stmt& s) {
    std::set<const Function*> explored;
    return reaches_barrier(s, explored);
}

}  // namespace mcl::mcpl
