#include "feedback/RunFeedback.h"

namespace mcl::feedback {

std::vector<Remark> run_feedback(const mcpl::Program& program, const mcpl::Module& module,
                                 const hdl::HardwareLibrary& library, const Params& params,
                                 const std::vector<NamedPass>& passes) {
    std::vector<Remark> remarks;
    for (const auto& f : module.functions) {
        const hdl::HardwareModel* model = library.find(f->hardware);
        if (!model || f->builtin_body) continue;
        Symbols symbols(params);
        std::vector<Access> accesses = collect_accesses(*f, symbols);
        FeedbackInput input{program, *f, *model, accesses, symbols};
        for (const NamedPass& pass : passes)
            for (Remark& r : pass.run(input)) remarks.push_back(std::move(r));
    }
    return remarks;
}

}  // namespace mcl::feedback
