#include "tests/feedback/FeedbackTestSupport.h"

#include <fstream>
#include <sstream>

#include "compiler/translate/Translate.h"
#include "feedback/RunFeedback.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::feedback::testing {

FeedbackResult feedback_for(const std::string& text, const std::string& level, const Params& params,
                            const std::vector<NamedPass>& passes) {
    FeedbackResult result;
    mcpl::testing::CheckedText c = mcpl::testing::check_text(text, "t.mcl", {MCL_EXAMPLES_DIR});
    bool ok = !c.diags->has_errors();
    if (ok && !level.empty()) ok = translate::translate_program(c.program, level, *c.library, *c.diags);
    result.diagnostics = c.text();
    if (!ok || !c.module()) return result;
    result.remarks = passes.empty() ? run_feedback(c.program, *c.module(), *c.library, params)
                                    : run_feedback(c.program, *c.module(), *c.library, params, passes);
    return result;
}

FeedbackResult feedback_for_example(const std::string& path, const std::string& level, const Params& params,
                                    const std::vector<NamedPass>& passes) {
    std::ifstream in(std::string(MCL_EXAMPLES_DIR) + "/" + path);
    std::stringstream text;
    text << in.rdbuf();
    return feedback_for(text.str(), level, params, passes);
}

std::vector<NamedPass> only_pass(const std::string& name) {
    for (const NamedPass& p : feedback_passes())
        if (name == p.name) return {p};
    throw std::runtime_error("no feedback pass named " + name);
}

std::vector<Remark> of_kind(const std::vector<Remark>& remarks, RemarkKind kind) {
    std::vector<Remark> out;
    for (const Remark& r : remarks)
        if (r.kind == kind) out.push_back(r);
    return out;
}

const NamedQuantity* find_quantity(const Remark& r, const std::string& name) {
    for (const NamedQuantity& q : r.quantities)
        if (q.name == name) return &q;
    return nullptr;
}

std::optional<double> quantity_value(const Remark& r, const std::string& name) {
    const NamedQuantity* q = find_quantity(r, name);
    return q ? q->value : std::nullopt;
}

bool same_expression(const GiNaC::ex& e, const std::string& expected) {
    GiNaC::symtab table;
    for (GiNaC::const_preorder_iterator it = e.preorder_begin(); it != e.preorder_end(); ++it)
        if (GiNaC::is_a<GiNaC::symbol>(*it)) table[GiNaC::ex_to<GiNaC::symbol>(*it).get_name()] = *it;
    GiNaC::parser reader(table);
    return (e - reader(expected)).expand().is_zero();
}

std::string describe(const std::vector<Remark>& remarks) {
    std::ostringstream out;
    for (const Remark& r : remarks)
        out << r.location.line << ":" << r.location.column << ": " << remark_kind_name(r.kind) << ": " << r.message
            << (r.approximate ? " (approximate)" : "") << "\n";
    return out.str();
}

}  // namespace mcl::feedback::testing
