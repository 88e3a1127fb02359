#include "compiler/translate/TranslateMemorySpaces.h"

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::translate {

namespace {

std::vector<const hdl::MemorySpace*> spaces_of(const std::vector<hdl::MemorySpace>& list) {
    std::vector<const hdl::MemorySpace*> out;
    for (const hdl::MemorySpace& m : list) out.push_back(&m);
    return out;
}

// The candidate that best stands for `ms`; null when none may.
const hdl::MemorySpace* best_match(const hdl::MemorySpace& ms, const std::vector<const hdl::MemorySpace*>& candidates) {
    auto pick = [&](auto&& accept) -> const hdl::MemorySpace* {
        for (const hdl::MemorySpace* c : candidates)
            if (accept(*c)) return c;
        return nullptr;
    };
    if (auto* c = pick([&](const auto& c) { return c.name == ms.name && c.read_only == ms.read_only; })) return c;
    if (auto* c = pick([&](const auto& c) { return c.is_default == ms.is_default && c.read_only == ms.read_only; }))
        return c;
    if (auto* c = pick([&](const auto& c) { return c.read_only == ms.read_only; })) return c;
    if (ms.read_only) return pick([](const auto&) { return true; });
    return nullptr;
}

}  // namespace

std::variant<std::string, MappingError> equivalent_memory_space(const std::string& space,
                                                                const hdl::HardwareModel& from,
                                                                const hdl::HardwareModel& to,
                                                                const ParGroupMapping& mapping) {
    const hdl::MemorySpace* ms = from.find_memory_space(space);
    if (!ms) return MappingError{fmt::format("'{}' is not a memory space of '{}'", space, from.name)};
    std::vector<const hdl::MemorySpace*> candidates;
    std::string where;
    if (const hdl::ParUnit* owner = from.memory_space_owner(space)) {
        const hdl::ParGroup* group = nullptr;
        for (const hdl::ParGroup* g : from.par_groups())
            if (g->unit.get() == owner) group = g;
        const ParGroupMapEntry* entry = mapping.find(group);
        const hdl::ParUnit& unit = *entry->to.back()->unit;
        candidates = spaces_of(unit.memory_spaces);
        where = fmt::format("par_unit '{}'", unit.name);
    } else {
        candidates = spaces_of(to.memory_spaces);
        where = "the top level";
    }
    if (const hdl::MemorySpace* match = best_match(*ms, candidates)) return match->name;
    return MappingError{fmt::format("'{}' has no memory space at {} that can stand for '{}' of '{}'{}", to.name,
                                    where, space, from.name, ms->read_only ? "" : " (a writable one is needed)")};
}

void translate_memory_spaces(mcpl::Function& f, const hdl::HardwareModel& from, const hdl::HardwareModel& to,
                             const ParGroupMapping& mapping, DiagnosticEngine& diags) {
    auto rename = [&](std::string& space, SourceLocation loc) {
        auto eq = equivalent_memory_space(space, from, to, mapping);
        if (auto* err = std::get_if<MappingError>(&eq)) {
            diags.error(loc, fmt::format("cannot translate memory space '{}' to '{}': {}", space, to.name,
                                         err->message));
            return;
        }
        space = std::get<std::string>(eq);
    };
    auto decl = [&](mcpl::Decl& d) {
        for (size_t i = 0; i < d.memory_spaces.size(); ++i) rename(d.memory_spaces[i], d.memory_space_locations[i]);
    };
    for (auto& p : f.params) decl(*p);
    mcpl::for_each_stmt(*f.body, [&](mcpl::Stmt& s) {
        if (s.decl && s.kind != mcpl::Stmt::Kind::Foreach) decl(*s.decl);
        if (s.kind == mcpl::Stmt::Kind::Barrier) rename(s.name, s.name_location);
    });
}

}  // namespace mcl::translate
