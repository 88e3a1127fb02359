#include "compiler/interpret/Interpreter.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/BarrierScopes.h"
#include "compiler/sema/CheckLimits.h"

namespace mcl::interpret {

using mcpl::BasicDecl;
using mcpl::Decl;
using mcpl::Expr;
using mcpl::Function;
using mcpl::Primitive;
using mcpl::RecordType;
using mcpl::Stmt;
using mcpl::Type;
using mcpl::TypeExpr;
using mcpl::VarPart;

namespace {

constexpr int64_t kMaxCells = int64_t{1} << 26;  // 2 GiB of cells
constexpr int64_t kMaxUnits = int64_t{1} << 24;  // of one foreach, or of units in lock-step
constexpr int kMaxCallDepth = 1000;

// Thrown inside the interpreter to abandon the run; caught at its entry.
struct KernelFault {
    SourceLocation location;
    std::string message;
};

[[noreturn]] void fault(SourceLocation location, std::string message) {
    throw KernelFault{location, std::move(message)};
}

// fmin (smaller) or fmax of MCPL: IEEE 754-2019's minimumNumber and
// maximumNumber. A NaN operand gives the other one; -0 is smaller than +0.
// Defined here rather than taken from the C library, whose choice of sign
// for fmin(+0, -0) differs between its versions; LowerToIr computes the same.
float minimum_number(float x, float y, bool smaller) {
    if (std::isnan(y)) return x;
    if (std::isnan(x)) return y;
    if (x == y) return std::signbit(x) == smaller ? x : y;
    return (x < y) == smaller ? x : y;
}

void append_element_cells(const Type& element, std::vector<Primitive>& out) {
    if (element.record) {
        for (const auto& field : element.record->fields) {
            const Type& ft = field->forms.front().resolved_type;
            for (int64_t k = 0; k < mcpl::record_field_element_count(field->forms.front()); ++k) append_element_cells(ft.element(), out);
        }
        return;
    }
    out.push_back(element.primitive.value_or(Primitive::Int));
}

// A place in memory: the storage, where the place starts in it, and the
// extents still to index (none for one element).
struct Ref {
    StoragePtr storage;
    int64_t offset = 0;
    std::vector<int64_t> extents;
    Type element;              // the element type (array groups dropped)
    size_t element_cells = 1;  // cells per element
    std::string name;          // for messages

    int64_t elements() const {
        return std::accumulate(extents.begin(), extents.end(), int64_t{1}, std::multiplies<>());
    }
    Scalar& cell() const { return storage->cells[static_cast<size_t>(offset)]; }
};

// The variables of one scope of one unit; inner scopes point to outer ones,
// so that the units of a foreach share what is declared around it.
struct Frame {
    Frame* parent = nullptr;
    std::vector<std::pair<const BasicDecl*, Ref>> vars;
    uint32_t unit = 0;  // the unit running in this scope (0: the kernel outside every foreach)
    // The values of the calls of functions with a barrier in the statement
    // this unit runs next, which the units made together beforehand.
    std::vector<std::pair<const Expr*, Scalar>> call_values;

    static Frame inside(Frame& parent) { return Frame{&parent, {}, parent.unit, {}}; }

    Ref* find(const BasicDecl* form) {
        for (Frame* f = this; f; f = f->parent)
            for (auto& [key, ref] : f->vars)
                if (key == form) return &ref;
        return nullptr;
    }
    void bind(const BasicDecl* form, Ref ref) {
        for (auto& [key, old] : vars)
            if (key == form) {
                old = std::move(ref);
                return;
            }
        vars.emplace_back(form, std::move(ref));
    }
};

enum class Flow { Normal, Return };

// The units a barrier synchronises, running in lock-step.
struct UnitSet {
    std::vector<Frame*> frames;
    std::vector<bool> returned;
    // In a function that units call together: the value each returned.
    std::vector<std::optional<Scalar>>* results = nullptr;
};

class Interpreter {
public:
    Interpreter(const hdl::HardwareLibrary* library, InterpretOptions options)
        : library_(library), options_(options), rng_(options.seed),
          barriers_([library](const std::string& name) { return library ? library->find(name) : nullptr; }) {}

    std::vector<ParameterLayout> layouts(const Function& kernel, const std::vector<Scalar>& scalars) {
        Frame frame;
        std::vector<ParameterLayout> out;
        size_t next_scalar = 0;
        for (const auto& p : kernel.params) {
            const BasicDecl& form = p->forms.front();
            ParameterLayout layout;
            layout.decl = p.get();
            layout.name = form.name;
            layout.is_array = form.resolved_type.is_array();
            layout.element_cells = element_cells(form.resolved_type);
            if (!layout.is_array && !form.resolved_type.record && next_scalar < scalars.size()) {
                Ref ref = allocate(form, {});
                ref.cell() = checked(convert(scalars[next_scalar++], ref.cell().type), form.location);
                frame.bind(&form, ref);
            }
            out.push_back(std::move(layout));
        }
        for (ParameterLayout& layout : out)
            if (layout.is_array) layout.extents = extents_of(layout.decl->forms.front().type, frame);
        return out;
    }

    int64_t steps() const { return steps_; }

    void run(const Function& kernel, const std::vector<StoragePtr>& arguments) {
        kernel_model_ = library_ ? library_->find(kernel.hardware) : nullptr;
        Frame frame;
        bind_parameters(kernel, arguments, frame);
        exec(*kernel.body, frame, kernel);
    }

private:
    // --- memory ------------------------------------------------------------------

    std::vector<int64_t> extents_of(const TypeExpr& type, Frame& frame) {
        std::vector<int64_t> out;
        for (const auto& group : type.dimensions)
            for (const auto& extent : group) {
                Scalar v = value(*extent, frame);
                if (v.poison) fault(extent->location, "array size computed from memory that nothing wrote");
                if (v.i < 0) fault(extent->location, fmt::format("array size is negative ({})", v.i));
                out.push_back(v.i);
            }
        return out;
    }

    // New storage for a declaration's first form, every cell unwritten.
    Ref allocate(const BasicDecl& form, std::vector<int64_t> extents) {
        Ref ref;
        ref.extents = std::move(extents);
        ref.element = form.resolved_type.element();
        std::vector<Primitive> cells = element_cells(form.resolved_type);
        ref.element_cells = cells.size();
        ref.name = form.name;
        int64_t elements = ref.elements();
        if (elements > kMaxCells / static_cast<int64_t>(std::max<size_t>(cells.size(), 1)))
            fault(form.location, fmt::format("'{}' has {} elements, more than the interpreter holds", form.name,
                                             elements));
        ref.storage = std::make_shared<Storage>();
        ref.storage->cells.reserve(static_cast<size_t>(elements) * cells.size());
        for (int64_t e = 0; e < elements; ++e)
            for (Primitive p : cells) ref.storage->cells.push_back(Scalar::poisoned(p));
        return ref;
    }

