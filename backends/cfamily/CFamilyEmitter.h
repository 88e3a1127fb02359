// The part of code generation every C-family backend shares (cpp, OpenCL,
// CUDA, HLS C++): which functions and records a module needs, and how MCPL
// types, expressions and statements are spelt in a language of C's family.
//
// Needs: a checked module translated to a leaf (GenerationInput) and the
//   backend's section of the leaf's target configuration.
// Does: collects the kernels (module_kernels), the device functions they
//   call, transitively and across modules, and the records they use (each
//   after the records its fields use). Prints expressions with explicit
//   parentheses and C casts (which all four languages accept); arrays are
//   flat and indexed row-major over all dimension groups (`a[i,j]` of
//   `float[n,m]` is `a[(i) * (m) + (j)]`; tiles likewise; an `as` view is
//   indexed with its own shape), and an index naming a tile or row yields a
//   pointer to its first element. Offsets and element counts of arrays of
//   several dimensions are computed in 64 bits (wide_int), and divide_up
//   does not overflow. Library functions with builtin bodies are
//   spelt as the configuration's "builtins" say (a callee, or a template
//   with $0, $1, ... for the arguments). Statements are printed as braced C;
//   a kernel's written scalars are pointers.
//   Recursive calls are refused, located at the call, unless the backend
//   allows recursion (allows_recursion). MCPL's modules are namespaces and
//   the printed C is one: a device function or constant named like one of
//   another module is printed under a module-qualified name; two records of
//   one name (types of the host's interface too) are refused.
//   A backend derives from this class and supplies what differs: foreach
//   (the mapping of parallelism), barriers, array declarations, parameters,
//   min/max/pow spellings, how device functions are called, and the files.
// Guarantees: a construct a backend cannot express is reported at the
//   user's location with the backend's name, never printed wrongly;
//   generation_failed() then says the files must not be written.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backends/Backend.h"
#include "backends/cfamily/ArraySwaps.h"

namespace mcl::backends {

class CFamilyEmitter {
public:
    // The keywords of C++20, for the reserved names of backends that emit C++.
    static std::set<std::string> cpp_keywords();
    virtual ~CFamilyEmitter() = default;

protected:
    // How a parameter is passed: kernels and their host functions take
    // written scalars as pointers; device functions as references where the
    // language has them.
    enum class Role { Host, Kernel, Device };

    CFamilyEmitter(const GenerationInput& input, const BackendConfig& config, DiagnosticEngine& diags,
                   std::set<std::string> reserved_names);

    // Fills kernels_, device_functions_ and records_, and names the
    // functions, constants and records; false (with an error) when the
    // module has no kernel, or when kernels recurse and the backend does
    // not allow it (an error at each call that closes a cycle).
    bool collect();
    bool generation_failed() const { return diags_.error_count() != errors_at_start_; }

    // --- names and types -------------------------------------------------------
    // An MCPL name as an identifier: target_identifier (Backend.h) with this
    // backend's reserved names, so that the generator's names, the target
    // language's and its headers' never capture or hide the user's.
    std::string ident(const std::string& name) const;
    // The identifier of device function `f`, of module constant `c` and of
    // record `r`: ident() of the name (host_identifier() for records, which
    // the host's code spells too), or the module-qualified name that keeps
    // it apart from one of the same name in another module
    // (qualify_clashing_names).
    std::string function_identifier(const mcpl::Function& f) const;
    std::string constant_identifier(const mcpl::Decl& c) const;
    std::string record_identifier(const mcpl::RecordType& r) const;
    static std::string primitive_spelling(mcpl::Primitive p);
    // The element type of `t` (its array groups dropped).
    std::string element_spelling(const mcpl::Type& t) const;
    static std::vector<const mcpl::Expr*> all_extents(const mcpl::TypeExpr& t);
    // An array declaration's element count when its extents fold to a constant.
    static std::optional<int64_t> constant_elements(const mcpl::Decl& d);
    // `s` without outer parentheses that enclose all of it.
    static std::string unwrap(const std::string& s);
    std::string banner(const std::string& file, const std::string& what) const;
    // The record structs, in C (no constructors, fixed-size array fields).
    std::string record_definitions();
    // The module-level constants the kernels and their device functions
    // read, of any module, each after those its value reads, as
    // `<storage> T name = value;`. With `compile_time` (constexpr, OpenCL's
    // __constant) an int or byte is printed folded, and a value computed
    // with ^ or a function call, which the target cannot evaluate there, is
    // a located error. The first call checks the constants and reports
    // errors; later ones (the host glue's copy) print the same values.
    std::string constant_definitions(const std::string& storage, bool compile_time);

