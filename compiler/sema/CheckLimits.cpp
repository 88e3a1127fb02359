#include "compiler/sema/CheckLimits.h"

#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::mcpl {

namespace {

// The par_unit whose scope holds `group`; null for the outermost group.
const hdl::ParUnit* unit_around(const hdl::HardwareModel& model, const hdl::ParGroup& group) {
    const hdl::ParUnit* owner = nullptr;
    for (const hdl::ParGroup* g : model.par_groups()) {
        if (g == &group) return owner;
        owner = g->unit.get();
    }
    return nullptr;
}

// a * b, or nullopt when it leaves int64_t: sizes that large exceed every
// capacity anyway.
std::optional<int64_t> checked_product(int64_t a, int64_t b) {
    int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
    return out;
}

// The constant extents of a declared form, outermost first; nullopt for an
// extent that is not constant.
std::vector<std::optional<int64_t>> constant_extents(const TypeExpr& t) {
    std::vector<std::optional<int64_t>> out;
    for (const auto& group : t.dimensions)
        for (const ExprPtr& extent : group) out.push_back(checked_constant_int_value(*extent));
    return out;
}

// The size of a form in bytes when its elements' size and every extent are
// constant (and positive: other extents are reported on their own).
struct ByteSize {
    bool constant = false;
    std::optional<int64_t> bytes;  // nullopt with constant: beyond int64_t
};

ByteSize byte_size(const BasicDecl& form) {
    int64_t element = element_byte_size(form.resolved_type);
    if (element == 0) return {};
    ByteSize out{true, element};
    for (const std::optional<int64_t>& extent : constant_extents(form.type)) {
        if (!extent || *extent <= 0) return {};
        if (out.bytes) out.bytes = checked_product(*out.bytes, *extent);
    }
    return out;
}

std::string bytes_text(const std::optional<int64_t>& bytes) {
    return bytes ? fmt::format("{} bytes", *bytes) : std::string("more than 2^63 bytes");
}

class LimitChecker {
public:
    LimitChecker(const hdl::HardwareModel& model, DiagnosticEngine& diags) : model_(model), diags_(diags) {}

    void check_function(const Function& f) {
        for (const auto& p : f.params) check_decl(*p);
        if (!f.body) return;
        check_stmt(*f.body);
        for_each_stmt(*f.body, [&](const Stmt& s) {
            for_each_own_expr(s, [&](const Expr& e) { for_each_var(e, [&](const Expr& var) { check_indices(var); }); });
        });
    }

    // Record fields have no level of their own: only their extents are checked.
    // A record's size is fixed: its fields' extents must fold to constants.
    static void check_field_extents(const Decl& field, DiagnosticEngine& diags) {
        for (const BasicDecl& form : field.forms) {
            check_extents(form, diags);
            for (const auto& group : form.type.dimensions)
                for (const ExprPtr& extent : group)
                    if (!checked_constant_int_value(*extent))
                        diags.error(extent->location,
                                    fmt::format("record field '{}': an array size in a record must be a constant "
                                                "(an integer literal or a const int)", form.name));
        }
    }

private:
    // --- foreach counts ------------------------------------------------------

    struct OpenLoop {
        const Stmt* foreach;
        const hdl::ParGroup* group;
        std::vector<int64_t> constant_counts;  // of the nest over `group` down to this loop
        bool reported = false;                 // the nest is over the limit already
    };

    void check_stmt(const Stmt& s) {
        if (s.decl) check_decl(*s.decl);
        if (s.kind == Stmt::Kind::As) check_as_statement(s);
        if (s.kind != Stmt::Kind::Foreach) {
            for_each_child_stmt(s, [&](const Stmt& child) { check_stmt(child); });
            return;
        }
        const hdl::ParGroup* group = model_.find_par_group(s.name);
        if (!group) {  // check_mapping reported it
            check_stmt(*s.loop_body);
            return;
        }
        // The units of a nest over one par_group multiply (32 x 32 threads
        // in a block), except in the outermost par_group, whose count bounds
        // each dimension of the grid on its own (README, translation notes).
        OpenLoop loop{&s, group, {}};
        bool outermost = !unit_around(model_, *group);
        if (!outermost && !open_loops_.empty() && open_loops_.back().group == group) loop = open_loops_.back();
        std::optional<int64_t> count = checked_constant_int_value(*s.count);
        if (count && *count < 0) {
            diags_.error(s.count->location, fmt::format("a foreach over {} cannot have {} units", s.name, *count));
        } else if (count && !loop.reported) {
            loop.constant_counts.push_back(*count);
            loop.reported = !check_unit_count(s, loop);
        }
        open_loops_.push_back(loop);
        check_stmt(*s.loop_body);
        open_loops_.pop_back();
    }

