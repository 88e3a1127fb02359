// mcl::rt::cnc: what the code that `mclc gen --graph` generates for a
// Concurrent Collections graph runs on (DESIGN.md section 13): item
// collections (each item a runtime array, assigned once), step collections
// (which items an instance gets and puts, and how to submit it), and a
// Graph that orders the prescribed step instances by their items and
// submits them as runtime tasks. StarPU then runs them in parallel as their
// data allow; under MPI every rank submits the same instances and each runs
// where the items it puts live. Header-only, copied beside the generated
// code with mcl_starpu.h.
#ifndef MCL_CNC_H
#define MCL_CNC_H

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mcl_starpu.h"

namespace mcl::rt::cnc {

using Tag = std::vector<long long>;

inline std::string tag_text(const Tag& tag) {
    std::string out = "(";
    for (size_t i = 0; i < tag.size(); ++i) out += detail::text(i ? ", " : "", tag[i]);
    out += ")";
    return out;
}

class ItemCollectionBase {
public:
    explicit ItemCollectionBase(std::string name) : name_(std::move(name)) {}
    virtual ~ItemCollectionBase() = default;
    const std::string& name() const { return name_; }

private:
    std::string name_;
};

// Items of `elements` values of T, one per tag, created on first use. An
// item's owner rank under MPI follows its tag (every rank computes the same).
template <typename T>
class ItemCollection : public ItemCollectionBase {
public:
    ItemCollection(Runtime& runtime, std::string name, size_t elements)
        : ItemCollectionBase(std::move(name)), runtime_(runtime), elements_(elements) {}

    // The item at `tag` (registered, its contents those of its producer).
    Vector<T>& at(const Tag& tag) {
        Item& item = items_[tag];
        if (!item.vector) {
            item.storage = std::make_unique<T[]>(elements_);
            item.vector = std::make_unique<Vector<T>>(runtime_, item.storage.get(), elements_, owner(tag));
        }
        return *item.vector;
    }

    // The environment puts `data` (elements values) at `tag`.
    void put(const Tag& tag, const T* data) {
        if (!data) throw Error(detail::text("cnc: the environment puts item ", name(), tag_text(tag), " but gave no data"));
        if (items_.count(tag)) throw Error(detail::text("cnc: item ", name(), tag_text(tag), " is put twice"));
        Item& item = items_[tag];
        item.storage = std::make_unique<T[]>(elements_);
        std::copy(data, data + elements_, item.storage.get());
        item.vector = std::make_unique<Vector<T>>(runtime_, item.storage.get(), elements_, owner(tag));
    }

    // The environment's get: start_get for every item first, then get.
    void start_get(const Tag& tag) { at(tag).start_gather(); }
    void get(const Tag& tag, T* data) {
        if (!data) throw Error(detail::text("cnc: the environment gets item ", name(), tag_text(tag), " but gave no memory"));
        Vector<T>& v = at(tag);
        v.gather();
        if (runtime_.rank() == 0) std::copy(v.data(), v.data() + elements_, data);
    }

private:
    struct Item {
        std::unique_ptr<T[]> storage;  // not a std::vector: bool items need their data() too
        std::unique_ptr<Vector<T>> vector;
    };

    int owner(const Tag& tag) const {
        size_t h = 0;
        for (long long c : tag) h = h * 1000003u + static_cast<size_t>(c);
        return static_cast<int>(h % static_cast<size_t>(runtime_.ranks()));
    }

    Runtime& runtime_;
    size_t elements_;
    std::map<Tag, Item> items_;
};

// An item of a collection at a tag: what a step instance gets or puts.
struct ItemUse {
    ItemCollectionBase* collection;
    Tag tag;
};

struct StepCollection {
    std::string name;
    std::function<std::vector<ItemUse>(const Tag&)> gets, puts;
    std::function<void(const Tag&)> submit;
};

class Graph {
public:
    explicit Graph(Runtime& runtime) : runtime_(runtime) {}

    // An item the environment put.
    void environment_put(ItemCollectionBase& collection, const Tag& tag) { available_[{&collection, tag}] = -1; }

    size_t add_step(StepCollection step) {
        steps_.push_back(std::move(step));
        return steps_.size() - 1;
    }

    // A tag collection is a set: a step instance runs once however often
    // its tag is put.
    void prescribe(size_t step, Tag tag) {
        if (prescribed_.insert({step, tag}).second) instances_.push_back({step, std::move(tag)});
    }

    // Submits every prescribed instance after the producers of what it
    // gets. Throws, before submitting anything, when an instance gets an
    // item nothing puts, an item is put twice, or instances wait for each
    // other in a cycle.
    void run() {
        std::map<std::pair<ItemCollectionBase*, Tag>, long> producer = available_;
        std::vector<std::vector<ItemUse>> gets(instances_.size());
        for (size_t i = 0; i < instances_.size(); ++i) {
            const Instance& in = instances_[i];
            gets[i] = steps_[in.step].gets(in.tag);
            for (const ItemUse& put : steps_[in.step].puts(in.tag)) {
                auto [it, fresh] = producer.emplace(std::make_pair(put.collection, put.tag), static_cast<long>(i));
                if (!fresh)
                    throw Error(detail::text("cnc: item ", put.collection->name(), tag_text(put.tag), " is put by ",
                                             describe(i), " and by ",
                                             it->second < 0 ? std::string("the environment")
                                                            : describe(size_t(it->second)),
                                             ": items are assigned once"));
            }
        }
        std::vector<std::vector<size_t>> consumers(instances_.size());
        std::vector<size_t> waiting(instances_.size(), 0);
        for (size_t i = 0; i < instances_.size(); ++i)
            for (const ItemUse& get : gets[i]) {
                auto it = producer.find({get.collection, get.tag});
                if (it == producer.end())
                    throw Error(detail::text("cnc: ", describe(i), " gets item ", get.collection->name(),
                                             tag_text(get.tag), ", which neither the environment nor any step "
                                             "instance puts"));
                if (it->second < 0) continue;
                consumers[size_t(it->second)].push_back(i);
                ++waiting[i];
            }
        // Kahn's order, the earliest prescribed instance first among the ready.
        std::vector<size_t> order;
        std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
        for (size_t i = 0; i < instances_.size(); ++i)
            if (!waiting[i]) ready.push(i);
        while (!ready.empty()) {
            size_t i = ready.top();
            ready.pop();
            order.push_back(i);
            for (size_t c : consumers[i])
                if (--waiting[c] == 0) ready.push(c);
        }
        if (order.size() != instances_.size()) {
            for (size_t i = 0; i < instances_.size(); ++i)
                if (waiting[i]) throw Error(detail::text("cnc: ", describe(i), " waits for itself through a cycle of step instances"));
        }
        for (size_t i : order) steps_[instances_[i].step].submit(instances_[i].tag);
        runtime_.wait_all();
    }

private:
    struct Instance {
        size_t step;
        Tag tag;
    };

    std::string describe(size_t i) const {
        return detail::text("step ", steps_[instances_[i].step].name, tag_text(instances_[i].tag));
    }

    Runtime& runtime_;
    std::vector<StepCollection> steps_;
    std::vector<Instance> instances_;
    std::set<std::pair<size_t, Tag>> prescribed_;
    std::map<std::pair<ItemCollectionBase*, Tag>, long> available_;
};

}  // namespace mcl::rt::cnc

#endif  // MCL_CNC_H
