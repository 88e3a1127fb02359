// ProgramGenerator: random MCPL kernels in the style of Csmith and YARPGen,
// well-defined by construction, for differential testing of mclc.
//
// What every generated program guarantees, for sizes n, m in [1, 1024], float
// inputs of magnitude at most 1000 and any int inputs:
// - no undefined behaviour in int arithmetic: the generator tracks the range
//   of every int expression and of every int variable (a mutable variable has
//   a fixed budget, and each update is charged with the trip counts of the
//   loops around it), keeps expressions within +-10^6 (wider ones are clamped
//   with min/max), divides and takes remainders only by positive constants or
//   `max(x, 1)`, takes remainders, shifts, `&` and `|` only of non-negative
//   values (so bit patterns of negative ints never matter), and clamps
//   every read of an int array the program did not fill itself;
// - powers only to exponents in [0, 3] (ints: a constant, or `max(b, 0) % 3`),
//   of bases small enough that the power stays within +-10^6, and of floats
//   only squares and `max(x, 0.0) ^ 0.5` (a negative base to a fractional
//   power is NaN);
// - bytes hold [0, 255] wherever they are read; an int stored into a byte
//   (array element, local, or argument of a byte parameter) keeps it modulo
//   256, which C defines for unsigned char;
// - floats decide control flow and ints (comparisons, toInt) only where
//   their value is exact, the same bits in every engine: toFloat of an int
//   (within +-10^6), over 2, 4 or 8, an element of a float input of the
//   kernel times 1, 2, 4 or 8, and negation, fabs, floor, ceil, fmin and
//   fmax of such values (lib.math). Other floats stay bounded (clamped
//   above 10^6), so a backend's rounding changes them only a little, never
//   the path taken; of those only the continuous fabs, fmin and fmax are
//   taken, never floor or ceil;
// - lib.math's rounded functions (exp, log2, sin, erf, native_exp, ...) are
//   called only for an output of their own, a call per element and column,
//   of an exact argument clamped into a domain where the function is well
//   conditioned: engines round them differently, within verify's tolerance,
//   and no later arithmetic on their values can cancel that agreement;
// - a float literal spelt just past halfway between two floats appears only
//   as `(L - c) * 2^k`, exact in every engine that rounds L once to its type
//   (1 as a float, 0.5 where a double is wanted), as an ordinary float leaf;
// - every index is in range: the index of the unit that owns the element, a
//   value whose range lies inside the extent, `x % extent` of a non-negative
//   x, or `min(max(x, 0), extent - 1)`;
// - no read of uninitialised memory: scalars are initialised where declared,
//   private and scratch arrays are read only after a write that covers them;
// - no data race: a unit writes only shared elements it owns (indexed by all
//   of its foreach indices) or updates them with lib.atomics' atomicAddInt
//   (histograms: int arrays of constant size, zeroed by a nest of their own
//   and then only updated atomically, each update within a budget that
//   keeps every count inside an int whatever the order), an array written in a foreach nest is read in
//   that nest only at the reader's own element, mutable scalars and private
//   arrays are written only at the foreach depth that declared them; at gpu
//   level a `local` array is, between two barriers, either written (each
//   thread its own slot) or read across threads, never both, and every
//   barrier is reached by all threads of the block (only in `for` loops with
//   constant trip counts and under `if`s on a block index or a size, each
//   entered and left with no pending local accesses, and in exchangeValue,
//   a device function with two barriers called only there, in blocks of
//   whole warps, on a local array that nothing else uses; a sibling
//   thread loop of a block starts a phase of its own, as the threads wait
//   for each other between the block's loops; the sibling of a 2-D nest
//   may be one loop over as many threads, whose two indices it computes,
//   each thread's the same pair as in the nest, and a sibling may run
//   fewer threads in one dimension, each over its own element as in the
//   nest);
// - a unit of a foreach returns early (`if (c) return;`, the other units
//   then do more) only after each array its nest writes holds the unit's
//   values (written unconditionally: a write under an if does not count), so that later nests read defined elements whichever units
//   returned, and at gpu level only where no barrier follows in its thread
//   loop;
// - an imperfect nest (perfect level: declarations of the outer unit between
//   the two foreach loops of a nest over n x m) declares only values its
//   inner units read, never write, and none of its units returns early;
// - a local that hides a name (an int in a block of its own, named like an
//   inner extent of an array) is read only inside that block, together with
//   an element of that array whose indices do not mention the name;
// - no recursion: a device function calls only functions defined before it;
//   one that takes an array (`const int len, const float[len] arr`) reads
//   it only at indices inside len, and a call passes an array of that
//   extent that no unit writes meanwhile: a const input, a private array,
//   or a `local` one in a phase that only reads it;
// - no unused parameter, variable or private array: what the program does
//   not otherwise read is added to a per-unit `sink` that goes into an
//   output, so that every value can change the result. Only `as` views are
//   now and then left unused: backends must build those warning-free too
//   (with -Wall -Wextra -Werror). Comparisons the C compiler can prove
//   always true or false (of a byte or a mask with a constant it cannot
//   reach) are avoided: that warning is about the program itself.
#include "ProgramGenerator.h"

#include "Random.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace difftest {
namespace {

constexpr std::int64_t kMaxSize = 1024;    // sizes n and m are assumed in [1, kMaxSize]
constexpr std::int64_t kIntLimit = 1000;   // int values stored in variables and arrays
constexpr std::int64_t kIntWrap = 1000000; // a wider int expression is clamped to kIntLimit
constexpr double kFloatLimit = 10000.0;    // float values stored in variables and arrays
constexpr double kInputBound = 1000.0;     // assumed magnitude of float inputs
constexpr double kFloatWrap = 1000000.0;   // a larger float expression is clamped
constexpr std::int64_t kTripCap = 1000000000;
constexpr std::int64_t kUnitsBound = 1 << 21;       // units of a nest, threads past n and m included
constexpr std::int64_t kHistogramBudget = 1 << 30; // sum of the magnitudes of a histogram's updates

enum class Elem { Int, Float, Record };

struct Extent {
    std::string text;   // as written: "n", "n + 2", "n * m", "nrThreads0", "4"
    std::int64_t min;   // smallest value under the size assumptions
    bool freeSlice;     // a literal dimension of a shared array: the owner of the outer index owns all of it
};

struct IntRange {
    std::int64_t lo;
    std::int64_t hi;
};

// An expression: its text, and its range (int) or bound of its magnitude (float).
struct Value {
    std::string text;
    IntRange range{0, 0};
    double bound = 0.0;
    bool isByte = false; // of type byte: a comparison with a constant outside (0, 255) draws a warning
};

// A float that every engine computes without rounding, and the range of
// its values.
struct ExactFloat {
    std::string text;
    double lo, hi;
    double magnitude() const { return std::max(std::fabs(lo), std::fabs(hi)); }
};

enum class Storage { Parameter, Scratch, Local, Private };

struct Array {
    std::string name;
    Elem elem;
    std::vector<std::vector<Extent>> groups; // one group per bracket pair: tiles have two
    Storage storage;
    bool isConst;
    bool initialized;    // every element holds a value
    bool arbitraryInts;  // int elements the program did not write: clamp every read
    int foreachDepth;    // private arrays: the depth that may write them
    int viewGroup;       // arrays that are `as` views of one storage share it (-1: none)
    double floatBound;
    bool needsUse = false;
    std::size_t declaredAt = 0;
    bool isByte = false; // an Int array of bytes: reads see [0, 255], writes store modulo 256
    bool isView = false; // a name of the storage other than the one it was declared with
    bool givenFloats = false; // a float input of the kernel: its elements are the caller's, exact in every engine
    bool isDouble = false; // a Float array of doubles: arithmetic on its elements is in double precision
};

// The element type an array is declared with.
std::string elementType(const Array& a) {
    if (a.elem == Elem::Record) return "R";
    if (a.elem == Elem::Float) return a.isDouble ? "double" : "float";
    return a.isByte ? "byte" : "int";
}

struct Scalar {
    std::string name;
    Elem elem;           // Int or Float
    bool isMutable;
    IntRange range;      // reads see this range (the budget for mutable ints)
    double bound;        // reads see this bound (the budget for mutable floats)
    IntRange spent;      // mutable int: the range its updates can reach so far
    double spentBound;   // mutable float: likewise
    std::size_t loopDepth;
    int foreachDepth;
    bool needsUse;       // declared by the program: must be read somewhere
    std::size_t declaredAt = 0; // offset in the output after its declaration
    bool isByte = false; // an Int that reads see in [0, 255]: any update wraps modulo 256
};

// A foreach index (or a global index computed from block and thread
// indices inside its guard) and the count it runs over.
struct IndexVar {
    std::string name;
    std::string count;
};

// gpu: a global index computed from block and thread indices,
// `name = prefix + thread` (prefix e.g. "b3 * nrThreads2 + ").
struct GlobalIndex {
    std::string name;
    std::string prefix;
};

// An int array of constant size that nests update only with atomicAddInt,
// after a nest of its own has zeroed it.
struct Histogram {
    std::string name;
    std::int64_t size;
    std::int64_t budget = kHistogramBudget; // what its updates may still add or take
    bool updated = false;
};

struct FunctionSig {
    std::string name;
    Elem result;          // Int or Float; a void function has isVoid
    bool isVoid;
    std::vector<Elem> parameters;
    std::vector<bool> byteParameters; // Int parameters of type byte: an argument is any int, passed modulo 256
    bool takesArray = false;          // `const int len, const float[len] arr` before the parameters above
    IntRange resultRange;
    double resultBound;
};

std::string parenthesized(const std::string& text) {
    bool simple = std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; });
    return simple ? text : "(" + text + ")";
}

// Every float the generator writes is an integer or a short binary fraction.
std::string floatLiteral(double value) {
    std::ostringstream text;
    if (value == std::floor(value)) {
        text.setf(std::ios::fixed);
        text.precision(1);
    }
    text << value;
    return text.str();
}

// The distance from the float `value` (positive) to the next float up.
double floatStepUp(double value) {
    float lower = static_cast<float>(value);
    return static_cast<double>(std::nextafter(lower, 2.0f * lower)) - static_cast<double>(lower);
}

// A literal near `value` spelt just past the midpoint between the float
// `value` and the next float up: that midpoint (a double, exactly) followed
// by a last digit 1. Rounded once to a float, as C compilers round a float
// literal, it is the upper float; rounded first to the double nearest it
// (the midpoint itself) and then to a float, ties to even take it to `value`
// (every value of floatLeaf's list has an even last bit). An engine or
// backend that rounds a float literal twice gives a different result.
std::string halfwayLiteral(double value) {
    double midpoint = value + floatStepUp(value) / 2;
    char digits[64];
    std::snprintf(digits, sizeof digits, "%.40f", midpoint);
    std::string text = digits;
    text.erase(text.find_last_not_of('0') + 1);
    return text + "0000001";
}

// Whether `text` uses the identifier `name`.
// Where `name` occurs in `text` as a whole word, from `from` on (npos: nowhere).
std::size_t findWord(const std::string& text, const std::string& name, std::size_t from = 0) {
    auto isIdentifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = text.find(name, from); at != std::string::npos; at = text.find(name, at + 1)) {
        bool startsWord = at == 0 || !isIdentifier(text[at - 1]);
        bool endsWord = at + name.size() == text.size() || !isIdentifier(text[at + name.size()]);
        if (startsWord && endsWord) return at;
    }
    return std::string::npos;
}

bool mentions(const std::string& text, const std::string& name) { return findWord(text, name) != std::string::npos; }

// `text` with every whole-word `name` replaced by `replacement`.
std::string replaceWord(std::string text, const std::string& name, const std::string& replacement) {
    for (std::size_t at = findWord(text, name); at != std::string::npos; at = findWord(text, name, at + replacement.size()))
        text.replace(at, name.size(), replacement);
    return text;
}

std::int64_t magnitude(IntRange r) { return std::max(std::llabs(r.lo), std::llabs(r.hi)); }

// `v`, or max(v, 0) where v may be negative.
Value nonNegative(const Value& v) {
    if (v.range.lo >= 0) return v;
    return Value{"max(" + v.text + ", 0)", {0, std::max<std::int64_t>(v.range.hi, 0)}, 0};
}

// Names a backend, translation or a target's headers could capture or hide:
// macros of C, OpenCL C and CUDA headers, names the implementation keeps,
// words of the target languages, the glue's and the generator's own names
// and their prefix, descriptions, par_groups and memory spaces, and the
// shapes of the names translation introduces.
const std::vector<std::string> kCapturableNames = {
    "NAN", "INFINITY", "M_PI", "FLT_MAX", "EOF", "CLK_LOCAL_MEM_FENCE", "errno", "linux", "_x", "__global",
    "kernel", "global", "local", "constant", "private", "restrict", "half", "uint", "new", "class", "template",
    "threadIdx", "blockIdx", "get_global_id", "size_t", "std", "device", "resident", "kernels", "mcl_count_i",
    "mcl_shared", "gpu", "hopper", "cpu", "perfect", "threads", "blocks", "warps", "vectors", "thread", "block",
    "main", "dev", "reg", "shared", "nrThreads_i", "b_i", "t_i", "count_i"};

// One program: the state of its scopes and of the unit being generated, and
// the text written so far.
class Generator {
public:
    Generator(const GeneratorOptions& options)
        : random_(options.seed * 0x2545f4914f6cdd1dULL + 0x1234567ULL), names_(options.seed ^ 0x6e616d6573ULL),
          extras_(options.seed ^ 0x61746f6d696373ULL), exact_(options.seed ^ 0x6578616374ULL),
          doubles_(options.seed ^ 0x646f75626c65ULL), spellings_(options.seed ^ 0x68616c66ULL),
          math_(options.seed ^ 0x6d617468ULL), strided_(options.seed ^ 0x737472696465ULL), options_(options), level_(options.level), seed_(options.seed) {}

    std::string run();

private:
    // --- output ---------------------------------------------------------
    void line(const std::string& text) { body_ += std::string(static_cast<std::size_t>(indent_) * 4, ' ') + text + "\n"; }
    void open(const std::string& text) { line(text + " {"); ++indent_; }
    void close() { --indent_; line("}"); }
    void openElse() { --indent_; line("} else {"); ++indent_; } // between an open() if's branches
    // A new name: `stem` and a number, or now and then one that generated
    // code could capture or hide (kCapturableNames), from a stream of its own
    // so that the names leave the program's structure as it is.
    std::string fresh(const std::string& stem) {
        if (options_.capturableNames && names_.chance(15)) {
            const std::string& name = names_.pick(kCapturableNames);
            if (takenNames_.insert(name).second) return name;
        }
        return stem + std::to_string(nextName_++);
    }

    // --- scopes ---------------------------------------------------------
    void pushScope() { scopeMarks_.push_back({scalars_.size(), arrays_.size()}); }
    void popScope() {
        consumeUnused(scopeMarks_.back().first, scopeMarks_.back().second);
        scalars_.resize(scopeMarks_.back().first);
        arrays_.resize(scopeMarks_.back().second);
        scopeMarks_.pop_back();
    }
    Scalar& addScalar(const std::string& name, Elem elem, IntRange range, double bound, bool isMutable);
    // A fresh name for the int constant `value`: declared where the code
    // now is, or now and then at module level (the host and every unit
    // then compute with the module's constant).
    std::string intConstant(const std::string& stem, std::int64_t value);
    void beginSink(Elem elem);
    // `sink += term`, clamped as the sink's type is (an int sink to
    // kIntLimit, a float one to kFloatLimit).
    void addToSink(const std::string& term);
    void consumeUnused(std::size_t firstScalar, std::size_t firstArray);
    bool isRead(const std::string& name, std::size_t from) const;
    std::int64_t multiplicity(const Scalar& s) const;

    // --- expressions ----------------------------------------------------
    Value genInt(int depth);
    Value genFloat(int depth);
    Value intLeaf();
    Value floatLeaf();
    std::string genCondition(int depth);
    Value clampInt(const Value& v, std::int64_t limit) const;
    Value clampFloat(const Value& v, double limit) const;
    std::optional<Value> readElement(Elem wanted);
    std::optional<std::string> copiedElement(Elem wanted);
    std::optional<ExactFloat> genExactFloat(int depth);
    std::optional<ExactFloat> exactInputElement();
    Value genMathFloat(int depth);
    std::string anyIndex(const Extent& extent);
    std::string indexText(const Array& a, const std::vector<std::string>& flatIndices) const;
    std::optional<std::vector<std::string>> ownIndex(const Array& a, const std::vector<IndexVar>& indices, bool* covers,
                                                     bool probe = false);
    std::optional<std::vector<std::string>> readableIndex(Array& a);
    std::vector<std::string> anyIndices(const Array& a);
    std::optional<Value> callFunction(Elem wanted, int depth);
    // A float array of one extent a call may pass to a function that takes
    // one (its extent and name), or none.
    std::optional<std::pair<std::string, std::string>> arrayArgument();

    // --- statements -----------------------------------------------------
    void genStatements(int count, int depth);
    void genStatement(int depth);
    void genDeclaration(int depth);
    bool genUpdate(int depth);
    bool genCompoundUpdate(Scalar& s, std::int64_t times, int depth);
    void genIf(int depth);
    void genFor(int depth, bool uniformBody);
    bool genOwnedWrite(int depth, const std::string& only);
    void genPrivateArray(int depth);
    bool genAsStatement(int depth);
    void genRecordLocal(int depth);
    bool genVoidCall(int depth);
    bool genSwap();
    bool genArraySwap();
    bool genHidingBlock(int depth);
    bool genLocalWrite(int depth, bool unconditional);
    void genBarrier();
    void finishWrites(int depth);
    void genUnitReturn(int depth);
    bool genAtomicUpdate(Histogram& h, int depth);
    void genHistogramZeroing(const Histogram& h);
    void genHistogramCount(Histogram& h);
    int openUnitsOver(const std::string& count, const std::string& index, const std::string& threads);
    Histogram& anyHistogram() { return histograms_[static_cast<std::size_t>(extras_.below(static_cast<int>(histograms_.size())))]; }
    void genLocalHistogramNest(Histogram& h);

    // --- program structure ----------------------------------------------
    void genFunctions();
    void genParameters();
    void genKernelBody();
    void genUseOfEveryParameter();
    void genWriteOnlyOutput();
    void genMathOutput();
    void genStridedSums();
    void genTopItem(int depth);
    void genPerfectNest();
    void genGpuNest();
    void genThreadLoop(const std::vector<IndexVar>& threads, const std::vector<GlobalIndex>& computed,
                       const std::vector<IndexVar>& globals, bool sibling, const std::string& flatCount = "");
    void genUniformItems(int count, int depth);
    void genUniformIf(int depth);
    void genExchange(int depth);
    std::vector<std::string> chooseWritten(const std::vector<std::vector<IndexVar>>& levels);
    Array* findArray(const std::string& name);

