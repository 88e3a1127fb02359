#include "compiler/ast/AstJson.h"

#include "compiler/print/PrintMcpl.h"

namespace mcl::mcpl {

namespace {

using nlohmann::json;

const char* expr_kind_name(Expr::Kind k) {
    switch (k) {
    case Expr::Kind::IntLiteral: return "int";
    case Expr::Kind::FloatLiteral: return "float";
    case Expr::Kind::BoolLiteral: return "bool";
    case Expr::Kind::Var: return "var";
    case Expr::Kind::Call: return "call";
    case Expr::Kind::Unary: return "unary";
    case Expr::Kind::Binary: return "binary";
    }
    return "?";
}

const char* stmt_kind_name(Stmt::Kind k) {
    switch (k) {
    case Stmt::Kind::Block: return "block";
    case Stmt::Kind::Decl: return "decl";
    case Stmt::Kind::Assign: return "assign";
    case Stmt::Kind::Step: return "step";
    case Stmt::Kind::Swap: return "swap";
    case Stmt::Kind::Call: return "call";
    case Stmt::Kind::Return: return "return";
    case Stmt::Kind::If: return "if";
    case Stmt::Kind::For: return "for";
    case Stmt::Kind::Foreach: return "foreach";
    case Stmt::Kind::Barrier: return "barrier";
    case Stmt::Kind::As: return "as";
    }
    return "?";
}

// The checker leaves every function and record pointing at its module, and
// every constant with a resolved type; an unchecked AST has none of these.
bool is_checked(const Module& m) {
    for (const auto& f : m.functions)
        if (f->module) return true;
    for (const auto& r : m.records)
        if (r->module) return true;
    for (const auto& c : m.constants)
        if (c->forms.back().resolved_type.valid()) return true;
    return false;
}

class JsonWriter {
public:
    JsonWriter(const Module& m, const SourceManager& sources)
        : sources_(sources), file_(m.file), checked_(is_checked(m)) {}

    json module(const Module& m) const {
        json j{{"kind", "module"}, {"file", sources_.path(m.file)}, {"name", m.name}, {"checked", checked_}};
        located(j, m.location);
        if (!m.package.empty()) {
            j["package"] = m.package;
            if (m.package_location.valid()) j["package_loc"] = loc(m.package_location);
        }
        j["exports"] = json::array();
        for (const auto& [name, location] : m.exports) j["exports"].push_back(named(name, location));
        j["imports"] = json::array();
        for (const Import& i : m.imports) j["imports"].push_back(named(i.str(), i.location));
        j["constants"] = json::array();
        for (const auto& c : m.constants) j["constants"].push_back(decl(*c));
        j["records"] = json::array();
        for (const auto& r : m.records) j["records"].push_back(record(*r));
        j["functions"] = json::array();
        for (const auto& f : m.functions) j["functions"].push_back(function(*f));
        return j;
    }

private:
    static json loc(SourceLocation l) { return json::array({l.line, l.column}); }

    // Nodes that a pass made have no location; they get no "loc".
    static void located(json& j, SourceLocation l) {
        if (l.valid()) j["loc"] = loc(l);
    }

    // A name and where it is; another file's path is written out.
    json named(const std::string& name, SourceLocation l) const {
        json j{{"name", name}};
        located(j, l);
        if (l.valid() && l.file != file_) j["file"] = sources_.path(l.file);
        return j;
    }

    json record(const RecordType& r) const {
        json j{{"kind", "record"}, {"name", r.name}, {"fields", json::array()}};
        located(j, r.location);
        for (const auto& f : r.fields) j["fields"].push_back(decl(*f));
        return j;
    }

    json function(const Function& f) const {
        json j{{"kind", "function"}, {"hardware", f.hardware}, {"return_type", print_type(f.return_type)},
               {"name", f.name}, {"params", json::array()}};
        located(j, f.location);
        if (f.hardware_location.valid()) j["hardware_loc"] = loc(f.hardware_location);
        for (const auto& p : f.params) j["params"].push_back(decl(*p));
        j["body"] = stmt(*f.body);
        if (checked_) {
            j["resolved_return_type"] = f.resolved_return_type.str();
            j["builtin_body"] = f.builtin_body;
            json reads = json::array(), writes = json::array();
            for (const auto& p : f.params) {
                if (p->is_read) reads.push_back(p->name());
                if (p->is_written) writes.push_back(p->name());
            }
            j["reads"] = reads;
            j["writes"] = writes;
        }
        return j;
    }

    json basic_decl(const BasicDecl& b) const {
        json j{{"name", b.name}, {"type", print_type(b.type)}};
        located(j, b.location);
        if (b.resolved_type.valid()) j["resolved_type"] = b.resolved_type.str();
        return j;
    }

