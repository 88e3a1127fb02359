#include "feedback/LoopNest.h"

#include <set>

namespace mcl::feedback {

namespace {

using mcpl::Expr;
using mcpl::Stmt;

class AccessCollector {
public:
    AccessCollector(const mcpl::Function& f, Symbols& symbols) : symbols_(symbols) {
        for (const auto& p : f.params) parameters_.insert(p.get());
    }

    std::vector<Access> run(const Stmt& body) {
        statement(body);
        return std::move(accesses_);
    }

private:
    // Arrays, and scalar parameters that the kernel writes (they live in
    // memory, not in registers).
    bool is_memory(const Expr& e) const {
        if (!e.decl) return false;
        if (e.decl->forms.back().resolved_type.is_array()) return true;
        return parameters_.count(e.decl) && e.decl->is_written;
    }

    void expr(const Expr& e, bool read, bool written) {
        if (e.kind == Expr::Kind::Var) {
            if (is_memory(e)) {
                Access a;
                a.expr = &e;
                a.variable = e.decl;
                a.read = read;
                a.written = written;
                for (const auto& part : e.var)
                    for (const auto& group : part.indices)
                        for (const auto& index : group) a.indices.push_back(index.get());
                a.loops = loops_;
                a.approximate = conditional_ > 0 || unknown_loops_ > 0;
                accesses_.push_back(std::move(a));
            }
            for (const auto& part : e.var)
                for (const auto& group : part.indices)
                    for (const auto& index : group) expr(*index, true, false);
            return;
        }
        if (e.kind == Expr::Kind::Call && e.function) {
            const auto& params = e.function->params;
            for (size_t i = 0; i < e.args.size(); ++i) {
                bool param_read = i < params.size() ? params[i]->is_read : true;
                bool param_written = i < params.size() && params[i]->is_written;
                expr(*e.args[i], param_read, param_written);
            }
            return;
        }
        for (const auto& a : e.args) expr(*a, true, false);
    }

    void statement(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const auto& child : s.body) statement(*child);
            return;
        case Stmt::Kind::Decl:
            declaration(*s.decl);
            return;
        case Stmt::Kind::Assign:
            expr(*s.value, true, false);
            expr(*s.target, s.op != "=", true);
            return;
        case Stmt::Kind::Step:
            expr(*s.target, true, true);
            return;
        case Stmt::Kind::Swap:
            expr(*s.target, true, true);
            expr(*s.value, true, true);
            return;
        case Stmt::Kind::Call:
            expr(*s.call, true, false);
            return;
        case Stmt::Kind::Return:
            if (s.value) expr(*s.value, true, false);
            return;
        case Stmt::Kind::If:
            expr(*s.condition, true, false);
            ++conditional_;
            statement(*s.then_branch);
            if (s.else_branch) statement(*s.else_branch);
            --conditional_;
            return;
        case Stmt::Kind::For: {
            declaration(*s.decl);
            expr(*s.condition, true, false);
            Loop loop = describe_loop(s, symbols_);
            enter(loop);
            statement(*s.loop_body);
            statement(*s.step);
            leave(loop);
            return;
        }
        case Stmt::Kind::Foreach: {
            expr(*s.count, true, false);
            Loop loop = describe_loop(s, symbols_);
            enter(loop);
            statement(*s.loop_body);
            leave(loop);
            return;
        }
        case Stmt::Kind::Barrier:
        case Stmt::Kind::As:
            return;
        }
    }

    void declaration(const mcpl::Decl& d) {
        for (const auto& form : d.forms)
            for (const auto& group : form.type.dimensions)
                for (const auto& extent : group) expr(*extent, true, false);
        if (d.init) expr(*d.init, true, false);
        symbols_.define_constant(d);
    }

    void enter(const Loop& loop) {
        loops_.push_back(loop);
        if (!loop.iterations) ++unknown_loops_;
    }

    void leave(const Loop& loop) {
        loops_.pop_back();
        if (!loop.iterations) --unknown_loops_;
    }

    Symbols& symbols_;
    std::set<const mcpl::Decl*> parameters_;
    std::vector<Loop> loops_;
    std::vector<Access> accesses_;
    int conditional_ = 0;
    int unknown_loops_ = 0;
};

}  // namespace