    Random random_;
    Random names_;
    // Histograms and constant counts draw from a stream of their own, so
    // that a seed's program without them is the program it was before they
    // existed.
    Random extras_;
    Random exact_; // exact floats and lib.math, likewise
    Random doubles_; // arrays of doubles, likewise
    Random spellings_; // halfway literals, likewise
    Random math_; // lib.math's rounded functions, likewise
    Random strided_; // loops striding by a block's thread count, likewise
    const GeneratorOptions options_; // which constructs it may write
    Level level_;
    std::uint64_t seed_;
    std::vector<Histogram> histograms_;
    std::string constantCount_; // the extent of out8 and a count nests may run over ("" without out8)
    std::int64_t constantCountValue_ = 0;
    std::string moduleConstants_; // `const int ...;` lines of the module, before its functions
    std::vector<std::string> moduleConstantNames_; // which a caller's parameter can hide
    std::set<std::string> takenNames_;
    std::string body_;
    int indent_ = 0;
    int nextName_ = 0;
    int exprNesting_ = 0;
    bool useM_ = false;
    bool useRecords_ = false;
    // R also has `byte b; float[2] v; float[2] w;`, which every write of an R sets
    bool recordArrays_ = false;
    void recordFieldWrites(const std::string& target, int depth);
    void writeRecord(const std::string& target, int depth);
    std::string recordFloatField();
    // n x m nests are what makes the interpreter slow: at most two, none in time steps
    int nrNestsOverNM_ = 0;
    bool inTimeSteps_ = false;
    bool mayNestOverNM() const { return useM_ && !inTimeSteps_ && nrNestsOverNM_ < 2; }
    // the most units a foreach over `count` (n, m or constantCount_) has
    std::int64_t countMax(const std::string& count) const {
        return count == constantCount_ ? constantCountValue_ : kMaxSize;
    }
    // the largest value of the scalar `name` (a block's thread count)
    std::int64_t scalarMax(const std::string& name) const {
        for (const auto& s : scalars_)
            if (s.name == name) return s.range.hi;
        return 0;
    }

    std::vector<Scalar> scalars_;
    std::vector<Array> arrays_;
    std::vector<std::pair<std::size_t, std::size_t>> scopeMarks_;
    std::vector<std::int64_t> loopTrips_;
    std::vector<FunctionSig> functions_;
    std::vector<std::string> parameterTexts_;
    int nextViewGroup_ = 0;

    // the unit being generated
    int foreachDepth_ = 0;
    std::vector<IndexVar> ownIndices_;     // shared arrays: the element this unit owns
    std::vector<IndexVar> threadIndices_;  // gpu: the slot of a local array this thread owns
    std::vector<std::string> blockIndices_; // gpu: the indices of the nest's blocks, on which its threads agree
    // gpu: the block's local array that only exchangeValue uses, its length
    // and the thread index that is each thread's slot ("": none in this block)
    std::string exchangeArray_, exchangeLength_, exchangeSlot_;
    bool exchangeCalled_ = false;          // the program calls exchangeValue: define it
    bool mathCalled_ = false;              // the program calls lib.math: import it
    std::set<std::string> writtenInNest_;  // shared arrays the current top-level nest writes
    std::set<std::string> ownWritten_;     // of those, written by this unit unconditionally so far
    std::set<std::string> writtenNow_;     // of those, written anywhere so far
    std::set<std::string> nestCovered_;    // gpu: of those, written in full by a thread loop that has ended
    bool conditional_ = false;             // under an if: writes do not initialise
    bool uniform_ = true;                  // gpu: every thread of the block reaches here
    bool inThreads_ = false;               // gpu: inside a thread loop
    bool copyFills_ = false;               // gpu: this thread loop filled a local slot with a copy
    bool allowSizeLoops_ = false;          // a `for` over n or m stays cheap here
    std::vector<IndexVar> sizeLoops_;      // the enclosing `for` loops over n or m
    std::string sink_;                     // the unit's sink ("" outside units and functions)
    Elem sinkElem_ = Elem::Float;
    int sinkForeachDepth_ = 0;
    std::set<std::string> used_;           // scalars and private arrays already added to the sink
    std::set<std::string> localWrittenInPhase_;
    std::set<std::string> localReadInPhase_;
};

std::string Generator::intConstant(const std::string& stem, std::int64_t value) {
    bool atModuleLevel = extras_.chance(35) && options_.moduleConstants;
    std::string name = fresh(stem);
    std::string declaration = "const int " + name + " = " + std::to_string(value) + ";";
    if (atModuleLevel) {
        moduleConstants_ += declaration + "\n";
        moduleConstantNames_.push_back(name);
    } else {
        line(declaration);
    }
    addScalar(name, Elem::Int, {value, value}, 0, false);
    return name;
}

Scalar& Generator::addScalar(const std::string& name, Elem elem, IntRange range, double bound, bool isMutable) {
    scalars_.push_back(Scalar{name, elem, isMutable, range, bound, range, bound, loopTrips_.size(), foreachDepth_, false, body_.size()});
    return scalars_.back();
}

// The sink of the unit (or function) that starts here: a float (an int in
// int functions, which take only ints) that what is declared and not read
// is added to.
void Generator::beginSink(Elem elem) {
    sink_ = fresh("sink");
    sinkElem_ = elem;
    sinkForeachDepth_ = foreachDepth_;
    line(std::string(elem == Elem::Int ? "int " : "float ") + sink_ + (elem == Elem::Int ? " = 0;" : " = 0.0;"));
}

// Whether the output after `from` reads `name`: any use of it except as the
// target of an assignment or update at the start of a statement.
bool Generator::isRead(const std::string& name, std::size_t from) const {
    auto isIdentifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = body_.find(name, from); at != std::string::npos; at = body_.find(name, at + 1)) {
        if (at > 0 && (isIdentifier(body_[at - 1]) || body_[at - 1] == '.')) continue;
        std::size_t end = at + name.size();
        if (end < body_.size() && isIdentifier(body_[end])) continue;
        std::size_t lineStart = body_.rfind('\n', at);
        lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
        bool startsStatement = body_.find_first_not_of(' ', lineStart) == at;
        if (!startsStatement) return true;
        // the target of `name = `, `name[...] = `, `name += `, `name++`: a
        // write (what the indices read is found as occurrences of its own)
        std::size_t after = end;
        for (int depth = 0; after < body_.size() && (depth > 0 || body_[after] == '['); ++after) {
            if (body_[after] == '[') ++depth;
            if (body_[after] == ']') --depth;
        }
        std::string rest = body_.substr(after, 4);
        bool isWrite = rest.rfind(" = ", 0) == 0 || rest.rfind(" += ", 0) == 0 || rest.rfind(" -= ", 0) == 0 ||
                       rest.rfind(" *= ", 0) == 0 || rest.rfind("++", 0) == 0 || rest.rfind(".x =", 0) == 0 || rest.rfind(".y =", 0) == 0;
        if (!isWrite) return true;
    }
    return false;
}

// Reads what was declared from these positions on and never read into the sink.
void Generator::consumeUnused(std::size_t firstScalar, std::size_t firstArray) {
    if (sink_.empty()) return;
    std::vector<std::string> terms;
    for (std::size_t k = firstScalar; k < scalars_.size(); ++k) {
        const Scalar& v = scalars_[k];
        if (!v.needsUse || used_.count(v.name) || v.foreachDepth != sinkForeachDepth_ || isRead(v.name, v.declaredAt)) continue;
        if (sinkElem_ == Elem::Int) terms.push_back(v.name);
        else terms.push_back(v.elem == Elem::Int ? "toFloat(" + v.name + ")" : v.name);
        used_.insert(v.name);
    }
    for (std::size_t k = firstArray; k < arrays_.size(); ++k) {
        const Array& a = arrays_[k];
        if (!a.needsUse || used_.count(a.name) || a.foreachDepth != sinkForeachDepth_ || isRead(a.name, a.declaredAt)) continue;
        std::vector<std::string> zeros;
        for (const auto& group : a.groups)
            for (std::size_t d = 0; d < group.size(); ++d) zeros.push_back("0");
        terms.push_back(a.elem == Elem::Int && sinkElem_ == Elem::Float ? "toFloat(" + indexText(a, zeros) + ")" : indexText(a, zeros));
        used_.insert(a.name);
    }
    for (const auto& term : terms) addToSink(term);
}

void Generator::addToSink(const std::string& term) {
    if (sinkElem_ == Elem::Int) line(sink_ + " = min(max(" + sink_ + " + " + term + ", -1000), 1000);");
    else line(sink_ + " = min(max(" + sink_ + " + " + term + ", -10000.0), 10000.0);");
}

std::int64_t Generator::multiplicity(const Scalar& s) const {
    std::int64_t product = 1;
    for (std::size_t k = s.loopDepth; k < loopTrips_.size(); ++k) product = std::min(kTripCap, product * loopTrips_[k]);
    return product;
}

Array* Generator::findArray(const std::string& name) {
    for (auto& a : arrays_)
        if (a.name == name) return &a;
    return nullptr;
}

// --- expressions ---------------------------------------------------------

Value Generator::clampInt(const Value& v, std::int64_t limit) const {
    if (v.range.lo >= -limit && v.range.hi <= limit) return v;
    std::string l = std::to_string(limit);
    return Value{"min(max(" + v.text + ", -" + l + "), " + l + ")", {std::max(v.range.lo, -limit), std::min(v.range.hi, limit)}, 0};
}

Value Generator::clampFloat(const Value& v, double limit) const {
    if (v.bound <= limit) return v;
    std::string l = floatLiteral(limit);
    return Value{"min(max(" + v.text + ", -" + l + "), " + l + ")", {0, 0}, limit};
}

Value Generator::intLeaf() {
    for (;;) {
        int kind = random_.below(10);
        if (kind < 2) {
            std::int64_t c = random_.between(0, 16);
            return Value{std::to_string(c), {c, c}, 0};
        }
        if (kind < 6) {
            std::vector<const Scalar*> candidates;
            for (const auto& s : scalars_)
                if (s.elem == Elem::Int) candidates.push_back(&s);
            if (candidates.empty()) continue;
            const Scalar* s = random_.pick(candidates);
            return Value{s->name, s->range, 0, s->isByte};
        }
        if (exprNesting_ > 2) continue;
        if (auto v = readElement(Elem::Int)) return *v;
    }
}

Value Generator::floatLeaf() {
    static const std::vector<double> literals{0.5, 1.0, 2.0, 0.25, 1.5, 3.0, 0.125, 4.0, 0.75};
    for (;;) {
        int kind = random_.below(10);
        if (kind < 2) {
            double c = random_.pick(literals);
            if (options_.halfwayLiterals && spellings_.chance(10)) {
                // (L - c) * 2^k, exact in every engine: 1 with L rounded
                // once (to c's next float up, 2^-k above c), 0 with L
                // rounded twice; 0.5 where a double is wanted (L the
                // midpoint, exactly).
                double scale = 1.0 / floatStepUp(c);
                return Value{"((" + halfwayLiteral(c) + " - " + floatLiteral(c) + ") * " + floatLiteral(scale) + ")", {0, 0}, 1.0};
            }
            return Value{floatLiteral(c), {0, 0}, c};
        }
        if (kind < 5) {
            std::vector<const Scalar*> candidates;
            for (const auto& s : scalars_)
                if (s.elem == Elem::Float) candidates.push_back(&s);
            if (candidates.empty()) continue;
            const Scalar* s = random_.pick(candidates);
            return Value{s->name, {0, 0}, s->bound};
        }
        if (kind < 6 || exprNesting_ > 2) {
            ++exprNesting_;
            Value i = genInt(0);
            --exprNesting_;
            return Value{"toFloat(" + i.text + ")", {0, 0}, static_cast<double>(magnitude(i.range))};
        }
        if (auto v = readElement(Elem::Float)) return *v;
    }
}