    // --- host files of kernels that run in the host process ---------------------
    // `<module>.h`: the records and, in namespace <module>, each kernel's
    // host function (parameters in MCPL order, Role::Host).
    std::string host_header();
    // `<module>.cpp`: declares each kernel in <module>::kernels as
    // `<linkage><signature>` and defines its host function, which calls it
    // and turns any exception into an mcl::Error naming the kernel and the
    // backend. `note` (comment lines, or "") follows the banner.
    std::string in_process_glue(const std::string& linkage, const std::string& note);
    // The memory one argument of a kernel call spans, as C++ expressions.
    struct ArgumentSpan {
        std::string begin;
        std::string bytes;
    };
    // The glue's statement (`pad` deep, with its newline) that throws when an
    // array or written scalar of `k` that the kernel writes shares memory
    // with another (mcl::check_arrays_apart); "" when no two of them could.
    // `span` gives the memory of such a parameter as the glue passes it.
    std::string arrays_apart_check(const mcpl::Function& k,
                                   const std::function<ArgumentSpan(const mcpl::Decl&)>& span,
                                   const std::string& pad);
    // The element count of an array of `shape`, a parameter of kernel `k`,
    // as in-process glue computes it: the module's constants (which only
    // the kernel file defines) folded to their values; nothing when one
    // does not fold.
    std::optional<std::string> glue_element_count(const mcpl::Function& k, const mcpl::TypeExpr& shape);
    // The span of a host pointer argument: a written scalar, or an array of
    // `elements` (a C++ expression of its element count).
    ArgumentSpan host_pointer_span(const mcpl::Decl& d, const std::string& elements);

    // --- expressions ------------------------------------------------------------
    std::string expr(const mcpl::Expr& e);
    // The value of a comparison that a byte's range decides (`b >= 0`), else nothing.
    static std::optional<bool> decided_by_byte_range(const mcpl::Expr& e);
    // The product of an array's extents, as an expression.
    std::string element_count(const mcpl::TypeExpr& shape);
    // The product of `shape`'s extents from dimension `from` on, and whether
    // it fits in an int (constants whose product does).
    std::pair<std::string, bool> extent_product(const mcpl::TypeExpr& shape, size_t from);

