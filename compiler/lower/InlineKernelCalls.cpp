#include "compiler/lower/InlineKernelCalls.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "compiler/ast/AstBuild.h"
#include "compiler/ast/AstWalk.h"
#include "compiler/print/PrintMcpl.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/ResolveNames.h"
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

// Calls `visit(S&)` on `s` and the statements nested in it that the host
// runs: a foreach loop, whose count the host evaluates, but not the
// statements inside it.
template <typename S, typename Visit>
void for_each_host_stmt(S& s, Visit&& visit) {
    visit(s);
    if (s.kind != Stmt::Kind::Foreach)
        mcpl::for_each_child_stmt(s, [&](S& child) { for_each_host_stmt(child, visit); });
}

// How a call's callee is inlined: what its names become in the caller.
struct InlinePlan {
    std::map<const BasicDecl*, std::string> names;   // the callee's forms -> their names here
    std::map<const BasicDecl*, const Expr*> values;  // its parameters passed by value -> the arguments
    std::set<const BasicDecl*> own;                  // the forms it declares, parameters included
};

// Whether and how the calls of one caller can be inlined.
class CallPlanner {
public:
    CallPlanner(const mcpl::Function& caller, const std::map<const mcpl::Decl*, int64_t>& constant_values)
        : caller_(caller), caller_names_(mcpl::function_names(caller)), constant_values_(constant_values) {}

    // Whether the call statement `s` calls a kernel: a function of the
    // caller's module and description whose body holds foreach loops.
    bool calls_kernel(const Stmt& s) const {
        const mcpl::Function* callee = s.call->function;
        return callee && !callee->builtin_body && callee->module == caller_.module &&
               callee->hardware == caller_.hardware && holds_foreach(*callee->body);
    }

    // The plan for inlining `s`, a call calls_kernel accepts, or why it
    // stays a call.
    std::variant<InlinePlan, std::string> plan(const Stmt& s) const {
        const Expr& call = *s.call;
        const mcpl::Function& callee = *call.function;
        if (mcpl::may_return(*callee.body)) return std::string("it returns outside its foreach loops");
        InlinePlan plan;
        for (size_t k = 0; k < callee.params.size(); ++k) {
            const mcpl::Decl& p = *callee.params[k];
            const Expr& arg = *call.args[k];
            if (mcpl::passed_by_reference(p, p.is_written)) {
                if (!whole_variable(arg))
                    return fmt::format("it takes '{}' by reference, and the argument '{}' is not a whole variable",
                                       p.name(), mcpl::print_expr(arg));
                plan.names[&p.forms.front()] = arg.var[0].name;
            } else {
                if (!p.memory_spaces.empty())
                    return fmt::format("its scalar parameter '{}' names a memory space", p.name());
                plan.values[&p.forms.front()] = &arg;
                // A scalar of the same type that nothing writes: the callee
                // reads the caller's variable, so that extents read from
                // parameters still read parameters (the hls backend sizes
                // its device arrays only from those).
                if (whole_variable(arg) && !arg.decl->is_written &&
                    same_scalar_type(p.forms.front().resolved_type, mcpl::named_form(arg)->resolved_type))
                    plan.names[&p.forms.front()] = arg.var[0].name;
            }
        }
        for (const auto& p : callee.params)
            for (const BasicDecl& form : p->forms) plan.own.insert(&form);
        mcpl::for_each_stmt(*callee.body, [&](const Stmt& inner) {
            if (inner.decl)
                for (const BasicDecl& form : inner.decl->forms) plan.own.insert(&form);
            for (const BasicDecl& view : inner.views) plan.own.insert(&view);
        });
        if (auto hidden = hidden_name(callee, plan.own))
            return fmt::format("it refers to '{0}', which the caller's '{0}' hides", *hidden);
        for (size_t k = 0; k < callee.params.size(); ++k) {
            const BasicDecl& param = callee.params[k]->forms.front();
            if (param.resolved_type.is_array() && !same_layout(param, *call.args[k], plan))
                return fmt::format("its parameter '{}', of type {} here, would not see the elements of '{}', of type "
                                   "{}, where they are: the extents after the first differ",
                                   param.name, mcpl::print_type(type_here(param, plan)),
                                   mcpl::print_expr(*call.args[k]),
                                   mcpl::print_type(mcpl::named_form(*call.args[k])->type));
        }
        for (size_t k = 0; k < callee.params.size(); ++k)
            if (auto why = why_views_stay(callee, *callee.params[k], *call.args[k], plan)) return *why;
        return plan;
    }

