#include "hdl/ValidateHdl.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "hdl/Quantity.h"
#include "hdl/Schema.h"
#include "support/Spelling.h"

namespace mcl::hdl {

namespace {

const char* form_name(PropertyForm f) {
    switch (f) {
    case PropertyForm::Assign: return "an assignment 'name = value;'";
    case PropertyForm::Args: return "a call 'name(arguments);'";
    case PropertyForm::Flag: return "a bare keyword 'name;'";
    }
    return "";
}

bool is_unit_kind(BlockKind k) {
    return k == BlockKind::ParUnit || k == BlockKind::DeviceUnit || is_a(k, BlockKind::ExecutionUnit);
}

class Validator {
public:
    Validator(const Description& d, const Resolution& r, DiagnosticEngine& diags)
        : d_(d), resolution_(r), diags_(diags) {}

    bool run() {
        size_t before = diags_.error_count();
        check_top_level();
        for (const auto& b : d_.blocks) check_block(*b);
        return diags_.error_count() == before;
    }

private:
    void error(SourceLocation loc, std::string msg) { diags_.error(loc, std::move(msg)); }

    void check_top_level() {
        std::map<std::string, const Block*> seen;
        const Block* parallelism = nullptr;
        for (const auto& b : d_.blocks) {
            auto [it, inserted] = seen.emplace(b->name, b.get());
            if (!inserted) {
                auto& diag = diags_.error(b->name_location,
                                          fmt::format("duplicate top-level block '{}'", b->name));
                DiagnosticEngine::add_note(diag, it->second->name_location, "first defined here");
            }
            if (b->kind == BlockKind::Parallelism) {
                if (parallelism) {
                    auto& diag = diags_.error(b->location,
                                              "a description has exactly one 'parallelism' block");
                    DiagnosticEngine::add_note(diag, parallelism->location, "the first one is here");
                } else {
                    parallelism = b.get();
                }
            }
        }
        const Block* device = d_.device_block();
        if (device && device->name != d_.name)
            diags_.warning(device->name_location,
                           fmt::format("'device {}' in description '{}' keeps the name of the description it "
                                       "specializes; it is read as 'device {}'",
                                       device->name, d_.name, d_.name));
        if (!parallelism)
            error(d_.location, fmt::format("description '{}' has no 'parallelism' block", d_.name));
        else
            check_parallelism_names(*parallelism);
        if (!device)
            error(d_.location, fmt::format("description '{}' has no 'device {}' block", d_.name, d_.name));
    }

    // Collects the names kernels use (par_groups, par_units, memory spaces)
    // and checks that they are unique and that each scope has at most one
    // default memory space.
    void check_parallelism_names(const Block& parallelism) {
        std::map<std::string, SourceLocation> names;
        std::set<const Block*> visited;
        walk_parallelism(parallelism, names, visited);
    }

    void walk_parallelism(const Block& b, std::map<std::string, SourceLocation>& names,
                          std::set<const Block*>& visited) {
        if (!visited.insert(&b).second) return;
        const Block* default_space = nullptr;
        for (const ChildBlock& c : resolution_.children(b)) {
            const Block& child = *c.block;
            if (child.kind == BlockKind::MemorySpace || child.kind == BlockKind::ParGroup ||
                child.kind == BlockKind::ParUnit) {
                auto [it, inserted] = names.emplace(child.name, c.location);
                if (!inserted) {
                    auto& diag = diags_.error(
                        c.location, fmt::format("'{}' is already a name in the parallelism hierarchy",
                                                child.name));
                    DiagnosticEngine::add_note(diag, it->second, "previous use of the name");
                }
            }
            if (child.kind == BlockKind::MemorySpace) {
                memory_spaces_.insert(child.name);
                if (has_flag(child, "default")) {
                    if (default_space)
                        error(c.location,
                              fmt::format("memory spaces '{}' and '{}' are both 'default' in the "
                                          "same scope",
                                          default_space->name, child.name));
                    else
                        default_space = &child;
                }
            }
            if (child.kind == BlockKind::ParUnit) par_units_.insert(child.name);
            walk_parallelism(child, names, visited);
        }
    }

    static bool has_flag(const Block& b, const std::string& flag) {
        for (const Statement& s : b.statements)
            if (auto* f = std::get_if<FlagStmt>(&s); f && f->name == flag) return true;
        return false;
    }

    static bool has_property(const Block& b, const std::string& name) {
        for (const Statement& s : b.statements) {
            if (auto* p = std::get_if<ArgPropertyStmt>(&s); p && p->name == name) return true;
            if (auto* p = std::get_if<PropertyStmt>(&s); p && p->name == name) return true;
        }
        return false;
    }

    void check_block(const Block& b) {
        check_nesting(b);
        check_properties(b);
        if (is_group(b.kind)) check_group(b);
        for (const Statement& s : b.statements)
            if (auto* nested = std::get_if<std::unique_ptr<Block>>(&s)) check_block(**nested);
    }

