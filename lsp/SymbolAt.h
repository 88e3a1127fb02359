// What names the source position a hover or go-to-definition request
// points at in a checked MCPL module: a use of a variable, the name in a
// declaration, the record type in a declaration, a call, a function's
// name, the hardware description in its header, an import or an export.
//
// Needs: the document's module, checked when uses should know their
//   declarations and calls their functions (a module that failed checking
//   still answers for declarations, imports and headers).
// Guarantees: the answer's span is the name as written, on one line; a
//   position inside an index (`i` in `a[i,k]`) finds the index, not the
//   array; nothing is found between names.
#pragma once

#include <optional>
#include <string>

#include "compiler/ast/Ast.h"

namespace mcl::lsp {

struct SymbolAt {
    enum class Kind { VariableUse, Declaration, RecordType, Call, FunctionName, HardwareName, Import, Export };
    Kind kind = Kind::VariableUse;
    SourceLocation location;  // the name's first character
    uint32_t length = 0;      // the name's code points
    std::string name{};

    const mcpl::Expr* expr = nullptr;          // VariableUse, Call
    const mcpl::Decl* decl = nullptr;          // VariableUse (when checked), Declaration
    const mcpl::BasicDecl* form = nullptr;     // VariableUse (when checked), Declaration
    const mcpl::Function* function = nullptr;  // the function it is in; FunctionName, HardwareName: that one
    const mcpl::Import* import = nullptr;      // Import
    const mcpl::RecordType* record = nullptr;  // RecordType (when checked)
    // Declaration and VariableUse of a declaration in this module: what the
    // variable is ("parameter of `f`", "local variable", ...).
    std::string role{};
};

std::optional<SymbolAt> symbol_at(const mcpl::Module& module, SourceLocation position);

}  // namespace mcl::lsp
