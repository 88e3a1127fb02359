#include "compiler/lower/LowerUnitReturns.h"

#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/ast/AstBuild.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/translate/OuterNames.h"

namespace mcl::lower {

namespace {

using mcpl::Expr;
using mcpl::Stmt;
using mcpl::StmtPtr;
using namespace mcpl::build;

// A step that only counts the loop's own variable by a constant: running it
// once more after the unit returned reads and writes nothing else.
bool counting_step(const Stmt& loop) {
    const Stmt& step = *loop.step;
    const Expr& target = *step.target;
    if (target.var.size() != 1 || !target.var[0].indices.empty() || target.decl != loop.decl.get()) return false;
    if (step.kind == Stmt::Kind::Step) return true;
    auto literal = [](const Expr& e) {
        return e.kind == Expr::Kind::IntLiteral || e.kind == Expr::Kind::FloatLiteral;
    };
    if (step.op == "+=" || step.op == "-=") return literal(*step.value);
    // `j = j + 2`, `j = 2 + j`, `j = j - 2`
    const Expr& v = *step.value;
    if (step.op != "=" || v.kind != Expr::Kind::Binary || (v.op != "+" && v.op != "-")) return false;
    auto own = [&](const Expr& e) {
        return e.kind == Expr::Kind::Var && e.var.size() == 1 && e.var[0].indices.empty() && e.decl == loop.decl.get();
    };
    return (own(*v.args[0]) && literal(*v.args[1])) || (v.op == "+" && literal(*v.args[0]) && own(*v.args[1]));
}

class UnitReturnLowering {
public:
    UnitReturnLowering(mcpl::Function& f, const translate::OuterNames& outer, DiagnosticEngine& diags)
        : diags_(diags), names_(f, outer) {
        // Collected first: lowering moves statements into new blocks, not
        // the foreach loops themselves.
        mcpl::for_each_stmt(*f.body, [&](Stmt& s) {
            if (s.kind == Stmt::Kind::Foreach && mcpl::may_return(*s.loop_body)) loops_.push_back(&s);
        });
    }

    // Whether the function had a foreach body that returns.
    bool changes() const { return !loops_.empty(); }

    void run() {
        for (Stmt* loop : loops_) lower(*loop);
    }

private:
    void lower(Stmt& foreach_loop) {
        flag_ = names_.fresh("unit_returned");
        SourceLocation at = foreach_loop.loop_body->location;
        std::vector<StmtPtr> body = statement_list(std::move(foreach_loop.loop_body));
        lower_list(body);
        body.insert(body.begin(), local(mcpl::Primitive::Bool, flag_, bool_literal(false, at), at));
        foreach_loop.loop_body = block(std::move(body), at);
    }

    static std::vector<StmtPtr> statement_list(StmtPtr s) {
        if (s->kind == Stmt::Kind::Block) return std::move(s->body);
        std::vector<StmtPtr> list;
        list.push_back(std::move(s));
        return list;
    }

    mcpl::ExprPtr not_returned(SourceLocation at) const { return unary("!", var(flag_, at)); }

    // The statements after the first one that may return run only while
    // the unit has not returned.
    void lower_list(std::vector<StmtPtr>& list) {
        for (size_t k = 0; k < list.size(); ++k) {
            if (!mcpl::may_return(*list[k])) continue;
            lower_stmt(list[k]);
            std::vector<StmtPtr> rest(std::make_move_iterator(list.begin() + static_cast<std::ptrdiff_t>(k) + 1),
                                      std::make_move_iterator(list.end()));
            list.resize(k + 1);
            if (rest.empty()) return;
            lower_list(rest);
            SourceLocation at = rest.front()->location;
            list.push_back(if_then(not_returned(at), block(std::move(rest), at)));
            return;
        }
    }

    // `s` may return.
    void lower_stmt(StmtPtr& s) {
        switch (s->kind) {
        case Stmt::Kind::Return: s = assignment(var(flag_, s->location), bool_literal(true, s->location)); return;
        case Stmt::Kind::Block: lower_list(s->body); return;
        case Stmt::Kind::If:
            if (mcpl::may_return(*s->then_branch)) lower_stmt(s->then_branch);
            if (s->else_branch && mcpl::may_return(*s->else_branch)) lower_stmt(s->else_branch);
            return;
        case Stmt::Kind::For: lower_for(*s); return;
        default: return;  // nothing else holds statements of this unit
        }
    }

    void lower_for(Stmt& loop) {
        SourceLocation at = loop.loop_body->location;
        std::vector<StmtPtr> body = statement_list(std::move(loop.loop_body));
        lower_list(body);
        if (!counting_step(loop)) {
            SourceLocation step_at = loop.step->location;
            std::vector<StmtPtr> step;
            step.push_back(std::move(loop.step));
            body.push_back(if_then(not_returned(step_at), block(std::move(step), step_at)));
            loop.step = unchanging_step(loop, step_at);
        }
        loop.loop_body = block(std::move(body), at);
        mcpl::ExprPtr running = not_returned(loop.condition->location);
        loop.condition = binary("&&", std::move(running), std::move(loop.condition));
    }

    // A step that leaves the loop's variable as it is: `*= 1` (`+= 0` would
    // make -0.0 +0.0), or for a bool `= !!b`.
    StmtPtr unchanging_step(const Stmt& loop, SourceLocation at) {
        const mcpl::Type& type = loop.decl->forms.front().resolved_type;
        const std::string& name = loop.decl->name();
        if (type.is_numeric()) {
            StmtPtr step = assignment(var(name, at), int_literal(1, at));
            step->op = "*=";
            return step;
        }
        if (type.primitive == mcpl::Primitive::Bool && !type.is_array())
            return assignment(var(name, at), unary("!", unary("!", var(name, at))));
        diags_.error(at, fmt::format("a for loop over a {} whose body returns from the unit and whose step does more "
                                     "than count is not supported by the backends",
                                     type.str()));
        return assignment(var(name, at), var(name, at));
    }

    DiagnosticEngine& diags_;
    translate::FreshNames names_;  // the flags: each neither captures nor hides a name
    std::vector<Stmt*> loops_;     // the foreach loops whose bodies return
    std::string flag_;             // of the loop being lowered
};

}  // namespace

bool lower_unit_returns(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    const size_t errors = diags.error_count();
    const translate::OuterNames outer = translate::outer_names(program, library);
    bool changed = false;
    for (auto& m : program.modules)
        for (auto& f : m->functions) {
            UnitReturnLowering lowering(*f, outer, diags);
            if (!lowering.changes()) continue;
            lowering.run();
            changed = true;
        }
    if (diags.error_count() > errors) return false;
    return !changed ||
           mcpl::check_program(program, library, diags, {.launch_barriers = false, .source_warnings = false});
}

}  // namespace mcl::lower
