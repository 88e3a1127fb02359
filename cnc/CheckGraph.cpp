#include "cnc/CheckGraph.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <tuple>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/print/PrintMcpl.h"
#include "support/Spelling.h"

namespace mcl::cnc {

namespace {

std::string describe(const SourceLocation& l) { return fmt::format("{}:{}", l.line, l.column); }

// a op b for + - * /, nullopt where the result does not fit a long long or b
// divides by zero (C's division otherwise: toward zero, as the generated code)
std::optional<long long> arithmetic(char op, long long a, long long b) {
    long long r = 0;
    switch (op) {
    case '+': return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional<long long>(r);
    case '-': return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional<long long>(r);
    case '*': return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<long long>(r);
    default:
        if (b == 0 || (a == LLONG_MIN && b == -1)) return std::nullopt;
        return a / b;
    }
}

std::optional<long long> negated(long long a) { return arithmetic('-', 0, a); }

class Checker {
public:
    Checker(const Graph& g, const mcpl::Program& program, DiagnosticEngine& diags)
        : g_(g), program_(program), diags_(diags), errors_at_start_(diags.error_count()) {}

    std::optional<CheckedGraph> run() {
        declarations();
        prescriptions();
        relations();
        environment();
        steps();
        producers();
        cycles();
        if (diags_.error_count() != errors_at_start_) return std::nullopt;
        return std::move(out_);
    }

private:
    // --- names ------------------------------------------------------------------

    void declare(const std::string& name, SourceLocation loc, const char* what) {
        auto [it, fresh] = declared_.emplace(name, loc);
        if (!fresh)
            diags_.error(loc, fmt::format("{} '{}' is declared twice (first at {})", what, name, describe(it->second)));
    }

    void declarations() {
        for (const Constant& c : g_.constants) {
            declare(c.name, c.location, "constant");
            if (!c.is_float) out_.int_constants[c.name] = c.int_value;
            constants_[c.name] = &c;
        }
        for (const ItemCollection& i : g_.items) {
            declare(i.name, i.location, "item collection");
            items_[i.name] = &i;
            for (const ExprPtr& e : i.extents)
                if (auto v = constant_value(*e, "the extent of item '" + i.name + "'"); v && *v <= 0)
                    diags_.error(e->location, fmt::format("the extent of item '{}' is {}: extents are positive",
                                                          i.name, *v));
        }
        for (const ItemCollection& i : g_.items) {
            std::optional<long long> elements = 1;
            for (const ExprPtr& e : i.extents)
                if (elements) elements = arithmetic('*', *elements, quiet_constant(*e).value_or(0));
            if (!elements)
                diags_.error(i.location, fmt::format("item '{}' holds more values than a 64-bit int counts", i.name));
            out_.item_elements[i.name] = elements.value_or(0);
        }
        for (const TagCollection& t : g_.tags) {
            declare(t.name, t.location, "tag collection");
            tags_[t.name] = &t;
            if (t.components < 1)
                diags_.error(t.components_location, fmt::format("tag collection '{}' has {} components: a tag has at "
                                                                "least one", t.name, t.components));
        }
        for (const StepCollection& s : g_.steps) {
            declare(s.name, s.location, "step collection");
            steps_[s.name] = &s;
        }
    }

    template <typename Map>
    std::vector<std::string> keys(const Map& m) const {
        std::vector<std::string> out;
        for (const auto& [k, v] : m) out.push_back(k);
        return out;
    }

    const ItemCollection* find_item(const std::string& name, SourceLocation loc) {
        auto it = items_.find(name);
        if (it != items_.end()) return it->second;
        diags_.error(loc, fmt::format("unknown item collection '{}'{}", name, did_you_mean(name, keys(items_))));
        return nullptr;
    }

    const StepCollection* find_step(const std::string& name, SourceLocation loc) {
        auto it = steps_.find(name);
        if (it != steps_.end()) return it->second;
        diags_.error(loc, fmt::format("unknown step collection '{}'{}", name, did_you_mean(name, keys(steps_))));
        return nullptr;
    }

    const TagCollection* find_tag(const std::string& name, SourceLocation loc) {
        auto it = tags_.find(name);
        if (it != tags_.end()) return it->second;
        diags_.error(loc, fmt::format("unknown tag collection '{}'{}", name, did_you_mean(name, keys(tags_))));
        return nullptr;
    }

