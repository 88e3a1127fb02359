#include "compiler/parse/ParseMcpl.h"

#include <charconv>

#include <fmt/format.h>

#include "MCPLLexer.h"
#include "MCPLParser.h"
#include "support/ParseSupport.h"

namespace mcl::mcpl {

namespace {

using parse::MCPLLexer;
using parse::MCPLParser;

class AstBuilder {
public:
    AstBuilder(uint32_t file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

    std::unique_ptr<Module> build(MCPLParser::Module_Context* ctx) {
        auto m = std::make_unique<Module>();
        m->file = file_;
        m->name = ctx->name->getText();
        m->location = loc(ctx->name);
        if (auto* p = ctx->packageDecl()) {
            m->package = names(p->qualifiedName());
            m->package_location = loc(p->qualifiedName()->getStart());
        }
        if (auto* e = ctx->exportDecl())
            for (auto* id : e->ID()) m->exports.emplace_back(id->getText(), loc(id->getSymbol()));
        for (auto* i : ctx->importDecl())
            m->imports.push_back(Import{names(i->qualifiedName()), loc(i->qualifiedName()->getStart())});
        for (auto* child : ctx->children) {
            if (auto* c = dynamic_cast<MCPLParser::ConstDeclContext*>(child)) {
                auto d = std::make_unique<Decl>();
                d->is_const = true;
                d->location = loc(c->getStart());
                d->forms.push_back(BasicDecl{type(c->type_()), c->name->getText(), loc(c->name), {}});
                d->init = expr(c->expr());
                m->constants.push_back(std::move(d));
            } else if (auto* r = dynamic_cast<MCPLParser::RecordDeclContext*>(child)) {
                auto rec = std::make_unique<RecordType>();
                rec->name = r->name->getText();
                rec->location = loc(r->name);
                for (auto* f : r->decl()) rec->fields.push_back(decl(f));
                m->records.push_back(std::move(rec));
            } else if (auto* g = dynamic_cast<MCPLParser::GlobalDeclContext*>(child)) {
                // Parsed only to say clearly why it is rejected.
                auto* name = g->decl()->basicDecl(0)->name;
                diags_.error(loc(name), fmt::format("global variable '{}': only 'const' declarations with a "
                                                    "value may appear outside functions",
                                                    name->getText()));
                ok_ = false;
            } else if (auto* f = dynamic_cast<MCPLParser::FunctionContext*>(child)) {
                m->functions.push_back(function(f));
            }
        }
        return ok_ ? std::move(m) : nullptr;
    }

private:
    SourceLocation loc(const antlr4::Token* t) const { return token_location(file_, t); }

    static std::vector<std::string> names(MCPLParser::QualifiedNameContext* ctx) {
        std::vector<std::string> out;
        for (auto* id : ctx->ID()) out.push_back(id->getText());
        return out;
    }

    std::unique_ptr<Function> function(MCPLParser::FunctionContext* ctx) {
        auto f = std::make_unique<Function>();
        f->hardware = ctx->hwd->getText();
        f->hardware_location = loc(ctx->hwd);
        f->return_type = type(ctx->type_());
        f->name = ctx->name->getText();
        f->location = loc(ctx->name);
        for (auto* d : ctx->decl()) f->params.push_back(decl(d));
        f->body = block(ctx->block());
        return f;
    }

    TypeExpr type(MCPLParser::Type_Context* ctx) {
        TypeExpr t;
        t.location = loc(ctx->getStart());
        const std::string base = ctx->getStart()->getText();
        switch (ctx->getStart()->getType()) {
        case MCPLLexer::VOID: t.primitive = Primitive::Void; break;
        case MCPLLexer::INT: t.primitive = Primitive::Int; break;
        case MCPLLexer::FLOAT: t.primitive = Primitive::Float; break;
        case MCPLLexer::DOUBLE: t.primitive = Primitive::Double; break;
        case MCPLLexer::BYTE: t.primitive = Primitive::Byte; break;
        case MCPLLexer::BOOL: t.primitive = Primitive::Bool; break;
        default: t.record_name = base; break;
        }
        for (auto* d : ctx->dimensions()) t.dimensions.push_back(exprs(d->expr()));
        return t;
    }

    std::vector<ExprPtr> exprs(const std::vector<MCPLParser::ExprContext*>& ctxs) {
        std::vector<ExprPtr> out;
        for (auto* e : ctxs) out.push_back(expr(e));
        return out;
    }

    BasicDecl basic_decl(MCPLParser::BasicDeclContext* ctx) {
        return BasicDecl{type(ctx->type_()), ctx->name->getText(), loc(ctx->name), {}};
    }

    std::unique_ptr<Decl> decl(MCPLParser::DeclContext* ctx) {
        auto d = std::make_unique<Decl>();
        d->location = loc(ctx->getStart());
        for (auto* m : ctx->modifier()) {
            if (m->CONST()) {
                d->is_const = true;
            } else {
                d->memory_spaces.push_back(m->getText());
                d->memory_space_locations.push_back(loc(m->getStart()));
            }
        }
        for (auto* b : ctx->basicDecl()) d->forms.push_back(basic_decl(b));
        if (ctx->expr()) d->init = expr(ctx->expr());
        return d;
    }

    StmtPtr block(MCPLParser::BlockContext* ctx) {
        auto s = std::make_unique<Stmt>();
        s->kind = Stmt::Kind::Block;
        s->location = loc(ctx->getStart());
        for (auto* st : ctx->statement()) s->body.push_back(statement(st));
        return s;
    }

    StmtPtr update(MCPLParser::UpdateContext* ctx) {
        auto s = std::make_unique<Stmt>();
        s->location = loc(ctx->getStart());
        if (auto* a = dynamic_cast<MCPLParser::AssignUpdateContext*>(ctx)) {
            s->kind = Stmt::Kind::Assign;
            s->target = var(a->var());
            s->op = a->op->getText();
            s->value = expr(a->expr());
        } else if (auto* st = dynamic_cast<MCPLParser::StepUpdateContext*>(ctx)) {
            s->kind = Stmt::Kind::Step;
            s->target = var(st->var());
            s->op = st->op->getText();
        }
        return s;
    }

    StmtPtr statement(MCPLParser::StatementContext* ctx) {
        if (auto* b = dynamic_cast<MCPLParser::BlockStmtContext*>(ctx)) return block(b->block());
        if (auto* u = dynamic_cast<MCPLParser::UpdateStmtContext*>(ctx)) return update(u->update());
        auto s = std::make_unique<Stmt>();
        s->location = loc(ctx->getStart());
        if (auto* d = dynamic_cast<MCPLParser::DeclStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::Decl;
            s->decl = decl(d->decl());
        } else if (auto* sw = dynamic_cast<MCPLParser::SwapStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::Swap;
            s->target = var(sw->var(0));
            s->value = var(sw->var(1));
        } else if (auto* c = dynamic_cast<MCPLParser::CallStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::Call;
            s->call = call(c->call());
        } else if (auto* r = dynamic_cast<MCPLParser::ReturnStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::Return;
            if (r->expr()) s->value = expr(r->expr());
        } else if (auto* i = dynamic_cast<MCPLParser::IfStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::If;
            s->condition = expr(i->expr());
            s->then_branch = statement(i->statement(0));
            if (i->statement().size() > 1) s->else_branch = statement(i->statement(1));
        } else if (auto* f = dynamic_cast<MCPLParser::ForStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::For;
            s->decl = decl(f->decl());
            s->condition = expr(f->expr());
            s->step = update(f->update());
            s->loop_body = statement(f->statement());
        } else if (auto* fe = dynamic_cast<MCPLParser::ForeachStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::Foreach;
            auto index = std::make_unique<Decl>();
            index->location = loc(fe->INT()->getSymbol());
            TypeExpr int_type;
            int_type.primitive = Primitive::Int;
            int_type.location = index->location;
            index->forms.push_back(BasicDecl{std::move(int_type), fe->index->getText(), loc(fe->index), {}});
            s->decl = std::move(index);
            s->count = expr(fe->expr());
            s->name = fe->group->getText();
            s->name_location = loc(fe->group);
            s->loop_body = statement(fe->statement());
        } else if (auto* b = dynamic_cast<MCPLParser::BarrierStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::Barrier;
            s->name = b->space->getText();
            s->name_location = loc(b->space);
        } else if (auto* a = dynamic_cast<MCPLParser::AsStmtContext*>(ctx)) {
            s->kind = Stmt::Kind::As;
            s->target = var(a->var());
            for (auto* bd : a->basicDecl()) s->views.push_back(basic_decl(bd));
        }
        return s;
    }

    ExprPtr var(MCPLParser::VarContext* ctx) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Var;
        e->location = loc(ctx->getStart());
        for (auto* p : ctx->varPart()) {
            VarPart part;
            part.name = p->ID()->getText();
            part.location = loc(p->ID()->getSymbol());
            for (auto* d : p->dimensions()) part.indices.push_back(exprs(d->expr()));
            e->var.push_back(std::move(part));
        }
        return e;
    }