    // --- statements -------------------------------------------------------------
    void line(const std::string& text);
    std::string indentation() const { return std::string(4 * static_cast<size_t>(indent_), ' '); }
    void stmt(const mcpl::Stmt& s);
    // A statement as the body of if/for: always a braced block, no newline.
    void block(const mcpl::Stmt& s);
    // The statements of a block, or the single statement `s`, in the
    // current braces.
    virtual void statements(const mcpl::Stmt& s);
    void unrolled_loop(const mcpl::Stmt& for_loop);
    // A local declaration; `with_value` false (a scalar whose value a guard
    // pushed past barriers assigns, GuardPushing.h): zero and not constant,
    // and initial_value assigns the value later.
    void declaration(const mcpl::Decl& d, bool with_value = true);
    void initial_value(const mcpl::Decl& d);
    // An assignment or step without its semicolon (also a for loop's step).
    std::string simple(const mcpl::Stmt& s);
    // Reports a memory space without an entry in the configuration.
    void check_memory_space(const mcpl::Decl& d);
    // The configured qualifier of a memory space, with a trailing space, or "".
    std::string qualifier_of(const std::string& space) const;
    // `name(params)` with the function's return type; a Role::Kernel
    // function is named kernel_symbol(f).
    std::string signature(const mcpl::Function& f, Role role, bool definition);
    // The same under `name` (a backend's second copy of a device function).
    std::string signature(const mcpl::Function& f, Role role, bool definition, const std::string& name);
    // Opens a function body: aliases for a parameter's other forms, and the
    // kernel's written scalars registered as pointers.
    void begin_function(const mcpl::Function& f, Role role);
    // Opens a function body after its brace (default: begin_function).
    virtual void function_prologue(const mcpl::Function& f, Role role) { begin_function(f, role); }
    // Prints `f` whole for `role` (a device function, or an in-process
    // kernel): its uses noted, then `head()` (the line before the brace,
    // spelt once unused parameters are known), function_prologue, the body.
    void print_function(const mcpl::Function& f, Role role, const std::function<std::string()>& head);
    // `e` as a value of type `to`: a conversion that may change the value
    // (to byte, int from floating point, float from int or double) is
    // spelt as a cast, as MCPL converts implicitly and C compilers warn of
    // it (a constant that does not fit a byte, 2.5 to an int).
    std::string converted(const mcpl::Type& to, const mcpl::Expr& e);
    // The arguments of call `e`, each converted to its parameter's type.
    std::vector<std::string> call_arguments(const mcpl::Expr& e);
    // Reports `return` inside a foreach (a unit cannot leave the whole loop).
    bool reject_return_in(const mcpl::Stmt& foreach_stmt);
    // The count of a foreach as its loop header or guard reads it, where the
    // index is declared (spelt as expr() spells it). A count that names a variable called like the
    // index (`foreach (int n in n threads)`) is first copied by a line
    // `const int mcl_count_<index> = <count>;` here, before the index hides it.
    std::string foreach_count(const mcpl::Stmt& foreach_stmt);
    void unsupported(SourceLocation loc, const std::string& what);
    // The error for a par_group without a configuration entry, or nullptr
    // with the entry when it has one.
    const ConfigEntry* par_group_entry(const mcpl::Stmt& foreach_stmt);

    // --- what backends supply ---------------------------------------------------
    virtual std::string backend_name() const = 0;
    virtual void foreach(const mcpl::Stmt& s) = 0;
    virtual void barrier(const mcpl::Stmt& s);
    // A local array declaration (its qualifier already looked up).
    virtual void array_declaration(const mcpl::Decl& d, const std::string& qualifier) = 0;
    virtual std::string parameter(const mcpl::Decl& d, Role role, bool definition);
    virtual std::string min_max(const std::string& which, const mcpl::Type& type, const std::string& a,
                                const std::string& b) = 0;
    // a ^ b of result type `type`: exact on integers (an int or byte
    // result), pow in the operands' precision otherwise, as the interpreter.
    virtual std::string power(const mcpl::Type& type, const std::string& a, const std::string& b) = 0;
    // a ^ b in host C++: std::pow, in double when both are integers, which
    // is exact for every power that fits an int; an integer result is
    // converted through int, so that a byte keeps it modulo 256.
    std::string host_power(const mcpl::Type& type, const std::string& a, const std::string& b) const;
    // A call of a function of the module (not a builtin; `call.function` is
    // set); `args` are spelt already, written-scalar arguments included as
    // the callee takes them. The default calls the callee's variant for the
    // call's arguments.
    virtual std::string device_call(const mcpl::Expr& call, const std::vector<std::string>& args);