    // The value of an expression over int constants; reported (as `what`)
    // when it uses anything else.
    std::optional<long long> constant_value(const Expr& e, const std::string& what) {
        switch (e.kind) {
        case Expr::Kind::Int: return e.value;
        case Expr::Kind::Name: {
            auto it = out_.int_constants.find(e.name);
            if (it != out_.int_constants.end()) return it->second;
            if (!reported_constants_.insert(e.name).second) return std::nullopt;
            if (constants_.count(e.name))
                diags_.error(e.location, fmt::format("{} uses '{}', a float constant: it must be an int constant",
                                                     what, e.name));
            else
                diags_.error(e.location, fmt::format("{} uses '{}', which is not an int constant: it must be constant",
                                                     what, e.name));
            return std::nullopt;
        }
        case Expr::Kind::Negate: {
            auto v = constant_value(*e.operands[0], what);
            if (!v) return std::nullopt;
            if (auto r = negated(*v)) return r;
            diags_.error(e.location, fmt::format("{} overflows a 64-bit int", what));
            return std::nullopt;
        }
        case Expr::Kind::Binary: {
            auto a = constant_value(*e.operands[0], what), b = constant_value(*e.operands[1], what);
            if (!a || !b) return std::nullopt;
            if (auto r = arithmetic(e.op, *a, *b)) return r;
            diags_.error(e.location, fmt::format("{} {}", what,
                                                 e.op == '/' && *b == 0 ? "divides by zero" : "overflows a 64-bit int"));
            return std::nullopt;
        }
        }
        return std::nullopt;
    }

    // True when `e` uses only int constants (then it is constant); reports
    // names that are neither those nor the names of earlier ranges.
    bool check_bound(const Expr& e, const std::set<std::string>& earlier, const std::string& what) {
        if (e.kind == Expr::Kind::Name) {
            if (out_.int_constants.count(e.name)) return true;
            if (earlier.count(e.name)) return false;
            diags_.error(e.location, fmt::format("{} uses '{}', which is neither an int constant nor an earlier range's "
                                                 "name: bounds must be constant",
                                                 what, e.name));
            return false;
        }
        bool constant = true;
        for (const ExprPtr& o : e.operands) constant = check_bound(*o, earlier, what) && constant;
        return constant;
    }

    // --- prescriptions and relations ---------------------------------------------

    void prescriptions() {
        for (const Prescription& p : g_.prescriptions) {
            const TagCollection* tag = find_tag(p.tag, p.tag_location);
            const StepCollection* step = find_step(p.step, p.step_location);
            std::set<std::string> kinds;
            for (const AffinityWeight& w : p.affinity) {
                if (w.kind != "CPU" && w.kind != "GPU" && w.kind != "FPGA")
                    diags_.error(w.location, fmt::format("unknown affinity kind '{}' (CPU, GPU or FPGA){}", w.kind,
                                                         did_you_mean(w.kind, {"CPU", "GPU", "FPGA"})));
                else if (!kinds.insert(w.kind).second)
                    diags_.error(w.location, fmt::format("affinity '{}' is given twice", w.kind));
            }
            if (!tag || !step) {
                unresolved_prescription_ = true;
                continue;
            }
            auto [it, fresh] = prescribed_.emplace(step->name, &p);
            if (!fresh)
                diags_.error(p.step_location, fmt::format("step '{}' is prescribed twice (first at {}): one tag "
                                                          "collection prescribes a step",
                                                          p.step, describe(it->second->step_location)));
        }
        // After an unresolved prescription, the step it meant would be reported again.
        for (const StepCollection& s : g_.steps)
            if (!unresolved_prescription_ && !prescribed_.count(s.name))
                diags_.error(s.location, fmt::format("no tag collection prescribes step '{}' (add `<tag> :: ({});`)",
                                                     s.name, s.name));
    }

    void use_item_arity(const std::string& item, size_t arity, SourceLocation loc) {
        auto [it, fresh] = arity_use_.emplace(item, std::make_pair(arity, loc));
        if (!fresh && it->second.first != arity)
            diags_.error(loc, fmt::format("item '{}' is indexed by {} tag component{} here but by {} at {}", item, arity,
                                          arity == 1 ? "" : "s", it->second.first, describe(it->second.second)));
    }

