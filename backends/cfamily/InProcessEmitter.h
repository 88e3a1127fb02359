// The part of code generation shared by the backends whose kernels are C++
// functions that the host glue calls in its own process (cpp, and hls in C
// simulation).
//
// Needs: what CFamilyEmitter needs (a checked module translated to a leaf
//   and the backend's section of the target configuration), and from the
//   backend: its foreach and local-array mapping, the text that opens its
//   kernel file (kernels_file, via in_process_kernels), and optionally a
//   check of its own configuration keys, a linkage for kernels, a note for
//   the glue and a prologue for function bodies.
// Does: reserves the C++ keywords and the names the generated code uses
//   (std, mcl, kernels, device, and the backend's own). run() writes
//   `<module>.h` (host_header), `<module>_kernels.cpp`, `<module>.cpp`
//   (in_process_glue) and mcl_runtime.h. In the kernel file the module's
//   constants are `[[maybe_unused]] const`, the device functions are
//   declared and then defined in namespace <module>::kernels::device (and
//   called as `device::f(...)`), then the kernels follow. Parameters of
//   definitions, and variables, arrays and views the body does not use,
//   are `[[maybe_unused]]`; min/max are `std::min<T>` and
//   `std::max<T>`, pow is `std::pow` cast to the result type.
// Guarantees: nothing is returned when the configuration is invalid or any
//   error was reported while generating; the kernel file and glue agree on
//   each kernel's signature and linkage.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "backends/cfamily/CFamilyEmitter.h"

namespace mcl::backends {

class InProcessEmitter : public CFamilyEmitter {
public:
    // The four files, or nothing after an error.
    std::vector<GeneratedFile> run();

protected:
    // Reserves the C++ keywords, the names all these files use (std, mcl,
    // kernels, device) and `own_names`, those the backend's code adds.
    InProcessEmitter(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags,
                     const std::set<std::string>& own_names);

    // --- what backends supply ---------------------------------------------------
    // The text of `<module>_kernels.cpp` (normally one in_process_kernels call).
    virtual std::string kernels_file() = 0;
    // Checks the backend's own configuration keys, reporting located errors.
    virtual bool valid_config() { return true; }
    // What precedes a function's signature, e.g. `extern "C" ` (default "").
    virtual std::string linkage(Role role) const;
    // Comment lines after the glue's banner (default "").
    virtual std::string glue_note() const { return ""; }

    // `<module>_kernels.cpp`: the banner, `#include <h>` for each of
    // `headers`, the module's header, `preamble`, then in namespace
    // <module>::kernels `prelude`, the constants, the device functions and
    // the kernels.
    std::string in_process_kernels(const std::vector<std::string>& headers, const std::string& preamble,
                                   const std::string& prelude);

    std::string unused_attribute() const override { return "[[maybe_unused]] "; }
    std::string parameter(const mcpl::Decl& d, Role role, bool definition) override;
    std::string device_call(const mcpl::Expr& call, const std::vector<std::string>& args) override;
    std::string min_max(const std::string& which, const mcpl::Type& type, const std::string& a,
                        const std::string& b) override;
    std::string power(const mcpl::Type& type, const std::string& a, const std::string& b) override;

private:
    static std::set<std::string> reserved_names(const std::set<std::string>& own_names);
    void emit_function(const mcpl::Function& f, Role role);
};

}  // namespace mcl::backends
