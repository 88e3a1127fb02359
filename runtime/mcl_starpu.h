// mcl::rt, the heterogeneous task runtime of MCL on StarPU (DESIGN.md
// section 12, thesis chapter 4). Applications register their arrays with a
// Runtime and submit kernel calls through the `submit` functions that
// `mclc gen --runtime starpu` generates; StarPU schedules the calls over
// CPU and OpenCL workers (dmda by default: the earliest finish time,
// transfers included), keeps the data coherent and orders the calls by
// their access modes. `mclc gen --runtime starpu` copies this header beside
// the generated files; it is header-only so that several generated modules
// can be linked into one program.
//
// What the runtime adds to StarPU:
//   - each worker's device is mapped to a leaf of the hardware hierarchy
//     (the "match" blocks of targets/<leaf>.json, embedded in the generated
//     code) and runs the version of each kernel chosen for that leaf; a
//     device that matches no leaf runs the version of its kind's generic
//     level, with a message naming the description to add.
//     MCL_RT_LEAF=DEVICE:LEAF[,DEVICE:LEAF...] overrides the match, DEVICE
//     being `cpu`, `openclN` (StarPU's OpenCL device N) or a part of a
//     device's name;
//   - a task whose implementation fails (an OpenCL build or launch error)
//     runs again, on the same data, with a version of another device kind;
//     the failing worker is then left out of that kernel while another can
//     run it. MCL_RT_FAIL=cpu or MCL_RT_FAIL=opencl makes every
//     implementation of that kind fail, to test this;
//   - counts of tasks per worker and per version, and a Chrome/Perfetto
//     trace of the run (Options::trace_file or MCL_RT_TRACE=FILE): a track
//     per worker, each task with its kernel, version, leaf and the bytes
//     moved to run it, built from StarPU's profiling information;
//   - affinity hints in the form of CnC-HC (`@ CPU = 20, GPU = 10`) and a
//     static binding to a worker, per submit;
//   - StarPU-MPI when built with MCL_RT_WITH_MPI=1 and started by an MPI
//     launcher (mpirun, srun: they set OMPI_COMM_WORLD_SIZE, PMI_SIZE or
//     PMIX_RANK): arrays have an owner rank, a task runs on the rank that
//     owns what it writes, gather() brings an array to rank 0. A process
//     started on its own is one rank without MPI: Open MPI's singleton
//     start now and then hung in MPI_Init_thread (1 run in 44 here).
//
// StarPU's calibration (the history-based performance models) lives in
// STARPU_HOME; when it is not set the runtime uses MCL_RT_STARPU_HOME (a
// compile definition; mcl_add_runtime_kernels sets it to a folder of the
// build tree), else ./.mcl-starpu.
#ifndef MCL_STARPU_H
#define MCL_STARPU_H

// The OpenCL C++ bindings first: they choose the OpenCL version that
// starpu_opencl.h would otherwise set lower.
#include "mcl_opencl.h"
#include "mcl_runtime.h"

#include <starpu.h>
#include <starpu_opencl.h>
#if MCL_RT_WITH_MPI
#include <starpu_mpi.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace mcl::rt {

namespace detail {

// The concatenation of `parts` (strings, C strings and numbers), appended
// piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) about
// "literal" + std::string temporaries, which would stop a -Werror build.
inline void append_part(std::string& out, const std::string& part) { out += part; }
inline void append_part(std::string& out, const char* part) { out += part; }
template <typename Number, typename = std::enable_if_t<std::is_arithmetic_v<Number>>>
inline void append_part(std::string& out, Number part) {
    out += std::to_string(part);
}
template <typename... Parts>
std::string text(const Parts&... parts) {
    std::string out;
    (append_part(out, parts), ...);
    return out;
}

// Whether an MPI launcher started this process: Open MPI's mpirun sets
// OMPI_COMM_WORLD_SIZE, PMI-based launchers (MPICH's hydra, Slurm's srun)
// PMI_SIZE, PMIx-based ones PMIX_RANK.
inline bool started_by_mpi_launcher() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(name)) return true;
    return false;
}

}  // namespace detail

enum class WorkerKind { cpu, opencl };

inline const char* kind_name(WorkerKind k) { return k == WorkerKind::cpu ? "cpu" : "opencl"; }

// How a kernel uses an array (from MCL's read/write inference).
enum class Access { read, write, read_write };

// --- what generated code describes --------------------------------------------

// The "match" block of a leaf's target configuration.
struct LeafMatch {
    const char* leaf;
    int depth;                // in the hierarchy; deeper matches win
    const char* device_type;  // cpu, gpu or accelerator
    const char* vendor;       // regular expressions, searched for
    const char* name;
};

// One version of a kernel generated for one leaf and one worker kind.
struct Version {
    WorkerKind kind;
    const char* leaf;      // the leaf it was generated for
    const char* module;    // the MCPL module of the version, e.g. matmul_gpu_v1
    const char* backend;   // cpp or opencl
    // kind cpu: runs on host pointers in the calling thread.
    void (*run_cpu)(void* const* buffers, const void* args);
    // kind opencl: runs on the buffers of `device` (counts in elements).
    void (*run_opencl)(opencl::Device& device, const cl_mem* buffers, const size_t* counts, const void* args);
    // Any kind: runs on host pointers, copying to its device and back (the
    // fallback when another device failed).
    void (*run_on_host)(void* const* buffers, const void* args);
};

// A kernel as generated code describes it: its parameters' access modes, its
// versions, the leaves it knows and which version a device of each generic
// kind runs when it matches no leaf.
struct KernelInfo {
    const char* name;           // module::kernel
    const char* symbol;         // of StarPU's performance model
    std::vector<Access> modes;  // of the array parameters, in order
    size_t args_size;           // of the struct of scalar arguments (never empty)
    std::vector<Version> versions;
    std::vector<LeafMatch> leaves;
    // device_type ("cpu", "gpu", "accelerator") + kind -> index in versions
    std::map<std::string, size_t> generic;
    std::map<std::string, std::string> generic_level;  // device_type -> level name
};

// --- options -------------------------------------------------------------------

// CnC-HC's affinity `@ CPU = 20, GPU = 10`: of every 30 calls with these
// weights, 20 run on CPU workers and 10 on OpenCL workers (GPU stands for
// every OpenCL device). A weight of 0 keeps the call off that kind.
struct Affinity {
    int cpu = 1;
    int gpu = 1;
};

struct SubmitOptions {
    const Affinity* affinity = nullptr;  // none: the scheduler decides
    int worker = -1;                     // >= 0: run on this worker (static binding)
    int priority = 0;
};

struct Options {
    std::string scheduler;   // empty: STARPU_SCHED, else dmda
    std::string trace_file;  // empty: MCL_RT_TRACE, else no trace
    bool quiet = false;      // no message about unmatched devices
};