    // --- device functions per kind of argument -----------------------------------
    // Some parameters of a device function are printed apart for the kind
    // of storage a call passes them: OpenCL's pointers carry an address
    // space; an atomic update of a CUDA thread's own variable must be a
    // plain one. A variant is one printing of a function for the keys of
    // such arguments; the first variant of a function keeps its name, the
    // others are `mcl_as_<codes>_<name>`, a name neither the user's
    // (target_identifier maps those away from `mcl_`) nor the generator's
    // other ones have. Backends without such parameters get one variant per
    // function, under its own name.
    struct DeviceVariant {
        const mcpl::Function* function;
        std::vector<std::string> keys;  // per parameter: its argument's key where it varies, else ""
        std::string name;
    };
    // Whether `param` (of a device function) is printed apart per kind of argument.
    virtual bool varies_with_argument(const mcpl::Decl&) const { return false; }
    // The key of `argument`, the storage a call of the function being
    // walked or printed passes to a parameter that varies.
    virtual std::string argument_key(const mcpl::Decl&) const { return ""; }
    // The letter of `key` in a variant's name.
    virtual char key_code(const std::string& key) const { return key.empty() ? 'p' : key.front(); }
    // The key a kernel's parameter has while the kernel is walked or printed.
    virtual std::string kernel_parameter_key(const mcpl::Decl&) const { return ""; }
    // The variant that `call` (in the function being walked or printed) calls.
    const DeviceVariant& variant_of(const mcpl::Expr& call);
    // Fills device_variants_ with the variants the kernels call, transitively.
    void collect_variants();
    // Binds the keys of `f`'s parameters (a kernel's own, or a variant's)
    // for the walk or print that follows.
    void bind_kernel_parameters(const mcpl::Function& k);
    void bind_variant_parameters(const DeviceVariant& v);
    // The key bound to `param`, or null where it has none.
    const std::string* bound_key(const mcpl::Decl& param) const;
    // The prototypes, then the definitions, of every collected variant,
    // each signature after `prefix` (`__device__ `).
    void print_device_variants(const std::string& prefix);
    // Storage that a kernel takes as parameters after its own and the glue
    // allocates, zeroed, for each call (none by default): `spelling` is the
    // kernel's parameter, `element` the element type and `elements` the
    // element count, an expression of the kernel's parameters.
    struct StorageParameter {
        std::string spelling;
        std::string element;
        std::string elements;
    };
    virtual std::vector<StorageParameter> storage_parameters(const mcpl::Function&) { return {}; }
    // The name of a kernel's own function (Role::Kernel), by default the
    // kernel's name.
    virtual std::string kernel_symbol(const mcpl::Function& k) const { return ident(k.name); }
    // The attribute that keeps the language's compiler from warning about an
    // unused variable or parameter (`[[maybe_unused]] `), or "".
    virtual std::string unused_attribute() const { return ""; }
    // unused_attribute() for a declaration that the code being printed does
    // not use (see note_uses), else "".
    std::string unused_prefix(const mcpl::Decl& d) const { return used_.count(&d) ? "" : unused_attribute(); }
    // The same for one form of a declaration: an `as` view or an alias.
    std::string unused_prefix(const mcpl::BasicDecl& form) const {
        return used_forms_.count(&form) ? "" : unused_attribute();
    }
    // Forgets the uses noted for the code printed before.
    void forget_uses() {
        used_.clear();
        used_forms_.clear();
        sizes_arrays_.clear();
    }
    // Records in read_beyond_own_updates_ the variables of `f` that are read
    // anywhere but in an update of themselves (`x /= 3`, `x++`,
    // `x = x + 1`): a C compiler counts the others as set but not used.
    void note_reads_beyond_own_updates(const mcpl::Function& f);
    // Records the variables `s` uses, its nested statements included.
    void note_uses(const mcpl::Stmt& s);
    // Records the variables `s`'s own expressions use, as printed.
    void note_own_uses(const mcpl::Stmt& s);
    // Calls `visit` on `s` and the statements nested in it whose own
    // expressions the printed code holds: all but the loops unrolled in the
    // source, which print neither their bounds nor their step.
    void for_each_printed_stmt(const mcpl::Stmt& s, const std::function<void(const mcpl::Stmt&)>& visit) const;
    void note_uses(const mcpl::Expr& e);
    // The address-space qualifier, with a trailing space, of a pointer into
    // the storage that array `array` (a parameter or declaration of the
    // function being printed) names: OpenCL's `__global `, `__local `; ""
    // where pointers have one address space (C++, CUDA's generic pointers)
    // and for private storage.
    virtual std::string pointer_space_of(const mcpl::Decl&) const { return ""; }
    // The scope ("device", "group" or "item", as the target's
    // memory_spaces say) of the memory `variable` lives in, as the function
    // being printed sees it; "" where that depends on the caller (a
    // parameter of a device function).
    virtual std::string storage_scope(const mcpl::Decl& variable) const;
    // The target's spelling of library function `call`: `name@scope` where
    // it spells the call apart for the scope of the memory its first
    // argument lives in (an atomic update of an item's own variable is a
    // plain one; OpenCL's float atomicAdd on __local memory is a function
    // of its own), else `name`; null where it has none.
    const std::string* library_spelling(const mcpl::Expr& call) const;
    // A call statement (the default prints the call).
    virtual void call_statement(const mcpl::Stmt& s);
    // Whether device functions take written scalars by reference (else by
    // pointer, and callers pass addresses).
    virtual bool has_references() const { return true; }
    // Whether the backend's kernel language can express recursive calls
    // (C++ on the host can; see RecursiveCalls.h for the others).
    virtual bool allows_recursion() const { return false; }
    // Whether the backend holds the arrays that a swap of whole arrays
    // redirects through pointers (ArraySwaps.h); else it refuses the swaps
    // that do not trade elements (swaps_elements).
    virtual bool redirects_arrays() const { return true; }
    // Whether array `d` takes part in a swap that trades it for another, so
    // that its name is a pointer variable into its storage.
    bool redirected(const mcpl::Decl& d) const { return array_swaps_.redirected.count(&d) > 0; }
    // Whether the code of a kernel redirects its parameters itself; grid
    // backends' launches never do (their host code swaps them).
    virtual bool kernels_redirect_parameters() const { return true; }
    // Whether parameter `d` of a function printed as `role` may be restrict:
    // not where the printed code redirects it, as it would then take another
    // restrict pointer's value (C11 6.7.3.1).
    bool may_restrict(const mcpl::Decl& d, Role role) const {
        return role != Role::Host && !(redirected(d) && (role == Role::Device || kernels_redirect_parameters()));
    }
    // Whether a swap of redirected array `d` trades elements instead, a
    // unit's own array of constant size that no view names, whose elements
    // the kernel compiler may then keep in registers; pointers by default.
    virtual bool swaps_elements(const mcpl::Decl&) const { return false; }
    // Whether `d` is an array of constant size that the function being
    // printed declares (no parameter) and no view names.
    bool unviewed_constant_array(const mcpl::Decl& d) const;
    // The storage of a redirected array that is no parameter, which its
    // name points into at its declaration.
    std::string array_storage_name(const mcpl::Decl& d) { return "mcl_storage_" + ident(d.forms.front().name); }
    // The name an array's storage is declared by: array_storage_name where
    // a swap redirects it, else its own.
    std::string storage_name(const mcpl::Decl& d) {
        return redirected(d) ? array_storage_name(d) : ident(d.forms.front().name);
    }
    // The 64-bit signed integer type of the code being printed, for element
    // counts and offsets (`long long`; OpenCL C's is `long`).
    virtual std::string wide_int() const { return "long long"; }
    // A line printed before a `for` loop (without indentation or newline),
    // such as an unrolling hint; none by default.
    virtual std::string loop_hint(const mcpl::Stmt&) const { return ""; }
    // Prints `s` the backend's own way and says so, or says it did not
    // (then it is printed as C); it may print lines before `s` either way.
    virtual bool lowered_statement(const mcpl::Stmt&) { return false; }
    // Whether a `for` loop that has mcpl::constant_loop is printed as its
    // iterations one after the other, each a scope that binds the index to
    // its value; none by default.
    virtual bool unrolls_in_source(const mcpl::Stmt&) const { return false; }