    // Another shape of the storage `of` (an `as` view).
    Ref view(const Ref& of, const BasicDecl& form, std::vector<int64_t> extents) {
        Ref ref = of;
        ref.extents = std::move(extents);
        ref.name = form.name;
        if (ref.elements() * static_cast<int64_t>(ref.element_cells) >
            of.elements() * static_cast<int64_t>(of.element_cells))
            fault(form.location, fmt::format("view '{}' has {} elements, but '{}' holds {}", form.name,
                                             ref.elements(), of.name, of.elements()));
        return ref;
    }

    void bind_parameters(const Function& fn, const std::vector<StoragePtr>& arguments, Frame& frame) {
        for (size_t k = 0; k < fn.params.size(); ++k) {
            const BasicDecl& form = fn.params[k]->forms.front();
            Ref ref;
            ref.storage = arguments.at(k);
            ref.element = form.resolved_type.element();
            ref.element_cells = element_cells(form.resolved_type).size();
            ref.name = form.name;
            frame.bind(&form, ref);
        }
        bind_parameter_shapes(fn, frame);
    }

    // Array parameters take the extents of their declared types, evaluated
    // once the scalars are bound; further forms are views. An argument
    // smaller than its parameter is a fault, not a read past its storage.
    void bind_parameter_shapes(const Function& fn, Frame& frame) {
        for (const auto& p : fn.params) {
            Ref& ref = *frame.find(&p->forms.front());
            const int64_t available = static_cast<int64_t>(ref.storage->cells.size()) - ref.offset;
            if (p->forms.front().resolved_type.is_array()) {
                std::vector<int64_t> declared = extents_of(p->forms.front().type, frame);
                Ref shaped = ref;
                shaped.extents = declared;
                if (shaped.elements() * static_cast<int64_t>(shaped.element_cells) > available)
                    fault(p->forms.front().location,
                          fmt::format("parameter '{}' declares {} elements, but the argument has {}",
                                      p->forms.front().name, shaped.elements(),
                                      available / static_cast<int64_t>(std::max<size_t>(shaped.element_cells, 1))));
                ref = shaped;
            } else if (available < static_cast<int64_t>(ref.element_cells)) {
                fault(p->forms.front().location, fmt::format("parameter '{}' takes {} values, but the argument holds {}",
                                                             p->forms.front().name, ref.element_cells, available));
            }
            for (size_t f = 1; f < p->forms.size(); ++f)
                frame.bind(&p->forms[f], view(*frame.find(&p->forms.front()), p->forms[f],
                                              extents_of(p->forms[f].type, frame)));
        }
    }

    // --- expressions ---------------------------------------------------------------

    Scalar checked(const Outcome& o, SourceLocation at) {
        if (!o.ok()) fault(at, o.error);
        return o.value;
    }

    Scalar constant(const Decl& d) {
        auto found = constants_.find(&d);
        if (found != constants_.end()) return found->second;
        if (!d.init) fault(d.location, fmt::format("constant '{}' has no value", d.name()));
        Frame none;
        Primitive type = d.forms.back().resolved_type.primitive.value_or(Primitive::Int);
        Scalar v = checked(convert(value(*d.init, none), type), d.init->location);
        constants_.emplace(&d, v);
        return v;
    }

    int64_t index_value(const Expr& e, Frame& frame) {
        Scalar v = value(e, frame);
        if (v.poison) fault(e.location, "index computed from memory that nothing wrote");
        if (v.is_floating()) fault(e.location, "index is not an integer");
        return v.i;
    }

    // Applies one part's indices to `ref`.
    void apply_indices(Ref& ref, const VarPart& part, Frame& frame) {
        std::vector<int64_t> indices;
        for (const auto& group : part.indices)
            for (const auto& i : group) indices.push_back(index_value(*i, frame));
        if (indices.empty()) return;
        if (indices.size() > ref.extents.size())
            fault(part.location, fmt::format("'{}' takes at most {} indices", part.name, ref.extents.size()));
        int64_t linear = 0;
        for (size_t k = 0; k < indices.size(); ++k) {
            if (indices[k] < 0 || indices[k] >= ref.extents[k])
                fault(part.indices.front().front()->location,
                      fmt::format("index {} of '{}' is {}, outside 0..{}", k, part.name, indices[k],
                                  ref.extents[k] - 1));
            linear = linear * ref.extents[k] + indices[k];
        }
        std::vector<int64_t> rest(ref.extents.begin() + static_cast<long>(indices.size()), ref.extents.end());
        int64_t inner = std::accumulate(rest.begin(), rest.end(), int64_t{1}, std::multiplies<>());
        ref.offset += linear * inner * static_cast<int64_t>(ref.element_cells);
        ref.extents = std::move(rest);
    }

    // The place a variable expression (`a[i].f[j]`) names.
    Ref place(const Expr& e, Frame& frame) {
        if (e.kind != Expr::Kind::Var || !e.form) fault(e.location, "not a variable");
        Ref* bound = frame.find(e.form);
        Ref ref;
        if (bound) {
            ref = *bound;
        } else if (e.decl && e.decl->is_const && !e.form->resolved_type.is_array()) {
            ref = allocate(*e.form, {});
            ref.cell() = constant(*e.decl);
        } else {
            fault(e.location, fmt::format("'{}' has no storage here", e.var[0].name));
        }
        apply_indices(ref, e.var[0], frame);
        for (size_t k = 1; k < e.var.size(); ++k) {
            const VarPart& part = e.var[k];
            if (!ref.extents.empty() || !ref.element.record) fault(part.location, "field of a non-record");
            int64_t offset = 0;
            const Decl* field = nullptr;
            for (const auto& f : ref.element.record->fields) {
                if (f->name() == part.name) {
                    field = f.get();
                    break;
                }
                offset += mcpl::record_field_element_count(f->forms.front()) * static_cast<int64_t>(element_cells(f->forms.front().resolved_type).size());
            }
            if (!field) fault(part.location, fmt::format("no field '{}'", part.name));
            const Type& ft = field->forms.front().resolved_type;
            ref.offset += offset;
            ref.element = ft.element();
            ref.element_cells = element_cells(ft).size();
            ref.extents = mcpl::record_field_extents(field->forms.front());
            ref.name += fmt::format(".{}", part.name);
            apply_indices(ref, part, frame);
        }
        return ref;
    }

