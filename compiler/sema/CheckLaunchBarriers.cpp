#include "compiler/sema/CheckLaunchBarriers.h"

#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::mcpl {

namespace {

class LaunchBarrierChecker {
public:
    LaunchBarrierChecker(const hdl::ParGroup& outer, const hdl::HardwareModel& target,
                         const std::map<const Stmt*, std::string>& written_spaces, DiagnosticEngine& diags)
        : outer_(outer), target_(target), written_spaces_(written_spaces), diags_(diags) {}

    // `call` is the call inside the foreach through which `s` is reached, if any.
    void check(const Stmt& s, bool in_outer_group, const Expr* call) {
        if (s.kind == Stmt::Kind::Foreach) in_outer_group |= s.name == outer_.name;
        if (s.kind == Stmt::Kind::Barrier && in_outer_group) check_barrier(s, call);
        // A function called inside the foreach runs its barriers there too.
        if (in_outer_group)
            for_each_own_call(s, [&](const Expr& c) {
                if (!c.function || !active_.insert(c.function).second) return;
                check(*c.function->body, true, call ? call : &c);
                active_.erase(c.function);
            });
        for_each_child_stmt(s, [&](const Stmt& c) { check(c, in_outer_group, call); });
    }

private:
    void check_barrier(const Stmt& s, const Expr* call) {
        if (!target_.find_memory_space(s.name) || target_.memory_space_owner(s.name)) return;
        if (!reported_.insert(&s).second) return;
        auto written = written_spaces_.find(&s);
        const std::string& space = written == written_spaces_.end() ? s.name : written->second;
        std::string renamed = space == s.name ? ""
                                              : fmt::format(" ('{}' becomes '{}' there, which all of them share)",
                                                            space, s.name);
        auto& d = diags_.error(s.location,
                               fmt::format("barrier({}) would synchronise every unit of '{}' at '{}'{}, and '{}' "
                                           "cannot do that inside one launch; end the foreach before the barrier "
                                           "and continue in a second top-level foreach (each top-level foreach is "
                                           "its own launch)",
                                           space, outer_.name, target_.name, renamed, target_.name));
        if (call)
            DiagnosticEngine::add_note(d, call->location,
                                       fmt::format("reached through this call of '{}' inside a foreach over '{}'",
                                                   call->callee, outer_.name));
    }

    const hdl::ParGroup& outer_;
    const hdl::HardwareModel& target_;
    const std::map<const Stmt*, std::string>& written_spaces_;
    DiagnosticEngine& diags_;
    std::set<const Function*> active_;  // the calls being followed (recursion ends there)
    std::set<const Stmt*> reported_;
};

}  // namespace

void check_launch_barriers(const Function& f, const hdl::HardwareModel& target,
                           const std::map<const Stmt*, std::string>& written_spaces, DiagnosticEngine& diags) {
    std::vector<const hdl::ParGroup*> groups = target.par_groups();
    if (groups.size() < 2) return;  // one par_group: all units share the one launch
    LaunchBarrierChecker(*groups.front(), target, written_spaces, diags).check(*f.body, false, nullptr);
}

}  // namespace mcl::mcpl
