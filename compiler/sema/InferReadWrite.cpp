#include "compiler/sema/InferReadWrite.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/sema/ResolveNames.h"

namespace mcl::mcpl {

namespace {

struct Access {
    bool read = false;
    bool written = false;
};

// What every variable of the program is known to be: parameters, locals,
// indices and constants, keyed by their declaration (declarations are unique
// across the program, so one map serves every function).
using AccessMap = std::map<const Decl*, Access>;

bool is_variable(const ExprPtr& e) { return e && e->kind == Expr::Kind::Var && e->decl; }

// One pass over one function's body: marks what it reads and writes, given
// what the callees' parameters are known to be so far. Reports whether
// anything new was learnt, so that the caller can iterate to a fixed point.
class AccessCollector {
public:
    explicit AccessCollector(AccessMap& access) : access_(access) {}

    bool changed() const { return changed_; }

    void function(const Function& fn) {
        for (const auto& param : fn.params) decl(*param);
        stmt(*fn.body);
    }

private:
    void mark(const Decl* d, Access a) {
        Access& known = access_[d];
        if ((a.read && !known.read) || (a.written && !known.written)) changed_ = true;
        known.read = known.read || a.read;
        known.written = known.written || a.written;
    }

    // A variable accessed as a whole (target, argument): its own access is
    // `a`; the indices along its path are read.
    void variable(const Expr& var, Access a) {
        if (var.decl) mark(var.decl, a);
        for (const VarPart& part : var.var)
            for (const auto& group : part.indices)
                for (const ExprPtr& index : group) read(*index);
    }

    void read(const Expr& e) {
        switch (e.kind) {
            case Expr::Kind::Var: variable(e, {.read = true}); break;
            case Expr::Kind::Call: call(e); break;
            default:
                for (const ExprPtr& arg : e.args) read(*arg);
                break;
        }
    }

    // An argument passed to a parameter takes on what the callee does with
    // the parameter; builtins only read their arguments, except the
    // declarations of builtin bodies.
    void call(const Expr& e) {
        for (size_t i = 0; i < e.args.size(); ++i) {
            const ExprPtr& arg = e.args[i];
            if (e.function && i < e.function->params.size() && is_variable(arg))
                variable(*arg, access_[e.function->params[i].get()]);
            else if (!e.function && e.callee == "mcl_builtin_read" && is_variable(arg))
                variable(*arg, {.read = true});
            else if (!e.function && e.callee == "mcl_builtin_write" && is_variable(arg))
                variable(*arg, {.written = true});
            else
                read(*arg);
        }
    }

    void type(const TypeExpr& t) {
        for (const auto& group : t.dimensions)
            for (const ExprPtr& extent : group) read(*extent);
    }

    void decl(const Decl& d) {
        for (const BasicDecl& form : d.forms) type(form.type);
        if (d.init) read(*d.init);
    }

    void stmt(const Stmt& s) {
        switch (s.kind) {
            case Stmt::Kind::Block:
                for (const StmtPtr& child : s.body) stmt(*child);
                break;
            case Stmt::Kind::Decl: decl(*s.decl); break;
            case Stmt::Kind::Assign:
                // `x = e` only writes x; `x += e` reads it too
                variable(*s.target, {.read = s.op != "=", .written = true});
                read(*s.value);
                break;
            case Stmt::Kind::Step: variable(*s.target, {.read = true, .written = true}); break;
            case Stmt::Kind::Swap:
                variable(*s.target, {.read = true, .written = true});
                variable(*s.value, {.read = true, .written = true});
                break;
            case Stmt::Kind::Call: call(*s.call); break;
            case Stmt::Kind::Return:
                if (s.value) read(*s.value);
                break;
            case Stmt::Kind::If:
                read(*s.condition);
                stmt(*s.then_branch);
                if (s.else_branch) stmt(*s.else_branch);
                break;
            case Stmt::Kind::For:
                decl(*s.decl);
                read(*s.condition);
                stmt(*s.step);
                stmt(*s.loop_body);
                break;
            case Stmt::Kind::Foreach:
                decl(*s.decl);
                read(*s.count);
                stmt(*s.loop_body);
                break;
            case Stmt::Kind::As:
                // a new view of the same storage: neither reads nor writes it
                variable(*s.target, {});
                for (const BasicDecl& view : s.views) type(view.type);
                break;
            case Stmt::Kind::Barrier: break;
        }
    }

