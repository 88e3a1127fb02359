// Pass: memory-access rules for lock-step units (thesis 3.5.1 "fermi",
// 3.6.5): coalescing of memory requests and shared-memory bank conflicts,
// the rules behind the feedback name "load_store_optimality".
//
// Needs: a checked function, its accesses (LoopNest.h) and its hardware
//   model; runs only for load-store groups that name
//   `performance_feedback("load_store_optimality")`.
// Does: a load-store group is a simd group: its load-store units execute
//   in lock step. The lock-step par_unit U is the one its load-store units
//   have slots for, and the width W of a lock-step group is the group's
//   nr_units times those slots (fermi: 16 x 2 = 32 threads). For every
//   access whose innermost enclosing foreach is over U's par_group, the
//   stride between consecutive units is the coefficient of that foreach's
//   index in the access's byte offset (AccessAddress.h): offset(t + 1) -
//   offset(t). Assumptions: consecutive units of a lock-step group take
//   consecutive values of that index (as the translation lays them out);
//   the other indices are the same for the whole group; the variable starts
//   at a transaction boundary.
//   - Coalescing (RemarkKind::Coalescing), for spaces held by memories
//     without banks: the transaction size is the line size of the cache
//     for that space that an interconnect connects to the load-store units
//     themselves, else to a node containing them, else the smallest line of
//     a cache holding the space (hopper, fermi: the 128-byte L1 line).
//     Stride at most the element size: "coalesced", ceil(W * element size
//     / transaction size) transactions; stride 0: "broadcast" (one);
//     otherwise "not coalesced": min(W, ceil(W * |stride| / transaction
//     size)) transactions per lock-step group against the coalesced
//     number. Without a transaction size only the stride is judged.
//   - Bank conflicts (RemarkKind::BankConflicts), for spaces held by a
//     memory with nr_banks B: banks are 4 bytes wide (32-bit words, as on
//     NVIDIA and AMD GPUs; the description does not say). With the stride
//     s in words, the W units use B / gcd(s, B) banks, so the conflict
//     degree is ceil(W / (B / gcd(s, B))); stride 0 is a broadcast; a
//     stride below one word puts several units in one word (no conflict).
//     Elements wider than a word are judged by their first word, which
//     over-estimates conflicts of 64-bit accesses.
//   Spaces private to the lock-step unit (registers, thread-local memory)
//   and spaces held only by non-addressable memories are skipped. A stride
//   without a value (symbolic, no --param) is assumed to be at least a
//   transaction for coalescing (the remark says so and is approximate);
//   for bank conflicts the degree is then unknown. Either way the remark
//   names the --param values it needs.
// Guarantees: one remark per access of a lock-step unit, at the
//   access, in source order; the access is named as written; approximate
//   where the access or its address is.
#pragma once

#include <vector>

#include "feedback/FeedbackPass.h"

namespace mcl::feedback {

std::vector<Remark> memory_access_rules(const FeedbackInput& input);

}  // namespace mcl::feedback
