#include "feedback/FeedbackOutput.h"

#include <set>

#include <fmt/format.h>

#include "feedback/Symbolic.h"

namespace mcl::feedback {

namespace {

using nlohmann::json;

json quantities_json(const Remark& r) {
    json q = json::object();
    for (const NamedQuantity& n : r.quantities) {
        json entry{{"expr", Symbols::text(n.expr)}};
        if (n.value) entry["value"] = *n.value;
        q[n.name] = entry;
    }
    return q;
}

json sarif_location(const std::string& file, uint32_t line, uint32_t column) {
    json region = json::object();
    if (line > 0) {
        region["startLine"] = line;
        region["startColumn"] = column > 0 ? column : 1;
    }
    json physical{{"artifactLocation", {{"uri", file}}}};
    if (!region.empty()) physical["region"] = region;
    return json{{"physicalLocation", physical}};
}

}  // namespace

void report_remarks(const std::vector<Remark>& remarks, DiagnosticEngine& diags) {
    for (const Remark& r : remarks)
        diags.report(r.warning ? Severity::Warning : Severity::Remark, r.location,
                     fmt::format("{} [{}]", r.message, remark_kind_name(r.kind)));
}

json remarks_to_json(const std::vector<Remark>& remarks, const SourceManager& sources) {
    json out = json::array();
    for (const Remark& r : remarks)
        out.push_back({{"kind", remark_kind_name(r.kind)},
                       {"file", sources.path(r.location.file)},
                       {"line", r.location.line},
                       {"column", r.location.column},
                       {"message", r.message},
                       {"approximate", r.approximate},
                       {"impact", r.impact},
                       {"severity", r.warning ? "warning" : "remark"},
                       {"quantities", quantities_json(r)}});
    return json{{"remarks", out}};
}

json remarks_to_sarif(const std::vector<Remark>& remarks, const DiagnosticEngine& diags) {
    const SourceManager& sources = diags.sources();
    json results = json::array();
    std::set<std::string> rules;
    for (const Diagnostic& d : diags.diagnostics()) {
        if (d.severity != Severity::Error && d.severity != Severity::Warning) continue;
        const char* level = d.severity == Severity::Error ? "error" : "warning";
        rules.insert(level);
        json result{{"ruleId", level}, {"level", level}, {"message", {{"text", d.message}}}};
        if (d.location.valid())
            result["locations"] = json::array({sarif_location(sources.path(d.location.file), d.location.line,
                                                             d.location.column)});
        results.push_back(result);
    }
    for (const Remark& r : remarks) {
        const char* kind = remark_kind_name(r.kind);
        rules.insert(kind);
        json result{{"ruleId", kind},
                    {"level", r.warning ? "warning" : "note"},
                    {"message", {{"text", r.message}}},
                    {"properties", {{"approximate", r.approximate}, {"impact", r.impact}, {"quantities", quantities_json(r)}}}};
        if (r.location.valid())
            result["locations"] =
                json::array({sarif_location(sources.path(r.location.file), r.location.line, r.location.column)});
        results.push_back(result);
    }
    json rule_list = json::array();
    for (const std::string& id : rules) rule_list.push_back({{"id", id}});
    json driver{{"name", "mclc"},
                {"rules", rule_list}};
    return json{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
}

}  // namespace mcl::feedback
