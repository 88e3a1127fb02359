#include "cnc/ParseCnC.h"

#include <charconv>

#include <fmt/format.h>

#include "CnCLexer.h"
#include "CnCParser.h"
#include "support/ParseSupport.h"

namespace mcl::cnc {

namespace {

using parse::CnCLexer;
using parse::CnCParser;

class GraphBuilder {
public:
    GraphBuilder(uint32_t file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

    std::optional<Graph> build(CnCParser::GraphContext* ctx) {
        Graph g;
        g.file = file_;
        for (auto* s : ctx->statement()) statement(g, s);
        if (!ok_) return std::nullopt;
        return g;
    }

private:
    SourceLocation loc(const antlr4::Token* t) const { return token_location(file_, t); }

    void statement(Graph& g, CnCParser::StatementContext* s) {
        if (auto* i = dynamic_cast<CnCParser::ImportStatementContext*>(s)) {
            Import imp;
            for (auto* id : i->qualifiedName()->ID()) imp.path.push_back(id->getText());
            imp.location = loc(i->qualifiedName()->getStart());
            g.imports.push_back(std::move(imp));
        } else if (auto* c = dynamic_cast<CnCParser::ConstantStatementContext*>(s)) {
            g.constants.push_back(constant(c));
        } else if (auto* it = dynamic_cast<CnCParser::ItemStatementContext*>(s)) {
            ItemCollection item;
            item.name = it->name->getText();
            item.location = loc(it->name);
            item.element = it->type_()->base->getText();
            for (auto* e : it->type_()->expr()) item.extents.push_back(expr(e));
            g.items.push_back(std::move(item));
        } else if (auto* t = dynamic_cast<CnCParser::TagStatementContext*>(s)) {
            TagCollection tag;
            tag.name = t->name->getText();
            tag.location = loc(t->name);
            tag.components_location = loc(t->components);
            tag.components = integer(t->components);
            g.tags.push_back(std::move(tag));
        } else if (auto* st = dynamic_cast<CnCParser::StepStatementContext*>(s)) {
            g.steps.push_back({st->name->getText(), loc(st->name)});
        } else if (auto* p = dynamic_cast<CnCParser::PrescriptionStatementContext*>(s)) {
            Prescription pr{p->tag->getText(), p->step->getText(), loc(p->tag), loc(p->step), {}};
            if (auto* a = p->affinity())
                for (auto* w : a->affinityWeight())
                    pr.affinity.push_back({w->kind->getText(), integer(w->weight), loc(w->kind)});
            g.prescriptions.push_back(std::move(pr));
        } else if (auto* r = dynamic_cast<CnCParser::RelationStatementContext*>(s)) {
            g.relations.push_back(relation(r->chain()));
        } else if (auto* e = dynamic_cast<CnCParser::EnvPutStatementContext*>(s)) {
            for (auto* target : e->envTarget()) g.env_puts.push_back(env_target(target));
        } else if (auto* e = dynamic_cast<CnCParser::EnvGetStatementContext*>(s)) {
            for (auto* target : e->envTarget()) g.env_gets.push_back(env_target(target));
        }
    }

    Constant constant(CnCParser::ConstantStatementContext* c) {
        Constant k;
        k.name = c->name->getText();
        k.location = loc(c->name);
        auto* n = c->value;
        bool negative = n->getStart()->getText() == "-";
        antlr4::tree::TerminalNode* digits = n->INT() ? n->INT() : n->FLOAT();
        k.spelling = digits->getText();
        if (negative) k.spelling.insert(k.spelling.begin(), '-');
        if (n->FLOAT()) {
            k.is_float = true;
            std::from_chars(k.spelling.data(), k.spelling.data() + k.spelling.size(), k.float_value);
        } else {
            k.int_value = integer(digits->getSymbol());
            if (negative) k.int_value = -k.int_value;
        }
        return k;
    }

    long long integer(antlr4::Token* t) {
        long long v = 0;
        std::string text = t->getText();
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v > (1LL << 31) - 1) {
            diags_.error(loc(t), fmt::format("integer '{}' is too large", text));
            ok_ = false;
        }
        return v;
    }