// The range of x ^ e for x in `base` and e in [0, exponentHi] (all of
// them when `every`, else only exponentHi); nothing when a power leaves
// +-kIntWrap.
std::optional<IntRange> powerRange(IntRange base, int exponentHi, bool every) {
    IntRange r{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
    for (int e = every ? 0 : exponentHi; e <= exponentHi; ++e) {
        // x ^ e is monotonic on each side of 0: the extremes are at lo, hi and 0
        for (std::int64_t x : {base.lo, base.hi, std::clamp<std::int64_t>(0, base.lo, base.hi)}) {
            std::int64_t p = 1;
            for (int k = 0; k < e; ++k) {
                p *= x;
                if (std::llabs(p) > kIntWrap) return std::nullopt;
            }
            r.lo = std::min(r.lo, p);
            r.hi = std::max(r.hi, p);
        }
    }
    return r;
}

Value Generator::genInt(int depth) {
    if (depth <= 0 || random_.chance(25)) return intLeaf();
    if (options_.exactFloats && exact_.chance(4))
        if (auto e = genExactFloat(depth - 1))
            // toInt truncates toward zero, which keeps the order
            return Value{"toInt(" + e->text + ")", {static_cast<std::int64_t>(std::trunc(e->lo)), static_cast<std::int64_t>(std::trunc(e->hi))}, 0};
    Value a = genInt(depth - 1);
    Value r;
    if (options_.powers && extras_.chance(6)) {
        if (extras_.chance(30)) {
            // an exponent the program computes, in [0, 2]
            Value b = genInt(depth - 1);
            if (auto range = powerRange(a.range, 2, true))
                return Value{"(" + parenthesized(a.text) + " ^ (max(" + b.text + ", 0) % 3))", *range, 0};
        }
        for (int e = extras_.between(0, 3); e >= 0; --e)
            if (auto range = powerRange(a.range, e, false))
                return Value{"(" + parenthesized(a.text) + " ^ " + std::to_string(e) + ")", *range, 0};
    }
    if (options_.bitwise && extras_.chance(5)) {
        // & or | of two values kept non-negative
        Value x = nonNegative(a);
        Value y = nonNegative(genInt(depth - 1));
        bool bytes = x.isByte && y.isByte; // byte & byte is a byte
        if (extras_.chance(50))
            return Value{"(" + x.text + " & " + y.text + ")", {0, std::min(x.range.hi, y.range.hi)}, 0, bytes};
        std::int64_t pastHi = 1; // a power of two above both
        while (pastHi <= std::max(x.range.hi, y.range.hi)) pastHi <<= 1;
        return Value{"(" + x.text + " | " + y.text + ")", {std::max(x.range.lo, y.range.lo), pastHi - 1}, 0, bytes};
    }
    switch (random_.below(12)) {
    case 0:
    case 1: {
        Value b = genInt(depth - 1);
        r = Value{"(" + a.text + " + " + b.text + ")", {a.range.lo + b.range.lo, a.range.hi + b.range.hi}, 0};
        break;
    }
    case 2: {
        Value b = genInt(depth - 1);
        r = Value{"(" + a.text + " - " + b.text + ")", {a.range.lo - b.range.hi, a.range.hi - b.range.lo}, 0};
        break;
    }
    case 3: {
        Value b = genInt(depth - 1);
        if (magnitude(a.range) * magnitude(b.range) > kIntWrap) {
            r = Value{"min(" + a.text + ", " + b.text + ")", {std::min(a.range.lo, b.range.lo), std::min(a.range.hi, b.range.hi)}, 0};
            break;
        }
        std::int64_t p[4] = {a.range.lo * b.range.lo, a.range.lo * b.range.hi, a.range.hi * b.range.lo, a.range.hi * b.range.hi};
        r = Value{"(" + a.text + " * " + b.text + ")", {*std::min_element(p, p + 4), *std::max_element(p, p + 4)}, 0};
        break;
    }
    case 4: {
        std::int64_t c = random_.between(1, 7);
        r = Value{"(" + a.text + " / " + std::to_string(c) + ")", {a.range.lo / c, a.range.hi / c}, 0};
        break;
    }
    case 5: {
        std::int64_t c = random_.between(1, 16);
        a = nonNegative(a);
        // a constant's remainder is a constant, which compilers fold (and
        // then warn about a comparison with a byte it makes always true)
        IntRange range = a.range.lo == a.range.hi ? IntRange{a.range.lo % c, a.range.lo % c}
                                                  : IntRange{0, std::min(a.range.hi, c - 1)};
        r = Value{"(" + a.text + " % " + std::to_string(c) + ")", range, 0};
        break;
    }
    case 6: {
        Value b = genInt(depth - 1);
        bool isMin = random_.chance(50);
        r = Value{std::string(isMin ? "min(" : "max(") + a.text + ", " + b.text + ")",
                  isMin ? IntRange{std::min(a.range.lo, b.range.lo), std::min(a.range.hi, b.range.hi)}
                        : IntRange{std::max(a.range.lo, b.range.lo), std::max(a.range.hi, b.range.hi)},
                  0};
        break;
    }
    case 7: {
        // a remainder or quotient by a divisor that max(b, 1) keeps positive
        Value b = genInt(depth - 1);
        std::int64_t divisorHi = std::max<std::int64_t>(b.range.hi, 1);
        if (a.range.lo >= 0 && random_.chance(50)) {
            bool constant = a.range.lo == a.range.hi && b.range.lo == b.range.hi;
            std::int64_t value = constant ? a.range.lo % divisorHi : 0;
            r = Value{"(" + a.text + " % max(" + b.text + ", 1))",
                      constant ? IntRange{value, value} : IntRange{0, std::min(a.range.hi, divisorHi - 1)}, 0};
        } else {
            r = Value{"(" + a.text + " / max(" + b.text + ", 1))", {std::min<std::int64_t>(a.range.lo, 0), std::max<std::int64_t>(a.range.hi, 0)}, 0};
        }
        break;
    }
    case 8:
        r = Value{"(-" + a.text + ")", {-a.range.hi, -a.range.lo}, 0};
        break;
    case 9: {
        if (a.range.lo < 0) {
            r = a;
            break;
        }
        int c = random_.between(0, 3);
        int which = random_.below(3);
        if (which == 0) {
            r = Value{"(" + a.text + " >> " + std::to_string(c) + ")", {a.range.lo >> c, a.range.hi >> c}, 0};
        } else if (which == 1 && (a.range.hi << c) <= kIntWrap) {
            r = Value{"(" + a.text + " << " + std::to_string(c) + ")", {a.range.lo << c, a.range.hi << c}, 0};
        } else {
            std::int64_t mask = random_.pick(std::vector<std::int64_t>{1, 3, 7, 15, 255});
            r = Value{"(" + a.text + " & " + std::to_string(mask) + ")", {0, std::min(a.range.hi, mask)}, 0};
        }
        break;
    }
    default:
        if (auto call = callFunction(Elem::Int, depth - 1)) {
            r = *call;
        } else {
            Value b = genInt(depth - 1);
            r = Value{"(" + a.text + " + " + b.text + ")", {a.range.lo + b.range.lo, a.range.hi + b.range.hi}, 0};
        }
        break;
    }
    if (r.range.lo < -kIntWrap || r.range.hi > kIntWrap) return clampInt(r, kIntLimit);
    return r;
}

Value Generator::genFloat(int depth) {
    if (depth <= 0 || random_.chance(25)) return floatLeaf();
    if (options_.exactFloats && exact_.chance(5)) return genMathFloat(depth);
    Value a = genFloat(depth - 1);
    Value r;
    if (options_.doubles && extras_.chance(8)) {
        // in double precision, rounded to float once at the end
        Value b = genFloat(depth - 1);
        std::string x = "toDouble(" + a.text + ")", y = "toDouble(" + b.text + ")";
        switch (extras_.below(3)) {
        case 0:
            r = Value{"toFloat(" + x + " + " + y + ")", {0, 0}, a.bound + b.bound};
            break;
        case 1:
            r = Value{"toFloat(" + x + " * " + y + ")", {0, 0}, a.bound * b.bound};
            break;
        default:
            r = Value{"toFloat((" + x + " - " + y + ") / 3.0)", {0, 0}, (a.bound + b.bound) / 3.0};
            break;
        }
        return clampFloat(r, kFloatWrap);
    }
    if (options_.powers && extras_.chance(6)) {
        if (extras_.chance(50)) {
            r = Value{"(" + parenthesized(a.text) + (extras_.chance(50) ? " ^ 2)" : " ^ 2.0)"), {0, 0}, a.bound * a.bound};
        } else {
            r = Value{"(max(" + a.text + ", 0.0) ^ 0.5)", {0, 0}, std::sqrt(a.bound)};
        }
        return clampFloat(r, kFloatWrap);
    }
    switch (random_.below(9)) {
    case 0:
    case 1: {
        Value b = genFloat(depth - 1);
        r = Value{"(" + a.text + " + " + b.text + ")", {0, 0}, a.bound + b.bound};
        break;
    }
    case 2: {
        Value b = genFloat(depth - 1);
        r = Value{"(" + a.text + " - " + b.text + ")", {0, 0}, a.bound + b.bound};
        break;
    }
    case 3: {
        Value b = genFloat(depth - 1);
        r = Value{"(" + a.text + " * " + b.text + ")", {0, 0}, a.bound * b.bound};
        break;
    }
    case 4: {
        double c = random_.pick(std::vector<double>{2.0, 4.0, 0.5, 3.0, 8.0});
        r = Value{"(" + a.text + " / " + floatLiteral(c) + ")", {0, 0}, a.bound / c};
        break;
    }
    case 5: {
        Value b = genFloat(depth - 1);
        r = Value{std::string(random_.chance(50) ? "min(" : "max(") + a.text + ", " + b.text + ")", {0, 0}, std::max(a.bound, b.bound)};
        break;
    }
    case 6:
        r = Value{"(-" + a.text + ")", {0, 0}, a.bound};
        break;
    default:
        if (auto call = callFunction(Elem::Float, depth - 1)) {
            r = *call;
        } else {
            Value b = genFloat(depth - 1);
            r = Value{"(" + a.text + " + " + b.text + ")", {0, 0}, a.bound + b.bound};
        }
        break;
    }
    return clampFloat(r, kFloatWrap);
}

std::string Generator::genCondition(int depth) {
    static const std::vector<std::string> comparisons{"<", "<=", ">", ">=", "==", "!="};
    Value a = genInt(depth);
    Value b = genInt(std::max(depth - 1, 0));
    // a comparison of an expression with itself draws a warning (gcc,
    // clang: -Werror)
    if (a.text == b.text) b = Value{"0", {0, 0}, 0};
    auto isConstant = [](const Value& v) { return v.range.lo == v.range.hi; };
    // `x & c` or `x | c` equal to a constant it cannot be (gcc
    // -Wtautological-compare), or a byte, or a mask of one, compared with a
    // constant outside (0, 255) (-Wtype-limits): always true or false. Such
    // an operand is compared only by order, with 7.
    auto isMask = [](const Value& v) { return v.text.find(" & ") != std::string::npos || v.text.find(" | ") != std::string::npos; };
    auto limited = [&](const Value& v) { return isMask(v) || v.isByte; };
    std::string comparison = random_.pick(comparisons);
    if ((limited(a) && isConstant(b)) || (limited(b) && isConstant(a))) {
        comparison = comparisons[static_cast<std::size_t>(random_.below(4))];
        (isConstant(b) ? b : a) = Value{"7", {7, 7}, 0};
    }
    if (options_.exactFloats && exact_.chance(8)) {
        // exact floats compared: every engine takes the same branch
        auto x = genExactFloat(depth);
        std::optional<ExactFloat> y;
        if (exact_.chance(40)) {
            double c = exact_.pick(std::vector<double>{0.0, 0.5, 1.0, 2.0, 7.0, 100.0});
            y = ExactFloat{floatLiteral(c), c, c};
        } else {
            y = genExactFloat(std::max(depth - 1, 0));
        }
        if (x && y && x->text != y->text) return x->text + " " + exact_.pick(comparisons) + " " + y->text;
    }
    std::string condition = a.text + " " + comparison + " " + b.text;
    int shape = random_.below(10);
    if (shape == 0) return "!(" + condition + ")";
    // both operands of && and || compare a variable: a constant operand draws a warning
    std::vector<std::string> variables;
    for (const auto& s : scalars_)
        if (s.elem == Elem::Int && !s.isByte && (s.isMutable || s.range.lo != s.range.hi)) variables.push_back(s.name);
    if (shape == 1 && !variables.empty()) {
        auto compareVariable = [&]() {
            std::string variable = random_.pick(variables);
            std::string other = genInt(0).text;
            return "(" + variable + " " + random_.pick(comparisons) + " " + (other == variable ? "0" : other) + ")";
        };
        std::string first = compareVariable();
        return first + (random_.chance(50) ? " && " : " || ") + compareVariable();
    }
    return condition;
}

// --- exact floats ----------------------------------------------------------

// An element of a float input of the kernel, times 1, 2, 4 or 8 (a power of
// two: exact); none where no such input is readable here.
std::optional<ExactFloat> Generator::exactInputElement() {
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < arrays_.size(); ++k)
        if (arrays_[k].givenFloats) candidates.push_back(k);
    if (candidates.empty()) return std::nullopt;
    Array& a = arrays_[exact_.pick(candidates)];
    ++exprNesting_;
    auto index = readableIndex(a);
    --exprNesting_;
    if (!index) return std::nullopt;
    double scale = exact_.pick(std::vector<double>{1.0, 2.0, 4.0, 8.0});
    std::string text = indexText(a, *index);
    if (scale != 1.0) text = "(" + text + " * " + floatLiteral(scale) + ")";
    return ExactFloat{text, -kInputBound * scale, kInputBound * scale};
}

// A float no engine rounds: toFloat of an int (within +-10^6, below 2^24),
// over 2, 4 or 8, or an input element (exactInputElement), and negation,
// fabs, floor, ceil, fmin and fmax of such values. None where a leaf it
// needs is not readable here.
std::optional<ExactFloat> Generator::genExactFloat(int depth) {
    if (depth > 0 && exact_.chance(40)) {
        auto a = genExactFloat(depth - 1);
        if (!a) return std::nullopt;
        int form = exact_.below(5);
        if (form == 0) return ExactFloat{"(-" + a->text + ")", -a->hi, -a->lo};
        mathCalled_ = true;
        switch (form) {
        case 1: {
            double lo = a->lo <= 0.0 && a->hi >= 0.0 ? 0.0 : std::min(std::fabs(a->lo), std::fabs(a->hi));
            return ExactFloat{"fabs(" + a->text + ")", lo, a->magnitude()};
        }
        case 2: return ExactFloat{"floor(" + a->text + ")", std::floor(a->lo), std::floor(a->hi)};
        case 3: return ExactFloat{"ceil(" + a->text + ")", std::ceil(a->lo), std::ceil(a->hi)};
        default: {
            auto b = genExactFloat(depth - 1);
            if (!b) return a;
            bool isMin = exact_.chance(50);
            return ExactFloat{std::string(isMin ? "fmin(" : "fmax(") + a->text + ", " + b->text + ")",
                              isMin ? std::min(a->lo, b->lo) : std::max(a->lo, b->lo),
                              isMin ? std::min(a->hi, b->hi) : std::max(a->hi, b->hi)};
        }
        }
    }
    if (exact_.chance(35))
        if (auto element = exactInputElement()) return element;
    ++exprNesting_;
    Value i = genInt(std::max(depth - 1, 0));
    --exprNesting_;
    ExactFloat e{"toFloat(" + i.text + ")", static_cast<double>(i.range.lo), static_cast<double>(i.range.hi)};
    if (exact_.chance(50)) {
        double divisor = exact_.pick(std::vector<double>{2.0, 4.0, 8.0});
        e = ExactFloat{"(" + e.text + " / " + floatLiteral(divisor) + ")", e.lo / divisor, e.hi / divisor};
    }
    return e;
}

// A float of lib.math: an exact float, or fabs, fmin or fmax of any floats
// (continuous, so a backend's rounding of the operands moves the result
// only as little).
Value Generator::genMathFloat(int depth) {
    if (exact_.chance(50))
        if (auto e = genExactFloat(depth - 1)) return Value{e->text, {0, 0}, e->magnitude()};
    mathCalled_ = true;
    Value a = genFloat(depth - 1);
    if (exact_.chance(40)) return Value{"fabs(" + a.text + ")", {0, 0}, a.bound};
    Value b = genFloat(depth - 1);
    return Value{std::string(exact_.chance(50) ? "fmin(" : "fmax(") + a.text + ", " + b.text + ")", {0, 0}, std::max(a.bound, b.bound)};
}

std::optional<std::pair<std::string, std::string>> Generator::arrayArgument() {
    std::vector<Array*> candidates;
    for (Array& a : arrays_) {
        if (a.elem != Elem::Float || a.isDouble || a.groups.size() != 1 || a.groups[0].size() != 1 || !a.initialized) continue;
        bool readAnywhere = (a.storage == Storage::Parameter && a.isConst) || a.storage == Storage::Private ||
                            (a.storage == Storage::Local && inThreads_ && !localWrittenInPhase_.count(a.name));
        if (readAnywhere) candidates.push_back(&a);
    }
    if (candidates.empty()) return std::nullopt;
    // local and private arrays, rarer than inputs, are what tests a
    // backend's address spaces: taken whenever the dice allow
    std::vector<Array*> unitArrays;
    for (Array* a : candidates)
        if (a->storage != Storage::Parameter) unitArrays.push_back(a);
    Array* a = !unitArrays.empty() && extras_.chance(80) ? extras_.pick(unitArrays) : extras_.pick(candidates);
    if (a->storage == Storage::Local) localReadInPhase_.insert(a->name);
    return std::make_pair(a->groups[0][0].text, a->name);
}

std::optional<Value> Generator::callFunction(Elem wanted, int depth) {
    std::vector<const FunctionSig*> candidates;
    for (const auto& f : functions_)
        if (!f.isVoid && f.result == wanted) candidates.push_back(&f);
    if (candidates.empty()) return std::nullopt;
    const FunctionSig* f = random_.pick(candidates);
    std::string text = f->name + "(";
    if (f->takesArray) {
        auto argument = arrayArgument();
        if (!argument) return std::nullopt;
        text += argument->first + ", " + argument->second + (f->parameters.empty() ? "" : ", ");
    }
    for (std::size_t k = 0; k < f->parameters.size(); ++k) {
        if (k > 0) text += ", ";
        text += f->byteParameters[k]             ? genInt(depth).text
                : f->parameters[k] == Elem::Int ? clampInt(genInt(depth), kIntLimit).text
                                                : clampFloat(genFloat(depth), kFloatLimit).text;
    }
    text += ")";
    return Value{text, f->resultRange, f->resultBound};
}

// An index in [0, extent) whatever the program computed.
std::string Generator::anyIndex(const Extent& extent) {
    // the unit's own index or a loop over the extent: a unit walking its
    // own row (`in2[i, k]`, k over m), which vector code reads in tiles
    std::vector<std::string> exact;
    for (const auto& index : ownIndices_)
        if (index.count == extent.text) exact.push_back(index.name);
    for (const auto& loop : sizeLoops_)
        if (loop.count == extent.text) exact.push_back(loop.name);
    if (!exact.empty() && random_.chance(40)) return exact[static_cast<std::size_t>(random_.below(static_cast<int>(exact.size())))];
    for (const auto& s : scalars_)
        if (s.elem == Elem::Int && s.range.lo >= 0 && s.range.hi < extent.min && random_.chance(20)) return s.name;
    ++exprNesting_;
    Value v = genInt(exprNesting_ > 2 ? 0 : 1);
    --exprNesting_;
    if (v.range.lo >= 0 && v.range.hi < extent.min) return v.text;
    if (v.range.lo >= 0 && random_.chance(50)) return v.text + " % " + parenthesized(extent.text);
    return "min(max(" + v.text + ", 0), " + extent.text + " - 1)";
}

std::vector<std::string> Generator::anyIndices(const Array& a) {
    std::vector<std::string> indices;
    for (const auto& group : a.groups)
        for (const auto& extent : group) indices.push_back(anyIndex(extent));
    return indices;
}

std::string Generator::indexText(const Array& a, const std::vector<std::string>& flatIndices) const {
    std::string text = a.name;
    std::size_t k = 0;
    for (const auto& group : a.groups) {
        text += "[";
        for (std::size_t d = 0; d < group.size(); ++d) text += (d > 0 ? ", " : "") + flatIndices[k++];
        text += "]";
    }
    return text;
}

// The element of `a` that the unit with these indices owns: every index is
// used, each dimension is an index over exactly that extent (or `i + 1` into
// `n + 2`, or `i * m + j` into `n * m`), a literal dimension is the unit's
// whole slice. *covers: the owners together write every element.
std::optional<std::vector<std::string>> Generator::ownIndex(const Array& a, const std::vector<IndexVar>& indices, bool* covers,
                                                            bool probe) {
    // first without writing index expressions, so that a failed match generates nothing
    if (!probe && !ownIndex(a, indices, nullptr, true)) return std::nullopt;
    std::vector<std::string> result;
    std::size_t next = 0;
    bool full = true;
    for (const auto& group : a.groups) {
        for (const auto& extent : group) {
            if (extent.freeSlice) {
                result.push_back(probe ? "0" : anyIndex(extent));
                full = false;
                continue;
            }
            if (next < indices.size() && indices[next].count == extent.text) {
                result.push_back(indices[next++].name);
                continue;
            }
            if (next < indices.size() && extent.text == indices[next].count + " + 2") {
                result.push_back(indices[next++].name + " + 1");
                full = false;
                continue;
            }
            if (next + 1 < indices.size() && extent.text == indices[next].count + " * " + indices[next + 1].count) {
                result.push_back(indices[next].name + " * " + indices[next + 1].count + " + " + indices[next + 1].name);
                next += 2;
                continue;
            }
            return std::nullopt;
        }
    }
    if (next != indices.size()) return std::nullopt;
    if (covers) *covers = full;
    return result;
}

// An index of `a` this unit may read now, or none.
std::optional<std::vector<std::string>> Generator::readableIndex(Array& a) {
    switch (a.storage) {
    case Storage::Private:
        if (!a.initialized) return std::nullopt;
        return anyIndices(a);
    case Storage::Local: {
        if (!inThreads_) return std::nullopt;
        if (a.initialized && !localWrittenInPhase_.count(a.name) && random_.chance(70)) {
            localReadInPhase_.insert(a.name);
            return anyIndices(a);
        }
        if (!a.initialized && !ownWritten_.count(a.name)) return std::nullopt;
        return ownIndex(a, threadIndices_, nullptr);
    }
    case Storage::Parameter:
    case Storage::Scratch:
        if (!writtenInNest_.count(a.name)) {
            if (!a.initialized) return std::nullopt;
            return anyIndices(a);
        }
        if (!a.initialized && !ownWritten_.count(a.name)) return std::nullopt;
        if (ownIndices_.empty()) return std::nullopt;
        return ownIndex(a, ownIndices_, nullptr);
    }
    return std::nullopt;
}

// gpu: an element of a read-only input of element type `wanted` (not bytes,
// not ints to clamp), as a plain read: the value of a copy.
std::optional<std::string> Generator::copiedElement(Elem wanted) {
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < arrays_.size(); ++k) {
        const Array& a = arrays_[k];
        if (a.storage == Storage::Parameter && a.isConst && a.initialized && a.elem == wanted && !a.isByte &&
            !a.arbitraryInts && a.viewGroup < 0 && (wanted != Elem::Float || a.floatBound <= kFloatLimit))
            candidates.push_back(k);
    }
    if (candidates.empty()) return std::nullopt;
    Array& a = arrays_[extras_.pick(candidates)];
    auto index = readableIndex(a);
    if (!index) return std::nullopt;
    return indexText(a, *index);
}

std::optional<Value> Generator::readElement(Elem wanted) {
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < arrays_.size(); ++k)
        if (arrays_[k].elem == wanted || arrays_[k].elem == Elem::Record) candidates.push_back(k);
    if (candidates.empty()) return std::nullopt;
    std::size_t chosen = candidates[static_cast<std::size_t>(random_.below(static_cast<int>(candidates.size())))];
    ++exprNesting_;
    auto index = readableIndex(arrays_[chosen]);
    --exprNesting_;
    if (!index) return std::nullopt;
    const Array& a = arrays_[chosen];
    std::string text = indexText(a, *index);
    if (a.elem == Elem::Record && wanted == Elem::Int && recordArrays_ && extras_.chance(30)) return Value{text + ".b", {0, 255}, 0, true};
    if (a.elem == Elem::Record) text += wanted == Elem::Int ? ".y" : recordFloatField();
    if (wanted == Elem::Float) return Value{text, {0, 0}, a.floatBound};
    if (a.isByte) return Value{text, {0, 255}, 0, true};
    if (a.arbitraryInts) return Value{"min(max(" + text + ", -1000), 1000)", {-kIntLimit, kIntLimit}, 0};
    return Value{text, {-kIntLimit, kIntLimit}, 0};
}

