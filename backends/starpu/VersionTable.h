// Pass: choose the version of each kernel that each leaf runs in the
// heterogeneous runtime (DESIGN.md section 12, Cashmere's "most specific
// version per device").
//
// Needs: the versions (MCPL modules, each at one level, naming the kernels
//   it exports), the leaves that have a target configuration (with their
//   backends), and the hardware hierarchy.
// Does: for every kernel and leaf, picks among the versions that have the
//   kernel and whose level is on the path from the root to the leaf the one
//   at the deepest level; between versions at the same level the one given
//   later wins (a later refinement, as matmul_gpu_v1.mcl sorts after
//   matmul_gpu.mcl). A leaf runs its version on a CPU worker when its
//   configuration has the cpp backend and on an OpenCL worker when it has
//   the opencl backend. For devices that match no leaf, it picks per
//   generic kind (device types cpu, gpu and accelerator, the levels of those
//   names, else the root) the deepest version above that level, generated
//   for a leaf below it that has the worker kind's backend, preferably one
//   that runs that version already.
// Guarantees: every kernel of every version has a table; a leaf without a
//   version on its path has no choice (the table says so); every
//   implementation to generate is listed once.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "hdl/HardwareLibrary.h"

namespace mcl::backends::starpu {

enum class WorkerKind { cpu, opencl };
const char* worker_kind_name(WorkerKind kind);
// The backend that generates a kind's implementation: cpp for CPU workers,
// opencl for OpenCL workers.
const char* worker_kind_backend(WorkerKind kind);

struct VersionSource {
    std::string module;
    std::string level;                 // the description its kernels target
    std::vector<std::string> kernels;  // exported kernel names
};

struct LeafSource {
    std::string name;
    std::set<std::string> backends;  // of its target configuration
};

// A version generated for a leaf and run by one worker kind.
struct Implementation {
    size_t version;  // index into the versions
    std::string leaf;
    WorkerKind kind;
    friend bool operator<(const Implementation& a, const Implementation& b) {
        return std::tie(a.version, a.leaf, a.kind) < std::tie(b.version, b.leaf, b.kind);
    }
};

struct LeafChoice {
    std::string leaf;
    std::optional<size_t> version;     // none: no version on the leaf's path
    std::vector<size_t> same_level;    // versions at the chosen level given earlier
    std::vector<WorkerKind> kinds;     // the worker kinds that run it
};

struct GenericChoice {
    std::string device_type;  // cpu, gpu, accelerator
    WorkerKind kind;
    std::string level;        // the generic level
    size_t version;
    std::string leaf;         // generated for
};

struct KernelTable {
    std::string kernel;
    std::vector<LeafChoice> leaves;      // in the order of the leaves given
    std::vector<GenericChoice> generic;
    std::set<Implementation> implementations;
};

std::vector<KernelTable> choose_versions(const std::vector<VersionSource>& versions,
                                         const std::vector<LeafSource>& leaves,
                                         const hdl::HardwareLibrary& library);

// The tables as text, one line per leaf ("hopper <- matmul_hopper_v2
// (hopper) on opencl") and per generic kind.
std::string version_table_text(const std::vector<KernelTable>& tables, const std::vector<VersionSource>& versions);

}  // namespace mcl::backends::starpu
