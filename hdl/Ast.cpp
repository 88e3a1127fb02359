#include "hdl/Ast.h"

#include <array>
#include <utility>

namespace mcl::hdl {

namespace {
constexpr std::array<std::pair<BlockKind, const char*>, 17> kBlockKindNames{{
    {BlockKind::Parallelism, "parallelism"},
    {BlockKind::MemorySpace, "memory_space"},
    {BlockKind::ParGroup, "par_group"},
    {BlockKind::ParUnit, "par_unit"},
    {BlockKind::Device, "device"},
    {BlockKind::DeviceGroup, "device_group"},
    {BlockKind::DeviceUnit, "device_unit"},
    {BlockKind::Memory, "memory"},
    {BlockKind::Cache, "cache"},
    {BlockKind::Interconnect, "interconnect"},
    {BlockKind::ExecutionGroup, "execution_group"},
    {BlockKind::ExecutionUnit, "execution_unit"},
    {BlockKind::SimdGroup, "simd_group"},
    {BlockKind::SimdUnit, "simd_unit"},
    {BlockKind::LoadStoreGroup, "load_store_group"},
    {BlockKind::LoadStoreUnit, "load_store_unit"},
    {BlockKind::Instructions, "instructions"},
}};
}  // namespace

const char* block_kind_name(BlockKind k) {
    for (const auto& [kind, name] : kBlockKindNames)
        if (kind == k) return name;
    return "block";
}

std::optional<BlockKind> block_kind_from_name(const std::string& name) {
    for (const auto& [kind, text] : kBlockKindNames)
        if (name == text) return kind;
    return std::nullopt;
}

std::vector<std::string> all_block_kind_names() {
    std::vector<std::string> names;
    for (const auto& entry : kBlockKindNames) names.emplace_back(entry.second);
    return names;
}

std::string QualifiedName::str() const {
    std::string s;
    for (const std::string& p : parts) {
        if (!s.empty()) s += '.';
        s += p;
    }
    return s;
}

const Block* Description::top_level(const std::string& block_name) const {
    for (const auto& b : blocks)
        if (b->name == block_name) return b.get();
    return nullptr;
}

const Block* Description::device_block() const {
    const Block* parents = nullptr;
    for (const auto& b : blocks) {
        if (b->kind != BlockKind::Device) continue;
        if (b->name == name) return b.get();
        if (specializes && b->name == *specializes) parents = b.get();
    }
    return parents;
}

SourceLocation statement_location(const Statement& s) {
    struct {
        SourceLocation operator()(const std::unique_ptr<Block>& b) const { return b->location; }
        SourceLocation operator()(const PropertyStmt& p) const { return p.location; }
        SourceLocation operator()(const ArgPropertyStmt& p) const { return p.location; }
        SourceLocation operator()(const FlagStmt& f) const { return f.location; }
        SourceLocation operator()(const ReferenceStmt& r) const { return r.target.location; }
    } visitor;
    return std::visit(visitor, s);
}

}  // namespace mcl::hdl