// --- statements ----------------------------------------------------------

void Generator::genStatements(int count, int depth) {
    for (int k = 0; k < count; ++k) genStatement(depth);
}

void Generator::genStatement(int depth) {
    if (!histograms_.empty() && foreachDepth_ > 0 && extras_.chance(12) &&
        genAtomicUpdate(anyHistogram(), depth))
        return;
    if (options_.hidingLocals && extras_.chance(12) && genHidingBlock(depth)) return;
    for (;;) {
        int kind = random_.below(20);
        if (kind < 4) return genDeclaration(depth);
        if (kind < 7 && genUpdate(depth)) return;
        if (kind < 9 && depth > 0) return genIf(depth);
        if (kind < 11 && depth > 0) return genFor(depth, false);
        if (kind < 14 && genOwnedWrite(depth, "")) return;
        if (kind == 14 && options_.asStatements && !sink_.empty() && extras_.chance(50) && genAsStatement(depth)) return;
        if (kind == 14 && depth > 0) return genPrivateArray(depth);
        bool intOnly = sinkElem_ == Elem::Int && !sink_.empty();
        if (kind == 15 && useRecords_ && !intOnly) return genRecordLocal(depth);
        if (kind == 16 && genVoidCall(depth)) return;
        if (kind == 17 && options_.arraySwaps && extras_.chance(50) && genArraySwap()) return;
        if (kind == 17 && genSwap()) return;
        if (kind >= 18 && genLocalWrite(depth, false)) return;
    }
}

// A scalar, initialised. In a gpu thread body where every thread goes on
// to a barrier, half the time declared first and assigned after, as
// translation and the grid backends split a declaration there themselves
// for the threads beyond a loop's range (GuardPushing.h), which the other
// half exercises.
void Generator::genDeclaration(int depth) {
    bool isMutable = random_.chance(50);
    bool intOnly = sinkElem_ == Elem::Int && !sink_.empty();
    bool split = inThreads_ && uniform_ && extras_.chance(50);
    auto declare = [&](const std::string& type, const std::string& name, const std::string& value) {
        if (split) {
            line(type + " " + name + ";");
            line(name + " = " + value + ";");
        } else {
            line(type + " " + name + " = " + value + ";");
        }
    };
    if (options_.bytes && extras_.chance(6)) {
        // any int, kept modulo 256
        std::string name = fresh("b");
        declare("byte", name, genInt(depth + 1).text);
        Scalar& b = addScalar(name, Elem::Int, {0, 255}, 0, extras_.chance(50));
        b.needsUse = true;
        b.isByte = true;
        return;
    }
    if (intOnly || random_.chance(50)) {
        Value v = genInt(depth + 1);
        if (isMutable) v = clampInt(v, kIntLimit);
        std::string name = fresh("v");
        declare("int", name, v.text);
        Scalar& s = addScalar(name, Elem::Int, isMutable ? IntRange{-kIntLimit, kIntLimit} : v.range, 0, isMutable);
        s.spent = v.range;
        s.needsUse = true;
    } else {
        Value v = genFloat(depth + 1);
        if (isMutable) v = clampFloat(v, kFloatLimit);
        std::string name = fresh("f");
        declare("float", name, v.text);
        Scalar& s = addScalar(name, Elem::Float, {0, 0}, isMutable ? kFloatLimit : v.bound, isMutable);
        s.spentBound = v.bound;
        s.needsUse = true;
    }
}

// An update of a mutable scalar of this unit, within its budget.
bool Generator::genUpdate(int depth) {
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < scalars_.size(); ++k)
        if (scalars_[k].isMutable && scalars_[k].foreachDepth == foreachDepth_) candidates.push_back(k);
    if (candidates.empty()) return false;
    std::size_t chosen = candidates[static_cast<std::size_t>(random_.below(static_cast<int>(candidates.size())))];
    std::int64_t times = multiplicity(scalars_[chosen]);
    Scalar s = scalars_[chosen];
    if (s.isByte) {
        // any int, any number of times: the byte keeps the result modulo 256
        static const std::vector<std::string> updates{" = ", " += ", " -= ", " *= "};
        int form = extras_.below(5);
        line(form == 4 ? s.name + "++;" : s.name + updates[static_cast<std::size_t>(form)] + genInt(depth).text + ";");
        return true;
    }
    if (s.elem == Elem::Int && options_.compoundUpdates && extras_.chance(25) && genCompoundUpdate(scalars_[chosen], times, depth))
        return true;
    if (s.elem == Elem::Int) {
        Value v = genInt(depth);
        IntRange after{s.spent.lo + times * std::min<std::int64_t>(v.range.lo, 0), s.spent.hi + times * std::max<std::int64_t>(v.range.hi, 0)};
        int form = random_.below(4);
        if (form == 3) {
            // a quotient by a positive constant stays within the budget
            line(s.name + " /= " + std::to_string(random_.between(1, 5)) + ";");
        } else if (form == 0 && times <= kIntLimit && after.lo >= -kIntLimit && after.hi <= kIntLimit) {
            line(s.name + " += " + v.text + ";");
            scalars_[chosen].spent = after;
        } else if (form == 1 && s.spent.hi + times <= kIntLimit) {
            line(s.name + "++;");
            scalars_[chosen].spent.hi += times;
        } else if (v.text != s.name) {
            line(s.name + " = " + clampInt(v, kIntLimit).text + ";");
            scalars_[chosen].spent = {-kIntLimit, kIntLimit};
        } else {
            line(s.name + " = 0;");
        }
    } else {
        Value v = genFloat(depth);
        int form = random_.below(3);
        double after = s.spentBound + static_cast<double>(times) * v.bound;
        if (form == 0 && after <= kFloatLimit) {
            line(s.name + (random_.chance(50) ? " += " : " -= ") + v.text + ";");
            scalars_[chosen].spentBound = after;
        } else if (form == 1) {
            line(s.name + (random_.chance(50) ? " *= 0.5;" : " /= 2.0;"));
        } else if (v.text != s.name) {
            line(s.name + " = " + clampFloat(v, kFloatLimit).text + ";");
            scalars_[chosen].spentBound = kFloatLimit;
        } else {
            line(s.name + " = 0.0;");
        }
    }
    return true;
}

// `-=`, `%=`, `>>=`, `<<=` or `*=` on a mutable int of this unit. Charged like
// genUpdate's `+=` where the order of updates does not matter (a difference
// times the trips; a remainder never grows a value); a shift needs every
// value non-negative and a product the value as it is here, so those only
// where no loop between the declaration and here can run a later update
// first (times == 1).
bool Generator::genCompoundUpdate(Scalar& s, std::int64_t times, int depth) {
    switch (extras_.below(4)) {
    case 0: {
        Value v = genInt(depth);
        IntRange after{s.spent.lo - times * std::max<std::int64_t>(v.range.hi, 0),
                       s.spent.hi - times * std::min<std::int64_t>(v.range.lo, 0)};
        if (times > kIntLimit || after.lo < -kIntLimit || after.hi > kIntLimit) return false;
        line(s.name + " -= " + v.text + ";");
        s.spent = after;
        return true;
    }
    case 1:
        line(s.name + " %= " + std::to_string(extras_.between(2, 7)) + ";");
        s.spent = {std::min<std::int64_t>(s.spent.lo, 0), std::max<std::int64_t>(s.spent.hi, 0)};
        return true;
    case 2: {
        if (times != 1 || s.spent.lo < 0) return false;
        int shift = extras_.between(1, 3);
        if (options_.bitwise && extras_.chance(40) && (s.spent.hi << shift) <= kIntLimit) {
            line(s.name + " <<= " + std::to_string(shift) + ";");
            s.spent = {s.spent.lo << shift, s.spent.hi << shift};
            return true;
        }
        line(s.name + " >>= " + std::to_string(shift) + ";");
        return true;
    }
    default: {
        std::int64_t c = extras_.between(2, 3);
        if (times != 1 || magnitude(s.spent) * c > kIntLimit) return false;
        line(s.name + " *= " + std::to_string(c) + ";");
        s.spent = {s.spent.lo * c, s.spent.hi * c};
        return true;
    }
    }
}

void Generator::genIf(int depth) {
    std::string condition = genCondition(1);
    if (options_.compoundUpdates && extras_.chance(20)) {
        // the condition in a bool of its own
        std::string flag = fresh("p");
        if (inThreads_ && uniform_) {
            line("bool " + flag + ";");
            line(flag + " = " + condition + ";");
        } else {
            line("bool " + flag + " = " + condition + ";");
        }
        condition = flag;
    }
    bool savedConditional = conditional_;
    bool savedUniform = uniform_;
    conditional_ = true;
    uniform_ = false;
    auto savedOwn = ownWritten_;
    open("if (" + condition + ")");
    pushScope();
    genStatements(random_.between(1, 3), depth - 1);
    popScope();
    if (random_.chance(40)) {
        openElse();
        pushScope();
        genStatements(random_.between(1, 2), depth - 1);
        popScope();
    }
    close();
    ownWritten_ = savedOwn;
    conditional_ = savedConditional;
    uniform_ = savedUniform;
}

// A sequential loop: a constant trip count (1 to 4), or a size where that
// is cheap. Counting down, or with another step, sometimes. With
// uniformBody, barriers may be in it.
void Generator::genFor(int depth, bool uniformBody) {
    std::string index = fresh("k");
    std::int64_t trips = random_.between(1, 4);
    std::string header;
    IntRange range{0, trips - 1};
    bool savedAllowSizeLoops = allowSizeLoops_;
    bool overSize = false;
    if (!uniformBody && allowSizeLoops_ && random_.chance(30)) {
        allowSizeLoops_ = false; // one loop over a size per unit: n units x n trips
        std::string size = useM_ && random_.chance(50) ? "m" : "n";
        // now and then strided: fewer trips than the size, indices still below it
        std::string step = options_.loopSteps && extras_.chance(25) ? " += " + std::to_string(extras_.between(2, 5)) : "++";
        header = "for (int " + index + " = 0; " + index + " < " + size + "; " + index + step + ")";
        trips = kMaxSize;
        range = {0, kMaxSize - 1};
        sizeLoops_.push_back({index, size});
        overSize = true;
    } else if (random_.chance(25)) {
        header = "for (int " + index + " = " + std::to_string(trips) + "; " + index + " > 0; " + index + "--)";
        range = {1, trips};
    } else if (options_.loopSteps && extras_.chance(25)) {
        // a step other than 1: trips stays an upper bound of the iterations
        std::string t = std::to_string(trips);
        switch (extras_.below(3)) {
        case 0:
            header = "for (int " + index + " = 0; " + index + " < " + t + "; " + index + " += " +
                     std::to_string(extras_.between(2, 3)) + ")";
            break;
        case 1:
            header = "for (int " + index + " = " + t + "; " + index + " > 0; " + index +
                     (extras_.chance(50) ? " /= 2)" : " >>= 1)");
            range = {1, trips};
            break;
        default:
            header = "for (int " + index + " = 1; " + index + " <= " + t + "; " + index +
                     (extras_.chance(50) ? " *= 2)" : " <<= 1)");
            range = {1, trips};
            break;
        }
    } else {
        header = "for (int " + index + " = 0; " + index + " < " + std::to_string(trips) + "; " + index + "++)";
    }
    if (uniformBody && (!localWrittenInPhase_.empty() || !localReadInPhase_.empty())) genBarrier();
    open(header);
    pushScope();
    loopTrips_.push_back(trips);
    addScalar(index, Elem::Int, range, 0, false);
    bool savedUniform = uniform_;
    uniform_ = uniformBody && uniform_;
    if (uniformBody) {
        genUniformItems(random_.between(2, 3), depth - 1);
        // every iteration starts with no pending local accesses
        if (!localWrittenInPhase_.empty() || !localReadInPhase_.empty()) genBarrier();
    } else {
        genStatements(random_.between(1, 3), depth - 1);
    }
    uniform_ = savedUniform;
    if (overSize) sizeLoops_.pop_back();
    allowSizeLoops_ = savedAllowSizeLoops;
    loopTrips_.pop_back();
    popScope();
    close();
}

// A write of the element this unit owns, of an array the nest writes.
bool Generator::genOwnedWrite(int depth, const std::string& only) {
    if (ownIndices_.empty()) return false;
    std::vector<std::string> candidates;
    for (const auto& name : writtenInNest_)
        if (only.empty() || name == only) candidates.push_back(name);
    if (candidates.empty()) return false;
    std::string name = random_.pick(candidates);
    Array* a = findArray(name);
    if (!a) return false;
    bool covers = false;
    auto index = ownIndex(*a, ownIndices_, &covers);
    if (!index) return false;
    std::string target = indexText(*a, *index);
    auto writeField = [&](const std::string& lhs, Elem elem) {
        if (a->isByte) {
            line(lhs + " = " + genInt(depth + 1).text + ";");  // any int, stored modulo 256
        } else if (elem == Elem::Int) {
            line(lhs + " = " + clampInt(genInt(depth + 1), kIntLimit).text + ";");
        } else {
            line(lhs + " = " + clampFloat(genFloat(depth + 1), kFloatLimit).text + ";");
        }
    };
    if (a->elem == Elem::Record) {
        writeField(target + ".x", Elem::Float);
        writeField(target + ".y", Elem::Int);
        if (recordArrays_) recordFieldWrites(target, depth);
    } else {
        writeField(target, a->elem);
    }
    a = findArray(name);
    writtenNow_.insert(name);
    if (!conditional_ && loopTrips_.empty() && covers) ownWritten_.insert(name);
    return true;
}

// A private array (plain, tiled or with an `as` view), filled by a loop
// over all of its elements before anything reads it.
void Generator::genPrivateArray(int depth) {
    // an int function's sink takes only ints
    Elem elem = random_.chance(70) && !(sinkElem_ == Elem::Int && !sink_.empty()) ? Elem::Float : Elem::Int;
    // now and then an int array of bytes
    bool bytes = elem == Elem::Int && options_.bytes && extras_.chance(30);
    std::string name = fresh("p");
    int shape = random_.below(3);
    Array a{name, elem, {}, Storage::Private, false, false, false, foreachDepth_, -1, kFloatLimit};
    a.needsUse = true;
    a.isByte = bytes;
    a.isDouble = elem == Elem::Float && options_.doubleArrays && doubles_.chance(20);
    std::string type = elementType(a);
    std::string shape_text;             // the brackets of its type
    std::vector<std::int64_t> extents;  // of its declared shape
    auto fill = [&](const Array& target, const std::vector<std::int64_t>& extents) {
        std::vector<std::string> indices;
        for (std::size_t d = 0; d < extents.size(); ++d) {
            std::string k = fresh("q");
            indices.push_back(k);
            open("for (int " + k + " = 0; " + k + " < " + std::to_string(extents[d]) + "; " + k + "++)");
            pushScope();
            addScalar(k, Elem::Int, {0, extents[d] - 1}, 0, false);
            loopTrips_.push_back(extents[d]);
        }
        std::string value = elem == Elem::Float ? clampFloat(genFloat(depth), kFloatLimit).text
                            : bytes             ? genInt(depth).text  // any int, stored modulo 256
                                                : clampInt(genInt(depth), kIntLimit).text;
        line(indexText(target, indices) + " = " + value + ";");
        for (std::size_t d = 0; d < extents.size(); ++d) {
            loopTrips_.pop_back();
            popScope();
            close();
        }
    };
    if (shape == 0) {
        std::int64_t len = random_.between(2, 6);
        a.groups = {{Extent{std::to_string(len), len, false}}};
        shape_text = "[" + std::to_string(len) + "]";
        extents = {len};
        line(type + shape_text + " " + name + ";");
        fill(a, extents);
        a.initialized = true;
        a.declaredAt = body_.size();
        arrays_.push_back(a);
    } else if (shape == 1) {
        std::int64_t tiles = random_.between(2, 3), len = random_.between(2, 4);
        a.groups = {{Extent{std::to_string(tiles), tiles, false}}, {Extent{std::to_string(len), len, false}}};
        shape_text = "[" + std::to_string(tiles) + "][" + std::to_string(len) + "]";
        extents = {tiles, len};
        line(type + shape_text + " " + name + ";");
        fill(a, extents);
        a.initialized = true;
        a.declaredAt = body_.size();
        arrays_.push_back(a);
    } else {
        std::int64_t rows = random_.between(2, 3), cols = random_.between(2, 4);
        std::string flatName = fresh("p");
        a.groups = {{Extent{std::to_string(rows), rows, false}, Extent{std::to_string(cols), cols, false}}};
        a.viewGroup = nextViewGroup_++;
        Array flat = a;
        flat.name = flatName;
        flat.isView = true;
        flat.groups = {{Extent{std::to_string(rows * cols), rows * cols, false}}};
        shape_text = "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
        extents = {rows, cols};
        line(type + shape_text + " " + name + " as " + type + "[" + std::to_string(rows * cols) + "] " + flatName + ";");
        // filled through one shape, read through both
        if (random_.chance(50)) fill(flat, {rows * cols});
        else fill(a, {rows, cols});
        a.initialized = flat.initialized = true;
        a.declaredAt = flat.declaredAt = body_.size();
        arrays_.push_back(a);
        arrays_.push_back(flat);
    }
    // now and then a second array of its shape, which the two may trade
    // storage with (genArraySwap), at once or later
    if (options_.arraySwaps && extras_.chance(35)) {
        Array twin = a;
        twin.name = fresh("p");
        twin.viewGroup = -1;
        line(type + shape_text + " " + twin.name + ";");
        fill(twin, extents);
        twin.declaredAt = body_.size();
        arrays_.push_back(twin);
        if (extras_.chance(50)) genArraySwap();
    }
}

