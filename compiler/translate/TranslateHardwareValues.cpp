#include "compiler/translate/TranslateHardwareValues.h"

#include "compiler/ast/AstWalk.h"

namespace mcl::translate {

void translate_hardware_values(mcpl::Function& f, const hdl::HardwareModel& from, const hdl::HardwareModel& to,
                               const ParGroupMapping& mapping) {
    auto move_down = [&](mcpl::Expr& e) {
        if (!e.hardware || e.hardware->description != from.name || e.hardware->path.size() < 3 ||
            e.hardware->path.back() != "nr_processors")
            return;
        const std::vector<std::string>& path = e.hardware->path;
        const ParGroupMapEntry* entry = mapping.find(path[path.size() - 2]);
        if (!entry || entry->to.empty() || !entry->to.front() || !entry->to.front()->unit) return;
        const hdl::ParGroup& group = *entry->to.front();
        int64_t processors = to.nr_processors(group.unit->name);
        if (processors == 0) return;
        mcpl::HardwareValue moved{to.name, to.par_group_path(group), processors};
        moved.path.push_back("nr_processors");
        e.var.clear();
        e.var.push_back(mcpl::VarPart{to.name, {}, e.location});
        for (const std::string& part : moved.path) e.var.push_back(mcpl::VarPart{part, {}, e.location});
        e.hardware = std::move(moved);
    };
    auto in_expr = [&](mcpl::Expr& e) { mcpl::for_each_var(e, move_down); };
    for (auto& param : f.params)
        for (mcpl::BasicDecl& form : param->forms)
            for (auto& extents : form.type.dimensions)
                for (mcpl::ExprPtr& extent : extents) in_expr(*extent);
    mcpl::for_each_stmt(*f.body, [&](mcpl::Stmt& s) { mcpl::for_each_own_expr(s, in_expr); });
}

}  // namespace mcl::translate
