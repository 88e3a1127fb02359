#include "support/Spelling.h"

#include <algorithm>

namespace mcl {

namespace {
// Optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours ("mian" is one edit from "main").
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}
}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
    // At most about a third of the word may be wrong for a plausible typo.
    const size_t limit = std::max<size_t>(1, (word.size() + 1) / 3);
    std::string best;
    size_t best_distance = limit + 1;
    if (word.size() > 64) return best;  // no typo makes names that long; spare the quadratic distance
    for (const std::string& c : candidates) {
        size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
        if (gap > limit) continue;
        size_t d = edit_distance(word, c);
        if (d > 0 && d < best_distance) {
            best = c;
            best_distance = d;
        }
    }
    return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
    std::string m = closest_match(word, candidates);
    return m.empty() ? std::string() : "; did you mean '" + m + "'?";
}

}  // namespace mcl
