#include "driver/TileSizes.h"

#include <functional>
#include <set>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::driver {

using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

std::vector<int64_t> tile_sizes(const Function& kernel) {
    std::set<int64_t, std::greater<>> sizes;
    auto note = [&](const Expr& e) {
        if (auto v = mcpl::checked_constant_int_value(e); v && *v > 1) sizes.insert(*v);
    };
    auto divisor_of = [](const Expr& e) -> const Expr* {
        if (e.kind == Expr::Kind::Call && e.callee == "divide_up" && e.args.size() == 2) return e.args[1].get();
        bool division = e.kind == Expr::Kind::Binary && (e.op == "/" || e.op == "%") && e.args.size() == 2;
        if (division && !mcpl::checked_constant_int_value(*e.args[0])) return e.args[1].get();
        return nullptr;
    };
    std::set<const Function*> visited;
    std::function<void(const Function&)> visit = [&](const Function& f) {
        if (!f.body || !visited.insert(&f).second) return;
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) {
            if (s.kind == Stmt::Kind::Foreach && s.count) note(*s.count);
            mcpl::for_each_own_expr(s, [&](const Expr& own) {
                mcpl::for_each_expr(own, [&](const Expr& e) {
                    if (const Expr* divisor = divisor_of(e)) note(*divisor);
                    if (e.kind == Expr::Kind::Call && e.function) visit(*e.function);
                });
            });
        });
    };
    visit(kernel);
    return {sizes.begin(), sizes.end()};
}

}  // namespace mcl::driver
