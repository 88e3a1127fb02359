#include "compiler/sema/BarrierScopes.h"

#include <algorithm>

#include "compiler/ast/AstWalk.h"

namespace mcl::mcpl {

int BarrierScopes::group_level(const Function& fn, const std::string& name) const {
    const hdl::HardwareModel* model = find_model_(fn.hardware);
    if (!model) return 0;
    std::vector<const hdl::ParGroup*> groups = model->par_groups();
    for (size_t k = 0; k < groups.size(); ++k)
        if (groups[k]->name == name) return static_cast<int>(k);
    return 0;
}

int BarrierScopes::space_scope(const Function& fn, const std::string& space) const {
    const hdl::HardwareModel* model = find_model_(fn.hardware);
    if (!model) return 0;
    const hdl::ParUnit* owner = model->memory_space_owner(space);
    if (!owner) return 0;
    std::vector<const hdl::ParGroup*> groups = model->par_groups();
    for (size_t k = 0; k < groups.size(); ++k)
        if (groups[k]->unit.get() == owner) return static_cast<int>(k) + 1;
    return 0;
}

int BarrierScopes::scope(const Stmt& s, const Function& fn) {
    if (auto found = scopes_.find(&s); found != scopes_.end()) return found->second;
    int smallest = kNoBarrier;
    if (s.kind == Stmt::Kind::Barrier) smallest = space_scope(fn, s.name);
    for_each_own_call(s, [&](const Expr& c) {
        if (c.function && !c.function->builtin_body && c.function->body && in_progress_.insert(c.function).second) {
            smallest = std::min(smallest, scope(*c.function->body, *c.function));
            in_progress_.erase(c.function);
        }
    });
    for_each_child_stmt(s, [&](const Stmt& child) { smallest = std::min(smallest, scope(child, fn)); });
    scopes_.emplace(&s, smallest);
    return smallest;
}

}  // namespace mcl::mcpl