    ExprPtr call(MCPLParser::CallContext* ctx) {
        auto e = std::make_unique<Expr>();
        e->kind = Expr::Kind::Call;
        e->location = loc(ctx->getStart());
        e->callee = ctx->ID()->getText();
        e->args = exprs(ctx->expr());
        return e;
    }

    ExprPtr expr(MCPLParser::ExprContext* ctx) {
        if (auto* p = dynamic_cast<MCPLParser::ParenExprContext*>(ctx)) return expr(p->expr());
        if (auto* c = dynamic_cast<MCPLParser::CallExprContext*>(ctx)) return call(c->call());
        if (auto* v = dynamic_cast<MCPLParser::VarExprContext*>(ctx)) return var(v->var());
        auto e = std::make_unique<Expr>();
        e->location = loc(ctx->getStart());
        if (auto* i = dynamic_cast<MCPLParser::IntExprContext*>(ctx)) {
            e->kind = Expr::Kind::IntLiteral;
            std::string text = i->getText();
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), e->int_value);
            if (ec != std::errc() || end != text.data() + text.size()) {
                diags_.error(e->location, fmt::format("integer literal '{}' is too large", text));
                ok_ = false;
            }
        } else if (auto* f = dynamic_cast<MCPLParser::FloatExprContext*>(ctx)) {
            e->kind = Expr::Kind::FloatLiteral;
            e->spelling = f->getText();
            // from_chars: locale-independent, unlike strtod. A suffix 'f' ends the number.
            std::errc ec =
                std::from_chars(e->spelling.data(), e->spelling.data() + e->spelling.size(), e->float_value).ec;
            // Past the double range (a value name resolution refuses, by
            // the literal's type) from_chars leaves the value as it was.
            if (ec == std::errc::result_out_of_range) e->float_value = 0;
        } else if (auto* b = dynamic_cast<MCPLParser::BoolExprContext*>(ctx)) {
            e->kind = Expr::Kind::BoolLiteral;
            e->bool_value = b->TRUE() != nullptr;
        } else if (auto* pw = dynamic_cast<MCPLParser::PowerExprContext*>(ctx)) {
            binary(*e, pw->op, pw->expr(0), pw->expr(1));
        } else if (auto* u = dynamic_cast<MCPLParser::UnaryExprContext*>(ctx)) {
            e->kind = Expr::Kind::Unary;
            e->op = u->op->getText();
            e->args.push_back(expr(u->expr()));
        } else if (auto* bin = dynamic_cast<MCPLParser::BinaryExprContext*>(ctx)) {
            binary(*e, bin->op, bin->expr(0), bin->expr(1));
        }
        return e;
    }

    void binary(Expr& e, antlr4::Token* op, MCPLParser::ExprContext* lhs, MCPLParser::ExprContext* rhs) {
        e.kind = Expr::Kind::Binary;
        e.op = op->getText();
        e.location = loc(op);
        e.args.push_back(expr(lhs));
        e.args.push_back(expr(rhs));
    }

    uint32_t file_;
    DiagnosticEngine& diags_;
    bool ok_ = true;
};

}  // namespace

std::unique_ptr<Module> parse_mcpl(uint32_t file, const SourceManager& sources,
                                   DiagnosticEngine& diags) {
    return parse_file<MCPLLexer, MCPLParser, std::unique_ptr<Module>>(
        file, sources, diags, [](MCPLParser& parser) { return parser.module_(); },
        [&](auto* tree) { return AstBuilder(file, diags).build(tree); });
}

}  // namespace mcl::mcpl