    ExprPtr expr(CnCParser::ExprContext* ctx) {
        if (auto* p = dynamic_cast<CnCParser::ParenExprContext*>(ctx)) return expr(p->expr());
        auto e = std::make_unique<Expr>();
        e->location = loc(ctx->getStart());
        if (auto* i = dynamic_cast<CnCParser::IntExprContext*>(ctx)) {
            e->kind = Expr::Kind::Int;
            e->value = integer(i->INT()->getSymbol());
        } else if (auto* n = dynamic_cast<CnCParser::NameExprContext*>(ctx)) {
            e->kind = Expr::Kind::Name;
            e->name = n->ID()->getText();
        } else if (auto* m = dynamic_cast<CnCParser::NegateExprContext*>(ctx)) {
            e->kind = Expr::Kind::Negate;
            e->operands.push_back(expr(m->expr()));
        } else if (auto* b = dynamic_cast<CnCParser::BinaryExprContext*>(ctx)) {
            e->kind = Expr::Kind::Binary;
            e->op = b->op->getText()[0];
            e->location = loc(b->op);
            e->operands.push_back(expr(b->expr(0)));
            e->operands.push_back(expr(b->expr(1)));
        }
        return e;
    }

    ItemInstance item_instance(CnCParser::ItemInstanceContext* ctx) {
        ItemInstance i;
        i.name = ctx->name->getText();
        i.location = loc(ctx->name);
        i.parameter = ctx->parameter ? ctx->parameter->getText() : i.name;
        i.parameter_location = ctx->parameter ? loc(ctx->parameter) : i.location;
        for (auto* e : ctx->expr()) i.tag.push_back(expr(e));
        return i;
    }

    Relation relation(CnCParser::ChainContext* ctx) {
        Relation r;
        auto* step = ctx->stepInstance();
        r.step.name = step->name->getText();
        r.step.location = loc(step->name);
        for (size_t i = 1; i < step->ID().size(); ++i) {
            r.step.components.push_back(step->ID(i)->getText());
            r.step.component_locations.push_back(loc(step->ID(i)->getSymbol()));
        }
        // Item lists before the step are its gets, after it its puts.
        for (auto* list : ctx->items()) {
            bool before = list->getStart()->getTokenIndex() < step->getStart()->getTokenIndex();
            for (auto* item : list->itemInstance()) (before ? r.gets : r.puts).push_back(item_instance(item));
        }
        return r;
    }

    EnvTarget env_target(CnCParser::EnvTargetContext* ctx) {
        EnvTarget t;
        std::vector<CnCParser::RangeContext*> ranges;
        if (auto* tag = dynamic_cast<CnCParser::EnvTagContext*>(ctx)) {
            t.is_tag = true;
            t.name = tag->name->getText();
            t.location = loc(tag->name);
            ranges = tag->range();
        } else if (auto* item = dynamic_cast<CnCParser::EnvItemContext*>(ctx)) {
            t.name = item->name->getText();
            t.location = loc(item->name);
            ranges = item->range();
        }
        for (auto* r : ranges)
            t.ranges.push_back({r->name ? r->name->getText() : "", r->name ? loc(r->name) : SourceLocation{},
                                expr(r->low), expr(r->high)});
        return t;
    }

    uint32_t file_;
    DiagnosticEngine& diags_;
    bool ok_ = true;
};

}  // namespace

std::optional<Graph> parse_cnc(uint32_t file, const SourceManager& sources, DiagnosticEngine& diags) {
    return parse_file<CnCLexer, CnCParser, std::optional<Graph>>(
        file, sources, diags, [](CnCParser& parser) { return parser.graph(); },
        [&](auto* tree) { return GraphBuilder(file, diags).build(tree); });
}

}  // namespace mcl::cnc
