#include "feedback/Report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "feedback/LoopNest.h"

namespace mcl::feedback {

namespace {

// The one colour of the roof lines: nothing else on the page uses it (the
// report test looks for it in a screenshot).
constexpr const char* kRoofColour = "#e4007c";
constexpr const char* kPointColour = "#1f5fbf";

std::string seconds_text(double s) {
    if (s >= 1) return printf_text("%.3g", s) + " s";
    if (s >= 1e-3) return printf_text("%.3g", s * 1e3) + " ms";
    if (s >= 1e-6) return printf_text("%.3g", s * 1e6) + " &micro;s";
    return printf_text("%.3g", s * 1e9) + " ns";
}

// A quantity for a table cell: its value, or its expression.
std::string cell(const std::optional<NamedQuantity>& q, bool time) {
    if (!q) return "&ndash;";
    if (q->value) return time ? seconds_text(*q->value) : html_escape(*q->value < 1e6 ? number_text(*q->value)
                                                                                      : prefixed(*q->value));
    return "<code>" + html_escape(Symbols::text(q->expr)) + (time ? "</code> s" : "</code>");
}

std::string decade_label(int k) {
    if (k >= -2 && k <= 3) return number_text(std::pow(10.0, k));
    return fmt::format("1e{}", k);
}

const char* kStyle = R"(
body { font-family: sans-serif; margin: 24px; color: #222; background: #fff; max-width: 1150px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; }
table.versions { border-collapse: collapse; font-size: 12px; }
table.versions th, table.versions td { border: 1px solid #bbb; padding: 3px 7px; text-align: right; white-space: nowrap; }
table.versions th { background: #eef2f7; text-align: center; white-space: normal; }
table.versions td.name { text-align: left; }
table.versions td.measured { text-align: left; white-space: normal; font-size: 11px; max-width: 260px;
                             word-break: break-all; }
table.versions td.measured .t { white-space: nowrap; word-break: normal; }
.note { color: #555; font-size: 13px; }
.missing { background: #fff6dc; border: 1px solid #e8cf7a; padding: 8px 12px; }
.source { font-family: monospace; font-size: 13px; border: 1px solid #ddd; background: #fafafa; }
.line { white-space: pre; }
.line .n { display: inline-block; width: 42px; color: #999; text-align: right; padding-right: 10px; user-select: none; }
.remark { white-space: normal; margin: 2px 0 4px 52px; padding: 3px 8px; border-left: 4px solid #6b8fc7;
          background: #eef3fb; font-family: sans-serif; font-size: 12px; }
.remark.bound { border-left-color: #2d7d46; background: #ecf7ee; }
.remark.warning { border-left-color: #d98b00; background: #fff4e0; }
.remark .kind { font-weight: bold; margin-right: 6px; }
svg text { font-family: sans-serif; }
)";

struct PlotPoint {
    double x, y;
    std::vector<std::string> labels;  // the versions at this point
};

std::string roofline_svg(const Roofline& roof, const std::vector<PlotPoint>& points) {
    const double width = 760, height = 460, left = 90, right = 30, top = 24, bottom = 56;
    double peak = roof.operations_per_second, bw = roof.bytes_per_second, ridge = roof.ridge();
    double xlo = ridge, xhi = ridge, ylo = roof.double_operations_per_second.value_or(peak);
    for (const PlotPoint& p : points) {
        xlo = std::min(xlo, p.x);
        xhi = std::max(xhi, p.x);
        ylo = std::min(ylo, p.y);
    }
    int x0 = static_cast<int>(std::floor(std::log10(xlo / 4))), x1 = static_cast<int>(std::ceil(std::log10(xhi * 4)));
    if (x1 <= x0) x1 = x0 + 1;
    int y1 = static_cast<int>(std::ceil(std::log10(peak * 2)));
    int y0 = static_cast<int>(std::floor(std::log10(std::min(ylo, std::pow(10.0, x0) * bw) / 2)));
    y0 = std::max(y0, y1 - 10);
    if (y1 <= y0) y0 = y1 - 1;
    auto px = [&](double x) { return left + (std::log10(x) - x0) / (x1 - x0) * (width - left - right); };
    auto py = [&](double y) { return top + (y1 - std::log10(y)) / (y1 - y0) * (height - top - bottom); };
    std::ostringstream s;
    s << fmt::format(R"(<svg id="roofline" width="{}" height="{}" viewBox="0 0 {} {}" role="img" aria-label="roofline plot">)",
                     width, height, width, height)
      << '\n';
    s << fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#fcfcfc" stroke="#888"/>)", left, top,
                     width - left - right, height - top - bottom)
      << '\n';
    for (int k = x0; k <= x1; ++k) {
        double x = px(std::pow(10.0, k));
        s << fmt::format(R"(<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}" stroke="#ddd"/>)", x, top, x, height - bottom)
          << fmt::format(R"(<text x="{:.1f}" y="{}" font-size="12" text-anchor="middle">{}</text>)", x,
                         height - bottom + 16, decade_label(k))
          << '\n';
    }
    for (int k = y0; k <= y1; ++k) {
        double y = py(std::pow(10.0, k));
        s << fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#ddd"/>)", left, y, width - right, y)
          << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="12" text-anchor="end">{}</text>)", left - 6, y + 4,
                         html_escape(prefixed(std::pow(10.0, k))))
          << '\n';
    }
    s << fmt::format(R"(<text x="{}" y="{}" font-size="13" text-anchor="middle">arithmetic intensity (computations per byte of device memory)</text>)",
                     left + (width - left - right) / 2, height - 14)
      << '\n';
    s << fmt::format(R"svg(<text x="16" y="{}" font-size="13" text-anchor="middle" transform="rotate(-90 16 {})">computations per second</text>)svg",
                     top + (height - top - bottom) / 2, top + (height - top - bottom) / 2)
      << '\n';
    // Labels, each kept off the labels already placed (point labels move
    // down past the roof labels and each other).
    struct Box {
        double x0, y0, x1, y1;
    };
    std::vector<Box> placed;
    auto label = [&](double x, double y, const std::string& anchor, const std::string& attributes,
                     const std::string& text) {
        double w = 7.0 * static_cast<double>(text.size()), left_x = anchor == "end" ? x - w : x;
        placed.push_back({left_x, y - 12, left_x + w, y + 2});
        s << fmt::format(R"(<text x="{:.1f}" y="{:.1f}" text-anchor="{}" {}>{}</text>)", x, y, anchor, attributes,
                         html_escape(text));
    };
    // The roofs: the bandwidth slope up to the ridge, then the compute roof.
    double xs = std::max(std::pow(10.0, x0), std::pow(10.0, y0) / bw);
    double xe = std::pow(10.0, x1);
    s << fmt::format(R"(<polyline points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="none" stroke="{}" stroke-width="4"/>)",
                     px(xs), py(xs * bw), px(ridge), py(peak), px(xe), py(peak), kRoofColour)
      << '\n';
    label(px(xe) - 6, py(peak) - 8, "end", R"(font-size="12")", "peak " + prefixed(peak) + " computations/s");
    label(px(xs) + 8, py(xs * bw) - 10, "start", R"(font-size="12")", printf_text("%g", bw / 1e9) + " GB/s");
    label(px(ridge) + 6, py(peak) + 16, "start", R"(font-size="11" fill="#555")", "ridge " + printf_text("%.3g", ridge));
    s << '\n';
    // Computations in double precision meet the same slope at a lower roof.
    if (const std::optional<double>& doubles = roof.double_operations_per_second; doubles && *doubles > 0) {
        double double_ridge = *doubles / bw;
        s << fmt::format(R"(<polyline id="double-roof" points="{:.1f},{:.1f} {:.1f},{:.1f}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="8 5"/>)",
                         px(double_ridge), py(*doubles), px(xe), py(*doubles), kRoofColour);
        label(px(double_ridge) + 6, py(*doubles) + 16, "start", R"(font-size="12")",
              "double precision " + prefixed(*doubles) + " computations/s");
        s << '\n';
    }
    // Points first, then their labels (one version a line, on the side of
    // the point with room).
    for (const PlotPoint& p : points)
        s << fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="6" fill="{}" stroke="#fff" stroke-width="1.5"/>)",
                         px(p.x), py(p.y), kPointColour)
          << '\n';
    for (const PlotPoint& p : points) {
        double x = px(p.x), y = py(p.y);
        bool right_half = x > left + (width - left - right) / 2;
        size_t longest = 0;
        for (const std::string& l : p.labels) longest = std::max(longest, l.size());
        double w = 7.0 * static_cast<double>(longest), h = 14.0 * static_cast<double>(p.labels.size());
        double tx = right_half ? x - 9 : x + 9, x0 = right_half ? tx - w : tx, ty = y + 22;
        auto overlaps = [&](double top_y) {
            return std::any_of(placed.begin(), placed.end(), [&](const Box& b) {
                return x0 < b.x1 && x0 + w > b.x0 && top_y - 12 < b.y1 && top_y - 12 + h > b.y0;
            });
        };
        while (overlaps(ty) && ty < height) ty += 14;
        placed.push_back({x0, ty - 12, x0 + w, ty - 12 + h});
        s << fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="12" fill="#123" text-anchor="{}">)", tx, ty,
                         right_half ? "end" : "start");
        for (size_t k = 0; k < p.labels.size(); ++k)
            s << fmt::format(R"(<tspan x="{:.1f}" dy="{}">{}</tspan>)", tx, k ? 14 : 0, html_escape(p.labels[k]));
        s << "</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

std::string limit_text(BoundLimit l) {
    switch (l) {
    case BoundLimit::Memory: return "memory bandwidth";
    case BoundLimit::Compute: return "computation";
    case BoundLimit::Unknown: break;
    }
    return "&ndash;";
}

bool plotted(const ReportVersion& v, const ReportInput& in) {
    return in.roofline && v.bound.level == in.level && v.bound.time && v.bound.time->value &&
           v.bound.intensity.value && *v.bound.intensity.value > 0 && *v.bound.time->value > 0 &&
           v.bound.operations.value;
}

std::string component_match_text(const std::vector<BenchmarkResult>& measured) {
    std::string out;
    for (const BenchmarkResult& b : measured)
        out += fmt::format("{}<code>{}</code>: <span class=\"t\">{}</span>", out.empty() ? "" : "<br>",
                           html_escape(b.name), seconds_text(b.seconds));
    return out.empty() ? "no match" : out;
}

}  // namespace

std::string html_escape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::variant<std::vector<BenchmarkResult>, std::string> parse_benchmark_json(const std::string& text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        return std::string("not valid JSON: ") + e.what();
    }
    if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
        return std::string("not Google Benchmark JSON: expected an object with an array \"benchmarks\"");
    std::vector<BenchmarkResult> out;
    size_t index = 0;
    for (const nlohmann::json& b : j["benchmarks"]) {
        std::string where = fmt::format("benchmarks[{}]", index++);
        if (!b.is_object() || !b.contains("name") || !b["name"].is_string())
            return where + ": expected an object with a string \"name\"";
        if (!b.contains("real_time") || !b["real_time"].is_number())
            return where + " (" + b["name"].get<std::string>() + "): expected a number \"real_time\"";
        std::string unit = "ns";
        if (b.contains("time_unit")) {
            if (!b["time_unit"].is_string()) return where + ": \"time_unit\" is not a string";
            unit = b["time_unit"].get<std::string>();
        }
        double scale = unit == "ns" ? 1e-9 : unit == "us" ? 1e-6 : unit == "ms" ? 1e-3 : unit == "s" ? 1.0 : 0.0;
        if (scale == 0) return where + ": unknown time_unit '" + unit + "' (ns, us, ms or s)";
        out.push_back({b["name"].get<std::string>(), b["real_time"].get<double>() * scale});
    }
    return out;
}

std::vector<BenchmarkResult> match_benchmarks(const ReportVersion& version, bool single_version,
                                              const std::vector<BenchmarkResult>& benchmarks) {
    // A stem equal to the function name ("matmul.mcl") is also the app
    // component of every benchmark of it: bench/'s variant name only then.
    std::vector<std::string> names;
    std::string prefix = version.function + "_";
    if (version.stem == version.function) {
        names.push_back("mcl_" + version.own_level);
    } else {
        names.push_back(version.stem);
        if (version.stem.rfind(prefix, 0) == 0) names.push_back("mcl_" + version.stem.substr(prefix.size()));
    }
    auto components = [](const std::string& name) {
        std::vector<std::string> out;
        size_t start = 0;
        for (size_t slash; (slash = name.find('/', start)) != std::string::npos; start = slash + 1)
            out.push_back(name.substr(start, slash - start));
        out.push_back(name.substr(start));
        return out;
    };
    // bench/ names are app/backend/variant/what: a variant name such as
    // mcl_perfect is shared by every app, so a name with several components
    // matches only when one of them is the version's function.
    auto matching = [&](const std::vector<std::string>& wanted) {
        std::vector<BenchmarkResult> out;
        for (const BenchmarkResult& b : benchmarks) {
            std::vector<std::string> parts = components(b.name);
            if (parts.size() > 1 && std::find(parts.begin(), parts.end(), version.function) == parts.end() &&
                std::find(parts.begin(), parts.end(), version.stem) == parts.end())
                continue;
            if (std::any_of(parts.begin(), parts.end(), [&](const std::string& p) {
                    return std::find(wanted.begin(), wanted.end(), p) != wanted.end();
                }))
                out.push_back(b);
        }
        return out;
    };
    std::vector<BenchmarkResult> out = matching(names);
    if (out.empty() && single_version) out = matching({version.function});
    return out;
}

std::optional<KernelBound> bound_for(const mcpl::Program& program, const mcpl::Function& function,
                                     const hdl::HardwareLibrary& library, const Params& params) {
    const hdl::HardwareModel* model = library.find(function.hardware);
    if (!model || function.builtin_body || !function.resolved_return_type.is_void()) return std::nullopt;
    try {
        Symbols symbols(params);
        std::vector<Access> accesses = collect_accesses(function, symbols);
        FeedbackInput input{program, function, *model, accesses, symbols};
        return bound_of(input);
    } catch (const std::exception&) {
        return std::nullopt;  // run_feedback reports the stopped analysis as a remark
    }
}

std::string report_html(const ReportInput& in) {
    std::ostringstream h;
    h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>MCL report at " << html_escape(in.level) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
    h << "<h1>MCL report at " << html_escape(in.level) << "</h1>\n";
    h << "<p class=\"note\">Generated by <code>mclc report</code>. Bounds are roofline lower bounds: the "
         "computations of the kernel at the level's peak rate and its compulsory device-memory traffic (every "
         "array read once, every array written once: perfect caching) at the level's memory bandwidth.</p>\n";

    // The level and its rates.
    h << "<h2>Level " << html_escape(in.level) << "</h2>\n<ul>\n";
    auto rate_item = [&](const char* what, const std::optional<double>& v, bool unlimited, const std::string& text,
                         bool bandwidth) {
        h << "<li>" << what << ": ";
        if (v) h << (bandwidth ? printf_text("%g", *v / 1e9) + " GB/s" : html_escape(prefixed(*v)) + " computations/s");
        else h << (unlimited ? "unlimited" : "not described");
        h << " <span class=\"note\">(" << html_escape(text) << ")</span></li>\n";
    };
    rate_item("peak computational rate", in.rates.operations_per_second, in.rates.compute_unlimited,
              in.rates.compute_text, false);
    if (in.rates.operations_per_second) {
        if (in.rates.double_operations_per_second)
            rate_item("peak in double precision", in.rates.double_operations_per_second, false,
                      "every lane's rate over its op(\"double\", k)", false);
        else
            rate_item("peak in double precision", std::nullopt, false,
                      "a lane gives no op(\"double\", k): computations in double precision are taken at the "
                      "single-precision rate",
                      false);
    }
    rate_item("memory bandwidth", in.rates.bytes_per_second, in.rates.memory_unlimited, in.rates.memory_text, true);
    if (in.roofline) h << "<li>ridge point: " << printf_text("%.3g", in.roofline->ridge()) << " computations per byte</li>\n";
    h << "<li>parameters: ";
    if (in.params.empty()) h << "none given (<code>--param NAME=VALUE</code>)";
    bool first = true;
    for (const auto& [name, value] : in.params) {
        h << (first ? "" : ", ") << "<code>" << html_escape(name) << "=" << html_escape(number_text(value)) << "</code>";
        first = false;
    }
    h << "</li>\n";
    if (in.bench_file) h << "<li>measurements: <code>" << html_escape(*in.bench_file) << "</code></li>\n";
    h << "</ul>\n";

    // The roofline plot.
    h << "<h2>Roofline</h2>\n";
    std::vector<PlotPoint> points;
    std::vector<std::string> not_plotted;
    bool several_functions = std::any_of(in.versions.begin(), in.versions.end(), [&](const ReportVersion& v) {
        return v.function != in.versions.front().function;
    });
    for (const ReportVersion& v : in.versions) {
        std::string label = several_functions && v.stem != v.function ? v.stem + " (" + v.function + ")" : v.stem;
        if (!plotted(v, in)) {
            std::string why;
            if (v.bound.level != in.level) why = "analysed at " + v.bound.level;
            else if (!v.bound.missing.empty()) why = needs_values_text(v.bound.missing);
            else why = "no time bound";
            not_plotted.push_back(label + ": " + why);
            continue;
        }
        double x = *v.bound.intensity.value, y = *v.bound.operations.value / *v.bound.time->value;
        auto same = std::find_if(points.begin(), points.end(), [&](const PlotPoint& p) {
            return std::fabs(p.x - x) <= 1e-3 * x && std::fabs(p.y - y) <= 1e-3 * y;
        });
        if (same != points.end()) same->labels.push_back(label);
        else points.push_back({x, y, {label}});
    }
    if (!in.roofline) {
        h << "<p class=\"missing\">No roofline plot: " << html_escape(in.level)
          << " does not describe both a peak computational rate and a memory bandwidth (see above).</p>\n";
    } else if (points.empty()) {
        h << "<p class=\"missing\">No roofline plot: no version has a bound with numbers at "
          << html_escape(in.level) << ".";
        if (in.params.empty()) h << " Give the sizes with <code>--param NAME=VALUE</code>.";
        h << "</p>\n";
    } else {
        h << roofline_svg(*in.roofline, points);
        h << "<p class=\"note\">Each point is a version at its bound: x its arithmetic intensity, y the "
             "computations per second it attains when it takes exactly the bound time (on the roof; computations in "
             "double precision bring it down towards the dashed roof).</p>\n";
    }
    if (!not_plotted.empty()) {
        h << "<p class=\"note\">Not in the plot: ";
        for (size_t i = 0; i < not_plotted.size(); ++i) h << (i ? "; " : "") << html_escape(not_plotted[i]);
        h << ".</p>\n";
    }

    // The versions of each kernel side by side.
    h << "<h2>Versions</h2>\n";
    std::vector<std::string> functions;
    for (const ReportVersion& v : in.versions)
        if (std::find(functions.begin(), functions.end(), v.function) == functions.end()) functions.push_back(v.function);
    for (const std::string& f : functions) {
        h << "<h3>" << html_escape(f) << "</h3>\n<table class=\"versions\">\n<tr><th>version</th><th>level</th>"
             "<th>computations</th><th>bytes</th><th>intensity</th><th>compute time</th><th>memory time</th>"
             "<th>bound</th><th>limited by</th>";
        if (in.bench_file) h << "<th>measured</th>";
        h << "</tr>\n";
        for (const ReportVersion& v : in.versions) {
            if (v.function != f) continue;
            const KernelBound& b = v.bound;
            std::string name = v.file.substr(v.file.find_last_of('/') == std::string::npos ? 0 : v.file.find_last_of('/') + 1);
            std::string level = html_escape(b.level);
            if (v.own_level != b.level) level = html_escape(v.own_level) + " &rarr; " + level;
            h << "<tr><td class=\"name\" title=\"" << html_escape(v.file) << "\"><code>" << html_escape(name)
              << "</code></td><td class=\"name\">" << level << "</td><td>"
              << cell(b.operations, false);
            if (b.double_operations) h << "<br>in double precision: " << cell(*b.double_operations, false);
            h << "</td><td>"
              << (b.bytes.value ? number_text(*b.bytes.value) : cell(b.bytes, false)) << "</td><td>";
            if (b.intensity.value) h << printf_text("%.3g", *b.intensity.value);
            else h << "<code>" << html_escape(Symbols::text(b.intensity.expr)) << "</code>";
            h << "</td><td>" << cell(b.compute_time, true) << "</td><td>" << cell(b.memory_time, true) << "</td><td>"
              << cell(b.time, true) << "</td><td class=\"name\">" << limit_text(b.limit) << "</td>";
            if (in.bench_file) h << "<td class=\"measured\">" << component_match_text(v.measured) << "</td>";
            h << "</tr>\n";
        }
        h << "</table>\n";
    }
    if (in.bench_file)
        h << "<p class=\"note\">Measured times are matched to versions by file stem or bench/ naming "
             "(<code>mcl_&lt;version&gt;</code>); they compare with the bound only when the benchmark ran at the "
             "sizes given with --param.</p>\n";

    // The sources with their remarks.
    for (const ReportFile& f : in.files) {
        h << "<h2>" << html_escape(f.path) << "</h2>\n";
        if (!f.level_note.empty()) h << "<p class=\"note\">Remarks " << html_escape(f.level_note) << ".</p>\n";
        std::map<uint32_t, std::vector<const ReportRemark*>> at;
        for (const ReportRemark& r : f.remarks) at[r.line].push_back(&r);
        auto remarks_html = [&](uint32_t line) {
            auto it = at.find(line);
            if (it == at.end()) return;
            for (const ReportRemark* r : it->second) {
                std::string cls = "remark";
                if (r->remark.kind == RemarkKind::Bound) cls += " bound";
                if (r->remark.warning) cls += " warning";
                h << "<div class=\"" << cls << "\"><span class=\"kind\">" << remark_kind_name(r->remark.kind)
                  << (r->remark.approximate ? " (approximate)" : "") << "</span>"
                  << html_escape(r->remark.message) << "</div>\n";
            }
            at.erase(it);
        };
        h << "<div class=\"source\">\n";
        remarks_html(0);
        uint32_t number = 0;
        size_t start = 0;
        while (start < f.text.size()) {
            size_t end = f.text.find('\n', start);
            if (end == std::string::npos) end = f.text.size();
            std::string line = f.text.substr(start, end - start);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            ++number;
            h << "<div class=\"line\"><span class=\"n\">" << number << "</span>" << html_escape(line) << "</div>\n";
            remarks_html(number);
            start = end + 1;
        }
        while (!at.empty()) remarks_html(at.begin()->first);  // past the end of the text
        h << "</div>\n";
    }
    h << "</body>\n</html>\n";
    return h.str();
}

}  // namespace mcl::feedback