    const GenerationInput& in_;
    const BackendConfig& config_;
    DiagnosticEngine& diags_;
    size_t errors_at_start_;
    std::string module_;  // the module's name as an identifier

    std::vector<const mcpl::Function*> kernels_;
    std::vector<const mcpl::Function*> device_functions_;
    std::vector<const mcpl::RecordType*> records_;
    std::vector<const mcpl::Decl*> constants_;  // the module-level constants read, each after those it reads
    std::set<const mcpl::Decl*> module_constants_;  // of every module of the program
    bool fold_constants_ = false;  // var() prints a module constant's value (glue_element_count)

    std::string out_;
    int indent_ = 0;
    std::set<const mcpl::Decl*> pointer_scalars_;  // written scalars passed as pointers
    mcpl::Type return_type_;                       // of the function being printed
    const mcpl::Function* function_ = nullptr;     // the function being printed (begin_function)
    Role role_ = Role::Device;                     // its role (begin_function)
    std::set<const mcpl::Decl*> used_;             // variables the code being printed uses
    std::set<const mcpl::BasicDecl*> used_forms_;  // and the forms (names) it uses them by
    std::set<const mcpl::Decl*> sizes_arrays_;     // read in the extents of a local array, which may be folded
    std::set<const mcpl::Decl*> read_beyond_own_updates_;  // see note_reads_beyond_own_updates
    ArraySwapPlan array_swaps_;                    // of the kernels and device functions
    std::vector<DeviceVariant> device_variants_;   // in the order first called
    std::map<std::pair<const mcpl::Function*, std::vector<std::string>>, size_t> variant_index_;
    std::map<const mcpl::Decl*, std::string> parameter_keys_;  // of the function being walked or printed

private:
    void collect_calls(const mcpl::Function& f);
    // A swap of two whole arrays or tiles: the two pointer variables trade
    // their values, or a located error.
    void array_swap(const mcpl::Stmt& s);
    // A swap of two tiles or record fields: their elements trade places.
    void tile_swap(const mcpl::Stmt& s);
    // The element count of the array, tile or field that `e` names, and
    // whether it is a constant that fits an int.
    std::pair<std::string, bool> elements_named(const mcpl::Expr& e);
    void qualify_clashing_names();
    // Whether the backend prints the device functions as C (the llvm
    // backends build them as IR, where a call names its callee, not a name).
    virtual bool prints_device_functions() const { return true; }
    void add_record(const mcpl::RecordType* r);
    void collect_records(const mcpl::Function& f);
    void add_constants_in(const mcpl::Expr& e);
    void collect_constants(const mcpl::Function& f);
    // `T name = value` of each of constants_, checked (constant_definitions).
    std::vector<std::string> checked_constant_declarators(bool compile_time);
    std::string field_declaration(const mcpl::Decl& field);
    // The initialiser of scalar `d` as printed. In MCPL `float x = x * 2.0;`
    // reads the `x` it hides, but in C and C++ the new `x` is in scope in
    // its own initialiser: such a value is first computed into a constant
    // `mcl_init_<x>` (a line printed here), which the initialiser reads.
    std::string initialiser(const mcpl::Decl& d);
    std::string float_literal(const mcpl::Expr& e) const;
    std::string indexed(std::string base, const mcpl::VarPart& part, const mcpl::TypeExpr& shape);
    std::string var(const mcpl::Expr& e);
    std::string call(const mcpl::Expr& e);

    std::set<std::string> reserved_;
    std::set<const mcpl::Function*> seen_functions_;
    std::set<const mcpl::RecordType*> seen_records_;
    std::set<const mcpl::Decl*> seen_constants_;
    std::optional<std::vector<std::string>> constant_declarators_;  // checked once, by constant_definitions
    std::map<const mcpl::Function*, std::string> function_identifiers_;  // see function_identifier
    std::map<const mcpl::Decl*, std::string> constant_identifiers_;      // see constant_identifier
    std::map<const mcpl::RecordType*, std::string> record_identifiers_;  // see record_identifier
};

}  // namespace mcl::backends
