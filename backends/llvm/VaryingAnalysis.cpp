#include "backends/llvm/VaryingAnalysis.h"

#include "compiler/ast/AstWalk.h"

namespace mcl::backends::llvmir {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Stmt;

namespace {

Shape join(Shape a, Shape b) {
    if (a == b) return a;
    if (a == Shape::Uniform) return b == Shape::Linear ? Shape::Varying : b;
    return Shape::Varying;
}

// Whether `e` is an int, from its operands where the checker left its type
// unset (as it does for some arithmetic), the way C's conversions decide it.
bool is_int(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral: return true;
    case Expr::Kind::FloatLiteral:
    case Expr::Kind::BoolLiteral: return false;
    case Expr::Kind::Var:
        if (e.hardware) return true;
        if (e.var.size() == 1 && e.form) return e.form->resolved_type.primitive == mcpl::Primitive::Int;
        break;
    case Expr::Kind::Binary:
        if (e.op == "+" || e.op == "-" || e.op == "*" || e.op == "/" || e.op == "%")
            return is_int(*e.args[0]) && is_int(*e.args[1]);
        break;
    case Expr::Kind::Call:
        if (e.callee == "toInt" || e.callee == "divide_up") return true;
        if (e.callee == "min" || e.callee == "max") return is_int(*e.args[0]) && is_int(*e.args[1]);
        break;
    case Expr::Kind::Unary: break;
    }
    return !e.type.is_array() && e.type.primitive == mcpl::Primitive::Int;
}

class Analysis {
public:
    explicit Analysis(const Stmt& foreach_stmt) : foreach_(foreach_stmt) {}

    VaryingInfo run() {
        info_.vectorizable = true;
        const Decl* index = foreach_.decl.get();
        info_.shapes[index] = Shape::Linear;
        count_assignments(*foreach_.loop_body);
        for (bool changed = true; changed && info_.vectorizable;) {
            changed_ = false;
            walk(*foreach_.loop_body, 0);
            changed = changed_;
        }
        return info_;
    }

private:
    void refuse(const std::string& why) {
        if (info_.vectorizable) info_.reason = why;
        info_.vectorizable = false;
    }

    // How often each variable is assigned as a whole (declaration included).
    void count_assignments(const Stmt& body) {
        mcpl::for_each_stmt(body, [&](const Stmt& s) {
            if (s.kind == Stmt::Kind::Decl && s.decl->init) ++assignments_[s.decl.get()];
            if (s.kind == Stmt::Kind::For && s.decl && s.decl->init) ++assignments_[s.decl.get()];
            if ((s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step) && s.target->var.size() == 1 &&
                s.target->var[0].indices.empty() && s.target->decl)
                ++assignments_[s.target->decl];
        });
    }

    // `depth`: how many conditions that lanes may disagree on enclose the
    // assignment. Only those inside the variable's own scope make it differ
    // between lanes: a variable declared under a condition lives only in
    // the lanes that took it.
    void assign(const Decl* d, Shape value, int depth, bool at_declaration) {
        if (at_declaration) declaration_depth_[d] = depth;
        Shape incoming = value;
        if (depth > declaration_depth_[d]) incoming = Shape::Varying;
        if (incoming == Shape::Linear && !(at_declaration && assignments_[d] == 1)) incoming = Shape::Varying;
        // only an int keeps a linear form: a byte wraps, a float rounds
        if (incoming == Shape::Linear && d->forms.front().resolved_type.primitive != mcpl::Primitive::Int)
            incoming = Shape::Varying;
        auto found = info_.shapes.find(d);
        Shape updated = found == info_.shapes.end() ? incoming : join(found->second, incoming);
        if (found == info_.shapes.end() || found->second != updated) {
            info_.shapes[d] = updated;
            changed_ = true;
        }
    }

    void check_calls(const Expr& e) {
        mcpl::for_each_call(e, [&](const Expr& c) {
            if (!c.function) return;  // builtins: conversions, min, max, divide_up
            if (c.function->builtin_body) {
                if (c.callee == "atomicAdd" || c.callee == "atomicAddInt") refuse("an atomic update");
                return;
            }
            for (const auto& p : c.function->params)
                if (p->is_written || p->forms.front().resolved_type.is_array() || p->forms.front().resolved_type.record)
                    refuse("a call that takes an array, a record or a written parameter");
            if (c.function->resolved_return_type.record) refuse("a call that returns a record");
        });
    }

    // Whether `body` reads an array at an index that differs between lanes
    // other than linearly (a gather).
    bool gathers(const Stmt& body) const {
        bool found = false;
        mcpl::for_each_stmt(body, [&](const Stmt& s) {
            mcpl::for_each_own_expr(s, [&](const Expr& e) {
                mcpl::for_each_var(e, [&](const Expr& v) {
                    for (const mcpl::VarPart& part : v.var) {
                        std::vector<const Expr*> indices;
                        for (const auto& group : part.indices)
                            for (const auto& index : group) indices.push_back(index.get());
                        // contiguous only when the last index alone is linear
                        for (size_t k = 0; k < indices.size(); ++k) {
                            Shape shape = expression_shape(*indices[k], info_);
                            if (shape == Shape::Varying || (shape == Shape::Linear && k + 1 < indices.size())) found = true;
                        }
                    }
                });
            });
        });
        return found;
    }

