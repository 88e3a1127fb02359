#include "compiler/sema/ResolveNames.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "support/Spelling.h"

namespace mcl::mcpl {

namespace {

constexpr const char* kBuiltinRead = "mcl_builtin_read";
constexpr const char* kBuiltinWrite = "mcl_builtin_write";

struct BuiltinFunction {
    const char* name;
    size_t arity;
};
constexpr BuiltinFunction kBuiltins[] = {
    {"toFloat", 1}, {"toDouble", 1}, {"toInt", 1}, {"min", 2}, {"max", 2}, {"divide_up", 2},
};

Type primitive_type(Primitive p) {
    Type t;
    t.primitive = p;
    return t;
}

bool is_integral(const Type& t) {
    return !t.is_array() && t.primitive &&
           (*t.primitive == Primitive::Int || *t.primitive == Primitive::Byte);
}

bool is_condition(const Type& t) {
    return !t.is_array() && t.primitive && (*t.primitive == Primitive::Bool || is_integral(t));
}

// The result of arithmetic on two numbers: the wider of the two.
Type promote(const Type& a, const Type& b) {
    return numeric_rank(*a.primitive) >= numeric_rank(*b.primitive) ? a.element() : b.element();
}

// Whether a value of type `from` may be stored in / passed as `to`.
bool assignable(const Type& to, const Type& from) {
    if (to.is_array() || from.is_array()) {
        return to.primitive == from.primitive && to.record == from.record &&
               to.group_ranks == from.group_ranks;
    }
    if (to.is_numeric() && from.is_numeric()) return true;
    return to == from;
}

// Whether `e` is a float written with literals only and no `f` suffix
// (`0.1`, `-0.5`, `1.0 / 3`): a value whose precision its context decides.
bool is_unsuffixed_float_constant(const Expr& e) {
    if (e.type.is_array() || e.type.primitive != Primitive::Float) return false;
    auto operand = [](const Expr& x) { return x.kind == Expr::Kind::IntLiteral || is_unsuffixed_float_constant(x); };
    switch (e.kind) {
    case Expr::Kind::FloatLiteral: return !e.spelling.empty() && e.spelling.find_first_of("fF") == std::string::npos;
    case Expr::Kind::Unary: return e.op == "-" && is_unsuffixed_float_constant(*e.args[0]);
    case Expr::Kind::Binary:
        return (e.op == "+" || e.op == "-" || e.op == "*" || e.op == "/") && operand(*e.args[0]) &&
               operand(*e.args[1]);
    default: return false;
    }
}

// A float literal's value is its spelling rounded once to its type, as C
// compilers round `0.1f` and `0.1`: rounding to a double first and then to a
// float is wrong for a spelling just past halfway between two floats
// (1.00000005960464477540 is 1 + 2^-23 as a float, but 1 through the double
// 1 + 2^-24). Literals made by passes have no spelling and keep their value.
// One past its type's range keeps its value too: name resolution refuses it.
template <typename Number>
void round_literal_once(Expr& literal) {
    Number value{};
    const std::string& text = literal.spelling;
    if (std::from_chars(text.data(), text.data() + text.size(), value).ec == std::errc())
        literal.float_value = static_cast<double>(value);
}

void make_double(Expr& e) {
    e.type.primitive = Primitive::Double;
    if (e.kind == Expr::Kind::FloatLiteral) round_literal_once<double>(e);
    for (ExprPtr& a : e.args)
        if (a->kind != Expr::Kind::IntLiteral) make_double(*a);
}

// An unsuffixed float constant where a double is wanted (a double's
// initializer or assigned value, a double argument or return value, the
// other operand of a double, toDouble's argument) is a double, as in C:
// `double d = 0.1` holds the double nearest 0.1, not the float nearest it.
// Next to a float (`x * 0.1`) it stays a float, and `0.1f` is always one.
void adapt_to(Expr& e, const Type& wanted) {
    if (!wanted.is_array() && wanted.primitive == Primitive::Double && is_unsuffixed_float_constant(e))
        make_double(e);
}

// What is wrong with a float literal's value in its type, if anything: C
// compilers refuse one that rounds past the type's range (for a float from
// half an ulp above FLT_MAX = 3.4028235e38 on), and one that rounds to zero
// is a typo. `beside_float`: the literal is a float because it stands
// beside a float operand, so the message says how to make it a double when
// a double would hold it.
std::optional<std::string> float_literal_range_problem(const Expr& e, bool beside_float) {
    double value = 0;
    bool out_of_doubles =
        std::from_chars(e.spelling.data(), e.spelling.data() + e.spelling.size(), value).ec ==
        std::errc::result_out_of_range;
    bool negative_exponent = e.spelling.find("e-") != std::string::npos || e.spelling.find("E-") != std::string::npos;
    bool is_double = e.type.primitive == Primitive::Double;
    double magnitude = out_of_doubles ? (negative_exponent ? 0.0 : HUGE_VAL) : std::fabs(value);
    double rounds_to_infinity = is_double ? HUGE_VAL : std::ldexp(2.0 - std::ldexp(1.0, -24), 127);
    double largest = is_double ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
    double smallest = is_double ? std::numeric_limits<double>::denorm_min()
                                : static_cast<double>(std::numeric_limits<float>::denorm_min());
    // the limits as the type prints them (3.4028235e+38, not 3.4028234663852886e+38)
    auto text = [&](double limit) {
        return is_double ? fmt::format("{}", limit) : fmt::format("{}", static_cast<float>(limit));
    };
    const char* type = is_double ? "double" : "float";
    bool fits_double = !out_of_doubles && !(magnitude > 0 && magnitude < std::numeric_limits<double>::denorm_min() / 2);
    std::string hint = beside_float && !is_double && fits_double
                           ? "; beside a float operand a literal is a float: make that operand a double "
                             "(toDouble) to keep the literal a double"
                           : "";
    if (magnitude >= rounds_to_infinity)
        return fmt::format("floating literal '{}' is too large for a {} (at most {}){}", e.spelling, type, text(largest),
                           hint);
    bool rounds_to_zero = (out_of_doubles && negative_exponent) || (magnitude > 0 && magnitude < smallest / 2);
    if (rounds_to_zero)
        return fmt::format("floating literal '{}' is too small for a {}: it would be 0 (the smallest is {}){}",
                           e.spelling, type, text(smallest), hint);
    return std::nullopt;
}

// Everything a name can denote.
struct Symbol {
    enum class Kind { Variable, Function, Record };
    Kind kind = Kind::Variable;
    const Decl* decl = nullptr;
    const BasicDecl* form = nullptr;
    const Function* function = nullptr;
    const RecordType* record = nullptr;
    SourceLocation location;
};

class Scope {
public:
    explicit Scope(const Scope* parent) : parent_(parent) {}
    const Symbol* find(const std::string& name) const {
        for (const Scope* s = this; s; s = s->parent_) {
            auto it = s->symbols_.find(name);
            if (it != s->symbols_.end()) return &it->second;
        }
        return nullptr;
    }
    const Symbol* find_local(const std::string& name) const {
        auto it = symbols_.find(name);
        return it == symbols_.end() ? nullptr : &it->second;
    }
    void add(const std::string& name, Symbol s) { symbols_[name] = s; }
    std::vector<std::string> visible_names() const {
        std::vector<std::string> out;
        for (const Scope* s = this; s; s = s->parent_)
            for (const auto& [n, sym] : s->symbols_) out.push_back(n);
        return out;
    }

private:
    const Scope* parent_;
    std::map<std::string, Symbol> symbols_;
};

class NameResolver {
public:
    NameResolver(Program& p, const hdl::HardwareLibrary& lib, DiagnosticEngine& diags)
        : program_(p), library_(lib), diags_(diags) {}

