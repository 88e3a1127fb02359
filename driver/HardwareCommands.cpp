#include "driver/HardwareCommands.h"

#include <functional>
#include <ostream>

#include <fmt/format.h>

#include "hdl/ModelJson.h"
#include "hdl/Schema.h"
#include "support/Spelling.h"

namespace mcl::driver {

namespace {

std::string quantity_text(const hdl::Quantity& q, const char* unit) {
    return q.unlimited ? std::string("unlimited") : fmt::format("{} {}", q.value, unit);
}

std::string unit_count_text(const hdl::UnitCount& u) {
    if (u.count.unlimited) return "unlimited";
    std::string n = std::to_string(u.count.value);
    return u.bound == hdl::UnitCount::Bound::Exact ? n : "at most " + n;
}

std::string memory_space_text(const hdl::MemorySpace& m) {
    std::string flags;
    if (m.is_default) flags += " [default]";
    if (m.read_only) flags += " [read_only]";
    return "memory_space " + m.name + flags;
}

void print_device_node(const hdl::DeviceNode& n, int depth, std::ostream& out) {
    std::string line = fmt::format("{:{}}{} {}", "", depth * 2, hdl::block_kind_name(n.kind), n.name);
    std::vector<std::string> facts;
    if (n.units) facts.push_back(unit_count_text(*n.units) + " units");
    if (!n.spaces.empty()) facts.push_back(fmt::format("spaces {}", fmt::join(n.spaces, ", ")));
    if (n.capacity) facts.push_back("capacity " + quantity_text(*n.capacity, "B"));
    if (n.cache_line_size) facts.push_back(fmt::format("line {} B", *n.cache_line_size));
    if (n.nr_banks) facts.push_back(fmt::format("{} banks", *n.nr_banks));
    if (!n.addressable) facts.push_back("not addressable");
    if (n.latency) facts.push_back(fmt::format("latency {} cycles", *n.latency));
    if (n.bandwidth)
        facts.push_back("bandwidth " + quantity_text(*n.bandwidth, "B/s") +
                        (n.bandwidth_derived ? " (clock * width)" : ""));
    if (n.width) facts.push_back(fmt::format("width {} bits", *n.width));
    if (n.clock_frequency) facts.push_back(fmt::format("clock {} Hz", *n.clock_frequency));
    for (const hdl::Slot& s : n.slots) facts.push_back(fmt::format("slots({}, {})", s.par_unit, s.count));
    for (const hdl::FeedbackFunctionUse& f : n.performance_feedback)
        facts.push_back(fmt::format("feedback \"{}\"", f.name));
    for (const hdl::Connection& c : n.connections)
        facts.push_back(fmt::format("connects {}{} <-> {}{}", c.from.name, c.from.all_units ? "[*]" : "",
                                    c.to.name, c.to.all_units ? "[*]" : ""));
    for (const hdl::Operation& o : n.operations) facts.push_back(fmt::format("op {} cost {}", o.op, o.cost));
    if (!facts.empty()) line += ": " + fmt::format("{}", fmt::join(facts, "; "));
    out << line << '\n';
    for (const auto& c : n.children) print_device_node(*c, depth + 1, out);
}

void print_model_text(const hdl::HardwareModel& m, const std::string& file, std::ostream& out) {
    out << m.name;
    if (m.parent) out << " (specializes " << *m.parent << ")";
    out << "  [" << file << "]\n";
    out << "parallelism " << m.parallelism_name << ":\n";
    for (const hdl::MemorySpace& s : m.memory_spaces) out << "  " << memory_space_text(s) << '\n';
    int depth = 1;
    for (const hdl::ParGroup* g : m.par_groups()) {
        out << fmt::format("{:{}}par_group {} ({} units)\n", "", depth * 2, g->name, unit_count_text(g->units));
        out << fmt::format("{:{}}par_unit {}\n", "", depth * 2 + 2, g->unit->name);
        for (const hdl::MemorySpace& s : g->unit->memory_spaces)
            out << fmt::format("{:{}}{}\n", "", depth * 2 + 4, memory_space_text(s));
        depth += 2;
    }
    out << "executing par_unit: " << m.executing_par_unit().name << '\n';
    out << "device:\n";
    print_device_node(*m.device, 1, out);
    if (!m.outside.empty()) {
        out << "outside the device:\n";
        for (const auto& o : m.outside) print_device_node(*o, 1, out);
    }
}

}  // namespace

int list_hwd(const HardwarePaths& paths, std::ostream& out, std::ostream& err) {
    Session session(paths);
    int status = session.report(err);
    const hdl::HardwareLibrary& library = session.library;
    std::function<void(const std::string&, int)> print = [&](const std::string& name, int depth) {
        out << fmt::format("{:{}}{}\n", "", depth * 2, name);
        for (const std::string& c : library.children(name)) print(c, depth + 1);
    };
    if (library.find(hdl::kRootDescription)) print(hdl::kRootDescription, 0);
    return status;
}

int show_hwd(const HardwarePaths& paths, const std::string& name, bool json, std::ostream& out,
             std::ostream& err) {
    Session session(paths);
    int status = session.report(err);
    const hdl::HardwareLibrary& library = session.library;
    const hdl::HardwareModel* m = library.find(name);
    if (!m) {
        err << fmt::format("mclc: error: no valid hardware description named '{}'{}\n", name,
                           did_you_mean(name, library.names()));
        return 1;
    }
    if (json)
        out << hdl::model_to_json(*m, session.sources).dump(2) << '\n';
    else
        print_model_text(*m, library.file_of(name), out);
    return status;
}

}  // namespace mcl::driver
