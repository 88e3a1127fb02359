#include "feedback/OperationStatistics.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"

namespace mcl::feedback {

namespace {

using mcpl::Expr;
using mcpl::Stmt;

struct Counts {
    GiNaC::ex computations = 0;
    GiNaC::ex indexing = 0;
    GiNaC::ex control = 0;
    GiNaC::ex double_computations = 0;  // of computations
    std::map<std::string, GiNaC::ex> library_calls;  // of computations: builtin-bodied function -> calls
    bool approximate = false;
};

bool is_double(const mcpl::Type& t) { return !t.is_array() && t.primitive == mcpl::Primitive::Double; }

bool is_arithmetic(const std::string& op) {
    static const std::set<std::string> ops{"+", "-", "*", "/", "%", "^", "&", "|", "<<", ">>"};
    return ops.count(op) > 0;
}

// What a local scalar's value is used for (thesis 3.6.2: output-defining,
// indexing and control-flow blocks). A declaration's arithmetic counts as
// computation when its value reaches data, as indexing when it only reaches
// index expressions, and as control flow otherwise.
enum Role : unsigned { kValue = 1, kIndex = 2, kControl = 4 };

class LocalRoles {
public:
    explicit LocalRoles(const Stmt& body) {
        statement(body);
        // A local used to compute another inherits that one's roles.
        for (bool changed = true; changed;) {
            changed = false;
            for (const auto& [user, used] : feeds_)
                for (const mcpl::Decl* d : used) {
                    unsigned before = roles_[d];
                    roles_[d] |= roles_[user];
                    changed |= roles_[d] != before;
                }
        }
    }

    unsigned role(const mcpl::Decl* d) const {
        auto it = roles_.find(d);
        return it == roles_.end() ? kValue : it->second;
    }

private:
    void uses(const Expr& e, unsigned role, const mcpl::Decl* defining) {
        if (e.kind == Expr::Kind::Var && e.decl) {
            if (defining) feeds_[defining].insert(e.decl);
            else roles_[e.decl] |= role;
            for (const auto& part : e.var)
                for (const auto& group : part.indices)
                    for (const auto& index : group) uses(*index, kIndex, nullptr);
            return;
        }
        for (const auto& a : e.args) uses(*a, role, defining);
    }

    void statement(const Stmt& s) {
        if (s.decl && s.decl->init) uses(*s.decl->init, kValue, s.decl.get());
        if (s.target) uses(*s.target, kValue, nullptr);
        if (s.value) uses(*s.value, kValue, nullptr);
        if (s.call) uses(*s.call, kValue, nullptr);
        if (s.condition) uses(*s.condition, kControl, nullptr);
        if (s.count) uses(*s.count, kControl, nullptr);
        mcpl::for_each_child_stmt(s, [&](const Stmt& child) { statement(child); });
    }

    std::map<const mcpl::Decl*, unsigned> roles_;
    std::map<const mcpl::Decl*, std::set<const mcpl::Decl*>> feeds_;
};

class OperationCounter {
public:
    explicit OperationCounter(Symbols& symbols) : symbols_(symbols) {}