// An `as` statement: one or two new shapes (the same, flattened, or a
// constant size factored) of a const input, a private array or a view of
// one, read like the array itself. A private array of this unit's depth is
// now and then written through the view, and its other names must see it.
// Some views stay unused: backends must still build warning-free.
bool Generator::genAsStatement(int depth) {
    std::vector<std::size_t> candidates;
    for (std::size_t k = 0; k < arrays_.size(); ++k) {
        const Array& a = arrays_[k];
        if ((a.storage == Storage::Parameter && a.isConst) || (a.storage == Storage::Private && a.initialized))
            candidates.push_back(k);
    }
    if (candidates.empty()) return false;
    const Array storage = arrays_[extras_.pick(candidates)];
    auto isSimple = [](const std::string& text) {
        return std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    };
    std::vector<Extent> extents;
    for (const auto& group : storage.groups) extents.insert(extents.end(), group.begin(), group.end());
    bool simple = std::all_of(extents.begin(), extents.end(), [&](const Extent& e) { return isSimple(e.text); });
    bool constant = std::all_of(extents.begin(), extents.end(), [](const Extent& e) {
        return std::all_of(e.text.begin(), e.text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    });
    std::int64_t elements = 1;
    for (const Extent& e : extents) elements *= e.min;
    // the shapes this storage may take, as bracket groups
    std::vector<std::vector<std::vector<Extent>>> shapes{storage.groups};
    if (simple && extents.size() > 1) {
        std::string product;
        for (const Extent& e : extents) product += (product.empty() ? "" : " * ") + e.text;
        shapes.push_back({{Extent{product, elements, false}}});
    }
    if (constant)
        for (std::int64_t rows = 2; rows * 2 <= elements; ++rows)
            if (elements % rows == 0) {
                Extent r{std::to_string(rows), rows, false}, c{std::to_string(elements / rows), elements / rows, false};
                shapes.push_back({{r, c}});
                shapes.push_back({{r}, {c}});
            }
    std::string type = elementType(storage);
    std::string text = storage.name;
    std::vector<Array> views;
    for (int v = 0, count = extras_.chance(25) ? 2 : 1; v < count; ++v) {
        Array view = storage;
        view.name = fresh("w");
        view.isView = true;
        view.groups = extras_.pick(shapes);
        view.foreachDepth = foreachDepth_;
        // a sink takes ints or floats, never records; an int function's only ints
        bool sinkTakes = view.elem == Elem::Int || (view.elem == Elem::Float && sinkElem_ == Elem::Float);
        view.needsUse = sinkTakes && extras_.chance(80);
        text += " as " + type;
        for (const auto& group : view.groups) {
            text += "[";
            for (std::size_t d = 0; d < group.size(); ++d) text += (d > 0 ? ", " : "") + group[d].text;
            text += "]";
        }
        text += " " + view.name;
        views.push_back(view);
    }
    line(text + ";");
    for (Array& view : views) {
        view.declaredAt = body_.size();
        arrays_.push_back(view);
    }
    const Array& through = views.back();
    if (storage.storage == Storage::Private && storage.foreachDepth == foreachDepth_ && storage.elem != Elem::Record &&
        extras_.chance(40)) {
        std::string target = indexText(through, anyIndices(through));
        std::string value = storage.elem == Elem::Float ? clampFloat(genFloat(depth + 1), kFloatLimit).text
                            : storage.isByte            ? genInt(depth + 1).text  // stored modulo 256
                                                        : clampInt(genInt(depth + 1), kIntLimit).text;
        line(target + " = " + value + ";");
    }
    return true;
}

void Generator::genRecordLocal(int depth) {
    std::string name = fresh("r");
    line("R " + name + ";");
    Value x = clampFloat(genFloat(depth + 1), kFloatLimit);
    line(name + ".x = " + x.text + ";");
    Value y = clampInt(genInt(depth + 1), kIntLimit);
    line(name + ".y = " + y.text + ";");
    if (recordArrays_) {
        recordFieldWrites(name, depth);
        // x takes a field of each array, read after the writes (and swap)
        Value mixed = clampFloat(Value{x.text + " + " + name + ".v[0] - " + name + ".w[1]", {0, 0}, x.bound + 2 * kFloatLimit}, kFloatLimit);
        line(name + ".x = " + mixed.text + ";");
        x = mixed;
    }
    addScalar(name + ".x", Elem::Float, {0, 0}, x.bound, false).needsUse = true;
    addScalar(name + ".y", Elem::Int, y.range, 0, false).needsUse = true;
}

// The lines that set R's byte and array fields of `target` (an element or a
// local, whose x and y are written), and now and then swap its two arrays
// (`target.v <=> target.w`).
void Generator::recordFieldWrites(const std::string& target, int depth) {
    line(target + ".b = " + genInt(depth + 1).text + ";");  // any int, stored modulo 256
    for (const char* field : {".v", ".w"})
        for (int k = 0; k < 2; ++k)
            line(target + field + "[" + std::to_string(k) + "] = " + clampFloat(genFloat(depth + 1), kFloatLimit).text + ";");
    if (options_.arraySwaps && extras_.chance(40)) line(target + ".v <=> " + target + ".w;");
}

// Every field of the R `target`: x, y and, with recordArrays_, the others.
void Generator::writeRecord(const std::string& target, int depth) {
    line(target + ".x = " + clampFloat(genFloat(depth), kFloatLimit).text + ";");
    line(target + ".y = " + clampInt(genInt(depth), kIntLimit).text + ";");
    if (recordArrays_) recordFieldWrites(target, depth);
}

// A float field of R to read: x, or an element of v or w (a constant or
// any index into 2).
std::string Generator::recordFloatField() {
    if (!recordArrays_ || extras_.chance(40)) return ".x";
    std::string field = extras_.chance(50) ? ".v" : ".w";
    return field + "[" + (extras_.chance(50) ? std::to_string(extras_.below(2)) : anyIndex(Extent{"2", 2, false})) + "]";
}

// A call of a void device function that updates a mutable float of this unit.
bool Generator::genVoidCall(int depth) {
    std::vector<const FunctionSig*> functions;
    for (const auto& f : functions_)
        if (f.isVoid) functions.push_back(&f);
    std::vector<std::size_t> targets;
    for (std::size_t k = 0; k < scalars_.size(); ++k)
        if (scalars_[k].isMutable && scalars_[k].elem == Elem::Float && scalars_[k].foreachDepth == foreachDepth_) targets.push_back(k);
    if (functions.empty() || targets.empty()) return false;
    const FunctionSig* f = random_.pick(functions);
    std::size_t target = targets[static_cast<std::size_t>(random_.below(static_cast<int>(targets.size())))];
    std::string name = scalars_[target].name;
    Value v = clampFloat(genFloat(depth), kFloatLimit);
    // MCPL forbids passing the written variable twice
    if (mentions(v.text, name)) v = Value{"0.5", {0, 0}, 0.5};
    line(f->name + "(" + name + ", " + v.text + ");");
    scalars_[target].spentBound = kFloatLimit;
    return true;
}

bool Generator::genSwap() {
    std::vector<std::size_t> floats;
    for (std::size_t k = 0; k < scalars_.size(); ++k)
        if (scalars_[k].isMutable && scalars_[k].elem == Elem::Float && scalars_[k].foreachDepth == foreachDepth_) floats.push_back(k);
    if (floats.size() < 2) return false;
    std::size_t a = floats[static_cast<std::size_t>(random_.below(static_cast<int>(floats.size())))];
    std::size_t b = floats[static_cast<std::size_t>(random_.below(static_cast<int>(floats.size())))];
    if (a == b) return false;
    line(scalars_[a].name + " <=> " + scalars_[b].name + ";");
    double spent = std::max(scalars_[a].spentBound, scalars_[b].spentBound);
    scalars_[a].spentBound = scalars_[b].spentBound = spent;
    return true;
}

// Two initialised private arrays of this unit and one shape, by their
// declared names, trade their storage: views made before keep theirs, and
// the bounds of their values become the larger of the two.
bool Generator::genArraySwap() {
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    auto sameShape = [](const Array& a, const Array& b) {
        if (a.groups.size() != b.groups.size()) return false;
        for (std::size_t g = 0; g < a.groups.size(); ++g) {
            if (a.groups[g].size() != b.groups[g].size()) return false;
            for (std::size_t d = 0; d < a.groups[g].size(); ++d)
                if (a.groups[g][d].text != b.groups[g][d].text) return false;
        }
        return true;
    };
    auto swappable = [&](const Array& a) {
        return a.storage == Storage::Private && a.foreachDepth == foreachDepth_ && a.initialized && !a.isView;
    };
    // tiles, `a[x] <=> b[y]`, when there are any, half the time: of two
    // arrays of two groups whose inner groups agree, or two tiles of one array
    auto sameTile = [&](const Array& a, const Array& b) {
        if (a.groups.size() != 2 || b.groups.size() != 2) return false;
        Array innerA = a, innerB = b;
        innerA.groups.erase(innerA.groups.begin());
        innerB.groups.erase(innerB.groups.begin());
        return sameShape(innerA, innerB);
    };
    std::vector<std::pair<std::size_t, std::size_t>> tilePairs;
    for (std::size_t k = 0; k < arrays_.size(); ++k)
        for (std::size_t l = k; l < arrays_.size(); ++l) {
            const Array &a = arrays_[k], &b = arrays_[l];
            if (!swappable(a) || !swappable(b) || a.elem != b.elem || a.isByte != b.isByte || a.isDouble != b.isDouble) continue;
            if (l > k && sameShape(a, b)) pairs.emplace_back(k, l);
            if (sameTile(a, b)) tilePairs.emplace_back(k, l);
        }
    bool tiles = !tilePairs.empty() && (pairs.empty() || extras_.chance(50));
    if (tiles) pairs = tilePairs;
    if (pairs.empty()) return false;
    auto [k, l] = pairs[static_cast<std::size_t>(extras_.below(static_cast<int>(pairs.size())))];
    Array &a = arrays_[k], &b = arrays_[l];
    // a tile's index is a constant or, half the time, any int expression,
    // which may read an element of either tile (`p[q[1][0]] <=> q[1]`):
    // both places are found before either changes
    auto tile = [&](const Array& x) {
        const Extent& count = x.groups[0][0];
        return x.name + "[" + (extras_.chance(50) ? anyIndex(count) : std::to_string(extras_.below(static_cast<int>(count.min)))) + "]";
    };
    if (tiles) {
        std::string first = tile(a);
        line(first + " <=> " + tile(b) + ";");
    } else {
        line(a.name + " <=> " + b.name + ";");
    }
    a.floatBound = b.floatBound = std::max(a.floatBound, b.floatBound);
    a.arbitraryInts = b.arbitraryInts = a.arbitraryInts || b.arbitraryInts;
    return true;
}

// A block whose int local is named like an inner extent of an array (a
// size, a constant), which the array's element offsets read, and a read of
// that array inside: `{ int m = ...; sink += a[i, k] + m; }` over
// `float[n, m] a`. The indices are written before the local hides the name
// and must not mention it.
bool Generator::genHidingBlock(int depth) {
    if (sink_.empty()) return false;
    auto isName = [](const std::string& text) {
        return !text.empty() && !std::isdigit(static_cast<unsigned char>(text[0])) &&
               std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    };
    std::vector<std::pair<std::size_t, std::string>> candidates;
    for (std::size_t k = 0; k < arrays_.size(); ++k) {
        const Array& a = arrays_[k];
        if (a.elem == Elem::Record || (sinkElem_ == Elem::Int && a.elem != Elem::Int)) continue;
        for (const auto& group : a.groups)
            for (std::size_t d = 1; d < group.size(); ++d)
                if (isName(group[d].text)) candidates.emplace_back(k, group[d].text);
    }
    if (candidates.empty()) return false;
    const auto& [chosen, hidden] = candidates[static_cast<std::size_t>(extras_.below(static_cast<int>(candidates.size())))];
    auto index = readableIndex(arrays_[chosen]);
    if (!index) return false;
    for (const auto& text : *index)
        if (mentions(text, hidden)) return false;
    const Array& a = arrays_[chosen];
    Value init = clampInt(genInt(depth + 1), kIntLimit);
    std::string element = indexText(a, *index);
    if (a.isByte) element = parenthesized(element);
    else if (a.arbitraryInts) element = "min(max(" + element + ", -1000), 1000)";
    else if (a.elem == Elem::Float && a.floatBound > kFloatLimit) element = "min(max(" + element + ", -10000.0), 10000.0)";
    line("{");
    ++indent_;
    line("int " + hidden + " = " + init.text + ";");
    if (sinkElem_ == Elem::Int) addToSink(element + " + " + hidden);
    else addToSink((a.elem == Elem::Int ? "toFloat(" + element + ")" : element) + " + toFloat(" + hidden + ")");
    close();
    return true;
}

// gpu: this thread's slot of a local array, when no thread reads the array
// across slots in this phase. Unconditional writes at the top of the thread
// body fill the array.
bool Generator::genLocalWrite(int depth, bool unconditional) {
    if (!inThreads_) return false;
    std::vector<std::string> candidates;
    for (const auto& a : arrays_)
        if (a.storage == Storage::Local && !localReadInPhase_.count(a.name)) candidates.push_back(a.name);
    if (candidates.empty()) return false;
    std::string name = random_.pick(candidates);
    bool covers = false;
    auto index = ownIndex(*findArray(name), threadIndices_, &covers);
    if (!index) return false;
    Elem elem = findArray(name)->elem;
    // written in this phase from here on: the value itself may read only this thread's slot
    localWrittenInPhase_.insert(name);
    Array* a = findArray(name);
    if (elem == Elem::Record) {
        writeRecord(indexText(*a, *index), depth + 1);
    } else {
        std::string value = elem == Elem::Float ? clampFloat(genFloat(depth + 1), kFloatLimit).text : clampInt(genInt(depth + 1), kIntLimit).text;
        line(indexText(*a, *index) + " = " + value + ";");
    }
    a = findArray(name);
    if (unconditional && !conditional_ && covers) {
        a->initialized = true;
        ownWritten_.insert(name);
    }
    return true;
}

void Generator::genBarrier() {
    line("barrier(local);");
    localWrittenInPhase_.clear();
    localReadInPhase_.clear();
}

// Each array of the nest that this unit owns an element of and has not
// written yet gets a write, so that the nest's results are observable.
void Generator::finishWrites(int depth) {
    for (const auto& name : std::set<std::string>(writtenInNest_)) {
        if (writtenNow_.count(name)) continue;
        Array* a = findArray(name);
        if (a && ownIndex(*a, ownIndices_, nullptr, true)) genOwnedWrite(depth, name);
    }
    // the sink goes into a float the unit owns
    for (const auto& name : writtenInNest_) {
        Array* a = findArray(name);
        if (!a || a->elem == Elem::Int || !ownIndex(*a, ownIndices_, nullptr, true)) continue;
        consumeUnused(scopeMarks_.empty() ? 0 : scopeMarks_.back().first, scopeMarks_.empty() ? 0 : scopeMarks_.back().second);
        std::string target = indexText(*a, *ownIndex(*a, ownIndices_, nullptr)) + (a->elem == Elem::Record ? ".x" : "");
        Value v = genFloat(depth);
        line(target + " = min(max(" + v.text + " + " + sink_ + ", -10000.0), 10000.0);");
        return;
    }
}

// A return that ends some units of the foreach early, once every array the
// nest writes holds the unit's values, and work that only the units that
// go on do: statements, and a sink of their own that goes into an output.
void Generator::genUnitReturn(int depth) {
    // what the unit wrote only under a condition or in a loop may not hold
    // its values yet: written once more, unconditionally
    for (const auto& name : std::set<std::string>(writtenInNest_)) {
        Array* a = findArray(name);
        if (!ownWritten_.count(name) && a && ownIndex(*a, ownIndices_, nullptr, true)) genOwnedWrite(depth, name);
    }
    open("if (" + genCondition(1) + ")");
    line("return;");
    close();
    // the code after the caller's scope goes on with the caller's sink
    const std::string outerSink = sink_;
    const Elem outerElem = sinkElem_;
    const int outerDepth = sinkForeachDepth_;
    beginSink(Elem::Float);
    genStatements(random_.between(1, 2), depth);
    finishWrites(depth);
    sink_ = outerSink;
    sinkElem_ = outerElem;
    sinkForeachDepth_ = outerDepth;
}

// --- program structure ---------------------------------------------------

// Device functions: pure functions of scalars returning a value (int
// functions take only ints, so that their sink is an int), and void
// functions that update a float parameter; each calls only earlier ones.
// An atomic update of an element of h, from any unit: any index, an add
// whose magnitude, times the units and loop trips that can run it, fits
// what is left of h's budget.
bool Generator::genAtomicUpdate(Histogram& h, int depth) {
    std::int64_t times = kUnitsBound * (inTimeSteps_ ? 2 : 1);
    for (std::int64_t trips : loopTrips_) times = std::min(kTripCap, times * trips);
    std::int64_t largest = std::min<std::int64_t>(8, h.budget / times);
    if (largest < 1) return false;
    std::string index = anyIndex(Extent{std::to_string(h.size), h.size, false});
    Value add = extras_.chance(40) ? Value{"1", {1, 1}, 0} : clampInt(genInt(depth), largest);
    line("atomicAddInt(" + h.name + "[" + index + "], " + add.text + ");");
    h.budget -= times * magnitude(add.range);
    h.updated = true;
    return true;
}

// A nest of its own that zeroes a histogram, so that its counts start from
// 0 whatever the caller's ints were.
void Generator::genHistogramZeroing(const Histogram& h) {
    std::string index = fresh("z");
    int closes = openUnitsOver(std::to_string(h.size), index, h.size <= 16 ? "16" : "64");
    line(h.name + "[" + index + "] = 0;");
    for (int k = 0; k < closes; ++k) close();
}

// Opens the units of a nest over `count` whose unit index is `index`: a
// foreach at perfect; at gpu blocks of `threads` threads, the index computed
// from both and guarded. Returns how many blocks to close.
int Generator::openUnitsOver(const std::string& count, const std::string& index, const std::string& threads) {
    if (level_ == Level::Perfect) {
        open("foreach (int " + index + " in " + count + " threads)");
        return 1;
    }
    std::string block = fresh("b"), thread = fresh("t");
    open("foreach (int " + block + " in divide_up(" + count + ", " + threads + ") blocks)");
    open("foreach (int " + thread + " in " + threads + " threads)");
    line("int " + index + ";");
    line(index + " = " + block + " * " + threads + " + " + thread + ";");
    open("if (" + index + " < " + count + ")");
    return 3;
}

// A nest over n whose only statement is an update of the histogram: for a
// histogram no other nest happened to update.
void Generator::genHistogramCount(Histogram& h) {
    std::string index = fresh("i");
    int closes = openUnitsOver("n", index, "64");
    pushScope();
    addScalar(index, Elem::Int, {0, kMaxSize - 1}, 0, false);
    ++foreachDepth_;
    genAtomicUpdate(h, 1); // h's budget is whole: nothing updated it
    --foreachDepth_;
    popScope();
    for (int k = 0; k < closes; ++k) close();
}

// gpu: a block's histogram in `local` memory, as histogram_gpu.mcl counts:
// each thread zeroes its slot, the threads in range update any slots
// atomically (in a loop or not), and after a barrier each thread adds its
// slot into h.
void Generator::genLocalHistogramNest(Histogram& h) {
    std::int64_t t = extras_.pick(std::vector<std::int64_t>{16, 32, 64, 256});
    std::string threads = std::to_string(t);
    std::string block = fresh("b"), thread = fresh("t"), index = fresh("i");
    Histogram counts{fresh("lhist"), t, h.budget};
    open("foreach (int " + block + " in divide_up(n, " + threads + ") blocks)");
    pushScope();
    addScalar(block, Elem::Int, {0, kMaxSize - 1}, 0, false);
    line("local int[" + threads + "] " + counts.name + ";");
    open("foreach (int " + thread + " in " + threads + " threads)");
    pushScope();
    addScalar(thread, Elem::Int, {0, t - 1}, 0, false);
    ++foreachDepth_;
    line(counts.name + "[" + thread + "] = 0;");
    line("barrier(local);");
    line("int " + index + ";");
    line(index + " = " + block + " * " + threads + " + " + thread + ";");
    addScalar(index, Elem::Int, {0, kMaxSize + 255}, 0, false);
    open("if (" + index + " < n)");
    bool inLoop = extras_.chance(40);
    std::string loop = fresh("k");
    std::int64_t trips = extras_.between(1, 4);
    if (inLoop) {
        open("for (int " + loop + " = 0; " + loop + " < " + std::to_string(trips) + "; " + loop + "++)");
        pushScope();
        loopTrips_.push_back(trips);
        addScalar(loop, Elem::Int, {0, trips - 1}, 0, false);
    }
    // an update the budget has no room for is left out
    for (int k = extras_.between(1, 3); k > 0; --k) genAtomicUpdate(counts, 1);
    if (inLoop) {
        loopTrips_.pop_back();
        popScope();
        close();
    }
    close();
    line("barrier(local);");
    // the slots add up to no more than the updates did
    line("atomicAddInt(" + h.name + "[" + anyIndex(Extent{std::to_string(h.size), h.size, false}) + "], " + counts.name +
         "[" + thread + "]);");
    h.budget = counts.budget;
    h.updated = true;
    --foreachDepth_;
    popScope();
    close();
    popScope();
    close();
}

void Generator::genFunctions() {
    int count = random_.between(0, 3);
    std::string hwd = level_ == Level::Perfect ? "perfect" : "gpu";
    for (int k = 0; k < count; ++k) {
        FunctionSig f;
        f.name = fresh("fn");
        f.isVoid = random_.chance(30);
        f.result = f.isVoid || random_.chance(50) ? Elem::Float : Elem::Int;
        pushScope();
        std::string parameters;
        std::string target;
        if (f.isVoid) {
            f.parameters = {Elem::Float, Elem::Float};
            f.byteParameters = {false, false};
            target = fresh("acc");
            std::string input = fresh("x");
            parameters = "float " + target + ", const float " + input;
            addScalar(target, Elem::Float, {0, 0}, kFloatLimit, false);
            addScalar(input, Elem::Float, {0, 0}, kFloatLimit, false).needsUse = true;
        } else {
            if (f.result == Elem::Float && options_.arrayArguments && extras_.chance(50)) {
                // an array of any length, read at indices the body keeps inside it
                // (a float function: its sink takes what the body leaves unread)
                f.takesArray = true;
                std::string length = fresh("len");
                std::string array = fresh("arr");
                parameters = "const int " + length + ", const float[" + length + "] " + array + ", ";
                addScalar(length, Elem::Int, {1, kMaxSize}, 0, false).needsUse = true;
                Array a{array, Elem::Float, {{Extent{length, 1, false}}}, Storage::Parameter, true, true, false, 0, -1, kFloatLimit};
                a.needsUse = true;
                arrays_.push_back(a);
            }
            int arity = random_.between(1, 3);
            for (int p = 0; p < arity; ++p) {
                Elem elem = f.result == Elem::Int || random_.chance(50) ? Elem::Int : Elem::Float;
                bool isByte = elem == Elem::Int && options_.bytes && extras_.chance(20);
                std::string name = fresh("a");
                f.parameters.push_back(elem);
                f.byteParameters.push_back(isByte);
                parameters += std::string(p > 0 ? ", " : "") + "const " +
                              (isByte ? "byte " : elem == Elem::Int ? "int " : "float ") + name;
                if (isByte) {
                    Scalar& b = addScalar(name, elem, {0, 255}, 0, false);
                    b.needsUse = true;
                    b.isByte = true;
                } else if (elem == Elem::Int) {
                    addScalar(name, elem, {-kIntLimit, kIntLimit}, 0, false).needsUse = true;
                } else {
                    addScalar(name, elem, {0, 0}, kFloatLimit, false).needsUse = true;
                }
            }
        }
        std::string result = f.isVoid ? " void " : f.result == Elem::Int ? " int " : " float ";
        open(hwd + result + f.name + "(" + parameters + ")");
        // the parameters count as read only by the body, not by the header that names them
        for (std::size_t p = scopeMarks_.back().first; p < scalars_.size(); ++p) scalars_[p].declaredAt = body_.size();
        pushScope();
        beginSink(f.result);
        // every call runs the body: loops here multiply the kernel's work
        genStatements(random_.between(0, 3), random_.chance(30) ? 1 : 0);
        consumeUnused(0, 0);
        if (options_.earlyReturns && extras_.chance(35)) {
            // an early return: the rest of the body runs for some calls only
            open("if (" + genCondition(1) + ")");
            if (f.isVoid) {
                line(target + " = " + clampFloat(genFloat(1), kFloatLimit).text + ";");
                line("return;");
            } else if (f.result == Elem::Int) {
                line("return " + clampInt(genInt(1), kIntLimit).text + ";");
            } else {
                line("return " + clampFloat(genFloat(1), kFloatLimit).text + ";");
            }
            close();
        }
        if (f.isVoid) {
            Value v = clampFloat(genFloat(2), kFloatLimit);
            line(target + " = min(max(" + v.text + " + " + sink_ + ", -10000.0), 10000.0);");
        } else if (f.result == Elem::Int) {
            Value v = clampInt(genInt(2), kIntLimit);
            Value withSink{"(" + v.text + " + " + sink_ + ")", {v.range.lo - kIntLimit, v.range.hi + kIntLimit}, 0};
            Value clamped = clampInt(withSink, kIntLimit);
            line("return " + clamped.text + ";");
            f.resultRange = clamped.range;
        } else {
            Value v = clampFloat(genFloat(2), kFloatLimit);
            line("return min(max(" + v.text + " + " + sink_ + ", -10000.0), 10000.0);");
            f.resultBound = kFloatLimit;
        }
        sink_.clear();
        popScope();
        popScope();
        close();
        line("");
        functions_.push_back(f);
    }
}

void Generator::genParameters() {
    auto n = Extent{"n", 1, false};
    auto m = Extent{"m", 1, false};
    auto add = [&](const std::string& text, Array a) {
        parameterTexts_.push_back(text);
        arrays_.push_back(std::move(a));
    };
    auto array = [&](const std::string& name, Elem elem, std::vector<std::vector<Extent>> groups, bool isConst) {
        Array a{name, elem, std::move(groups), Storage::Parameter, isConst, true, elem != Elem::Float, 0, -1,
                isConst ? kInputBound : kFloatLimit};
        a.givenFloats = isConst && elem == Elem::Float;
        return a;
    };
    // inputs
    add("const float[n] in0", array("in0", Elem::Float, {{n}}, true));
    if (random_.chance(40)) add("const int[n] in1", array("in1", Elem::Int, {{n}}, true));
    if (useM_ && random_.chance(60)) add("const float[n, m] in2", array("in2", Elem::Float, {{n, m}}, true));
    if (useM_ && random_.chance(30)) add("const int[m] in3", array("in3", Elem::Int, {{m}}, true));
    if (useRecords_ && random_.chance(60)) add("const R[n] in4", array("in4", Elem::Record, {{n}}, true));
    if (random_.chance(25)) add("const float[n][4] in5", array("in5", Elem::Float, {{n}, {Extent{"4", 4, true}}}, true));
    // drawn also without views, so that a seed gives the same program otherwise
    if (random_.chance(25) && options_.parameterViews) {
        Array shaped = array("in6", Elem::Float, {{n, Extent{"3", 3, true}}}, true);
        Array flat = array("in6flat", Elem::Float, {{Extent{"n * 3", 3, false}}}, true);
        shaped.viewGroup = flat.viewGroup = nextViewGroup_++;
        parameterTexts_.push_back("const float[n, 3] in6 as float[n * 3] in6flat");
        arrays_.push_back(shaped);
        arrays_.push_back(flat);
    }
    // outputs (read as well when the program reads them: their initial contents are the caller's)
    add("float[n] out0", array("out0", Elem::Float, {{n}}, false));
    if (random_.chance(40)) add("int[n] out1", array("out1", Elem::Int, {{n}}, false));
    if (useM_ && random_.chance(60)) add("float[n, m] out2", array("out2", Elem::Float, {{n, m}}, false));
    if (useM_ && random_.chance(40)) add("float[n * m] out3", array("out3", Elem::Float, {{Extent{"n * m", 1, false}}}, false));
    if (random_.chance(40)) add("float[n + 2] out4", array("out4", Elem::Float, {{Extent{"n + 2", 3, false}}}, false));
    if (useRecords_ && random_.chance(50)) add("R[n] out5", array("out5", Elem::Record, {{n}}, false));
    if (random_.chance(25)) add("float[n][4] out6", array("out6", Elem::Float, {{n}, {Extent{"4", 4, true}}}, false));
    if (useM_ && random_.chance(30)) add("int[m] out7", array("out7", Elem::Int, {{m}}, false));
    // a constant extent, and nests over it: translation decides guards and
    // block counts from constants, engines may specialise on them
    if (options_.constantCounts && extras_.chance(30)) {
        std::int64_t size = extras_.pick(std::vector<std::int64_t>{1, 7, 64, 300, 1024, 4096});
        constantCountValue_ = size;
        constantCount_ = std::to_string(size);
        // now and then a module constant computed from another one
        if (extras_.chance(40) && options_.moduleConstants) {
            std::string half = fresh("kHalf");
            constantCount_ = fresh("kCount");
            moduleConstants_ += "const int " + half + " = " + std::to_string(size / 2) + ";\n";
            moduleConstants_ += "const int " + constantCount_ + " = " + half + " * 2 + " + std::to_string(size % 2) + ";\n";
            moduleConstantNames_.insert(moduleConstantNames_.end(), {half, constantCount_});
        }
        add("float[" + constantCount_ + "] out8", array("out8", Elem::Float, {{Extent{constantCount_, size, false}}}, false));
    }
    // bytes: inputs with values up to 255, and an output that stores ints modulo 256
    auto bytes = [&](const std::string& name, bool isConst) {
        Array a = array(name, Elem::Int, {{n}}, isConst);
        a.isByte = true;
        a.arbitraryInts = false;
        add(std::string(isConst ? "const " : "") + "byte[n] " + name, a);
    };
    if (options_.bytes && extras_.chance(30)) bytes("in9", true);
    if (options_.bytes && extras_.chance(30)) bytes("out9", false);
    // doubles: an input and an output whose elements are doubles
    auto doubles = [&](const std::string& name, bool isConst) {
        Array a = array(name, Elem::Float, {{n}}, isConst);
        a.isDouble = true;
        add(std::string(isConst ? "const " : "") + "double[n] " + name, a);
    };
    if (options_.doubleArrays && doubles_.chance(30)) doubles("in10", true);
    if (options_.doubleArrays && doubles_.chance(30)) doubles("out10", false);
}

// The arrays a nest writes: some of the writable ones that a unit of the
// nest (at any of its levels) owns an element of, a float one (for the
// sink) among them; none when the nest owns no float.
std::vector<std::string> Generator::chooseWritten(const std::vector<std::vector<IndexVar>>& levels) {
    std::vector<std::string> ownable;
    for (const auto& a : arrays_) {
        if (a.isConst || a.storage == Storage::Local || a.storage == Storage::Private || a.viewGroup >= 0) continue;
        for (const auto& indices : levels)
            if (!indices.empty() && ownIndex(a, indices, nullptr, true)) {
                ownable.push_back(a.name);
                break;
            }
    }
    std::vector<std::string> floats;
    for (const auto& name : ownable)
        if (findArray(name)->elem != Elem::Int) floats.push_back(name);
    if (floats.empty()) return {};
    std::vector<std::string> written{random_.pick(floats)};
    for (const auto& name : ownable)
        if (name != written.front() && random_.chance(50)) written.push_back(name);
    return written;
}

void Generator::genTopItem(int depth) {
    if (depth > 0 && random_.chance(25)) {
        // time steps: a sequential loop around foreach nests
        std::string step = fresh("step");
        std::int64_t steps = 2;
        open("for (int " + step + " = 0; " + step + " < " + std::to_string(steps) + "; " + step + "++)");
        pushScope();
        addScalar(step, Elem::Int, {0, steps - 1}, 0, false);
        int nests = random_.between(1, 2);
        bool savedInTimeSteps = inTimeSteps_;
        inTimeSteps_ = true;
        for (int k = 0; k < nests; ++k) genTopItem(depth - 1);
        inTimeSteps_ = savedInTimeSteps;
        popScope();
        close();
        return;
    }
    if (level_ == Level::Gpu && !histograms_.empty() && extras_.chance(30))
        genLocalHistogramNest(anyHistogram());
    else if (level_ == Level::Perfect)
        genPerfectNest();
    else
        genGpuNest();
}

// perfect: a foreach over n (or m), or a perfect nest over n x m (the
// translation takes nothing beside an inner foreach).
void Generator::genPerfectNest() {
    bool twoD = mayNestOverNM() && random_.chance(60) && !chooseWritten({{{"i", "n"}, {"j", "m"}}}).empty();
    if (twoD) ++nrNestsOverNM_;
    std::string count = !twoD && !constantCount_.empty() && extras_.chance(40) ? constantCount_ : "n";
    std::vector<IndexVar> indices{{fresh("i"), count}};
    if (twoD) indices.push_back({fresh("j"), "m"});
    auto written = chooseWritten({indices});
    writtenInNest_ = std::set<std::string>(written.begin(), written.end());
    writtenNow_.clear();
    ownWritten_.clear();
    // An imperfect nest: each outer unit declares values its inner units
    // read (translation runs the inner units one after another). They
    // return no unit early: translation refuses that in such a nest.
    bool imperfect = twoD && options_.imperfectNests && extras_.chance(35);
    std::vector<std::size_t> outerValues;
    for (const auto& index : indices) {
        open("foreach (int " + index.name + " in " + index.count + " threads)");
        pushScope();
        addScalar(index.name, Elem::Int, {0, countMax(index.count) - 1}, 0, false);
        if (imperfect && outerValues.empty()) {
            ownIndices_ = {indices.front()};
            for (int k = random_.between(1, 2); k > 0; --k) {
                bool isInt = extras_.chance(50);
                Value v = isInt ? genInt(1) : genFloat(1);
                std::string name = fresh(isInt ? "v" : "f");
                line(std::string(isInt ? "int " : "float ") + name + " = " + v.text + ";");
                addScalar(name, isInt ? Elem::Int : Elem::Float, v.range, v.bound, false);
                outerValues.push_back(scalars_.size() - 1);
            }
        }
    }
    ++foreachDepth_;
    beginSink(Elem::Float);
    for (std::size_t k : outerValues) {
        const Scalar& v = scalars_[k];
        std::string term = v.elem == Elem::Int ? "toFloat(min(max(" + v.name + ", -1000), 1000))" : "min(max(" + v.name + ", -10000.0), 10000.0)";
        addToSink(term);
    }
    ownIndices_ = indices;
    allowSizeLoops_ = !twoD;
    // n x m units: less work each, so that the interpreter runs a program at
    // n = m = 100 in well under a second
    if (twoD) genStatements(random_.between(1, 3), 1);
    else genStatements(random_.between(2, 5), 2);
    finishWrites(1);
    if (options_.unitReturns && !imperfect && extras_.chance(25)) genUnitReturn(1);
    --foreachDepth_;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        popScope();
        close();
    }
    sink_.clear();
    ownIndices_.clear();
    for (const auto& name : writtenInNest_) {
        Array* a = findArray(name);
        if (a && ownWritten_.count(name)) a->initialized = true;
    }
    writtenInNest_.clear();
    ownWritten_.clear();
}