    // Reports the names in a tag function that are neither components of
    // the step's tag nor int constants.
    void check_tag_function(const Expr& e, const StepInstance& step, const std::string& item) {
        if (e.kind == Expr::Kind::Name) {
            bool component = std::find(step.components.begin(), step.components.end(), e.name) != step.components.end();
            if (!component && !out_.int_constants.count(e.name))
                diags_.error(e.location,
                             fmt::format("the tag function of '{}' uses '{}', which is neither a component of the tag "
                                         "of ({} : {}) nor an int constant{}",
                                         item, e.name, step.name, fmt::join(step.components, ", "),
                                         did_you_mean(e.name, step.components)));
            return;
        }
        for (const ExprPtr& o : e.operands) check_tag_function(*o, step, item);
    }

    void relations() {
        for (const Relation& r : g_.relations) {
            const StepCollection* step = find_step(r.step.name, r.step.location);
            std::set<std::string> seen;
            for (size_t i = 0; i < r.step.components.size(); ++i)
                if (!seen.insert(r.step.components[i]).second)
                    diags_.error(r.step.component_locations[i],
                                 fmt::format("tag component '{}' is named twice", r.step.components[i]));
            if (step) {
                relations_of_[step->name].push_back(&r);
                auto p = prescribed_.find(step->name);
                if (p != prescribed_.end() && tags_.count(p->second->tag)) {
                    const TagCollection& tag = *tags_.at(p->second->tag);
                    if (static_cast<long long>(r.step.components.size()) != tag.components)
                        diags_.error(r.step.location,
                                     fmt::format("step '{}' is prescribed by '{}', whose tags have {} component{}, but "
                                                 "this relation names {}",
                                                 step->name, tag.name, tag.components, tag.components == 1 ? "" : "s",
                                                 r.step.components.size()));
                }
            }
            for (const auto* list : {&r.gets, &r.puts})
                for (const ItemInstance& item : *list) {
                    if (!find_item(item.name, item.location)) {
                        steps_with_unknown_items_.insert(r.step.name);
                        continue;
                    }
                    use_item_arity(item.name, item.tag.size(), item.location);
                    for (const ExprPtr& e : item.tag) check_tag_function(*e, r.step, item.name);
                }
            for (const ItemInstance& got : r.gets)
                for (const ItemInstance& put : r.puts)
                    if (got.name == put.name && same_tag(got, put))
                        diags_.error(put.location,
                                     fmt::format("step '{}' gets and puts [{}] with the same tag: a cycle with no tag "
                                                 "progression (an instance would wait for itself)",
                                                 r.step.name, put.name));
        }
    }

    static bool same_expr(const Expr& a, const Expr& b) {
        if (a.kind != b.kind || a.value != b.value || a.name != b.name || a.op != b.op ||
            a.operands.size() != b.operands.size())
            return false;
        for (size_t i = 0; i < a.operands.size(); ++i)
            if (!same_expr(*a.operands[i], *b.operands[i])) return false;
        return true;
    }

    static bool same_tag(const ItemInstance& a, const ItemInstance& b) {
        if (a.tag.size() != b.tag.size()) return false;
        for (size_t i = 0; i < a.tag.size(); ++i)
            if (!same_expr(*a.tag[i], *b.tag[i])) return false;
        return true;
    }

    void environment() {
        for (const auto* list : {&g_.env_puts, &g_.env_gets})
            for (const EnvTarget& t : *list) {
                size_t arity = 0;
                if (t.is_tag) {
                    if (list == &g_.env_gets) {
                        diags_.error(t.location, fmt::format("the environment gets items, not tags ('{}')", t.name));
                        continue;
                    }
                    const TagCollection* tag = find_tag(t.name, t.location);
                    if (!tag) continue;
                    arity = static_cast<size_t>(tag->components);
                    if (t.ranges.size() != arity)
                        diags_.error(t.location, fmt::format("tag collection '{}' has {} component{}, but {} range{} "
                                                             "given",
                                                             t.name, arity, arity == 1 ? "" : "s", t.ranges.size(),
                                                             t.ranges.size() == 1 ? " is" : "s are"));
                } else {
                    if (!find_item(t.name, t.location)) continue;
                    use_item_arity(t.name, t.ranges.size(), t.location);
                    if (list == &g_.env_puts) env_put_items_.insert(t.name);
                }
                std::set<std::string> earlier;  // names of the ranges before
                for (const Range& r : t.ranges) {
                    std::string what = fmt::format("a range of '{}'", t.name);
                    bool constant = check_bound(*r.low, earlier, what) & check_bound(*r.high, earlier, what);
                    auto low = constant ? constant_value(*r.low, what) : std::nullopt;
                    auto high = constant ? constant_value(*r.high, what) : std::nullopt;
                    if (low && high && *low > *high)
                        diags_.error(r.low->location, fmt::format("the range {{{} .. {}}} of '{}' is empty", *low,
                                                                  *high, t.name));
                    if (!r.name.empty() && !earlier.insert(r.name).second)
                        diags_.error(r.name_location, fmt::format("range name '{}' is used twice", r.name));
                }
            }
        for (const auto& [item, use] : arity_use_) out_.item_arity[item] = use.first;
    }

