#include "feedback/Bound.h"

#include "feedback/AccessAddress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "feedback/OperationStatistics.h"
#include "hdl/Schema.h"

namespace mcl::feedback {

namespace {

using hdl::BlockKind;
using hdl::DeviceNode;
using hdl::HardwareModel;

std::string rate_text(double operations_per_second) { return prefixed(operations_per_second) + "/s"; }
std::string bandwidth_text(double bytes_per_second) { return printf_text("%g", bytes_per_second / 1e9) + " GB/s"; }
std::string seconds_text(double s) { return printf_text(s != 0 && std::fabs(s) < 1e-2 ? "%.2e" : "%.3g", s) + " s"; }

// A count with its value: "268 M" for large ones, exact below a million.
std::string count_text(double v) { return std::fabs(v) < 1e6 ? number_text(v) : prefixed(v); }

void walk(const DeviceNode& n, const std::function<void(const DeviceNode&)>& f) {
    f(n);
    for (const auto& c : n.children) walk(*c, f);
}

// "sms 132 x sub_cores 4 x fp32_cores 32" for the groups around `n`.
std::string lanes_text(const DeviceNode& n) {
    std::vector<std::string> parts;
    for (const DeviceNode* p = n.parent; p; p = p->parent)
        if (p->units) parts.push_back(p->name + " " + (p->units->count.unlimited ? std::string("unlimited")
                                                                                   : std::to_string(p->units->count.value)));
    std::reverse(parts.begin(), parts.end());
    std::string out;
    for (const std::string& s : parts) out += (out.empty() ? "" : " x ") + s;
    return out;
}

std::optional<int64_t> cost_of(const DeviceNode& n, const std::string& op) {
    std::optional<int64_t> best;
    for (const hdl::Operation& o : n.operations)
        if (o.op == op && o.cost > 0 && (!best || o.cost < *best)) best = o.cost;
    return best;
}

struct ComputeRate {
    std::optional<GiNaC::numeric> rate;
    bool unlimited = false;
    std::string text;
    // In double precision: every lane's rate over its op("double", k);
    // missing when a lane has none.
    std::optional<GiNaC::numeric> double_rate;
};

ComputeRate compute_rate(const HardwareModel& model) {
    ComputeRate out;
    if (!model.device) {
        out.text = "the description has no device";
        return out;
    }
    std::vector<const DeviceNode*> lanes;
    walk(*model.device, [&](const DeviceNode& n) {
        if (cost_of(n, "+") || cost_of(n, "-") || cost_of(n, "*")) lanes.push_back(&n);
    });
    if (lanes.empty()) {
        out.text = "no instructions with +, - or * in the device";
        return out;
    }
    GiNaC::numeric total = 0, double_total = 0;
    bool doubles_described = true;
    std::vector<std::string> texts, missing;
    for (const DeviceNode* n : lanes) {
        hdl::Quantity count = n->instance_count();
        if (count.unlimited) {
            out.unlimited = true;
            out.text = fmt::format("unlimited units of {} ({})", n->name, lanes_text(*n));
            return out;
        }
        std::optional<int64_t> clock;
        for (const DeviceNode* p = n; p && !clock; p = p->parent) clock = p->clock_frequency;
        if (!clock) {
            missing.push_back(fmt::format("{} lanes of {} ({}) but no clock_frequency", count.value, n->name,
                                          lanes_text(*n)));
            continue;
        }
        int64_t simple = std::numeric_limits<int64_t>::max();
        for (const char* op : {"+", "-", "*"})
            if (auto c = cost_of(*n, op)) simple = std::min(simple, *c);
        GiNaC::numeric per_cycle = GiNaC::numeric(1) / GiNaC::numeric(simple);
        std::string per_lane = simple == 1 ? "" : fmt::format(" / {} cycles", simple);
        if (auto fma = cost_of(*n, "fma")) {
            GiNaC::numeric fused = GiNaC::numeric(2) / GiNaC::numeric(*fma);
            if (fused > per_cycle) {
                per_cycle = fused;
                per_lane = *fma == 1 ? " x 2 (fma)" : fmt::format(" x 2 (fma) / {} cycles", *fma);
            }
        }
        GiNaC::numeric lane_rate = GiNaC::numeric(count.value) * GiNaC::numeric(*clock) * per_cycle;
        total += lane_rate;
        if (auto slower = cost_of(*n, "double")) double_total += lane_rate / GiNaC::numeric(*slower);
        else doubles_described = false;
        texts.push_back(fmt::format("{} lanes ({}) x {} MHz{}", count.value, lanes_text(*n),
                                    number_text(static_cast<double>(*clock) / 1e6), per_lane));
    }
    if (!missing.empty()) {
        out.text = missing.front();
        return out;
    }
    out.rate = total;
    if (doubles_described) out.double_rate = double_total;
    for (const std::string& t : texts) out.text += (out.text.empty() ? "" : " + ") + t;
    return out;
}

struct MemoryRate {
    std::optional<GiNaC::numeric> rate;
    bool unlimited = false;
    std::string text;
};

MemoryRate memory_rate(const HardwareModel& model) {
    MemoryRate out;
    if (!model.device) {
        out.text = "the description has no device";
        return out;
    }
    const hdl::MemorySpace* space = nullptr;
    for (const hdl::MemorySpace& s : model.memory_spaces)
        if (s.is_default || !space) space = &s;
    if (!space) {
        out.text = "the description has no top-level memory space";
        return out;
    }
    std::vector<const DeviceNode*> memories;
    for (const DeviceNode* m : model.memories_for_space(space->name))
        if (m->kind == BlockKind::Memory && model.device->contains(*m)) memories.push_back(m);
    if (memories.empty()) {
        out.text = fmt::format("no memory holds the space {}", space->name);
        return out;
    }
    GiNaC::numeric total = 0;
    std::vector<std::string> texts, without;
    for (const DeviceNode* ic : model.nodes_of_kind(BlockKind::Interconnect)) {
        if (!model.device->contains(*ic)) continue;  // the host link
        const DeviceNode* memory = nullptr;
        std::string other;
        for (const hdl::Connection& c : ic->connections)
            for (const DeviceNode* m : memories)
                for (const auto& [mine, theirs] : {std::pair{&c.from, &c.to}, std::pair{&c.to, &c.from}})
                    if (std::find(mine->nodes.begin(), mine->nodes.end(), m) != mine->nodes.end()) {
                        memory = m;
                        other = theirs->name;
                    }
        if (!memory) continue;
        std::string what = fmt::format("{} ({} to {})", ic->name, memory->name, other);
        if (!ic->bandwidth) {
            without.push_back(what);
            continue;
        }
        if (ic->bandwidth->unlimited) {
            out.unlimited = true;
            out.text = what + " with unlimited bandwidth";
            return out;
        }
        total += GiNaC::numeric(ic->bandwidth->value);
        texts.push_back(fmt::format("{} at {}", what, bandwidth_text(static_cast<double>(ic->bandwidth->value))));
    }
    if (texts.empty()) {
        out.text = without.empty() ? fmt::format("no interconnect reaches {}", memories.front()->name)
                                   : fmt::format("{} but no bandwidth", without.front());
        return out;
    }
    out.rate = total;
    for (const std::string& t : texts) out.text += (out.text.empty() ? "" : " + ") + t;
    return out;
}

struct Traffic {
    GiNaC::ex bytes = 0;
    std::vector<std::string> uncounted;
};

// The compulsory device-memory traffic of the parameters (see Bound.h).
Traffic compulsory_traffic(const FeedbackInput& in) {
    Traffic out;
    AddressAnalysis addresses(in.function, in.symbols);
    for (const auto& p : in.function.params) {
        const mcpl::Decl& d = *p;
        bool is_array = d.forms.back().resolved_type.is_array();
        int times = (d.is_read && (is_array || d.is_written) ? 1 : 0) + (d.is_written ? 1 : 0);
        if (times == 0) continue;
        std::optional<GiNaC::ex> size = addresses.declared_bytes(d);
        if (!size) {
            out.uncounted.push_back(d.name());
            continue;
        }
        out.bytes += times * *size;
    }
    out.bytes = out.bytes.expand();
    return out;
}

std::string names_text(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// "2*m*n*p+m*n (= 1.1e+12)" or the value alone when there is one.
std::string quantity_text(const NamedQuantity& q) {
    if (q.value) return count_text(*q.value);
    return Symbols::text(q.expr);
}

// " (2*n in double precision at 33.5 T/s)": the computations in double
// precision, and the rate the description gives them.
std::string double_part(const KernelBound& b) {
    if (!b.double_operations) return "";
    std::string doubles = quantity_text(*b.double_operations) + " in double precision";
    if (b.rates.double_operations_per_second)
        return fmt::format(" ({} at {})", doubles, rate_text(*b.rates.double_operations_per_second));
    if (!b.rates.operations_per_second) return " (" + doubles + ")";
    return fmt::format(" ({}, taken at the single-precision rate: {} gives its lanes no op(\"double\", k))", doubles,
                       b.level);
}

std::string message(const KernelBound& b) {
    const std::string& level = b.level;
    std::string intensity = b.intensity.value ? printf_text("%.3g", *b.intensity.value) : Symbols::text(b.intensity.expr);
    std::string ridge = b.roofline ? fmt::format(" against the ridge {} of this level", printf_text("%.3g", b.roofline->ridge()))
                                   : "";
    std::string intensity_part = b.bytes.expr.is_zero()
                                     ? std::string("no compulsory device-memory traffic")
                                     : fmt::format("arithmetic intensity {} computations per byte{}", intensity, ridge);
    std::string ops = quantity_text(b.operations) + " computations" + double_part(b);
    std::string bytes = (b.bytes.value ? number_text(*b.bytes.value) : Symbols::text(b.bytes.expr)) + " bytes";
    std::string m;
    if (b.roofline && b.time && b.time->value && b.compute_time->value && b.memory_time->value) {
        bool memory = b.limit == BoundLimit::Memory;
        std::string compute = fmt::format("{} at {}", ops, rate_text(b.roofline->operations_per_second));
        std::string traffic = fmt::format("{} at {}", bytes, bandwidth_text(b.roofline->bytes_per_second));
        m = fmt::format("bound: at least {} on {}, limited by {}: {} ({} {}: {}); {}", seconds_text(*b.time->value),
                        level, memory ? "memory bandwidth" : "computation", memory ? traffic : compute,
                        memory ? "computations" : "memory", seconds_text(memory ? *b.compute_time->value
                                                                                : *b.memory_time->value),
                        memory ? compute : traffic, intensity_part);
    } else if (b.roofline) {
        m = fmt::format("bound on {}: the larger of {} at {} and {} at {}", level, ops,
                        rate_text(b.roofline->operations_per_second), bytes,
                        bandwidth_text(b.roofline->bytes_per_second));
        if (b.time)
            m += fmt::format(", limited by {}: {} s", b.limit == BoundLimit::Memory ? "memory bandwidth" : "computation",
                             Symbols::text(b.time->expr));
        m += "; " + intensity_part;
    } else {
        m = fmt::format("bound on {}: {} and {} of device memory traffic; {}", level, ops, bytes, intensity_part);
        std::vector<std::string> unlimited, lacking;
        if (!b.rates.operations_per_second)
            (b.rates.compute_unlimited ? unlimited : lacking).push_back(b.rates.compute_text);
        if (!b.rates.bytes_per_second)
            (b.rates.memory_unlimited ? unlimited : lacking).push_back(b.rates.memory_text);
        if (!lacking.empty())
            m += fmt::format("; the time needs rates that {} does not describe: it gives {}", level,
                             fmt::join(lacking, "; "));
        if (!unlimited.empty())
            m += fmt::format("; {} no time bound from {}: {}", lacking.empty() ? "there is" : "and", level,
                             fmt::join(unlimited, "; "));
        if (b.memory_time && b.memory_time->value)
            m += fmt::format("; memory alone takes at least {} ({} at {})", seconds_text(*b.memory_time->value),
                             bytes, bandwidth_text(*b.rates.bytes_per_second));
        else if (b.compute_time && b.compute_time->value)
            m += fmt::format("; computation alone takes at least {} ({} at {})",
                             seconds_text(*b.compute_time->value), ops, rate_text(*b.rates.operations_per_second));
    }
    if (!b.uncounted.empty()) m += "; the size of " + names_text(b.uncounted) + " is not known and not counted";
    if (b.approximate && b.uncounted.empty()) m += "; the operation count is an approximation";
    if (!b.missing.empty()) m += "; " + needs_values_text(b.missing);
    return m;
}

LevelRates level_rates(const ComputeRate& c, const MemoryRate& m) {
    LevelRates out;
    if (c.rate) out.operations_per_second = c.rate->to_double();
    if (c.double_rate) out.double_operations_per_second = c.double_rate->to_double();
    out.compute_unlimited = c.unlimited;
    out.compute_text = c.text;
    if (m.rate) out.bytes_per_second = m.rate->to_double();
    out.memory_unlimited = m.unlimited;
    out.memory_text = m.text;
    return out;
}

}  // namespace

double Roofline::attainable(double intensity) const {
    return std::min(operations_per_second, intensity * bytes_per_second);
}

LevelRates rates_of(const hdl::HardwareModel& model) {
    return level_rates(compute_rate(model), memory_rate(model));
}

std::optional<Roofline> roofline_of(const std::string& level, const LevelRates& r) {
    if (!r.operations_per_second || !r.bytes_per_second || *r.bytes_per_second <= 0) return std::nullopt;
    return Roofline{level, *r.operations_per_second, *r.bytes_per_second, r.compute_text, r.memory_text,
                    r.double_operations_per_second};
}

std::optional<Roofline> roofline_of(const hdl::HardwareModel& model) {
    return roofline_of(model.name, rates_of(model));
}

KernelBound bound_of(const FeedbackInput& in) {
    KernelBound b;
    b.function = in.function.name;
    b.level = in.model.name;
    OperationTotals totals = count_operations(in);
    Traffic traffic = compulsory_traffic(in);
    b.uncounted = traffic.uncounted;
    b.approximate = totals.approximate || !traffic.uncounted.empty();
    b.operations = in.symbols.quantity("operations", totals.computations);
    b.bytes = in.symbols.quantity("bytes", traffic.bytes);
    b.intensity = in.symbols.quantity("intensity", traffic.bytes.is_zero() ? GiNaC::ex(0)
                                                                          : totals.computations / traffic.bytes);
    ComputeRate compute = compute_rate(in.model);
    MemoryRate memory = memory_rate(in.model);
    b.rates = level_rates(compute, memory);
    b.roofline = roofline_of(b.level, b.rates);
    if (!totals.double_computations.is_zero())
        b.double_operations = in.symbols.quantity("double_operations", totals.double_computations);
    if (compute.rate) {
        GiNaC::ex compute_time = totals.computations / *compute.rate;
        if (b.double_operations && compute.double_rate)
            compute_time = (totals.computations - totals.double_computations) / *compute.rate +
                           totals.double_computations / *compute.double_rate;
        b.compute_time = in.symbols.quantity("compute_time", compute_time);
    }
    if (memory.rate && !memory.rate->is_zero())
        b.memory_time = in.symbols.quantity("memory_time", traffic.bytes / *memory.rate);
    if (b.compute_time && b.memory_time) {
        std::optional<bool> memory_larger;
        if (b.compute_time->value && b.memory_time->value)
            memory_larger = *b.memory_time->value >= *b.compute_time->value;
        else if (GiNaC::ex d = (b.memory_time->expr - b.compute_time->expr).normal(); GiNaC::is_a<GiNaC::numeric>(d))
            memory_larger = GiNaC::ex_to<GiNaC::numeric>(d) >= 0;
        if (memory_larger) {
            b.limit = *memory_larger ? BoundLimit::Memory : BoundLimit::Compute;
            NamedQuantity t = *memory_larger ? *b.memory_time : *b.compute_time;
            t.name = "time";
            b.time = t;
        }
    }

    GiNaC::ex all = totals.computations + traffic.bytes;
    b.missing = in.symbols.missing_values(all);

    Remark& r = b.remark;
    r.kind = RemarkKind::Bound;
    r.location = in.function.location;
    r.approximate = b.approximate;
    r.quantities.push_back(b.operations);
    if (b.double_operations) r.quantities.push_back(*b.double_operations);
    r.quantities.push_back(b.bytes);
    if (b.compute_time) r.quantities.push_back(*b.compute_time);
    if (b.memory_time) r.quantities.push_back(*b.memory_time);
    if (b.time) r.quantities.push_back(*b.time);
    if (!traffic.bytes.is_zero()) r.quantities.push_back(b.intensity);
    r.message = message(b);
    return b;
}

std::vector<Remark> bound_pass(const FeedbackInput& input) {
    if (!input.function.resolved_return_type.is_void()) return {};  // runs inside a kernel's threads
    return {bound_of(input).remark};
}

}  // namespace mcl::feedback
