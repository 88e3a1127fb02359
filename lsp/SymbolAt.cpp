#include "lsp/SymbolAt.h"

#include <map>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::lsp {

namespace {

using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Stmt;

// Walks the whole module once: it records what each declaration is and
// keeps the name under the position.
class Finder {
public:
    explicit Finder(SourceLocation position) : position_(position) {}

    std::optional<SymbolAt> find(const mcpl::Module& module) {
        for (const mcpl::Import& imp : module.imports)
            consider(SymbolAt{
                .kind = SymbolAt::Kind::Import, .location = imp.location, .name = imp.str(), .import = &imp});
        for (const auto& [name, loc] : module.exports)
            consider(SymbolAt{.kind = SymbolAt::Kind::Export, .location = loc, .name = name});
        for (const auto& c : module.constants) declaration(*c, "constant", nullptr);
        for (const auto& record : module.records)
            for (const auto& field : record->fields)
                declaration(*field, fmt::format("field of record `{}`", record->name), nullptr);
        for (const auto& f : module.functions) function(*f);
        if (found_ && found_->decl) {
            auto role = roles_.find(found_->decl);
            if (role != roles_.end()) found_->role = role->second;
        }
        return found_;
    }

private:
    void consider(SymbolAt candidate) {
        candidate.length = static_cast<uint32_t>(candidate.name.size());
        const SourceLocation& at = candidate.location;
        if (found_ || at.file != position_.file || at.line != position_.line) return;
        if (position_.column >= at.column && position_.column < at.column + candidate.length)
            found_ = std::move(candidate);
    }

    void function(const Function& f) {
        consider(SymbolAt{.kind = SymbolAt::Kind::HardwareName,
                          .location = f.hardware_location,
                          .name = f.hardware,
                          .function = &f});
        consider(SymbolAt{
            .kind = SymbolAt::Kind::FunctionName, .location = f.location, .name = f.name, .function = &f});
        for (const auto& p : f.params) declaration(*p, fmt::format("parameter of `{}`", f.name), &f);
        if (!f.body) return;
        mcpl::for_each_stmt(*f.body, [&](const Stmt& s) { statement(s, f); });
    }

    void statement(const Stmt& s, const Function& f) {
        if (s.decl) {
            std::string role = s.kind == Stmt::Kind::Foreach ? fmt::format("index of a foreach over `{}`", s.name)
                               : s.kind == Stmt::Kind::For   ? std::string("loop variable")
                                                             : std::string("local variable");
            declaration(*s.decl, role, &f, /*with_types=*/false);
        }
        for (const mcpl::BasicDecl& view : s.views) {
            record_type(view, &f);
            consider(SymbolAt{.kind = SymbolAt::Kind::Declaration,
                              .location = view.location,
                              .name = view.name,
                              .form = &view,
                              .function = &f});
        }
        mcpl::for_each_own_expr(s, [&](const Expr& e) { expression(e, &f); });
    }

    // `with_types`: the extents in the declared types are walked here;
    // a statement's own expressions already include them.
    void declaration(const Decl& d, std::string role, const Function* f, bool with_types = true) {
        roles_[&d] = role;
        for (const mcpl::BasicDecl& form : d.forms) {
            record_type(form, f);
            consider(SymbolAt{.kind = SymbolAt::Kind::Declaration,
                              .location = form.location,
                              .name = form.name,
                              .decl = &d,
                              .form = &form,
                              .function = f});
            if (with_types)
                for (const auto& group : form.type.dimensions)
                    for (const mcpl::ExprPtr& extent : group) expression(*extent, f);
        }
        if (with_types && d.init) expression(*d.init, f);
    }

    void record_type(const mcpl::BasicDecl& form, const Function* f) {
        if (form.type.primitive) return;
        consider(SymbolAt{.kind = SymbolAt::Kind::RecordType,
                          .location = form.type.location,
                          .name = form.type.record_name,
                          .function = f,
                          .record = form.resolved_type.record});
    }

    void expression(const Expr& e, const Function* f) {
        mcpl::for_each_var(e, [&](const Expr& var) {
            if (var.var.empty()) return;
            consider(SymbolAt{.kind = SymbolAt::Kind::VariableUse,
                              .location = var.var.front().location,
                              .name = var.var.front().name,
                              .expr = &var,
                              .decl = var.decl,
                              .form = var.form,
                              .function = f});
        });
        mcpl::for_each_call(e, [&](const Expr& call) {
            consider(SymbolAt{.kind = SymbolAt::Kind::Call,
                              .location = call.location,
                              .name = call.callee,
                              .expr = &call,
                              .function = f});
        });
    }

    SourceLocation position_;
    std::optional<SymbolAt> found_;
    std::map<const Decl*, std::string> roles_;
};

}  // namespace

std::optional<SymbolAt> symbol_at(const mcpl::Module& module, SourceLocation position) {
    return Finder(position).find(module);
}

}  // namespace mcl::lsp