    // Every record, constant and function signature of every module is
    // resolved before any function body is checked: a call's type is its
    // callee's return type, and its arguments are checked against the
    // callee's parameters, wherever the callee is defined (later in the
    // module, or in a module that program_.modules lists after the one
    // importing it).
    void run() {
        for (auto& m : program_.modules) declare_module(*m);
        for (auto& m : program_.modules) build_module_scope(*m);
        // imported modules (listed after their importers) first, so that
        // a constant's initializer sees the types of imported constants
        for (auto m = program_.modules.rbegin(); m != program_.modules.rend(); ++m) check_declarations(**m);
        for (auto& m : program_.modules) {
            enter_module(*m);
            for (auto& f : m->functions) check_function_body(*f);
        }
        check_float_literal_ranges();
        if (!diags_.has_errors()) report_untyped_expressions();
    }

    // Every float literal's value fits its type, which is known only now
    // (a literal is a double where a double is wanted).
    void check_float_literal_ranges() {
        for_each_expression_tree(/*with_constants=*/true, [&](const Expr& top) {
            // Worked out only for a tree with a literal out of range.
            std::optional<std::set<const Expr*>> beside_float;
            for_each_expr(top, [&](const Expr& e) {
                if (e.kind != Expr::Kind::FloatLiteral || !e.type.valid() || !float_literal_range_problem(e, false))
                    return;
                if (!beside_float) beside_float = literals_beside_floats(top);
                diags_.error(e.location, *float_literal_range_problem(e, beside_float->count(&e) != 0));
            });
        });
    }

    // The float literals of `top` that are floats only because an operand
    // beside them is a float (`d = x * 1e300` with a float x): in an
    // unsuffixed float constant that is an operand of arithmetic, a
    // comparison, min or max whose other operand is not one.
    static std::set<const Expr*> literals_beside_floats(const Expr& top) {
        std::set<const Expr*> out;
        for_each_expr(top, [&](const Expr& e) {
            bool paired = e.args.size() == 2 && (e.kind == Expr::Kind::Binary ||
                                                 (e.kind == Expr::Kind::Call && (e.callee == "min" || e.callee == "max")));
            if (!paired) return;
            for (int side = 0; side < 2; ++side) {
                const Expr& constant = *e.args[side];
                const Expr& other = *e.args[1 - side];
                if (!is_unsuffixed_float_constant(constant) || is_unsuffixed_float_constant(other) ||
                    other.type.is_array() || other.type.primitive != Primitive::Float)
                    continue;
                for_each_expr(constant, [&](const Expr& x) {
                    if (x.kind == Expr::Kind::FloatLiteral) out.insert(&x);
                });
            }
        });
        return out;
    }

    // What every later stage builds on (the interpreter's min and max, the
    // backends' conversions): in a program without errors every expression
    // has a type. One without is a bug of this pass, reported as such
    // rather than passed on to compute a wrong result. Constants are left
    // out: one defined through itself has no type, and CheckConstants
    // reports the cycle.
    void report_untyped_expressions() {
        for_each_expression_tree(/*with_constants=*/false, [&](const Expr& top) {
            for_each_expr(top, [&](const Expr& e) {
                if (!e.type.valid())
                    diags_.error(e.location, "internal error: name resolution left this expression without a type");
            });
        });
    }

