// GraphGenerator: see GraphGenerator.h for what a generated graph covers
// and why it is well defined.
#include "GraphGenerator.h"

#include "Random.h"

#include <algorithm>
#include <set>
#include <vector>

namespace difftest {

namespace {

enum class Elem { Float, Double, Int, Byte, Bool };

const char* spelling(Elem e) {
    switch (e) {
    case Elem::Float: return "float";
    case Elem::Double: return "double";
    case Elem::Int: return "int";
    case Elem::Byte: return "byte";
    case Elem::Bool: return "bool";
    }
    return "float";
}

bool isReal(Elem e) { return e == Elem::Float || e == Elem::Double; }
bool isInteger(Elem e) { return e == Elem::Int || e == Elem::Byte; }

// The extents of an item: [1], [n] or [n, m] (n and m the graph's constants).
enum class Shape { One, N, NM };

const char* extents(Shape shape) { return shape == Shape::One ? "[1]" : shape == Shape::N ? "[n]" : "[n, m]"; }

struct Interval {
    int lo = 0, hi = 0;
};

// One component of a tag function over a step's tag components (k, j): a
// constant, or one of -k, 2 * k, k / 2 (C's division, toward zero) or k,
// plus an offset.
struct TagComponent {
    enum class Form { Plain, Negated, Doubled, Halved };
    bool constant = false;
    int value = 0;  // the constant
    Form form = Form::Plain;
    int source = 0, offset = 0;

    // the values over `box`: every form is monotone, so its ends map to the ends
    Interval image(const std::vector<Interval>& box) const {
        if (constant) return {value, value};
        const Interval& b = box[static_cast<std::size_t>(source)];
        int lo = at(b.lo) + offset, hi = at(b.hi) + offset;
        return {std::min(lo, hi), std::max(lo, hi)};
    }

    int at(int k) const {
        switch (form) {
        case Form::Plain: return k;
        case Form::Negated: return -k;
        case Form::Doubled: return 2 * k;
        case Form::Halved: return k / 2;
        }
        return k;
    }
};

const char* const kComponentNames[] = {"k", "j"};

std::string tagText(const std::vector<TagComponent>& tag) {
    std::string text;
    for (const auto& c : tag) {
        if (!text.empty()) text += ", ";
        if (c.constant) {
            text += std::to_string(c.value);
            continue;
        }
        std::string k = kComponentNames[c.source];
        using Form = TagComponent::Form;
        text += c.form == Form::Negated ? "-" + k : c.form == Form::Doubled ? "2 * " + k
              : c.form == Form::Halved  ? k + " / 2"
                                        : k;
        if (c.offset > 0) text += " + " + std::to_string(c.offset);
        if (c.offset < 0) text += " - " + std::to_string(-c.offset);
    }
    return text;
}

std::string rangeText(const Interval& r) { return "{" + std::to_string(r.lo) + " .. " + std::to_string(r.hi) + "}"; }

std::string boxText(const std::vector<Interval>& box) {
    std::string text;
    for (const auto& r : box) text += (text.empty() ? "" : ", ") + rangeText(r);
    return text;
}

struct Collection {
    std::string name;
    Elem elem = Elem::Float;
    Shape shape = Shape::N;
    std::vector<Interval> domain;  // the tags its items are put at (a box)
    bool exact = true;             // every engine holds the same bits (ints, or reals the environment put)
    bool fromEnvironment = false;
    bool got = false;  // by a step

    std::string type() const { return std::string(spelling(elem)) + extents(shape); }
};

struct TagCollection {
    std::string name;
    std::vector<Interval> box;
};

// A kernel parameter bound to an item: got (const), put, or got and put
// (updated in place).
struct Parameter {
    std::string name;
    int got = -1;  // the collection got, an index into the graph's items (-1: put only)
    std::vector<TagComponent> tag;  // of the get
    bool named = false;             // [name = item : tag]
    bool inPlace = false;
    Elem elem = Elem::Float;
    Shape shape = Shape::N;
    bool exact = true;
};

struct Step {
    std::string name;
    std::size_t tags = 0;             // its tag collection
    std::vector<Parameter> gets;      // an in-place one is written too
    std::vector<Parameter> puts;      // new items, put at putTag (an in-place one among them)
    std::vector<std::string> putItems;
    std::vector<TagComponent> putTag;
    bool usesN = false, usesM = false, usesW = false;
    std::vector<bool> usesComponent;
    std::set<std::string> read;  // the parameters the body reads (mclc check wants every get read)
    std::string body;

