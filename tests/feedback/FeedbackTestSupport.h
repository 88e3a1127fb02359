// Helpers for the feedback tests: check a kernel (optionally translate it
// down to a level) and run feedback passes on it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "feedback/FeedbackPass.h"
#include "feedback/Remark.h"
#include "feedback/Symbolic.h"

namespace mcl::feedback::testing {

struct FeedbackResult {
    std::vector<Remark> remarks;
    std::string diagnostics;  // errors from checking or translating, as text
};

// Checks `text` (include root: examples/), translates it to `level` unless
// empty, and runs `passes` (all passes when empty) with `params`.
FeedbackResult feedback_for(const std::string& text, const std::string& level = "", const Params& params = {},
                            const std::vector<NamedPass>& passes = {});

// The same for a file under examples/, e.g. "matmul/matmul.mcl".
FeedbackResult feedback_for_example(const std::string& path, const std::string& level = "",
                                    const Params& params = {}, const std::vector<NamedPass>& passes = {});

// The registered pass `name` alone (e.g. "cache-behaviour"), for running
// one pass the way mclc runs it.
std::vector<NamedPass> only_pass(const std::string& name);

// Remarks of one kind.
std::vector<Remark> of_kind(const std::vector<Remark>& remarks, RemarkKind kind);

// The quantity `name` of a remark, or nullptr.
const NamedQuantity* find_quantity(const Remark& r, const std::string& name);
// Its value, when it has one.
std::optional<double> quantity_value(const Remark& r, const std::string& name);

// `expected` parsed with the symbols of `e`: true when the two are equal
// (whatever order GiNaC prints the terms in).
bool same_expression(const GiNaC::ex& e, const std::string& expected);

// All remarks as "line:col: kind: message" lines, for failure messages.
std::string describe(const std::vector<Remark>& remarks);

}  // namespace mcl::feedback::testing