    // False after reporting a nest beyond the par_group's max_nr_units.
    bool check_unit_count(const Stmt& s, const OpenLoop& loop) {
        std::optional<UnitLimit> limit = unit_limit(model_, *loop.group);
        if (!limit) return true;
        std::optional<int64_t> total = 1;
        for (int64_t c : loop.constant_counts) total = total ? checked_product(*total, c) : std::nullopt;
        if (total && *total <= limit->max) return true;
        std::string total_text = total ? std::to_string(*total) : std::string("more than 2^63");
        std::string counted = loop.constant_counts.size() == 1
                                  ? total_text
                                  : fmt::format("{} = {}", fmt::join(loop.constant_counts, " x "), total_text);
        std::string where = limit->owner.empty() ? std::string() : fmt::format(" in a {}", limit->owner);
        diags_.error(s.count->location, fmt::format("{} {}{}, but {} allows at most {} ({})", counted,
                                                    loop.group->name, where, model_.name, limit->max, limit->path));
        return false;
    }

    // --- declarations ----------------------------------------------------------

    static void check_extents(const BasicDecl& form, DiagnosticEngine& diags) {
        for (const auto& group : form.type.dimensions)
            for (const ExprPtr& extent : group) {
                std::optional<int64_t> v = checked_constant_int_value(*extent);
                if (v && *v <= 0)
                    diags.error(extent->location,
                                fmt::format("'{}' has extent {}: an array extent must be positive", form.name, *v));
            }
    }

    void check_decl(const Decl& d) {
        for (const BasicDecl& form : d.forms) check_extents(form, diags_);
        if (d.is_written && !d.memory_space.empty())
            if (const hdl::MemorySpace* space = model_.find_memory_space(d.memory_space); space && space->read_only)
                diags_.error(d.location, fmt::format("'{}' is in '{}', a read-only memory space of {}, but is written",
                                                     d.name(), d.memory_space, model_.name));
        for (size_t i = 1; i < d.forms.size(); ++i) check_view(d.forms[0], d.forms[i]);
        if (!d.memory_space.empty()) check_capacity(d);
    }

    void check_as_statement(const Stmt& s) {
        const Decl* storage = s.target->decl;
        for (const BasicDecl& view : s.views) {
            check_extents(view, diags_);
            if (storage) check_view(storage->forms[0], view);
        }
    }

    void check_view(const BasicDecl& storage, const BasicDecl& view) {
        ByteSize have = byte_size(storage), want = byte_size(view);
        if (!have.constant || !want.constant || have.bytes == want.bytes) return;
        diags_.error(view.location, fmt::format("'{}' views '{}' ({}) as {} ({}): a view must have the size of the "
                                                "storage it views",
                                                view.name, storage.name, bytes_text(have.bytes),
                                                view.resolved_type.str(), bytes_text(want.bytes)));
    }

    void check_capacity(const Decl& d) {
        ByteSize size = byte_size(d.forms[0]);
        if (!size.constant) return;
        SpaceUse& use = space_use_[{d.memory_space, instance_of(d.memory_space)}];
        if (use.reported) return;
        use.bytes = use.bytes && size.bytes ? std::optional<int64_t>(*use.bytes + *size.bytes) : std::nullopt;
        std::optional<SpaceCapacity> capacity = space_capacity(model_, d.memory_space);
        if (!capacity || (use.bytes && *use.bytes <= capacity->bytes)) return;
        use.reported = true;
        diags_.error(d.forms[0].location, past_capacity_message(d.forms[0].name, d.memory_space,
                                                                bytes_text(use.bytes), model_.name, *capacity));
    }

    // --- indices ---------------------------------------------------------------

    void check_indices(const Expr& var) {
        const BasicDecl* form = var.form;
        for (size_t k = 0; k < var.var.size() && form; ++k) {
            const VarPart& part = var.var[k];
            if (k > 0) form = field_form(*form, part.name);
            if (!form) return;
            for (size_t g = 0; g < part.indices.size() && g < form->type.dimensions.size(); ++g) {
                const auto& extents = form->type.dimensions[g];
                for (size_t i = 0; i < part.indices[g].size() && i < extents.size(); ++i)
                    check_index(*part.indices[g][i], *extents[i], part.name);
            }
        }
    }