    // Calls visit on the root of every expression of the program: the
    // extents of parameters, the functions' statements and, when asked,
    // constants' initializers.
    template <typename Visit>
    void for_each_expression_tree(bool with_constants, Visit&& visit) const {
        for (const auto& m : program_.modules) {
            if (with_constants)
                for (const auto& c : m->constants)
                    if (c->init) visit(*c->init);
            for (const auto& f : m->functions) {
                for (const auto& p : f->params)
                    for (const BasicDecl& form : p->forms)
                        for (const auto& group : form.type.dimensions)
                            for (const ExprPtr& extent : group) visit(*extent);
                for_each_stmt(static_cast<const Stmt&>(*f->body),
                              [&](const Stmt& s) { for_each_own_expr(s, visit); });
            }
        }
    }

private:
    // --- module level ---------------------------------------------------

    void declare_module(Module& m) {
        Scope& scope = module_scopes_.try_emplace(&m, nullptr).first->second;
        auto declare = [&](const std::string& name, Symbol s) {
            if (const Symbol* old = scope.find_local(name)) {
                auto& d = diags_.error(s.location, fmt::format("redefinition of '{}'", name));
                DiagnosticEngine::add_note(d, old->location, "previous definition is here");
                return;
            }
            scope.add(name, s);
        };
        for (auto& r : m.records) {
            r->module = &m;
            Symbol s{Symbol::Kind::Record, nullptr, nullptr, nullptr, r.get(), r->location};
            declare(r->name, s);
        }
        for (auto& c : m.constants)
            declare(c->name(), Symbol{Symbol::Kind::Variable, c.get(), &c->forms.back(), nullptr, nullptr,
                                      c->forms.back().location});
        for (auto& f : m.functions) {
            f->module = &m;
            // Translation writes calls of the builtins (divide_up, min, max)
            // by name, and the MCPL it prints is read again: a function of
            // a builtin's name would take those calls.
            if (is_builtin_function(f->name)) {
                diags_.error(f->location, fmt::format("'{}' is a builtin function; a function may not take its name",
                                                      f->name));
                continue;
            }
            declare(f->name, Symbol{Symbol::Kind::Function, nullptr, nullptr, f.get(), nullptr, f->location});
        }
    }

    void build_module_scope(Module& m) {
        Scope& own = module_scopes_.at(&m);
        for (const auto& [name, loc] : m.exports)
            if (!own.find_local(name))
                diags_.error(loc, fmt::format("module '{}' exports '{}', which it does not define", m.name, name));
        // Imported modules' exports sit in a scope around the module's own.
        Scope& imported = import_scopes_.try_emplace(&m, nullptr).first->second;
        for (const Module* im : program_.imported_modules[&m]) {
            const Scope& theirs = module_scopes_.at(im);
            for (const auto& [name, loc] : im->exports)
                if (const Symbol* s = theirs.find_local(name)) imported.add(name, *s);
        }
        auto& scope = module_level_scopes_[&m];
        scope = std::make_unique<Scope>(&imported);
        for (const std::string& n : own.visible_names()) scope->add(n, *own.find_local(n));
    }

    void enter_module(const Module& m) {
        module_ = &m;
        module_scope_ = module_level_scopes_.at(&m).get();
    }

    // Records (first: constants and signatures use them), constants and
    // function signatures.
    void check_declarations(Module& m) {
        enter_module(m);
        for (auto& r : m.records) check_record(*r);
        for (auto& c : m.constants) check_decl(*c, *module_scope_, /*is_parameter=*/false, /*declare=*/false);
        for (auto& f : m.functions) check_signature(*f);
    }

    void check_record(RecordType& r) {
        Scope fields(module_scope_);
        for (auto& f : r.fields) {
            if (f->init) diags_.error(f->init->location, "a record field cannot have an initializer");
            check_decl(*f, fields, false, true);
            if (f->forms.back().resolved_type.record == &r)
                diags_.error(f->location, fmt::format("record '{}' contains itself", r.name));
        }
    }

    // Descriptions a module may use: its imports, and those of the modules it imports.
    bool module_imports_hardware(const Module& m, const std::string& hwd) {
        std::set<const Module*> seen;
        std::function<bool(const Module&)> visit = [&](const Module& at) {
            if (!seen.insert(&at).second) return false;
            for (const std::string& h : program_.imported_hardware[&at])
                if (h == hwd) return true;
            for (const Module* im : program_.imported_modules[&at])
                if (visit(*im)) return true;
            return false;
        };
        return visit(m);
    }

    // The hardware description, return type and parameters of `f`, and
    // whether its body is builtin.
    void check_signature(Function& f) {
        function_ = &f;
        model_ = library_.find(f.hardware);
        if (!model_ && library_.report_errors_of(f.hardware)) {
            diags_.error(f.hardware_location,
                         fmt::format("function '{}' targets '{}', whose hardware description has errors", f.name,
                                     f.hardware));
        } else if (!model_) {
            diags_.error(f.hardware_location,
                         fmt::format("unknown hardware description '{}'{}", f.hardware,
                                     did_you_mean(f.hardware, library_.names())));
        } else if (!module_imports_hardware(*module_, f.hardware)) {
            diags_.warning(f.hardware_location,
                           fmt::format("function '{}' targets '{}', which module '{}' does not import; "
                                       "add 'import {};'",
                                       f.name, f.hardware, module_->name, f.hardware));
        }
        f.resolved_return_type = resolve_type(f.return_type, *module_scope_, true);
        auto& params = parameter_scopes_[&f];
        params = std::make_unique<Scope>(module_scope_);
        for (auto& p : f.params) check_decl(*p, *params, true, true);
        f.builtin_body = is_builtin_body(*f.body);
    }

