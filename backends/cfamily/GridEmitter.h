// The part of code generation that OpenCL and CUDA share: kernels that run
// as launches over a grid of work-groups (GridMapping.h plans them), and
// host code that computes each launch's sizes.
//
// Needs: what CFamilyEmitter needs, and a "levels" section and "level"
//   entries in the backend's configuration (GridMapping.h); memory spaces
//   may name a "barrier" spelling (e.g. "barrier(CLK_LOCAL_MEM_FENCE)").
// Does: per kernel and launch, prints the device code of the launch: the
//   prologue, arrays of group-scoped spaces at kernel scope (constant size)
//   or as dynamic storage the backend passes in, and each foreach as its
//   index (the slot's hardware id) and, where its slot is larger, a guard;
//   where GroupPhases says so, a barrier on every group- and device-scoped
//   space before or after an item loop.
//   Arrays of device memory are scratch storage the host allocates
//   (GridMapping.h): inside a launch each group instance points at its own
//   part. Arrays of item-scoped spaces, and of device memory inside item
//   loops or functions called from a kernel, become fixed-size private
//   arrays; such an array whose size is not constant is a located error.
//   Prints host code: the kernel's statements around its launches (the
//   prologue, host variables, loops and ifs), and per launch its host
//   declarations, the size of each slot (`mcl_groups_<k>`, `mcl_items_<k>`)
//   and the sizes per hardware dimension (`mcl_group_count[d]`,
//   `mcl_group_size[d]`). A launch's kernel takes the host variables it
//   uses as arguments. Expressions in host code use the host spellings
//   (std::min, std::pow).
// Guarantees: every foreach index equals the index the kernel at `perfect`
//   gives that unit, each unit runs its body exactly once, and a launch
//   whose grid is empty is skipped by the host code.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>

#include "backends/cfamily/AsyncCopies.h"
#include "backends/cfamily/CFamilyEmitter.h"
#include "backends/cfamily/GridMapping.h"

namespace mcl::backends {

class GridEmitter : public CFamilyEmitter {
public:
    // Collects and plans the input, then gives the asynchronous copies of
    // every launch of `kernel` in one plan; none after an error or for a
    // backend that does not copy asynchronously.
    AsyncCopyPlan planned_async_copies(const mcpl::Function& kernel);

protected:
    using CFamilyEmitter::CFamilyEmitter;

    // Reads the levels and plans every kernel; false after an error.
    bool plan_kernels();
    const GridPlan& plan_of(const mcpl::Function& kernel) const { return plans_.at(&kernel); }

    // The element count of an array's shape in host code.
    std::string host_elements(const mcpl::TypeExpr& shape);