    bool unread(const Parameter& p) const { return read.count(p.name) == 0; }
};

class Generator {
public:
    explicit Generator(std::uint64_t seed) : random_(seed) {}

    GeneratedGraph run() {
        n_ = random_.between(1, 5);
        m_ = random_.chance(40) ? random_.between(1, 4) : 0;
        withW_ = random_.chance(50);
        int sources = random_.between(1, 3);
        for (int s = 0; s < sources; ++s) addSource();
        int steps = random_.between(1, 5);
        for (int s = 0; s < steps; ++s) addStep(s);
        return {graphText(), moduleText()};
    }

private:
    template <class T>
    std::size_t anyOf(const std::vector<T>& v) {
        return static_cast<std::size_t>(random_.below(static_cast<int>(v.size())));
    }

    Elem randomElem() {
        int r = random_.below(100);
        return r < 40 ? Elem::Float : r < 55 ? Elem::Double : r < 75 ? Elem::Int : r < 88 ? Elem::Byte : Elem::Bool;
    }

    Shape randomShape() {
        int r = random_.below(100);
        return r < 20 ? Shape::One : r < 70 || m_ == 0 ? Shape::N : Shape::NM;
    }

    Interval randomInterval() {
        int lo = random_.between(-2, 2);
        return {lo, lo + random_.between(0, 3)};
    }

    // A name no item has yet: now and then a word the generated C++ holds as
    // its own or as a keyword.
    std::string itemName(const std::string& suffix = "") {
        static const std::vector<std::string> words = {"class", "graph", "runtime", "environment", "data", "tags"};
        std::string name = random_.chance(15) ? random_.pick(words) : "x" + std::to_string(names_.size());
        name += suffix;
        while (names_.count(name) > 0) name += "_";
        names_.insert(name);
        return name;
    }

    void addSource() {
        Collection c;
        c.name = itemName();
        c.elem = randomElem();
        c.shape = randomShape();
        int dims = random_.between(1, 2);
        for (int d = 0; d < dims; ++d) c.domain.push_back(randomInterval());
        c.fromEnvironment = true;
        items_.push_back(c);
    }

    // A tag function from `box` into `c`'s domain: each component a form of
    // a component of the box with an offset that fits, else a constant inside
    // the domain.
    std::vector<TagComponent> fitInto(const Collection& c, const std::vector<Interval>& box) {
        using Form = TagComponent::Form;
        std::vector<TagComponent> tag;
        for (const Interval& want : c.domain) {
            TagComponent t;
            if (!random_.chance(15)) {
                t.source = static_cast<int>(anyOf(box));
                int r = random_.below(100);
                t.form = r < 65 ? Form::Plain : r < 80 ? Form::Negated : r < 90 ? Form::Halved : Form::Doubled;
                Interval image = t.image(box);  // at offset 0
                Interval offsets{want.lo - image.lo, want.hi - image.hi};
                if (offsets.lo <= offsets.hi) {
                    t.offset = random_.between(offsets.lo, offsets.hi);
                    tag.push_back(t);
                    continue;
                }
            }
            t = TagComponent{};
            t.constant = true;
            t.value = random_.between(want.lo, want.hi);
            tag.push_back(t);
        }
        return tag;
    }

    // The tags of a new tag collection whose steps get `primary`: its domain
    // (or part of it), shifted, components maybe swapped.
    std::vector<Interval> boxFor(const Collection& primary, int dims) {
        std::vector<Interval> box;
        for (std::size_t d = 0; d < static_cast<std::size_t>(dims); ++d) {
            if (d >= primary.domain.size()) {
                box.push_back(randomInterval());
                continue;
            }
            Interval r = primary.domain[d];
            if (r.hi > r.lo && random_.chance(30)) ++r.lo;
            int shift = random_.between(-1, 1);
            box.push_back({r.lo + shift, r.hi + shift});
        }
        if (dims == 2 && random_.chance(30)) std::swap(box[0], box[1]);
        return box;
    }

