#include "compiler/ast/Ast.h"

#include <algorithm>

#include "compiler/ast/ConstantValue.h"

namespace mcl::mcpl {

const char* primitive_name(Primitive p) {
    switch (p) {
    case Primitive::Void: return "void";
    case Primitive::Int: return "int";
    case Primitive::Float: return "float";
    case Primitive::Double: return "double";
    case Primitive::Byte: return "byte";
    case Primitive::Bool: return "bool";
    }
    return "?";
}

int numeric_rank(Primitive p) {
    switch (p) {
    case Primitive::Byte: return 1;
    case Primitive::Int: return 2;
    case Primitive::Float: return 3;
    case Primitive::Double: return 4;
    default: return 0;
    }
}

bool is_comparison(const std::string& op) {
    return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
}

bool Type::is_numeric() const {
    return !is_array() && primitive &&
           (*primitive == Primitive::Int || *primitive == Primitive::Float ||
            *primitive == Primitive::Double || *primitive == Primitive::Byte);
}

Type Type::element() const {
    Type t = *this;
    t.group_count = 0;
    t.group_ranks.clear();
    return t;
}

std::string Type::str() const {
    std::string s = primitive ? primitive_name(*primitive) : record ? record->name : "<invalid>";
    for (size_t rank : group_ranks) {
        s += '[';
        for (size_t i = 1; i < rank; ++i) s += ',';
        s += ']';
    }
    return s;
}

namespace {

struct ElementLayout {
    int64_t size = 0;  // 0: unknown
    int64_t alignment = 1;
};

int64_t round_up(int64_t bytes, int64_t alignment) { return (bytes + alignment - 1) / alignment * alignment; }

// C's layout, which every backend's compiler (and LLVM's for the llvm
// backends) gives the records they print as structs.
ElementLayout element_layout(const Type& t) {
    if (t.record) {
        ElementLayout out;
        for (const auto& field : t.record->fields) {
            const BasicDecl& form = field->forms.back();
            ElementLayout element = element_layout(form.resolved_type);
            int64_t bytes = 0;
            if (__builtin_mul_overflow(element.size, record_field_element_count(form), &bytes) || bytes == 0) return {};
            out.size = round_up(out.size, element.alignment) + bytes;
            out.alignment = std::max(out.alignment, element.alignment);
        }
        out.size = round_up(out.size, out.alignment);
        return out;
    }
    if (!t.primitive) return {};
    switch (*t.primitive) {
    case Primitive::Int:
    case Primitive::Float: return {4, 4};
    case Primitive::Double: return {8, 8};
    case Primitive::Byte:
    case Primitive::Bool: return {1, 1};
    case Primitive::Void: return {};
    }
    return {};
}

}  // namespace

int64_t element_byte_size(const Type& t) { return element_layout(t).size; }

bool operator==(const Type& a, const Type& b) {
    return a.primitive == b.primitive && a.record == b.record && a.group_ranks == b.group_ranks;
}

namespace {
std::vector<std::vector<ExprPtr>> clone_groups(const std::vector<std::vector<ExprPtr>>& groups) {
    std::vector<std::vector<ExprPtr>> out;
    for (const auto& g : groups) {
        std::vector<ExprPtr> copy;
        for (const ExprPtr& e : g) copy.push_back(e->clone());
        out.push_back(std::move(copy));
    }
    return out;
}

template <typename T>
std::unique_ptr<T> clone_or_null(const std::unique_ptr<T>& p) {
    return p ? p->clone() : nullptr;
}
}  // namespace

TypeExpr TypeExpr::clone() const {
    TypeExpr t;
    t.primitive = primitive;
    t.record_name = record_name;
    t.dimensions = clone_groups(dimensions);
    t.location = location;
    return t;
}

static BasicDecl clone_basic(const BasicDecl& b) {
    BasicDecl c;
    c.type = b.type.clone();
    c.name = b.name;
    c.location = b.location;
    c.resolved_type = b.resolved_type;
    return c;
}

std::unique_ptr<Decl> Decl::clone() const {
    auto d = std::make_unique<Decl>();
    d->memory_spaces = memory_spaces;
    d->memory_space_locations = memory_space_locations;
    d->is_const = is_const;
    for (const BasicDecl& f : forms) d->forms.push_back(clone_basic(f));
    d->init = clone_or_null(init);
    d->location = location;
    d->memory_space = memory_space;
    d->is_read = is_read;
    d->is_written = is_written;
    return d;
}

ExprPtr Expr::clone() const {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->location = location;
    e->int_value = int_value;
    e->float_value = float_value;
    e->spelling = spelling;
    e->bool_value = bool_value;
    for (const VarPart& p : var) e->var.push_back(VarPart{p.name, clone_groups(p.indices), p.location});
    e->callee = callee;
    for (const ExprPtr& a : args) e->args.push_back(a->clone());
    e->op = op;
    e->type = type;
    e->decl = decl;
    e->form = form;
    e->function = function;
    e->hardware = hardware;
    return e;
}

StmtPtr Stmt::clone() const {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->location = location;
    for (const StmtPtr& b : body) s->body.push_back(b->clone());
    s->decl = clone_or_null(decl);
    s->target = clone_or_null(target);
    s->op = op;
    s->value = clone_or_null(value);
    s->call = clone_or_null(call);
    s->condition = clone_or_null(condition);
    s->then_branch = clone_or_null(then_branch);
    s->else_branch = clone_or_null(else_branch);
    s->step = clone_or_null(step);
    s->loop_body = clone_or_null(loop_body);
    s->count = clone_or_null(count);
    s->name = name;
    s->name_location = name_location;
    for (const BasicDecl& v : views) s->views.push_back(clone_basic(v));
    return s;
}

const Decl* RecordType::field(const std::string& field_name) const {
    for (const auto& f : fields)
        if (f->name() == field_name) return f.get();
    return nullptr;
}

std::string Import::str() const {
    std::string s;
    for (const std::string& p : path) s += (s.empty() ? "" : ".") + p;
    return s;
}

bool Module::exports_name(const std::string& n) const {
    return std::any_of(exports.begin(), exports.end(), [&](const auto& e) { return e.first == n; });
}

}  // namespace mcl::mcpl