// A worker as the runtime sees it.
struct WorkerInfo {
    int id = 0;
    WorkerKind kind = WorkerKind::cpu;
    std::string name;         // StarPU's, e.g. "CPU 0", "OpenCL 0 (pthread-...)"
    std::string device_type;  // cpu, gpu, accelerator
    std::string vendor;
    std::string device_name;
    int devid = 0;            // StarPU's device number (OpenCL)
    unsigned memory_node = 0;
};

namespace detail {

inline double now_us() { return starpu_timing_now(); }

inline std::string cpu_info(const std::string& key) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, key.size(), key) != 0) continue;
        size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        size_t start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? "" : line.substr(start);
    }
    return "";
}

inline std::string json_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

// The bytes a buffer holds (StarPU vectors only: the runtime registers no
// other interface).
inline size_t vector_bytes(starpu_data_handle_t h) { return starpu_data_get_size(h); }

// The bytes of a vector buffer inside a codelet.
inline size_t vector_buffer_bytes(void* buffer) {
    return STARPU_VECTOR_GET_NX(buffer) * STARPU_VECTOR_GET_ELEMSIZE(buffer);
}

}  // namespace detail

class Runtime;

// Throws when an array registered with `size` elements is smaller than the
// `needed` elements a kernel's parameter spans (a negative extent too).
inline void check_extent(const char* kernel, const char* parameter, size_t size, long long needed) {
    if (needed < 0)
        throw Error(std::string(kernel) + ": the extent of '" + parameter + "' is negative (" +
                    std::to_string(needed) + ")");
    check_element_count(std::string(kernel) + ": '" + parameter + "'", size, needed);
}

// Records. The generated header defines each record of the kernels'
// parameters once; every version's glue defines its own of the same C
// layout (both are the MCPL record's fields in order). The codelets pass
// StarPU's buffers and the scalar arguments to a version as the glue's
// types, named through the parameters of its host function `F`.
template <typename F, size_t I>
struct parameter;
template <typename R, typename... Args, size_t I>
struct parameter<R (*)(Args...), I> {
    using type = std::tuple_element_t<I, std::tuple<Args...>>;
};
template <typename F, size_t I>
using parameter_t = typename parameter<F, I>::type;

template <typename Glue, typename Runtime>
constexpr void check_same_layout() {
    static_assert(sizeof(Glue) == sizeof(Runtime) && alignof(Glue) == alignof(Runtime),
                  "a version's record is laid out unlike the runtime's");
    static_assert(std::is_trivially_copyable_v<Glue> && std::is_trivially_copyable_v<Runtime>,
                  "records are plain data");
}

// A buffer of records as the glue's pointer type `GluePointer`.
template <typename GluePointer, typename Runtime>
GluePointer records_at(void* buffer) {
    check_same_layout<std::remove_cv_t<std::remove_pointer_t<GluePointer>>, Runtime>();
    return static_cast<GluePointer>(buffer);
}

// A record argument as the glue's record parameter: a copy, the types
// being distinct.
template <typename GlueParameter, typename Runtime>
auto record_as(const Runtime& value) {
    using Glue = std::remove_cv_t<std::remove_reference_t<GlueParameter>>;
    check_same_layout<Glue, Runtime>();
    Glue out;
    std::memcpy(&out, &value, sizeof out);
    return out;
}

// An OpenCL buffer of records as the device array a version's
// `on_device` function takes (`DeviceArrayParameter`, const and & removed).
template <typename T>
struct device_array_element;
template <typename T>
struct device_array_element<opencl::DeviceArray<T>> {
    using type = T;
};
template <typename DeviceArrayParameter, typename Runtime>
auto device_records(opencl::Device& device, cl::Buffer buffer, size_t count) {
    using Glue = typename device_array_element<std::remove_cv_t<std::remove_reference_t<DeviceArrayParameter>>>::type;
    check_same_layout<Glue, Runtime>();
    return opencl::DeviceArray<Glue>(device, std::move(buffer), count);
}

// A kernel as StarPU knows it: one codelet whose CPU and OpenCL functions
// run the version of the worker's leaf.
class Kernel {
public:
    explicit Kernel(KernelInfo info) : info_(std::move(info)) {
        model_.type = STARPU_HISTORY_BASED;
        model_.symbol = info_.symbol;
        starpu_codelet_init(&codelet_);
        codelet_.name = info_.name;
        codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
        codelet_.model = &model_;
        codelet_.can_execute = &Kernel::can_execute;
        codelet_.where = 0;
        for (const Version& v : info_.versions) {
            if (v.kind == WorkerKind::cpu) codelet_.where |= STARPU_CPU;
            if (v.kind == WorkerKind::opencl) codelet_.where |= STARPU_OPENCL;
        }
        codelet_.cpu_funcs[0] = &Kernel::run_cpu;
        codelet_.opencl_funcs[0] = &Kernel::run_opencl;
        for (auto& f : failed_) f = false;
        registry()[&codelet_] = this;
    }
    Kernel(const Kernel&) = delete;
    Kernel& operator=(const Kernel&) = delete;

    const KernelInfo& info() const { return info_; }
    starpu_codelet* codelet() { return &codelet_; }

    // The version `worker` runs, or nullptr when it has none.
    const Version* version_for(const WorkerInfo& worker);

private:
    friend class Runtime;

    static std::map<const starpu_codelet*, Kernel*>& registry() {
        static std::map<const starpu_codelet*, Kernel*> kernels;
        return kernels;
    }
    static Kernel& of(const starpu_task* task) { return *registry().at(task->cl); }

    static int can_execute(unsigned workerid, struct starpu_task* task, unsigned nimpl);
    static void run_cpu(void* buffers[], void* cl_arg);
    static void run_opencl(void* buffers[], void* cl_arg);
    void run(void* buffers[], void* cl_arg, WorkerKind kind);
    // Returns the version that ran instead; `note` says what failed and what ran.
    const Version* fall_back(void* buffers[], const void* args, const WorkerInfo& worker, const Version* failed,
                             const std::string& why, std::string& note);

    KernelInfo info_;
    starpu_codelet codelet_;
    starpu_perfmodel model_{};
    std::once_flag resolved_;
    std::vector<int> version_of_worker_;  // index into info_.versions, -1: none
    std::array<std::atomic<bool>, STARPU_NMAXWORKERS> failed_;
};

// An array registered with the runtime: a StarPU vector of `size()`
// elements of T, row-major when it holds a matrix. Unregistering (the
// destructor) waits for the tasks that use it and leaves the result in the
// application's memory (on the owner rank under MPI; see gather()).
template <typename T>
class Vector {
public:
    // `data` must live as long as this object. `owner`: the rank that holds
    // the data under MPI (ignored otherwise).
    Vector(Runtime& runtime, T* data, size_t count, int owner = 0);
    virtual ~Vector();
    Vector(const Vector&) = delete;
    Vector& operator=(const Vector&) = delete;

