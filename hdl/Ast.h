// The HDL abstract syntax tree: one Description per .hdl file, made of Blocks
// whose statements are nested blocks, properties, flags and references. Every
// node carries its source location. The AST is what the parser produces; the
// resolver, the validator and the model builder read it and never see ANTLR.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/SourceManager.h"

namespace mcl::hdl {

// Block kinds (thesis Fig. 3.5 and Table A.1).
enum class BlockKind {
    Parallelism, MemorySpace, ParGroup, ParUnit,
    Device, DeviceGroup, DeviceUnit, Memory, Cache, Interconnect,
    ExecutionGroup, ExecutionUnit, SimdGroup, SimdUnit,
    LoadStoreGroup, LoadStoreUnit, Instructions,
};

const char* block_kind_name(BlockKind k);
std::optional<BlockKind> block_kind_from_name(const std::string& name);
std::vector<std::string> all_block_kind_names();

// A dotted name such as `perfect.hierarchy.threads.thread`.
struct QualifiedName {
    std::vector<std::string> parts;
    SourceLocation location;
    std::string str() const;
};

struct Expr {
    enum class Kind {
        Int,        // value
        String,     // text
        Name,       // name (also the keywords unlimited, true, false, countable)
        AllUnits,   // name[*]
        Operator,   // (+) (-) (*) (/) (%): op
        Negate,     // operands[0]
        Binary,     // operands[0] op operands[1]
    };
    Kind kind = Kind::Int;
    SourceLocation location;
    int64_t value = 0;
    std::string text;
    QualifiedName name;
    char op = 0;
    std::vector<Expr> operands;

    bool is_keyword(const char* keyword) const {
        return kind == Kind::Name && name.parts.size() == 1 && name.parts[0] == keyword;
    }
};

// A unit as written: `kB` has prefix 'k' and base "B"; `GB/s` has per "s".
struct Unit {
    char prefix = 0;  // 0, 'k', 'M' or 'G'
    std::string base;
    std::string per;
    std::string spelling;
    SourceLocation location;
};

struct Block;

struct PropertyStmt {  // name = value unit? ;
    std::string name;
    Expr value;
    std::optional<Unit> unit;
    SourceLocation location;
};

struct ArgPropertyStmt {  // name(arg, ...);
    std::string name;
    std::vector<Expr> args;
    SourceLocation location;
};

struct FlagStmt {  // default; read_only;
    std::string name;
    SourceLocation location;
};

struct ReferenceStmt {  // name; or a.b.c; includes the referenced block here
    QualifiedName target;
};

using Statement = std::variant<std::unique_ptr<Block>, PropertyStmt, ArgPropertyStmt,
                               FlagStmt, ReferenceStmt>;

struct Block {
    BlockKind kind = BlockKind::Device;
    std::string name;
    SourceLocation location;       // the kind keyword
    SourceLocation name_location;  // the block's name
    std::vector<Statement> statements;
    const Block* parent = nullptr;  // enclosing block in the same file; null at top level
};

struct Description {
    std::string name;
    SourceLocation location;
    std::optional<std::string> specializes;
    SourceLocation specializes_location;
    std::vector<std::unique_ptr<Block>> blocks;
    uint32_t file = 0;

    const Block* top_level(const std::string& block_name) const;
    // The `device` block that describes the hardware: `device NAME`, or, in
    // the original MCL distribution's dialect, one that kept the name of the
    // parent this description specializes; null when there is neither.
    const Block* device_block() const;
};

SourceLocation statement_location(const Statement& s);

}  // namespace mcl::hdl