    Scalar value(const Expr& e, Frame& frame) {
        switch (e.kind) {
        case Expr::Kind::IntLiteral:
            return e.int_value > INT32_MAX ? Scalar{Primitive::Int, e.int_value, 0, false} : Scalar::of_int(e.int_value);
        case Expr::Kind::FloatLiteral:
            return e.type.primitive == Primitive::Double ? Scalar::of_double(e.float_value)
                                                         : Scalar::of_float(e.float_value);
        case Expr::Kind::BoolLiteral: return Scalar::of_bool(e.bool_value);
        case Expr::Kind::Var: {
            if (e.hardware) return Scalar::of_int(e.hardware->value);
            Ref ref = place(e, frame);
            if (!ref.extents.empty() || ref.element_cells != 1)
                fault(e.location, fmt::format("'{}' is not a single number here", ref.name));
            note_access(ref, 1, frame, e.location, false);
            return ref.cell();
        }
        case Expr::Kind::Call: return call(e, frame);
        case Expr::Kind::Unary: return checked(unary(e.op, value(*e.args[0], frame)), e.location);
        case Expr::Kind::Binary: {
            if (e.op == "&&" || e.op == "||") {
                Scalar a = value(*e.args[0], frame);
                if (a.poison) return Scalar::poisoned(Primitive::Bool);
                if (a.truth() == (e.op == "||")) return Scalar::of_bool(a.truth());
                Scalar b = value(*e.args[1], frame);
                return b.poison ? Scalar::poisoned(Primitive::Bool) : Scalar::of_bool(b.truth());
            }
            Scalar a = value(*e.args[0], frame);
            Scalar b = value(*e.args[1], frame);
            if (e.op == "^") return checked(power(a, b, e.type.primitive.value_or(Primitive::Int)), e.location);
            return checked(binary(e.op, a, b), e.location);
        }
        }
        fault(e.location, "unknown expression");
    }

    bool condition(const Expr& e, Frame& frame) {
        Scalar v = value(e, frame);
        if (v.poison) fault(e.location, "condition computed from memory that nothing wrote");
        return v.truth();
    }

    void store(const Ref& ref, const Scalar& v, SourceLocation at, const Frame& by) {
        if (!ref.extents.empty()) fault(at, fmt::format("cannot assign to the whole array '{}'", ref.name));
        if (ref.element_cells != 1) fault(at, fmt::format("cannot assign a number to the record '{}'", ref.name));
        note_access(ref, 1, by, at, true);
        ref.cell() = checked(convert(v, ref.cell().type), at);
    }

    void copy_cells(const Ref& to, const Ref& from, SourceLocation at, const Frame& by) {
        int64_t cells = to.elements() * static_cast<int64_t>(to.element_cells);
        if (cells != from.elements() * static_cast<int64_t>(from.element_cells))
            fault(at, fmt::format("'{}' and '{}' differ in size", to.name, from.name));
        note_access(from, cells, by, at, false);
        note_access(to, cells, by, at, true);
        for (int64_t k = 0; k < cells; ++k)
            to.storage->cells[static_cast<size_t>(to.offset + k)] =
                from.storage->cells[static_cast<size_t>(from.offset + k)];
    }

    // --- race detection -----------------------------------------------------------------

    // The ancestors of `a` and `b` (or themselves) just below their common
    // ancestor; one unit twice when one of them runs inside the other.
    std::pair<uint32_t, uint32_t> where_they_part(uint32_t a, uint32_t b) const {
        while (units_[a].depth > units_[b].depth) a = units_[a].parent;
        while (units_[b].depth > units_[a].depth) b = units_[b].parent;
        if (a == b) return {a, b};
        while (units_[a].parent != units_[b].parent) {
            a = units_[a].parent;
            b = units_[b].parent;
        }
        return {a, b};
    }

    // The foreach instance in which units `a` and `b` run side by side (two
    // of its units are their ancestors, or they themselves), or none: one
    // runs inside the other, or their loops run one after the other.
    std::optional<uint32_t> concurrent_in(uint32_t a, uint32_t b) const {
        auto [x, y] = where_they_part(a, b);
        if (x == y || units_[x].foreach_instance != units_[y].foreach_instance) return std::nullopt;
        return units_[x].foreach_instance;
    }

    uint32_t common_ancestor(uint32_t a, uint32_t b) const {
        auto [x, y] = where_they_part(a, b);
        return x == y ? x : units_[x].parent;
    }

    // A barrier that `units` (in lock-step) reach: what they did before it
    // is ordered before what they do after it. That holds for the foreach
    // instances between them and their common ancestor, not beyond: a
    // barrier(local) orders the threads of one block, not two blocks.
    void barrier_orders(const UnitSet& units) {
        if (units.frames.empty()) return;
        ++clock_;
        uint32_t common = units.frames.front()->unit;
        for (const Frame* f : units.frames) common = common_ancestor(common, f->unit);
        for (const Frame* f : units.frames)
            for (uint32_t u = f->unit; u != common; u = units_[u].parent) {
                uint32_t& last = last_barrier_[units_[u].foreach_instance];
                if (last == clock_) break;  // this unit's ancestors are marked already
                last = clock_;
            }
    }

    std::string describe_unit(uint32_t u) const {
        const UnitInfo& info = units_[u];
        return fmt::format("unit {} = {} of the foreach at line {}", info.foreach->decl->name(), info.index,
                           info.foreach->location.line);
    }

    // Whether unit `by` touching a cell now races with what unit `then`
    // did to it at `clock`: they run side by side and no barrier that
    // orders them came between.
    bool races(uint32_t then, uint32_t clock, uint32_t by) {
        if (clock < fence_) return false;
        std::optional<uint32_t> together = concurrent_in(then, by);
        return together && last_barrier_[*together] <= clock;
    }