    // --- kernels -------------------------------------------------------------------

    const mcpl::Function* find_kernel(const StepCollection& s) {
        std::vector<const mcpl::Function*> found;
        std::vector<std::string> modules, all;
        for (const mcpl::Module* m : program_.roots)
            for (const auto& f : m->functions) {
                bool exported = m->exports.empty() ||
                                std::any_of(m->exports.begin(), m->exports.end(),
                                            [&](const auto& e) { return e.first == f->name; });
                if (!exported || f->builtin_body) continue;
                all.push_back(f->name);
                if (f->name != s.name) continue;
                found.push_back(f.get());
                modules.push_back(m->name);
            }
        std::vector<std::string> imported;
        for (const Import& i : g_.imports) imported.push_back(fmt::format("{}", fmt::join(i.path, ".")));
        if (found.empty()) {
            diags_.error(s.location, fmt::format("no kernel '{}' in the imported modules ({}){}", s.name,
                                                 imported.empty() ? "none: add `import MODULE;`"
                                                                  : fmt::format("{}", fmt::join(imported, ", ")),
                                                 did_you_mean(s.name, all)));
            return nullptr;
        }
        if (found.size() > 1) {
            diags_.error(s.location, fmt::format("kernel '{}' is in modules {}: a step names one", s.name,
                                                 fmt::join(modules, " and ")));
            return nullptr;
        }
        return found.front();
    }

    // The value of an extent of a kernel parameter with the scalar
    // parameters bound to constants; nullopt when it depends on anything else.
    std::optional<long long> parameter_extent(const mcpl::Expr& e, const CheckedStep& step) {
        using K = mcpl::Expr::Kind;
        if (e.kind == K::IntLiteral) return e.int_value;
        if (e.kind == K::Var && e.var.size() == 1 && e.var[0].indices.empty()) {
            for (size_t i = 0; i < step.kernel->params.size(); ++i)
                if (step.kernel->params[i].get() == e.decl && step.bindings[i].kind == Binding::Kind::Constant &&
                    out_.int_constants.count(step.bindings[i].name))
                    return out_.int_constants.at(step.bindings[i].name);
            return std::nullopt;
        }
        if (e.kind == K::Binary && (e.op == "+" || e.op == "-" || e.op == "*" || e.op == "/")) {
            auto a = parameter_extent(*e.args[0], step), b = parameter_extent(*e.args[1], step);
            if (!a || !b) return std::nullopt;
            return arithmetic(e.op[0], *a, *b);
        }
        return std::nullopt;
    }