    Counts function(const mcpl::Function& f) {
        if (auto it = memo_.find(&f); it != memo_.end()) return it->second;
        if (!active_.insert(&f).second) {  // recursion: counted once, approximate
            Counts once;
            once.approximate = true;
            return once;
        }
        Counts saved = counts_;
        counts_ = Counts{};
        LocalRoles roles(*f.body);
        const LocalRoles* saved_roles = roles_;
        roles_ = &roles;
        if (!f.builtin_body) statement(*f.body);
        roles_ = saved_roles;
        Counts result = counts_;
        counts_ = saved;
        active_.erase(&f);
        memo_[&f] = result;
        return result;
    }

private:
    // Arithmetic in `e`: into `computations`, or `indexing` inside indices,
    // or wherever `bucket` says for a declaration's value.
    void expr(const Expr& e, bool in_index, GiNaC::ex* bucket = nullptr) {
        GiNaC::ex& target = in_index ? counts_.indexing : bucket ? *bucket : counts_.computations;
        switch (e.kind) {
        case Expr::Kind::Var:
            for (const auto& part : e.var)
                for (const auto& group : part.indices)
                    for (const auto& index : group) expr(*index, true);
            return;
        case Expr::Kind::Unary:
            if (e.op == "-") count(target, e.type);
            expr(*e.args[0], in_index, bucket);
            return;
        case Expr::Kind::Binary:
            if (is_arithmetic(e.op)) count(target, e.type);
            expr(*e.args[0], in_index, bucket);
            expr(*e.args[1], in_index, bucket);
            return;
        case Expr::Kind::Call:
            for (const auto& a : e.args) expr(*a, in_index, bucket);
            if (e.function && !e.function->builtin_body) {
                Counts callee = function(*e.function);
                counts_.computations += callee.computations;
                counts_.indexing += callee.indexing;
                counts_.control += callee.control;
                counts_.double_computations += callee.double_computations;
                for (const auto& [name, calls] : callee.library_calls) counts_.library_calls[name] += calls;
                counts_.approximate |= callee.approximate;
            } else {
                count(target, e.type);  // a builtin or library operation
                if (e.function && &target == &counts_.computations) counts_.library_calls[e.function->name] += 1;
            }
            return;
        default: return;
        }
    }

    // One instruction with a result of type `result` into `target`.
    void count(GiNaC::ex& target, const mcpl::Type& result) {
        target += 1;
        if (&target == &counts_.computations && is_double(result)) counts_.double_computations += 1;
    }

    void condition(const Expr& e) {
        counts_.control += 1;
        expr(e, false);
    }

    void statement(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Block:
            for (const auto& c : s.body) statement(*c);
            return;
        case Stmt::Kind::Decl:
            if (s.decl->init) expr(*s.decl->init, false, bucket_for(*s.decl));
            if (s.decl->is_const) symbols_.define_constant(*s.decl);
            return;
        case Stmt::Kind::Assign:
            if (s.op != "=") count(counts_.computations, s.target->type);
            expr(*s.target, false);
            expr(*s.value, false);
            return;
        case Stmt::Kind::Step:
            count(counts_.computations, s.target->type);
            expr(*s.target, false);
            return;
        case Stmt::Kind::Swap:
            expr(*s.target, false);
            expr(*s.value, false);
            return;
        case Stmt::Kind::Call: expr(*s.call, false); return;
        case Stmt::Kind::Return:
            if (s.value) expr(*s.value, false);
            return;
        case Stmt::Kind::If:
            condition(*s.condition);
            counts_.approximate = true;  // both branches counted as taken
            statement(*s.then_branch);
            if (s.else_branch) statement(*s.else_branch);
            return;
        case Stmt::Kind::For: {
            if (s.decl->init) expr(*s.decl->init, false);
            loop(describe_loop(s, symbols_), [&] {
                condition(*s.condition);
                counts_.control += 1;  // the step
                statement(*s.loop_body);
            });
            return;
        }
        case Stmt::Kind::Foreach:
            loop(describe_loop(s, symbols_), [&] { statement(*s.loop_body); });
            return;
        case Stmt::Kind::Barrier:
        case Stmt::Kind::As: return;
        }
    }

    GiNaC::ex* bucket_for(const mcpl::Decl& d) {
        unsigned role = roles_->role(&d);
        if (role & kValue) return &counts_.computations;
        if (role & kIndex) return &counts_.indexing;
        return &counts_.control;
    }

    // The body's counts per iteration (in the loop's index) summed over the
    // loop, so that a triangular nest leaves no index in the totals.
    template <typename Body>
    void loop(const Loop& l, Body body) {
        Counts outside = counts_;
        counts_ = Counts{};
        body();
        bool approximate = counts_.approximate;
        outside.computations += sum_over_loop(counts_.computations, l, symbols_, approximate);
        outside.indexing += sum_over_loop(counts_.indexing, l, symbols_, approximate);
        outside.control += sum_over_loop(counts_.control, l, symbols_, approximate);
        outside.double_computations += sum_over_loop(counts_.double_computations, l, symbols_, approximate);
        for (const auto& [name, calls] : counts_.library_calls)
            outside.library_calls[name] += sum_over_loop(calls, l, symbols_, approximate);
        outside.approximate |= approximate;
        counts_ = outside;
    }

