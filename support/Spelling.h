// "Did you mean" suggestions for misspelt names in diagnostics.
#pragma once

#include <string>
#include <vector>

namespace mcl {

// The candidate closest to `word` by edit distance, if it is close enough to
// be a plausible typo; "" otherwise.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// "; did you mean 'x'?" or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace mcl
