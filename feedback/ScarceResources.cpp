#include "feedback/ScarceResources.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "feedback/AccessAddress.h"
#include "hdl/Schema.h"

namespace mcl::feedback {

// The table of performance-feedback functions: add a row to add one (see
// the header).
const std::vector<NamedFeedbackFunction>& feedback_functions() {
    static const std::vector<NamedFeedbackFunction> functions = {
        {"occupancy", blocks_per_multiprocessor},
        {"shared_mem_parallelism", blocks_per_multiprocessor},
        {"load_store_optimality", nullptr},  // the memory-access-rules pass
    };
    return functions;
}

namespace {

using hdl::BlockKind;
using hdl::DeviceNode;
using mcpl::Stmt;

// Declarations of the function in memory space `space`, in source order.
void declarations_in(const Stmt& s, const std::string& space, std::vector<const mcpl::Decl*>& out) {
    switch (s.kind) {
    case Stmt::Kind::Block:
        for (const auto& c : s.body) declarations_in(*c, space, out);
        return;
    case Stmt::Kind::Decl:
        if (s.decl->memory_space == space) out.push_back(s.decl.get());
        return;
    case Stmt::Kind::If:
        declarations_in(*s.then_branch, space, out);
        if (s.else_branch) declarations_in(*s.else_branch, space, out);
        return;
    case Stmt::Kind::For:
    case Stmt::Kind::Foreach:
        declarations_in(*s.loop_body, space, out);
        return;
    default:
        return;
    }
}

struct Declared {
    std::vector<const mcpl::Decl*> decls;
    std::optional<GiNaC::ex> bytes;  // nullopt: a size cannot be expressed
    std::string names;               // "l_a, l_b"
};

// The declarations of one statement of the function's body in `space`
// and their bytes together.
Declared declared_by(const Stmt& statement, AddressAnalysis& addresses, const std::string& space) {
    Declared d;
    declarations_in(statement, space, d.decls);
    GiNaC::ex total = 0;
    bool known = true;
    for (const mcpl::Decl* decl : d.decls) {
        if (!d.names.empty()) d.names += ", ";
        d.names += decl->name();
        if (auto b = addresses.declared_bytes(*decl))
            total = total + *b;
        else
            known = false;
    }
    if (known) d.bytes = total.expand();
    return d;
}

// What one block declares in `space`. Each statement of the function's
// body is a launch of its own (its foreach nest runs after the previous
// one has finished), so the launches do not add up: the largest counts.
// When their sizes cannot be compared (no --param values), their sum is
// the bound used.
Declared declared_in(const FeedbackInput& in, AddressAnalysis& addresses, const std::string& space) {
    const Stmt& body = *in.function.body;
    if (body.kind != Stmt::Kind::Block) return declared_by(body, addresses, space);
    std::vector<Declared> launches;
    for (const auto& statement : body.body) {
        Declared d = declared_by(*statement, addresses, space);
        if (!d.decls.empty()) launches.push_back(std::move(d));
    }
    if (launches.size() <= 1) return launches.empty() ? Declared{} : launches.front();
    const Declared* largest = nullptr;
    double largest_bytes = -1;
    for (const Declared& d : launches) {
        std::optional<double> value = d.bytes ? in.symbols.quantity("", *d.bytes).value : std::nullopt;
        if (!value) {
            largest = nullptr;
            break;
        }
        if (*value > largest_bytes) largest = &d, largest_bytes = *value;
    }
    if (largest) return *largest;
    return declared_by(body, addresses, space);
}




// The execution unit a feedback function is about: the node itself when it
// has slots, else the first descendant that does.
const DeviceNode* execution_unit_of(const DeviceNode& n) {
    if (n.is_execution() && !n.slots.empty()) return &n;
    for (const auto& c : n.children)
        if (const DeviceNode* e = execution_unit_of(*c)) return e;
    return nullptr;
}

}  // namespace

std::vector<Remark> blocks_per_multiprocessor(const FeedbackInput& in, const DeviceNode& named_at) {
    std::vector<Remark> out;
    // A function that returns a value runs inside a kernel's threads: it is
    // not launched, so no blocks of its own occupy a multiprocessor.
    if (!in.function.resolved_return_type.is_void()) return out;
    const DeviceNode* unit = execution_unit_of(named_at);
    if (!unit) return out;
    std::vector<const hdl::ParGroup*> groups = in.model.par_groups();
    size_t block_level = groups.size();
    for (size_t i = 0; i < groups.size(); ++i)
        if (unit->slots_for(groups[i]->unit->name) > 0) {
            block_level = i;
            break;
        }
    if (block_level == groups.size()) return out;
    const std::string block = groups[block_level]->unit->name;
    const int64_t block_slots = unit->slots_for(block);
    AddressAnalysis addresses(in.function, in.symbols);

    struct Limit {
        std::string what;    // "shared memory (4*p bytes per block)"
        std::optional<int64_t> blocks;
    };
    std::vector<Limit> limits = {{"the " + std::to_string(block_slots) + " " + block + " slots", block_slots}};
    std::set<std::string> missing;
    bool approximate = false;
    std::vector<NamedQuantity> quantities;

    // Memories on the unit holding a space of the block.
    for (const DeviceNode* m : in.model.nodes_of_kind(BlockKind::Memory)) {
        if (hdl::is_a(m->kind, BlockKind::Cache) || !m->addressable || !unit->contains(*m)) continue;
        if (!m->capacity || m->capacity->unlimited || m->capacity->value <= 0) continue;
        for (const std::string& space : m->spaces) {
            const hdl::ParUnit* owner = in.model.memory_space_owner(space);
            if (!owner || owner->name != block) continue;
            Declared d = declared_in(in, addresses, space);
            if (d.decls.empty()) continue;
            if (!d.bytes) {
                approximate = true;
                continue;
            }
            std::string what = space + " memory (" + Symbols::text(*d.bytes) + " bytes per " + block + ")";
            quantities.push_back(in.symbols.quantity(space + "_bytes_per_" + block, *d.bytes));
            std::vector<std::string> lacking = in.symbols.missing_values(*d.bytes);
            if (!lacking.empty()) {
                missing.insert(lacking.begin(), lacking.end());
                limits.push_back({what, std::nullopt});
                continue;
            }
            std::optional<double> value = in.symbols.quantity("", *d.bytes).value;
            if (!value) {
                approximate = true;
                continue;
            }
            double bytes = *value;
            int64_t fit = bytes <= 0 ? block_slots : static_cast<int64_t>(std::floor(m->capacity->value / bytes));
            limits.push_back({what, fit});
        }
    }

    // Units below the block with slots on the unit: how many a block has.
    for (size_t v = block_level + 1; v < groups.size(); ++v) {
        const std::string& name = groups[v]->unit->name;
        int64_t slots = unit->slots_for(name);
        if (slots <= 0) continue;
        std::optional<GiNaC::ex> per_block;
        std::optional<double> per_block_value;
        std::function<void(const Stmt&, GiNaC::ex, bool)> walk = [&](const Stmt& s, GiNaC::ex product, bool inside) {
            switch (s.kind) {
            case Stmt::Kind::Block:
                for (const auto& c : s.body) walk(*c, product, inside);
                return;
            case Stmt::Kind::If:
                walk(*s.then_branch, product, inside);
                if (s.else_branch) walk(*s.else_branch, product, inside);
                return;
            case Stmt::Kind::For:
                walk(*s.loop_body, product, inside);
                return;
            case Stmt::Kind::Foreach: {
                size_t level = groups.size();
                for (size_t i = 0; i < groups.size(); ++i)
                    if (groups[i]->name == s.name) level = i;
                if (level > block_level && level <= v) {
                    bool rounded = false;
                    std::optional<GiNaC::ex> count = addresses.expression(*s.count, &rounded);
                    approximate |= rounded;
                    if (!count) {
                        approximate = true;
                        return;
                    }
                    product = (product * *count).normal();
                    inside = true;
                    if (level == v) {
                        std::optional<double> value = in.symbols.quantity("", product).value;
                        if (!per_block || (value && (!per_block_value || *value > *per_block_value))) {
                            per_block = product;
                            per_block_value = value;
                        }
                        return;
                    }
                }
                walk(*s.loop_body, product, inside);
                return;
            }
            default:
                return;
            }
        };
        walk(*in.function.body, GiNaC::ex(1), false);
        if (!per_block) continue;
        std::string what = name + "s (" + Symbols::text(*per_block) + " " + name + "s per " + block + ")";
        quantities.push_back(in.symbols.quantity(name + "s_per_" + block, *per_block));
        if (!per_block_value) {
            std::vector<std::string> lacking = in.symbols.missing_values(*per_block);
            missing.insert(lacking.begin(), lacking.end());
            limits.push_back({what, std::nullopt});
            continue;
        }
        int64_t fit = *per_block_value <= 0 ? block_slots : static_cast<int64_t>(std::floor(slots / *per_block_value));
        limits.push_back({what, fit});
    }

    Remark r;
    r.kind = RemarkKind::Occupancy;
    r.location = in.function.location;
    r.approximate = approximate;
    r.quantities = quantities;
    std::ostringstream msg;
    if (!missing.empty()) {
        msg << unit->name << ": " << block << "s per multiprocessor: " << needs_values_text({missing.begin(), missing.end()});
        for (const Limit& l : limits)
            if (!l.blocks) msg << "; depends on " << l.what;
    } else {
        int64_t blocks = block_slots;
        for (const Limit& l : limits) blocks = std::min(blocks, *l.blocks);
        blocks = std::max<int64_t>(blocks, 0);
        std::string reason, others;
        bool by_memory = false;
        for (const Limit& l : limits) {
            if (&l == &limits.front() && *l.blocks != blocks) continue;  // the slots, when they do not limit
            if (*l.blocks == blocks) {
                reason += (reason.empty() ? "" : " and ") + l.what;
                by_memory |= l.what.find(" memory (") != std::string::npos;
            } else {
                others += (others.empty() ? "" : ", ") + l.what + " allow " + std::to_string(*l.blocks);
            }
        }
        msg << unit->name << ": " << blocks << " of " << block_slots << " " << block
            << "s per multiprocessor fit, limited by " << reason;
        if (!others.empty()) msg << " (" << others << ")";
        // Impact: a kernel that cannot run is the worst; memory that limits
        // the blocks hides less latency; fewer blocks of full size cost little.
        r.impact = blocks == 0 ? 1.0 : by_memory ? 0.3 : 0.05;
        if (blocks == 0)
            msg << "; the kernel cannot run: one " << block << " needs more than " << unit->name << " has";
        else if (by_memory)
            msg << "; reduce the memory per " << block << ", e.g. by storing and loading it in phases";
        // An upper bound: registers per thread, which may allow fewer, are
        // only known once the vendor compiler has allocated them.
        if (blocks > 0) msg << "; registers not counted (the vendor compiler allocates them)";
        r.quantities.push_back(in.symbols.quantity(block + "s_per_multiprocessor", GiNaC::ex(blocks)));
    }
    r.message = msg.str();
    out.push_back(std::move(r));
    return out;
}

std::vector<Remark> scarce_resources(const FeedbackInput& in) {
    std::vector<Remark> out;
    AddressAnalysis addresses(in.function, in.symbols);

    for (const hdl::ParGroup* g : in.model.par_groups()) {
        const hdl::ParUnit& owner = *g->unit;
        for (const hdl::MemorySpace& space : owner.memory_spaces) {
            std::optional<Declared> declared;
            for (const DeviceNode* m : in.model.memories_for_space(space.name)) {
                if (hdl::is_a(m->kind, BlockKind::Cache) || !m->addressable) continue;
                if (!m->capacity || m->capacity->unlimited) continue;
                const DeviceNode* unit = nullptr;
                for (const DeviceNode* p = m->parent; p && !unit; p = p->parent)
                    if (p->is_execution() && p->slots_for(owner.name) > 0) unit = p;
                if (!unit) continue;
                if (!declared) declared = declared_in(in, addresses, space.name);
                if (declared->decls.empty()) break;
                const int64_t slots = unit->slots_for(owner.name);
                const int64_t capacity = m->capacity->value;
                const int64_t share = capacity / slots;
                std::ostringstream msg;
                msg << "memory " << m->name << " (" << capacity << " bytes) holds `" << space.name << "`, which the "
                    << slots << " " << owner.name << "s that " << unit->name << " runs at once cannot share: "
                    << share << " bytes per " << owner.name;
                Remark r;
                r.kind = RemarkKind::ScarceResource;
                r.location = declared->decls.front()->location;
                r.quantities.push_back(in.symbols.quantity("capacity", GiNaC::ex(capacity)));
                r.quantities.push_back(in.symbols.quantity("share_per_" + owner.name, GiNaC::ex(share)));
                if (!declared->bytes) {
                    msg << "; the size of " << declared->names << " cannot be expressed";
                    r.approximate = true;
                } else {
                    const GiNaC::ex& bytes = *declared->bytes;
                    r.quantities.push_back(in.symbols.quantity("declared", bytes));
                    msg << "; the kernel declares " << with_value(in.symbols, bytes) << " bytes per " << owner.name
                        << " (" << declared->names << ")";
                    std::optional<double> value = in.symbols.quantity("", bytes).value;
                    if (!value) {
                        std::vector<std::string> lacking = in.symbols.missing_values(bytes);
                        if (!lacking.empty()) msg << "; to compare, " << needs_values_text(lacking);
                    } else if (*value > static_cast<double>(capacity)) {
                        msg << ": more than the memory holds";
                        r.impact = 1.0;
                    } else if (*value > static_cast<double>(share)) {
                        r.impact = 0.1;  // the occupancy remark says whether it is what limits
                        msg << ": more than a " << owner.name << "'s share, at most "
                            << static_cast<int64_t>(std::floor(capacity / *value)) << " of " << slots << " "
                            << owner.name << "s fit";
                    } else {
                        msg << ": within a " << owner.name << "'s share";
                    }
                }
                r.message = msg.str();
                out.push_back(std::move(r));
            }
        }
    }

    // Performance-feedback functions named by the description.
    std::set<std::string> reported;
    for (const DeviceNode* n : in.model.nodes_of_kind(BlockKind::Device))
        for (const hdl::FeedbackFunctionUse& use : n->performance_feedback) {
            const std::string& name = use.name;
            const auto& table = feedback_functions();
            auto it = std::find_if(table.begin(), table.end(),
                                   [&](const NamedFeedbackFunction& f) { return name == f.name; });
            if (it == table.end()) {
                if (!reported.insert(name).second) continue;
                Remark r;
                r.kind = RemarkKind::Occupancy;
                r.warning = true;
                r.location = use.location;  // the description's own line
                r.message = "unknown performance feedback function '" + name + "' (named by " + n->path + " in " +
                            in.model.name + ")";
                out.push_back(std::move(r));
                continue;
            }
            if (it->run)
                for (Remark& r : it->run(in, *n)) out.push_back(std::move(r));
        }
    return out;
}

}  // namespace mcl::feedback