// gpu: blocks of threads over the index space, `local` arrays shared by
// a block, the global index guarded by the extent.
void Generator::genGpuNest() {
    // shapes over n x m only where the nest owns a float of that shape
    int shape = mayNestOverNM() && !chooseWritten({{{"i", "n"}, {"j", "m"}}}).empty() ? random_.below(3) : 0;
    if (shape != 0) ++nrNestsOverNM_;
    std::vector<IndexVar> globals;          // what the guarded region owns
    std::vector<GlobalIndex> computed;      // one per thread dimension, innermost last
    std::vector<IndexVar> threads;
    std::vector<std::string> localExtents;
    std::string threadsName;  // the innermost dimension's thread count
    std::int64_t warpMultiple = 0;  // a 1D block's thread count when a multiple of 32
    if (shape == 0) {
        std::int64_t t = random_.pick(std::vector<std::int64_t>{16, 32, 64, 128, 256});
        if (t % 32 == 0) warpMultiple = t;
        std::string count = !constantCount_.empty() && extras_.chance(40) ? constantCount_ : "n";
        threadsName = intConstant("nrThreads", t);
        std::string b = fresh("b"), th = fresh("t"), i = fresh("i");
        open("foreach (int " + b + " in divide_up(" + count + ", " + threadsName + ") blocks)");
        pushScope();
        addScalar(b, Elem::Int, {0, kMaxSize - 1}, 0, false);
        threads = {{th, threadsName}};
        blockIndices_ = {b};
        computed = {{i, b + " * " + threadsName + " + "}};
        globals = {{i, count}};
        localExtents = {threadsName};
    } else if (shape == 1) {
        std::int64_t t = random_.pick(std::vector<std::int64_t>{16, 32, 64});
        if (t % 32 == 0) warpMultiple = t;
        threadsName = intConstant("nrThreads", t);
        std::string bi = fresh("bi"), bj = fresh("bj"), th = fresh("t"), j = fresh("j");
        open("foreach (int " + bi + " in n blocks)");
        pushScope();
        addScalar(bi, Elem::Int, {0, kMaxSize - 1}, 0, false);
        open("foreach (int " + bj + " in divide_up(m, " + threadsName + ") blocks)");
        pushScope();
        addScalar(bj, Elem::Int, {0, kMaxSize - 1}, 0, false);
        threads = {{th, threadsName}};
        blockIndices_ = {bi, bj};
        computed = {{j, bj + " * " + threadsName + " + "}};
        globals = {{bi, "n"}, {j, "m"}};
        localExtents = {threadsName};
    } else {
        std::int64_t ty = random_.pick(std::vector<std::int64_t>{2, 4, 8}), tx = random_.pick(std::vector<std::int64_t>{8, 16, 32});
        std::string threadsY = intConstant("nrThreadsY", ty);
        threadsName = intConstant("nrThreads", tx);
        std::string bi = fresh("bi"), bj = fresh("bj"), ti = fresh("ti"), tj = fresh("tj"), i = fresh("i"), j = fresh("j");
        open("foreach (int " + bi + " in divide_up(n, " + threadsY + ") blocks)");
        pushScope();
        addScalar(bi, Elem::Int, {0, kMaxSize - 1}, 0, false);
        open("foreach (int " + bj + " in divide_up(m, " + threadsName + ") blocks)");
        pushScope();
        addScalar(bj, Elem::Int, {0, kMaxSize - 1}, 0, false);
        threads = {{ti, threadsY}, {tj, threadsName}};
        blockIndices_ = {bi, bj};
        computed = {{i, bi + " * " + threadsY + " + "}, {j, bj + " * " + threadsName + " + "}};
        globals = {{i, "n"}, {j, "m"}};
        localExtents = {threadsY, threadsName};
    }
    ++foreachDepth_;
    auto written = chooseWritten({globals});
    writtenInNest_ = std::set<std::string>(written.begin(), written.end());
    writtenNow_.clear();
    ownWritten_.clear();
    nestCovered_.clear();
    // local arrays of the block, one slot per thread
    int nrLocals = random_.between(1, 2);
    for (int k = 0; k < nrLocals; ++k) {
        // now and then records in local memory (their fields padded as in C)
        Elem elem = useRecords_ && extras_.chance(25) ? Elem::Record : random_.chance(70) ? Elem::Float : Elem::Int;
        std::string name = fresh("l");
        std::vector<Extent> extents;
        std::string dims;
        for (const auto& e : localExtents) {
            const Scalar* s = nullptr;
            for (const auto& candidate : scalars_)
                if (candidate.name == e) s = &candidate;
            extents.push_back(Extent{e, s ? s->range.lo : 1, false});
            dims += (dims.empty() ? "" : ", ") + e;
        }
        Array a{name, elem, {extents}, Storage::Local, false, false, false, foreachDepth_, -1, kFloatLimit};
        a.isDouble = elem == Elem::Float && options_.doubleArrays && doubles_.chance(20);
        line("local " + elementType(a) + "[" + dims + "] " + name + ";");
        arrays_.push_back(a);
    }
    // Translation to a leaf guards the threads a warp adds beyond the
    // block's count statement by statement, and cannot guard a call whose
    // function reaches a barrier: such calls only in blocks of whole warps.
    if (options_.barrierFunctions && warpMultiple > 0 && extras_.chance(40)) {
        exchangeArray_ = fresh("x");
        exchangeLength_ = threadsName;
        exchangeSlot_ = threads.front().name;
        line("local float[" + threadsName + "] " + exchangeArray_ + ";");
    }
    localWrittenInPhase_.clear();
    localReadInPhase_.clear();
    genThreadLoop(threads, computed, globals, false);
    // A sibling thread loop in the same block; a 2-D nest's now and then
    // one loop over its threads (a nest shallower than the first: grid
    // backends align the two).
    bool sibling = random_.chance(20);
    bool flat = shape == 2 && options_.siblingDepths && (sibling ? extras_.chance(50) : extras_.chance(40));
    if (sibling || flat) {
        std::vector<IndexVar> siblingThreads;
        std::vector<GlobalIndex> siblingComputed;
        std::vector<IndexVar> siblingGlobals;
        for (const auto& t : threads) siblingThreads.push_back({fresh("t"), t.count});
        // Now and then fewer threads in one dimension: each the same element
        // as the nest's thread of its indices, the rest of the block idle
        // (grid backends guard the items past the shorter count, and
        // translation the units of its last warp). It writes only part of
        // the nest's elements, so what it writes is not covered by it.
        bool shorter = !flat && options_.shorterSiblings && extras_.chance(40);
        if (shorter) {
            IndexVar& shortened = siblingThreads[extras_.below(static_cast<int>(siblingThreads.size()))];
            std::int64_t units = extras_.between(1, static_cast<int>(scalarMax(shortened.count)) - 1);
            shortened.count = intConstant("nrShorter", units);
            exchangeArray_.clear();  // a call reaching a barrier cannot be guarded
        }
        for (const auto& c : computed) siblingComputed.push_back({fresh("g"), c.prefix});
        for (const auto& g : globals) {
            std::string name = g.name;
            for (std::size_t k = 0; k < computed.size(); ++k)
                if (computed[k].name == g.name) name = siblingComputed[k].name;
            siblingGlobals.push_back({name, g.count});
        }
        exchangeSlot_ = siblingThreads.front().name;
        std::string flatCount;
        if (flat) {
            flatCount = fresh("nrFlat");
            std::int64_t units = 1;
            std::string product;
            for (const auto& t : threads) {
                units *= scalarMax(t.count);
                product += (product.empty() ? "" : " * ") + t.count;
            }
            line("const int " + flatCount + " = " + product + ";");
            addScalar(flatCount, Elem::Int, {units, units}, 0, false);
        }
        auto covered = nestCovered_;
        genThreadLoop(siblingThreads, siblingComputed, siblingGlobals, true, flatCount);
        if (shorter) nestCovered_ = covered;
    }
    exchangeArray_.clear();
    --foreachDepth_;
    int blockLoops = shape == 0 ? 1 : 2;
    for (int k = 0; k < blockLoops; ++k) {
        popScope();
        close();
    }
    for (const auto& name : writtenInNest_) {
        Array* a = findArray(name);
        if (a && (ownWritten_.count(name) || nestCovered_.count(name))) a->initialized = true;
    }
    writtenInNest_.clear();
    ownWritten_.clear();
}

