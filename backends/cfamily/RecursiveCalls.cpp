#include "backends/cfamily/RecursiveCalls.h"

#include <set>

#include "compiler/ast/AstWalk.h"

namespace mcl::backends {

using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

namespace {

class CallWalk {
public:
    void visit(const Function& f) {
        if (done_.count(&f)) return;
        on_path_.insert(&f);
        mcpl::for_each_call_in(*f.body, [&](const Expr& call) {
            const Function* callee = call.function;
            if (!callee || callee->builtin_body) return;
            if (on_path_.count(callee)) {
                if (reported_.insert(&call).second) found_.push_back(&call);
                return;
            }
            visit(*callee);
        });
        on_path_.erase(&f);
        done_.insert(&f);
    }

    std::vector<const Expr*> found_;

private:
    std::set<const Function*> on_path_;  // the functions the walk is in
    std::set<const Function*> done_;     // walked completely: no cycle through them is left to find
    std::set<const Expr*> reported_;
};

}  // namespace

std::vector<const Expr*> recursive_calls(const std::vector<const Function*>& kernels) {
    CallWalk walk;
    for (const Function* k : kernels) walk.visit(*k);
    return walk.found_;
}

}  // namespace mcl::backends
