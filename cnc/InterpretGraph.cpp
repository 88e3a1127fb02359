#include "cnc/InterpretGraph.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mcl::cnc {

using interpret::InterpretError;
using interpret::Scalar;
using mcpl::Primitive;

namespace {

// One step instance: a step and its tag.
struct Instance {
    const CheckedStep* step;
    TagValue tag;
};

class GraphRunner {
public:
    GraphRunner(const Graph& graph, const CheckedGraph& checked, const hdl::HardwareLibrary& library,
                ItemValues& items, const interpret::InterpretOptions& options)
        : graph_(graph), checked_(checked), library_(library), items_(items), options_(options) {}

    std::optional<InterpretError> run() {
        for (const auto& [name, tags] : items_)
            for (const auto& entry : tags) put_by_.emplace(std::make_pair(name, entry.first), "the environment");
        std::vector<Instance> pending = prescribed();
        for (const Instance& instance : pending)
            if (auto error = undefined_tag(instance)) return error;
        while (!pending.empty()) {
            std::vector<Instance> waiting;
            for (Instance& instance : pending) {
                if (missing_item(instance)) {
                    waiting.push_back(std::move(instance));
                    continue;
                }
                if (auto error = run_instance(instance)) return error;
            }
            if (waiting.size() == pending.size()) return waits(waiting.front());
            pending = std::move(waiting);
        }
        for (const EnvTarget& target : graph_.env_gets)
            for (const TagValue& tag : range_tags(target, checked_))
                if (!items_[target.name].count(tag))
                    return InterpretError{target.location,
                                          fmt::format("the environment gets [{}: {}], which nothing puts", target.name,
                                                      describe_tag(tag))};
        return std::nullopt;
    }

private:
    // Every instance the environment's tags prescribe, steps in declaration
    // order, each step's tags in order and once.
    std::vector<Instance> prescribed() const {
        std::map<std::string, std::set<TagValue>> tags;
        for (const EnvTarget& target : graph_.env_puts)
            if (target.is_tag)
                for (TagValue& tag : range_tags(target, checked_)) tags[target.name].insert(std::move(tag));
        std::vector<Instance> out;
        for (const CheckedStep& step : checked_.steps)
            for (const TagValue& tag : tags[step.tag->name]) out.push_back({&step, tag});
        return out;
    }

    // The tag of `use`, named in `relation`, for the instance's tag; nullopt
    // where a component divides by zero or overflows.
    std::optional<TagValue> tag_of(const ItemInstance& use, const Relation& relation, const TagValue& tag) const {
        std::map<std::string, long long> names = checked_.int_constants;
        for (size_t c = 0; c < relation.step.components.size() && c < tag.size(); ++c)
            names[relation.step.components[c]] = tag[c];
        TagValue out;
        for (const ExprPtr& e : use.tag) {
            std::optional<long long> component = evaluate(*e, names);
            if (!component) return std::nullopt;
            out.push_back(*component);
        }
        return out;
    }

    // An instance whose tag functions all have values (undefined_tag said so).
    TagValue item_tag(const ItemInstance& use, const Relation& relation, const TagValue& tag) const {
        return tag_of(use, relation, tag).value_or(TagValue{});
    }

    // A tag function that has no value at the instance's tag: the generated
    // code would divide by zero or overflow there.
    std::optional<InterpretError> undefined_tag(const Instance& instance) const {
        for (const Relation* r : instance.step->relations)
            for (const auto* uses : {&r->gets, &r->puts})
                for (const ItemInstance& use : *uses)
                    if (!tag_of(use, *r, instance.tag))
                        return InterpretError{use.location,
                                              fmt::format("{}: the tag of [{}] divides by zero or overflows a "
                                                          "64-bit int there",
                                                          describe(instance), use.name)};
        return std::nullopt;
    }

    // The gets of an instance: every item of its relations' gets.
    std::vector<std::pair<const ItemInstance*, TagValue>> gets(const Instance& instance) const {
        std::vector<std::pair<const ItemInstance*, TagValue>> out;
        for (const Relation* r : instance.step->relations)
            for (const ItemInstance& use : r->gets) out.emplace_back(&use, item_tag(use, *r, instance.tag));
        return out;
    }

    bool missing_item(const Instance& instance) const {
        for (const auto& [use, tag] : gets(instance)) {
            auto collection = items_.find(use->name);
            if (collection == items_.end() || !collection->second.count(tag)) return true;
        }
        return false;
    }

    std::string describe(const Instance& instance) const {
        return fmt::format("step '{}' at tag {}", instance.step->step->name, describe_tag(instance.tag));
    }

    InterpretError waits(const Instance& instance) const {
        for (const auto& [use, tag] : gets(instance))
            if (!items_[use->name].count(tag))
                return {use->location, fmt::format("{} gets [{}: {}], which nothing puts (instances left waiting)",
                                                   describe(instance), use->name, describe_tag(tag))};
        return {instance.step->step->location, fmt::format("{} cannot run", describe(instance))};
    }

    Scalar constant_value(const std::string& name, Primitive type) const {
        for (const Constant& c : graph_.constants)
            if (c.name == name) {
                Scalar v = c.is_float ? Scalar::of_double(c.float_value) : Scalar::of_int(c.int_value);
                return interpret::convert(v, type).value;
            }
        return Scalar::of_int(0);
    }