    // The variables the device code of `launch` uses (used_).
    void note_launch_uses(const GridPlan& plan, const GridLaunch& launch);
    // Device code of `launch`: the prologue and its root foreach, statement
    // by statement (the backend opens and closes the function).
    void emit_launch_body(const GridPlan& plan, const GridLaunch& launch);
    // Host code, four spaces deep, before `launch` (in a block of its own):
    // its host declarations, the slot sizes and, per hardware dimension,
    // mcl_group_count_<n>[3] and mcl_group_size_<n>[3].
    std::string host_launch_sizes(const GridLaunch& launch, size_t launch_index);
    // The host variables (GridPlan::host_variables) that the device code of
    // `launch` uses, which its kernel takes as arguments after the kernel's
    // parameters and slot sizes (sets used_ as note_launch_uses does).
    std::vector<const mcpl::Decl*> host_arguments(const GridPlan& plan, const GridLaunch& launch);
    static std::string slot_size_name(GridLevel level, size_t slot);
    // The scratch arrays a launch's kernel takes, in order: the kernel's
    // top-level ones declared before it (the parameter is named as the
    // array; the host allocates them where they are declared) and the
    // launch's own (the parameter holds every group instance's part).
    struct ScratchParameter {
        const mcpl::Decl* decl;
        std::string name;       // of the kernel parameter
        std::string host_name;  // of the host's DeviceArray
        bool kernel_level;      // declared at the kernel's top level, where the host may swap it
    };
    std::vector<ScratchParameter> scratch_parameters(const GridPlan& plan, const GridLaunch& launch);
    std::string scratch_storage_name(const GridLaunch& launch, size_t k);
    // Host code, eight spaces deep, that allocates scratch array `d` as
    // `name` (`instances` times its size, a product ending in " * ", or ""),
    // and the scratch arrays of `launch`, whose sizes host_launch_sizes
    // computed.
    std::string scratch_allocation(const mcpl::Decl& d, const std::string& name, const std::string& instances,
                                   const std::string& runtime);
    std::string scratch_allocations(const GridLaunch& launch, const std::string& runtime);
    // The host condition that launch `launch_index` has a non-empty grid.
    static std::string grid_is_nonempty(size_t launch_index);
    // Launches whose group arrays live in one block of dynamic shared memory
    // (CUDA): the host variable of group array k's byte offset in it.
    static std::string shared_offset_name(size_t k);
    // Host code, twelve spaces deep, that lays out launch n's group arrays
    // in dynamic shared memory: `size_t mcl_shared_bytes_<n>` (the total)
    // and each array's offset, rounded up to `alignment` bytes.
    std::string shared_memory_layout(const GridLaunch& launch, size_t n, int alignment);
    // The host expressions a launch's kernel takes, in order: the kernel's
    // parameters (`.data()` of device arrays and written scalars), the slot
    // sizes (int), the host variables it uses, its scratch arrays and, per
    // group array, `offset_cast` applied to its offset.
    std::vector<std::string> launch_arguments(const mcpl::Function& k, const GridLaunch& launch,
                                              const std::string& offset_cast);
    // What the host passes a launch for a device array named `array`
    // (`a.data()`, `a.buffer()`).
    virtual std::string device_handle(const std::string& array) const = 0;
    // The same for array `d`, a parameter or top-level scratch array held
    // as `array`: in host code that swaps it, the variable holding its
    // handle (`mcl_at_<name>`, declared by host_array_handle).
    std::string launch_handle(const mcpl::Decl& d, const std::string& array);
    // What the host passes a launch for scratch array `a`.
    std::string scratch_handle(const ScratchParameter& a);
    // The line, `pad` deep, that declares the handle variable of such an
    // array that a swap redirects; "" for the others.
    std::string host_array_handle(const mcpl::Decl& d, const std::string& array, const std::string& pad);
    bool kernels_redirect_parameters() const override { return false; }
    // An expression as host C++ (std::min, std::pow).
    std::string host_expr(const mcpl::Expr& e);

    std::string min_max(const std::string& which, const mcpl::Type& type, const std::string& a,
                        const std::string& b) override;
    std::string power(const mcpl::Type& type, const std::string& a, const std::string& b) override;
    // Device spellings of min/max (integer and floating).
    virtual std::string device_min_max(const std::string& which, const mcpl::Type& type, const std::string& a,
                                       const std::string& b) = 0;
    // pow of floating operands (integer powers call mcl_ipow).
    virtual std::string device_power(const mcpl::Type& type, const std::string& a, const std::string& b) = 0;
    // Whether a kernel or device function computes a ^ b on integers, and
    // the device function that does, `qualifier` before its definition.
    bool uses_integer_power() const;
    static std::string integer_power_function(const std::string& qualifier);