    Symbols& symbols_;
    Counts counts_;
    std::map<const mcpl::Function*, Counts> memo_;
    std::set<const mcpl::Function*> active_;
    const LocalRoles* roles_ = nullptr;
};

}  // namespace

OperationTotals count_operations(const FeedbackInput& input) {
    OperationCounter counter(input.symbols);
    Counts counts = counter.function(input.function);
    OperationTotals totals;
    totals.computations = counts.computations;
    totals.indexing = counts.indexing;
    totals.control = counts.control;
    totals.double_computations = counts.double_computations;
    totals.library_calls = counts.library_calls;
    totals.approximate = counts.approximate;
    for (const Access& a : input.accesses) {
        bool approx = a.approximate;
        GiNaC::ex n = executions(a.loops, input.symbols, approx);
        totals.approximate |= approx;
        auto& [loads, stores] =
            totals.per_space[a.variable->memory_space.empty() ? "(none)" : a.variable->memory_space];
        if (a.read) loads += n, totals.accesses += n;
        if (a.written) stores += n, totals.accesses += n;
    }
    return totals;
}

std::vector<Remark> operation_statistics(const FeedbackInput& input) {
    const OperationTotals totals = count_operations(input);
    const bool approximate = totals.approximate;

    Symbols& sym = input.symbols;
    Remark ops;
    ops.kind = RemarkKind::Operations;
    ops.location = input.function.location;
    ops.approximate = approximate;
    ops.quantities.push_back(sym.quantity("computations", totals.computations));
    ops.quantities.push_back(sym.quantity("indexing", totals.indexing));
    ops.quantities.push_back(sym.quantity("control_flow", totals.control));
    std::string memory;
    for (const auto& [space, ls] : totals.per_space) {
        NamedQuantity loads = sym.quantity("loads_" + space, ls.first);
        NamedQuantity stores = sym.quantity("stores_" + space, ls.second);
        memory += fmt::format("; {} loads {}, stores {}", space, with_value(sym, loads.expr), with_value(sym, stores.expr));
        ops.quantities.push_back(loads);
        ops.quantities.push_back(stores);
    }
    std::string in_double;
    if (!totals.double_computations.is_zero()) {
        NamedQuantity doubles = sym.quantity("double_computations", totals.double_computations);
        in_double = fmt::format(" ({} in double precision)", with_value(sym, doubles.expr));
        ops.quantities.push_back(doubles);
    }
    // A library function (lib.math's exp, log, sqrt) is one instruction of
    // the count but, unless the target has it in hardware, a sequence of
    // them: name the calls so that the author can weigh them.
    std::string library;
    for (const auto& [name, calls] : totals.library_calls) {
        NamedQuantity n = sym.quantity("calls_" + name, calls);
        library += fmt::format("{}{} {}", library.empty() ? "" : ", ", name, with_value(sym, n.expr));
        ops.quantities.push_back(n);
    }
    if (!library.empty()) library = fmt::format(" (library calls among them, one instruction each: {})", library);
    ops.message = fmt::format("{}'{}' on '{}' executes {} computational instructions{}{}, {} for indexing and {} for "
                              "control flow{}",
                              approximate ? "approximately: " : "", input.function.name,
                              input.model.executing_par_unit().name, with_value(sym, ops.quantities[0].expr), in_double,
                              library,
                              with_value(sym, ops.quantities[1].expr), with_value(sym, ops.quantities[2].expr), memory);

    Remark intensity;
    intensity.kind = RemarkKind::ArithmeticIntensity;
    intensity.location = input.function.location;
    intensity.approximate = approximate;
    if (totals.accesses.is_zero()) {
        intensity.message = fmt::format("'{}' accesses no memory: its arithmetic intensity is unbounded",
                                        input.function.name);
    } else {
        NamedQuantity ai = sym.quantity("arithmetic_intensity", totals.computations / totals.accesses);
        intensity.quantities.push_back(ai);
        intensity.message = fmt::format("{}arithmetic intensity of '{}': {} computational instructions per data "
                                        "access",
                                        approximate ? "approximately: " : "", input.function.name, with_value(sym, ai.expr));
    }
    return {ops, intensity};
}

}  // namespace mcl::feedback
