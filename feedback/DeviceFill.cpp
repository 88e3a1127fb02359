#include "feedback/DeviceFill.h"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::feedback {

namespace {

using mcpl::Stmt;

struct Launch {
    const Stmt* outermost = nullptr;
    GiNaC::ex units = 1;
    bool known = true;
};

// The nests of foreach statements over `group`: the outermost of each and
// the product of the counts of the nest's foreach statements over `group`
// (the largest product where the nest branches).
class LaunchFinder {
public:
    LaunchFinder(const std::string& group, Symbols& symbols) : group_(group), symbols_(symbols) {}

    std::vector<Launch> find(const Stmt& body) {
        walk(body);
        return launches_;
    }

private:
    void walk(const Stmt& s) {
        if (s.kind == Stmt::Kind::Foreach && describe_loop(s, symbols_).par_group == group_) {
            Launch launch;
            launch.outermost = &s;
            std::optional<GiNaC::ex> inner = nested_units(s);
            if (inner) launch.units = *inner;
            else launch.known = false;
            launches_.push_back(launch);
            return;
        }
        if (s.kind == Stmt::Kind::Decl && s.decl->is_const) symbols_.define_constant(*s.decl);
        mcpl::for_each_child_stmt(s, [&](const Stmt& child) { walk(child); });
    }

    // Units of work of the nest below and including `s`.
    std::optional<GiNaC::ex> nested_units(const Stmt& s) {
        Loop loop = describe_loop(s, symbols_);
        if (!loop.iterations) return std::nullopt;
        std::optional<GiNaC::ex> below = GiNaC::ex(1);
        bool first = true;
        std::function<void(const Stmt&)> inner = [&](const Stmt& c) {
            if (c.kind == Stmt::Kind::Foreach && describe_loop(c, symbols_).par_group == group_) {
                std::optional<GiNaC::ex> n = nested_units(c);
                if (!n) {
                    below = std::nullopt;
                } else if (below && (first || symbols_.quantity("", *n - *below).value.value_or(0) > 0)) {
                    below = *n;
                }
                first = false;
                return;
            }
            mcpl::for_each_child_stmt(c, inner);
        };
        mcpl::for_each_child_stmt(s, inner);
        if (!below) return std::nullopt;
        return (*loop.iterations * *below).expand();
    }

    const std::string& group_;
    Symbols& symbols_;
    std::vector<Launch> launches_;
};

}  // namespace

std::vector<Remark> device_fill_pass(const FeedbackInput& in) {
    std::vector<Remark> out;
    std::vector<const hdl::ParGroup*> groups = in.model.par_groups();
    if (groups.empty()) return out;
    const hdl::ParGroup& outer = *groups.front();
    const std::string& work = outer.unit->name;
    std::vector<const hdl::DeviceNode*> executors = in.model.execution_units_for(work);
    if (executors.empty()) return out;
    const hdl::DeviceNode& executor = *executors.front();
    hdl::Quantity instances = executor.instance_count();
    if (instances.unlimited || instances.value <= 0) return out;
    const int64_t units = instances.value;
    const std::string executor_text = executor.name + " units";

    for (const Launch& launch : LaunchFinder(outer.name, in.symbols).find(*in.function.body)) {
        Remark r;
        r.kind = RemarkKind::DeviceFill;
        r.location = launch.outermost->location;
        if (!launch.known) {
            r.message = fmt::format("device fill unknown: the number of {}s of this launch is not known here; {} has "
                                    "{} {}",
                                    work, in.model.name, units, executor_text);
            r.approximate = true;
            out.push_back(std::move(r));
            continue;
        }
        NamedQuantity count = in.symbols.quantity(work + "s", launch.units);
        r.quantities.push_back(count);
        r.quantities.push_back(in.symbols.quantity("execution_units", GiNaC::ex(static_cast<long>(units))));
        if (!count.value) {
            r.message = fmt::format("{} {}s for the {} {} of {}: {}", Symbols::text(launch.units), work, units,
                                    executor_text, in.model.name,
                                    needs_values_text(in.symbols.missing_values(launch.units)));
            r.approximate = true;
            out.push_back(std::move(r));
            continue;
        }
        const double n = std::ceil(*count.value - 1e-9);
        const double u = static_cast<double>(units);
        if (n < u) {
            r.message = fmt::format("keeps {} of {} {} busy, {} idle: the launch has {} {}{}; at least {} {}s "
                                    "(fewer {}s each) would use the whole device",
                                    number_text(n), units, executor_text, number_text(u - n), number_text(n), work,
                                    n == 1 ? "" : "s", units, work, groups.size() > 1 ? groups[1]->unit->name : "unit");
            r.impact = 1 - n / u;
        } else {
            double rounds = std::ceil(n / u);
            double last = n - (rounds - 1) * u;
            r.message = fmt::format("keeps all {} {} busy: {} {}s, {} per {}", units, executor_text, number_text(n),
                                    work, number_text(std::round(n / u * 10) / 10), executor.name);
            // The last round of one unit of work per executor leaves the rest
            // idle; spread over all rounds.
            r.impact = rounds > 0 ? (u - last) / u / rounds : 0;
        }
        r.quantities.push_back(in.symbols.quantity("busy", GiNaC::ex(static_cast<long>(std::min(n, u)))));
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace mcl::feedback