    void check_function_body(Function& f) {
        function_ = &f;
        model_ = library_.find(f.hardware);
        Scope& params = *parameter_scopes_.at(&f);
        if (f.builtin_body) {
            check_builtin_body(f, params);
            return;
        }
        // A caller could neither index an array result nor assign it whole,
        // and C returns no arrays.
        const Type& result = f.resolved_return_type;
        if (result.valid() && result.is_array())
            diags_.error(f.return_type.location,
                         fmt::format("'{}' returns {}: a function returns a number, a bool or a record; give an "
                                     "array back through a parameter it writes",
                                     f.name, result.str()));
        check_block_contents(*f.body, params);
        if (result.valid() && !result.is_void() && can_complete(*f.body))
            diags_.error(f.location, fmt::format("control can reach the end of '{}', which returns {}, "
                                                 "without a return",
                                                 f.name, result.str()));
    }

    // Whether control can leave `s` at its end (C's rule for a value
    // function's missing return): a return cannot, a block cannot past a
    // statement that cannot, an if only through a branch that can, a loop
    // whose condition is the literal `true` never ends (MCPL has no break).
    // Only literal conditions count as constant.
    static bool can_complete(const Stmt& s) {
        auto literal = [](const ExprPtr& condition) -> std::optional<bool> {
            if (condition && condition->kind == Expr::Kind::BoolLiteral) return condition->bool_value;
            return std::nullopt;
        };
        switch (s.kind) {
            case Stmt::Kind::Return: return false;
            case Stmt::Kind::Block:
                for (const StmtPtr& inner : s.body)
                    if (!can_complete(*inner)) return false;
                return true;
            case Stmt::Kind::If: {
                std::optional<bool> always = literal(s.condition);
                bool then_completes = can_complete(*s.then_branch);
                bool else_completes = !s.else_branch || can_complete(*s.else_branch);
                if (always) return *always ? then_completes : else_completes;
                return then_completes || else_completes;
            }
            case Stmt::Kind::For: return literal(s.condition) != std::optional<bool>(true);
            default: return true;
        }
    }

    static bool is_builtin_body(const Stmt& body) {
        if (body.body.empty()) return false;
        for (const StmtPtr& s : body.body)
            if (s->kind != Stmt::Kind::Call || (s->call->callee != kBuiltinRead && s->call->callee != kBuiltinWrite))
                return false;
        return true;
    }

    void check_builtin_body(Function& f, Scope& params) {
        for (StmtPtr& s : f.body->body) {
            for (ExprPtr& a : s->call->args) {
                if (a->kind != Expr::Kind::Var || a->var.size() != 1 || !a->var[0].indices.empty()) {
                    diags_.error(a->location, fmt::format("'{}' takes parameter names", s->call->callee));
                    continue;
                }
                check_expr(*a, params);
            }
            s->call->type = primitive_type(Primitive::Void);
        }
    }

    // --- types and declarations -------------------------------------------

    Type resolve_type(TypeExpr& t, const Scope& scope, bool allow_void) {
        Type out;
        if (t.primitive) {
            out.primitive = t.primitive;
            if (*t.primitive == Primitive::Void && (!allow_void || !t.dimensions.empty())) {
                diags_.error(t.location, "'void' is only a function's return type");
                out = Type{};
            }
        } else {
            const Symbol* s = scope.find(t.record_name);
            if (!s || s->kind != Symbol::Kind::Record) {
                diags_.error(t.location, fmt::format("unknown type '{}'{}", t.record_name,
                                                     did_you_mean(t.record_name, record_names(scope))));
                return Type{};
            }
            out.record = s->record;
        }
        for (auto& group : t.dimensions) {
            for (ExprPtr& extent : group) check_size(*extent, scope);
            out.group_ranks.push_back(group.size());
        }
        out.group_count = out.group_ranks.size();
        return out;
    }

    static std::vector<std::string> record_names(const Scope& scope) {
        std::vector<std::string> out;
        for (const std::string& n : scope.visible_names())
            if (const Symbol* s = scope.find(n); s && s->kind == Symbol::Kind::Record) out.push_back(n);
        return out;
    }

    // An array extent: an int expression over parameters, constants and
    // hardware values.
    void check_size(Expr& e, const Scope& scope) {
        Type t = check_expr(e, scope);
        if (t.valid() && !is_integral(t)) {
            diags_.error(e.location, fmt::format("an array size must be an int, not {}", t.str()));
            return;
        }
        check_constant(e, "an array size");
    }

    void check_constant(const Expr& e, const char* what) {
        if (e.kind == Expr::Kind::Var && e.decl && !e.hardware) {
            const Decl* d = e.decl;
            if ((!d->is_const || foreach_indices_.count(d)) && !parameters_.count(d))
                diags_.error(e.location,
                             fmt::format("{} must be constant: '{}' is neither a parameter nor a constant",
                                         what, e.var[0].name));
        }
        for (const ExprPtr& a : e.args) check_constant(*a, what);
        for (const VarPart& p : e.var)
            for (const auto& g : p.indices)
                for (const ExprPtr& i : g) check_constant(*i, what);
    }