    AccessMap& access_;
    bool changed_ = false;
};

// Every call a function makes: in its parameters' extents and its body.
template <typename Visit>
void for_each_call_of(const Function& fn, Visit&& visit) {
    for (const auto& param : fn.params)
        for (const BasicDecl& form : param->forms)
            for (const auto& group : form.type.dimensions)
                for (const ExprPtr& extent : group) for_each_call(*extent, visit);
    for_each_call_in(*fn.body, visit);
}

// Callees before callers (depth-first post-order over the call graph), so
// that one sweep settles every program without recursion.
std::vector<const Function*> callees_first(const Program& program) {
    std::vector<const Function*> order;
    std::set<const Function*> visited;
    auto visit = [&](auto& self, const Function* fn) -> void {
        if (!fn->body || !visited.insert(fn).second) return;
        for_each_call_of(*fn, [&](const Expr& call) {
            if (call.function) self(self, call.function);
        });
        order.push_back(fn);
    };
    for (const auto& module : program.modules)
        for (const auto& fn : module->functions) visit(visit, fn.get());
    return order;
}

// The rules that need the final flags: `const` is not written, and no
// variable is passed twice to a call that writes one of the two parameters.
class AccessChecker {
public:
    AccessChecker(const AccessMap& access, DiagnosticEngine& diags) : access_(access), diags_(diags) {}

    void function(const Function& fn) {
        check_written_extents(fn);
        for_each_stmt(*fn.body, [&](const Stmt& s) {
            switch (s.kind) {
                case Stmt::Kind::Assign:
                case Stmt::Kind::Step: check_write(*s.target); break;
                case Stmt::Kind::Swap:
                    check_write(*s.target);
                    check_write(*s.value);
                    break;
                default: break;
            }
            for_each_own_call(s, [&](const Expr& call) { check_call(call); });
            check_order(s);
        });
    }

private:
    bool writes(const Decl& param) const {
        auto it = access_.find(&param);
        return it != access_.end() && it->second.written;
    }

    Diagnostic* check_write(const Expr& var) {
        if (!var.decl || !var.decl->is_const) return nullptr;
        return &diags_.error(var.location, "'" + var.decl->name() + "' is const but is written here");
    }

    void check_call(const Expr& call) {
        if (!call.function) {
            if (call.callee == "mcl_builtin_write")
                for (const ExprPtr& arg : call.args)
                    if (is_variable(arg)) check_write(*arg);
            return;
        }
        const auto& params = call.function->params;
        size_t count = std::min(call.args.size(), params.size());
        // A const parameter that is written is reported inside the callee;
        // its callers are not at fault.
        for (size_t i = 0; i < count; ++i) {
            if (params[i]->is_const || !writes(*params[i])) continue;
            if (!is_variable(call.args[i])) {
                // What the callee writes must go somewhere: a C reference or
                // pointer cannot bind to a value.
                Diagnostic& d = diags_.error(call.args[i]->location,
                                             "'" + call.function->name + "' writes its parameter '" +
                                                 params[i]->name() + "': pass a variable, not a value");
                DiagnosticEngine::add_note(d, params[i]->forms.back().location, "parameter declared here");
                continue;
            }
            const Type& want = params[i]->forms.front().resolved_type;
            if (!want.is_array() && !want.record && want.valid() && call.args[i]->type.valid() &&
                !(call.args[i]->type == want)) {
                // The callee writes the caller's variable in place: a C
                // reference or pointer to another type cannot bind to it.
                Diagnostic& d = diags_.error(call.args[i]->location,
                                             fmt::format("'{}' writes its parameter '{}', a {}: pass a variable of that "
                                                         "type, not {}",
                                                         call.function->name, params[i]->name(), want.str(),
                                                         call.args[i]->type.str()));
                DiagnosticEngine::add_note(d, params[i]->forms.back().location, "parameter declared here");
                continue;
            }
            if (Diagnostic* d = check_write(*call.args[i]))
                DiagnosticEngine::add_note(*d, params[i]->forms.back().location,
                                           "'" + call.function->name + "' writes its parameter '" +
                                               params[i]->name() + "'");
        }
        std::set<const Decl*> reported;
        for (size_t j = 0; j < count; ++j)
            for (size_t i = 0; i < j; ++i)
                check_alias(call, i, j, reported);
    }