    void addStep(int index) {
        Step step;
        step.name = "s" + std::to_string(index);
        if (!tagCollections_.empty() && random_.chance(30)) {
            step.tags = anyOf(tagCollections_);  // prescribing several steps
        } else {
            TagCollection t;
            t.name = "t" + std::to_string(tagCollections_.size());
            t.box = boxFor(items_[anyOf(items_)], random_.between(1, 2));
            tagCollections_.push_back(t);
            step.tags = tagCollections_.size() - 1;
        }
        const std::vector<Interval> box = tagCollections_[step.tags].box;
        step.usesComponent.assign(box.size(), false);

        int gets = random_.between(1, 3);
        for (int g = 0; g < gets; ++g) {
            std::size_t got = anyOf(items_);
            Collection& c = items_[got];
            c.got = true;
            Parameter p;
            p.got = static_cast<int>(got);
            p.tag = fitInto(c, box);
            p.elem = c.elem;
            p.shape = c.shape;
            p.exact = c.exact;
            bool gotBefore = std::any_of(step.gets.begin(), step.gets.end(),
                                         [&](const Parameter& other) { return other.got == p.got; });
            p.named = gotBefore || random_.chance(40);
            p.name = p.named ? "a" + std::to_string(g) : c.name;
            step.gets.push_back(p);
        }

        // the put tag: the step's components in some order, each maybe negated, shifted
        std::vector<int> order;
        for (std::size_t d = 0; d < box.size(); ++d) order.push_back(static_cast<int>(d));
        if (order.size() == 2 && random_.chance(30)) std::swap(order[0], order[1]);
        for (int source : order) {
            TagComponent t;
            t.source = source;
            t.form = random_.chance(80) ? TagComponent::Form::Plain : TagComponent::Form::Negated;  // one to one
            t.offset = random_.between(-2, 2);
            step.putTag.push_back(t);
        }
        std::vector<Interval> domain;
        for (const auto& t : step.putTag) domain.push_back(t.image(box));

        // now and then a named get (not of bools) is updated in place and put
        for (auto& g : step.gets)
            if (g.named && g.elem != Elem::Bool && random_.chance(30)) {
                g.inPlace = true;
                break;
            }
        bool inPlace = std::any_of(step.gets.begin(), step.gets.end(), [](const Parameter& g) { return g.inPlace; });
        int puts = inPlace ? 1 : random_.chance(25) ? 2 : 1;
        std::vector<Collection> made;
        for (int o = 0; o < puts; ++o) {
            Collection c;
            c.name = itemName();
            c.domain = domain;
            Parameter p;
            if (inPlace) {
                p = *std::find_if(step.gets.begin(), step.gets.end(), [](const Parameter& g) { return g.inPlace; });
                c.elem = p.elem;
                c.shape = p.shape;
                step.body += updateBody(step, p);
                c.exact = !isReal(c.elem);
            } else {
                c.elem = randomElem();
                c.shape = randomShape();
                p.name = c.name;
                p.elem = c.elem;
                p.shape = c.shape;
                bool exact = true;
                step.body += writeBody(step, p, exact);
                c.exact = !isReal(c.elem) || exact;
            }
            step.puts.push_back(p);
            step.putItems.push_back(c.name);
            made.push_back(c);
        }
        // a get the outputs did not read feeds one more output, a real (which
        // reads every kind, bools through its condition)
        if (std::any_of(step.gets.begin(), step.gets.end(), [&](const Parameter& g) { return step.unread(g); })) {
            Collection c;
            c.name = itemName("_r");
            c.elem = random_.chance(50) ? Elem::Float : Elem::Double;
            c.domain = domain;
            Parameter p;
            p.name = c.name;
            p.elem = c.elem;
            bool exact = true;
            step.body += writeBody(step, p, exact);
            c.exact = exact;
            step.puts.push_back(p);
            step.putItems.push_back(c.name);
            made.push_back(c);
        }
        for (auto& c : made) items_.push_back(c);
        steps_.push_back(step);
    }

