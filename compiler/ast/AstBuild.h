// Building MCPL AST nodes in passes that write code (translation, lowering):
// unchecked nodes, located where the caller says, that check_program then
// resolves like parsed ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::mcpl::build {

// `name`
ExprPtr var(const std::string& name, SourceLocation loc);
// `parts[0].parts[1]...`: a record field or a hardware value
ExprPtr dotted(const std::vector<std::string>& parts, SourceLocation loc);
ExprPtr int_literal(int64_t value, SourceLocation loc);
ExprPtr bool_literal(bool value, SourceLocation loc);
// `op a`, located at a
ExprPtr unary(const char* op, ExprPtr a);
// `a op b`, located at a
ExprPtr binary(const char* op, ExprPtr a, ExprPtr b);
// `callee(a, b)`, located at a
ExprPtr call(const char* callee, ExprPtr a, ExprPtr b);

// `const int name = init;` (no value when init is null)
StmtPtr const_int(const std::string& name, ExprPtr init, SourceLocation loc);
// `primitive name = init;`
StmtPtr local(Primitive primitive, const std::string& name, ExprPtr init, SourceLocation loc);
// `target = value;`, located at target
StmtPtr assignment(ExprPtr target, ExprPtr value);
StmtPtr block(std::vector<StmtPtr> body, SourceLocation loc);
// `target as views[0] as views[1] ...;`, located at target
StmtPtr as_statement(ExprPtr target, std::vector<BasicDecl> views);
// `if (condition) then_branch`, located at the condition
StmtPtr if_then(ExprPtr condition, StmtPtr then_branch);
// `for (int index = 0; index < count; index++) body`
StmtPtr counting_loop(const std::string& index, ExprPtr count, StmtPtr body, SourceLocation loc);
// `foreach (int index in count group) body`
StmtPtr foreach_stmt(const std::string& index, ExprPtr count, const std::string& group, StmtPtr body,
                     SourceLocation loc);

}  // namespace mcl::mcpl::build