    size_t size() const { return count_; }
    T* data() const { return data_; }
    int owner() const { return owner_; }
    starpu_data_handle_t handle() const { return handle_; }
    // Brings the current contents to the application's memory on rank 0
    // (on every rank without MPI), waiting for the tasks that write it.
    void gather();
    // Starts gather() without waiting, so that the transfers of many arrays
    // overlap: call it for each, then gather() for each.
    void start_gather();

private:
    Runtime& runtime_;
    T* data_;
    size_t count_;
    int owner_;
    starpu_data_handle_t handle_ = nullptr;
    bool gather_started_ = false;
    bool claimed_ = false;  // holds its host memory in the runtime's record
    T placeholder_{};  // StarPU needs storage for an empty array
};

// A row-major matrix of rows x cols.
template <typename T>
class Matrix : public Vector<T> {
public:
    Matrix(Runtime& runtime, T* data, size_t rows, size_t cols, int owner = 0)
        : Vector<T>(runtime, data, rows * cols, owner), rows_(rows), cols_(cols) {}
    size_t rows() const { return rows_; }
    size_t cols() const { return cols_; }

private:
    size_t rows_, cols_;
};

// A row-major matrix cut into tiles of tile_rows x tile_cols (smaller at the
// right and bottom edges), each a contiguous Matrix that tasks use on their
// own. Under MPI the tiles are distributed 2-D block-cyclically over a grid
// of pr x pc ranks (pr the largest divisor of the rank count not above its
// square root): tile (i, j) belongs to rank (i mod pr) * pc + (j mod pc).
// gather() writes the tiles back into the matrix on rank 0.
template <typename T>
class TiledMatrix {
public:
    TiledMatrix(Runtime& runtime, T* data, size_t rows, size_t cols, size_t tile_rows, size_t tile_cols);

    size_t tile_rows_count() const { return row_tiles_; }
    size_t tile_cols_count() const { return col_tiles_; }
    size_t tile_height(size_t i) const { return std::min(tile_rows_, rows_ - i * tile_rows_); }
    size_t tile_width(size_t j) const { return std::min(tile_cols_, cols_ - j * tile_cols_); }
    Matrix<T>& tile(size_t i, size_t j) { return *tiles_.at(i * col_tiles_ + j); }
    void gather();

private:
    T* data_;
    size_t rows_, cols_, tile_rows_, tile_cols_, row_tiles_, col_tiles_;
    std::vector<std::vector<T>> storage_;
    std::vector<std::unique_ptr<Matrix<T>>> tiles_;
};

// The runtime: StarPU (and StarPU-MPI) for the life of the object, which
// must outlive the arrays registered with it. One per process.
class Runtime {
public:
    Runtime(int* argc, char*** argv, const Options& options = {});
    explicit Runtime(const Options& options = {}) : Runtime(nullptr, nullptr, options) {}
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    static Runtime& current() {
        if (!current_) throw Error("mcl::rt: no Runtime exists");
        return *current_;
    }

    int rank() const { return rank_; }
    int ranks() const { return ranks_; }
    bool distributed() const { return ranks_ > 1; }
    bool mpi_enabled() const { return mpi_; }
    const std::vector<WorkerInfo>& workers() const { return workers_; }
    const WorkerInfo& worker(int id) const { return workers_.at(static_cast<size_t>(id)); }
    // The first worker of `kind`, or -1.
    int first_worker(WorkerKind kind) const;

    // Submits a call of `kernel`: `args` (the scalar arguments, copied),
    // the arrays in parameter order with their modes from the kernel, and
    // the call's flop count for StarPU's statistics.
    template <typename... Arrays>
    void submit(Kernel& kernel, const void* args, size_t args_size, double flops, const SubmitOptions& options,
                const Arrays&... arrays) {
        std::vector<starpu_data_handle_t> handles = {arrays.handle()...};
        submit_handles(kernel, args, args_size, flops, options, handles);
    }

    // Submits a copy of `source` into `destination` (same size) as a task,
    // ordered like a kernel call that reads the one and writes the other.
    void submit_copy(starpu_data_handle_t destination, starpu_data_handle_t source);

    // Waits for every submitted task (on every rank).
    void wait_all();

    // Tasks per worker and per version since the start, and the failures.
    void print_summary(std::ostream& out) const;
    std::map<std::string, long> tasks_per_worker() const;
    std::map<std::string, long> tasks_per_version() const;
    long fallbacks() const;

    // A fresh tag for StarPU-MPI data (every rank registers the same arrays
    // in the same order, so tags agree).
    int64_t next_tag() { return next_tag_++; }
    // The coherence tracker's record of a new array (the trace's bytes).
    void note_registered(starpu_data_handle_t h);
    // Records that a registered array spans `bytes` of host memory from
    // `begin`; throws when they overlap an array registered before. StarPU
    // keeps each registered array coherent on its own: two over one memory
    // are two copies that tasks write and write back independently, so one
    // call's results overwrite another's or a task reads stale values.
    void claim_host_memory(const void* begin, size_t bytes);
    // Forgets the claim of the array that starts at `begin` (unregistered).
    void release_host_memory(const void* begin);

private:
    friend class Kernel;

    struct Execution {
        const Version* version = nullptr;
        std::string fallback;  // what failed and what ran instead
    };
    struct TraceEvent {
        std::string kernel, version, leaf, note;
        int worker = 0;
        double start_us = 0, end_us = 0;
        size_t bytes_in = 0;
    };

    void submit_handles(Kernel& kernel, const void* args, size_t args_size, double flops,
                        const SubmitOptions& options, const std::vector<starpu_data_handle_t>& handles);
    uint32_t affinity_where(const Kernel& kernel, const Affinity& affinity);
    void discover_workers();
    void parse_leaf_overrides();
    opencl::Device& opencl_device(const WorkerInfo& worker);
    void record(starpu_task* task, const Execution& execution);
    static void task_done(void* arg);
    void finish_task(starpu_task* task);
    void write_trace() const;

    static inline Runtime* current_ = nullptr;

    Options options_;
    int rank_ = 0, ranks_ = 1;
    bool mpi_ = false;
    std::string trace_file_;
    std::string fail_kind_;  // MCL_RT_FAIL
    std::vector<WorkerInfo> workers_;
    std::vector<std::pair<std::string, std::string>> leaf_overrides_;  // device -> leaf
    std::vector<std::unique_ptr<opencl::Device>> opencl_devices_;       // per worker
    mutable std::mutex mutex_;
    std::map<const starpu_task*, Execution> executions_;
    std::map<std::string, long> per_worker_, per_version_;
    long fallbacks_ = 0;
    std::vector<TraceEvent> events_;
    std::map<starpu_data_handle_t, std::set<unsigned>> valid_on_;  // memory nodes with a valid copy
    std::map<std::uintptr_t, std::uintptr_t> host_memory_;          // registered arrays: begin -> end
    std::map<std::string, long> affinity_counters_;
    std::set<std::string> unmatched_reported_;
    double start_us_ = 0;
    int64_t next_tag_ = 1;
};

// --- Runtime ---------------------------------------------------------------------

