#include "feedback/RankRemarks.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace mcl::feedback {

namespace {

std::optional<double> quantity_value(const Remark& r, const std::string& name) {
    for (const NamedQuantity& q : r.quantities)
        if (q.name == name) return q.value;
    return std::nullopt;
}

double reuse_share(const Remark& r) {
    std::optional<double> reuse = quantity_value(r, "reuse");
    if (!reuse) return 0.5;  // a reuse the analysis could not put a number on
    return *reuse > 1 ? 1 - 1 / *reuse : 0;
}

bool before_in_source(const Remark& a, const Remark& b) {
    return std::tie(a.location.file, a.location.line, a.location.column) <
           std::tie(b.location.file, b.location.line, b.location.column);
}

}  // namespace

void estimate_impacts(std::vector<Remark>& remarks) {
    for (Remark& r : remarks) {
        if (r.warning) {
            r.impact = 1;
            continue;
        }
        if (r.impact > 0) continue;
        switch (r.kind) {
        case RemarkKind::DataReuse: r.impact = 0.3 * reuse_share(r); break;
        case RemarkKind::FasterMemory: r.impact = 0.45 * reuse_share(r); break;
        case RemarkKind::Transfers: r.impact = 0.1; break;
        case RemarkKind::Operations:
        case RemarkKind::ArithmeticIntensity: r.impact = 0.02; break;
        default: break;
        }
    }
}

RankedRemarks rank_remarks(std::vector<Remark> remarks, size_t limit) {
    std::stable_sort(remarks.begin(), remarks.end(), [](const Remark& a, const Remark& b) {
        bool a_bound = a.kind == RemarkKind::Bound, b_bound = b.kind == RemarkKind::Bound;
        if (a_bound != b_bound) return a_bound;
        if (a_bound) return before_in_source(a, b);
        if (a.impact != b.impact) return a.impact > b.impact;
        return before_in_source(a, b);
    });
    RankedRemarks ranked;
    if (limit == 0) {
        ranked.shown = std::move(remarks);
        return ranked;
    }
    // Fold: the first (highest) remark of a kind at a location stands for
    // the others.
    std::map<std::tuple<RemarkKind, uint32_t, uint32_t, uint32_t>, size_t> first_of;
    std::vector<Remark> folded;
    std::vector<size_t> stands_for;
    for (Remark& r : remarks) {
        auto key = std::make_tuple(r.kind, r.location.file, r.location.line, r.location.column);
        if (r.kind == RemarkKind::Cache || r.kind == RemarkKind::DataReuse || r.kind == RemarkKind::FasterMemory) {
            auto [it, inserted] = first_of.emplace(key, folded.size());
            if (!inserted) {
                ++stands_for[it->second];
                continue;
            }
        }
        folded.push_back(std::move(r));
        stands_for.push_back(0);
    }
    size_t others = 0;
    for (size_t i = 0; i < folded.size(); ++i) {
        Remark& r = folded[i];
        if (r.kind != RemarkKind::Bound && others++ >= limit) {
            ranked.not_shown += 1 + stands_for[i];
            continue;
        }
        ranked.folded += stands_for[i];
        if (stands_for[i] > 0)
            r.message += fmt::format(" (and {} more {} remark{} here, for other loops or memories)", stands_for[i],
                                     remark_kind_name(r.kind), stands_for[i] == 1 ? "" : "s");
        ranked.shown.push_back(std::move(r));
    }
    return ranked;
}

}  // namespace mcl::feedback
