// The three forms of feedback output: remarks in the diagnostics engine
// (clang-style `file:line:col: remark: ... [kind]` with the source line), the
// JSON document tests and tools read, and SARIF 2.1.0 for editors and
// code-scanning tools.
//
// JSON: {"remarks": [{"kind", "file", "line", "column", "message",
//   "approximate", "impact", "quantities": {NAME: {"expr": "2*m*n*p", "value": N}}}]},
//   "value" present only when every symbol has one.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "feedback/Remark.h"
#include "support/Diagnostics.h"

namespace mcl::feedback {

void report_remarks(const std::vector<Remark>& remarks, DiagnosticEngine& diags);
nlohmann::json remarks_to_json(const std::vector<Remark>& remarks, const SourceManager& sources);
// A SARIF 2.1.0 log with one run of mclc; remarks become results of level
// "note" whose ruleId is the remark kind; errors and warnings of `diags`
// (if any) become results of level "error"/"warning".
nlohmann::json remarks_to_sarif(const std::vector<Remark>& remarks, const DiagnosticEngine& diags);

}  // namespace mcl::feedback