    std::optional<InterpretError> run_instance(const Instance& instance) {
        const CheckedStep& step = *instance.step;
        const mcpl::Function& kernel = *step.kernel;
        std::vector<Scalar> scalars;
        for (size_t p = 0; p < kernel.params.size(); ++p) {
            const mcpl::Type& type = kernel.params[p]->forms.front().resolved_type;
            if (type.is_array()) continue;
            Primitive prim = type.primitive.value_or(Primitive::Int);
            const Binding& b = step.bindings[p];
            scalars.push_back(b.kind == Binding::Kind::Constant
                                  ? constant_value(b.name, prim)
                                  : interpret::convert(Scalar::of_int(instance.tag.at(b.component)), prim).value);
        }
        std::vector<interpret::ParameterLayout> layouts;
        if (auto error = interpret::parameter_layouts(kernel, scalars, layouts)) return in_instance(*error, instance);
        std::vector<interpret::StoragePtr> storages;
        size_t next_scalar = 0;
        for (size_t p = 0; p < kernel.params.size(); ++p) {
            auto storage = std::make_shared<interpret::Storage>();
            const Binding& b = step.bindings[p];
            if (!layouts[p].is_array) {
                storage->cells.push_back(scalars[next_scalar++]);
            } else if (b.got) {
                storage->cells = items_[b.got->name][item_tag(*b.got, *b.got_in, instance.tag)];
            } else {
                Primitive element = item_element_type(item_named(graph_, b.put->name));
                storage->cells.assign(static_cast<size_t>(layouts[p].cell_count()), Scalar::poisoned(element));
            }
            storages.push_back(storage);
        }
        if (auto error = interpret::run_kernel(library_, kernel, storages, options_))
            return in_instance(*error, instance);
        for (size_t p = 0; p < kernel.params.size(); ++p) {
            const Binding& b = step.bindings[p];
            if (b.kind != Binding::Kind::Item || !b.put) continue;
            TagValue tag = item_tag(*b.put, *b.put_in, instance.tag);
            const std::vector<Scalar>& cells = storages[p]->cells;
            for (size_t e = 0; e < cells.size(); ++e)
                if (cells[e].poison)
                    return InterpretError{b.put->location,
                                          fmt::format("{} puts [{}: {}], but its kernel leaves element {} of it "
                                                      "unwritten",
                                                      describe(instance), b.put->name, describe_tag(tag), e)};
            auto [by, fresh] = put_by_.emplace(std::make_pair(b.put->name, tag), describe(instance));
            if (!fresh)
                return InterpretError{b.put->location,
                                      fmt::format("{} puts [{}: {}], which {} put already: an item is assigned once",
                                                  describe(instance), b.put->name, describe_tag(tag), by->second)};
            items_[b.put->name][tag] = cells;
        }
        return std::nullopt;
    }

    InterpretError in_instance(InterpretError error, const Instance& instance) const {
        error.message = fmt::format("{} (in {})", error.message, describe(instance));
        return error;
    }

    const Graph& graph_;
    const CheckedGraph& checked_;
    const hdl::HardwareLibrary& library_;
    ItemValues& items_;
    const interpret::InterpretOptions& options_;
    std::map<std::pair<std::string, TagValue>, std::string> put_by_;  // who put each item
};

// a + b and a * b, saturating at the largest uint64_t
uint64_t saturated_sum(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
uint64_t saturated_product(uint64_t a, uint64_t b) {
    uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

}  // namespace

ItemValues environment_items(const Graph& graph, const CheckedGraph& checked,
                             const std::function<Scalar(Primitive)>& value) {
    ItemValues items;
    for (const EnvTarget& target : graph.env_puts) {
        if (target.is_tag) continue;
        Primitive type = item_element_type(item_named(graph, target.name));
        for (const TagValue& tag : range_tags(target, checked)) {
            std::vector<Scalar>& cells = items[target.name][tag];
            cells.clear();
            for (long long e = 0; e < checked.item_elements.at(target.name); ++e) cells.push_back(value(type));
        }
    }
    return items;
}

std::optional<InterpretError> too_large_to_interpret(const Graph& graph, const CheckedGraph& checked, uint64_t limit) {
    uint64_t values = 0;
    for (const EnvTarget& target : graph.env_puts) {
        uint64_t each = 0;  // values per tag
        if (!target.is_tag) {
            each = static_cast<uint64_t>(checked.item_elements.at(target.name));
        } else {
            for (const CheckedStep& step : checked.steps) {
                if (step.tag == nullptr || step.tag->name != target.name) continue;
                each = saturated_sum(each, 1);  // the instance itself
                for (const Relation* r : step.relations)
                    for (const ItemInstance& put : r->puts)
                        each = saturated_sum(each, static_cast<uint64_t>(checked.item_elements.at(put.name)));
            }
        }
        size_t tags = range_tag_count(target, checked, limit);
        values = saturated_sum(values, saturated_product(tags, each));
        if (values > limit)
            return InterpretError{target.location,
                                  fmt::format("the reference would hold more than {} values with this target ({}): "
                                              "too large to interpret; make the graph's constants smaller",
                                              limit,
                                              tags > limit ? fmt::format("its ranges span more than {} tags", limit)
                                                           : fmt::format("{} tags of {} values each", tags, each))};
    }
    return std::nullopt;
}

Primitive item_element_type(const ItemCollection& item) {
    if (item.element == "int") return Primitive::Int;
    if (item.element == "double") return Primitive::Double;
    if (item.element == "byte") return Primitive::Byte;
    if (item.element == "bool") return Primitive::Bool;
    return Primitive::Float;
}

std::string describe_tag(const TagValue& tag) { return fmt::format("({})", fmt::join(tag, ", ")); }

std::optional<InterpretError> interpret_graph(const Graph& graph, const CheckedGraph& checked,
                                              const hdl::HardwareLibrary& library, ItemValues& items,
                                              const interpret::InterpretOptions& options) {
    return GraphRunner(graph, checked, library, items, options).run();
}

}  // namespace mcl::cnc