    // Checks `cells` cells from `ref` against the last write of each (a
    // data race when a concurrent unit wrote it since the last barrier) and,
    // for a write, against the last two units that read it (a concurrent
    // unit's read since the last barrier: the units run in lock-step here,
    // but a GPU's threads do not, and a fast one would overwrite what a
    // slow one has yet to read, say across a loop's back edge); records
    // both.
    void note_access(const Ref& ref, int64_t cells, const Frame& by, SourceLocation at, bool write) {
        auto& writes = ref.storage->last_writes;
        auto& reads = ref.storage->last_reads;
        if (write && writes.size() < ref.storage->cells.size()) writes.resize(ref.storage->cells.size());
        if (reads.size() < ref.storage->cells.size()) reads.resize(ref.storage->cells.size());
        bool written = !writes.empty();  // by a unit, ever: a storage only read keeps no write record
        for (int64_t k = 0; k < cells; ++k) {
            Storage::LastWrite& last = written ? writes[static_cast<size_t>(ref.offset + k)] : unwritten_;
            if (written && races(last.unit, last.clock, by.unit))
                fault(at, fmt::format("data race on '{}': {} {} an element that {} wrote, with no barrier between; "
                                      "give each unit its own elements or use an atomic",
                                      ref.name, describe_unit(by.unit), write ? "writes" : "reads",
                                      describe_unit(last.unit)));
            Storage::LastReads& read = reads[static_cast<size_t>(ref.offset + k)];
            if (!write) {
                if (read.latest.unit != by.unit) read.other = read.latest;
                read.latest = Storage::LastWrite{by.unit, clock_};
                continue;
            }
            for (const Storage::LastWrite& r : {read.latest, read.other})
                if (r.unit != by.unit && races(r.unit, r.clock, by.unit))
                    fault(at, fmt::format("data race on '{}': {} writes an element that {} read, with no barrier "
                                          "between; give each unit its own elements or add a barrier",
                                          ref.name, describe_unit(by.unit), describe_unit(r.unit)));
            last = Storage::LastWrite{by.unit, clock_};
        }
    }

    uint32_t new_unit(const Frame& parent, uint32_t foreach_instance, int64_t index, const Stmt& foreach,
                      int64_t nest_units) {
        units_.push_back(
            UnitInfo{parent.unit, units_[parent.unit].depth + 1, foreach_instance, index, &foreach, nest_units});
        return static_cast<uint32_t>(units_.size() - 1);
    }

    // --- calls -------------------------------------------------------------------------

    Scalar builtin(const Expr& e, Frame& frame) {
        std::vector<Scalar> args;
        for (const auto& a : e.args) args.push_back(value(*a, frame));
        const std::string& c = e.callee;
        if (c == "toFloat") return checked(convert(args[0], Primitive::Float), e.location);
        if (c == "toDouble") return checked(convert(args[0], Primitive::Double), e.location);
        if (c == "toInt") return checked(convert(args[0], Primitive::Int), e.location);
        if (c == "min" || c == "max") {
            Primitive t = e.type.primitive.value_or(Primitive::Int);
            Scalar a = checked(convert(args[0], t), e.location), b = checked(convert(args[1], t), e.location);
            if (a.poison || b.poison) return Scalar::poisoned(t);
            bool a_less = a.as_double() < b.as_double() || (!a.is_floating() && a.i < b.i);
            return (c == "min") == a_less ? a : b;
        }
        if (c == "divide_up") {
            if (args[0].poison || args[1].poison) return Scalar::poisoned(Primitive::Int);
            int64_t a = args[0].i, b = args[1].i;
            if (b <= 0) fault(e.location, fmt::format("divide_up({}, {}): the divisor must be positive", a, b));
            int64_t q = a / b + ((a % b != 0 && a > 0) ? 1 : 0);  // the ceiling of a / b
            return Scalar::of_int(q);
        }
        fault(e.location, fmt::format("the interpreter does not know the builtin '{}'", c));
    }

    // A library function with a builtin body: the C function the backends call.
    Scalar library_function(const Expr& e, Frame& frame) {
        const std::string& c = e.callee;
        if (c == "atomicAdd" || c == "atomicAddInt") {
            Ref target = place(*e.args[0], frame);
            Scalar sum = checked(binary("+", target.cell(), value(*e.args[1], frame)), e.location);
            target.cell() = checked(convert(sum, target.cell().type), e.location);  // atomic: never a race
            return Scalar{};
        }
        std::vector<Scalar> args;
        for (const auto& a : e.args) args.push_back(checked(convert(value(*a, frame), Primitive::Float), e.location));
        for (const Scalar& a : args)
            if (a.poison) return Scalar::poisoned(Primitive::Float);
        auto x = static_cast<float>(args.empty() ? 0 : args[0].f);
        auto y = static_cast<float>(args.size() > 1 ? args[1].f : 0);
        static const std::map<std::string, float (*)(float)> unary_functions = {
            {"sqrt", [](float v) { return std::sqrt(v); }},   {"rsqrt", [](float v) { return 1.0f / std::sqrt(v); }},
            {"exp", [](float v) { return std::exp(v); }},     {"exp2", [](float v) { return std::exp2(v); }},
            {"log", [](float v) { return std::log(v); }},     {"log2", [](float v) { return std::log2(v); }},
            {"fabs", [](float v) { return std::fabs(v); }},   {"floor", [](float v) { return std::floor(v); }},
            {"ceil", [](float v) { return std::ceil(v); }},   {"sin", [](float v) { return std::sin(v); }},
            {"cos", [](float v) { return std::cos(v); }},     {"tan", [](float v) { return std::tan(v); }},
            {"tanh", [](float v) { return std::tanh(v); }},   {"erf", [](float v) { return std::erf(v); }},
            // the native_ forms exactly: the reference their few ulp are measured against
            {"native_exp", [](float v) { return std::exp(v); }},
            {"native_log", [](float v) { return std::log(v); }},
            {"native_recip", [](float v) { return 1.0f / v; }},
        };
        if (auto f = unary_functions.find(c); f != unary_functions.end() && args.size() == 1)
            return Scalar::of_float(f->second(x));
        if (c == "fmin" && args.size() == 2) return Scalar::of_float(minimum_number(x, y, true));
        if (c == "fmax" && args.size() == 2) return Scalar::of_float(minimum_number(x, y, false));
        if (c == "native_divide" && args.size() == 2) return Scalar::of_float(x / y);
        fault(e.location, fmt::format("the interpreter does not know the library function '{}'", c));
    }

    // Binds the callee's parameters in `frame`: arrays, records and written
    // scalars by reference (as the backends pass them), other scalars by value.
    void bind_arguments(const Expr& e, Frame& caller, Frame& frame) {
        const Function& fn = *e.function;
        for (size_t k = 0; k < fn.params.size(); ++k) {
            const Decl& p = *fn.params[k];
            const BasicDecl& form = p.forms.front();
            const Type& t = form.resolved_type;
            if (t.is_array() || t.record || p.is_written) {
                Ref ref = e.args[k]->kind == Expr::Kind::Call ? record_value(*e.args[k], caller) : place(*e.args[k], caller);
                ref.element = t.element();
                ref.name = form.name;
                frame.bind(&form, ref);
                continue;
            }
            Ref ref = allocate(form, {});
            ref.cell() = checked(convert(value(*e.args[k], caller), ref.cell().type), e.args[k]->location);
            frame.bind(&form, ref);
        }
        bind_parameter_shapes(fn, frame);
    }