    void check_nesting(const Block& b) {
        std::vector<NestingRule> rules = nesting_rules(b.kind);
        std::vector<int> counts(rules.size(), 0);
        for (const ChildBlock& c : resolution_.children(b)) {
            BlockKind kind = c.block->kind;
            int match = -1;
            for (size_t i = 0; i < rules.size() && match < 0; ++i) {
                bool fits = is_group(b.kind) ? kind == rules[i].child : is_a(kind, rules[i].child);
                if (fits) match = static_cast<int>(i);
            }
            if (match < 0) {
                std::vector<std::string> allowed;
                for (const NestingRule& r : rules) allowed.emplace_back(block_kind_name(r.child));
                error(c.location,
                      fmt::format("a {} cannot contain a {}{}{}", block_kind_name(b.kind),
                                  block_kind_name(kind),
                                  c.by_reference ? fmt::format(" ('{}' is one)", c.block->name) : "",
                                  allowed.empty() ? fmt::format("; a {} contains no blocks",
                                                                block_kind_name(b.kind))
                                                  : fmt::format("; allowed here: {}",
                                                                fmt::join(allowed, ", "))));
                continue;
            }
            if (++counts[match] == 2 && !rules[match].multiple)
                error(c.location, fmt::format("a {} contains at most one {}", block_kind_name(b.kind),
                                              block_kind_name(rules[match].child)));
        }
        for (size_t i = 0; i < rules.size(); ++i)
            if (rules[i].required && counts[i] == 0)
                error(b.name_location,
                      fmt::format("{} '{}' needs a {} block", block_kind_name(b.kind), b.name,
                                  block_kind_name(rules[i].child)));
    }

    void check_properties(const Block& b) {
        std::map<std::string, SourceLocation> seen;
        for (const Statement& s : b.statements) {
            std::string name;
            SourceLocation loc;
            PropertyForm form;
            if (auto* p = std::get_if<PropertyStmt>(&s)) {
                name = p->name, loc = p->location, form = PropertyForm::Assign;
            } else if (auto* a = std::get_if<ArgPropertyStmt>(&s)) {
                name = a->name, loc = a->location, form = PropertyForm::Args;
            } else if (auto* f = std::get_if<FlagStmt>(&s)) {
                name = f->name, loc = f->location, form = PropertyForm::Flag;
            } else {
                continue;
            }
            if (is_group(b.kind) && (name == "nr_units" || name == "max_nr_units")) continue;
            auto rule = property_rule(b.kind, name);
            if (!rule) {
                std::vector<std::string> allowed;
                for (const PropertyRule& r : property_rules(b.kind)) allowed.emplace_back(r.name);
                if (is_group(b.kind)) {
                    allowed.emplace_back("nr_units");
                    allowed.emplace_back("max_nr_units");
                }
                std::string known = property_rule_anywhere(name)
                                        ? fmt::format("'{}' is not a property of a {}", name,
                                                      block_kind_name(b.kind))
                                        : fmt::format("unknown property '{}'{}", name,
                                                      did_you_mean(name, all_property_names()));
                error(loc, fmt::format("{}; a {} takes {}", known, block_kind_name(b.kind),
                                       allowed.empty() ? std::string("no properties")
                                                       : fmt::format("{}", fmt::join(allowed, ", "))));
                continue;
            }
            if (rule->form != form) {
                error(loc, fmt::format("'{}' is written as {}", name, form_name(rule->form)));
                continue;
            }
            auto [it, inserted] = seen.emplace(name, loc);
            if (!inserted && !rule->multiple) {
                auto& diag = diags_.error(loc, fmt::format("duplicate property '{}'", name));
                DiagnosticEngine::add_note(diag, it->second, "first set here");
            }
            if (auto* p = std::get_if<PropertyStmt>(&s)) {
                auto q = evaluate_quantity(p->value, p->unit, rule->dimension, rule->allow_unlimited);
                if (auto* err = std::get_if<EvalError>(&q))
                    error(err->location, fmt::format("in '{}': {}", name, err->message));
            } else if (auto* a = std::get_if<ArgPropertyStmt>(&s)) {
                check_arguments(*a);
            }
        }
        for (const PropertyRule& r : property_rules(b.kind))
            if (r.required && !seen.count(r.name))
                error(b.name_location, fmt::format("{} '{}' needs a '{}' property",
                                                   block_kind_name(b.kind), b.name, r.name));
        if (b.kind == BlockKind::Cache && !seen.count("cache_line_size"))
            diags_.warning(b.name_location,
                           fmt::format("cache '{}' has no 'cache_line_size': feedback on cache lines leaves it out",
                                       b.name));
    }

    static bool property_rule_anywhere(const std::string& name) {
        for (const std::string& n : all_property_names())
            if (n == name) return true;
        return false;
    }

