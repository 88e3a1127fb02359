#include "feedback/AccessAddress.h"

#include <sstream>

#include "compiler/print/PrintMcpl.h"

namespace mcl::feedback {

using mcpl::Expr;
using mcpl::Stmt;


AddressAnalysis::AddressAnalysis(const mcpl::Function& f, Symbols& symbols) : symbols_(symbols) {
    collect(*f.body);
}

void AddressAnalysis::collect(const Stmt& s) {
    switch (s.kind) {
    case Stmt::Kind::Block:
        for (const auto& c : s.body) collect(*c);
        return;
    case Stmt::Kind::Decl:
        if (s.decl->init && !s.decl->is_written && !s.decl->forms.back().resolved_type.is_array())
            definitions_[s.decl.get()] = s.decl->init.get();
        return;
    case Stmt::Kind::If:
        collect(*s.then_branch);
        if (s.else_branch) collect(*s.else_branch);
        return;
    case Stmt::Kind::For:
    case Stmt::Kind::Foreach:
        loop_indices_.insert(s.decl.get());
        collect(*s.loop_body);
        return;
    default:
        return;
    }
}

std::optional<GiNaC::ex> AddressAnalysis::quotient(const GiNaC::ex& a, const GiNaC::ex& b) {
    if (b.is_zero()) {
        problem_ = "it divides by zero";
        return std::nullopt;
    }
    GiNaC::ex q = (a / b).normal();
    if (!(GiNaC::is_a<GiNaC::numeric>(q) && GiNaC::ex_to<GiNaC::numeric>(q).is_integer())) rounded_ = true;
    return q;
}

std::optional<GiNaC::ex> AddressAnalysis::expr(const Expr& e, int depth) {
    if (depth > 64) {
        problem_ = "its definitions nest too deeply";
        return std::nullopt;
    }
    using K = Expr::Kind;
    switch (e.kind) {
    case K::IntLiteral: return GiNaC::ex(GiNaC::numeric(static_cast<long>(e.int_value)));
    case K::FloatLiteral:
    case K::BoolLiteral:
        problem_ = "it is not an integer expression";
        return std::nullopt;
    case K::Var: {
        if (e.hardware) return GiNaC::ex(GiNaC::numeric(static_cast<long>(e.hardware->value)));
        if (e.var.size() != 1 || !e.var[0].indices.empty() || e.type.is_array()) {
            problem_ = "it reads an array (" + mcpl::print_expr(e) + ")";
            return std::nullopt;
        }
        const mcpl::Decl* d = e.decl;
        const std::string& name = e.var[0].name;
        if (!d || loop_indices_.count(d)) return GiNaC::ex(symbols_.symbol(name));
        if (auto it = definitions_.find(d); it != definitions_.end()) return expr(*it->second, depth + 1);
        if (d->is_const && d->init) return expr(*d->init, depth + 1);
        if (d->is_written) {
            problem_ = "'" + name + "' is written";
            return std::nullopt;
        }
        return GiNaC::ex(symbols_.symbol(name));
    }
    case K::Call: {
        if (e.args.size() != 2 || (e.callee != "divide_up" && e.callee != "min" && e.callee != "max")) {
            problem_ = "it calls " + e.callee;
            return std::nullopt;
        }
        auto a = expr(*e.args[0], depth + 1);
        auto b = expr(*e.args[1], depth + 1);
        if (!a || !b) return std::nullopt;
        if (e.callee == "divide_up") return quotient(*a, *b);
        if (GiNaC::is_a<GiNaC::numeric>(*a) && GiNaC::is_a<GiNaC::numeric>(*b)) {
            auto x = GiNaC::ex_to<GiNaC::numeric>(*a), y = GiNaC::ex_to<GiNaC::numeric>(*b);
            return GiNaC::ex(e.callee == "min" ? (x < y ? x : y) : (x < y ? y : x));
        }
        // A number against a value that no loop index changes (translation's
        // threads per block, min(1024, divide_up(n, processors))): min is at
        // most the number, which it is for all but small sizes, and max is
        // the other value except for small ones; both flagged approximate.
        const bool a_number = GiNaC::is_a<GiNaC::numeric>(*a), b_number = GiNaC::is_a<GiNaC::numeric>(*b);
        if (a_number != b_number && !depends_on_loop_index(a_number ? *b : *a)) {
            rounded_ = true;
            if (e.callee == "min") return a_number ? *a : *b;
            return a_number ? *b : *a;
        }
        problem_ = "it takes the " + e.callee + " of symbolic values";
        return std::nullopt;
    }
    case K::Unary: {
        auto a = expr(*e.args[0], depth + 1);
        if (!a) return std::nullopt;
        if (e.op != "-") {
            problem_ = "it is not an integer expression";
            return std::nullopt;
        }
        return GiNaC::ex(-*a);
    }
    case K::Binary: {
        auto a = expr(*e.args[0], depth + 1);
        auto b = expr(*e.args[1], depth + 1);
        if (!a || !b) return std::nullopt;
        if (e.op == "+") return GiNaC::ex(*a + *b);
        if (e.op == "-") return GiNaC::ex(*a - *b);
        if (e.op == "*") return GiNaC::ex(*a * *b);
        if (e.op == "/" || e.op == "%") {
            if (b->is_zero()) {
                problem_ = "it divides by zero";
                return std::nullopt;
            }
            return e.op == "/" ? floor_quotient(*a, *b) : remainder_of(*a, *b);
        }
        if (e.op == "^") return GiNaC::ex(GiNaC::pow(*a, *b));
        problem_ = "it uses operator " + e.op;
        return std::nullopt;
    }
    }
    return std::nullopt;
}

bool AddressAnalysis::depends_on_loop_index(const GiNaC::ex& e) {
    for (const mcpl::Decl* index : loop_indices_)
        if (e.has(symbols_.symbol(index->name()))) return true;
    return false;
}

std::optional<GiNaC::ex> AddressAnalysis::expression(const Expr& e, bool* rounded) {
    rounded_ = false;
    problem_.clear();
    auto result = expr(e, 0);
    if (rounded) *rounded = rounded_;
    return result;
}

Address AddressAnalysis::address(const Access& a) {
    Address out;
    const Expr& e = *a.expr;
    const mcpl::BasicDecl& form = e.form ? *e.form : a.variable->forms.back();
    out.element_size = mcpl::element_byte_size(form.resolved_type);
    if (out.element_size == 0) {
        out.problem = "the size of its elements is unknown";
        return out;
    }
    for (size_t part = 1; part < e.var.size(); ++part)
        if (!e.var[part].indices.empty()) {
            out.problem = "it indexes a field of a record";
            return out;
        }
    std::vector<const Expr*> extents;
    for (const auto& group : form.type.dimensions)
        for (const auto& extent : group) extents.push_back(extent.get());
    std::vector<const Expr*> indices;
    if (!e.var.empty())
        for (const auto& group : e.var[0].indices)
            for (const auto& index : group) indices.push_back(index.get());
    if (indices.size() > extents.size()) {
        out.problem = "it has more indices than dimensions";
        return out;
    }
    rounded_ = false;
    problem_.clear();
    GiNaC::ex offset = 0;
    for (size_t k = 0; k < extents.size(); ++k) {
        std::optional<GiNaC::ex> extent = expr(*extents[k], 0);
        if (!extent) {
            out.problem = "an extent of " + a.variable->name() + " cannot be expressed: " + problem_;
            return out;
        }
        offset = offset * *extent;
        if (k < indices.size()) {
            std::optional<GiNaC::ex> index = expr(*indices[k], 0);
            if (!index) {
                out.problem = "its index " + mcpl::print_expr(*indices[k]) + " is unpredictable: " + problem_;
                return out;
            }
            offset = offset + *index;
        }
    }
    out.offset = (offset * out.element_size).expand();
    out.rounded = rounded_;
    return out;
}

GiNaC::ex AddressAnalysis::stride(const GiNaC::ex& offset, const Loop& loop) {
    GiNaC::symbol k = symbols_.symbol(loop.index->name());
    GiNaC::ex at_start = offset.subs(k == loop.start);
    GiNaC::ex at_next = offset.subs(k == loop.start + loop.step);
    return (at_next - at_start).expand().normal();
}

std::optional<GiNaC::ex> AddressAnalysis::declared_bytes(const mcpl::Decl& d) {
    std::optional<GiNaC::ex> best;
    for (const mcpl::BasicDecl& form : d.forms) {
        int64_t size = mcpl::element_byte_size(form.resolved_type);
        if (size == 0) return std::nullopt;
        GiNaC::ex bytes = size;
        for (const auto& group : form.type.dimensions)
            for (const auto& extent : group) {
                auto x = expression(*extent);
                if (!x) return std::nullopt;
                bytes = bytes * *x;
            }
        bytes = bytes.expand();
        if (!best) best = bytes;  // `as` views of one storage have the same size
    }
    return best;
}

}  // namespace mcl::feedback