    Scalar call(const Expr& e, Frame& frame) {
        for (const auto& [made, value] : frame.call_values)
            if (made == &e) return value;
        if (!e.function) return builtin(e, frame);
        if (e.function->builtin_body) return library_function(e, frame);
        if (++call_depth_ > kMaxCallDepth)
            fault(e.location, fmt::format("calls nested more than {} deep", kMaxCallDepth));
        Frame callee;
        callee.unit = frame.unit;
        bind_arguments(e, frame, callee);
        // A record that a discarded call (`make(i);`) returned must not
        // stand in for this call's.
        return_value_.reset();
        returned_record_.reset();
        exec(*e.function->body, callee, *e.function);
        --call_depth_;
        Scalar result = return_value_.value_or(Scalar::poisoned(Primitive::Int));
        return_value_.reset();
        Primitive type = e.function->resolved_return_type.primitive.value_or(Primitive::Void);
        if (type == Primitive::Void) return Scalar{};
        return checked(convert(result, type), e.location);
    }

    // A record expression: a variable (its place) or a call of a function
    // that returns one (a copy the call made at its return, as C returns
    // a struct by value).
    Ref record_value(const Expr& e, Frame& frame) {
        if (e.kind != Expr::Kind::Call) return place(e, frame);
        call(e, frame);
        if (!returned_record_) fault(e.location, fmt::format("'{}' returned no record", e.callee));
        Ref result = std::move(*returned_record_);
        returned_record_.reset();
        return result;
    }

    // A copy of the record `e` names, in storage of its own.
    Ref record_copy(const Expr& e, Frame& frame) {
        Ref source = record_value(e, frame);
        Ref copy = source;
        copy.storage = std::make_shared<Storage>();
        copy.offset = 0;
        copy.extents.clear();
        copy.storage->cells.resize(source.element_cells);
        copy_cells(copy, source, e.location, frame);
        return copy;
    }

    // --- statements ---------------------------------------------------------------------

    void step(SourceLocation at) {
        if (++steps_ > options_.step_limit)
            fault(at, fmt::format("the kernel ran more than {} steps; an endless loop?", options_.step_limit));
    }

    std::vector<int64_t> unit_order(int64_t count) {
        std::vector<int64_t> order(static_cast<size_t>(std::max<int64_t>(count, 0)));
        std::iota(order.begin(), order.end(), 0);
        if (options_.order == UnitOrder::Reverse) std::reverse(order.begin(), order.end());
        if (options_.order == UnitOrder::Shuffled) std::shuffle(order.begin(), order.end(), rng_);
        return order;
    }

    void declare(const Decl& d, Frame& frame) {
        Ref first = allocate(d.forms.front(), extents_of(d.forms.front().type, frame));
        check_capacity(d, first, frame);
        frame.bind(&d.forms.front(), first);
        for (size_t k = 1; k < d.forms.size(); ++k)
            frame.bind(&d.forms[k], view(first, d.forms[k], extents_of(d.forms[k].type, frame)));
        if (d.init) {
            const BasicDecl& last = d.forms.back();
            Ref target = *frame.find(&last);
            if (last.resolved_type.record)
                copy_cells(target, record_value(*d.init, frame), d.init->location, frame);
            else
                store(target, value(*d.init, frame), d.init->location, frame);
        }
    }

    // The arrays a unit declares in a memory space must fit the space's
    // capacity in the kernel's description, as CheckLimits checks the
    // constant sizes; this checks the sizes known only now (`local
    // float[2 * n]`), which a GPU would refuse to launch.
    void check_capacity(const Decl& d, const Ref& storage, const Frame& frame) {
        if (!kernel_model_ || d.memory_space.empty() || storage.extents.empty()) return;
        auto [cached, fresh] = capacities_.try_emplace({kernel_model_, d.memory_space});
        if (fresh) cached->second = mcpl::space_capacity(*kernel_model_, d.memory_space);
        const std::optional<mcpl::SpaceCapacity>& capacity = cached->second;
        int64_t bytes = mcpl::element_byte_size(d.forms.front().resolved_type);
        if (!capacity || bytes == 0) return;
        for (int64_t extent : storage.extents)
            if (__builtin_mul_overflow(bytes, extent, &bytes)) bytes = std::numeric_limits<int64_t>::max();
        std::map<const Decl*, int64_t>& declared = space_bytes_[{frame.unit, d.memory_space}];
        declared[&d] = bytes;
        int64_t total = 0;
        for (const auto& [decl, size] : declared)
            if (__builtin_add_overflow(total, size, &total)) total = std::numeric_limits<int64_t>::max();
        if (total <= capacity->bytes) return;
        fault(d.forms.front().location,
              mcpl::past_capacity_message(d.forms.front().name, d.memory_space, fmt::format("{} bytes", total),
                                          kernel_model_->name, *capacity));
    }

    // A unit has ended: its arrays no longer take room, and its number is
    // given again after the next fence (units_ shrinks there).
    void release_space(uint32_t unit) {
        space_bytes_.erase(space_bytes_.lower_bound({unit, std::string()}),
                           space_bytes_.lower_bound({unit + 1, std::string()}));
    }

    void assign(const Stmt& s, Frame& frame) {
        Ref target = place(*s.target, frame);
        if (options_.deferred.stores.count(&s) && s.op == "=" && !target.element.record) {
            pending_stores_[frame.unit].push_back({target, value(*s.value, frame), s.location});
            return;
        }
        if (s.op == "=" && target.element.record) {
            copy_cells(target, record_value(*s.value, frame), s.location, frame);
            return;
        }
        Scalar v = value(*s.value, frame);
        if (s.op != "=") {
            if (!target.extents.empty() || target.element_cells != 1)
                fault(s.location, fmt::format("'{}' is not a single number", target.name));
            std::string op = s.op.substr(0, s.op.size() - 1);
            note_access(target, 1, frame, s.location, false);
            v = checked(binary(op, target.cell(), v), s.location);
        }
        store(target, v, s.location, frame);
    }

