#include "compiler/sema/CheckMapping.h"

#include "compiler/ast/AstWalk.h"
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "support/Spelling.h"

namespace mcl::mcpl {

namespace {

// Scopes are numbered by depth in the parallelism hierarchy: 0 is the top
// level (outside every foreach), d > 0 is inside a unit of par_groups()[d-1].

// Calls `visit(expr, inside_foreach)` on every expression that a statement
// evaluates, with whether it runs inside a foreach body. A foreach count is
// evaluated by the enclosing scope, so it is outside the loop it bounds.
template <typename Visit>
void for_each_expr(const Stmt& s, bool inside_foreach, Visit&& visit) {
    for_each_own_expr(s, [&](const Expr& e) { visit(e, inside_foreach); });
    bool children_inside = inside_foreach || s.kind == Stmt::Kind::Foreach;
    for_each_child_stmt(s, [&](const Stmt& child) {
        // Only a foreach's body is inside it; a for's step is not a new scope.
        bool inside = (&child == s.loop_body.get()) ? children_inside : inside_foreach;
        for_each_expr(child, inside, visit);
    });
}

bool contains_foreach(const Stmt& s) {
    bool found = false;
    for_each_stmt(s, [&](const Stmt& child) { found |= child.kind == Stmt::Kind::Foreach; });
    return found;
}

// Device functions: functions without a foreach that run inside foreach
// loops because they are called there, directly or through other device
// functions (helpers such as blackscholes' `cnd`, library functions such as
// `atomicAdd`). Their code runs on the executing par_unit.
std::set<const Function*> device_functions(const Program& program) {
    std::set<const Function*> device;
    std::vector<const Function*> pending;
    auto called_inside_foreach = [&](const Function* callee) {
        if (callee && callee->body && !contains_foreach(*callee->body) &&
            device.insert(callee).second)
            pending.push_back(callee);
    };
    for (const auto& module : program.modules)
        for (const auto& fn : module->functions)
            if (fn->body)
                for_each_expr(*fn->body, false, [&](const Expr& e, bool inside_foreach) {
                    if (inside_foreach)
                        for_each_call(e, [&](const Expr& call) { called_inside_foreach(call.function); });
                });
    while (!pending.empty()) {
        const Function* fn = pending.back();
        pending.pop_back();
        for_each_expr(*fn->body, true, [&](const Expr& e, bool) {
            for_each_call(e, [&](const Expr& call) { called_inside_foreach(call.function); });
        });
    }
    return device;
}

void collect_assigned(const Stmt& s, std::set<const Decl*>& written) {
    auto write = [&](const ExprPtr& e) {
        if (e && e->kind == Expr::Kind::Var && e->decl) written.insert(e->decl);
    };
    if (s.kind == Stmt::Kind::Assign || s.kind == Stmt::Kind::Step || s.kind == Stmt::Kind::Swap) {
        write(s.target);
        if (s.kind == Stmt::Kind::Swap) write(s.value);
    }
    for (const StmtPtr& child : s.body) collect_assigned(*child, written);
    for (const StmtPtr* child : {&s.then_branch, &s.else_branch, &s.step, &s.loop_body})
        if (*child) collect_assigned(**child, written);
}

// The variables a function may write: targets of assignments, steps and
// swaps, arguments passed to a non-const parameter (the callee may write
// it: only `const` parameters are known to be read-only before
// infer_read_write runs) and `mcl_builtin_write` arguments.
std::set<const Decl*> possibly_written(const Function& fn) {
    std::set<const Decl*> written;
    collect_assigned(*fn.body, written);
    for_each_expr(*fn.body, false, [&](const Expr& e, bool) {
        for_each_call(e, [&](const Expr& call) {
            for (size_t i = 0; i < call.args.size(); ++i) {
                const Expr& arg = *call.args[i];
                bool may_write = call.function ? i < call.function->params.size() &&
                                                     !call.function->params[i]->is_const
                                               : call.callee == "mcl_builtin_write";
                if (may_write && arg.kind == Expr::Kind::Var && arg.decl) written.insert(arg.decl);
            }
        });
    });
    return written;
}

std::string quoted_list(const std::vector<std::string>& names) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
        out += "'" + names[i] + "'";
    }
    return out;
}

class FunctionChecker {
public:
    FunctionChecker(const hdl::HardwareModel& model, bool is_device_function,
                    std::set<const Decl*> written, DiagnosticEngine& diags)
        : model_(model), groups_(model.par_groups()), written_(std::move(written)), diags_(diags) {
        // A device function runs where it is called: on the executing
        // par_unit, as if inside a foreach over the innermost par_group.
        if (is_device_function && !groups_.empty()) enclosing_.push_back({groups_.size() - 1, nullptr});
    }

    void check(Function& fn) {
        for (auto& param : fn.params) check_decl(*param);
        check_stmt(*fn.body);
    }

private:
    struct EnclosingForeach {
        size_t group;        // index into groups_
        const Decl* index;   // null for the implicit loop around a device function
    };

    size_t current_scope() const { return enclosing_.empty() ? 0 : enclosing_.back().group + 1; }

