#include "backends/WriteCoverage.h"

#include <map>
#include <vector>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::backends {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

namespace {

class CoverageFinder {
public:
    explicit CoverageFinder(const Function& kernel) {
        for (size_t i = 0; i < kernel.params.size(); ++i) positions_[kernel.params[i].get()] = i;
    }

    std::set<size_t> run(const Function& kernel) {
        bool returns = false;
        mcpl::for_each_stmt(*kernel.body, [&](const Stmt& s) {
            returns = returns || s.kind == Stmt::Kind::Return;
            if (s.kind == Stmt::Kind::Swap && s.target->type.is_array())
                for (const Expr* side : {s.target.get(), s.value.get()}) swapped_.insert(side->decl);
        });
        if (!returns) visit(*kernel.body);
        return found_;
    }

private:
    // Only blocks and foreach loops run what they contain unconditionally.
    void visit(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const auto& child : s.body) visit(*child);
            return;
        case Stmt::Kind::Foreach:
            loops_.push_back(&s);
            visit(*s.loop_body);
            loops_.pop_back();
            return;
        case Stmt::Kind::Assign: assignment(*s.target); return;
        default: return;
        }
    }

    void assignment(const Expr& target) {
        if (target.kind != Expr::Kind::Var || target.var.size() != 1 || !target.decl) return;
        auto position = positions_.find(target.decl);
        const Decl& array = *target.decl;
        if (position == positions_.end() || target.form != &array.forms.front() || swapped_.count(&array)) return;
        std::vector<const Expr*> extents, indices;
        for (const auto& group : array.forms.front().type.dimensions)
            for (const auto& e : group) extents.push_back(e.get());
        for (const auto& group : target.var[0].indices)
            for (const auto& e : group) indices.push_back(e.get());
        if (extents.empty() || indices.size() != extents.size()) return;
        std::set<const Stmt*> used;
        for (size_t k = 0; k < indices.size(); ++k) {
            const Stmt* loop = loop_of(*indices[k]);
            if (!loop || !used.insert(loop).second || !mcpl::same_int_value(*loop->count, *extents[k])) return;
        }
        // Another loop around it must run at least once, or it may hide the
        // assignment altogether.
        for (const Stmt* loop : loops_) {
            auto count = mcpl::checked_constant_int_value(*loop->count);
            if (!used.count(loop) && (!count || *count < 1)) return;
        }
        found_.insert(position->second);
    }

    // The foreach around the assignment whose index `index` is, or nullptr.
    const Stmt* loop_of(const Expr& index) const {
        if (index.kind != Expr::Kind::Var || index.var.size() != 1 || !index.var[0].indices.empty()) return nullptr;
        for (const Stmt* loop : loops_)
            if (loop->decl.get() == index.decl) return loop;
        return nullptr;
    }

    std::map<const Decl*, size_t> positions_;
    // Arrays a swap redirects: their names may then refer to another's storage.
    std::set<const Decl*> swapped_;
    std::vector<const Stmt*> loops_;  // the foreach loops around the statement visited
    std::set<size_t> found_;
};

}  // namespace

std::set<size_t> WriteCoverage::fully_written_parameters(const Function& kernel) {
    return CoverageFinder(kernel).run(kernel);
}

WriteCoverage WriteCoverage::of(const mcpl::Module& module) {
    WriteCoverage coverage;
    for (const auto& f : module.functions)
        if (!f->builtin_body) coverage.fully_written_[f->name] = fully_written_parameters(*f);
    return coverage;
}

bool WriteCoverage::fully_written(const Function& kernel, size_t position) const {
    auto it = fully_written_.find(kernel.name);
    return it != fully_written_.end() && it->second.count(position);
}

}  // namespace mcl::backends