    void declare(const Decl& d, int depth) {
        const mcpl::Type& t = d.forms.front().resolved_type;
        if (t.is_array() || t.record || d.forms.size() > 1) {
            refuse("a local array or record");
            return;
        }
        if (d.init) {
            check_calls(*d.init);
            assign(&d, expression_shape(*d.init, info_), depth, true);
        } else {
            declaration_depth_[&d] = depth;
            if (!info_.shapes.count(&d)) info_.shapes[&d] = Shape::Uniform;
        }
    }

    void walk(const Stmt& s, int depth) {
        if (!info_.vectorizable) return;
        mcpl::for_each_own_expr(s, [&](const Expr& e) { check_calls(e); });
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const auto& child : s.body) walk(*child, depth);
            return;
        case Stmt::Kind::Decl: declare(*s.decl, depth); return;
        case Stmt::Kind::Assign:
        case Stmt::Kind::Step: {
            const Expr& target = *s.target;
            if (target.type.record || (target.form && target.var.size() == 1 && target.form->resolved_type.element().record)) {
                refuse("a record assignment");
                return;
            }
            if (target.var.size() != 1 || !target.var[0].indices.empty()) return;  // a store to memory
            if (!target.decl || !info_.shapes.count(target.decl)) {
                refuse("an assignment to a variable declared outside the loop");
                return;
            }
            Shape value = s.kind == Stmt::Kind::Step ? Shape::Uniform : expression_shape(*s.value, info_);
            if (s.kind == Stmt::Kind::Step || s.op != "=") value = join(value, info_.shape_of(target.decl));
            if (value == Shape::Linear) value = Shape::Varying;  // an update keeps no linear form
            assign(target.decl, value, depth, false);
            return;
        }
        case Stmt::Kind::Call: return;
        case Stmt::Kind::If: {
            int inner = depth + (expression_shape(*s.condition, info_) != Shape::Uniform ? 1 : 0);
            walk(*s.then_branch, inner);
            if (s.else_branch) walk(*s.else_branch, inner);
            return;
        }
        case Stmt::Kind::For: {
            declare(*s.decl, depth);
            bool varying_trips = expression_shape(*s.condition, info_) != Shape::Uniform;
            if (varying_trips && gathers(*s.loop_body)) {
                // every lane would wait for the longest trip, gathering one
                // element at a time (spmv's rows): a scalar loop per unit is faster
                refuse("a loop whose trip count differs between units and that reads memory lane by lane");
                return;
            }
            int inner = depth + (varying_trips ? 1 : 0);
            walk(*s.loop_body, inner);
            walk(*s.step, inner);
            return;
        }
        case Stmt::Kind::Swap: refuse("a swap"); return;
        case Stmt::Kind::As: refuse("a view"); return;
        case Stmt::Kind::Return: refuse("a return"); return;
        case Stmt::Kind::Foreach: refuse("a nested foreach"); return;
        case Stmt::Kind::Barrier: refuse("a barrier"); return;
        }
    }

    const Stmt& foreach_;
    VaryingInfo info_;
    std::map<const Decl*, int> assignments_;
    std::map<const Decl*, int> declaration_depth_;
    bool changed_ = false;
};

}  // namespace

VaryingInfo analyze_varying(const Stmt& foreach_stmt) { return Analysis(foreach_stmt).run(); }

Shape expression_shape(const Expr& e, const VaryingInfo& info) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral:
    case Expr::Kind::FloatLiteral:
    case Expr::Kind::BoolLiteral: return Shape::Uniform;
    case Expr::Kind::Var: {
        if (e.hardware) return Shape::Uniform;
        bool indexed = false;
        for (const mcpl::VarPart& part : e.var)
            for (const auto& group : part.indices)
                for (const auto& index : group) {
                    indexed = true;
                    if (expression_shape(*index, info) != Shape::Uniform) return Shape::Varying;
                }
        if (indexed || e.var.size() > 1) return Shape::Uniform;  // one element read by every lane
        return info.shape_of(e.decl);
    }
    case Expr::Kind::Call: {
        Shape s = Shape::Uniform;
        for (const auto& a : e.args) s = join(s, expression_shape(*a, info));
        if (s == Shape::Linear && !(e.callee == "toInt" && is_int(e))) s = Shape::Varying;
        return s;
    }
    case Expr::Kind::Unary: {
        Shape s = expression_shape(*e.args[0], info);
        return s == Shape::Uniform ? s : Shape::Varying;
    }
    case Expr::Kind::Binary: {
        Shape a = expression_shape(*e.args[0], info), b = expression_shape(*e.args[1], info);
        if (a == Shape::Uniform && b == Shape::Uniform) return Shape::Uniform;
        if (is_int(e) && is_int(*e.args[0]) && is_int(*e.args[1])) {
            if (e.op == "+" && ((a == Shape::Linear && b == Shape::Uniform) || (a == Shape::Uniform && b == Shape::Linear)))
                return Shape::Linear;
            if (e.op == "-" && a == Shape::Linear && b == Shape::Uniform) return Shape::Linear;
        }
        return Shape::Varying;
    }
    }
    return Shape::Varying;
}

}  // namespace mcl::backends::llvmir