    // The scope that declares a memory space (0 for top-level spaces).
    size_t scope_of_space(const std::string& space) const {
        const hdl::ParUnit* owner = model_.memory_space_owner(space);
        for (size_t i = 0; owner && i < groups_.size(); ++i)
            if (groups_[i]->unit.get() == owner) return i + 1;
        return 0;
    }

    const std::vector<hdl::MemorySpace>& spaces_declared_at(size_t scope) const {
        return scope == 0 ? model_.memory_spaces : groups_[scope - 1]->unit->memory_spaces;
    }

    std::vector<std::string> all_space_names() const {
        std::vector<std::string> names;
        for (const hdl::MemorySpace* m : model_.all_memory_spaces()) names.push_back(m->name);
        return names;
    }

    void check_stmt(Stmt& s) {
        switch (s.kind) {
            case Stmt::Kind::Block:
                for (StmtPtr& child : s.body) check_stmt(*child);
                break;
            case Stmt::Kind::Decl:
                check_decl(*s.decl);
                check_declared_where_shared(*s.decl);
                break;
            case Stmt::Kind::If:
                check_stmt(*s.then_branch);
                if (s.else_branch) check_stmt(*s.else_branch);
                break;
            case Stmt::Kind::For:
                check_decl(*s.decl);
                check_stmt(*s.loop_body);
                break;
            case Stmt::Kind::Foreach: check_foreach(s); break;
            case Stmt::Kind::Barrier: check_barrier(s); break;
            default: break;
        }
    }

    void check_foreach(Stmt& s) {
        check_count(*s.count);
        std::vector<std::string> names;
        for (const hdl::ParGroup* g : groups_) names.push_back(g->name);
        auto found = std::find(names.begin(), names.end(), s.name);
        if (found == names.end()) {
            diags_.error(s.name_location, "'" + s.name + "' is not a par_group of description '" +
                                              model_.name + "'" + did_you_mean(s.name, names));
            // Check the body where the loop stands, so that its other
            // errors are still found.
            check_stmt(*s.loop_body);
            return;
        }
        size_t index = static_cast<size_t>(found - names.begin());
        check_nesting(s, index);
        enclosing_.push_back({index, s.decl.get()});
        check_decl(*s.decl);
        check_stmt(*s.loop_body);
        enclosing_.pop_back();
    }

    // A foreach over par_groups()[index] is allowed outermost when index is
    // 0, or inside a foreach over the same par_group (multi-dimensional) or
    // over the par_group directly around it.
    void check_nesting(const Stmt& s, size_t index) {
        if (enclosing_.empty()) {
            if (index == 0) return;
            diags_.error(s.name_location, "foreach over '" + s.name +
                                              "' must be nested in a foreach over '" +
                                              groups_[index - 1]->name + "'");
            return;
        }
        size_t outer = enclosing_.back().group;
        if (index == outer || index == outer + 1) return;
        std::vector<std::string> expected{groups_[outer]->name};
        if (outer + 1 < groups_.size()) expected.push_back(groups_[outer + 1]->name);
        std::string message = index > outer
            ? "foreach over '" + s.name + "' must be nested in a foreach over '" +
                  groups_[index - 1]->name + "'"
            : "foreach over '" + s.name + "' cannot be nested in a foreach over '" +
                  groups_[outer]->name + "'";
        diags_.error(s.name_location,
                     message + "; expected a foreach over " + quoted_list(expected) + " here");
    }

    // A dimension must be known before the loop's units start: it may not
    // use the index of an enclosing foreach.
    void check_count(const Expr& e) {
        if (e.kind == Expr::Kind::Var && e.decl) {
            for (const EnclosingForeach& loop : enclosing_)
                if (loop.index == e.decl)
                    diags_.error(e.location, "the dimension of a foreach may not depend on '" +
                                                 e.decl->name() +
                                                 "', the index of an enclosing foreach");
        }
        for (const ExprPtr& arg : e.args) check_count(*arg);
        for (const VarPart& part : e.var)
            for (const auto& group : part.indices)
                for (const ExprPtr& index : group) check_count(*index);
    }

    void check_decl(Decl& d) {
        // Checking again after a translation chooses the space anew.
        d.memory_space.clear();
        if (!d.memory_spaces.empty()) {
            choose_named_space(d);
            return;
        }
        bool is_array = false;
        for (const BasicDecl& form : d.forms) is_array = is_array || !form.type.dimensions.empty();
        // A const variable is never written (infer_read_write reports it).
        if (!is_array && (d.is_const || !written_.count(&d))) return;
        for (size_t scope = current_scope() + 1; scope-- > 0;) {
            // the default of an enclosing par_unit would be shared by units
            // that each run this declaration (check_declared_where_shared)
            if (scope > 0 && scope < current_scope()) continue;
            for (const hdl::MemorySpace& m : spaces_declared_at(scope))
                if (m.is_default) {
                    d.memory_space = m.name;
                    return;
                }
        }
        diags_.error(d.forms.back().location,
                     "'" + d.name() + "' needs a memory space: no default memory space is visible here");
    }

