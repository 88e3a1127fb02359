#include "compiler/translate/ParGroupMapping.h"

#include <optional>

#include <fmt/format.h>

namespace mcl::translate {

namespace {

// A unit count as the algorithm compares them.
struct Count {
    bool unlimited = false;
    long double value = 1;  // products of 64-bit counts can exceed int64

    friend bool operator==(const Count& a, const Count& b) {
        return a.unlimited == b.unlimited && (a.unlimited || a.value == b.value);
    }
    friend bool operator<(const Count& a, const Count& b) {
        if (a.unlimited) return false;
        return b.unlimited || a.value < b.value;
    }
};

Count count_of(const hdl::ParGroup* g) {
    if (!g) return Count{};
    if (g->units.count.unlimited) return Count{true, 0};
    return Count{false, static_cast<long double>(g->units.count.value)};
}

Count product(const std::vector<const hdl::ParGroup*>& groups) {
    Count c;
    for (const hdl::ParGroup* g : groups) {
        Count n = count_of(g);
        if (n.unlimited) return n;
        c.value *= n.value;
    }
    return c;
}

std::string names(const std::vector<const hdl::ParGroup*>& groups) {
    std::string out;
    for (const hdl::ParGroup* g : groups) out += (out.empty() ? "" : " x ") + (g ? g->name : "<top>");
    return out;
}

// The par_group around `g` in `m` (nullptr: `g` is outermost, its parent is the top level).
const hdl::ParGroup* parent_of(const hdl::HardwareModel& m, const hdl::ParGroup* g) {
    const hdl::ParGroup* parent = nullptr;
    for (const hdl::ParGroup* at : m.par_groups()) {
        if (at == g) return parent;
        parent = at;
    }
    return nullptr;
}

class MappingSearch {
public:
    MappingSearch(const hdl::HardwareModel& from, const hdl::HardwareModel& to) : from_(from), to_(to) {}

    std::variant<ParGroupMapping, MappingError> run() {
        const hdl::ParGroup* from = from_.par_groups().back();
        const hdl::ParGroup* to = to_.par_groups().back();
        if (auto found = search(from, {to}, {})) return ParGroupMapping{*found};
        return MappingError{error_.empty() ? "no equivalent par_groups" : error_};
    }

private:
    using Entries = std::vector<ParGroupMapEntry>;

    // Maps `from` to `to` (outermost first) and continues outwards; `done`
    // holds the entries found so far, innermost last.
    std::optional<Entries> search(const hdl::ParGroup* from, std::vector<const hdl::ParGroup*> to,
                                  Entries done) {
        bool from_top = from == nullptr;
        bool to_top = to.front() == nullptr;
        if (from_top && to_top) {
            done.insert(done.begin(), ParGroupMapEntry{nullptr, {nullptr}});
            return done;
        }
        if (from_top || to_top) {
            fail(fmt::format("'{}' has {} par_groups outside what stands for '{}' of '{}'", to_.name,
                             to_top ? "no" : "more", from_top ? "the top level" : from->name, from_.name));
            return std::nullopt;
        }
        Count a = count_of(from);
        Count b = product(to);
        auto equal = [&]() -> std::optional<Entries> {
            Entries next = done;
            next.insert(next.begin(), ParGroupMapEntry{from, to});
            return search(parent_of(from_, from), {parent_of(to_, to.front())}, next);
        };
        if (a == b) return equal();
        if (a < b) {
            fail(fmt::format("'{}' of '{}' has fewer units ({}) than '{}' of '{}' ({}) that stand for it",
                             from->name, from_.name, describe(a), names(to), to_.name, describe(b)));
            return std::nullopt;
        }
        // More units in `from`: the par_group is split over the next outer
        // par_group of `to` as well.
        const hdl::ParGroup* outer = parent_of(to_, to.front());
        if (!outer) {
            Entries next = done;
            next.insert(next.begin(), ParGroupMapEntry{from, to});
            return search(parent_of(from_, from), {nullptr}, next);
        }
        to.insert(to.begin(), outer);
        return search(from, to, done);
    }

    static std::string describe(const Count& c) {
        return c.unlimited ? "unlimited" : fmt::format("{}", static_cast<unsigned long long>(c.value));
    }

    void fail(std::string message) {
        if (error_.empty()) error_ = std::move(message);
    }

    const hdl::HardwareModel& from_;
    const hdl::HardwareModel& to_;
    std::string error_;
};

}  // namespace

const ParGroupMapEntry* ParGroupMapping::find(const hdl::ParGroup* from) const {
    for (const ParGroupMapEntry& e : entries)
        if (e.from == from) return &e;
    return nullptr;
}

const ParGroupMapEntry* ParGroupMapping::find(const std::string& from_name) const {
    for (const ParGroupMapEntry& e : entries)
        if (e.from && e.from->name == from_name) return &e;
    return nullptr;
}

std::variant<ParGroupMapping, MappingError> find_par_group_mapping(const hdl::HardwareModel& from,
                                                                   const hdl::HardwareModel& to) {
    return MappingSearch(from, to).run();
}

}  // namespace mcl::translate