    void bind_scalar(CheckedStep& step, size_t position, const StepInstance* instance) {
        const mcpl::Decl& p = *step.kernel->params[position];
        const mcpl::Type& t = p.forms.front().resolved_type;
        Binding& b = step.bindings[position];
        if (p.is_written)
            diags_.error(p.forms.front().location,
                         fmt::format("kernel '{}' writes its scalar parameter '{}': a step passes scalars by value",
                                     step.kernel->name, p.name()));
        if (instance) {
            auto c = std::find(instance->components.begin(), instance->components.end(), p.name());
            if (c != instance->components.end()) {
                b.kind = Binding::Kind::Component;
                b.component = static_cast<size_t>(c - instance->components.begin());
                if (t.primitive != mcpl::Primitive::Int)
                    diags_.error(p.forms.front().location,
                                 fmt::format("parameter '{}' of kernel '{}' takes tag component '{}', but it is {}, not "
                                             "int",
                                             p.name(), step.kernel->name, p.name(),
                                             mcpl::print_type(p.forms.front().type)));
                return;
            }
        }
        auto k = constants_.find(p.name());
        if (k == constants_.end()) {
            diags_.error(step.step->location,
                         fmt::format("parameter '{}' of kernel '{}' matches no constant{} (parameters are matched by "
                                     "name)",
                                     p.name(), step.kernel->name, instance ? " or tag component" : ""));
            return;
        }
        b.kind = Binding::Kind::Constant;
        b.name = p.name();
        bool int_parameter = t.primitive == mcpl::Primitive::Int || t.primitive == mcpl::Primitive::Byte;
        if (k->second->is_float && int_parameter)
            diags_.error(k->second->location,
                         fmt::format("constant '{}' is a float ({}), but parameter '{}' of kernel '{}' is {}", p.name(),
                                     k->second->spelling, p.name(), step.kernel->name,
                                     mcpl::print_type(p.forms.front().type)));
        else if (!t.is_numeric() || t.primitive == mcpl::Primitive::Bool)
            diags_.error(k->second->location, fmt::format("constant '{}' cannot be passed to parameter '{}' of type {}",
                                                          p.name(), p.name(), mcpl::print_type(p.forms.front().type)));
    }

    // Which item each array parameter gets and puts, from the step's relations.
    struct ArrayUses {
        std::map<std::string, std::pair<const ItemInstance*, const Relation*>> gets, puts;
    };

    void check_item_type(const CheckedStep& step, const mcpl::Decl& p, const std::string& item_name) {
        if (!items_.count(item_name)) return;  // reported as unknown
        const ItemCollection& item = *items_.at(item_name);
        const mcpl::Type& t = p.forms.front().resolved_type;
        std::string element = t.primitive ? mcpl::primitive_name(*t.primitive) : "record";
        std::string written = mcpl::print_type(p.forms.front().type);
        // One report per item, at the item, however many steps use it.
        if (element != item.element && reported_items_.insert(item.name).second)
            diags_.error(item.location, fmt::format("item '{}' holds {}, but parameter '{}' of kernel '{}' is {}",
                                                    item.name, item.element, p.name(), step.kernel->name, written));
        std::vector<const mcpl::Expr*> dims;
        for (const auto& group : p.forms.front().type.dimensions)
            for (const auto& d : group) dims.push_back(d.get());
        if (dims.size() != item.extents.size()) {
            if (reported_items_.insert(item.name).second)
                diags_.error(item.location,
                             fmt::format("item '{}' has {} extent{}, but parameter '{}' of kernel '{}' is {}", item.name,
                                         item.extents.size(), item.extents.size() == 1 ? "" : "s", p.name(),
                                         step.kernel->name, written));
            return;
        }
        for (size_t i = 0; i < dims.size(); ++i) {
            auto want = parameter_extent(*dims[i], step);
            std::optional<long long> have = quiet_constant(*item.extents[i]);
            if (want && have && *want != *have && reported_items_.insert(item.name).second)
                diags_.error(item.extents[i]->location,
                             fmt::format("extent {} of item '{}' is {}, but parameter '{}' of kernel '{}' has {} there",
                                         i + 1, item.name, *have, p.name(), step.kernel->name, *want));
        }
    }

    void bind_array(CheckedStep& step, size_t position, const ArrayUses& uses) {
        const mcpl::Decl& p = *step.kernel->params[position];
        Binding& b = step.bindings[position];
        b.kind = Binding::Kind::Item;
        auto got = uses.gets.find(p.name()), put = uses.puts.find(p.name());
        if (got != uses.gets.end()) std::tie(b.got, b.got_in) = got->second;
        if (put != uses.puts.end()) std::tie(b.put, b.put_in) = put->second;
        if (!b.got && !b.put) {
            if (steps_with_unknown_items_.count(step.step->name)) return;  // reported at the unknown item
            std::vector<std::string> both;
            for (const auto* m : {&uses.gets, &uses.puts})
                for (const auto& [parameter, use] : *m) both.push_back(parameter);
            diags_.error(step.step->location,
                         fmt::format("array parameter '{}' of kernel '{}' matches no item the step gets or puts (items "
                                     "are matched by name, or by `[{} = item : tag]`){}",
                                     p.name(), step.kernel->name, p.name(), did_you_mean(p.name(), both)));
            return;
        }
        if (b.got) check_item_type(step, p, b.got->name);
        if (b.put && (!b.got || b.put->name != b.got->name)) check_item_type(step, p, b.put->name);
        if (b.got && !p.is_read)
            diags_.error(b.got->location, fmt::format("step '{}' gets item '{}' into '{}', but its kernel never reads it",
                                                      step.step->name, b.got->name, p.name()));
        if (b.put && !p.is_written)
            diags_.error(b.put->location, fmt::format("step '{}' puts item '{}' from '{}', but its kernel never writes it",
                                                      step.step->name, b.put->name, p.name()));
        if (!b.put && p.is_written)
            diags_.error(b.got->location,
                         fmt::format("the kernel of step '{}' writes '{}', which the step only gets: items are "
                                     "assigned once, put the result as another item",
                                     step.step->name, p.name()));
    }

