#include "compiler/lower/InlineKernelCalls.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/ast/AstBuild.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/translate/OuterNames.h"

namespace mcl::lower {

namespace {

using mcpl::BasicDecl;
using mcpl::Expr;
using mcpl::ExprPtr;
using mcpl::Stmt;
using mcpl::StmtPtr;

// Inlined code inlines its own calls; the checker refuses recursion, so
// this only bounds a chain of calls.
constexpr int kMaxInlineDepth = 32;

bool holds_foreach(const Stmt& s) {
    bool found = false;
    mcpl::for_each_stmt(s, [&](const Stmt& inner) { found = found || inner.kind == Stmt::Kind::Foreach; });
    return found;
}

// `a`, not `a[i]`, `r.x` or an expression.
bool whole_variable(const Expr& e) {
    return e.kind == Expr::Kind::Var && e.var.size() == 1 && e.var[0].indices.empty() && e.decl && !e.hardware;
}

bool same_scalar_type(const mcpl::Type& a, const mcpl::Type& b) {
    return !a.is_array() && !b.is_array() && !a.record && !b.record && a.primitive && a.primitive == b.primitive;
}

// MCPL passes arrays, records and scalars the callee writes by reference.
bool by_reference(const mcpl::Decl& p) {
    const mcpl::Type& t = p.forms.front().resolved_type;
    return t.is_array() || t.record || p.is_written;
}

// `e` with the references to the forms in `values` replaced by those values.
ExprPtr substituted(const Expr& e, const std::map<const BasicDecl*, const Expr*>& values) {
    if (e.kind == Expr::Kind::Var) {
        auto it = values.find(mcpl::named_form(e));
        if (it != values.end()) return it->second->clone();
    }
    ExprPtr copy = e.clone();
    for (ExprPtr& arg : copy->args) arg = substituted(*arg, values);
    for (mcpl::VarPart& part : copy->var)
        for (auto& group : part.indices)
            for (ExprPtr& index : group) index = substituted(*index, values);
    return copy;
}

// Calls `visit(E&)` on every variable reference in `s` and the statements
// in it, the extents of declared types and views included.
template <typename S, typename Visit>
void for_each_var_in(S& s, Visit&& visit) {
    mcpl::for_each_stmt(s, [&](S& inner) {
        mcpl::for_each_own_expr(inner, [&](auto& e) { mcpl::for_each_var(e, visit); });
    });
}

class KernelCallInliner {
public:
    KernelCallInliner(mcpl::Function& caller, const translate::OuterNames& outer)
        : caller_(caller), caller_names_(mcpl::function_names(caller)), names_(caller, outer) {}

    // Whether a call was inlined.
    bool run() {
        visit_list(caller_.body->body, 0);
        return changed_;
    }

private:
    // The statements outside the foreach loops: the host's.
    void visit_list(std::vector<StmtPtr>& list, int depth) {
        for (size_t k = 0; k < list.size();) {
            if (list[k]->kind == Stmt::Kind::Call)
                if (auto inlined = inline_call(*list[k], depth)) {
                    list.erase(list.begin() + static_cast<std::ptrdiff_t>(k));
                    list.insert(list.begin() + static_cast<std::ptrdiff_t>(k), std::make_move_iterator(inlined->begin()),
                                std::make_move_iterator(inlined->end()));
                    k += inlined->size();
                    continue;
                }
            visit(list[k], depth);
            ++k;
        }
    }

    void visit(StmtPtr& slot, int depth) {
        Stmt& s = *slot;
        switch (s.kind) {
        case Stmt::Kind::Block: visit_list(s.body, depth); return;
        case Stmt::Kind::If:
            visit(s.then_branch, depth);
            if (s.else_branch) visit(s.else_branch, depth);
            return;
        case Stmt::Kind::For: visit(s.loop_body, depth); return;
        case Stmt::Kind::Call:
            if (auto inlined = inline_call(s, depth)) slot = mcpl::build::block(std::move(*inlined), s.location);
            return;
        default: return;  // a foreach's statements are not the host's
        }
    }