inline Runtime::Runtime(int* argc, char*** argv, const Options& options) : options_(options) {
    if (current_) throw Error("mcl::rt: a Runtime exists already (StarPU runs once per process)");
#ifndef MCL_RT_STARPU_HOME
#define MCL_RT_STARPU_HOME "./.mcl-starpu"
#endif
    // Calibration stays with the project unless the user keeps it elsewhere.
    if (!std::getenv("STARPU_HOME")) setenv("STARPU_HOME", MCL_RT_STARPU_HOME, 1);
    // PoCL and other CPU OpenCL devices are workers too (StarPU leaves them
    // out by default).
    if (!std::getenv("STARPU_OPENCL_ON_CPUS")) setenv("STARPU_OPENCL_ON_CPUS", "1", 1);
    if (const char* f = std::getenv("MCL_RT_FAIL")) fail_kind_ = f;
    if (!fail_kind_.empty() && fail_kind_ != "cpu" && fail_kind_ != "opencl")
        throw Error("MCL_RT_FAIL='" + fail_kind_ + "' is not cpu or opencl");
    trace_file_ = options.trace_file;
    if (trace_file_.empty())
        if (const char* t = std::getenv("MCL_RT_TRACE")) trace_file_ = t;

    starpu_conf conf;
    starpu_conf_init(&conf);
    std::string scheduler = options.scheduler;
    if (scheduler.empty() && !std::getenv("STARPU_SCHED")) scheduler = "dmda";
    if (!scheduler.empty()) conf.sched_policy_name = scheduler.c_str();
    int status;
#if MCL_RT_WITH_MPI
    if (detail::started_by_mpi_launcher()) {
        status = starpu_mpi_init_conf(argc, argv, 1, MPI_COMM_WORLD, &conf);
        mpi_ = status == 0;
        if (mpi_) {
            starpu_mpi_comm_rank(MPI_COMM_WORLD, &rank_);
            starpu_mpi_comm_size(MPI_COMM_WORLD, &ranks_);
        }
    } else {
        status = starpu_init(&conf);
    }
#else
    (void)argc;
    (void)argv;
    status = starpu_init(&conf);
#endif
    if (status == -ENODEV) throw Error("mcl::rt: StarPU found no worker (check STARPU_NCPU and STARPU_NOPENCL)");
    if (status != 0) throw Error(detail::text("mcl::rt: StarPU failed to start (", status, ")"));
    current_ = this;
    if (!trace_file_.empty()) starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    start_us_ = detail::now_us();
    discover_workers();
    try {
        parse_leaf_overrides();
    } catch (...) {
        current_ = nullptr;
        starpu_shutdown();
        throw;
    }
}

inline Runtime::~Runtime() {
    wait_all();
    if (!trace_file_.empty()) {
        try {
            write_trace();
        } catch (const std::exception& e) {
            std::cerr << "mcl::rt: " << e.what() << "\n";
        }
    }
#if MCL_RT_WITH_MPI
    if (mpi_) {
        starpu_mpi_shutdown();
        current_ = nullptr;
        return;
    }
#endif
    starpu_shutdown();
    current_ = nullptr;
}

inline void Runtime::discover_workers() {
    unsigned count = starpu_worker_get_count();
    std::string cpu_vendor = detail::cpu_info("vendor_id"), cpu_name = detail::cpu_info("model name");
    for (unsigned id = 0; id < count; ++id) {
        WorkerInfo w;
        w.id = static_cast<int>(id);
        char name[128];
        starpu_worker_get_name(static_cast<int>(id), name, sizeof name);
        w.name = name;
        w.memory_node = starpu_worker_get_memory_node(id);
        w.devid = starpu_worker_get_devid(static_cast<int>(id));
        if (starpu_worker_get_type(static_cast<int>(id)) == STARPU_OPENCL_WORKER) {
            w.kind = WorkerKind::opencl;
            cl_device_id device;
            starpu_opencl_get_device(w.devid, &device);
            cl::Device d(device, true);
            w.vendor = d.getInfo<CL_DEVICE_VENDOR>();
            w.device_name = d.getInfo<CL_DEVICE_NAME>();
            cl_device_type type = d.getInfo<CL_DEVICE_TYPE>();
            w.device_type = (type & CL_DEVICE_TYPE_GPU)           ? "gpu"
                            : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                                  : "cpu";
        } else {
            w.kind = WorkerKind::cpu;
            w.vendor = cpu_vendor;
            w.device_name = cpu_name;
            w.device_type = "cpu";
        }
        workers_.push_back(std::move(w));
    }
    opencl_devices_.resize(workers_.size());
}

inline void Runtime::parse_leaf_overrides() {
    const char* text = std::getenv("MCL_RT_LEAF");
    if (!text) return;
    std::set<std::string> leaves;
    for (const auto& [codelet, kernel] : Kernel::registry())
        for (const LeafMatch& m : kernel->info().leaves) leaves.insert(m.leaf);
    std::stringstream items(text);
    std::string item;
    while (std::getline(items, item, ',')) {
        size_t colon = item.rfind(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == item.size())
            throw Error("MCL_RT_LEAF: '" + item + "' is not DEVICE:LEAF (e.g. opencl0:hopper)");
        std::string leaf = item.substr(colon + 1);
        if (!leaves.empty() && !leaves.count(leaf)) {
            std::string known;
            for (const std::string& l : leaves) known += (known.empty() ? "" : ", ") + l;
            throw Error("MCL_RT_LEAF: no kernel has a version for leaf '" + leaf + "' (known: " + known + ")");
        }
        leaf_overrides_.emplace_back(item.substr(0, colon), leaf);
    }
}

inline int Runtime::first_worker(WorkerKind kind) const {
    for (const WorkerInfo& w : workers_)
        if (w.kind == kind) return w.id;
    return -1;
}

inline uint32_t Runtime::affinity_where(const Kernel& kernel, const Affinity& affinity) {
    // A smooth weighted round robin per kernel and weights: deterministic,
    // and the split of any prefix of the calls is as close to the weights as
    // whole calls allow.
    bool has_cpu = first_worker(WorkerKind::cpu) >= 0, has_gpu = first_worker(WorkerKind::opencl) >= 0;
    int wc = has_cpu ? std::max(affinity.cpu, 0) : 0, wg = has_gpu ? std::max(affinity.gpu, 0) : 0;
    if (wc + wg == 0) return STARPU_CPU | STARPU_OPENCL;  // nothing the hint allows exists: ignore it
    std::string key = std::string(kernel.info().name) + "@" + std::to_string(wc) + ":" + std::to_string(wg);
    std::lock_guard<std::mutex> lock(mutex_);
    long& done_cpu = affinity_counters_[key + "c"];
    long& done_gpu = affinity_counters_[key + "g"];
    // Choose the kind furthest behind its share.
    double behind_cpu = wc ? (done_cpu + 1.0) / wc : 1e300, behind_gpu = wg ? (done_gpu + 1.0) / wg : 1e300;
    if (behind_cpu <= behind_gpu) {
        ++done_cpu;
        return STARPU_CPU;
    }
    ++done_gpu;
    return STARPU_OPENCL;
}

