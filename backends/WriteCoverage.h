// Pass: which array parameters a kernel provably writes in every element
// (write coverage), so that host glue that copies data to a device need not
// copy in an array the kernel only writes.
//
// Needs: a checked module before translation (foreach loops as the user
//   wrote them; `mclc gen` runs this before translate_program, which splits
//   loops into guarded index arithmetic that says less).
// Does: a written array parameter is fully written when one assignment
//   writes it with indices that are exactly the indices of distinct foreach
//   loops around the assignment, in order, each loop's count the same value
//   as the array's extent at that position (equal constants, the same scalar
//   that nothing writes, or the same operators over such); any other foreach
//   around it has a constant count of at least one. The assignment
//   must run unconditionally in the nest: on its way from the kernel's body
//   only blocks and foreach loops (no if, no for, no call), in a kernel
//   without `return`, through the parameter's first form, which no swap of
//   whole arrays names (after one, the name may refer to another's storage).
// Guarantees: conservative: a parameter reported fully written has every
//   element written by every run of the kernel; anything not recognised is
//   reported not fully written (and must be copied in). Results are by
//   kernel name and parameter position, which translation keeps.
#pragma once

#include <map>
#include <set>
#include <string>

#include "compiler/ast/Ast.h"

namespace mcl::backends {

class WriteCoverage {
public:
    // Nothing proven: every written array counts as written in part.
    WriteCoverage() = default;
    // Analyses every function of `module` (checked, not yet translated).
    static WriteCoverage of(const mcpl::Module& module);
    // The positions of `kernel`'s parameters that it writes in every element.
    static std::set<size_t> fully_written_parameters(const mcpl::Function& kernel);

    // Whether parameter `position` of the kernel named as `kernel` is fully
    // written.
    bool fully_written(const mcpl::Function& kernel, size_t position) const;

private:
    std::map<std::string, std::set<size_t>> fully_written_;  // by kernel name
};

}  // namespace mcl::backends