    void check_decl(Decl& d, Scope& scope, bool is_parameter, bool declare) {
        if (is_parameter) parameters_.insert(&d);
        Type first;
        for (size_t i = 0; i < d.forms.size(); ++i) {
            BasicDecl& form = d.forms[i];
            form.resolved_type = resolve_type(form.type, scope, false);
            if (i == 0) first = form.resolved_type;
            else if (first.valid() && form.resolved_type.valid() &&
                     (first.primitive != form.resolved_type.primitive || first.record != form.resolved_type.record))
                diags_.error(form.location, fmt::format("'{}' views '{}' as {}, but its elements are {}",
                                                        form.name, d.forms[0].name, form.resolved_type.str(),
                                                        first.element().str()));
        }
        if (d.init) {
            const Type& target = d.forms.back().resolved_type;
            check_expr(*d.init, scope);
            adapt_to(*d.init, target);
            Type t = d.init->type;
            if (t.valid() && target.valid() && !assignable(target, t))
                diags_.error(d.init->location, fmt::format("cannot initialize '{}' of type {} with {}", d.name(),
                                                           target.str(), t.str()));
            if (target.is_array())
                diags_.error(d.init->location, "an array cannot be initialized in its declaration");
        } else if (d.is_const && !is_parameter && declare && !d.forms.back().resolved_type.is_array()) {
            diags_.error(d.location, fmt::format("constant '{}' needs a value", d.name()));
        }
        if (!declare) return;
        for (BasicDecl& form : d.forms) {
            if (const Symbol* old = scope.find_local(form.name)) {
                auto& diag = diags_.error(form.location, fmt::format("redefinition of '{}'", form.name));
                DiagnosticEngine::add_note(diag, old->location, "previous definition is here");
                continue;
            }
            scope.add(form.name, Symbol{Symbol::Kind::Variable, &d, &form, nullptr, nullptr, form.location});
        }
    }

    // --- statements --------------------------------------------------------

    void check_block_contents(Stmt& block, const Scope& outer) {
        Scope scope(&outer);
        for (StmtPtr& s : block.body) check_stmt(*s, scope);
    }

    // A statement that is the body of if/for/foreach gets a scope of its own.
    void check_nested(Stmt& s, const Scope& outer) {
        Scope scope(&outer);
        check_stmt(s, scope);
    }

    void expect_condition(Expr& e, const Scope& scope) {
        Type t = check_expr(e, scope);
        if (t.valid() && !is_condition(t))
            diags_.error(e.location, fmt::format("a condition must be bool or int, not {}", t.str()));
    }

    void check_stmt(Stmt& s, Scope& scope) {
        switch (s.kind) {
        case Stmt::Kind::Block: check_block_contents(s, scope); break;
        case Stmt::Kind::Decl: check_decl(*s.decl, scope, false, true); break;
        case Stmt::Kind::Assign: check_assign(s, scope); break;
        case Stmt::Kind::Step: {
            Type t = check_expr(*s.target, scope);
            if (t.valid() && !t.is_numeric())
                diags_.error(s.location, fmt::format("'{}' needs a number, not {}", s.op, t.str()));
            break;
        }
        case Stmt::Kind::Swap: {
            Type a = check_expr(*s.target, scope);
            Type b = check_expr(*s.value, scope);
            if (a.valid() && b.valid() && !(a == b))
                diags_.error(s.location, fmt::format("cannot swap {} and {}", a.str(), b.str()));
            break;
        }
        case Stmt::Kind::Call: {
            if (s.call->callee == kBuiltinRead || s.call->callee == kBuiltinWrite) {
                diags_.error(s.call->location,
                             fmt::format("'{}' is only allowed in a library function whose body consists "
                                         "of such calls",
                                         s.call->callee));
                break;
            }
            check_expr(*s.call, scope);
            break;
        }
        case Stmt::Kind::Return: check_return(s, scope); break;
        case Stmt::Kind::If:
            expect_condition(*s.condition, scope);
            check_nested(*s.then_branch, scope);
            if (s.else_branch) check_nested(*s.else_branch, scope);
            break;
        case Stmt::Kind::For: {
            Scope loop(&scope);
            check_decl(*s.decl, loop, false, true);
            expect_condition(*s.condition, loop);
            check_stmt(*s.step, loop);
            check_nested(*s.loop_body, loop);
            break;
        }
        case Stmt::Kind::Foreach: {
            Type count = check_expr(*s.count, scope);
            if (count.valid() && !is_integral(count))
                diags_.error(s.count->location, fmt::format("the number of units must be an int, not {}", count.str()));
            Scope loop(&scope);
            s.decl->is_const = false;  // (again, when a translated program is checked anew)
            check_decl(*s.decl, loop, false, true);
            s.decl->is_const = true;  // the index of a unit is fixed: writing it is an error
            foreach_indices_.insert(s.decl.get());
            ++foreach_depth_;
            check_nested(*s.loop_body, loop);
            --foreach_depth_;
            break;
        }
        case Stmt::Kind::Barrier: break;  // its memory space is checked with the mapping
        case Stmt::Kind::As: check_as(s, scope); break;
        }
    }

    void check_assign(Stmt& s, const Scope& scope) {
        Type target = check_expr(*s.target, scope);
        check_expr(*s.value, scope);
        adapt_to(*s.value, target);
        Type value = s.value->type;
        if (!target.valid() || !value.valid()) return;
        if (target.is_array()) {
            diags_.error(s.target->location,
                         fmt::format("cannot assign to a whole array of type {}; index it", target.str()));
            return;
        }
        if (s.op != "=" && (!target.is_numeric() || !value.is_numeric())) {
            diags_.error(s.location, fmt::format("'{}' needs numbers, not {} and {}", s.op, target.str(), value.str()));
            return;
        }
        if ((s.op == "%=" || s.op == "<<=" || s.op == ">>=") && (!is_integral(target) || !is_integral(value))) {
            diags_.error(s.location, fmt::format("'{}' needs ints", s.op));
            return;
        }
        if (!assignable(target, value))
            diags_.error(s.value->location, fmt::format("cannot assign {} to {}", value.str(), target.str()));
    }