    void swap(const Stmt& s, Frame& frame) {
        Ref a = place(*s.target, frame), b = place(*s.value, frame);
        bool whole_arrays = !a.extents.empty() && s.target->var.size() == 1 && s.target->var[0].indices.empty() &&
                            s.value->var.size() == 1 && s.value->var[0].indices.empty();
        if (whole_arrays) {  // the two names trade their storage, as pointers would
            Ref* ra = frame.find(s.target->form);
            Ref* rb = frame.find(s.value->form);
            std::swap(*ra, *rb);
            std::swap(ra->name, rb->name);
            return;
        }
        Ref tmp = allocate(*s.target->form, {});
        tmp.extents = a.extents;
        tmp.element = a.element;
        tmp.element_cells = a.element_cells;
        tmp.storage->cells.assign(a.storage->cells.begin() + a.offset,
                                  a.storage->cells.begin() + a.offset + a.elements() * static_cast<int64_t>(a.element_cells));
        copy_cells(a, b, s.location, frame);
        copy_cells(b, tmp, s.location, frame);
    }

    void as_views(const Stmt& s, Frame& frame) {
        Ref of = place(*s.target, frame);
        for (const BasicDecl& v : s.views) frame.bind(&v, view(of, v, extents_of(v.type, frame)));
    }

    // The count of foreach `s`, with the units of its nest over one
    // par_group at once (`nest_units`), which must fit the description's
    // max_nr_units: CheckLimits checks the constant counts, this the
    // counts known only now (`2 * n threads`), which a GPU would refuse to
    // launch.
    int64_t foreach_count(const Stmt& s, Frame& frame, const Function& fn, int64_t& nest_units) {
        Scalar n = value(*s.count, frame);
        if (n.poison) fault(s.count->location, "number of units computed from memory that nothing wrote");
        if (n.i > kMaxUnits)
            fault(s.count->location, fmt::format("{} units, more than the interpreter runs ({})", n.i, kMaxUnits));
        auto [cached, fresh] = foreach_limits_.try_emplace(&s);
        if (fresh) {
            cached->second.model = library_ ? library_->find(fn.hardware) : nullptr;
            const hdl::ParGroup* group = cached->second.model ? cached->second.model->find_par_group(s.name) : nullptr;
            if (group) cached->second.limit = mcpl::unit_limit(*cached->second.model, *group);
        }
        const hdl::HardwareModel* model = cached->second.model;
        const std::optional<mcpl::UnitLimit>& limit = cached->second.limit;
        const UnitInfo& around = units_[frame.unit];
        bool nested = around.foreach && around.foreach->name == s.name && !(limit && limit->per_loop);
        nest_units = n.i;
        if (nested && __builtin_mul_overflow(around.nest_units, n.i, &nest_units))
            nest_units = std::numeric_limits<int64_t>::max();
        if (limit && nest_units > limit->max) {
            std::string where = limit->owner.empty() ? std::string() : fmt::format(" in a {}", limit->owner);
            fault(s.count->location, fmt::format("{} {}{}, but {} allows at most {} ({})", nest_units, s.name, where,
                                                 model->name, limit->max, limit->path));
        }
        return n.i;
    }

    Ref index_ref(const Stmt& s, int64_t index) {
        Ref ref = allocate(s.decl->forms.front(), {});
        ref.cell() = Scalar::of_int(index);
        return ref;
    }

    // The stores unit `frame.unit` deferred land, newest first.
    void land_stores(const Frame& frame) {
        auto it = pending_stores_.find(frame.unit);
        if (it == pending_stores_.end()) return;
        std::vector<PendingStore> stores = std::move(it->second);
        pending_stores_.erase(it);
        for (auto store_it = stores.rbegin(); store_it != stores.rend(); ++store_it)
            store(store_it->target, store_it->value, store_it->location, frame);
    }

    void land_stores(const UnitSet& units) {
        for (const Frame* f : units.frames) land_stores(*f);
    }

    Flow exec(const Stmt& s, Frame& frame, const Function& fn) {
        step(s.location);
        if (options_.deferred.land_before.count(&s)) land_stores(frame);
        switch (s.kind) {
        case Stmt::Kind::Block: {
            Frame inner = Frame::inside(frame);
            for (const auto& child : s.body)
                if (exec(*child, inner, fn) == Flow::Return) return Flow::Return;
            return Flow::Normal;
        }
        case Stmt::Kind::Decl: declare(*s.decl, frame); return Flow::Normal;
        case Stmt::Kind::Assign: assign(s, frame); return Flow::Normal;
        case Stmt::Kind::Step: {
            Ref target = place(*s.target, frame);
            note_access(target, 1, frame, s.location, false);
            store(target, checked(binary(s.op == "++" ? "+" : "-", target.cell(), Scalar::of_int(1)), s.location),
                  s.location, frame);
            return Flow::Normal;
        }
        case Stmt::Kind::Swap: swap(s, frame); return Flow::Normal;
        case Stmt::Kind::Call: value(*s.call, frame); return Flow::Normal;
        case Stmt::Kind::Return:
            if (s.value && fn.resolved_return_type.record) returned_record_ = record_copy(*s.value, frame);
            else if (s.value) return_value_ = value(*s.value, frame);
            return Flow::Return;
        case Stmt::Kind::If:
            if (condition(*s.condition, frame)) return exec(*s.then_branch, frame, fn);
            return s.else_branch ? exec(*s.else_branch, frame, fn) : Flow::Normal;
        case Stmt::Kind::For: {
            Frame loop = Frame::inside(frame);
            declare(*s.decl, loop);
            while (true) {
                step(s.location);
                if (!condition(*s.condition, loop)) return Flow::Normal;
                if (exec(*s.loop_body, loop, fn) == Flow::Return) return Flow::Return;
                exec(*s.step, loop, fn);
            }
        }
        case Stmt::Kind::Foreach: {
            int64_t nest_units = 0;
            int64_t count = foreach_count(s, frame, fn, nest_units);
            uint32_t instance = ++foreach_instances_;
            if (barriers_.lockstep(s, fn)) {
                std::vector<std::unique_ptr<Frame>> frames;
                UnitSet units;
                for (int64_t k = 0; k < count; ++k) {
                    frames.push_back(std::make_unique<Frame>(Frame::inside(frame)));
                    frames.back()->unit = new_unit(frame, instance, k, s, nest_units);
                    frames.back()->bind(&s.decl->forms.front(), index_ref(s, k));
                    units.frames.push_back(frames.back().get());
                }
                units.returned.assign(units.frames.size(), false);
                exec_together(*s.loop_body, units, fn);
                if (options_.deferred.land_after.count(&s)) land_stores(units);
                for (const Frame* unit : units.frames) release_space(unit->unit);
            } else {
                for (int64_t k : unit_order(count)) {
                    Frame unit = Frame::inside(frame);
                    unit.unit = new_unit(frame, instance, k, s, nest_units);
                    unit.bind(&s.decl->forms.front(), index_ref(s, k));
                    exec(*s.loop_body, unit, fn);  // a return ends this unit only
                    if (options_.deferred.land_after.count(&s)) land_stores(unit);
                    release_space(unit.unit);
                }
            }
            if (frame.unit == 0) {
                // A top-level loop has finished: nothing runs beside the kernel's own
                // code, so its units' writes are ordered before what follows and their
                // records can go (host loops would otherwise grow them without bound).
                fence_ = ++clock_;
                units_.resize(1);
                last_barrier_.clear();
            }
            return Flow::Normal;
        }
        case Stmt::Kind::Barrier: return Flow::Normal;  // nothing else runs beside this unit
        case Stmt::Kind::As: as_views(s, frame); return Flow::Normal;
        }
        return Flow::Normal;
    }