    // An array's extents are read where it is declared: the backends index
    // with the variables they name, the interpreter with their values then.
    // So a variable an extent names (a parameter) is not written.
    void check_written_extents(const Function& fn) {
        std::set<const Decl*> reported;
        auto check_form = [&](const BasicDecl& form) {
            for (const auto& group : form.type.dimensions)
                for (const ExprPtr& extent : group)
                    for_each_var(*extent, [&](const Expr& v) {
                        if (!v.decl || !writes(*v.decl) || !reported.insert(v.decl).second) return;
                        Diagnostic& d = diags_.error(
                            v.location, fmt::format("'{}' sizes '{}' and is written; an array's extents may not "
                                                    "change (write a copy of '{}' instead)",
                                                    v.decl->name(), form.name, v.decl->name()));
                        if (const Expr* write = first_write(fn, *v.decl))
                            DiagnosticEngine::add_note(d, write->location, "written here");
                    });
        };
        for (const auto& p : fn.params)
            for (const BasicDecl& form : p->forms) check_form(form);
        for_each_stmt(*fn.body, [&](const Stmt& s) {
            if (s.decl)
                for (const BasicDecl& form : s.decl->forms) check_form(form);
            for (const BasicDecl& view : s.views) check_form(view);
        });
    }

    // Where `fn` first writes `variable`: the target of an assignment, step
    // or swap, or the argument of a parameter a callee writes.
    const Expr* first_write(const Function& fn, const Decl& variable) const {
        const Expr* found = nullptr;
        for_each_stmt(*fn.body, [&](const Stmt& s) {
            for_each_own_write(
                s, [&](const Decl& param) { return writes(param); },
                [&](const Expr& v, const Expr* call) {
                    if (!found && v.decl == &variable) found = call ? call : &v;
                });
        });
        return found;
    }

    // The variables the calls in `roots` write, each with its call: what
    // is passed to a parameter the callee writes.
    std::vector<std::pair<const Expr*, const Decl*>> written_by_calls(const std::vector<const Expr*>& roots) const {
        std::vector<std::pair<const Expr*, const Decl*>> written;
        for (const Expr* root : roots)
            for_each_call(*root, [&](const Expr& call) {
                if (!call.function) return;
                const auto& params = call.function->params;
                for (size_t i = 0; i < std::min(call.args.size(), params.size()); ++i)
                    if (!params[i]->is_const && writes(*params[i]) && is_variable(call.args[i]))
                        written.emplace_back(&call, call.args[i]->decl);
            });
        return written;
    }

    static std::vector<const Expr*> own_exprs(const Stmt& s) {
        std::vector<const Expr*> roots;
        for_each_own_expr(s, [&](const Expr& e) { roots.push_back(&e); });
        return roots;
    }

    // MCPL does not define the order in which an expression evaluates its
    // operands, arguments and indices (the C backends evaluate them in an
    // order of their compiler's choice, the interpreter left to right): a
    // variable a call writes may not be used elsewhere in the statement,
    // except inside the call (its arguments are evaluated before it runs),
    // as an argument passed by reference to a call around it (which runs
    // after it), or as the target a plain assignment stores into after
    // it. A for loop's initial value and condition are evaluated at times
    // of their own. A swap evaluates each of its operands twice in the C
    // backends (read, then written), and divide_up its arguments, so no
    // call there may write.
    void check_order(const Stmt& s) {
        if (s.kind == Stmt::Kind::For) {
            if (s.decl && s.decl->init) check_order_in(s, {s.decl->init.get()});
            if (s.condition) check_order_in(s, {s.condition.get()});
            return;
        }
        check_order_in(s, own_exprs(s));
    }