    // --- host glue that OpenCL and CUDA share; `runtime` is the runtime
    // header's namespace (mcl::opencl, mcl::cuda), which has Device and
    // DeviceArray<T>.
    // "M::k (<backend> backend)", the prefix of the glue's errors.
    std::string where(const mcpl::Function& k) const;
    // `void k(...)` of the resident API: DeviceArray<T>& for arrays and
    // written scalars (const when only read), other scalars by value.
    // `on_device`: the overload whose first parameter is the device to run on.
    std::string resident_signature(const mcpl::Function& k, const std::string& runtime, bool on_device);
    // `<module>.h`: `build` (a comment line) and the runtime header's
    // include, the records, device() (`device_note` documents it), each
    // kernel's copying function and the resident API.
    std::string glue_header(const std::string& build, const std::string& runtime_header, const std::string& runtime,
                            const std::string& device_note);
    // The glue's namespace <module>: `prelude`, `device()` returning
    // `device_definition`, namespace resident with `resident(k)` of each
    // kernel, then each kernel's copying function.
    std::string glue_namespace(const std::string& prelude, const std::string& device_definition,
                               const std::string& runtime,
                               const std::function<std::string(const mcpl::Function&)>& resident);
    // The copying function of `k`: allocates device arrays for its arrays
    // and written scalars, uploads what it reads and what it may not
    // overwrite entirely (the written scalars, and the written arrays
    // in_.write_coverage does not prove fully written), calls resident::k and
    // downloads what it writes; errors name the kernel.
    std::string copying_function(const mcpl::Function& k, const std::string& runtime);
    // The code that runs launch n, twelve spaces deep, skipping an empty grid.
    using LaunchCode = std::function<std::string(const GridLaunch&, size_t)>;
    // The resident function of `k`: `setup` (lines that open it, after the
    // device), then the kernel's statements as the host runs them (its
    // prologue, host variables, loops and ifs, the allocations of its
    // top-level scratch arrays), each launch in a block of its own with its
    // sizes and `launch_code(launch, n)`; then `finish`. `api_catch` is the
    // API's own catch clause (or "") before the one that names the kernel
    // in any other error.
    std::string resident_function(const mcpl::Function& k, const std::string& runtime, const std::string& setup,
                                  const LaunchCode& launch_code, const std::string& finish,
                                  const std::string& api_catch);
    static std::vector<std::string> split_lines(const std::string& text);

    void foreach(const mcpl::Stmt& s) override;
    // Under a guard pushed past barriers (GridLaunch::open_statements):
    // the statements between the barriers in runs under the guard.
    void statements(const mcpl::Stmt& s) override;
    void barrier(const mcpl::Stmt& s) override;
    void group_phase_barrier();
    // Asynchronous copies into group arrays (AsyncCopies.h), for a backend
    // that has them: the statement that starts `copy`, and the one that
    // waits until every copy the item started is complete.
    virtual bool copies_asynchronously() const { return false; }
    virtual std::string async_copy(const AsyncCopy&) { return ""; }
    virtual std::string async_copy_wait() const { return ""; }
    bool uses_async_copies() const;
    // Prints the waits before `s` and the copy `s` is, where the launch's
    // AsyncCopyPlan says so.
    bool lowered_statement(const mcpl::Stmt& s) override;
    void array_declaration(const mcpl::Decl& d, const std::string& qualifier) override;
    // An item's own array of constant size (array_declaration), no view of it.
    bool swaps_elements(const mcpl::Decl& d) const override;

    std::array<GridLevelConfig, 2> levels_;
private:
    std::string host_declaration(const mcpl::Decl& d);
    // Statement `s` of the kernel as the host runs it, `depth` levels deep.
    std::string host_statement(const GridPlan& plan, const mcpl::Stmt& s, const std::string& runtime,
                               const LaunchCode& launch_code, int depth);
    std::string launch_block(const GridPlan& plan, size_t n, const std::string& runtime,
                             const LaunchCode& launch_code);
    std::string resident_parameter(const mcpl::Decl& d, const std::string& runtime);

protected:
    std::map<const mcpl::Function*, GridPlan> plans_;
    std::map<const mcpl::Stmt*, AsyncCopyPlan> async_plans_;  // by launch root, where copies_asynchronously()
    const GridLaunch* launch_ = nullptr;  // the launch being printed
    std::string pushed_guard_;  // the bool of the guard pushed into the statements printed, or ""
    bool host_mode_ = false;
};

}  // namespace mcl::backends