inline void Runtime::submit_handles(Kernel& kernel, const void* args, size_t args_size, double flops,
                                    const SubmitOptions& options,
                                    const std::vector<starpu_data_handle_t>& handles) {
    const std::vector<Access>& modes = kernel.info().modes;
    if (handles.size() != modes.size())
        throw Error(std::string(kernel.info().name) + ": " + std::to_string(handles.size()) + " arrays for " +
                    std::to_string(modes.size()) + " array parameters");
    // A kernel's array parameters never alias (its versions rely on it).
    for (size_t i = 0; i < handles.size(); ++i)
        for (size_t j = i + 1; j < handles.size(); ++j)
            if (handles[i] == handles[j] && (modes[i] != Access::read || modes[j] != Access::read))
                throw Error(std::string(kernel.info().name) + ": one array is passed as its array arguments " +
                            std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                            ", and the kernel writes it: its array parameters must not alias (pass a separate array)");
    std::vector<starpu_data_descr> descrs(handles.size());
    for (size_t i = 0; i < handles.size(); ++i) {
        descrs[i].handle = handles[i];
        descrs[i].mode = modes[i] == Access::read ? STARPU_R : modes[i] == Access::write ? STARPU_W : STARPU_RW;
    }
    unsigned long long where = STARPU_CPU | STARPU_OPENCL;
    if (options.affinity) where = affinity_where(kernel, *options.affinity);
    int worker = options.worker;
    if (worker >= static_cast<int>(workers_.size()))
        throw Error(std::string(kernel.info().name) + ": no worker " + std::to_string(worker));
    // A binding to a worker that failed this kernel gives way to one that
    // works, as a failure does for the scheduler.
    if (worker >= 0 && kernel.failed_[static_cast<size_t>(worker)]) worker = -1;
    // StarPU-MPI reports a call nothing can run only in its log: refuse it here.
    bool runnable = false;
    for (const WorkerInfo& w : workers_)
        runnable = runnable || ((worker < 0 || w.id == worker) &&
                                (where & (w.kind == WorkerKind::cpu ? STARPU_CPU : STARPU_OPENCL)) &&
                                kernel.version_for(w));
    if (!runnable)
        throw Error(std::string(kernel.info().name) + ": no worker can run this call (no version for the "
                    "workers' devices, or the affinity or binding excludes them)");
    int status;
#if MCL_RT_WITH_MPI
    if (mpi_) {
        if (worker >= 0)
            status = starpu_mpi_task_insert(MPI_COMM_WORLD, kernel.codelet(), STARPU_DATA_MODE_ARRAY, descrs.data(),
                                            static_cast<int>(descrs.size()), STARPU_VALUE, args, args_size,
                                            STARPU_FLOPS, flops, STARPU_PRIORITY, options.priority,
                                            STARPU_EXECUTE_WHERE, where, STARPU_EXECUTE_ON_WORKER, worker,
                                            STARPU_CALLBACK_WITH_ARG_NFREE, &Runtime::task_done, this, 0);
        else
            status = starpu_mpi_task_insert(MPI_COMM_WORLD, kernel.codelet(), STARPU_DATA_MODE_ARRAY, descrs.data(),
                                            static_cast<int>(descrs.size()), STARPU_VALUE, args, args_size,
                                            STARPU_FLOPS, flops, STARPU_PRIORITY, options.priority,
                                            STARPU_EXECUTE_WHERE, where, STARPU_CALLBACK_WITH_ARG_NFREE,
                                            &Runtime::task_done, this, 0);
    } else
#endif
    if (worker >= 0)
        status = starpu_task_insert(kernel.codelet(), STARPU_DATA_MODE_ARRAY, descrs.data(),
                                    static_cast<int>(descrs.size()), STARPU_VALUE, args, args_size, STARPU_FLOPS,
                                    flops, STARPU_PRIORITY, options.priority, STARPU_EXECUTE_WHERE, where,
                                    STARPU_EXECUTE_ON_WORKER, worker, STARPU_CALLBACK_WITH_ARG_NFREE,
                                    &Runtime::task_done, this, 0);
    else
        status = starpu_task_insert(kernel.codelet(), STARPU_DATA_MODE_ARRAY, descrs.data(),
                                    static_cast<int>(descrs.size()), STARPU_VALUE, args, args_size, STARPU_FLOPS,
                                    flops, STARPU_PRIORITY, options.priority, STARPU_EXECUTE_WHERE, where,
                                    STARPU_CALLBACK_WITH_ARG_NFREE, &Runtime::task_done, this, 0);
    if (status == -ENODEV)
        throw Error(std::string(kernel.info().name) + ": no worker can run this call (no version for the "
                    "workers' devices, or the affinity or binding excludes them)");
    if (status != 0) throw Error(std::string(kernel.info().name) + ": submitting failed (" + std::to_string(status) + ")");
}

namespace detail {

inline void copy_on_cpu(void* buffers[], void*) {
    std::memcpy(reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[0])),
                reinterpret_cast<const void*>(STARPU_VECTOR_GET_PTR(buffers[1])), vector_buffer_bytes(buffers[0]));
}

inline void copy_on_opencl(void* buffers[], void*) {
    cl_command_queue queue;
    starpu_opencl_get_current_queue(&queue);
    cl_int status = clEnqueueCopyBuffer(queue, reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[1])),
                                        reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[0])), 0, 0,
                                        vector_buffer_bytes(buffers[0]), 0, nullptr, nullptr);
    if (status != CL_SUCCESS) STARPU_OPENCL_REPORT_ERROR(status);
    clFinish(queue);
}

inline starpu_codelet* copy_codelet() {
    static starpu_codelet codelet = [] {
        starpu_codelet c;
        starpu_codelet_init(&c);
        c.cpu_funcs[0] = copy_on_cpu;
        c.opencl_funcs[0] = copy_on_opencl;
        c.nbuffers = 2;
        c.modes[0] = STARPU_W;
        c.modes[1] = STARPU_R;
        c.name = "mcl_copy";
        return c;
    }();
    return &codelet;
}

}  // namespace detail

inline void Runtime::submit_copy(starpu_data_handle_t destination, starpu_data_handle_t source) {
    int status;
#if MCL_RT_WITH_MPI
    if (mpi_)
        status = starpu_mpi_task_insert(MPI_COMM_WORLD, detail::copy_codelet(), STARPU_W, destination, STARPU_R, source, 0);
    else
#endif
        status = starpu_task_insert(detail::copy_codelet(), STARPU_W, destination, STARPU_R, source, 0);
    if (status != 0) throw Error(detail::text("mcl::rt: submitting a copy failed (", status, ")"));
}

inline void Runtime::wait_all() {
#if MCL_RT_WITH_MPI
    if (mpi_) {
        starpu_mpi_wait_for_all(MPI_COMM_WORLD);
        return;
    }
#endif
    starpu_task_wait_for_all();
}