    static const BasicDecl* field_form(const BasicDecl& holder, const std::string& name) {
        const RecordType* record = holder.resolved_type.record;
        if (!record) return nullptr;
        for (const auto& field : record->fields)
            if (field->name() == name) return &field->forms.back();
        return nullptr;
    }

    void check_index(const Expr& index, const Expr& extent, const std::string& name) {
        std::optional<int64_t> i = checked_constant_int_value(index);
        std::optional<int64_t> n = checked_constant_int_value(extent);
        if (!i || !n || *n <= 0 || (*i >= 0 && *i < *n)) return;  // a non-positive extent is reported itself
        diags_.error(index.location,
                     fmt::format("index {} is out of range: '{}' has {} elements there (0 to {})", *i, name, *n,
                                 *n - 1));
    }

    // The foreach whose units each hold their own instance of `space`: the
    // outermost open one over the par_group of the par_unit that owns it
    // (nullptr for a space of the whole kernel). Two such loops one after
    // the other are two launches on a GPU, whose blocks do not coexist
    // (the interpreter counts per unit too); the loops of one nest are one
    // grid, so a nest counts once.
    const Stmt* instance_of(const std::string& space) const {
        const hdl::ParUnit* owner = model_.memory_space_owner(space);
        for (const OpenLoop& loop : open_loops_)
            if (owner && loop.group->unit.get() == owner) return loop.foreach;
        return nullptr;
    }

    struct SpaceUse {
        std::optional<int64_t> bytes = 0;  // nullopt: beyond int64_t
        bool reported = false;
    };

    const hdl::HardwareModel& model_;
    DiagnosticEngine& diags_;
    std::vector<OpenLoop> open_loops_;
    std::map<std::pair<std::string, const Stmt*>, SpaceUse> space_use_;  // per space and instance_of
};

}  // namespace

std::optional<UnitLimit> unit_limit(const hdl::HardwareModel& model, const hdl::ParGroup& group) {
    const hdl::UnitCount& units = group.units;
    if (units.count.unlimited || units.bound == hdl::UnitCount::Bound::Exact) return std::nullopt;
    const hdl::ParUnit* owner = unit_around(model, group);
    std::vector<std::string> path{model.name, model.parallelism_name};
    for (const hdl::ParGroup* g : model.par_groups()) {
        path.push_back(g->name);
        if (g == &group) break;
        path.push_back(g->unit->name);
    }
    path.push_back("max_nr_units");
    return UnitLimit{units.count.value, owner == nullptr, owner ? owner->name : "",
                     fmt::format("{}", fmt::join(path, "."))};
}

std::optional<SpaceCapacity> space_capacity(const hdl::HardwareModel& model, const std::string& space) {
    const hdl::DeviceNode* largest = nullptr;
    for (const hdl::DeviceNode* m : model.memories_for_space(space)) {
        if (m->kind != hdl::BlockKind::Memory || !m->capacity) continue;
        if (m->capacity->unlimited) return std::nullopt;
        if (!largest || m->capacity->value > largest->capacity->value) largest = m;
    }
    if (!largest) return std::nullopt;
    const hdl::ParUnit* owner = model.memory_space_owner(space);
    return SpaceCapacity{largest->capacity->value, owner ? owner->name : "", largest->path};
}

std::string past_capacity_message(const std::string& array, const std::string& space, const std::string& total,
                                  const std::string& model, const SpaceCapacity& capacity,
                                  const std::string& where) {
    std::string per = capacity.owner.empty() ? std::string() : fmt::format(" per {}", capacity.owner);
    return fmt::format("'{}' brings memory space '{}' to {}{}{}, but {} has room for at most {} bytes ({}.capacity)",
                       array, space, total, per, where, model, capacity.bytes, capacity.path);
}

void check_limits(const Program& program, const hdl::HardwareLibrary& library, DiagnosticEngine& diags) {
    for (const auto& m : program.modules) {
        for (const auto& r : m->records)
            for (const auto& field : r->fields) LimitChecker::check_field_extents(*field, diags);
        for (const auto& f : m->functions)
            if (const hdl::HardwareModel* model = library.find(f->hardware))
                LimitChecker(*model, diags).check_function(*f);
    }
}

}  // namespace mcl::mcpl