    // A visitor that replaces a reference to a hidden name of the callee's
    // (in a clone) by its value, where hidden_constant knows one.
    std::function<void(Expr&)> hidden_constant_replacer(const std::set<const BasicDecl*>& own) const {
        return [this, &own](Expr& v) {
            if (ExprPtr value = hidden_constant(v, own)) v = std::move(*value);
        };
    }

private:
    // Why the `as` views of the parameter `p` keep the call a call: the
    // inlined callee views the argument itself (an `as` statement in each
    // of its foreach loops that reads a view), so it needs an array
    // argument of the parameter's type exactly, the first extent included
    // (a view has the size of what it views), and its statements outside
    // the foreach loops, which have no such statement, must not read a view.
    std::optional<std::string> why_views_stay(const mcpl::Function& callee, const mcpl::Decl& p, const Expr& arg,
                                              const InlinePlan& plan) const {
        if (p.forms.size() == 1) return std::nullopt;
        const BasicDecl& storage = p.forms.front();
        if (!storage.resolved_type.is_array()) return fmt::format("its parameter '{}' has an 'as' view", storage.name);
        if (!same_layout(storage, arg, plan, true))
            return fmt::format("its parameter '{}' has an 'as' view, and the argument '{}', of type {}, is not of the "
                               "parameter's type {} here, which the view would need",
                               storage.name, mcpl::print_expr(arg), mcpl::print_type(mcpl::named_form(arg)->type),
                               mcpl::print_type(type_here(storage, plan)));
        std::set<const BasicDecl*> views;
        for (size_t f = 1; f < p.forms.size(); ++f) views.insert(&p.forms[f]);
        bool host_reads_view = false;
        for_each_host_stmt(*callee.body, [&](const Stmt& s) {
            mcpl::for_each_own_expr(s, [&](const Expr& e) {
                mcpl::for_each_var(e, [&](const Expr& v) { host_reads_view = host_reads_view || views.count(v.form); });
            });
        });
        if (host_reads_view)
            return fmt::format("its parameter '{}' has an 'as' view that its statements outside the foreach loops use",
                               storage.name);
        return std::nullopt;
    }

    // The value of `v`, a reference to a name outside the callee that one
    // of the caller's names hides, where it has one the program fixes: a
    // hardware value (a parameter named like the description it starts
    // with) or a module constant that folds. Null where `v` is not hidden
    // or has no such value.
    ExprPtr hidden_constant(const Expr& v, const std::set<const BasicDecl*>& own) const {
        if (!caller_names_.count(v.var[0].name)) return nullptr;
        if (v.hardware) return mcpl::build::int_literal(v.hardware->value, v.location);
        if (own.count(mcpl::named_form(v))) return nullptr;
        auto value = constant_values_.find(v.decl);
        return value == constant_values_.end() ? nullptr : mcpl::build::int_literal(value->second, v.location);
    }