    void check_return(Stmt& s, const Scope& scope) {
        const Type& want = function_->resolved_return_type;
        if (!s.value) {
            if (want.valid() && !want.is_void())
                diags_.error(s.location, fmt::format("'{}' must return a {}", function_->name, want.str()));
            return;
        }
        check_expr(*s.value, scope);
        adapt_to(*s.value, want);
        Type got = s.value->type;
        if (foreach_depth_ > 0) {
            diags_.error(s.value->location,
                         fmt::format("a return inside a foreach ends only the unit that runs it; it cannot return a "
                                     "value from '{}'", function_->name));
        } else if (want.is_void()) {
            diags_.error(s.value->location, fmt::format("'{}' returns void, not a value", function_->name));
        } else if (got.valid() && want.valid() && !assignable(want, got)) {
            diags_.error(s.value->location,
                         fmt::format("'{}' returns {}, not {}", function_->name, want.str(), got.str()));
        }
    }

    void check_as(Stmt& s, Scope& scope) {
        Type t = check_expr(*s.target, scope);
        Expr& target = *s.target;
        if (target.var.size() != 1 || !target.var[0].indices.empty() || !target.decl) {
            diags_.error(target.location, "'as' gives a whole variable another shape");
            return;
        }
        for (BasicDecl& view : s.views) {
            view.resolved_type = resolve_type(view.type, scope, false);
            if (t.valid() && view.resolved_type.valid() &&
                (view.resolved_type.primitive != t.primitive || view.resolved_type.record != t.record))
                diags_.error(view.location, fmt::format("'{}' views '{}' as {}, but its elements are {}", view.name,
                                                        target.var[0].name, view.resolved_type.str(),
                                                        t.element().str()));
            if (const Symbol* old = scope.find_local(view.name)) {
                auto& diag = diags_.error(view.location, fmt::format("redefinition of '{}'", view.name));
                DiagnosticEngine::add_note(diag, old->location, "previous definition is here");
                continue;
            }
            scope.add(view.name,
                      Symbol{Symbol::Kind::Variable, target.decl, &view, nullptr, nullptr, view.location});
        }
    }

    // --- expressions -------------------------------------------------------

    Type check_expr(Expr& e, const Scope& scope) {
        e.type = compute_type(e, scope);
        return e.type;
    }

    Type compute_type(Expr& e, const Scope& scope) {
        switch (e.kind) {
        case Expr::Kind::IntLiteral: return primitive_type(Primitive::Int);
        case Expr::Kind::FloatLiteral:
            round_literal_once<float>(e);
            return primitive_type(Primitive::Float);
        case Expr::Kind::BoolLiteral: return primitive_type(Primitive::Bool);
        case Expr::Kind::Var: return check_var(e, scope);
        case Expr::Kind::Call: return check_call(e, scope);
        case Expr::Kind::Unary: return check_unary(e, scope);
        case Expr::Kind::Binary: return check_binary(e, scope);
        }
        return Type{};
    }

    // Applies index groups to a value of type `t`; returns the indexed type.
    Type apply_indices(VarPart& part, Type t, const Scope& scope) {
        if (part.indices.size() > t.group_count) {
            diags_.error(part.location, fmt::format("'{}' of type {} has {} index group{}, not {}", part.name,
                                                    t.str(), t.group_count, t.group_count == 1 ? "" : "s",
                                                    part.indices.size()));
            return Type{};
        }
        for (size_t g = 0; g < part.indices.size(); ++g) {
            if (part.indices[g].size() != t.group_ranks[g]) {
                diags_.error(part.indices[g].front()->location,
                             fmt::format("'{}' of type {} takes {} ind{} here, not {}", part.name, t.str(),
                                         t.group_ranks[g], t.group_ranks[g] == 1 ? "ex" : "ices",
                                         part.indices[g].size()));
                return Type{};
            }
            for (ExprPtr& i : part.indices[g]) {
                Type it = check_expr(*i, scope);
                if (it.valid() && !is_integral(it))
                    diags_.error(i->location, fmt::format("an index must be an int, not {}", it.str()));
            }
        }
        Type out = t;
        out.group_ranks.erase(out.group_ranks.begin(), out.group_ranks.begin() + part.indices.size());
        out.group_count = out.group_ranks.size();
        return out;
    }

    Type check_var(Expr& e, const Scope& scope) {
        VarPart& head = e.var[0];
        // Resolved once, a hardware value stays one: translation writes them
        // into kernels whose own names may shadow the description (a
        // parameter `gpu`), and a program is checked again after each step.
        if (e.hardware) return check_hardware_value(e);
        // The user's variable wins; a function, record or module named like
        // a description does not hide the description's values.
        const Symbol* s = scope.find(head.name);
        bool is_variable = s && s->kind == Symbol::Kind::Variable;
        if (!is_variable && e.var.size() > 1 && library_.find(head.name)) return check_hardware_value(e);
        if (!s || s->kind != Symbol::Kind::Variable) {
            if (s && s->kind == Symbol::Kind::Function)
                diags_.error(head.location, fmt::format("'{}' is a function; call it with (...)", head.name));
            else if (s)
                diags_.error(head.location, fmt::format("'{}' is a type, not a variable", head.name));
            else
                diags_.error(head.location, fmt::format("use of undeclared identifier '{}'{}", head.name,
                                                        did_you_mean(head.name, scope.visible_names())));
            return Type{};
        }
        e.decl = s->decl;
        e.form = s->form;
        Type t = apply_indices(head, s->form->resolved_type, scope);
        for (size_t k = 1; k < e.var.size() && t.valid(); ++k) {
            VarPart& part = e.var[k];
            if (!t.record || t.is_array()) {
                diags_.error(part.location, fmt::format("{} has no field '{}'", t.str(), part.name));
                return Type{};
            }
            const Decl* field = t.record->field(part.name);
            if (!field) {
                std::vector<std::string> names;
                for (const auto& f : t.record->fields) names.push_back(f->name());
                diags_.error(part.location, fmt::format("record '{}' has no field '{}'{}", t.record->name,
                                                        part.name, did_you_mean(part.name, names)));
                return Type{};
            }
            t = apply_indices(part, field->forms.back().resolved_type, scope);
        }
        return t;
    }

