#include "compiler/translate/CheckLaunchBarriers.h"

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::translate {

namespace {

using mcpl::Stmt;

void check(const Stmt& s, bool in_outer_group, const hdl::ParGroup& outer, const hdl::HardwareModel& target,
           const std::map<const Stmt*, std::string>& written_spaces, DiagnosticEngine& diags) {
    if (s.kind == Stmt::Kind::Foreach) in_outer_group |= s.name == outer.name;
    if (s.kind == Stmt::Kind::Barrier && in_outer_group && target.find_memory_space(s.name) &&
        !target.memory_space_owner(s.name)) {
        auto written = written_spaces.find(&s);
        const std::string& space = written == written_spaces.end() ? s.name : written->second;
        std::string renamed = space == s.name ? ""
                                              : fmt::format(" ('{}' becomes '{}' there, which all of them share)",
                                                            space, s.name);
        diags.error(s.location,
                    fmt::format("barrier({}) would synchronise every unit of '{}' at '{}'{}, and '{}' cannot do that "
                                "inside one launch; end the foreach before the barrier and continue in a second "
                                "top-level foreach (each top-level foreach is its own launch)",
                                space, outer.name, target.name, renamed, target.name));
    }
    mcpl::for_each_child_stmt(s, [&](const Stmt& c) {
        check(c, in_outer_group, outer, target, written_spaces, diags);
    });
}

}  // namespace

void check_launch_barriers(const mcpl::Function& f, const hdl::HardwareModel& target,
                           const std::map<const mcpl::Stmt*, std::string>& written_spaces, DiagnosticEngine& diags) {
    std::vector<const hdl::ParGroup*> groups = target.par_groups();
    if (groups.size() < 2) return;  // one par_group: all units share the one launch
    check(*f.body, false, *groups.front(), target, written_spaces, diags);
}

}  // namespace mcl::translate