    // A space that the units of a par_unit share is declared in the foreach
    // over its par_group. Deeper, every unit runs the declaration: the
    // reference gives each its own array, while the backends place one per
    // par_unit for all of them, which then race. A device function runs on
    // the innermost unit, so it is deeper too.
    void check_declared_where_shared(const Decl& d) {
        if (d.memory_space.empty()) return;
        size_t scope = scope_of_space(d.memory_space);
        if (scope == 0 || scope >= current_scope()) return;
        const hdl::ParGroup& owner = *groups_[scope - 1];
        const hdl::ParGroup& inner = *groups_[enclosing_.back().group];
        std::string shared = "memory space '" + d.memory_space + "' is shared by the units inside a '" +
                             owner.unit->name + "'";
        SourceLocation location = d.forms.front().location;
        for (size_t i = 0; i < d.memory_spaces.size() && i < d.memory_space_locations.size(); ++i)
            if (d.memory_spaces[i] == d.memory_space) location = d.memory_space_locations[i];
        if (!enclosing_.back().index) {
            diags_.error(location, "'" + d.name() + "' cannot be declared in a device function: " + shared +
                                       ", but a device function runs on each '" + inner.unit->name +
                                       "' that calls it; declare it inside the foreach over '" + owner.name +
                                       "' and pass it as a parameter");
            return;
        }
        diags_.error(location, "'" + d.name() + "' cannot be declared inside a foreach over '" + inner.name +
                                   "': " + shared + ", but here each '" + inner.unit->name +
                                   "' would declare its own; declare it inside the foreach over '" + owner.name +
                                   "', before the foreach over '" + groups_[scope]->name + "'");
    }

    // The first of the named spaces that is visible here; every name must be
    // a memory space of the description.
    void choose_named_space(Decl& d) {
        const std::string* hidden = nullptr;
        SourceLocation hidden_location;
        for (size_t i = 0; i < d.memory_spaces.size(); ++i) {
            const std::string& name = d.memory_spaces[i];
            SourceLocation location =
                i < d.memory_space_locations.size() ? d.memory_space_locations[i] : d.location;
            if (!model_.find_memory_space(name)) {
                diags_.error(location, "'" + name + "' is not a memory space of description '" +
                                           model_.name + "'" + did_you_mean(name, all_space_names()));
            } else if (scope_of_space(name) <= current_scope()) {
                if (d.memory_space.empty()) d.memory_space = name;
            } else if (!hidden) {
                hidden = &name;
                hidden_location = location;
            }
        }
        if (d.memory_space.empty() && hidden) {
            const hdl::ParGroup* group = groups_[scope_of_space(*hidden) - 1];
            diags_.error(hidden_location, "memory space '" + *hidden + "' belongs to par_unit '" +
                                              group->unit->name +
                                              "' and is not visible here; declare it inside a "
                                              "foreach over '" + group->name + "'");
        }
    }

    // Units synchronise through memory they share: a space declared around
    // the innermost foreach, not one private to each of its units.
    void check_barrier(const Stmt& s) {
        if (!model_.find_memory_space(s.name)) {
            diags_.error(s.name_location, "'" + s.name + "' is not a memory space of description '" +
                                              model_.name + "'" +
                                              did_you_mean(s.name, all_space_names()));
            return;
        }
        if (enclosing_.empty()) {
            diags_.error(s.location, "barrier outside any foreach: no units to synchronise");
            return;
        }
        const hdl::ParGroup* group = groups_[enclosing_.back().group];
        size_t unit_scope = current_scope();
        if (scope_of_space(s.name) < unit_scope) return;
        std::vector<std::string> shared;
        for (size_t scope = 0; scope < unit_scope; ++scope)
            for (const hdl::MemorySpace& m : spaces_declared_at(scope)) shared.push_back(m.name);
        std::string reason = scope_of_space(s.name) == unit_scope
            ? "which is private to each '" + group->unit->name + "'"
            : "which belongs to par_unit '" + groups_[scope_of_space(s.name) - 1]->unit->name +
                  "' inside each '" + group->unit->name + "'";
        std::string expected = shared.empty()
            ? "; no memory space is shared by the units of '" + group->name + "'"
            : "; expected a memory space shared by the units of '" + group->name + "': " +
                  quoted_list(shared);
        diags_.error(s.name_location, "barrier on '" + s.name + "', " + reason + expected);
    }

    const hdl::HardwareModel& model_;
    std::vector<const hdl::ParGroup*> groups_;  // outermost first
    std::set<const Decl*> written_;
    DiagnosticEngine& diags_;
    std::vector<EnclosingForeach> enclosing_;   // innermost last
};

}  // namespace

void check_mapping(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    std::set<const Function*> device = device_functions(program);
    for (auto& module : program.modules)
        for (auto& fn : module->functions) {
            const hdl::HardwareModel* model = library.find(fn->hardware);
            if (!model || !fn->body) continue;  // resolve_names reported the description
            FunctionChecker(*model, device.count(fn.get()) > 0, possibly_written(*fn), diags)
                .check(*fn);
        }
}

}  // namespace mcl::mcpl