Loop describe_loop(const Stmt& s, Symbols& symbols) {
    Loop loop;
    loop.stmt = &s;
    loop.index = s.decl.get();
    if (s.kind == Stmt::Kind::Foreach) {
        loop.is_foreach = true;
        loop.par_group = s.name;
        loop.iterations = symbols.expression(*s.count);
        return loop;
    }
    // for (int k = a; k < b; k++), k <= b, k += s: iterations (b - a) / s.
    const std::string& k = s.decl->name();
    std::optional<GiNaC::ex> start = s.decl->init ? symbols.expression(*s.decl->init) : std::nullopt;
    std::optional<GiNaC::ex> step;
    const Stmt& u = *s.step;
    bool steps_k = u.target && u.target->var.size() == 1 && u.target->var[0].name == k;
    if (steps_k && u.kind == Stmt::Kind::Step && u.op == "++") step = GiNaC::ex(1);
    if (steps_k && u.kind == Stmt::Kind::Assign && u.op == "+=") step = symbols.expression(*u.value);
    std::optional<GiNaC::ex> end;
    const Expr& c = *s.condition;
    bool bounds_k = c.kind == Expr::Kind::Binary && c.args[0]->kind == Expr::Kind::Var &&
                    c.args[0]->var.size() == 1 && c.args[0]->var[0].name == k;
    if (bounds_k && (c.op == "<" || c.op == "<=")) {
        end = symbols.expression(*c.args[1]);
        if (end && c.op == "<=") end = *end + 1;
    }
    if (start) loop.start = *start;
    if (step) loop.step = *step;
    if (start && step && end) loop.iterations = ((*end - *start) / *step).normal();
    return loop;
}

std::vector<Access> collect_accesses(const mcpl::Function& f, Symbols& symbols) {
    return AccessCollector(f, symbols).run(*f.body);
}

namespace {

// sum_{t=0}^{n-1} t^k as a polynomial in n (Faulhaber's formula with
// B_1 = -1/2, which sums up to n - 1).
GiNaC::ex power_sum(unsigned k, const GiNaC::ex& n) {
    GiNaC::ex sum = 0;
    for (unsigned j = 0; j <= k; ++j)
        sum += GiNaC::binomial(GiNaC::numeric(k + 1), GiNaC::numeric(j)) * GiNaC::bernoulli(GiNaC::numeric(j)) *
               GiNaC::pow(n, k + 1 - j);
    return (sum / (k + 1)).expand();
}

}  // namespace

GiNaC::ex sum_over_loop(const GiNaC::ex& per_iteration, const Loop& loop, Symbols& symbols, bool& approximate) {
    if (!loop.iterations) {
        approximate = true;
        return per_iteration;
    }
    const GiNaC::ex& n = *loop.iterations;
    GiNaC::symbol index = symbols.symbol(loop.index->name());
    if (!per_iteration.has(index)) return (per_iteration * n).expand();
    GiNaC::symbol t("t");
    GiNaC::ex body = per_iteration.subs(index == loop.start + loop.step * t).expand();
    if (!body.is_polynomial(t)) {
        approximate = true;
        return (body.subs(t == n - 1) * n).expand();
    }
    GiNaC::ex sum = 0;
    for (int k = body.ldegree(t); k <= body.degree(t); ++k) {
        GiNaC::ex c = body.coeff(t, k);
        if (!c.is_zero()) sum += c * power_sum(static_cast<unsigned>(k), n);
    }
    return sum.expand();
}

GiNaC::ex at_last_iteration(const GiNaC::ex& e, const std::vector<Loop>& loops, Symbols& symbols, bool& varies) {
    GiNaC::ex result = e;
    for (auto l = loops.rbegin(); l != loops.rend(); ++l) {
        GiNaC::symbol index = symbols.symbol(l->index->name());
        if (!result.has(index) || !l->iterations) continue;
        varies = true;
        result = result.subs(index == l->start + l->step * (*l->iterations - 1)).expand();
    }
    return result;
}

GiNaC::ex executions(const std::vector<Loop>& loops, Symbols& symbols, bool& approximate) {
    GiNaC::ex n = 1;
    for (auto l = loops.rbegin(); l != loops.rend(); ++l) n = sum_over_loop(n, *l, symbols, approximate);
    return n;
}

}  // namespace mcl::feedback