    // A read of `p` in a loop over `loop`'s extents (thread i, and h in [n, m]).
    std::string read(Step& step, const Parameter& p, Shape loop) {
        step.read.insert(p.name);
        if (p.shape == Shape::One) return p.name + "[0]";
        if (p.inPlace) return p.name + element(p.shape, loop);  // its own element: other threads write the rest
        step.usesN = true;
        if (p.shape == Shape::N) {
            static const std::vector<std::string> one = {"[i]", "[n - 1]"}, more = {"[i]", "[n - 1 - i]", "[(i + 1) % n]"};
            return p.name + random_.pick(loop == Shape::One ? one : more);
        }
        step.usesM = true;
        static const std::vector<std::string> one = {"[i, m - 1]", "[n - 1, i]"};
        static const std::vector<std::string> rows = {"[i, 0]", "[i, m - 1]", "[n - 1 - i, (i + 1) % m]"};
        static const std::vector<std::string> all = {"[i, h]", "[n - 1 - i, h]", "[i, m - 1 - h]"};
        return p.name + random_.pick(loop == Shape::One ? one : loop == Shape::N ? rows : all);
    }

    // The element of an item of `shape` that thread i (and h) of a loop over `loop` writes.
    static std::string element(Shape shape, Shape loop) {
        if (shape == Shape::NM) return loop == Shape::NM ? "[i, h]" : "[i, 0]";
        return "[i]";
    }

    std::string component(Step& step) {
        std::size_t c = anyOf(step.usesComponent);
        step.usesComponent[c] = true;
        return kComponentNames[c];
    }

    // A value of element type `want` from the step's inputs (other kinds
    // converted), tag components and constants: small and finite; `exact`
    // says whether every engine computes the same bits.
    std::string value(Step& step, Elem want, Shape loop, bool& exact) {
        std::vector<const Parameter*> numeric;
        for (const auto& g : step.gets)
            if (g.elem != Elem::Bool && !g.inPlace) numeric.push_back(&g);
        std::vector<std::string> terms;
        if (want == Elem::Bool) {
            exact = true;
            return condition(step, loop);
        }
        if (isReal(want)) {
            std::string convert = want == Elem::Float ? "toFloat" : "toDouble";
            for (const Parameter* p : numeric) {
                if (!step.unread(*p) && !random_.chance(70)) continue;
                std::string r = read(step, *p, loop);
                if (p->elem != want) r = convert + "(" + r + ")";
                static const std::vector<std::string> factors = {"", "0.5 * ", "0.25 * ", "-0.5 * "};
                terms.push_back(random_.pick(factors) + r);
            }
            // a square of an input the environment put (|x| <= 1)
            for (const Parameter* p : numeric)
                if (isReal(p->elem) && p->exact && random_.chance(20)) {
                    std::string r = read(step, *p, loop);
                    if (p->elem != want) r = convert + "(" + r + ")";
                    terms.push_back(r + " * " + r);
                    break;
                }
            if (random_.chance(30)) terms.push_back(convert + "(" + component(step) + ")");
            if (withW_ && random_.chance(30)) {
                step.usesW = true;
                terms.push_back(want == Elem::Float ? "w" : "toDouble(w)");
            }
            exact = terms.empty();
            if (terms.empty()) terms.push_back("0.25");
        } else {
            exact = true;
            for (const Parameter* p : numeric)
                if (isInteger(p->elem) && (step.unread(*p) || random_.chance(70)))
                    terms.push_back(read(step, *p, loop));
            if (random_.chance(40)) terms.push_back(component(step));
            if (terms.empty() || random_.chance(30)) terms.push_back(std::to_string(random_.between(0, 9)));
        }
        std::string text;
        for (const auto& t : terms) text += (text.empty() ? "" : random_.chance(70) ? " + " : " - ") + t;
        return text;
    }

    // A condition every engine decides alike: on ints, bools and exact
    // reals; on every bool the step has not read yet, where there are such.
    std::string condition(Step& step, Shape loop) {
        std::vector<std::string> unreadBools;
        for (const auto& g : step.gets)
            if (g.elem == Elem::Bool && step.unread(g)) {
                std::string r = read(step, g, loop);
                unreadBools.push_back(random_.chance(50) ? r : "!" + r);
            }
        if (!unreadBools.empty()) {
            std::string text;
            for (const auto& b : unreadBools) text += (text.empty() ? "" : " && ") + b;
            return text;
        }
        std::vector<const Parameter*> exactInputs;
        for (const auto& g : step.gets)
            if (g.exact && !g.inPlace) exactInputs.push_back(&g);
        if (exactInputs.empty()) return component(step) + " > " + std::to_string(random_.between(-2, 2));
        const Parameter* p = exactInputs[anyOf(exactInputs)];
        std::string r = read(step, *p, loop);
        if (p->elem == Elem::Bool) return random_.chance(50) ? r : "!" + r;
        if (isReal(p->elem)) return r + (random_.chance(50) ? " > 0.0" : " < 0.25");
        return r + " > " + std::to_string(random_.between(0, 4));
    }

