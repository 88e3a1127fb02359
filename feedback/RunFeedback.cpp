#include "feedback/RunFeedback.h"

#include <exception>

#include <fmt/format.h>

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
        for (const NamedPass& pass : passes) {
            // GiNaC throws on a division by zero that example values can
            // cause (--param m=0 in n/m): the pass stops with a remark
            // instead of taking mclc down.
            try {
                for (Remark& r : pass.run(input)) remarks.push_back(std::move(r));
            } catch (const std::exception& e) {
                Remark r;
                r.kind = pass.kind;
                r.location = f->location;
                r.message = fmt::format("{} analysis stopped: {}", pass.name, e.what());
                r.approximate = true;
                remarks.push_back(std::move(r));
            }
        }
    }
    return remarks;
}

}  // namespace mcl::feedback