    // `gpu.hierarchy.blocks.block.threads.max_nr_units`: a par_group's count;
    // `gpu.hierarchy.blocks.nr_processors`: how many execution units run its
    // units side by side.
    Type check_hardware_value(Expr& e) {
        HardwareValue hv;
        hv.description = e.hardware ? e.hardware->description : e.var[0].name;
        const hdl::HardwareModel* model = library_.find(hv.description);
        if (!model) {
            diags_.error(e.location, fmt::format("unknown hardware description '{}'", hv.description));
            return Type{};
        }
        const hdl::HardwareModel& m = *model;
        if (e.hardware) hv.path = e.hardware->path;
        for (size_t i = 1; i < e.var.size() && !e.hardware; ++i) {
            if (!e.var[i].indices.empty()) {
                diags_.error(e.var[i].location, "a hardware value takes no index");
                return Type{};
            }
            hv.path.push_back(e.var[i].name);
        }
        const std::string property = hv.path.empty() ? std::string() : hv.path.back();
        const hdl::ParGroup* group = hv.path.size() >= 2 ? m.find_par_group(hv.path[hv.path.size() - 2]) : nullptr;
        bool valid_path = group && hv.path.size() >= 3 && hv.path[0] == m.parallelism_name &&
                          (property == "nr_units" || property == "max_nr_units" || property == "nr_processors");
        if (!valid_path) {
            diags_.error(e.location,
                         fmt::format("'{}' is not a hardware value: write {}.{}.<par_group path>.nr_units, "
                                     ".max_nr_units or .nr_processors",
                                     fmt::format("{}.{}", hv.description, fmt::join(hv.path, ".")),
                                     hv.description, m.parallelism_name));
            return Type{};
        }
        if (property == "nr_processors") {
            hv.value = group->unit ? m.nr_processors(group->unit->name) : 0;
            if (hv.value == 0) {
                diags_.error(e.var.empty() ? e.location : e.var.back().location,
                             fmt::format("no execution unit of '{}' has a fixed number of slots for '{}' units",
                                         hv.description, group->unit ? group->unit->name : group->name));
                return Type{};
            }
            e.hardware = hv;
            return primitive_type(Primitive::Int);
        }
        bool is_max = group->units.bound == hdl::UnitCount::Bound::Max;
        if ((property == "max_nr_units") != is_max) {
            diags_.error(e.var.back().location,
                         fmt::format("par_group '{}' of '{}' has '{}', not '{}'", group->name, hv.description,
                                     is_max ? "max_nr_units" : "nr_units", property));
            return Type{};
        }
        if (group->units.count.unlimited) {
            diags_.error(e.location, fmt::format("par_group '{}' of '{}' has an unlimited number of units",
                                                 group->name, hv.description));
            return Type{};
        }
        hv.value = group->units.count.value;
        e.hardware = hv;
        return primitive_type(Primitive::Int);
    }

    Type check_call(Expr& e, const Scope& scope) {
        std::vector<Type> args;
        for (ExprPtr& a : e.args) args.push_back(check_expr(*a, scope));
        const Symbol* s = scope.find(e.callee);
        if (s && s->kind == Symbol::Kind::Function) return check_user_call(e, *s->function, args);
        for (const BuiltinFunction& b : kBuiltins)
            if (e.callee == b.name) return check_builtin_call(e, b, args);
        if (s) {
            auto& d = diags_.error(e.location, fmt::format("cannot call '{}': it names a {} here", e.callee,
                                                           s->kind == Symbol::Kind::Record ? "record type" : "variable"));
            DiagnosticEngine::add_note(d, s->location,
                                       fmt::format("'{}' is declared here, hiding any function of that name", e.callee));
            return Type{};
        }
        std::vector<std::string> candidates = scope.visible_names();
        for (const BuiltinFunction& b : kBuiltins) candidates.emplace_back(b.name);
        diags_.error(e.location, fmt::format("call to undeclared function '{}'{}", e.callee,
                                             did_you_mean(e.callee, candidates)));
        return Type{};
    }

    Type check_user_call(Expr& e, const Function& f, const std::vector<Type>& args) {
        e.function = &f;
        if (args.size() != f.params.size()) {
            auto& d = diags_.error(e.location, fmt::format("'{}' takes {} argument{}, not {}", f.name, f.params.size(),
                                                           f.params.size() == 1 ? "" : "s", args.size()));
            DiagnosticEngine::add_note(d, f.location, "declared here");
            return f.resolved_return_type;
        }
        for (size_t i = 0; i < args.size(); ++i) {
            const Type& want = f.params[i]->forms.front().resolved_type;
            adapt_to(*e.args[i], want);
            if (!args[i].valid() || !want.valid() || assignable(want, e.args[i]->type)) continue;
            auto& d = diags_.error(e.args[i]->location,
                                   fmt::format("argument {} of '{}' must be {}, not {}", i + 1, f.name, want.str(),
                                               args[i].str()));
            DiagnosticEngine::add_note(d, f.params[i]->forms.front().location, "parameter declared here");
        }
        return f.resolved_return_type;
    }