    void check_order_in(const Stmt& s, const std::vector<const Expr*>& roots) {
        auto written = written_by_calls(roots);
        if (written.empty()) return;
        const auto& [first_call, first_variable] = written.front();
        if (s.kind == Stmt::Kind::Swap) {
            diags_.error(first_call->location, fmt::format("the call of '{}' writes '{}' inside a swap, which evaluates "
                                                           "its operands twice; call it before the swap",
                                                           first_call->callee, first_variable->name()));
            return;
        }
        std::set<const Expr*> in_divide_up;  // the C backends evaluate its arguments more than once
        for (const Expr* root : roots)
            for_each_call(*root, [&](const Expr& call) {
                if (!call.function && call.callee == "divide_up")
                    for (const ExprPtr& arg : call.args)
                        for_each_expr(*arg, [&](const Expr& e) { in_divide_up.insert(&e); });
            });
        for (const auto& [call, variable] : written)
            if (in_divide_up.count(call)) {
                diags_.error(call->location, fmt::format("the call of '{}' writes '{}' inside divide_up, which may "
                                                         "evaluate its arguments more than once; call it before",
                                                         call->callee, variable->name()));
                return;
            }
        for (const auto& call_and_variable : written) {
            // Plain locals, not a structured binding: the lambdas below capture
            // them, and clang before 16 does not capture bindings (the fuzz build).
            const Expr* call = call_and_variable.first;
            const Decl* variable = call_and_variable.second;
            std::set<const Expr*> sequenced;  // the uses of `variable` the call is ordered with
            for_each_expr(*call, [&](const Expr& e) { sequenced.insert(&e); });
            if (s.kind == Stmt::Kind::Assign && s.op == "=") sequenced.insert(s.target.get());
            for (const Expr* root : roots)
                for_each_call(*root, [&](const Expr& around) {
                    if (!around.function || &around == call) return;
                    bool holds_call = false;
                    for (const ExprPtr& arg : around.args)
                        for_each_expr(*arg, [&](const Expr& e) { holds_call = holds_call || &e == call; });
                    if (!holds_call) return;
                    const auto& params = around.function->params;
                    for (size_t i = 0; i < std::min(around.args.size(), params.size()); ++i)
                        if (is_variable(around.args[i]) && passed_by_reference(*params[i], writes(*params[i])))
                            sequenced.insert(around.args[i].get());
                });
            const Expr* other_use = nullptr;
            for (const Expr* root : roots)
                for_each_var(*root, [&](const Expr& v) {
                    if (!other_use && v.decl == variable && !sequenced.count(&v)) other_use = &v;
                });
            if (!other_use) continue;
            Diagnostic& d = diags_.error(
                other_use->location,
                fmt::format("'{}' is used here and written by the call of '{}' in the same statement, in an order "
                            "MCPL does not define; split the statement",
                            variable->name(), call->callee));
            DiagnosticEngine::add_note(d, call->location, fmt::format("'{}' writes '{}' here", call->callee,
                                                                      variable->name()));
            return;
        }
    }

    void check_alias(const Expr& call, size_t i, size_t j, std::set<const Decl*>& reported) {
        const ExprPtr& first = call.args[i];
        const ExprPtr& second = call.args[j];
        if (!is_variable(first) || !is_variable(second) || first->decl != second->decl) return;
        const auto& params = call.function->params;
        const Decl* written = writes(*params[i]) ? params[i].get()
                              : writes(*params[j]) ? params[j].get()
                                                   : nullptr;
        if (!written || !reported.insert(first->decl).second) return;
        // Through an `as` view the two arguments have different names.
        std::string first_name = first->form ? first->form->name : first->decl->name();
        std::string second_name = second->form ? second->form->name : first_name;
        std::string passed = first_name == second_name
                                 ? "'" + first_name + "' is passed twice"
                                 : "'" + first_name + "' and '" + second_name + "' name one storage and are both passed";
        Diagnostic& d = diags_.error(second->location, passed + " to '" + call.function->name +
                                                           "', which writes parameter '" + written->name() +
                                                           "'; MCPL forbids aliasing");
        DiagnosticEngine::add_note(d, first->location, "first passed here");
    }

    const AccessMap& access_;
    DiagnosticEngine& diags_;
};

// Writes the final flags into every declaration of the program.
class FlagSetter {
public:
    explicit FlagSetter(const AccessMap& access) : access_(access) {}

    void decl(Decl& d) const {
        auto it = access_.find(&d);
        if (it == access_.end()) return;
        d.is_read = it->second.read;
        d.is_written = it->second.written;
    }

    void stmt(Stmt& s) const {
        if (s.decl) decl(*s.decl);
        for (StmtPtr& child : s.body) stmt(*child);
        for (StmtPtr* child : {&s.then_branch, &s.else_branch, &s.step, &s.loop_body})
            if (*child) stmt(**child);
    }

private:
    const AccessMap& access_;
};

}  // namespace

void infer_read_write(Program& program, DiagnosticEngine& diags) {
    std::vector<const Function*> order = callees_first(program);
    AccessMap access;
    // Recursion can make a caller's parameter matter to its callee: repeat
    // until nothing changes. The flags only grow, so this terminates.
    for (bool changed = true; changed;) {
        changed = false;
        for (const Function* fn : order) {
            AccessCollector collector(access);
            collector.function(*fn);
            changed = changed || collector.changed();
        }
    }

    AccessChecker checker(access, diags);
    for (const Function* fn : order) checker.function(*fn);

    FlagSetter setter(access);
    for (auto& module : program.modules) {
        for (auto& constant : module->constants) setter.decl(*constant);
        for (auto& fn : module->functions) {
            for (auto& param : fn->params) setter.decl(*param);
            if (fn->body) setter.stmt(*fn->body);
        }
    }
}

}  // namespace mcl::mcpl