inline void Runtime::note_registered(starpu_data_handle_t h) {
    std::lock_guard<std::mutex> lock(mutex_);
    valid_on_[h] = {STARPU_MAIN_RAM};
}

inline void Runtime::claim_host_memory(const void* begin, size_t bytes) {
    auto start = reinterpret_cast<std::uintptr_t>(begin);
    std::uintptr_t end = start + bytes;
    std::lock_guard<std::mutex> lock(mutex_);
    auto next = host_memory_.lower_bound(start);
    bool overlaps_next = next != host_memory_.end() && next->first < end;
    bool overlaps_previous = next != host_memory_.begin() && std::prev(next)->second > start;
    if (overlaps_next || overlaps_previous)
        throw Error(detail::text("mcl::rt: an array of ", bytes,
                                 " bytes shares memory with an array registered before; StarPU keeps each "
                                 "registered array coherent on its own, so calls on the two would overwrite "
                                 "each other's results: register the memory once and pass that array to "
                                 "every call"));
    host_memory_.emplace(start, end);
}

inline void Runtime::release_host_memory(const void* begin) {
    std::lock_guard<std::mutex> lock(mutex_);
    host_memory_.erase(reinterpret_cast<std::uintptr_t>(begin));
}

inline opencl::Device& Runtime::opencl_device(const WorkerInfo& worker) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<opencl::Device>& d = opencl_devices_.at(static_cast<size_t>(worker.id));
    if (!d) {
        cl_device_id device;
        cl_context context;
        cl_command_queue queue;
        starpu_opencl_get_device(worker.devid, &device);
        starpu_opencl_get_context(worker.devid, &context);
        starpu_opencl_get_queue(worker.devid, &queue);
        d = std::make_unique<opencl::Device>(cl::Device(device, true), cl::Context(context, true),
                                             cl::CommandQueue(queue, true));
    }
    return *d;
}

inline void Runtime::record(starpu_task* task, const Execution& execution) {
    std::lock_guard<std::mutex> lock(mutex_);
    int worker = starpu_worker_get_id();
    per_worker_[workers_.at(static_cast<size_t>(worker)).name]++;
    if (execution.version)
        per_version_[std::string(execution.version->module) + " (" + execution.version->leaf + ", " +
                     execution.version->backend + ")"]++;
    if (!execution.fallback.empty()) ++fallbacks_;
    executions_[task] = execution;
}

inline void Runtime::task_done(void* arg) {
    Runtime* runtime = static_cast<Runtime*>(arg);
    if (starpu_task* task = starpu_task_get_current()) runtime->finish_task(task);
}

inline void Runtime::finish_task(starpu_task* task) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = executions_.find(task);
    Execution execution;
    if (found != executions_.end()) {
        execution = found->second;
        executions_.erase(found);
    }
    if (trace_file_.empty()) return;
    TraceEvent e;
    e.kernel = task->cl && task->cl->name ? task->cl->name : "?";
    if (execution.version) {
        e.version = execution.version->module;
        e.leaf = execution.version->leaf;
    }
    e.note = execution.fallback;
    starpu_profiling_task_info* info = task->profiling_info;
    if (info) {
        e.worker = info->workerid;
        e.start_us = starpu_timing_timespec_to_us(&info->start_time) - start_us_;
        e.end_us = starpu_timing_timespec_to_us(&info->end_time) - start_us_;
    }
    // Bytes moved: the read arrays that had no valid copy on the worker's
    // memory node (StarPU's MSI protocol, followed here).
    unsigned node = e.worker >= 0 && static_cast<size_t>(e.worker) < workers_.size()
                        ? workers_[static_cast<size_t>(e.worker)].memory_node
                        : STARPU_MAIN_RAM;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        starpu_data_access_mode mode = STARPU_TASK_GET_MODE(task, i);
        std::set<unsigned>& valid = valid_on_[h];
        if ((mode & STARPU_R) && !valid.count(node)) e.bytes_in += detail::vector_bytes(h);
        if (mode & STARPU_W)
            valid = {node};
        else
            valid.insert(node);
    }
    events_.push_back(std::move(e));
}

inline void Runtime::write_trace() const {
    std::string path = trace_file_;
    if (ranks_ > 1) path += detail::text(".", rank_);
    std::ofstream out(path);
    if (!out) throw Error("cannot write the trace '" + path + "'");
    out << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
    bool first = true;
    auto sep = [&] {
        if (!first) out << ",\n";
        first = false;
    };
    for (const WorkerInfo& w : workers_) {
        sep();
        out << "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " << rank_ << ", \"tid\": " << w.id
            << ", \"args\": {\"name\": \"" << detail::json_escape(w.name + " [" + w.device_type + "]") << "\"}}";
    }
    sep();
    out << "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " << rank_ << ", \"args\": {\"name\": \"rank "
        << rank_ << "\"}}";
    for (const TraceEvent& e : events_) {
        sep();
        out << "{\"ph\": \"X\", \"cat\": \"" << (e.note.empty() ? "task" : "task,fallback") << "\", \"name\": \""
            << detail::json_escape(e.kernel) << "\", \"pid\": " << rank_ << ", \"tid\": " << e.worker
            << ", \"ts\": " << e.start_us << ", \"dur\": " << std::max(0.0, e.end_us - e.start_us)
            << ", \"args\": {\"version\": \"" << detail::json_escape(e.version) << "\", \"leaf\": \""
            << detail::json_escape(e.leaf) << "\", \"bytes_moved\": " << e.bytes_in;
        if (!e.note.empty()) out << ", \"fallback\": \"" << detail::json_escape(e.note) << "\"";
        out << "}}";
    }
    out << "\n]}\n";
    // A full disk shows only when the buffered text is flushed.
    out.close();
    if (!out) throw Error("cannot write the trace '" + path + "': the write failed");
}

inline std::map<std::string, long> Runtime::tasks_per_worker() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return per_worker_;
}

inline std::map<std::string, long> Runtime::tasks_per_version() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return per_version_;
}

inline long Runtime::fallbacks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return fallbacks_;
}

inline void Runtime::print_summary(std::ostream& out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string prefix = ranks_ > 1 ? detail::text("rank ", rank_, ": ") : std::string();
    out << prefix << "tasks per device:\n";
    for (const WorkerInfo& w : workers_) {
        auto it = per_worker_.find(w.name);
        out << prefix << "  " << w.name << " [" << w.device_type << ", " << w.device_name
            << "]: " << (it == per_worker_.end() ? 0 : it->second) << "\n";
    }
    out << prefix << "tasks per version:\n";
    for (const auto& [version, count] : per_version_) out << prefix << "  " << version << ": " << count << "\n";
    if (fallbacks_) out << prefix << "tasks that ran again after a device failed: " << fallbacks_ << "\n";
}

// --- Kernel ----------------------------------------------------------------------

