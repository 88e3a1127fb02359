#include "compiler/print/PrintMcpl.h"

#include <stdexcept>

#include <fmt/format.h>

namespace mcl::mcpl {

namespace {

// Binding strength, loosest first, in the order of grammar/MCPL.g4 read
// bottom up.
enum Precedence {
    kLogicalOr,
    kLogicalAnd,
    kBitOr,
    kBitAnd,
    kEquality,
    kRelational,
    kShift,
    kAdditive,
    kMultiplicative,
    kUnary,
    kPower,
    kPrimary,
};

Precedence binary_precedence(const std::string& op) {
    if (op == "||") return kLogicalOr;
    if (op == "&&") return kLogicalAnd;
    if (op == "|") return kBitOr;
    if (op == "&") return kBitAnd;
    if (op == "==" || op == "!=") return kEquality;
    if (op == "<" || op == "<=" || op == ">" || op == ">=") return kRelational;
    if (op == "<<" || op == ">>") return kShift;
    if (op == "+" || op == "-") return kAdditive;
    if (op == "*" || op == "/" || op == "%") return kMultiplicative;
    if (op == "^") return kPower;
    throw std::invalid_argument(fmt::format("MCPL has no binary operator '{}'", op));
}

std::string float_literal_text(const Expr& e) {
    if (!e.spelling.empty()) return e.spelling;
    // A literal a pass made has no spelling; the shortest text that reads back
    // as the same double needs a '.' or an exponent to stay a float literal.
    std::string text = fmt::format("{}", e.float_value);
    if (text.find_first_of(".eE") == std::string::npos) text += ".0";
    return text;
}

// The text of an IntLiteral, FloatLiteral or BoolLiteral.
std::string literal_text(const Expr& e) {
    if (e.kind == Expr::Kind::IntLiteral) return std::to_string(e.int_value);
    if (e.kind == Expr::Kind::FloatLiteral) return float_literal_text(e);
    return e.bool_value ? "true" : "false";
}

Precedence precedence(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral:
    case Expr::Kind::FloatLiteral:
        // A negative literal (folded by a pass) reads back as unary minus.
        return literal_text(e).starts_with('-') ? kUnary : kPrimary;
    case Expr::Kind::BoolLiteral:
    case Expr::Kind::Var:
    case Expr::Kind::Call: return kPrimary;
    case Expr::Kind::Unary: return kUnary;
    case Expr::Kind::Binary: return binary_precedence(e.op);
    }
    return kPrimary;
}

std::string join_exprs(const std::vector<ExprPtr>& exprs) {
    std::string out;
    for (const ExprPtr& e : exprs) out += (out.empty() ? "" : ", ") + print_expr(*e);
    return out;
}

std::string dimension_groups(const std::vector<std::vector<ExprPtr>>& groups) {
    std::string out;
    // Appended piece by piece: GCC 12 at -O3 takes `"[" + temporary` for an
    // overlapping copy (a false -Wrestrict).
    for (const auto& group : groups) {
        out += '[';
        out += join_exprs(group);
        out += ']';
    }
    return out;
}

// Prints an operand, parenthesised when it binds more loosely than its
// position allows. A prefix operator needs no parentheses on the right of a
// binary operator: the parser takes it wherever an operand starts (`a ^ -b`,
// `a * -b`), and its own operand stops at anything looser than unary.
std::string operand(const Expr& e, Precedence weakest_allowed, bool right_of_operator) {
    Precedence p = precedence(e);
    bool fits = p >= weakest_allowed || (right_of_operator && p == kUnary);
    std::string text = print_expr(e);
    return fits ? text : "(" + text + ")";
}

std::string unary_text(const Expr& e) {
    std::string inner = operand(*e.args.at(0), kUnary, false);
    // `--` is the decrement token: negating a negation needs a space.
    bool separate = e.op == "-" && inner.starts_with('-');
    return e.op + (separate ? " " : "") + inner;
}

std::string binary_text(const Expr& e) {
    Precedence p = binary_precedence(e.op);
    // Left-associative operators keep an equal-precedence operand on the left
    // unparenthesised; `^` groups to the right, so the roles swap.
    bool right_assoc = p == kPower;
    Precedence left_min = right_assoc ? Precedence(p + 1) : p;
    Precedence right_min = right_assoc ? p : Precedence(p + 1);
    return operand(*e.args.at(0), left_min, false) + " " + e.op + " " +
           operand(*e.args.at(1), right_min, true);
}

std::string basic_decl_text(const BasicDecl& b) { return print_type(b.type) + " " + b.name; }

// True when a statement, printed without braces, ends in an `if` with no
// `else`: an `else` written after it would attach to that inner `if`.
bool ends_in_open_if(const Stmt& s) {
    switch (s.kind) {
    case Stmt::Kind::If: return !s.else_branch || ends_in_open_if(*s.else_branch);
    case Stmt::Kind::For:
    case Stmt::Kind::Foreach: return ends_in_open_if(*s.loop_body);
    default: return false;
    }
}

class ModulePrinter {
public:
    std::string print(const Module& m) {
        if (!m.package.empty()) out_ += "package " + dotted(m.package) + ";\n";
        out_ += "module " + m.name + ";\n";
        if (!m.exports.empty()) {
            std::string names;
            for (const auto& exported : m.exports) names += (names.empty() ? "" : ", ") + exported.first;
            out_ += "export " + names + ";\n";
        }
        for (const Import& i : m.imports) out_ += "import " + i.str() + ";\n";
        // Constants read best as one group, like a table.
        if (!m.constants.empty()) out_ += "\n";
        for (const auto& c : m.constants) out_ += print_decl(*c) + ";\n";
        for (const auto& r : m.records) record(*r);
        for (const auto& f : m.functions) function(*f);
        return std::move(out_);
    }

private:
    static std::string dotted(const std::vector<std::string>& parts) {
        std::string out;
        for (const std::string& p : parts) out += (out.empty() ? "" : ".") + p;
        return out;
    }