    json decl(const Decl& d) const {
        json j{{"kind", "decl"}, {"forms", json::array()}};
        located(j, d.location);
        if (d.is_const) j["const"] = true;
        if (!d.memory_spaces.empty()) j["memory_spaces"] = d.memory_spaces;
        for (const BasicDecl& f : d.forms) j["forms"].push_back(basic_decl(f));
        if (d.init) j["init"] = expr(*d.init);
        if (checked_) {
            if (!d.memory_space.empty()) j["memory_space"] = d.memory_space;
            j["read"] = d.is_read;
            j["written"] = d.is_written;
        }
        return j;
    }

    json groups(const std::vector<std::vector<ExprPtr>>& gs) const {
        json j = json::array();
        for (const auto& g : gs) j.push_back(exprs(g));
        return j;
    }

    json exprs(const std::vector<ExprPtr>& es) const {
        json j = json::array();
        for (const ExprPtr& e : es) j.push_back(expr(*e));
        return j;
    }

    json expr(const Expr& e) const {
        json j{{"kind", expr_kind_name(e.kind)}};
        located(j, e.location);
        switch (e.kind) {
        case Expr::Kind::IntLiteral: j["value"] = e.int_value; break;
        case Expr::Kind::FloatLiteral:
            j["value"] = e.float_value;
            j["spelling"] = e.spelling;
            break;
        case Expr::Kind::BoolLiteral: j["value"] = e.bool_value; break;
        case Expr::Kind::Var: {
            json parts = json::array();
            for (const VarPart& p : e.var) {
                json part = named(p.name, p.location);
                if (!p.indices.empty()) part["indices"] = groups(p.indices);
                parts.push_back(part);
            }
            j["parts"] = parts;
            if (e.decl) {
                // The form names the `as` view the variable was used through.
                const BasicDecl& form = e.form ? *e.form : e.decl->forms.back();
                j["declaration"] = named(form.name, form.location);
            }
            if (e.hardware)
                j["hardware"] = {{"description", e.hardware->description},
                                 {"path", e.hardware->path},
                                 {"value", e.hardware->value}};
            break;
        }
        case Expr::Kind::Call:
            j["callee"] = e.callee;
            j["args"] = exprs(e.args);
            if (checked_) j["target"] = e.function ? call_target(*e.function) : json("builtin");
            break;
        case Expr::Kind::Unary:
        case Expr::Kind::Binary:
            j["op"] = e.op;
            j["args"] = exprs(e.args);
            break;
        }
        if (e.type.valid()) j["type"] = e.type.str();
        return j;
    }

    json call_target(const Function& f) const {
        json j = named(f.name, f.location);
        if (f.module) j["module"] = f.module->name;
        return j;
    }

    json stmt(const Stmt& s) const {
        json j{{"kind", stmt_kind_name(s.kind)}};
        located(j, s.location);
        switch (s.kind) {
        case Stmt::Kind::Block:
            j["body"] = json::array();
            for (const StmtPtr& b : s.body) j["body"].push_back(stmt(*b));
            break;
        case Stmt::Kind::Decl: j["decl"] = decl(*s.decl); break;
        case Stmt::Kind::Assign:
        case Stmt::Kind::Step:
            j["target"] = expr(*s.target);
            j["op"] = s.op;
            if (s.value) j["value"] = expr(*s.value);
            break;
        case Stmt::Kind::Swap:
            j["target"] = expr(*s.target);
            j["value"] = expr(*s.value);
            break;
        case Stmt::Kind::Call: j["call"] = expr(*s.call); break;
        case Stmt::Kind::Return:
            if (s.value) j["value"] = expr(*s.value);
            break;
        case Stmt::Kind::If:
            j["condition"] = expr(*s.condition);
            j["then"] = stmt(*s.then_branch);
            if (s.else_branch) j["else"] = stmt(*s.else_branch);
            break;
        case Stmt::Kind::For:
            j["decl"] = decl(*s.decl);
            j["condition"] = expr(*s.condition);
            j["step"] = stmt(*s.step);
            j["body"] = stmt(*s.loop_body);
            break;
        case Stmt::Kind::Foreach:
            j["index"] = decl(*s.decl);
            j["count"] = expr(*s.count);
            j["par_group"] = named(s.name, s.name_location);
            j["body"] = stmt(*s.loop_body);
            break;
        case Stmt::Kind::Barrier: j["memory_space"] = named(s.name, s.name_location); break;
        case Stmt::Kind::As:
            j["target"] = expr(*s.target);
            j["views"] = json::array();
            for (const BasicDecl& v : s.views) j["views"].push_back(basic_decl(v));
            break;
        }
        return j;
    }

    const SourceManager& sources_;
    uint32_t file_;
    bool checked_;
};

}  // namespace

nlohmann::json module_to_json(const Module& m, const SourceManager& sources) {
    return JsonWriter(m, sources).module(m);
}

}  // namespace mcl::mcpl
