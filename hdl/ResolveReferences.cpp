#include "hdl/ResolveReferences.h"

#include <functional>
#include <set>

#include <fmt/format.h>

namespace mcl::hdl {

const Block* Resolution::target(const QualifiedName& name) const {
    auto it = targets_.find(&name);
    return it == targets_.end() ? nullptr : it->second;
}

std::vector<ChildBlock> Resolution::children(const Block& b) const {
    std::vector<ChildBlock> out;
    for (const Statement& s : b.statements) {
        if (auto* nested = std::get_if<std::unique_ptr<Block>>(&s)) {
            out.push_back({nested->get(), (*nested)->location, false});
        } else if (auto* ref = std::get_if<ReferenceStmt>(&s)) {
            if (const Block* t = target(ref->target)) out.push_back({t, ref->target.location, true});
        }
    }
    return out;
}

const Description* Resolution::owner(const Block& b) const {
    auto it = descriptions_by_file_.find(b.location.file);
    return it == descriptions_by_file_.end() ? nullptr : it->second;
}

class ReferenceResolver {
public:
    ReferenceResolver(const std::map<std::string, const Description*>& library,
                      DiagnosticEngine& diags)
        : library_(library), diags_(diags) {
        for (const auto& [name, d] : library_) result_.descriptions_by_file_[d->file] = d;
    }

    Resolution run() {
        for (const auto& [name, d] : library_)
            for (const auto& b : d->blocks) resolve_block(*d, *b);
        for (const auto& [name, d] : library_)
            for (const auto& b : d->blocks) check_cycles(*b);
        return std::move(result_);
    }

private:
    void resolve_block(const Description& d, const Block& b) {
        for (const Statement& s : b.statements) {
            if (auto* nested = std::get_if<std::unique_ptr<Block>>(&s)) {
                resolve_block(d, **nested);
            } else if (auto* ref = std::get_if<ReferenceStmt>(&s)) {
                resolve_and_record(d, ref->target);
            } else if (auto* arg = std::get_if<ArgPropertyStmt>(&s); arg && arg->name == "connects") {
                for (const Expr& e : arg->args)
                    if (e.kind == Expr::Kind::Name || e.kind == Expr::Kind::AllUnits)
                        resolve_and_record(d, e.name);
            }
        }
    }

    void resolve_and_record(const Description& d, const QualifiedName& name) {
        std::set<const Block*> visiting;
        if (const Block* t = lookup(d, name.parts, visiting)) {
            result_.targets_[&name] = t;
            return;
        }
        diags_.error(name.location, fmt::format("cannot resolve '{}': no such block{}", name.str(),
                                                name.parts.size() == 1
                                                    ? " at the top level of this description"
                                                    : " in this description or the library"));
    }

    // Finds the block a dotted name denotes, as seen from description `d`.
    const Block* lookup(const Description& d, const std::vector<std::string>& parts,
                        std::set<const Block*>& visiting) {
        if (parts.empty()) return nullptr;
        if (parts.size() >= 2) {
            auto it = library_.find(parts[0]);
            if (it != library_.end()) {
                if (const Block* start = it->second->top_level(parts[1]))
                    if (const Block* found = descend(*it->second, start, parts, 2, visiting))
                        return found;
            }
        }
        if (const Block* start = d.top_level(parts[0])) return descend(d, start, parts, 1, visiting);
        return nullptr;
    }

    const Block* descend(const Description& d, const Block* at,
                         const std::vector<std::string>& parts, size_t next,
                         std::set<const Block*>& visiting) {
        if (next == parts.size()) return at;
        if (!visiting.insert(at).second) return nullptr;  // a reference cycle; reported later
        const Block* found = nullptr;
        for (const Statement& s : at->statements) {
            const Block* child = nullptr;
            if (auto* nested = std::get_if<std::unique_ptr<Block>>(&s)) {
                child = nested->get();
            } else if (auto* ref = std::get_if<ReferenceStmt>(&s)) {
                if (ref->target.parts.back() == parts[next]) {
                    const Description* owner = result_.owner(*at);
                    child = lookup(owner ? *owner : d, ref->target.parts, visiting);
                }
            }
            if (child && child->name == parts[next]) {
                const Description* owner = result_.owner(*child);
                found = descend(owner ? *owner : d, child, parts, next + 1, visiting);
                if (found) break;
            }
        }
        visiting.erase(at);
        return found;
    }

    // Depth-first search over the inclusion graph; a back edge is a cycle.
    void check_cycles(const Block& root) {
        std::set<const Block*> on_path;
        std::function<void(const Block&)> visit = [&](const Block& b) {
            if (done_.count(&b)) return;
            on_path.insert(&b);
            for (const Statement& s : b.statements) {
                const Block* child = nullptr;
                SourceLocation loc;
                if (auto* nested = std::get_if<std::unique_ptr<Block>>(&s)) {
                    child = nested->get();
                } else if (auto* ref = std::get_if<ReferenceStmt>(&s)) {
                    child = result_.target(ref->target);
                    loc = ref->target.location;
                }
                if (!child) continue;
                if (on_path.count(child)) {
                    diags_.error(loc, fmt::format("'{}' includes itself: block '{}' contains a "
                                                  "reference back to it",
                                                  child->name, b.name));
                    cut_reference(b, child);
                    continue;
                }
                visit(*child);
            }
            on_path.erase(&b);
            done_.insert(&b);
        };
        visit(root);
    }

    // Forgets the references from `from` to `to` so that later passes never loop.
    void cut_reference(const Block& from, const Block* to) {
        for (const Statement& s : from.statements)
            if (auto* ref = std::get_if<ReferenceStmt>(&s); ref && result_.target(ref->target) == to)
                result_.targets_.erase(&ref->target);
    }

    const std::map<std::string, const Description*>& library_;
    DiagnosticEngine& diags_;
    Resolution result_;
    std::set<const Block*> done_;
};

Resolution resolve_references(const std::map<std::string, const Description*>& library,
                              DiagnosticEngine& diags) {
    return ReferenceResolver(library, diags).run();
}

}  // namespace mcl::hdl