inline const Version* Kernel::version_for(const WorkerInfo& worker) {
    std::call_once(resolved_, [this] {
        Runtime& rt = Runtime::current();
        version_of_worker_.assign(rt.workers().size(), -1);
        for (const WorkerInfo& w : rt.workers()) {
            // The leaf: an override, else the deepest matching leaf.
            std::string leaf;
            for (const auto& [device, chosen] : rt.leaf_overrides_) {
                bool applies = device == kind_name(w.kind) ||
                               (w.kind == WorkerKind::opencl && device == detail::text("opencl", w.devid)) ||
                               w.device_name.find(device) != std::string::npos;
                if (applies) leaf = chosen;
            }
            if (leaf.empty()) {
                int best_depth = -1;
                for (const LeafMatch& m : info_.leaves) {
                    if (w.device_type != m.device_type || m.depth <= best_depth) continue;
                    if (!std::regex_search(w.vendor, std::regex(m.vendor)) ||
                        !std::regex_search(w.device_name, std::regex(m.name)))
                        continue;
                    best_depth = m.depth;
                    leaf = m.leaf;
                }
            }
            int chosen = -1;
            // The leaf's own versions come first; later ones of the same leaf
            // are generic versions generated for it.
            for (size_t i = 0; i < info_.versions.size() && chosen < 0; ++i)
                if (info_.versions[i].kind == w.kind && leaf == info_.versions[i].leaf) chosen = static_cast<int>(i);
            if (chosen < 0) {
                auto generic = info_.generic.find(w.device_type + "/" + kind_name(w.kind));
                if (generic != info_.generic.end()) {
                    chosen = static_cast<int>(generic->second);
                    const Version& v = info_.versions[generic->second];
                    std::string key = w.name + "|" + v.module;
                    std::lock_guard<std::mutex> lock(rt.mutex_);
                    if (!rt.options_.quiet && rt.unmatched_reported_.insert(key).second) {
                        std::string level = info_.generic_level.count(w.device_type)
                                                ? info_.generic_level.at(w.device_type)
                                                : w.device_type;
                        std::cerr << "mcl::rt: " << w.name << " (" << w.device_type << " '" << w.device_name
                                  << "', vendor '" << w.vendor << "') "
                                  << (leaf.empty() ? "matches no hardware description"
                                                   : "is '" + leaf + "', which has no version of " + info_.name)
                                  << "; it runs " << v.module << ", the version for the " << level
                                  << " level (generated for " << v.leaf << "). "
                                  << (leaf.empty() ? "Add a description below '" + level +
                                                         "' whose targets/<leaf>.json has a \"match\" block for "
                                                         "this device to run a more specific version.\n"
                                                   : "\n");
                    }
                }
            }
            version_of_worker_[static_cast<size_t>(w.id)] = chosen;
        }
    });
    int index = version_of_worker_.at(static_cast<size_t>(worker.id));
    return index < 0 ? nullptr : &info_.versions[static_cast<size_t>(index)];
}

inline int Kernel::can_execute(unsigned workerid, struct starpu_task* task, unsigned) {
    Kernel& k = of(task);
    Runtime& rt = Runtime::current();
    if (!k.version_for(rt.worker(static_cast<int>(workerid)))) return 0;
    // A call bound to this worker before it failed still runs here (and
    // falls back); nothing else would take it.
    if (!k.failed_[workerid] || (task->execute_on_a_specific_worker && task->workerid == workerid)) return 1;
    // A worker that failed this kernel runs it only when no other can.
    for (const WorkerInfo& w : rt.workers())
        if (!k.failed_[static_cast<size_t>(w.id)] && k.version_for(w) &&
            (task->where & (w.kind == WorkerKind::cpu ? STARPU_CPU : STARPU_OPENCL)))
            return 0;
    return 1;
}

inline void Kernel::run_cpu(void* buffers[], void* cl_arg) {
    of(starpu_task_get_current()).run(buffers, cl_arg, WorkerKind::cpu);
}

inline void Kernel::run_opencl(void* buffers[], void* cl_arg) {
    of(starpu_task_get_current()).run(buffers, cl_arg, WorkerKind::opencl);
}

inline void Kernel::run(void* buffers[], void* cl_arg, WorkerKind kind) {
    Runtime& rt = Runtime::current();
    starpu_task* task = starpu_task_get_current();
    const WorkerInfo& worker = rt.worker(starpu_worker_get_id());
    // The scalar arguments, packed by STARPU_VALUE.
    std::vector<char> args(info_.args_size);
    starpu_codelet_unpack_args(cl_arg, args.data(), 0);

    Runtime::Execution execution;
    const Version* version = version_for(worker);
    try {
        if (!version) throw Error("no version for " + worker.name);
        if (rt.fail_kind_ == kind_name(kind))
            throw Error("injected failure (MCL_RT_FAIL=" + rt.fail_kind_ + ")");
        size_t n = info_.modes.size();
        if (kind == WorkerKind::cpu) {
            std::vector<void*> pointers(n);
            for (size_t i = 0; i < n; ++i) pointers[i] = reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[i]));
#ifdef _OPENMP
            omp_set_num_threads(1);  // one worker, one core: StarPU runs a task on every CPU worker
#endif
            version->run_cpu(pointers.data(), args.data());
        } else {
            std::vector<cl_mem> memory(n);
            std::vector<size_t> counts(n);
            for (size_t i = 0; i < n; ++i) {
                if (STARPU_VECTOR_GET_OFFSET(buffers[i]) != 0)
                    throw Error("an array at an offset in its OpenCL buffer (the runtime registers none)");
                memory[i] = reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[i]));
                counts[i] = STARPU_VECTOR_GET_NX(buffers[i]);
            }
            version->run_opencl(rt.opencl_device(worker), memory.data(), counts.data(), args.data());
        }
        execution.version = version;
    } catch (const std::exception& e) {
        failed_[static_cast<size_t>(worker.id)] = true;
        execution.version = fall_back(buffers, args.data(), worker, version, e.what(), execution.fallback);
    }
    rt.record(task, execution);
}

