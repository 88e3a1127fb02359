// The resolved hardware model of one description: what later passes ask of
// hardware. It has two trees: the parallelism hierarchy (the programming
// abstraction: par_groups, par_units, memory spaces) and the device tree (the
// physical device with every reference included, one node per instance).
// All numbers are normalised: bytes, bits, cycles, bytes/s, Hz.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hdl/Ast.h"
#include "hdl/Quantity.h"

namespace mcl::hdl {

struct UnitCount {
    enum class Bound { Exact, Max };  // nr_units or max_nr_units
    Bound bound = Bound::Exact;
    Quantity count;
};

struct MemorySpace {
    std::string name;
    bool is_default = false;
    bool read_only = false;
    SourceLocation location;
};

struct ParUnit;

struct ParGroup {
    std::string name;
    UnitCount units;
    SourceLocation location;
    std::unique_ptr<ParUnit> unit;
};

struct ParUnit {
    std::string name;
    SourceLocation location;
    std::vector<MemorySpace> memory_spaces;
    std::unique_ptr<ParGroup> group;  // null for the executing (innermost) par_unit
};

struct Slot {
    std::string par_unit;
    int64_t count = 0;
};

struct Operation {
    std::string op;  // "+", "-", ... or a name such as "load"
    int64_t cost = 0;
};

struct DeviceNode;

// A `performance_feedback("name")` of a device block: a feedback function
// the compiler should run, and where the description asks for it.
struct FeedbackFunctionUse {
    std::string name;
    SourceLocation location;
};

// One side of a `connects(a, b)`: the instances it denotes.
struct Endpoint {
    std::string name;  // as written
    bool all_units = false;
    std::vector<const DeviceNode*> nodes;
};

struct Connection {
    Endpoint from, to;
};

struct DeviceNode {
    BlockKind kind = BlockKind::Device;
    std::string name;
    std::string path;          // dotted path from the description, e.g. fermi.smps.smp.l1_cache
    SourceLocation location;   // where the block is declared
    const Block* declaration = nullptr;
    const DeviceNode* parent = nullptr;
    std::vector<std::unique_ptr<DeviceNode>> children;

    std::optional<UnitCount> units;                // groups
    std::vector<std::string> spaces;               // memories and caches
    std::optional<Quantity> capacity;              // bytes
    std::optional<int64_t> cache_line_size;        // bytes
    std::optional<int64_t> nr_banks;
    bool addressable = true;
    std::optional<int64_t> latency;                // cycles
    std::optional<Quantity> bandwidth;             // bytes/s
    bool bandwidth_derived = false;                // from clock_frequency * width
    std::optional<int64_t> width;                  // bits
    std::optional<int64_t> clock_frequency;        // Hz
    std::vector<Slot> slots;
    std::vector<FeedbackFunctionUse> performance_feedback;
    std::vector<Operation> operations;             // instructions blocks
    std::vector<Connection> connections;           // interconnects, load-store groups

    // Slots this node offers for a par_unit (0 when it names none).
    int64_t slots_for(const std::string& par_unit) const;
    // An execution unit or group (of any subclass): a block that runs par_units.
    bool is_execution() const;
    // How many instances of this node exist: the product of the unit counts
    // of the groups it is nested in (unlimited when any is).
    Quantity instance_count() const;
    // True when `other` is this node or nested in it.
    bool contains(const DeviceNode& other) const;
};

class HardwareModel {
public:
    std::string name;
    std::optional<std::string> parent;  // the description this one specializes
    SourceLocation location;
    std::string parallelism_name;
    std::vector<MemorySpace> memory_spaces;  // top-level memory spaces
    std::unique_ptr<ParGroup> outer_group;
    std::unique_ptr<DeviceNode> device;                // the `device NAME` tree
    std::vector<std::unique_ptr<DeviceNode>> outside;  // top-level blocks outside it (host, host links)

    // --- parallelism hierarchy ---
    std::vector<const ParGroup*> par_groups() const;  // outermost first
    const ParUnit& executing_par_unit() const;          // the innermost par_unit
    const ParGroup* find_par_group(const std::string& name) const;
    const ParUnit* find_par_unit(const std::string& name) const;
    const MemorySpace* find_memory_space(const std::string& name) const;
    // The path that hardware values name `g` by, below the description's
    // name: <parallelism>.<group>.<unit>. ... .<g>.
    std::vector<std::string> par_group_path(const ParGroup& g) const;
    // The par_unit whose scope declares a memory space; nullptr for top-level
    // spaces (and for unknown names: check find_memory_space first).
    const ParUnit* memory_space_owner(const std::string& name) const;
    std::vector<const MemorySpace*> all_memory_spaces() const;  // outermost first

    // --- device ---
    // Every node of the device tree (and outside it) that is a `kind`.
    std::vector<const DeviceNode*> nodes_of_kind(BlockKind kind) const;
    // Memories and caches responsible for a memory space.
    std::vector<const DeviceNode*> memories_for_space(const std::string& space) const;
    // Execution units (any subclass) with slots for a par_unit.
    std::vector<const DeviceNode*> execution_units_for(const std::string& par_unit) const;
    // How many units of `par_unit` the device runs side by side at least:
    // the instances of the outermost execution blocks with slots for it
    // (the multiprocessors that take a GPU's blocks); 0 when none has or
    // their number is unlimited.
    int64_t nr_processors(const std::string& par_unit) const;
    // The lanes of the widest SIMD group whose units run `par_unit` (a
    // GPU's warp or an FPGA's datapath); 0 when none does.
    int64_t simd_width(const std::string& par_unit) const;
    // Interconnects with one side on `memory` and the other on `unit` or a
    // node that contains it.
    std::vector<const DeviceNode*> interconnects_between(const DeviceNode& memory,
                                                         const DeviceNode& unit) const;
    // The interconnect between the device and something outside it (the host).
    const DeviceNode* host_link() const;
    // SIMD (lock-step) groups, load-store groups included.
    std::vector<const DeviceNode*> simd_groups() const;
    std::vector<const DeviceNode*> load_store_groups() const;
    std::vector<std::string> performance_feedback_names() const;

private:
    template <typename F>
    void for_each_node(F&& f) const;
};

}  // namespace mcl::hdl
