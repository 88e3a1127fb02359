// A performance remark: what a feedback pass says about the user's code, at
// the user's own source location, with the symbolic quantities it is about
// (in the kernel's parameters) and their values when example values for
// every symbol were given (`--param n=2048`).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <ginac/ginac.h>

#include "support/SourceManager.h"

namespace mcl::feedback {

enum class RemarkKind {
    Operations, ArithmeticIntensity, Transfers, DataReuse, FasterMemory,
    Cache, ScarceResource, Occupancy, Coalescing, BankConflicts,
    Bound,       // the lowest time the kernel can take on its level (roofline)
    DeviceFill,  // how many of the device's units the launch keeps busy
};

// The JSON/SARIF name: "operations", "arithmetic-intensity", ...
const char* remark_kind_name(RemarkKind k);

struct NamedQuantity {
    std::string name;            // e.g. "computations"
    GiNaC::ex expr;              // e.g. 2*m*n*p
    std::optional<double> value; // when every symbol has a value
};

struct Remark {
    RemarkKind kind = RemarkKind::Operations;
    SourceLocation location;
    std::string message;         // complete sentence; quantities appear in it as text
    std::vector<NamedQuantity> quantities;
    bool approximate = false;    // loop bounds or conditions were not exact
    bool warning = false;        // a problem in the input rather than advice (reported as a warning)
    // Estimated share of the kernel's time that what the remark points at
    // costs, from 0 (nothing to gain: "coalesced", "does benefit") to 1 (the
    // kernel could run that much faster). Ranks remarks in the default output
    // (RankRemarks.h); a severity where no time can be estimated.
    double impact = 0;
};

}  // namespace mcl::feedback
