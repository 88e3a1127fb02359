#include "hdl/ParseHdl.h"

#include <charconv>

#include <fmt/format.h>

#include "HDLLexer.h"
#include "HDLParser.h"
#include "support/ParseSupport.h"

namespace mcl::hdl {

namespace {

using parse::HDLLexer;
using parse::HDLParser;

constexpr const char* kUnitBases[] = {"B", "bit", "bits", "cycle", "cycles", "s", "Hz"};

bool is_unit_base(const std::string& s) {
    for (const char* b : kUnitBases)
        if (s == b) return true;
    return false;
}

class AstBuilder {
public:
    AstBuilder(uint32_t file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

    std::unique_ptr<Description> build(HDLParser::DescriptionContext* ctx) {
        auto d = std::make_unique<Description>();
        d->file = file_;
        d->name = ctx->name->getText();
        d->location = loc(ctx->name);
        if (auto* s = ctx->specializes()) {
            d->specializes = s->parent->getText();
            d->specializes_location = loc(s->parent);
        }
        for (auto* b : ctx->block())
            if (auto block = build_block(b, nullptr)) d->blocks.push_back(std::move(block));
        return ok_ ? std::move(d) : nullptr;
    }

private:
    SourceLocation loc(const antlr4::Token* t) const { return token_location(file_, t); }

    std::unique_ptr<Block> build_block(HDLParser::BlockContext* ctx, const Block* parent) {
        auto kind = block_kind_from_name(ctx->kind->getText());
        if (!kind) {
            diags_.error(loc(ctx->kind),
                         fmt::format("unknown block kind '{}'; expected one of {}",
                                     ctx->kind->getText(),
                                     fmt::join(all_block_kind_names(), ", ")));
            ok_ = false;
            return nullptr;
        }
        auto b = std::make_unique<Block>();
        b->kind = *kind;
        b->name = ctx->name->getText();
        b->location = loc(ctx->kind);
        b->name_location = loc(ctx->name);
        b->parent = parent;
        for (auto* s : ctx->statement()) build_statement(s, *b);
        return b;
    }

    void build_statement(HDLParser::StatementContext* ctx, Block& owner) {
        if (auto* nested = dynamic_cast<HDLParser::NestedBlockContext*>(ctx)) {
            if (auto b = build_block(nested->block(), &owner))
                owner.statements.emplace_back(std::move(b));
        } else if (auto* assign = dynamic_cast<HDLParser::AssignPropertyContext*>(ctx)) {
            PropertyStmt p;
            p.name = assign->property->getText();
            p.location = loc(assign->property);
            p.value = build_expr(assign->expr());
            if (assign->unit()) p.unit = build_unit(assign->unit());
            owner.statements.emplace_back(std::move(p));
        } else if (auto* arg = dynamic_cast<HDLParser::ArgPropertyContext*>(ctx)) {
            ArgPropertyStmt p;
            p.name = arg->property->getText();
            p.location = loc(arg->property);
            for (auto* e : arg->expr()) p.args.push_back(build_expr(e));
            owner.statements.emplace_back(std::move(p));
        } else if (auto* bare = dynamic_cast<HDLParser::BareStatementContext*>(ctx)) {
            QualifiedName name = build_name(bare->qualifiedName());
            if (name.parts.size() == 1 && (name.parts[0] == "default" || name.parts[0] == "read_only"))
                owner.statements.emplace_back(FlagStmt{name.parts[0], name.location});
            else
                owner.statements.emplace_back(ReferenceStmt{std::move(name)});
        }
    }

    QualifiedName build_name(HDLParser::QualifiedNameContext* ctx) {
        QualifiedName n;
        n.location = loc(ctx->getStart());
        for (auto* id : ctx->ID()) n.parts.push_back(id->getText());
        return n;
    }

    Unit build_unit(HDLParser::UnitContext* ctx) {
        Unit u;
        u.location = loc(ctx->base);
        u.spelling = ctx->getText();
        std::string base = ctx->base->getText();
        if (!is_unit_base(base) && base.size() > 1 &&
            (base[0] == 'k' || base[0] == 'M' || base[0] == 'G') && is_unit_base(base.substr(1))) {
            u.prefix = base[0];
            base = base.substr(1);
        }
        u.base = base;
        if (ctx->per) u.per = ctx->per->getText();
        bool valid = is_unit_base(u.base) && (u.per.empty() || u.per == "s");
        if (!valid) {
            diags_.error(u.location,
                         fmt::format("unknown unit '{}'; expected B, bit, bits, cycle, cycles, "
                                     "s or Hz with an optional k, M or G prefix, or a rate such "
                                     "as GB/s",
                                     u.spelling));
            ok_ = false;
        }
        return u;
    }

    Expr build_expr(HDLParser::ExprContext* ctx) {
        Expr e;
        e.location = loc(ctx->getStart());
        if (auto* op = dynamic_cast<HDLParser::OperatorExprContext*>(ctx)) {
            e.kind = Expr::Kind::Operator;
            e.op = op->op->getText()[0];
        } else if (auto* p = dynamic_cast<HDLParser::ParenExprContext*>(ctx)) {
            return build_expr(p->expr());
        } else if (auto* n = dynamic_cast<HDLParser::NegateExprContext*>(ctx)) {
            e.kind = Expr::Kind::Negate;
            e.operands.push_back(build_expr(n->expr()));
        } else if (auto* m = dynamic_cast<HDLParser::MulExprContext*>(ctx)) {
            e = binary(m->expr(0), m->op, m->expr(1));
        } else if (auto* a = dynamic_cast<HDLParser::AddExprContext*>(ctx)) {
            e = binary(a->expr(0), a->op, a->expr(1));
        } else if (auto* i = dynamic_cast<HDLParser::IntExprContext*>(ctx)) {
            e.kind = Expr::Kind::Int;
            std::string text = i->INT()->getText();
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), e.value);
            if (ec != std::errc() || end != text.data() + text.size()) {
                diags_.error(e.location, fmt::format("integer literal '{}' is too large", text));
                ok_ = false;
            }
        } else if (auto* s = dynamic_cast<HDLParser::StringExprContext*>(ctx)) {
            e.kind = Expr::Kind::String;
            std::string raw = s->STRING()->getText();
            e.text = raw.substr(1, raw.size() - 2);
        } else if (auto* all = dynamic_cast<HDLParser::AllUnitsExprContext*>(ctx)) {
            e.kind = Expr::Kind::AllUnits;
            e.name = build_name(all->qualifiedName());
        } else if (auto* name = dynamic_cast<HDLParser::NameExprContext*>(ctx)) {
            e.kind = Expr::Kind::Name;
            e.name = build_name(name->qualifiedName());
        }
        return e;
    }

    Expr binary(HDLParser::ExprContext* lhs, antlr4::Token* op, HDLParser::ExprContext* rhs) {
        Expr e;
        e.kind = Expr::Kind::Binary;
        e.location = loc(op);
        e.op = op->getText()[0];
        e.operands.push_back(build_expr(lhs));
        e.operands.push_back(build_expr(rhs));
        return e;
    }

    uint32_t file_;
    DiagnosticEngine& diags_;
    bool ok_ = true;
};

}  // namespace

std::unique_ptr<Description> parse_hdl(uint32_t file, const SourceManager& sources,
                                       DiagnosticEngine& diags) {
    return parse_file<HDLLexer, HDLParser, std::unique_ptr<Description>>(
        file, sources, diags, [](HDLParser& parser) { return parser.description(); },
        [&](auto* tree) { return AstBuilder(file, diags).build(tree); });
}

}  // namespace mcl::hdl
