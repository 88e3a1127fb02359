// Analysis shared by the cache, scarce-resource and memory-access-rule
// passes: the byte offset an access reads or writes, as a GiNaC expression
// over loop indices and the kernel's parameters, and strides per loop.
//
// Needs: a checked function and its accesses (LoopNest.h), collected with
//   the same Symbols (which then know the function's constants).
// Does: expresses the index expressions of an access, expanding constants
//   and locals that are initialised once and never written (`int j = bj *
//   nrThreadsM + tj;`), linearises them row-major over the extents of the
//   array form that was named (dimension groups flattened: `float[2][3]` is
//   laid out as `float[2,3]`; fewer indices than extents address the start
//   of a sub-array) and multiplies by the element size in bytes (int/float
//   4, double 8, byte/bool 1, records the sum of their fields). The stride
//   of a loop is offset(index = start + step) - offset(index = start).
//   Integer `/` and `%` are floor division and remainder (Symbolic.h), so
//   that `t / 16` and `t % 16` of a cooperative tile load have addresses.
// Guarantees: an address that cannot be expressed says why: an index reads
//   an array or calls a function, or names a variable other than a loop
//   index that is written ("unpredictable", thesis 3.6.4). `rounded` is set
//   when a divide_up was taken as exact division.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <ginac/ginac.h>

#include "compiler/ast/Ast.h"
#include "feedback/LoopNest.h"
#include "feedback/Symbolic.h"

namespace mcl::feedback {



struct Address {
    std::optional<GiNaC::ex> offset;  // bytes from the start of the variable
    int64_t element_size = 0;         // bytes; 0 when unknown
    std::string problem;              // why `offset` is missing
    bool rounded = false;             // a division was taken as exact
};

class AddressAnalysis {
public:
    AddressAnalysis(const mcpl::Function& f, Symbols& symbols);

    Address address(const Access& a);

    // offset(start + step) - offset(start) for the loop's index.
    GiNaC::ex stride(const GiNaC::ex& offset, const Loop& loop);

    // Bytes a declaration occupies: the product of the extents of its
    // largest form times the element size. nullopt when an extent cannot be
    // expressed or the element size is unknown.
    std::optional<GiNaC::ex> declared_bytes(const mcpl::Decl& d);

    // An integer expression with locals expanded (for loop counts). Sets
    // `rounded` when it divides.
    std::optional<GiNaC::ex> expression(const mcpl::Expr& e, bool* rounded = nullptr);

private:
    std::optional<GiNaC::ex> expr(const mcpl::Expr& e, int depth);
    // divide_up(a, b) taken as exact division a / b (noted as rounded when
    // not integral); nullopt, with the reason, when b is zero.
    std::optional<GiNaC::ex> quotient(const GiNaC::ex& a, const GiNaC::ex& b);
    void collect(const mcpl::Stmt& s);
    // Whether `e` holds the symbol of a loop index (a value that changes
    // from unit to unit or iteration to iteration).
    bool depends_on_loop_index(const GiNaC::ex& e);

    Symbols& symbols_;
    std::set<const mcpl::Decl*> loop_indices_;
    std::map<const mcpl::Decl*, const mcpl::Expr*> definitions_;  // initialised once, never written
    std::string problem_;
    bool rounded_ = false;
};

}  // namespace mcl::feedback
