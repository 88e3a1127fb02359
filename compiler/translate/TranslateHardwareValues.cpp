#include "compiler/translate/TranslateHardwareValues.h"

#include "compiler/ast/AstWalk.h"

namespace mcl::translate {

namespace {

// The dotted path of `g` in `model` below the description's name:
// <hierarchy>.<group>.<unit>. ... .<g>.
std::vector<std::string> group_path(const hdl::HardwareModel& model, const hdl::ParGroup& g) {
    std::vector<std::string> path{model.parallelism_name};
    for (const hdl::ParGroup* at : model.par_groups()) {
        path.push_back(at->name);
        if (at == &g) break;
        path.push_back(at->unit->name);
    }
    return path;
}

}  // namespace

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
        mcpl::HardwareValue moved{to.name, group_path(to, group), processors};
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