    // --- units in lock-step -------------------------------------------------------------

    // Runs `run` for every unit that has not returned, in the chosen order.
    template <typename Run>
    void each_unit(UnitSet& units, Run&& run) {
        for (int64_t k : unit_order(static_cast<int64_t>(units.frames.size()))) {
            auto u = static_cast<size_t>(k);
            if (!units.returned[u]) run(u);
        }
    }

    // Evaluates a condition around a barrier in every unit; they must agree.
    bool agreed_condition(const Expr& e, UnitSet& units) {
        call_barrier_functions_together(e, units);
        std::optional<bool> agreed;
        each_unit(units, [&](size_t u) {
            bool c = condition(e, *units.frames[u]);
            if (agreed && *agreed != c)
                fault(e.location, "units that synchronise at a barrier inside this construct disagree on this "
                                  "condition, so some would not reach the barrier");
            agreed = c;
        });
        forget_call_values(units);
        return agreed.value_or(false);
    }

    UnitSet inner_scopes(UnitSet& units, std::vector<std::unique_ptr<Frame>>& storage) {
        UnitSet inner;
        for (Frame* f : units.frames) {
            storage.push_back(std::make_unique<Frame>(Frame::inside(*f)));
            inner.frames.push_back(storage.back().get());
        }
        inner.returned = units.returned;
        inner.results = units.results;
        return inner;
    }

    // Unit `u` ran a return: it waits at no more barriers, and its value is kept.
    void unit_returned(UnitSet& units, size_t u) {
        units.returned[u] = true;
        if (units.results) (*units.results)[u] = return_value_;
        return_value_.reset();
    }

    void exec_together(const Stmt& s, UnitSet& units, const Function& fn) {
        step(s.location);
        if (options_.deferred.land_before.count(&s)) land_stores(units);
        if (!barriers_.has_barrier(s, fn)) {
            each_unit(units, [&](size_t u) {
                if (exec(s, *units.frames[u], fn) == Flow::Return) unit_returned(units, u);
            });
            return;
        }
        std::vector<std::unique_ptr<Frame>> frames;
        switch (s.kind) {
        case Stmt::Kind::Block: {
            UnitSet inner = inner_scopes(units, frames);
            // Statements without a barrier between two barriers run unit by unit.
            size_t k = 0;
            while (k < s.body.size()) {
                if (barriers_.has_barrier(*s.body[k], fn)) {
                    exec_together(*s.body[k++], inner, fn);
                    continue;
                }
                size_t end = k;
                while (end < s.body.size() && !barriers_.has_barrier(*s.body[end], fn)) ++end;
                each_unit(inner, [&](size_t u) {
                    for (size_t j = k; j < end; ++j)
                        if (exec(*s.body[j], *inner.frames[u], fn) == Flow::Return) {
                            unit_returned(inner, u);
                            break;
                        }
                });
                k = end;
            }
            units.returned = inner.returned;
            return;
        }
        case Stmt::Kind::Barrier:
            // Once all units returned, none waits here.
            if (std::find(units.returned.begin(), units.returned.end(), false) == units.returned.end()) return;
            if (std::find(units.returned.begin(), units.returned.end(), true) != units.returned.end())
                fault(s.location, fmt::format("barrier({}) is not reached by units that returned before it", s.name));
            barrier_orders(units);
            return;
        case Stmt::Kind::If:
            if (agreed_condition(*s.condition, units)) exec_together(*s.then_branch, units, fn);
            else if (s.else_branch) exec_together(*s.else_branch, units, fn);
            return;
        case Stmt::Kind::For: {
            UnitSet loop = inner_scopes(units, frames);
            if (s.decl->init) call_barrier_functions_together(*s.decl->init, loop);
            each_unit(loop, [&](size_t u) { declare(*s.decl, *loop.frames[u]); });
            forget_call_values(loop);
            while (agreed_condition(*s.condition, loop)) {
                exec_together(*s.loop_body, loop, fn);
                exec_together(*s.step, loop, fn);
            }
            units.returned = loop.returned;
            return;
        }
        case Stmt::Kind::Foreach: {
            call_barrier_functions_together(*s.count, units);
            UnitSet inner;
            for (size_t u = 0; u < units.frames.size(); ++u) {
                if (units.returned[u]) continue;
                int64_t nest_units = 0;
                int64_t count = foreach_count(s, *units.frames[u], fn, nest_units);
                uint32_t instance = ++foreach_instances_;
                for (int64_t k = 0; k < count; ++k) {
                    frames.push_back(std::make_unique<Frame>(Frame::inside(*units.frames[u])));
                    frames.back()->unit = new_unit(*units.frames[u], instance, k, s, nest_units);
                    frames.back()->bind(&s.decl->forms.front(), index_ref(s, k));
                    inner.frames.push_back(frames.back().get());
                }
                if (static_cast<int64_t>(inner.frames.size()) > kMaxUnits)
                    fault(s.location, fmt::format("more than {} units in lock-step", kMaxUnits));
            }
            forget_call_values(units);
            inner.returned.assign(inner.frames.size(), false);
            exec_together(*s.loop_body, inner, fn);
            if (options_.deferred.land_after.count(&s)) land_stores(inner);
            for (const Frame* unit : inner.frames) release_space(unit->unit);
            return;
        }
        case Stmt::Kind::Call:
            if (barriers_.call_reaches_barrier(*s.call)) {
                for (const mcpl::ExprPtr& arg : s.call->args) call_barrier_functions_together(*arg, units);
                call_together(*s.call, units, s.location);
                forget_call_values(units);
                return;
            }
            [[fallthrough]];
        default:
            // A statement whose expressions call functions with a barrier
            // (`float s = 2.0 * smooth(t, i) + 1.0;`): the units make those
            // calls together, then each runs the statement with its values.
            for_each_own_expr(s, [&](const Expr& e) { call_barrier_functions_together(e, units); });
            each_unit(units, [&](size_t u) {
                if (exec(s, *units.frames[u], fn) == Flow::Return) unit_returned(units, u);
            });
            forget_call_values(units);
            return;
        }
    }