    Type check_builtin_call(Expr& e, const BuiltinFunction& b, const std::vector<Type>& args) {
        if (args.size() != b.arity) {
            diags_.error(e.location, fmt::format("'{}' takes {} argument{}, not {}", b.name, b.arity,
                                                 b.arity == 1 ? "" : "s", args.size()));
            return Type{};
        }
        for (size_t i = 0; i < args.size(); ++i)
            if (args[i].valid() && !args[i].is_numeric()) {
                diags_.error(e.args[i]->location, fmt::format("'{}' needs a number, not {}", b.name, args[i].str()));
                return Type{};
            }
        for (const Type& a : args)
            if (!a.valid()) return Type{};
        const std::string callee = b.name;
        if (callee == "toFloat") return primitive_type(Primitive::Float);
        if (callee == "toDouble") {
            adapt_to(*e.args[0], primitive_type(Primitive::Double));
            return primitive_type(Primitive::Double);
        }
        if (callee == "toInt") return primitive_type(Primitive::Int);
        if (callee == "divide_up") {
            for (size_t i = 0; i < args.size(); ++i)
                if (!is_integral(args[i]))
                    diags_.error(e.args[i]->location, fmt::format("'divide_up' needs ints, not {}", args[i].str()));
            return primitive_type(Primitive::Int);
        }
        adapt_to_each_other(*e.args[0], *e.args[1]);  // min, max
        return promote(e.args[0]->type, e.args[1]->type);
    }

    // A double operand makes an unsuffixed float constant beside it a double.
    static void adapt_to_each_other(Expr& a, Expr& b) {
        adapt_to(a, b.type);
        adapt_to(b, a.type);
    }

    Type check_unary(Expr& e, const Scope& scope) {
        Type t = check_expr(*e.args[0], scope);
        if (!t.valid()) return t;
        if (e.op == "-") {
            if (t.is_numeric()) return t;
            diags_.error(e.location, fmt::format("cannot negate {}", t.str()));
            return Type{};
        }
        if (is_condition(t)) return primitive_type(Primitive::Bool);
        diags_.error(e.location, fmt::format("'!' needs bool or int, not {}", t.str()));
        return Type{};
    }

    Type check_binary(Expr& e, const Scope& scope) {
        check_expr(*e.args[0], scope);
        check_expr(*e.args[1], scope);
        const std::string& op = e.op;
        bool on_numbers = op != "&&" && op != "||" && op != "%" && op != "&" && op != "|" && op != "<<" && op != ">>";
        if (on_numbers) adapt_to_each_other(*e.args[0], *e.args[1]);
        const Type a = e.args[0]->type;
        const Type b = e.args[1]->type;
        if (!a.valid() || !b.valid()) return Type{};
        auto fail = [&](const char* need) {
            diags_.error(e.location, fmt::format("'{}' needs {}, not {} and {}", op, need, a.str(), b.str()));
            return Type{};
        };
        if (op == "&&" || op == "||") {
            if (!is_condition(a) || !is_condition(b)) return fail("bools or ints");
            return primitive_type(Primitive::Bool);
        }
        if (op == "==" || op == "!=") {
            bool comparable = (a.is_numeric() && b.is_numeric()) ||
                              (!a.is_array() && a.primitive == Primitive::Bool && a == b);
            if (!comparable) return fail("two numbers or two bools");
            return primitive_type(Primitive::Bool);
        }
        if (op == "<" || op == "<=" || op == ">" || op == ">=") {
            if (!a.is_numeric() || !b.is_numeric()) return fail("numbers");
            return primitive_type(Primitive::Bool);
        }
        if (op == "%" || op == "&" || op == "|" || op == "<<" || op == ">>") {
            if (!is_integral(a) || !is_integral(b)) return fail("ints");
            return promote(a, b);
        }
        if (!a.is_numeric() || !b.is_numeric()) return fail("numbers");  // + - * / ^
        return promote(a, b);
    }

    Program& program_;
    const hdl::HardwareLibrary& library_;
    DiagnosticEngine& diags_;
    std::map<const Module*, Scope> module_scopes_;   // each module's own top-level names
    std::map<const Module*, Scope> import_scopes_;   // the names it imports
    std::map<const Module*, std::unique_ptr<Scope>> module_level_scopes_;  // own names over imports
    std::map<const Function*, std::unique_ptr<Scope>> parameter_scopes_;  // a function's parameters over its module's
    Scope* module_scope_ = nullptr;  // the module being checked: its entry in module_level_scopes_
    std::set<const Decl*> parameters_;
    std::set<const Decl*> foreach_indices_;
    const Module* module_ = nullptr;
    const Function* function_ = nullptr;
    int foreach_depth_ = 0;  // foreach loops around the statement being checked
    const hdl::HardwareModel* model_ = nullptr;
};

}  // namespace

bool is_builtin_function(const std::string& name) {
    for (const BuiltinFunction& b : kBuiltins)
        if (name == b.name) return true;
    return name == kBuiltinRead || name == kBuiltinWrite;
}

bool is_pure_call(const Expr& call) {
    if (!call.function) return is_builtin_function(call.callee);
    if (!call.function->builtin_body) return false;
    return std::none_of(call.function->params.begin(), call.function->params.end(),
                        [](const std::unique_ptr<Decl>& p) { return p->is_written; });
}

bool passed_by_reference(const Decl& param, bool written) {
    const Type& t = param.forms.front().resolved_type;
    return t.is_array() || t.record || written;
}

void resolve_names(Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    NameResolver(program, library, diags).run();
}

}  // namespace mcl::mcpl