    // An extent's value without reporting (already reported where declared).
    std::optional<long long> quiet_constant(const Expr& e) const { return evaluate(e, out_.int_constants); }

    void steps() {
        for (const StepCollection& s : g_.steps) {
            CheckedStep step;
            step.step = &s;
            step.kernel = find_kernel(s);
            auto p = prescribed_.find(s.name);
            if (p != prescribed_.end()) {
                step.prescription = p->second;
                auto t = tags_.find(p->second->tag);
                if (t != tags_.end()) step.tag = t->second;
            }
            step.relations = relations_of_[s.name];
            if (!step.kernel) continue;
            ArrayUses uses;
            for (const Relation* r : step.relations)
                for (auto [list, map] : {std::make_pair(&r->gets, &uses.gets), std::make_pair(&r->puts, &uses.puts)})
                    for (const ItemInstance& i : *list) {
                        auto [it, fresh] = map->emplace(i.parameter, std::make_pair(&i, r));
                        if (!fresh)
                            diags_.error(i.parameter_location,
                                         fmt::format("parameter '{}' of kernel '{}' is bound to two items the step {} "
                                                     "({} and this one): bind each item to its own parameter with "
                                                     "`[parameter = item : tag]`",
                                                     i.parameter, s.name, list == &r->gets ? "gets" : "puts",
                                                     it->second.first->name));
                        else if (list == &r->gets || !uses.gets.count(i.parameter))
                            check_item_is_parameter(step, i.parameter, i);
                    }
            const StepInstance* instance = step.relations.empty() ? nullptr : &step.relations.front()->step;
            step.bindings.resize(step.kernel->params.size());
            // Scalars first: array extents are compared with their values.
            for (size_t i = 0; i < step.kernel->params.size(); ++i)
                if (!step.kernel->params[i]->forms.front().resolved_type.is_array()) bind_scalar(step, i, instance);
            for (size_t i = 0; i < step.kernel->params.size(); ++i)
                if (step.kernel->params[i]->forms.front().resolved_type.is_array()) bind_array(step, i, uses);
            out_.steps.push_back(std::move(step));
        }
    }

    void check_item_is_parameter(const CheckedStep& step, const std::string& parameter, const ItemInstance& use) {
        if (!items_.count(use.name)) return;  // reported as unknown
        for (const auto& p : step.kernel->params)
            if (p->name() == parameter && p->forms.front().resolved_type.is_array()) return;
        std::vector<std::string> arrays;
        for (const auto& p : step.kernel->params)
            if (p->forms.front().resolved_type.is_array()) arrays.push_back(p->name());
        diags_.error(use.parameter_location,
                     fmt::format("step '{}' gets or puts item '{}' as '{}', but its kernel has no array parameter of "
                                 "that name{}",
                                 step.step->name, use.name, parameter, did_you_mean(parameter, arrays)));
    }

    // Every item a step or the environment gets has a producer.
    void producers() {
        std::set<std::string> produced = env_put_items_;
        for (const Relation& r : g_.relations)
            for (const ItemInstance& i : r.puts) produced.insert(i.name);
        std::set<std::string> reported;
        for (const Relation& r : g_.relations)
            for (const ItemInstance& i : r.gets)
                if (items_.count(i.name) && !produced.count(i.name) && reported.insert(i.name).second)
                    diags_.error(i.location, fmt::format("step '{}' gets item '{}', which neither the environment nor "
                                                         "any step puts",
                                                         r.step.name, i.name));
        for (const EnvTarget& t : g_.env_gets)
            if (!t.is_tag && items_.count(t.name) && !produced.count(t.name) && reported.insert(t.name).second)
                diags_.error(t.location, fmt::format("the environment gets item '{}', which nothing puts", t.name));
    }