    // The loop over the elements of `shape` (threads i, and h within them),
    // its body indented by `indent`.
    struct Loop {
        std::string open, indent, close;
    };
    static Loop loopOver(Shape shape) {
        if (shape == Shape::One) return {"    foreach (int i in 1 threads) {\n", "        ", "    }\n"};
        if (shape == Shape::N) return {"    foreach (int i in n threads) {\n", "        ", "    }\n"};
        return {"    foreach (int i in n threads) {\n        foreach (int h in m threads) {\n", "            ",
                "        }\n    }\n"};
    }

    void usesExtents(Step& step, Shape shape) {
        step.usesN = step.usesN || shape != Shape::One;
        step.usesM = step.usesM || shape == Shape::NM;
    }

    // Every element of output `p` written (under an if and its else now and then).
    std::string writeBody(Step& step, const Parameter& p, bool& exact) {
        usesExtents(step, p.shape);
        Loop loop = loopOver(p.shape);
        std::string target = p.name + element(p.shape, p.shape) + " = ";
        std::string text = loop.open;
        if (p.elem != Elem::Bool && (unreadBool(step) || random_.chance(30))) {
            bool exactThen = true, exactElse = true;
            text += loop.indent + "if (" + condition(step, p.shape) + ") {\n";
            text += loop.indent + "    " + target + value(step, p.elem, p.shape, exactThen) + ";\n";
            text += loop.indent + "} else {\n";
            text += loop.indent + "    " + target + value(step, p.elem, p.shape, exactElse) + ";\n";
            text += loop.indent + "}\n";
            exact = exactThen && exactElse;
        } else {
            text += loop.indent + target + value(step, p.elem, p.shape, exact) + ";\n";
        }
        return text + loop.close;
    }

    // An item updated in place: its first element (of each row, for [n, m]),
    // or every element; under a condition now and then.
    std::string updateBody(Step& step, const Parameter& p) {
        Shape over = p.shape == Shape::One || random_.chance(40) ? Shape::One : p.shape;
        usesExtents(step, over);
        Loop loop = loopOver(over);
        bool exact = true;
        std::string own = p.name + element(p.shape, over);
        std::string update = own + " = " + own + " + " + value(step, p.elem, over, exact) + ";\n";
        std::string text = loop.open;
        if (unreadBool(step) || random_.chance(20))  // the elements it does not hold keep the item got
            text += loop.indent + "if (" + condition(step, over) + ") {\n" + loop.indent + "    " + update +
                    loop.indent + "}\n";
        else
            text += loop.indent + update;
        return text + loop.close;
    }

    static bool unreadBool(const Step& step) {
        return std::any_of(step.gets.begin(), step.gets.end(),
                           [&](const Parameter& g) { return g.elem == Elem::Bool && step.unread(g); });
    }

    // The environment: every tag collection over its box (now and then in two
    // overlapping pieces), the sources over their domains (now and then as two
    // targets), and gets of every item no step gets, of some others, and
    // now and then of a source.
    std::string environmentText() {
        std::vector<std::string> puts, gets;
        for (const auto& t : tagCollections_)
            for (const auto& piece : pieces(t.box, true)) puts.push_back("<" + t.name + " : " + boxText(piece) + ">");
        for (const auto& c : items_) {
            if (c.fromEnvironment)
                for (const auto& piece : pieces(c.domain, false))
                    puts.push_back("[" + c.name + " : " + boxText(piece) + "]");
            bool wanted = c.fromEnvironment ? random_.chance(20) : !c.got || random_.chance(40);
            if (!wanted) continue;
            std::vector<Interval> part = c.domain;
            if (c.got || c.fromEnvironment)
                for (auto& r : part)
                    if (r.hi > r.lo && random_.chance(50)) ++r.lo;
            for (const auto& piece : pieces(part, false)) gets.push_back("[" + c.name + " : " + boxText(piece) + "]");
        }
        return "env -> " + joined(puts) + ";\nenv <- " + joined(gets) + ";\n";
    }