    // Makes every call in `e` of a function with a barrier for all units
    // together, in evaluation order (a call's arguments before the call),
    // and leaves each unit's value in its frame for the evaluation of `e`.
    void call_barrier_functions_together(const Expr& e, UnitSet& units) {
        barriers_.for_each_barrier_call(
            e, [&](const Expr& c) { call_barrier_function_together(c, units); },
            [&](const Expr& c, const std::string& op) {
                fault(c.location, fmt::format("a function with a barrier in the right operand of '{}': the units "
                                              "that skip that operand would not reach the barrier",
                                              op));
            });
    }

    void call_barrier_function_together(const Expr& e, UnitSet& units) {
        if (e.type.record)
            fault(e.location, "a barrier inside a function that returns a record, which the interpreter cannot "
                              "call for units in lock-step");
        std::vector<std::optional<Scalar>> results = call_together(e, units, e.location);
        Primitive type = e.function->resolved_return_type.primitive.value_or(Primitive::Void);
        each_unit(units, [&](size_t u) {
            Scalar value = type == Primitive::Void
                               ? Scalar{}
                               : checked(convert(results[u].value_or(Scalar::poisoned(Primitive::Int)), type),
                                         e.location);
            units.frames[u]->call_values.emplace_back(&e, value);
        });
    }

    void forget_call_values(UnitSet& units) {
        for (Frame* frame : units.frames) frame->call_values.clear();
    }

    // Runs a function with a barrier for every unit together; gives the
    // value each unit returned (none for a void function).
    std::vector<std::optional<Scalar>> call_together(const Expr& c, UnitSet& units, SourceLocation location) {
        if (!c.function || !c.function->body || c.function->builtin_body)
            fault(location, "a barrier inside a call the interpreter cannot run in lock-step");
        std::vector<std::unique_ptr<Frame>> frames;
        std::vector<std::optional<Scalar>> results(units.frames.size());
        UnitSet callee;
        for (size_t u = 0; u < units.frames.size(); ++u) {
            frames.push_back(std::make_unique<Frame>());
            frames.back()->unit = units.frames[u]->unit;
            if (!units.returned[u]) bind_arguments(c, *units.frames[u], *frames.back());
            callee.frames.push_back(frames.back().get());
        }
        callee.returned = units.returned;
        callee.results = &results;
        exec_together(*c.function->body, callee, *c.function);
        return results;
    }

    const hdl::HardwareLibrary* library_;
    const hdl::HardwareModel* kernel_model_ = nullptr;  // of the kernel's description (run)
    // Per running unit and memory space, the bytes of each array it
    // declared there (check_capacity).
    std::map<std::pair<uint32_t, std::string>, std::map<const Decl*, int64_t>> space_bytes_;
    // Looked up once: the capacity of each memory space of a description
    // (check_capacity), and the description and unit limit of each foreach
    // (foreach_count).
    std::map<std::pair<const hdl::HardwareModel*, std::string>, std::optional<mcpl::SpaceCapacity>> capacities_;
    struct ForeachLimit {
        const hdl::HardwareModel* model = nullptr;
        std::optional<mcpl::UnitLimit> limit;
    };
    std::map<const Stmt*, ForeachLimit> foreach_limits_;
    InterpretOptions options_;
    std::mt19937_64 rng_;
    std::map<const Decl*, Scalar> constants_;
    mcpl::BarrierScopes barriers_;
    std::optional<Scalar> return_value_;
    std::optional<Ref> returned_record_;  // of a function that returns a record
    // The units run so far (0: the kernel outside every foreach), for race detection.
    struct UnitInfo {
        uint32_t parent = 0;
        uint32_t depth = 0;
        uint32_t foreach_instance = 0;
        int64_t index = 0;
        const Stmt* foreach = nullptr;
        int64_t nest_units = 1;  // of its foreach's nest over one par_group at once (foreach_count)
    };
    std::vector<UnitInfo> units_{UnitInfo{}};
    uint32_t foreach_instances_ = 0;
    // The race detection's clock: it advances at every barrier and at the
    // end of every top-level foreach (the fence: all before it is ordered
    // before all after it); per foreach instance, the clock of its last
    // barrier.
    uint32_t clock_ = 0;
    uint32_t fence_ = 0;
    std::map<uint32_t, uint32_t> last_barrier_;
    Storage::LastWrite unwritten_;  // the write record of a cell no unit wrote
    int64_t steps_ = 0;
    int call_depth_ = 0;
    // Per unit, the stores it deferred (InterpretOptions::deferred), oldest first.
    struct PendingStore {
        Ref target;
        Scalar value;
        SourceLocation location;
    };
    std::map<uint32_t, std::vector<PendingStore>> pending_stores_;
};

}  // namespace

std::vector<Primitive> element_cells(const Type& t) {
    std::vector<Primitive> out;
    append_element_cells(t.element(), out);
    return out;
}

int64_t ParameterLayout::elements() const {
    return std::accumulate(extents.begin(), extents.end(), int64_t{1}, std::multiplies<>());
}

std::optional<InterpretError> parameter_layouts(const Function& kernel,
                                                const std::vector<Scalar>& scalars,
                                                std::vector<ParameterLayout>& layouts) {
    try {
        layouts = Interpreter(nullptr, InterpretOptions{}).layouts(kernel, scalars);
    } catch (const KernelFault& f) {
        return InterpretError{f.location, f.message};
    }
    return std::nullopt;
}

std::optional<InterpretError> run_kernel(const hdl::HardwareLibrary& library,
                                         const Function& kernel, const std::vector<StoragePtr>& arguments,
                                         const InterpretOptions& options) {
    if (arguments.size() != kernel.params.size())
        return InterpretError{kernel.location, fmt::format("'{}' takes {} arguments, not {}", kernel.name,
                                                           kernel.params.size(), arguments.size())};
    try {
        Interpreter interpreter(&library, options);
        interpreter.run(kernel, arguments);
        if (options.steps_run) *options.steps_run = interpreter.steps();
    } catch (const KernelFault& f) {
        return InterpretError{f.location, f.message};
    }
    return std::nullopt;
}

}  // namespace mcl::interpret