    // The statements that replace the call statement `s`, or nothing when
    // it stays a call.
    std::optional<std::vector<StmtPtr>> inline_call(const Stmt& s, int depth) {
        const Expr& call = *s.call;
        const mcpl::Function* callee = call.function;
        if (!callee || callee->builtin_body || depth >= kMaxInlineDepth || callee->module != caller_.module ||
            callee->hardware != caller_.hardware || !holds_foreach(*callee->body) || mcpl::may_return(*callee->body))
            return std::nullopt;
        std::map<const BasicDecl*, std::string> names;    // the callee's forms -> their names here
        std::map<const BasicDecl*, const Expr*> values;   // its parameters passed by value -> the arguments
        for (size_t k = 0; k < callee->params.size(); ++k) {
            const mcpl::Decl& p = *callee->params[k];
            const Expr& arg = *call.args[k];
            if (p.forms.size() != 1) return std::nullopt;
            if (by_reference(p)) {
                if (!whole_variable(arg)) return std::nullopt;
                names[&p.forms.front()] = arg.var[0].name;
            } else {
                if (!p.memory_spaces.empty()) return std::nullopt;
                values[&p.forms.front()] = &arg;
                // A scalar of the same type that nothing writes: the callee
                // reads the caller's variable, so that extents read from
                // parameters still read parameters (the hls backend sizes
                // its device arrays only from those).
                if (whole_variable(arg) && !arg.decl->is_written &&
                    same_scalar_type(p.forms.front().resolved_type, mcpl::named_form(arg)->resolved_type))
                    names[&p.forms.front()] = arg.var[0].name;
            }
        }
        for (size_t k = 0; k < callee->params.size(); ++k)
            if (callee->params[k]->forms.front().resolved_type.is_array() &&
                !same_layout(callee->params[k]->forms.front(), *call.args[k], values))
                return std::nullopt;
        std::set<const BasicDecl*> own;
        for (const auto& p : callee->params) own.insert(&p->forms.front());
        mcpl::for_each_stmt(*callee->body, [&](const Stmt& inner) {
            if (inner.decl)
                for (const BasicDecl& form : inner.decl->forms) own.insert(&form);
            for (const BasicDecl& view : inner.views) own.insert(&view);
        });
        if (reads_hidden_name(*callee, own)) return std::nullopt;

        std::vector<StmtPtr> out;
        for (size_t k = 0; k < callee->params.size(); ++k) {
            const BasicDecl& form = callee->params[k]->forms.front();
            if (!values.count(&form) || names.count(&form)) continue;
            names[&form] = names_.fresh(form.name);
            StmtPtr binding = mcpl::build::local(mcpl::Primitive::Int, names[&form], call.args[k]->clone(), s.location);
            binding->decl->forms.front().type = form.type.clone();  // the parameter's type, which converts the value
            binding->decl->is_const = true;
            out.push_back(std::move(binding));
        }
        StmtPtr body = callee->body->clone();
        rename_declared(*callee->body, *body, names);
        for_each_var_in(*body, [&](Expr& v) {
            auto it = names.find(mcpl::named_form(v));
            if (it != names.end()) v.var[0].name = it->second;
        });
        for (StmtPtr& inner : body->body) out.push_back(std::move(inner));
        visit_list(out, depth + 1);
        changed_ = true;
        return out;
    }

    // Whether the callee sees `arg`'s elements where the argument has them:
    // the same extents after the first (which the layout does not use), each
    // of a value nothing changes. Compared as written, once the callee's
    // by-value parameters are replaced by their arguments: a name both
    // extents read means the same there only if neither side writes it (a
    // written scalar parameter of the callee is the caller's argument
    // renamed, whatever the caller's variable of that name holds).
    bool same_layout(const BasicDecl& param, const Expr& arg, const std::map<const BasicDecl*, const Expr*>& values) {
        const BasicDecl* declared = mcpl::named_form(arg);
        const auto& want = param.type.dimensions;
        const auto& have = declared->type.dimensions;
        if (want.size() != have.size()) return false;
        for (size_t g = 0; g < want.size(); ++g) {
            if (want[g].size() != have[g].size()) return false;
            for (size_t d = 0; d < want[g].size(); ++d) {
                if (g == 0 && d == 0) continue;
                bool fixed = true;
                auto unwritten = [&](const Expr& v) { fixed = fixed && (!v.decl || !v.decl->is_written); };
                mcpl::for_each_var(*have[g][d], unwritten);
                mcpl::for_each_var(*want[g][d], [&](const Expr& v) {
                    if (!values.count(mcpl::named_form(v))) unwritten(v);
                });
                if (!fixed || mcpl::print_expr(*substituted(*want[g][d], values)) != mcpl::print_expr(*have[g][d]))
                    return false;
            }
        }
        return true;
    }

    // Whether the callee reads a name it does not declare (a module
    // constant, a description of a hardware value) that one of the
    // caller's names would hide: in its body, or in its parameters'
    // extents, which give the layout its indices read the arguments with
    // (and which same_layout compares as written).
    bool reads_hidden_name(const mcpl::Function& callee, const std::set<const BasicDecl*>& own) {
        bool hidden = false;
        auto visit = [&](const Expr& v) {
            if (v.hardware || !own.count(mcpl::named_form(v))) hidden = hidden || caller_names_.count(v.var[0].name) > 0;
        };
        for_each_var_in(*callee.body, visit);
        for (const auto& p : callee.params)
            for (const BasicDecl& form : p->forms)
                for (const auto& group : form.type.dimensions)
                    for (const auto& extent : group) mcpl::for_each_var(*extent, visit);
        return hidden;
    }

    // Gives the names `copy` (a clone of `original`) declares fresh names.
    void rename_declared(const Stmt& original, Stmt& copy, std::map<const BasicDecl*, std::string>& names) {
        if (original.decl)
            for (size_t k = 0; k < original.decl->forms.size(); ++k)
                copy.decl->forms[k].name = names[&original.decl->forms[k]] = names_.fresh(original.decl->forms[k].name);
        for (size_t k = 0; k < original.views.size(); ++k)
            copy.views[k].name = names[&original.views[k]] = names_.fresh(original.views[k].name);
        std::vector<const Stmt*> from;
        std::vector<Stmt*> to;
        mcpl::for_each_child_stmt(original, [&](const Stmt& child) { from.push_back(&child); });
        mcpl::for_each_child_stmt(copy, [&](Stmt& child) { to.push_back(&child); });
        for (size_t k = 0; k < from.size(); ++k) rename_declared(*from[k], *to[k], names);
    }

    mcpl::Function& caller_;
    std::set<std::string> caller_names_;  // declared by the caller: they could hide the callee's outer names
    translate::FreshNames names_;         // for the callee's locals
    bool changed_ = false;
};

}  // namespace

bool inline_kernel_calls(mcpl::Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    const translate::OuterNames outer = translate::outer_names(program, library);
    for (auto& m : program.modules)
        for (auto& f : m->functions)
            // Checked again before the next function: inlining reads what a
            // callee's references are bound to, and inlined code is unbound.
            if (KernelCallInliner(*f, outer).run() &&
                !mcpl::check_program(program, library, diags, {.launch_barriers = false, .barrier_uniformity = false}))
                return false;
    return true;
}

}  // namespace mcl::lower