    // `box` whole, or now and then split along its first component into two
    // pieces, adjacent or (where `overlapping` may) sharing a tag.
    std::vector<std::vector<Interval>> pieces(const std::vector<Interval>& box, bool overlapping) {
        if (box[0].hi == box[0].lo || !random_.chance(30)) return {box};
        int cut = random_.between(box[0].lo, box[0].hi - 1);
        std::vector<Interval> first = box, second = box;
        first[0].hi = cut;
        second[0].lo = overlapping && random_.chance(50) ? cut : cut + 1;
        return {first, second};
    }

    static std::string joined(const std::vector<std::string>& parts) {
        std::string text;
        for (const auto& p : parts) text += (text.empty() ? "" : ", ") + p;
        return text;
    }

    std::string graphText() {
        std::string out = "// generated by mcl-gen-graph\nimport steps;\n|n " + std::to_string(n_) + "|;\n";
        if (m_ > 0) out += "|m " + std::to_string(m_) + "|;\n";
        if (withW_) out += "|w -0.75|;\n";
        for (const auto& c : items_) out += "[" + c.type() + " " + c.name + "];\n";
        for (const auto& t : tagCollections_) out += "<int [" + std::to_string(t.box.size()) + "] " + t.name + ">;\n";
        for (const auto& s : steps_) out += "(" + s.name + ");\n";
        for (const auto& s : steps_) out += "<" + tagCollections_[s.tags].name + "> :: (" + s.name + ");\n";
        for (const auto& s : steps_) {
            std::vector<std::string> gets, puts;
            for (const auto& g : s.gets)
                gets.push_back("[" + (g.named ? g.name + " = " : "") + items_[static_cast<std::size_t>(g.got)].name +
                               " : " + tagText(g.tag) + "]");
            for (std::size_t o = 0; o < s.puts.size(); ++o) {
                bool named = s.puts[o].name != s.putItems[o];
                puts.push_back("[" + (named ? s.puts[o].name + " = " : "") + s.putItems[o] + " : " +
                               tagText(s.putTag) + "]");
            }
            std::vector<TagComponent> own(s.usesComponent.size());
            for (std::size_t d = 0; d < own.size(); ++d) own[d].source = static_cast<int>(d);
            out += joined(gets) + " -> (" + s.name + " : " + tagText(own) + ") -> " + joined(puts) + ";\n";
        }
        return out + environmentText();
    }

    std::string moduleText() const {
        std::string out = "// generated by mcl-gen-graph: the steps of graph.cnc\nmodule steps;\nexport ";
        std::vector<std::string> names;
        for (const auto& s : steps_) names.push_back(s.name);
        out += joined(names) + ";\nimport perfect;\n";
        for (const auto& s : steps_) {
            std::vector<std::string> parameters;
            auto shaped = [&](Shape shape) {
                auto is = [&](const Parameter& p) { return p.shape == shape; };
                return std::any_of(s.puts.begin(), s.puts.end(), is) || std::any_of(s.gets.begin(), s.gets.end(), is);
            };
            if (s.usesN || shaped(Shape::N) || shaped(Shape::NM)) parameters.push_back("int n");
            if (s.usesM || shaped(Shape::NM)) parameters.push_back("int m");
            for (std::size_t d = 0; d < s.usesComponent.size(); ++d)
                if (s.usesComponent[d]) parameters.push_back(std::string("int ") + kComponentNames[d]);
            if (s.usesW) parameters.push_back("float w");
            auto declare = [](const Parameter& p, bool written) {
                return std::string(written ? "" : "const ") + spelling(p.elem) + extents(p.shape) + " " + p.name;
            };
            for (const auto& p : s.puts)
                if (!p.inPlace) parameters.push_back(declare(p, true));
            for (const auto& g : s.gets) parameters.push_back(declare(g, g.inPlace));
            out += "\nperfect void " + s.name + "(" + joined(parameters) + ") {\n" + s.body + "}\n";
        }
        return out;
    }

    Random random_;
    int n_ = 1, m_ = 0;  // m_ = 0: no constant m, no items of [n, m]
    bool withW_ = false;
    std::vector<Collection> items_;
    std::set<std::string> names_;  // of the items
    std::vector<TagCollection> tagCollections_;
    std::vector<Step> steps_;
};

}  // namespace

GeneratedGraph generateGraph(std::uint64_t seed) { return Generator(seed).run(); }

}  // namespace difftest