    // --- cycles ----------------------------------------------------------------------

    // `e` as component `component` plus a constant offset.
    std::optional<long long> shift(const Expr& e, const std::string& component) {
        if (e.kind == Expr::Kind::Name && e.name == component) return 0;
        if (e.kind != Expr::Kind::Binary || (e.op != '+' && e.op != '-')) return std::nullopt;
        auto base = shift(*e.operands[0], component);
        auto offset = quiet_constant(*e.operands[1]);
        if (!base || !offset) return std::nullopt;
        return e.op == '+' ? *base + *offset : *base - *offset;
    }

    // The offsets of an item instance's tag relative to the step's tag, when
    // its i-th function is the step's i-th component plus a constant.
    std::optional<std::vector<long long>> offsets(const ItemInstance& item, const StepInstance& step) {
        if (item.tag.size() != step.components.size()) return std::nullopt;
        std::vector<long long> out;
        for (size_t i = 0; i < item.tag.size(); ++i) {
            auto s = shift(*item.tag[i], step.components[i]);
            if (!s) return std::nullopt;
            out.push_back(*s);
        }
        return out;
    }

    void cycles() {
        // Edges producer -> consumer with the consumer's tag minus the
        // producer's for the same item instance: put at t_p + a, got at t_c + b
        // means t_p = t_c + b - a.
        struct Edge {
            const Relation* from;
            const Relation* to;
            std::vector<long long> delta;
            const ItemInstance* got;
        };
        std::vector<Edge> edges;
        for (const Relation& producer : g_.relations)
            for (const ItemInstance& put : producer.puts)
                for (const Relation& consumer : g_.relations)
                    for (const ItemInstance& got : consumer.gets) {
                        if (got.name != put.name || (&producer == &consumer && same_tag(got, put))) continue;
                        auto a = offsets(put, producer.step), b = offsets(got, consumer.step);
                        if (!a || !b || a->size() != b->size()) continue;
                        std::vector<long long> delta(a->size());
                        for (size_t i = 0; i < delta.size(); ++i) delta[i] = (*b)[i] - (*a)[i];
                        edges.push_back({&producer, &consumer, delta, &got});
                    }
        // A simple cycle whose deltas sum to zero: an instance depends on
        // itself. The search is bounded (graphs are small; a pathological one
        // is not proven wrong rather than searched forever).
        std::set<const Relation*> reported, on_path;
        long budget = 100000;
        std::function<bool(const Relation*, const Relation*, std::vector<long long>)> search =
            [&](const Relation* start, const Relation* at, std::vector<long long> sum) {
                if (--budget < 0 || !on_path.insert(at).second) return false;
                for (const Edge& e : edges) {
                    if (e.from != at || e.delta.size() != sum.size()) continue;
                    std::vector<long long> next = sum;
                    for (size_t i = 0; i < next.size(); ++i) next[i] += e.delta[i];
                    if (e.to == start) {
                        if (std::all_of(next.begin(), next.end(), [](long long v) { return v == 0; })) {
                            if (reported.insert(start).second)
                                diags_.error(e.got->location,
                                             fmt::format("step '{}' gets '{}' from a cycle of steps along which the "
                                                         "tag does not progress: an instance would wait for itself",
                                                         e.to->step.name, e.got->name));
                            return true;
                        }
                        continue;
                    }
                    if (search(start, e.to, next)) {
                        on_path.erase(at);
                        return true;
                    }
                }
                on_path.erase(at);
                return false;
            };
        for (const Relation& r : g_.relations)
            if (!reported.count(&r)) search(&r, &r, std::vector<long long>(r.step.components.size(), 0));
    }