    // A name the callee refers to and does not declare (a module constant,
    // a description of a hardware value, a function it calls, the record
    // type of a declaration) that one of the caller's names would hide and
    // whose value hidden_constant does not know: in its body, or in its
    // parameters' extents, which give the layout its indices read the
    // arguments with (and which same_layout compares as written). A
    // builtin's name stays a call of the builtin where a variable hides it.
    std::optional<std::string> hidden_name(const mcpl::Function& callee, const std::set<const BasicDecl*>& own) const {
        std::optional<std::string> hidden;
        auto visit = [&](const Expr& e) {
            if (hidden) return;
            if (e.kind == Expr::Kind::Call && e.function && caller_names_.count(e.callee)) hidden = e.callee;
            if (e.kind == Expr::Kind::Var && (e.hardware || !own.count(mcpl::named_form(e))) &&
                caller_names_.count(e.var[0].name) && !hidden_constant(e, own))
                hidden = e.var[0].name;
        };
        auto visit_type = [&](const mcpl::TypeExpr& t) {
            if (!hidden && !t.primitive && caller_names_.count(t.record_name)) hidden = t.record_name;
        };
        mcpl::for_each_stmt(*callee.body, [&](const Stmt& inner) {
            mcpl::for_each_own_expr(inner, [&](const Expr& e) { mcpl::for_each_expr(e, visit); });
            if (inner.decl)
                for (const BasicDecl& form : inner.decl->forms) visit_type(form.type);
            for (const BasicDecl& view : inner.views) visit_type(view.type);
        });
        for (const auto& p : callee.params)
            for (const BasicDecl& form : p->forms)
                for (const auto& group : form.type.dimensions)
                    for (const auto& extent : group) mcpl::for_each_expr(*extent, visit);
        return hidden;
    }

    // Whether the callee sees `arg`'s elements where the argument has them:
    // the same extents after the first (which the layout does not use; all
    // of them where `whole_type`). Compared as written, the callee's as the
    // caller sees it (type_here); what an extent names is not written (the
    // checker sees to it), so the same text is the same value.
    bool same_layout(const BasicDecl& param, const Expr& arg, const InlinePlan& plan, bool whole_type = false) const {
        const BasicDecl* declared = mcpl::named_form(arg);
        const auto& want = param.type.dimensions;
        const mcpl::TypeExpr want_here = type_here(param, plan);
        const auto& have = declared->type.dimensions;
        if (want.size() != have.size()) return false;
        for (size_t g = 0; g < want.size(); ++g) {
            if (want[g].size() != have[g].size()) return false;
            for (size_t d = 0; d < want[g].size(); ++d) {
                if (g == 0 && d == 0 && !whole_type) continue;
                if (mcpl::print_expr(*want_here.dimensions[g][d]) != mcpl::print_expr(*have[g][d])) return false;
            }
        }
        return true;
    }

    // The type of `param` as the caller sees it once inlined: its hidden
    // constants replaced by their values, the parameters it reads by the
    // arguments (or the names they are renamed to).
    mcpl::TypeExpr type_here(const BasicDecl& param, const InlinePlan& plan) const {
        mcpl::TypeExpr type = param.type.clone();
        for (auto& group : type.dimensions)
            for (ExprPtr& extent : group) {
                mcpl::for_each_var(*extent, hidden_constant_replacer(plan.own));
                mcpl::for_each_var(*extent, [&](Expr& v) {
                    auto it = plan.names.find(mcpl::named_form(v));
                    if (it != plan.names.end()) v.var[0].name = it->second;
                });
                extent = substituted(*extent, plan.values);
            }
        return type;
    }

    const mcpl::Function& caller_;
    std::set<std::string> caller_names_;  // declared by the caller: they could hide the callee's outer names
    const std::map<const mcpl::Decl*, int64_t>& constant_values_;
};

class KernelCallInliner {
public:
    KernelCallInliner(mcpl::Function& caller, const translate::OuterNames& outer)
        : caller_(caller), planner_(caller, outer.constant_values), names_(caller, outer) {}

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
        if (depth >= kMaxInlineDepth || !planner_.calls_kernel(s)) return std::nullopt;
        auto planned = planner_.plan(s);
        if (!std::holds_alternative<InlinePlan>(planned)) return std::nullopt;
        InlinePlan& plan = std::get<InlinePlan>(planned);
        const Expr& call = *s.call;
        const mcpl::Function& callee = *call.function;

