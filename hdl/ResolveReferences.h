// Pass: resolve the names in HDL descriptions to the blocks they denote.
//
// Needs: the parsed Descriptions of the whole library (references may point
//   into other descriptions, e.g. `perfect.hierarchy.threads.thread;`).
// Does: resolves every reference statement and every block name used in a
//   `connects(...)` argument. An unqualified name denotes a top-level block of
//   the same file; a qualified name starts either with a description's name
//   or with a top-level block of the same file and walks down through nested
//   blocks and through the blocks that references include. Reports unknown
//   names and inclusion cycles (a block that includes itself, directly or
//   through other blocks) at the offending reference.
// Guarantees: afterwards Resolution::target() answers for every name that
//   resolved; children() lists a block's nested and included blocks without
//   ever looping.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "hdl/Ast.h"
#include "support/Diagnostics.h"

namespace mcl::hdl {

// A block that appears inside another one, either written there or included
// by a reference statement (then `location` is the reference's).
struct ChildBlock {
    const Block* block;
    SourceLocation location;
    bool by_reference;
};

class Resolution {
public:
    // The block a name resolved to, or nullptr.
    const Block* target(const QualifiedName& name) const;
    // Nested blocks and resolved references of `b`, in source order.
    std::vector<ChildBlock> children(const Block& b) const;
    // The description a block belongs to.
    const Description* owner(const Block& b) const;

private:
    friend class ReferenceResolver;
    std::unordered_map<const QualifiedName*, const Block*> targets_;
    std::unordered_map<uint32_t, const Description*> descriptions_by_file_;
};

// Resolves the names of every description in `library` (keyed by name);
// errors are reported per description and never stop the others.
Resolution resolve_references(const std::map<std::string, const Description*>& library,
                              DiagnosticEngine& diags);

}  // namespace mcl::hdl