// Runs the call again with a version of another kind, on host copies of the
// buffers: a failed build or launch wrote nothing, so the inputs are intact.
inline const Version* Kernel::fall_back(void* buffers[], const void* args, const WorkerInfo& worker,
                                        const Version* failed, const std::string& why, std::string& note) {
    WorkerKind other = worker.kind == WorkerKind::cpu ? WorkerKind::opencl : WorkerKind::cpu;
    Runtime& rt = Runtime::current();
    const Version* replacement = nullptr;
    // The version a worker of the other kind runs, else any of that kind.
    int w = rt.first_worker(other);
    if (w >= 0) replacement = version_for(rt.worker(w));
    for (const Version& v : info_.versions)
        if (!replacement && v.kind == other) replacement = &v;
    std::string what = std::string(info_.name) + " on " + worker.name + " (" +
                       (failed ? std::string(failed->module) + ", " + failed->leaf : std::string("no version")) +
                       ") failed: " + why;
    if (!replacement || !replacement->run_on_host)
        throw Error(what + "; no version of another device kind can run it");
    size_t n = info_.modes.size();
    std::vector<std::vector<char>> host(n);
    std::vector<void*> pointers(n);
    cl_command_queue queue = nullptr;
    if (worker.kind == WorkerKind::opencl) starpu_opencl_get_queue(worker.devid, &queue);
    for (size_t i = 0; i < n; ++i) {
        size_t bytes = detail::vector_buffer_bytes(buffers[i]);
        if (worker.kind == WorkerKind::cpu) {
            pointers[i] = reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[i]));
            continue;
        }
        host[i].resize(std::max<size_t>(bytes, 1));
        pointers[i] = host[i].data();
        if (info_.modes[i] != Access::write && bytes)
            clEnqueueReadBuffer(queue, reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[i])), CL_TRUE,
                                0, bytes, host[i].data(), 0, nullptr, nullptr);
    }
    replacement->run_on_host(pointers.data(), args);
    if (worker.kind == WorkerKind::opencl) {
        for (size_t i = 0; i < n; ++i) {
            size_t bytes = detail::vector_buffer_bytes(buffers[i]);
            if (info_.modes[i] != Access::read && bytes)
                clEnqueueWriteBuffer(queue, reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[i])),
                                     CL_TRUE, 0, bytes, host[i].data(), 0, nullptr, nullptr);
        }
        clFinish(queue);
    }
    note = what + "; ran " + replacement->module + " (" + replacement->leaf + ", " + replacement->backend +
           ") instead";
    std::lock_guard<std::mutex> lock(rt.mutex_);
    if (!rt.options_.quiet && rt.unmatched_reported_.insert("failed|" + worker.name + "|" + info_.name).second)
        std::cerr << "mcl::rt: " << note << "; " << worker.name << " runs no more " << info_.name
                  << " while another worker can\n";
    return replacement;
}

// --- data ------------------------------------------------------------------------

template <typename T>
Vector<T>::Vector(Runtime& runtime, T* data, size_t count, int owner)
    : runtime_(runtime), data_(data), count_(count), owner_(owner) {
    if (owner < 0 || owner >= runtime.ranks())
        throw Error(detail::text("mcl::rt: owner rank ", owner, " of ", runtime.ranks()));
    bool local = !runtime.distributed() || owner == runtime.rank();
    if (local && count) {
        runtime.claim_host_memory(data, count * sizeof(T));
        claimed_ = true;
    }
    T* storage = count ? data : &placeholder_;
    starpu_vector_data_register(&handle_, local ? STARPU_MAIN_RAM : -1,
                                local ? reinterpret_cast<uintptr_t>(storage) : 0, std::max<size_t>(count, 1),
                                sizeof(T));
#if MCL_RT_WITH_MPI
    if (runtime.mpi_enabled()) starpu_mpi_data_register(handle_, runtime.next_tag(), owner);
#endif
    if (local) runtime.note_registered(handle_);
}

template <typename T>
Vector<T>::~Vector() {
    if (handle_) starpu_data_unregister(handle_);
    if (claimed_) runtime_.release_host_memory(data_);
}

template <typename T>
void Vector<T>::start_gather() {
    gather_started_ = true;
#if MCL_RT_WITH_MPI
    if (runtime_.distributed()) {
        starpu_mpi_get_data_on_node_detached(MPI_COMM_WORLD, handle_, 0, nullptr, nullptr);
        return;
    }
#endif
    // Acquiring orders the fetch after the tasks that write the array; the
    // callback lets go at once, leaving a valid copy in host memory.
    starpu_data_acquire_cb(
        handle_, STARPU_R, [](void* handle) { starpu_data_release(static_cast<starpu_data_handle_t>(handle)); },
        handle_);
}

template <typename T>
void Vector<T>::gather() {
    bool started = gather_started_;
    gather_started_ = false;
#if MCL_RT_WITH_MPI
    if (runtime_.distributed()) {
        if (!started) starpu_mpi_get_data_on_node(MPI_COMM_WORLD, handle_, 0);
        if (runtime_.rank() != 0) return;
        starpu_data_acquire(handle_, STARPU_R);
        T* local = static_cast<T*>(starpu_data_get_local_ptr(handle_));
        if (count_ && local != data_) std::memcpy(data_, local, count_ * sizeof(T));
        starpu_data_release(handle_);
        return;
    }
#endif
    (void)started;
    starpu_data_acquire(handle_, STARPU_R);
    starpu_data_release(handle_);
}

// Copies `source` into `destination` as a task (the same number of elements).
template <typename T>
void copy(Runtime& runtime, Vector<T>& destination, const Vector<T>& source) {
    if (destination.size() != source.size())
        throw Error(detail::text("mcl::rt::copy: ", source.size(), " elements into ", destination.size()));
    runtime.submit_copy(destination.handle(), source.handle());
}

template <typename T>
TiledMatrix<T>::TiledMatrix(Runtime& runtime, T* data, size_t rows, size_t cols, size_t tile_rows,
                            size_t tile_cols)
    : data_(data), rows_(rows), cols_(cols), tile_rows_(tile_rows), tile_cols_(tile_cols) {
    if (!tile_rows || !tile_cols) throw Error("mcl::rt::TiledMatrix: tiles of zero rows or columns");
    row_tiles_ = (rows + tile_rows - 1) / tile_rows;
    col_tiles_ = (cols + tile_cols - 1) / tile_cols;
    for (size_t i = 0; i < row_tiles_; ++i)
        for (size_t j = 0; j < col_tiles_; ++j) {
            size_t h = tile_height(i), w = tile_width(j);
            std::vector<T> tile(h * w);
            for (size_t r = 0; r < h; ++r)
                std::copy_n(data + (i * tile_rows + r) * cols + j * tile_cols, w, tile.data() + r * w);
            storage_.push_back(std::move(tile));
            size_t ranks = static_cast<size_t>(runtime.ranks()), pr = 1;
            for (size_t d = 1; d * d <= ranks; ++d)
                if (ranks % d == 0) pr = d;
            size_t pc = ranks / pr;
            int owner = static_cast<int>((i % pr) * pc + (j % pc));
            tiles_.push_back(std::make_unique<Matrix<T>>(runtime, storage_.back().data(), h, w, owner));
        }
}

template <typename T>
void TiledMatrix<T>::gather() {
    for (auto& t : tiles_) t->start_gather();
    for (size_t i = 0; i < row_tiles_; ++i)
        for (size_t j = 0; j < col_tiles_; ++j) {
            Matrix<T>& t = tile(i, j);
            t.gather();
            if (Runtime::current().rank() != 0) continue;
            size_t h = tile_height(i), w = tile_width(j);
            for (size_t r = 0; r < h; ++r)
                std::copy_n(t.data() + r * w, w, data_ + (i * tile_rows_ + r) * cols_ + j * tile_cols_);
        }
}

}  // namespace mcl::rt

#endif  // MCL_STARPU_H
