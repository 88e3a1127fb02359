// Part of the lowering to LLVM IR (LowerToIr.h): row tiles, which read the
// elements that the lanes of vector code gather along their own rows with
// row loads instead.
//
// Why: a foreach whose lanes each take one row of a matrix, around a loop
// over the columns (`sum += a[i, j] * x[j]`, the lanes over i), gathers
// a[i..i+W-1, j] at every j: W separate loads, and where a row is a power of
// two bytes long all W lines fall into one set of the L1 cache and evict
// each other before the next j needs them again (gesummv at n = 4096 ran at
// 0.9 of the scalar cpp backend's speed). A tile loads the W elements of each
// lane's row from j on once, as one vector per lane, and transposes them in
// registers into the W column vectors that the next W values of j read.
//
// Needs: vector code of a width that row_tile_width accepts; a loop around
//   the accesses that writes nothing in memory but scalar variables
//   (writes_only_scalars: no array element, no swap, no call that writes),
//   so that no element changes between the tile's load and its use; the
//   function's entry block for the tiles' storage; the branch that enters
//   the loop, before which every tile is emptied.
// Does: one tile per access site. At each use, when the column index j lies
//   within the tile's W columns, every active lane's address is the tile's
//   address for that lane moved by the same number of columns (not compared
//   where the rows stay fixed during the loop), and every
//   active lane was active when the tile was loaded, the use is one vector
//   load of the stored column; otherwise the tile is loaded first from the
//   current addresses: for each active lane its row's elements j .. j+W-1
//   that lie before the row's extent (a masked load), then a transpose; each
//   row is also prefetched some way ahead, since W rows read side by side are
//   more streams than the hardware prefetchers follow.
// Guarantees: each active lane gets the value the gather would load, and an
//   inactive one 0, as from a masked gather; no element at or beyond the
//   row's extent is read, nor any of a row no active lane uses.
#pragma once

#include <set>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "compiler/ast/Ast.h"

namespace mcl::backends::llvmir {

// Whether tiles of `width` lanes are made: 2, 4, 8 or 16 (the transpose
// takes log2(width) rounds of interleaving shuffles; wider tiles would hold
// more registers than the targets have).
bool row_tile_width(int width);

// Whether `loop` (a For statement, with its condition, step and body) writes
// nothing in memory but scalar variables: no element or field of an array
// or record is assigned, no array is declared, swapped or viewed, and every
// call is to a builtin or to a library function that declares no write.
bool writes_only_scalars(const mcpl::Stmt& loop);

// One read of an element of the lanes' rows.
struct RowAccess {
    llvm::Value* addresses = nullptr;  // <W x ptr>: each lane's element
    llvm::Type* element = nullptr;     // the element's type in memory (aligned as its ABI says)
    llvm::Value* column = nullptr;     // i64: the last index, the same for every lane
    llvm::Value* extent = nullptr;     // i64: the extent of the last dimension
    llvm::Value* lanes = nullptr;      // <W x i1>: the active lanes (null: all)
    bool rows_fixed = false;           // the lanes' rows stay the same while the loop runs (RowTiles::rows_fixed)
};

// The tiles of the accesses inside one loop.
class RowTiles {
public:
    // `out_of_line_fills`: each tile's load and transpose is a call of one
    // function per element type and width in the module (for code compiled
    // on every run, where the fills were most of the machine code and of the
    // compile time of the kernels that have tiles), else inline (5 % faster
    // in gesummv at n = 4096).
    RowTiles(const mcpl::Stmt& loop, llvm::BasicBlock* function_entry, llvm::Instruction* loop_entry, int width,
             bool out_of_line_fills);

    // Whether the rows that `access` (a Var expression of the loop) reads
    // stay the same while the loop runs: its indices but the last read no
    // variable that the loop writes or declares. A use then need not compare
    // the lanes' addresses with the tile's.
    bool rows_fixed(const mcpl::Expr& access) const;

    // The elements `access` reads (a <W x element> vector), through a new
    // tile; emitted at the builder's insertion point, which it leaves after
    // the load.
    llvm::Value* load(llvm::IRBuilderBase& builder, const RowAccess& access);

private:
    struct Tile {
        llvm::AllocaInst* columns = nullptr;    // [W x <W x element>], transposed
        llvm::AllocaInst* addresses = nullptr;  // <W x ptr>: each lane's element of the first column
        llvm::AllocaInst* start = nullptr;      // i64: the first column's index
        llvm::AllocaInst* lanes = nullptr;      // <W x i1>: the lanes loaded
    };
    Tile new_tile(llvm::IRBuilderBase& builder, llvm::Type* element);
    // Loads the active lanes' rows from `column` on, prefetches them and
    // stores their transpose to `columns_out`.
    void fill(llvm::IRBuilderBase& b, llvm::Value* columns_out, llvm::Value* addresses, llvm::Value* column,
              llvm::Value* extent, llvm::Value* active, llvm::Type* element);
    // `void fill(ptr columns, <W x ptr> addresses, i64 column, i64 extent,
    // <W x i1> active)`, made once per module.
    llvm::Function* fill_function(llvm::Module& module, llvm::Type* element);

    std::set<const mcpl::Decl*> changing_;  // the variables the loop writes or declares
    llvm::BasicBlock* function_entry_;
    llvm::Instruction* loop_entry_;
    int width_;
    bool out_of_line_fills_;
};

// The transpose of the W x W matrix whose rows are `rows` (W vectors of W
// elements, W a power of two): W vectors, the k-th holding every row's
// element k.
std::vector<llvm::Value*> transpose(llvm::IRBuilderBase& builder, std::vector<llvm::Value*> rows);

}  // namespace mcl::backends::llvmir