    void record(const RecordType& r) {
        out_ += "\ntype " + r.name + " {\n";
        for (const auto& field : r.fields) out_ += "    " + print_decl(*field) + ";\n";
        out_ += "}\n";
    }

    void function(const Function& f) {
        std::string params;
        for (const auto& p : f.params) params += (params.empty() ? "" : ", ") + print_decl(*p);
        out_ += "\n" + f.hardware + " " + print_type(f.return_type) + " " + f.name + "(" + params + ") {\n";
        block_contents(*f.body);
        out_ += "}\n";
    }

    void indent() { out_.append(4 * depth_, ' '); }

    void nested(const Stmt& s) {
        ++depth_;
        statement(s);
        --depth_;
    }

    void block_contents(const Stmt& block) {
        for (const StmtPtr& s : block.body) nested(*s);
    }

    // Writes `header` (the indentation is already written) and the statement
    // it controls. Returns true when the line is left open after a closing
    // brace, so that `else` can follow on the same line.
    bool controlled(const std::string& header, const Stmt& body, bool force_braces = false) {
        out_ += header;
        bool is_block = body.kind == Stmt::Kind::Block;
        if (!is_block && !force_braces) {
            out_ += "\n";
            nested(body);
            return false;
        }
        out_ += " {\n";
        if (is_block) {
            block_contents(body);
        } else {
            nested(body);
        }
        indent();
        out_ += "}";
        return true;
    }

    static std::string update_text(const Stmt& s) {
        if (s.kind == Stmt::Kind::Step) return print_expr(*s.target) + s.op;
        return print_expr(*s.target) + " " + s.op + " " + print_expr(*s.value);
    }

    // An `if` and its `else` chain; the indentation (or `} else `) is written.
    void if_chain(const Stmt& s) {
        bool dangling = s.else_branch && s.then_branch->kind != Stmt::Kind::Block &&
                        ends_in_open_if(*s.then_branch);
        bool open = controlled("if (" + print_expr(*s.condition) + ")", *s.then_branch, dangling);
        if (s.else_branch) {
            if (open) {
                out_ += " ";
            } else {
                indent();
            }
            if (s.else_branch->kind == Stmt::Kind::If) {
                out_ += "else ";
                if_chain(*s.else_branch);
                return;
            }
            open = controlled("else", *s.else_branch);
        }
        if (open) out_ += "\n";
    }

    void statement(const Stmt& s) {
        indent();
        switch (s.kind) {
        case Stmt::Kind::Block:
            out_ += "{\n";
            block_contents(s);
            indent();
            out_ += "}\n";
            return;
        case Stmt::Kind::Decl: out_ += print_decl(*s.decl) + ";\n"; return;
        case Stmt::Kind::Assign:
        case Stmt::Kind::Step: out_ += update_text(s) + ";\n"; return;
        case Stmt::Kind::Swap: out_ += print_expr(*s.target) + " <=> " + print_expr(*s.value) + ";\n"; return;
        case Stmt::Kind::Call: out_ += print_expr(*s.call) + ";\n"; return;
        case Stmt::Kind::Return:
            out_ += s.value ? "return " + print_expr(*s.value) + ";\n" : "return;\n";
            return;
        case Stmt::Kind::If: if_chain(s); return;
        case Stmt::Kind::For: {
            std::string header = "for (" + print_decl(*s.decl) + "; " + print_expr(*s.condition) + "; " +
                                 update_text(*s.step) + ")";
            if (controlled(header, *s.loop_body)) out_ += "\n";
            return;
        }
        case Stmt::Kind::Foreach: {
            std::string header =
                "foreach (int " + s.decl->name() + " in " + print_expr(*s.count) + " " + s.name + ")";
            if (controlled(header, *s.loop_body)) out_ += "\n";
            return;
        }
        case Stmt::Kind::Barrier: out_ += "barrier(" + s.name + ");\n"; return;
        case Stmt::Kind::As:
            out_ += print_expr(*s.target);
            for (const BasicDecl& v : s.views) out_ += " as " + basic_decl_text(v);
            out_ += ";\n";
            return;
        }
    }

    std::string out_;
    size_t depth_ = 0;
};

}  // namespace

std::string print_type(const TypeExpr& t) {
    return (t.primitive ? primitive_name(*t.primitive) : t.record_name) + dimension_groups(t.dimensions);
}

std::string print_expr(const Expr& e) {
    switch (e.kind) {
    case Expr::Kind::IntLiteral:
    case Expr::Kind::FloatLiteral:
    case Expr::Kind::BoolLiteral: return literal_text(e);
    case Expr::Kind::Var: {
        std::string out;
        for (const VarPart& part : e.var)
            out += (out.empty() ? "" : ".") + part.name + dimension_groups(part.indices);
        return out;
    }
    case Expr::Kind::Call: return e.callee + "(" + join_exprs(e.args) + ")";
    case Expr::Kind::Unary: return unary_text(e);
    case Expr::Kind::Binary: return binary_text(e);
    }
    return {};
}

std::string print_decl(const Decl& d) {
    std::string out = d.is_const ? "const " : "";
    for (const std::string& space : d.memory_spaces) out += space + " ";
    for (size_t i = 0; i < d.forms.size(); ++i) out += (i ? " as " : "") + basic_decl_text(d.forms[i]);
    if (d.init) out += " = " + print_expr(*d.init);
    return out;
}

std::string print_module(const Module& m) { return ModulePrinter().print(m); }

}  // namespace mcl::mcpl
