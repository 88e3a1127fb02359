#include "compiler/sema/CheckDefiniteAssignment.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::mcpl {

namespace {

// The tracked locals every path so far has assigned; `done` when no path
// reaches this point (after a return), which assigns everything.
struct Assigned {
    std::set<const Decl*> decls;
    bool done = false;

    bool has(const Decl* d) const { return done || decls.count(d) > 0; }
    // The state after either of two paths.
    static Assigned either(const Assigned& a, const Assigned& b) {
        if (a.done) return b;
        if (b.done) return a;
        Assigned both;
        std::set_intersection(a.decls.begin(), a.decls.end(), b.decls.begin(), b.decls.end(),
                              std::inserter(both.decls, both.decls.end()));
        return both;
    }
};

class DefiniteAssignmentChecker {
public:
    explicit DefiniteAssignmentChecker(DiagnosticEngine& diags) : diags_(diags) {}

    void check_function(const Function& f) {
        tracked_.clear();
        reported_.clear();
        Assigned state;
        if (f.body) statement(*f.body, state);
    }

private:
    static bool trackable(const Decl& d) {
        if (d.is_const || d.init || !d.memory_spaces.empty() || d.forms.size() != 1) return false;
        const Type& t = d.forms.front().resolved_type;
        return t.primitive.has_value() && !t.is_array();
    }

    // A plain reference to a tracked variable (no field, no index).
    const Decl* tracked_variable(const Expr& e) const {
        if (e.kind != Expr::Kind::Var || e.var.size() != 1 || !e.var.front().indices.empty()) return nullptr;
        return tracked_.count(e.decl) ? e.decl : nullptr;
    }

    void read(const Expr& e, const Assigned& state) {
        for_each_var(e, [&](const Expr& var) {
            if (!var.decl || !tracked_.count(var.decl) || state.has(var.decl) || !reported_.insert(var.decl).second)
                return;
            Diagnostic& d = diags_.warning(
                var.location, fmt::format("'{}' may be read before it is assigned on some path", var.decl->name()));
            DiagnosticEngine::add_note(d, var.decl->forms.front().location, "declared here without a value");
        });
    }

    // The indices of an assignment's target are read; the variable itself is
    // read only by a compound assignment or a step.
    void read_target_indices(const Expr& target, const Assigned& state) {
        for (const VarPart& part : target.var)
            for (const auto& group : part.indices)
                for (const ExprPtr& index : group) read(*index, state);
    }

    void assign(const Expr& target, Assigned& state) {
        if (const Decl* d = tracked_variable(target)) state.decls.insert(d);
    }

    void call(const Expr& c, Assigned& state) {
        std::vector<const Expr*> assigned;
        for (size_t i = 0; i < c.args.size(); ++i) {
            const Decl* param = c.function && i < c.function->params.size() ? c.function->params[i].get() : nullptr;
            if (param && param->is_written && !param->is_read && tracked_variable(*c.args[i]))
                assigned.push_back(c.args[i].get());
            else
                read(*c.args[i], state);
        }
        for (const Expr* a : assigned) assign(*a, state);
    }

    void statement(const Stmt& s, Assigned& state) {
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const StmtPtr& inner : s.body) statement(*inner, state);
            return;
        case Stmt::Kind::Decl:
            for_each_own_expr(s, [&](const Expr& e) { read(e, state); });
            if (trackable(*s.decl)) {
                tracked_.insert(s.decl.get());
                state.decls.erase(s.decl.get());  // a declaration in a loop body starts unassigned each time
            }
            return;
        case Stmt::Kind::Assign:
            read(*s.value, state);
            read_target_indices(*s.target, state);
            if (s.op != "=") read(*s.target, state);
            assign(*s.target, state);
            return;
        case Stmt::Kind::Step:
            read(*s.target, state);
            return;
        case Stmt::Kind::Swap:
            read(*s.target, state);
            read(*s.value, state);
            return;
        case Stmt::Kind::Call:
            if (s.call->kind == Expr::Kind::Call) call(*s.call, state);
            else read(*s.call, state);
            return;
        case Stmt::Kind::Return:
            if (s.value) read(*s.value, state);
            state.done = true;
            return;
        case Stmt::Kind::If: {
            read(*s.condition, state);
            Assigned then_state = state, else_state = state;
            statement(*s.then_branch, then_state);
            if (s.else_branch) statement(*s.else_branch, else_state);
            state = Assigned::either(then_state, else_state);
            return;
        }
        case Stmt::Kind::For: {
            if (s.decl && s.decl->init) read(*s.decl->init, state);
            read(*s.condition, state);
            Assigned body_state = state;
            statement(*s.loop_body, body_state);
            if (s.step) statement(*s.step, body_state);
            // Only a loop whose constant bounds give it a first iteration
            // surely runs the body; any other may run it no times.
            if (std::optional<ConstantLoop> loop = constant_loop(s); loop && loop->trips > 0) state = body_state;
            return;
        }
        case Stmt::Kind::Foreach: {
            read(*s.count, state);
            Assigned body_state = state;
            statement(*s.loop_body, body_state);
            // A constant count of units surely runs the body, unless a
            // return in it ends its unit before the assignments.
            std::optional<int64_t> units = checked_constant_int_value(*s.count);
            if (units && *units > 0 && !may_return(*s.loop_body)) state = body_state;
            return;
        }
        case Stmt::Kind::Barrier:
        case Stmt::Kind::As:
            for_each_own_expr(s, [&](const Expr& e) {
                if (&e != s.target.get()) read(e, state);
            });
            return;
        }
    }

    DiagnosticEngine& diags_;
    std::set<const Decl*> tracked_, reported_;
};

}  // namespace

void check_definite_assignment(const Program& program, DiagnosticEngine& diags) {
    DefiniteAssignmentChecker checker(diags);
    for (const auto& m : program.modules)
        for (const auto& f : m->functions) checker.check_function(*f);
}

}  // namespace mcl::mcpl
