// Pass: find which par_groups of a child description stand for each
// par_group of its parent (thesis section 3.6.1 and appendix B.2).
//
// Needs: the HardwareModels of a description (`from`) and of one of its
//   children (`to`).
// Does: starting from the executing par_groups of both, walks outwards,
//   comparing unit counts (a list of par_groups counts as the product of
//   theirs; `unlimited` equals only `unlimited`). Equal counts map one
//   par_group to one; a larger count in `from` splits it over the next
//   outer par_group of `to` as well (perfect's unlimited `threads` becomes
//   gpu's `blocks` x `threads`).
// Guarantees: a mapping whose entries run from the top level (the
//   parallelism block itself, `group == nullptr`) to the executing
//   par_group, or a message saying why `to` breaks the restrictions of
//   section 3.6.1 (a child only adds par_groups and memory spaces and
//   splits unit counts).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "hdl/HardwareModel.h"

namespace mcl::translate {

struct ParGroupMapEntry {
    const hdl::ParGroup* from = nullptr;        // null: the top level of `from`
    std::vector<const hdl::ParGroup*> to;       // outermost first; {nullptr}: the top level of `to`
};

struct ParGroupMapping {
    std::vector<ParGroupMapEntry> entries;  // outermost first

    // The entry for a par_group of `from` (nullptr: the top level).
    const ParGroupMapEntry* find(const hdl::ParGroup* from) const;
    const ParGroupMapEntry* find(const std::string& from_name) const;
};

struct MappingError {
    std::string message;
};

std::variant<ParGroupMapping, MappingError> find_par_group_mapping(const hdl::HardwareModel& from,
                                                                   const hdl::HardwareModel& to);

}  // namespace mcl::translate