    const Graph& g_;
    const mcpl::Program& program_;
    DiagnosticEngine& diags_;
    size_t errors_at_start_;
    CheckedGraph out_;
    std::map<std::string, SourceLocation> declared_;
    std::map<std::string, const Constant*> constants_;
    std::map<std::string, const ItemCollection*> items_;
    std::map<std::string, const TagCollection*> tags_;
    std::map<std::string, const StepCollection*> steps_;
    std::map<std::string, const Prescription*> prescribed_;
    std::map<std::string, std::vector<const Relation*>> relations_of_;
    std::map<std::string, std::pair<size_t, SourceLocation>> arity_use_;
    std::set<std::string> env_put_items_;
    std::set<std::string> reported_constants_, reported_items_, steps_with_unknown_items_;
    bool unresolved_prescription_ = false;
};

}  // namespace

std::optional<long long> evaluate(const Expr& e, const std::map<std::string, long long>& int_constants) {
    switch (e.kind) {
    case Expr::Kind::Int: return e.value;
    case Expr::Kind::Name: {
        auto it = int_constants.find(e.name);
        return it == int_constants.end() ? std::nullopt : std::optional<long long>(it->second);
    }
    case Expr::Kind::Negate: {
        auto v = evaluate(*e.operands[0], int_constants);
        return v ? negated(*v) : std::nullopt;
    }
    case Expr::Kind::Binary: {
        auto a = evaluate(*e.operands[0], int_constants), b = evaluate(*e.operands[1], int_constants);
        return a && b ? arithmetic(e.op, *a, *b) : std::nullopt;
    }
    }
    return std::nullopt;
}

const ItemCollection& item_named(const Graph& graph, const std::string& name) {
    for (const ItemCollection& i : graph.items)
        if (i.name == name) return i;
    throw std::logic_error("checked graph without item " + name);
}

const char* element_spelling(const ItemCollection& item) {
    const std::string& e = item.element;
    if (e == "byte") return "unsigned char";
    return e == "int" ? "int" : e == "double" ? "double" : e == "bool" ? "bool" : "float";
}

namespace {

void add_range_tags(const EnvTarget& target, size_t depth, const std::map<std::string, long long>& names,
                    TagValue& tag, std::vector<TagValue>& out) {
    if (depth == target.ranges.size()) {
        out.push_back(tag);
        return;
    }
    const Range& r = target.ranges[depth];
    // Checked: every bound evaluates.
    long long low = evaluate(*r.low, names).value_or(0), high = evaluate(*r.high, names).value_or(-1);
    std::map<std::string, long long> inner = names;
    for (long long v = low; v <= high; ++v) {
        tag.push_back(v);
        if (!r.name.empty()) inner[r.name] = v;
        add_range_tags(target, depth + 1, inner, tag, out);
        tag.pop_back();
    }
}

// Adds the tags of `target` from `depth` on to `count`, stopping once
// `count` or the walks of outer ranges (`walked`) pass `limit`: the last
// range is counted, not walked.
void count_range_tags(const EnvTarget& target, size_t depth, std::map<std::string, long long>& names, size_t limit,
                      size_t& count, size_t& walked) {
    const Range& r = target.ranges[depth];
    long long low = evaluate(*r.low, names).value_or(0), high = evaluate(*r.high, names).value_or(-1);
    if (high < low) return;
    if (depth + 1 == target.ranges.size()) {
        long long span = 0;
        if (__builtin_sub_overflow(high, low, &span) || static_cast<unsigned long long>(span) >= limit - count)
            count = limit + 1;
        else
            count += static_cast<size_t>(span) + 1;
        return;
    }
    for (long long v = low; v <= high && count <= limit && walked <= limit; ++v) {
        ++walked;
        if (!r.name.empty()) names[r.name] = v;
        count_range_tags(target, depth + 1, names, limit, count, walked);
        if (v == high) break;  // v + 1 would overflow at LLONG_MAX
    }
    if (walked > limit) count = limit + 1;
}

}  // namespace

size_t range_tag_count(const EnvTarget& target, const CheckedGraph& checked, size_t limit) {
    if (target.ranges.empty()) return 1;
    std::map<std::string, long long> names = checked.int_constants;
    size_t count = 0, walked = 0;
    count_range_tags(target, 0, names, limit, count, walked);
    return std::min(count, limit + 1);
}

std::vector<TagValue> range_tags(const EnvTarget& target, const CheckedGraph& checked) {
    std::map<std::string, long long> names = checked.int_constants;
    TagValue tag;
    std::vector<TagValue> out;
    add_range_tags(target, 0, names, tag, out);
    return out;
}

std::optional<CheckedGraph> check_graph(const Graph& graph, const mcpl::Program& program, DiagnosticEngine& diags) {
    return Checker(graph, program, diags).run();
}

}  // namespace mcl::cnc
