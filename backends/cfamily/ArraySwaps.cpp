#include "backends/cfamily/ArraySwaps.h"

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::backends {

namespace {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Stmt;

class SwapPlanner {
public:
    explicit SwapPlanner(ArraySwapPlan& plan) : plan_(plan) {}

    void function(const mcpl::Function& f) {
        for (const auto& p : f.params) owner_[p.get()] = nullptr;
        walk(*f.body, nullptr);
        for (const auto& p : f.params)
            if (p->forms.size() > 1) viewed_.insert(p.get());
    }

    // The redirected arrays that views name, and those swapped with one.
    void note_views() {
        for (const Decl* d : plan_.redirected)
            if (viewed_.count(d)) plan_.viewed.insert(d);
        for (bool grew = true; grew;) {
            grew = false;
            for (const auto& [a, b] : pairs_)
                if (plan_.viewed.count(a) != plan_.viewed.count(b)) {
                    plan_.viewed.insert({a, b});
                    grew = true;
                }
        }
    }

private:
    // `foreach_around`: the innermost foreach that `s` is in, if any.
    void walk(const Stmt& s, const Stmt* foreach_around) {
        if (s.kind == Stmt::Kind::Decl) owner_[s.decl.get()] = foreach_around;
        if (s.kind == Stmt::Kind::Decl && s.decl->forms.size() > 1) viewed_.insert(s.decl.get());
        if (s.kind == Stmt::Kind::As && s.target->decl) viewed_.insert(s.target->decl);
        if (s.kind == Stmt::Kind::Swap && s.target->type.is_array()) swap(s, foreach_around);
        const Stmt* inner = s.kind == Stmt::Kind::Foreach ? &s : foreach_around;
        mcpl::for_each_child_stmt(s, [&](const Stmt& child) { walk(child, inner); });
    }

    void swap(const Stmt& s, const Stmt* foreach_around) {
        const Expr& a = *s.target;
        const Expr& b = *s.value;
        if (swaps_views(s)) {
            plan_.refused[&s] = "swaps of views (`as`), whose names would trade storage that other names keep; "
                                "swap the arrays they view";
            return;
        }
        if (!swaps_whole_arrays(s)) return;  // tiles and record fields trade elements
        if (a.decl->memory_space != b.decl->memory_space) {
            plan_.refused[&s] = fmt::format("swaps of arrays of two memory spaces ('{}' and '{}')",
                                            a.decl->memory_space, b.decl->memory_space);
            return;
        }
        for (const Decl* d : {a.decl, b.decl}) {
            auto owner = owner_.find(d);
            if (owner != owner_.end() && owner->second == foreach_around) continue;
            plan_.refused[&s] = fmt::format(
                "swaps inside a foreach of arrays declared outside it ('{}', outside the foreach at line {}, each "
                "of whose units would swap it; swap outside the loop)",
                d->name(), foreach_around ? foreach_around->location.line : 0);
            return;
        }
        plan_.redirected.insert(a.decl);
        plan_.redirected.insert(b.decl);
        pairs_.emplace_back(a.decl, b.decl);
    }

    ArraySwapPlan& plan_;
    std::map<const Decl*, const Stmt*> owner_;  // array -> the innermost foreach it is declared in
    std::set<const Decl*> viewed_;              // arrays that views name
    std::vector<std::pair<const Decl*, const Decl*>> pairs_;  // the arrays of each pointer swap
};

// An array by its name alone (no index, no field): the name it was
// declared with, or a view's.
bool bare_name(const Expr& e) { return e.decl && e.var.size() == 1 && e.var[0].indices.empty(); }

}  // namespace

bool swaps_whole_arrays(const Stmt& s) {
    auto whole = [](const Expr& e) { return bare_name(e) && e.form == &e.decl->forms.front(); };
    return s.kind == Stmt::Kind::Swap && s.target->type.is_array() && whole(*s.target) && whole(*s.value);
}

bool swaps_views(const Stmt& s) {
    auto view = [](const Expr& e) { return bare_name(e) && e.form != &e.decl->forms.front(); };
    return s.kind == Stmt::Kind::Swap && s.target->type.is_array() && (view(*s.target) || view(*s.value));
}

ArraySwapPlan plan_array_swaps(const std::vector<const mcpl::Function*>& functions) {
    ArraySwapPlan plan;
    SwapPlanner planner(plan);
    for (const mcpl::Function* f : functions) planner.function(*f);
    planner.note_views();
    return plan;
}

}  // namespace mcl::backends