// gpu: one thread loop of a block (or its sibling): the global indices,
// the fill of the local arrays, statements and phases where every thread
// reaches each barrier, then the region guarded by the extents that writes
// the nest's results.
// With `flatCount`, one foreach over that many threads stands for the nest
// of `threads`, whose indices it computes row-major from its own.
void Generator::genThreadLoop(const std::vector<IndexVar>& threads, const std::vector<GlobalIndex>& computed,
                              const std::vector<IndexVar>& globals, bool sibling, const std::string& flatCount) {
    std::size_t loops = flatCount.empty() ? threads.size() : 1;
    if (!flatCount.empty()) {
        std::string flat = fresh("tf");
        open("foreach (int " + flat + " in " + flatCount + " threads)");
        pushScope();
        addScalar(flat, Elem::Int, {0, scalarMax(flatCount) - 1}, 0, false);
        std::string inner;  // the product of the counts of the dimensions inside the current one
        for (std::size_t k = threads.size(); k-- > 0;) {
            std::string index = inner.empty() ? flat : flat + " / (" + inner + ")";
            if (k > 0) index = "(" + index + ") % " + threads[k].count;
            line("int " + threads[k].name + " = " + index + ";");
            addScalar(threads[k].name, Elem::Int, {0, scalarMax(threads[k].count) - 1}, 0, false);
            inner += (inner.empty() ? "" : " * ") + threads[k].count;
        }
    }
    for (std::size_t k = 0; k < threads.size() && flatCount.empty(); ++k) {
        const IndexVar& t = threads[k];
        open("foreach (int " + t.name + " in " + t.count + " threads)");
        pushScope();
        addScalar(t.name, Elem::Int, {0, scalarMax(t.count) - 1}, 0, false);
    }
    ++foreachDepth_;
    beginSink(Elem::Float);
    inThreads_ = true;
    uniform_ = true;
    conditional_ = false;
    allowSizeLoops_ = false;
    threadIndices_ = threads;
    auto savedOwn = ownWritten_;
    if (sibling) {
        // The threads wait for each other between a block's loops, so the
        // sibling now and then reads the local arrays across threads at once
        // (and writes its own slots only after a barrier); else it writes
        // its slots first and reads only its own until a barrier.
        bool readAcross = options_.phaseReads && extras_.chance(50);
        for (const auto& a : arrays_)
            if (a.storage == Storage::Local) (readAcross ? localReadInPhase_ : localWrittenInPhase_).insert(a.name);
    }
    // the global index of the k-th computed dimension comes from the thread
    // index of the same position counted from the innermost
    for (std::size_t k = 0; k < computed.size(); ++k) {
        const std::string& thread = threads[threads.size() - computed.size() + k].name;
        line("int " + computed[k].name + ";");
        line(computed[k].name + " = " + computed[k].prefix + thread + ";");
        std::int64_t most = kMaxSize;
        for (const auto& g : globals)
            if (g.name == computed[k].name) most = countMax(g.count);
        addScalar(computed[k].name, Elem::Int, {0, most + 256}, 0, false);
    }
    // fill the local arrays (an array nothing refers to draws a warning),
    // make them visible to the block, use them
    for (const auto& a : std::vector<Array>(arrays_))
        if (a.storage == Storage::Local) {
            ownWritten_.erase(a.name);
            if (!localReadInPhase_.count(a.name)) {
                auto index = ownIndex(a, threadIndices_, nullptr);
                if (!index) continue;
                localWrittenInPhase_.insert(a.name);
                std::string slot = indexText(a, *index);
                if (a.elem == Elem::Record) {
                    writeRecord(slot, 2);
                } else if (auto element = options_.copyFills && extras_.chance(40) ? copiedElement(a.elem) : std::nullopt) {
                    copyFills_ = true;
                    if (extras_.chance(50)) {
                        line(slot + " = " + *element + ";");
                    } else {
                        open("if (" + genCondition(1) + ")");
                        line(slot + " = " + *element + ";");
                        close();
                        open("else");
                        line(slot + (a.elem == Elem::Float ? " = 0.0;" : " = 0;"));
                        close();
                    }
                } else {
                    Value v = a.elem == Elem::Float ? clampFloat(genFloat(2), kFloatLimit) : clampInt(genInt(2), kIntLimit);
                    line(slot + " = " + v.text + ";");
                }
                findArray(a.name)->initialized = true;
                ownWritten_.insert(a.name);
            }
        }
    if (!localWrittenInPhase_.empty() && random_.chance(85)) {
        // work the copies may overlap, until the barrier waits for them
        if (copyFills_ && extras_.chance(60)) genUniformItems(1, 1);
        copyFills_ = false;
        genBarrier();
    }
    copyFills_ = false;
    if (!exchangeArray_.empty()) genExchange(1);  // its local array must be used
    // n x m threads in lock-step: little work each, so that the interpreter
    // runs a program at n = m = 100 in about a second
    genUniformItems(random_.between(1, 3), 1);
    // the guarded region that writes the nest's results
    std::string guard;
    for (std::size_t k = 0; k < globals.size(); ++k) {
        bool isComputed = false;
        for (const auto& c : computed) isComputed = isComputed || c.name == globals[k].name;
        if (!isComputed) continue;
        guard += (guard.empty() ? "" : " && ") + globals[k].name + " < " + globals[k].count;
    }
    open("if (" + guard + ")");
    pushScope();
    conditional_ = false; // the guard covers every element
    uniform_ = false;
    ownIndices_ = globals;
    genStatements(random_.between(1, 3), 1);
    finishWrites(1);
    // a thread that returns here reaches no barrier after it: none follows
    bool unitReturn = options_.unitReturns && extras_.chance(20);
    if (unitReturn) genUnitReturn(1);
    ownIndices_.clear();
    nestCovered_.insert(ownWritten_.begin(), ownWritten_.end());
    popScope();
    close();
    uniform_ = true;
    if (!unitReturn && random_.chance(30)) genUniformItems(random_.between(1, 2), 0);
    for (std::size_t k = 0; k < loops; ++k) {
        popScope();
        close();
    }
    sink_.clear();
    --foreachDepth_;
    inThreads_ = false;
    threadIndices_.clear();
    blockIndices_.clear();
    ownWritten_ = savedOwn;
}

// gpu thread body at a point every thread of the block reaches: ordinary
// statements, slot writes to local arrays, barriers, and `for` loops with
// barriers inside.
void Generator::genUniformItems(int count, int depth) {
    for (int k = 0; k < count; ++k) {
        int kind = random_.below(10);
        if (kind < 4) genStatement(depth);
        else if (kind < 6) {
            if (!genLocalWrite(depth, true)) genStatement(depth);
        } else if (kind < 8) {
            if (!exchangeArray_.empty() && inThreads_ && uniform_ && extras_.chance(30)) genExchange(depth);
            else if (!localWrittenInPhase_.empty() || !localReadInPhase_.empty()) genBarrier();
        } else if (depth > 0) {
            if (options_.uniformIfs && extras_.chance(35)) genUniformIf(depth);
            else genFor(depth, true);
        }
    }
}

// gpu: an if on a condition every thread of a block agrees on (a block
// index or a size), with barriers inside; each branch is entered and left
// with no pending local accesses, as a uniform loop's body is. Its writes
// are conditional: they initialise nothing that later reads rely on.
void Generator::genUniformIf(int depth) {
    if (blockIndices_.empty()) {
        genFor(depth, true);
        return;
    }
    std::string block = extras_.pick(blockIndices_);
    std::string condition;
    switch (extras_.below(3)) {
    case 0: condition = block + " % 2 == " + std::to_string(extras_.below(2)); break;
    case 1: condition = block + " < " + std::to_string(extras_.between(1, 3)); break;
    default: condition = "n > " + std::to_string(extras_.between(1, 60)); break;
    }
    if (!localWrittenInPhase_.empty() || !localReadInPhase_.empty()) genBarrier();
    bool savedConditional = conditional_;
    conditional_ = true;
    auto savedOwn = ownWritten_;
    auto branch = [&] {
        pushScope();
        genUniformItems(random_.between(1, 2), depth - 1);
        if (!localWrittenInPhase_.empty() || !localReadInPhase_.empty()) genBarrier();
        popScope();
    };
    open("if (" + condition + ")");
    branch();
    if (extras_.chance(40)) {
        openElse();
        branch();
    }
    close();
    ownWritten_ = savedOwn;
    conditional_ = savedConditional;
}

// gpu, where every thread of the block is: a float that the thread `shift`
// slots on computed, through exchangeValue (whose barriers end the phase of
// every local array), now and then inside a larger expression.
void Generator::genExchange(int depth) {
    Value mine = clampFloat(genFloat(depth + 1), kFloatLimit);
    std::string call = "exchangeValue(" + exchangeLength_ + ", " + exchangeArray_ + ", " + exchangeSlot_ + ", " +
                       std::to_string(extras_.between(1, 5)) + ", " + mine.text + ")";
    double bound = mine.bound;
    // A backend may read `other` after the call's barriers: the local
    // arrays it reads belong to the phase the call begins.
    std::set<std::string> readByOther;
    if (extras_.chance(40)) {
        Value other = floatLeaf();
        for (const auto& a : arrays_)
            if (a.storage == Storage::Local && mentions(other.text, a.name)) readByOther.insert(a.name);
        call = other.text + " + " + call;
        bound += other.bound;
    }
    std::string name = fresh("v");
    line("float " + name + ";");
    line(name + " = " + call + ";");
    Scalar& v = addScalar(name, Elem::Float, {0, 0}, bound, false);
    v.needsUse = true;
    localWrittenInPhase_.clear();
    localReadInPhase_ = readByOther;
    exchangeCalled_ = true;
}

void Generator::genKernelBody() {
    // kernel-level scratch arrays: filled by one nest before others read them
    int scratch = random_.between(0, 2);
    for (int k = 0; k < scratch; ++k) {
        Elem elem = random_.chance(70) ? Elem::Float : Elem::Int;
        std::string name = fresh("s");
        std::string space = level_ == Level::Perfect ? "main " : "dev ";
        if (random_.chance(50)) space.clear();
        bool twoD = useM_ && random_.chance(40);
        std::vector<Extent> extents{Extent{"n", 1, false}};
        if (twoD) extents.push_back(Extent{"m", 1, false});
        Array a{name, elem, {extents}, Storage::Scratch, false, false, false, 0, -1, kFloatLimit};
        a.isDouble = elem == Elem::Float && options_.doubleArrays && doubles_.chance(20);
        line(space + elementType(a) + (twoD ? "[n, m] " : "[n] ") + name + ";");
        arrays_.push_back(a);
    }
    for (const Histogram& h : histograms_) genHistogramZeroing(h);
    int items = random_.between(1, 3);
    for (int k = 0; k < items; ++k) genTopItem(1);
    for (Histogram& h : histograms_)
        if (!h.updated) genHistogramCount(h);
    genUseOfEveryParameter();
    if (options_.writeOnlyOutputs && extras_.chance(40)) genWriteOnlyOutput();
    if (options_.mathFunctions && math_.chance(35)) genMathOutput();
    if (options_.stridedSums && strided_.chance(30)) genStridedSums();
}

