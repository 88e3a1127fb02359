#include "feedback/RunFeedback.h"

#include <exception>

#include <fmt/format.h>

#include "feedback/RankRemarks.h"

namespace mcl::feedback {

std::vector<Remark> run_feedback(const mcpl::Program& program, const mcpl::Module& module,
                                 const hdl::HardwareLibrary& library, const Params& params,
                                 const std::vector<NamedPass>& passes) {
    std::vector<Remark> remarks;
    for (const auto& f : module.functions) {
        const hdl::HardwareModel* model = library.find(f->hardware);
        if (!model || f->builtin_body) continue;
        // GiNaC throws on a division by zero that example values can cause
        // (--param m=0 in n/m): the analysis stops with a remark instead of
        // taking mclc down.
        auto stopped = [&](RemarkKind kind, const std::string& what, const std::exception& e) {
            Remark r;
            r.kind = kind;
            r.location = f->location;
            r.message = fmt::format("{} analysis stopped: {}", what, e.what());
            r.approximate = true;
            remarks.push_back(std::move(r));
        };
        Symbols symbols(params);
        std::vector<Access> accesses;
        try {
            accesses = collect_accesses(*f, symbols);
        } catch (const std::exception& e) {
            for (const NamedPass& pass : passes) stopped(pass.kind, pass.name, e);
            continue;
        }
        FeedbackInput input{program, *f, *model, accesses, symbols};
        for (const NamedPass& pass : passes) {
            try {
                for (Remark& r : pass.run(input)) remarks.push_back(std::move(r));
            } catch (const std::exception& e) {
                stopped(pass.kind, pass.name, e);
            }
        }
    }
    estimate_impacts(remarks);
    return remarks;
}

}  // namespace mcl::feedback
