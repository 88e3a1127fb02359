// The MCPL abstract syntax tree, our own: the parser builds it (ANTLR stays in
// compiler/parse), the checker annotates it, and every later pass (translation,
// feedback, code generation) reads it. Every node carries a source location.
//
// Fields under "set by the checker" are empty after parsing and filled by
// check_program(); a pass that runs after checking may rely on them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/SourceManager.h"

namespace mcl::mcpl {

struct Expr;
struct Stmt;
struct Decl;
struct Function;
struct RecordType;
struct Module;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;

enum class Primitive { Void, Int, Float, Double, Byte, Bool };
const char* primitive_name(Primitive p);
// Where a number type stands in the widening order byte < int < float <
// double (arithmetic takes the wider; storing into a narrower one may change
// the value); 0 for void and bool.
int numeric_rank(Primitive p);

// A type as the checker understands it: a primitive or a record, with the
// dimension groups of an array type. `float[n,m]` has one group of two
// extents; `float[2][3]` has two groups (2 tiles of 3 elements).
struct Type {
    std::optional<Primitive> primitive;   // set for primitive types
    const RecordType* record = nullptr;   // set for record types
    size_t group_count = 0;               // number of [..] groups
    std::vector<size_t> group_ranks;      // indices per group

    bool is_array() const { return group_count > 0; }
    bool is_numeric() const;
    bool is_void() const { return primitive == Primitive::Void && !is_array(); }
    bool valid() const { return primitive.has_value() || record != nullptr; }
    Type element() const;  // the type with the array groups dropped
    std::string str() const;
    friend bool operator==(const Type& a, const Type& b);
};

// The bytes of one element of `t` (its array groups dropped), as C lays it
// out: 4 for int and float, 8 for double, 1 for byte and bool; a record's
// fields (arrays of them included) each at a multiple of its alignment,
// the whole a multiple of the largest; 0 when unknown (a field's extent
// is not a constant).
int64_t element_byte_size(const Type& t);

// A type as written: `Complex`, `float[n,m]`, `int[2,2][3,3]`.
struct TypeExpr {
    std::optional<Primitive> primitive;
    std::string record_name;                       // when !primitive
    std::vector<std::vector<ExprPtr>> dimensions;  // [..] groups, each with its extents
    SourceLocation location;

    TypeExpr clone() const;
};

// `float[n] a` inside a declaration; several form one storage with `as`.
struct BasicDecl {
    TypeExpr type;
    std::string name;
    SourceLocation location;  // the name

    // Set by the checker.
    Type resolved_type;
};

// A variable: a parameter, a local, a foreach or for index, a record field or
// a top-level constant.
struct Decl {
    std::vector<std::string> memory_spaces;        // modifiers naming memory spaces
    std::vector<SourceLocation> memory_space_locations;
    bool is_const = false;
    std::vector<BasicDecl> forms;                  // `int[2,3] as int[6] b`: two forms
    ExprPtr init;
    SourceLocation location;

    // Set by the checker.
    std::string memory_space;  // the space it lives in ("" for constants/indices)
    bool is_read = false;      // anywhere, through calls included
    bool is_written = false;

    const std::string& name() const { return forms.back().name; }
    std::unique_ptr<Decl> clone() const;
};

// One step of a variable path: `a[i,j][k]` has indices {{i,j},{k}}.
struct VarPart {
    std::string name;
    std::vector<std::vector<ExprPtr>> indices;
    SourceLocation location;
};

// A hardware value such as gpu.hierarchy.blocks.block.threads.max_nr_units.
struct HardwareValue {
    std::string description;
    std::vector<std::string> path;  // after the description name
    int64_t value = 0;              // resolved by the checker
};

struct Expr {
    enum class Kind { IntLiteral, FloatLiteral, BoolLiteral, Var, Call, Unary, Binary };
    Kind kind = Kind::IntLiteral;
    SourceLocation location;

    int64_t int_value = 0;       // IntLiteral
    double float_value = 0;      // FloatLiteral
    std::string spelling;        // FloatLiteral, as written
    bool bool_value = false;     // BoolLiteral
    std::vector<VarPart> var;    // Var: parts[0].name is the variable
    std::string callee;          // Call
    std::vector<ExprPtr> args;   // Call arguments; Unary/Binary operands
    std::string op;              // Unary: "-" "!"; Binary: "+" ... "^" "&&" ...

    // Set by the checker.
    Type type;
    const Decl* decl = nullptr;            // Var: the variable's declaration
    const BasicDecl* form = nullptr;       // Var: the form (`as` view) that was named
    const Function* function = nullptr;    // Call: a user/library function (null for builtins)
    std::optional<HardwareValue> hardware; // Var naming a hardware value

    ExprPtr clone() const;
};

// Whether a Binary operator compares two values to a bool (< <= > >= == !=).
bool is_comparison(const std::string& op);

// `x op y` for a comparison operator, as C computes it; nothing for the
// others. The interpreter, the constant folder and the backends share it.
template <typename T>
std::optional<bool> compare(const std::string& op, T x, T y) {
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    return std::nullopt;
}

struct Stmt {
    enum class Kind {
        Block, Decl, Assign, Step, Swap, Call, Return, If, For, Foreach, Barrier, As,
    };
    Kind kind = Kind::Block;
    SourceLocation location;

    std::vector<StmtPtr> body;    // Block
    std::unique_ptr<Decl> decl;   // Decl; For: the loop variable; Foreach: the index
    ExprPtr target;               // Assign, Step, Swap, As: the variable (a Var)
    std::string op;               // Assign: "=" "+=" ...; Step: "++" "--"
    ExprPtr value;                // Assign: right side; Swap: the other Var; Return: value or null
    ExprPtr call;                 // Call statement
    ExprPtr condition;            // If, For
    StmtPtr then_branch, else_branch;  // If
    StmtPtr step;                 // For: an Assign or Step statement
    StmtPtr loop_body;            // For, Foreach
    ExprPtr count;                // Foreach: number of units
    std::string name;             // Foreach: par_group; Barrier: memory space
    SourceLocation name_location;
    std::vector<BasicDecl> views; // As: the new forms

    StmtPtr clone() const;
};

struct Function {
    std::string hardware;          // the description it targets
    SourceLocation hardware_location;
    TypeExpr return_type;
    std::string name;
    SourceLocation location;       // the name
    std::vector<std::unique_ptr<Decl>> params;
    StmtPtr body;                  // a Block

    // Set by the checker.
    bool builtin_body = false;     // body is mcl_builtin_read/_write calls only
    Type resolved_return_type;
    const Module* module = nullptr;
};

struct RecordType {
    std::string name;
    SourceLocation location;
    std::vector<std::unique_ptr<Decl>> fields;
    const Module* module = nullptr;  // set by the checker
    const Decl* field(const std::string& field_name) const;  // null when there is none
};

struct Import {
    std::vector<std::string> path;  // lib.math.complex
    SourceLocation location;
    std::string str() const;
};

struct Module {
    std::vector<std::string> package;
    SourceLocation package_location;
    std::string name;
    SourceLocation location;
    std::vector<std::pair<std::string, SourceLocation>> exports;
    std::vector<Import> imports;
    std::vector<std::unique_ptr<Decl>> constants;       // top-level `const` declarations
    std::vector<std::unique_ptr<RecordType>> records;
    std::vector<std::unique_ptr<Function>> functions;
    uint32_t file = 0;

    bool exports_name(const std::string& n) const;
};

}  // namespace mcl::mcpl