// A last output that only its own nest writes and nothing reads. Whether
// the nest writes every element decides whether host glue copies the
// output to the device first (backends/WriteCoverage.h), so the nest is
// now a form that analysis proves (blocks of threads and a guard, a
// for loop of constant trips between, one thread of a block, an index
// declared and assigned apart, both branches of an if/else, each column of
// a constant extent written by a store of its own, rows of three written as
// one run by quotient and remainder), now a near miss that
// leaves elements as the caller had them (too few blocks, a tighter guard,
// a thread no block has, an else that writes nothing, a column left out,
// too few units for the run).
// Every element it writes, it writes in bounds, each from one unit.
void Generator::genWriteOnlyOutput() {
    bool twoD = useM_ && extras_.chance(30);
    bool columns = !twoD && extras_.chance(25);
    bool nearMiss = extras_.chance(35);
    bool branches = extras_.chance(30);
    std::int64_t skippedColumn = nearMiss ? extras_.below(3) : -1;
    std::string name = fresh("only");
    parameterTexts_.push_back("float[" + std::string(twoD ? "n, m" : columns ? "n, 3" : "n") + "] " + name);
    if (columns && extras_.chance(40)) {
        // Rows of three as one run of 3 * n floats, each unit writing the
        // element `[row + e / 3, e % 3]` of its place e in the run (too few
        // units: near miss).
        std::string e = fresh("e");
        if (level_ == Level::Perfect) {
            open("foreach (int " + e + " in n * " + (nearMiss ? "2" : "3") + " threads)");
            line(name + "[" + e + " / 3, " + e + " % 3] = in0[" + e + " / 3] * 0.5 + toFloat(" + e + " % 3);");
            close();
            return;
        }
        std::string threads = std::to_string(extras_.pick(std::vector<std::int64_t>{32, 64, 128}));
        std::string b = fresh("b"), t = fresh("t"), r = fresh("r"), row = fresh("row");
        open("foreach (int " + b + " in divide_up(n, " + threads + ") blocks)");
        open("foreach (int " + t + " in " + threads + " threads)");
        open("for (int " + r + " = 0; " + r + " < " + (nearMiss ? "2" : "3") + "; " + r + "++)");
        line("int " + e + " = " + r + " * " + threads + " + " + t + ";");
        line("int " + row + " = " + b + " * " + threads + " + " + e + " / 3;");
        open("if (" + row + " < n)");
        line(name + "[" + row + ", " + e + " % 3] = in0[" + row + "] * 0.5 + toFloat(" + e + " % 3);");
        for (int k = 0; k < 4; ++k) close();
        return;
    }
    auto stores = [&](const std::string& i, const std::string& j, const std::string& scale) {
        if (!columns) {
            line(name + "[" + i + (twoD ? ", " + j : "") + "] = in0[" + i + "] * " + scale +
                 (twoD ? " + toFloat(" + j + ")" : "") + ";");
            return;
        }
        for (std::int64_t c : {2, 0, 1})
            if (c != skippedColumn)
                line(name + "[" + i + ", " + std::to_string(c) + "] = in0[" + i + "] * " + scale + " + " +
                     std::to_string(c) + ".0;");
    };
    // On a condition of the data: the else-branch writes the same elements,
    // or (near miss) nothing.
    auto store = [&](const std::string& i, const std::string& j) {
        if (!branches) {
            stores(i, j, "0.5");
            return;
        }
        open("if (in0[" + i + "] > 0.0)");
        stores(i, j, "0.5");
        openElse();
        if (!nearMiss || extras_.chance(50)) stores(i, j, "0.25");
        close();
    };
    // The index from its parts: declared with its value, declared and then
    // assigned, or the expression itself where it is used.
    auto index = [&](const std::string& value) {
        int style = extras_.between(0, 2);
        if (style == 2) return parenthesized(value);
        std::string i = fresh("w");
        if (style == 0) {
            line("int " + i + " = " + value + ";");
        } else {
            line("int " + i + ";");
            line(i + " = " + value + ";");
        }
        return i;
    };
    int closes = 0;
    if (level_ == Level::Perfect) {
        std::string i = fresh("i"), j = fresh("j");
        open("foreach (int " + i + " in n threads)");
        ++closes;
        if (twoD) {
            open("foreach (int " + j + " in m threads)");
            ++closes;
        }
        if (nearMiss) {
            open("if (" + (twoD && extras_.chance(50) ? j + " < m - 1" : i + " > 0") + ")");
            ++closes;
        }
        store(i, j);
    } else if (twoD) {
        std::string bi = fresh("b"), bj = fresh("b"), ti = fresh("t"), tj = fresh("t");
        open("foreach (int " + bi + " in divide_up(n, 8) blocks)");
        open("foreach (int " + bj + " in divide_up(m, 32) blocks)");
        open("foreach (int " + ti + " in 8 threads)");
        open("foreach (int " + tj + " in 32 threads)");
        closes = 4;
        std::string i = index(bi + " * 8 + " + ti), j = index(bj + " * 32 + " + tj);
        open("if (" + i + " < n && " + j + (nearMiss ? " < m - 1)" : " < m)"));
        ++closes;
        store(i, j);
    } else if (extras_.chance(25)) {
        // one thread of each block writes the block's element
        std::int64_t threads = extras_.pick(std::vector<std::int64_t>{32, 64, 128});
        std::int64_t writer = nearMiss ? threads : extras_.below(static_cast<int>(threads));
        std::string i = fresh("i"), t = fresh("t");
        open("foreach (int " + i + " in n blocks)");
        open("foreach (int " + t + " in " + std::to_string(threads) + " threads)");
        open("if (" + t + " == " + std::to_string(writer) + ")");
        closes = 3;
        store(i, "");
    } else {
        std::int64_t threads = extras_.pick(std::vector<std::int64_t>{32, 64, 128});
        std::int64_t rounds = extras_.pick(std::vector<std::int64_t>{1, 2, 4});
        std::int64_t chunk = threads * rounds;
        // too few blocks: each covers only its first half of the chunk's
        std::int64_t blocks = nearMiss && extras_.chance(50) ? 2 * chunk : chunk;
        bool tighter = nearMiss && blocks == chunk;
        std::string b = fresh("b"), t = fresh("t"), r = fresh("r");
        open("foreach (int " + b + " in divide_up(n, " + std::to_string(blocks) + ") blocks)");
        open("foreach (int " + t + " in " + std::to_string(threads) + " threads)");
        closes = 2;
        std::string value = b + " * " + std::to_string(chunk) + " + " + t;
        if (rounds > 1) {
            open("for (int " + r + " = 0; " + r + " < " + std::to_string(rounds) + "; " + r + "++)");
            ++closes;
            value = b + " * " + std::to_string(chunk) + " + " + r + " * " + std::to_string(threads) + " + " + t;
        }
        std::string i = index(value);
        open("if (" + (tighter ? i + " < n - 1" : extras_.chance(50) ? i + " < n" : "n > " + i) + ")");
        ++closes;
        store(i, "");
    }
    for (int k = 0; k < closes; ++k) close();
}

// A last output of lib.math's rounded functions (exp, log, sin, tanh, erf,
// the native_ forms, ...), a column each, which only its own nest writes and
// nothing reads: each engine rounds them its own way (within a few ulps;
// OpenCL allows erf 16), so their values go nowhere else, where a sum could
// cancel the agreement that verify's relative tolerance (1e-4) asks for.
// Each argument is exact in every engine (an input element times a power of
// two, fabs, an add of a constant to an exact product) and clamped into a
// domain where the function is well conditioned and far from overflow, for
// inputs of any magnitude.
void Generator::genMathOutput() {
    struct MathForm {
        const char* function;
        const char* argument; // X (once): the unit's element of in0, Y (at most once): another element
    };
    static const std::vector<MathForm> forms{
        {"exp", "fmin(fmax(X * 8.0, -20.0), 20.0)"},    {"exp2", "fmin(fmax(X * 16.0, -30.0), 30.0)"},
        {"log", "fabs(X) * 64.0 + 0.5"},                {"log2", "fabs(X) * 1024.0 + 0.125"},
        {"sqrt", "fabs(X) * 4.0"},                      {"rsqrt", "fabs(X) * 4.0 + 0.25"},
        {"sin", "fmin(fmax(X * 256.0, -300.0), 300.0)"}, {"cos", "fmin(fmax(X * 4.0, -8.0), 8.0)"},
        {"tan", "fmin(fmax(X * 2.0, -1.5), 1.5)"},      {"tanh", "fmin(fmax(X * 8.0, -20.0), 20.0)"},
        {"erf", "fmin(fmax(X * 4.0, -6.0), 6.0)"},      {"native_exp", "fmin(fmax(X * 4.0, -10.0), 10.0)"},
        {"native_log", "fabs(X) * 64.0 + 0.5"},         {"native_recip", "fabs(X) * 4.0 + 0.25"},
        {"native_divide", "X, fabs(Y) * 2.0 + 1.0"}};
    mathCalled_ = true;
    int columns = math_.between(1, 4);
    std::string name = fresh("math");
    parameterTexts_.push_back("float[n, " + std::to_string(columns) + "] " + name);
    auto call = [&](const std::string& i) {
        const MathForm& form = math_.pick(forms);
        std::string argument = form.argument;
        auto replace = [&](const std::string& from, const std::string& to) {
            if (std::size_t at = argument.find(from); at != std::string::npos) argument.replace(at, from.size(), to);
        };
        replace("X", "in0[" + i + "]");
        replace("Y", "in0[n - 1 - " + i + "]");
        return std::string(form.function) + "(" + argument + ")";
    };
    // A column is now and then two calls on a condition of the input (exact:
    // every engine takes the same branch), so that vector code calls the
    // functions for some lanes only.
    auto stores = [&](const std::string& i) {
        for (int c = 0; c < columns; ++c) {
            std::string element = name + "[" + i + ", " + std::to_string(c) + "]";
            if (!math_.chance(30)) {
                line(element + " = " + call(i) + ";");
                continue;
            }
            open("if (in0[" + i + "] > 0.0)");
            line(element + " = " + call(i) + ";");
            openElse();
            line(element + " = " + call(i) + ";");
            close();
        }
    };
    std::string i = fresh("i");
    if (level_ == Level::Perfect) {
        open("foreach (int " + i + " in n threads)");
        stores(i);
        close();
        return;
    }
    std::string threads = std::to_string(math_.pick(std::vector<std::int64_t>{32, 64, 256}));
    std::string b = fresh("b"), t = fresh("t");
    open("foreach (int " + b + " in divide_up(n, " + threads + ") blocks)");
    open("foreach (int " + t + " in " + threads + " threads)");
    line("int " + i + " = " + b + " * " + threads + " + " + t + ";");
    open("if (" + i + " < n)");
    stores(i);
    for (int k = 0; k < 3; ++k) close();
}

// A last output of partial sums, each thread's over the elements of in0 it
// reaches striding by its block's thread count T, GPU style (gesummv_gpu):
// `for (k < divide_up(n, T)) { j = k * T + t; if (j < n) s += in0[j] ...; }`,
// the trip count in the header or a variable. Every engine adds in the same
// order, and a product is by 0.5 (exact: fused or not, the same sum).
void Generator::genStridedSums() {
    std::int64_t rows = strided_.between(1, 3);
    std::string threads = std::to_string(strided_.pick(std::vector<std::int64_t>{32, 64, 256}));
    std::string name = fresh("strided");
    parameterTexts_.push_back("float[" + std::to_string(rows) + ", " + threads + "] " + name);
    std::string b = fresh("b"), t = fresh("t"), sum = fresh("s"), k = fresh("k"), j = fresh("j");
    std::string trips = strided_.chance(50) ? "divide_up(n, " + threads + ")" : "(n + " + threads + " - 1) / " + threads;
    open("foreach (int " + b + " in " + std::to_string(rows) + (level_ == Level::Gpu ? " blocks)" : " threads)"));
    open("foreach (int " + t + " in " + threads + " threads)");
    line("float " + sum + " = 0.0;");
    if (strided_.chance(40)) {
        std::string steps = fresh("steps");
        line("int " + steps + " = " + trips + ";");
        trips = steps;
    }
    open("for (int " + k + " = 0; " + k + " < " + trips + "; " + k + "++)");
    line("int " + j + " = " + k + " * " + threads + " + " + t + ";");
    open("if (" + j + " < n)");
    line(sum + " += in0[" + j + "] + toFloat(" + b + ");");
    if (strided_.chance(50)) line(sum + " -= in0[n - 1 - " + j + "] * 0.5;");
    close();
    close();
    line(name + "[" + b + ", " + t + "] = " + sum + ";");
    close();
    close();
}

// A last nest that reads every parameter the kernel has not used yet into
// out0, so that no parameter is unused (an unused one is legal, but a
// backend's warning about it would hide everything else).
void Generator::genUseOfEveryParameter() {
    std::vector<std::string> terms;
    std::string index = fresh("i");
    pushScope();
    addScalar(index, Elem::Int, {0, kMaxSize - 1}, 0, false);
    if (useM_ && !mentions(body_, "m")) terms.push_back("toFloat(m)");
    for (auto& a : std::vector<Array>(arrays_)) {
        // out0 is written here: read only at this unit's element, below
        if (a.storage != Storage::Parameter || a.name == "out0" || mentions(body_, a.name)) continue;
        std::string element = indexText(a, anyIndices(a));
        if (a.elem == Elem::Record) terms.push_back(element + (recordArrays_ ? ".v[1]" : ".x"));
        else if (a.elem == Elem::Int) terms.push_back("toFloat(min(max(" + element + ", -1000), 1000))");
        else terms.push_back(element);
    }
    popScope();
    if (terms.empty() && mentions(body_, "out0")) return;
    std::string sum = "out0[" + index + "]";
    for (const auto& term : terms) sum += " + " + term;
    int closes = openUnitsOver("n", index, "64");
    line("out0[" + index + "] = min(max(" + sum + ", -10000.0), 10000.0);");
    for (int k = 0; k < closes; ++k) close();
}

std::string Generator::run() {
    int nrHistograms = options_.atomics && extras_.chance(35) ? extras_.between(1, 2) : 0;
    useM_ = random_.chance(60);
    useRecords_ = random_.chance(30);
    std::string hwd = level_ == Level::Perfect ? "perfect" : "gpu";
    std::string header;
    header += "// Generated by mcl-gen-program --seed " + std::to_string(seed_) + " --level " + hwd + ".\n";
    header += "// Well-defined for sizes n, m in [1, 1024], float inputs of magnitude at\n";
    header += "// most 1000 and any int inputs (tests/difftest/ProgramGenerator.cpp).\n";
    header += "module difftest" + std::to_string(seed_) + ";\n";
    header += "export compute;\n";
    header += "import " + hwd + ";\n";
    if (nrHistograms > 0) header += "import lib.atomics;\n";
    std::size_t importsEnd = header.size();
    header += "\n";
    recordArrays_ = useRecords_ && options_.recordArrays && extras_.chance(50);
    if (useRecords_)
        header += recordArrays_ ? "type R {\n    float x;\n    int y;\n    byte b;\n    float[2] v;\n    float[2] w;\n}\n\n"
                                : "type R {\n    float x;\n    int y;\n}\n\n";
    if (random_.chance(30)) {
        std::int64_t c = random_.between(2, 9);
        moduleConstants_ += "const int kScale = " + std::to_string(c) + ";\n";
        moduleConstantNames_.push_back("kScale");
        addScalar("kScale", Elem::Int, {c, c}, 0, false);
    }
    genFunctions();
    std::string functions = body_;
    body_.clear();
    addScalar("n", Elem::Int, {1, kMaxSize}, 0, false);
    if (useM_) addScalar("m", Elem::Int, {1, kMaxSize}, 0, false);
    genParameters();
    // sizes around the 4096 ints up to which the llvm engine counts a
    // histogram in a copy per range of units, and one past it
    for (int k = 0; k < nrHistograms; ++k) {
        std::int64_t size = extras_.pick(std::vector<std::int64_t>{1, 3, 16, 256, 4096, 5000});
        histograms_.push_back(Histogram{fresh("hist"), size});
        parameterTexts_.push_back("int[" + std::to_string(size) + "] " + histograms_.back().name);
    }
    indent_ = 1;
    genKernelBody();
    std::string signature = hwd + " void compute(int n";
    if (useM_) signature += ", int m";
    for (const auto& p : parameterTexts_) signature += ",\n        " + p;
    signature += ")";
    if (exchangeCalled_)
        functions += "// the value of the thread `shift` slots on in its block\n"
                     "gpu float exchangeValue(const int len, local float[len] x, const int slot, const int shift,\n"
                     "                        const float mine) {\n"
                     "    x[slot] = mine;\n"
                     "    barrier(local);\n"
                     "    float other = x[(slot + shift) % len];\n"
                     "    barrier(local);\n"
                     "    return other;\n"
                     "}\n\n";
    if (mathCalled_) header.insert(importsEnd, "import lib.math;\n");
    if (!moduleConstants_.empty()) header += moduleConstants_ + "\n";
    std::string kernels = signature + " {\n" + body_ + "}\n";
    // A kernel that calls the generated one with its own parameters, named
    // differently: the callee's sizes, extents and arrays become the
    // caller's. Parameters with `as` views are passed reshaped, which the
    // grid backends refuse, so such kernels are left as they are. Now and
    // then a parameter takes the name of a module constant that no
    // parameter's type names: inlined, the callee's references to it must
    // keep meaning the module's. (A parameter named like a function or
    // record the callee refers to keeps the call a call, which the grid
    // backends, the llvm engine with barriers in the callee and the hls
    // backend with device arrays in it refuse: fewer engines to compare.)
    bool hasViews = std::any_of(parameterTexts_.begin(), parameterTexts_.end(),
                                [](const std::string& p) { return p.find(" as ") != std::string::npos; });
    if (options_.kernelCalls && !hasViews && extras_.chance(30)) {
        std::vector<std::string> hideable;
        for (const std::string& name : moduleConstantNames_)
            if (std::none_of(parameterTexts_.begin(), parameterTexts_.end(),
                             [&](const std::string& p) { return findWord(p, name) != std::string::npos; }))
                hideable.push_back(name);
        auto callerName = [&](const std::string& stem) {
            if (hideable.empty() || !extras_.chance(25)) return fresh(stem);
            std::string name = extras_.pick(hideable);
            hideable.erase(std::find(hideable.begin(), hideable.end(), name));
            return name;
        };
        std::vector<std::pair<std::string, std::string>> renamed{{"n", callerName("rows")}};
        if (useM_) renamed.emplace_back("m", callerName("cols"));
        for (const auto& p : parameterTexts_) renamed.emplace_back(p.substr(p.rfind(' ') + 1), callerName("arg"));
        std::string callee = fresh("computeBody");
        std::string caller = hwd + " void compute(int " + renamed[0].second;
        if (useM_) caller += ", int " + renamed[1].second;
        std::string arguments;
        for (std::size_t k = 0; k < renamed.size(); ++k) arguments += (k > 0 ? ", " : "") + renamed[k].second;
        for (const auto& p : parameterTexts_) {
            std::string text = p;
            for (const auto& [from, to] : renamed) text = replaceWord(text, from, to);
            caller += ",\n        " + text;
        }
        caller += ") {\n    " + callee + "(" + arguments + ");\n}\n";
        kernels = replaceWord(signature, "compute", callee) + " {\n" + body_ + "}\n\n" + caller;
    }
    return header + functions + kernels;
}

} // namespace

std::string generateProgram(const GeneratorOptions& options) {
    Generator generator(options);
    return generator.run();
}

} // namespace difftest