        std::vector<StmtPtr> out;
        for (size_t k = 0; k < callee.params.size(); ++k) {
            const BasicDecl& form = callee.params[k]->forms.front();
            if (!plan.values.count(&form) || plan.names.count(&form)) continue;
            plan.names[&form] = names_.fresh(form.name);
            StmtPtr binding =
                mcpl::build::local(mcpl::Primitive::Int, plan.names[&form], call.args[k]->clone(), s.location);
            binding->decl->forms.front().type = form.type.clone();  // the parameter's type, which converts the value
            binding->decl->is_const = true;
            out.push_back(std::move(binding));
        }
        for (const auto& p : callee.params)
            for (size_t f = 1; f < p->forms.size(); ++f) plan.names[&p->forms[f]] = names_.fresh(p->forms[f].name);
        StmtPtr body = callee.body->clone();
        rename_declared(*callee.body, *body, plan.names);
        add_view_statements(callee, plan, *body);
        for_each_var_in(*body, planner_.hidden_constant_replacer(plan.own));
        for_each_var_in(*body, [&](Expr& v) {
            auto it = plan.names.find(mcpl::named_form(v));
            if (it != plan.names.end()) v.var[0].name = it->second;
        });
        for (StmtPtr& inner : body->body) out.push_back(std::move(inner));
        visit_list(out, depth + 1);
        changed_ = true;
        return out;
    }

    // Puts at the head of each foreach loop of `body` (the callee's, its
    // names still the callee's) that reads views of the callee's parameters
    // the `as` statements that declare them: the parameters' storage, which
    // the renaming makes the arguments, viewed as the parameters view it.
    // The planner saw to it that nothing outside the foreach loops reads a
    // view.
    static void add_view_statements(const mcpl::Function& callee, const InlinePlan& plan, Stmt& body) {
        for_each_host_stmt(body, [&](Stmt& loop) {
            if (loop.kind != Stmt::Kind::Foreach) return;
            std::set<const BasicDecl*> read;
            for_each_var_in(*loop.loop_body, [&](const Expr& v) { read.insert(v.form); });
            std::vector<StmtPtr> views;
            for (const auto& p : callee.params) {
                std::vector<BasicDecl> read_views;
                for (size_t f = 1; f < p->forms.size(); ++f)
                    if (read.count(&p->forms[f]))
                        read_views.push_back(
                            BasicDecl{p->forms[f].type.clone(), plan.names.at(&p->forms[f]), loop.location, {}});
                if (!read_views.empty())
                    views.push_back(mcpl::build::as_statement(
                        mcpl::build::var(plan.names.at(&p->forms.front()), loop.location), std::move(read_views)));
            }
            if (views.empty()) return;
            if (loop.loop_body->kind != Stmt::Kind::Block) {
                std::vector<StmtPtr> single;
                single.push_back(std::move(loop.loop_body));
                loop.loop_body = mcpl::build::block(std::move(single), loop.location);
            }
            auto& list = loop.loop_body->body;
            list.insert(list.begin(), std::make_move_iterator(views.begin()), std::make_move_iterator(views.end()));
        });
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
    CallPlanner planner_;
    translate::FreshNames names_;  // for the callee's locals
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
                !mcpl::check_program(program, library, diags, {.launch_barriers = false, .source_warnings = false}))
                return false;
    return true;
}

std::optional<std::string> why_kernel_call_stays(const mcpl::Program& program, const mcpl::Function& caller,
                                                 const mcpl::Stmt& call) {
    const std::map<const mcpl::Decl*, int64_t> constant_values = translate::module_constant_values(program);
    CallPlanner planner(caller, constant_values);
    if (call.kind != Stmt::Kind::Call || !planner.calls_kernel(call)) return std::nullopt;
    auto planned = planner.plan(call);
    if (const std::string* why = std::get_if<std::string>(&planned)) return *why;
    return std::nullopt;
}

}  // namespace mcl::lower