    bool expect_arity(const ArgPropertyStmt& a, size_t n, const char* shape) {
        if (a.args.size() == n) return true;
        error(a.location, fmt::format("'{}' takes {} argument{}: {}", a.name, n, n == 1 ? "" : "s", shape));
        return false;
    }

    void check_arguments(const ArgPropertyStmt& a) {
        if (a.name == "space") {
            if (!expect_arity(a, 1, "space(memory_space)")) return;
            check_parallelism_name(a.args[0], memory_spaces_, "memory space");
        } else if (a.name == "slots") {
            if (!expect_arity(a, 2, "slots(par_unit, count)")) return;
            check_parallelism_name(a.args[0], par_units_, "par_unit");
            check_positive(a.args[1], "the number of slots");
        } else if (a.name == "connects") {
            if (!expect_arity(a, 2, "connects(block, block)")) return;
            for (const Expr& e : a.args) check_endpoint(e);
        } else if (a.name == "performance_feedback") {
            if (!expect_arity(a, 1, "performance_feedback(\"name\")")) return;
            if (a.args[0].kind != Expr::Kind::String)
                error(a.args[0].location, "expected a string naming the feedback");
        } else if (a.name == "op") {
            if (!expect_arity(a, 2, "op((+), cost) or op(\"name\", cost)")) return;
            if (a.args[0].kind != Expr::Kind::Operator && a.args[0].kind != Expr::Kind::String)
                error(a.args[0].location, "expected an operator such as (+) or a string such as \"load\"");
            check_positive(a.args[1], "the cost of an operation");
        }
    }

    void check_parallelism_name(const Expr& e, const std::set<std::string>& names, const char* what) {
        if (e.kind != Expr::Kind::Name || e.name.parts.size() != 1) {
            error(e.location, fmt::format("expected the name of a {}", what));
            return;
        }
        const std::string& n = e.name.parts[0];
        if (!names.count(n))
            error(e.location, fmt::format("'{}' is not a {} of description '{}'{}", n, what, d_.name,
                                          did_you_mean(n, {names.begin(), names.end()})));
    }

    void check_positive(const Expr& e, const char* what) {
        auto v = evaluate_integer(e);
        if (auto* err = std::get_if<EvalError>(&v))
            error(err->location, fmt::format("{}: {}", what, err->message));
        else if (std::get<int64_t>(v) <= 0)
            error(e.location, fmt::format("{} must be positive", what));
    }

    void check_endpoint(const Expr& e) {
        if (e.kind != Expr::Kind::Name && e.kind != Expr::Kind::AllUnits) {
            error(e.location, "expected the name of a block, optionally with [*]");
            return;
        }
        const Block* target = resolution_.target(e.name);
        if (!target) return;  // reported by the resolver
        if (e.kind == Expr::Kind::AllUnits && !is_unit_kind(target->kind))
            error(e.location, fmt::format("'[*]' selects every unit of a group, but '{}' is a {}",
                                          e.name.str(), block_kind_name(target->kind)));
    }

    void check_group(const Block& b) {
        const PropertyStmt* count = nullptr;
        for (const Statement& s : b.statements) {
            auto* p = std::get_if<PropertyStmt>(&s);
            if (!p || (p->name != "nr_units" && p->name != "max_nr_units")) continue;
            if (count) {
                auto& diag = diags_.error(
                    p->location, fmt::format("{} '{}' sets its number of units twice", block_kind_name(b.kind), b.name));
                DiagnosticEngine::add_note(diag, count->location, "first set here");
                continue;
            }
            count = p;
            auto q = evaluate_quantity(p->value, p->unit, Dimension::Count, true);
            if (auto* err = std::get_if<EvalError>(&q))
                error(err->location, fmt::format("in '{}': {}", p->name, err->message));
            else if (!std::get<Quantity>(q).unlimited && std::get<Quantity>(q).value <= 0)
                error(p->value.location, fmt::format("'{}' must be positive", p->name));
        }
        if (!count)
            error(b.name_location, fmt::format("{} '{}' needs 'nr_units' or 'max_nr_units'",
                                               block_kind_name(b.kind), b.name));
        if (!is_a(b.kind, BlockKind::ExecutionGroup) || has_property(b, "slots")) return;
        for (const ChildBlock& c : resolution_.children(b))
            if (is_a(c.block->kind, BlockKind::ExecutionUnit) && !has_property(*c.block, "slots"))
                error(c.location,
                      fmt::format("{} '{}' has no 'slots(par_unit, n)', and neither has its group '{}'",
                                  block_kind_name(c.block->kind), c.block->name, b.name));
    }

    const Description& d_;
    const Resolution& resolution_;
    DiagnosticEngine& diags_;
    std::set<std::string> memory_spaces_;
    std::set<std::string> par_units_;
};

}  // namespace

bool validate_description(const Description& d, const Resolution& resolution,
                          DiagnosticEngine& diags) {
    return Validator(d, resolution, diags).run();
}

}  // namespace mcl::hdl
