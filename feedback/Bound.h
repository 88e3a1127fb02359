// Pass: the bound (roofline) of a kernel at its level (DESIGN.md section
// 14; S. Williams, A. Waterman, D. Patterson, "Roofline", CACM 52(4), 2009).
//
// Needs: a checked function (Decl::is_read / is_written set on its
//   parameters), its accesses and its description's model.
// Does: sets the work the kernel must do against the peak rates its level
//   describes:
//   - operations: the computations of operation statistics
//     (count_operations(input).computations; a*b+c counts 2);
//   - bytes: the compulsory traffic of device memory. Every array parameter
//     the kernel reads moves in once and every one it writes moves out
//     once (read and written: twice); a scalar counts only when it is
//     written. An array's size is the product of the extents of its first
//     declared form times its element size (element_byte_size), in the
//     kernel's parameters. This is a true lower bound: it assumes perfect
//     caching (every element crosses the memory interface once, however
//     often the kernel touches it). Arrays the kernel declares itself are
//     not counted: with perfect caching a temporary never has to reach
//     device memory;
//   - the peak computational rate, from the description's numbers only
//     (no hardware facts in C++): for every device node whose
//     `instructions` hold +, - or * (the lanes that execute arithmetic),
//     its number of instances (the product of nr_units of the groups
//     around it, DeviceNode::instance_count) times the clock_frequency of
//     the nearest node at or above it, times the operations one lane
//     completes per cycle: 1/cost of the cheapest of +, -, *, or 2/cost of
//     op("fma", cost) when the description has one (a fused multiply-add
//     completes two of our computations), whichever is more. Several such
//     nodes add up. Assumption: every lane issues one arithmetic
//     instruction per cost cycles, whatever the kernel's mix; where a
//     description under-states its issue rate (an FPGA, where every
//     operator of a pipelined body is its own hardware; x86_avx2, whose
//     two FMA ports one lane per cycle cannot say) the compute time is
//     not a lower bound, the memory time still is. A lane with
//     op("double", k) completes double-precision arithmetic at 1/k of that
//     rate: the computations in double precision (OperationTotals::
//     double_computations) take their time at the double rate of the lanes
//     together (all lanes must give one; otherwise the remark says that they
//     are taken at the single-precision rate);
//   - the memory bandwidth: the bandwidth of the interconnects inside the
//     device that connect the memory (not a cache) holding the level's
//     top-level default memory space to the first cache or the compute
//     units (hopper: mem_ic, device_mem to l2_cache, 3350 GB/s). The host
//     link is not one of them (the transfers pass reports it);
//   - compute_time = operations / peak rate, memory_time = bytes /
//     bandwidth, time = the larger (picked with values: GiNaC has no
//     symbolic max), intensity = operations / bytes, against the ridge
//     point peak / bandwidth of the level.
// Guarantees: one `bound` remark per kernel (a function returning void; a
//   function that returns a value runs inside a kernel's threads and gets
//   none) at its name, also at levels without rates (perfect: unlimited
//   cores and bandwidth): operations, bytes and intensity, and what the
//   time would need. Quantities "operations", "bytes" always,
//   "double_operations" when some computations are in double precision, "intensity"
//   unless there are no bytes; "compute_time",
//   "memory_time" where the level has the rate; "time" where both exist
//   and the larger one can be told (a number, or values from --param).
//   Without --param values the message names the values it needs. An array
//   whose size cannot be expressed is named and makes it approximate, as
//   do approximate operation counts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

// What one description says about its peak rates; each part may be missing.
struct LevelRates {
    // Computations per second; nullopt when unknown or unlimited.
    std::optional<double> operations_per_second;
    // The same in double precision; nullopt also when a lane has no op("double", k).
    std::optional<double> double_operations_per_second;
    bool compute_unlimited = false;
    std::string compute_text;  // how it was derived, or why it is missing
    // Bytes per second between device memory and the device.
    std::optional<double> bytes_per_second;
    bool memory_unlimited = false;
    std::string memory_text;
};

LevelRates rates_of(const hdl::HardwareModel& model);

// Both roofs of a description, when it describes both with numbers.
struct Roofline {
    std::string level;
    double operations_per_second = 0;  // the compute roof
    double bytes_per_second = 0;       // the bandwidth slope
    std::string compute_text, memory_text;
    // The lower roof of computations in double precision, when every lane
    // gives its op("double", k).
    std::optional<double> double_operations_per_second;
    // Operations per byte where the roofs meet.
    double ridge() const { return operations_per_second / bytes_per_second; }
    // Operations per second attainable at an arithmetic intensity.
    double attainable(double intensity) const;
};

std::optional<Roofline> roofline_of(const hdl::HardwareModel& model);
// The same from rates already worked out.
std::optional<Roofline> roofline_of(const std::string& level, const LevelRates& rates);

enum class BoundLimit { Unknown, Compute, Memory };

struct KernelBound {
    std::string function;
    std::string level;
    NamedQuantity operations, bytes, intensity;
    std::optional<NamedQuantity> double_operations;  // the part of operations in double precision, when any
    std::optional<NamedQuantity> compute_time, memory_time, time;
    LevelRates rates;
    std::optional<Roofline> roofline;
    BoundLimit limit = BoundLimit::Unknown;  // known with values (or when it does not depend on them)
    std::vector<std::string> uncounted;      // arrays whose size is not expressible
    std::vector<std::string> missing;        // --param values the numbers need
    bool approximate = false;
    Remark remark;                           // what bound_pass reports
};

KernelBound bound_of(const FeedbackInput& input);

std::vector<Remark> bound_pass(const FeedbackInput& input);

}  // namespace mcl::feedback
