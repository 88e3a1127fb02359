#include "compiler/ast/AstBuild.h"

namespace mcl::mcpl::build {

namespace {

ExprPtr expr_of(Expr::Kind kind, SourceLocation loc) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->location = loc;
    return e;
}

// An expression of `kind` with operands a and b, located at a.
ExprPtr with_operands(Expr::Kind kind, ExprPtr a, ExprPtr b) {
    ExprPtr e = expr_of(kind, a->location);
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return e;
}

StmtPtr stmt_of(Stmt::Kind kind, SourceLocation loc) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->location = loc;
    return s;
}

}  // namespace

ExprPtr var(const std::string& name, SourceLocation loc) { return dotted({name}, loc); }

ExprPtr dotted(const std::vector<std::string>& parts, SourceLocation loc) {
    ExprPtr e = expr_of(Expr::Kind::Var, loc);
    for (const std::string& p : parts) e->var.push_back(VarPart{p, {}, loc});
    return e;
}

ExprPtr int_literal(int64_t value, SourceLocation loc) {
    ExprPtr e = expr_of(Expr::Kind::IntLiteral, loc);
    e->int_value = value;
    return e;
}

ExprPtr bool_literal(bool value, SourceLocation loc) {
    ExprPtr e = expr_of(Expr::Kind::BoolLiteral, loc);
    e->bool_value = value;
    return e;
}

ExprPtr unary(const char* op, ExprPtr a) {
    ExprPtr e = expr_of(Expr::Kind::Unary, a->location);
    e->op = op;
    e->args.push_back(std::move(a));
    return e;
}

ExprPtr binary(const char* op, ExprPtr a, ExprPtr b) {
    ExprPtr e = with_operands(Expr::Kind::Binary, std::move(a), std::move(b));
    e->op = op;
    return e;
}

ExprPtr call(const char* callee, ExprPtr a, ExprPtr b) {
    ExprPtr e = with_operands(Expr::Kind::Call, std::move(a), std::move(b));
    e->callee = callee;
    return e;
}

StmtPtr local(Primitive primitive, const std::string& name, ExprPtr init, SourceLocation loc) {
    auto d = std::make_unique<Decl>();
    d->location = loc;
    TypeExpr t;
    t.primitive = primitive;
    t.location = loc;
    d->forms.push_back(BasicDecl{std::move(t), name, loc, {}});
    d->init = std::move(init);
    StmtPtr s = stmt_of(Stmt::Kind::Decl, loc);
    s->decl = std::move(d);
    return s;
}

StmtPtr const_int(const std::string& name, ExprPtr init, SourceLocation loc) {
    StmtPtr s = local(Primitive::Int, name, std::move(init), loc);
    s->decl->is_const = true;
    return s;
}

StmtPtr assignment(ExprPtr target, ExprPtr value) {
    StmtPtr s = stmt_of(Stmt::Kind::Assign, target->location);
    s->op = std::string(1, '=');  // not from a literal: GCC 12 -O3 warns falsely (-Wrestrict) on that assignment
    s->target = std::move(target);
    s->value = std::move(value);
    return s;
}

StmtPtr block(std::vector<StmtPtr> body, SourceLocation loc) {
    StmtPtr s = stmt_of(Stmt::Kind::Block, loc);
    s->body = std::move(body);
    return s;
}

StmtPtr as_statement(ExprPtr target, std::vector<BasicDecl> views) {
    StmtPtr s = stmt_of(Stmt::Kind::As, target->location);
    s->target = std::move(target);
    s->views = std::move(views);
    return s;
}

StmtPtr if_then(ExprPtr condition, StmtPtr then_branch) {
    StmtPtr s = stmt_of(Stmt::Kind::If, condition->location);
    s->condition = std::move(condition);
    s->then_branch = std::move(then_branch);
    return s;
}

StmtPtr counting_loop(const std::string& index, ExprPtr count, StmtPtr body, SourceLocation loc) {
    StmtPtr s = stmt_of(Stmt::Kind::For, loc);
    s->decl = local(Primitive::Int, index, int_literal(0, loc), loc)->decl->clone();
    s->condition = binary("<", var(index, loc), std::move(count));
    s->step = stmt_of(Stmt::Kind::Step, loc);
    s->step->target = var(index, loc);
    s->step->op = "++";
    s->loop_body = std::move(body);
    return s;
}

StmtPtr foreach_stmt(const std::string& index, ExprPtr count, const std::string& group, StmtPtr body,
                     SourceLocation loc) {
    StmtPtr s = stmt_of(Stmt::Kind::Foreach, loc);
    s->decl = local(Primitive::Int, index, nullptr, loc)->decl->clone();
    s->count = std::move(count);
    s->name = group;
    s->name_location = loc;
    s->loop_body = std::move(body);
    return s;
}

}  // namespace mcl::mcpl::build
