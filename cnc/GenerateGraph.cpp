#include "cnc/GenerateGraph.h"

#include <set>

#include <fmt/format.h>

namespace mcl::cnc {

namespace {

const char* element_spelling(const std::string& element) {
    if (element == "byte") return "unsigned char";
    return element == "int" ? "int" : element == "double" ? "double" : element == "bool" ? "bool" : "float";
}

class Generator {
public:
    Generator(const Graph& g, const CheckedGraph& checked, const GraphCode& code, DiagnosticEngine& diags)
        : g_(g), checked_(checked), code_(code), diags_(diags) {}

    std::vector<backends::GeneratedFile> run() {
        size_t errors = diags_.error_count();
        for (const CheckedStep& s : checked_.steps) check_step(s);
        if (diags_.error_count() != errors) return {};
        return {{code_.name + ".h", header()}, {code_.name + ".cpp", source()}};
    }

private:
    // Identifiers of generated code, apart from every C++ and runtime name.
    static std::string constant(const std::string& n) { return "c_" + n; }
    static std::string item(const std::string& n) { return "item_" + n; }
    static std::string component(const std::string& n) { return "k_" + n; }

    void check_step(const CheckedStep& s) {
        std::map<std::string, int> uses;
        for (const Relation* r : s.relations) {
            for (const ItemInstance& i : r->gets) ++uses[i.name];
            for (const ItemInstance& i : r->puts) ++uses[i.name];
        }
        for (const auto& [name, count] : uses)
            if (count > 1)
                diags_.error(s.step->location,
                             fmt::format("step '{}' uses item collection '{}' {} times: the generator binds one item to "
                                         "each array parameter",
                                         s.step->name, name, count));
    }

    // A tag function or a bound as C++ over the components and constants.
    std::string expr(const Expr& e) const {
        switch (e.kind) {
        case Expr::Kind::Int: return fmt::format("{}LL", e.value);
        case Expr::Kind::Name:
            return checked_.int_constants.count(e.name) && !components_.count(e.name) ? constant(e.name)
                                                                                      : component(e.name);
        case Expr::Kind::Negate: return "(-" + expr(*e.operands[0]) + ")";
        case Expr::Kind::Binary:
            return "(" + expr(*e.operands[0]) + " " + std::string(1, e.op) + " " + expr(*e.operands[1]) + ")";
        }
        return "0";
    }

    std::string tag(const ItemInstance& i) const {
        std::vector<std::string> parts;
        for (const ExprPtr& e : i.tag) parts.push_back(expr(*e));
        return fmt::format("{{{}}}", fmt::join(parts, ", "));
    }

    const ItemCollection& item_of(const std::string& name) const {
        for (const ItemCollection& i : g_.items)
            if (i.name == name) return i;
        throw std::logic_error("checked graph without item " + name);
    }

    long long elements(const ItemCollection& i) const {
        long long n = 1;
        for (const ExprPtr& e : i.extents) n *= value(*e);
        return n;
    }

    long long value(const Expr& e) const {
        switch (e.kind) {
        case Expr::Kind::Int: return e.value;
        case Expr::Kind::Name: return checked_.int_constants.at(e.name);
        case Expr::Kind::Negate: return -value(*e.operands[0]);
        case Expr::Kind::Binary: {
            long long a = value(*e.operands[0]), b = value(*e.operands[1]);
            return e.op == '+' ? a + b : e.op == '-' ? a - b : e.op == '*' ? a * b : a / b;
        }
        }
        return 0;
    }

    // The environment's items of `target` in order: nested loops over its
    // ranges, `body` inside with `mcl_index` counting them.
    std::string range_loops(const EnvTarget& target, const std::string& body, const std::string& pad) const {
        std::string out = pad + "{\n" + pad + "    [[maybe_unused]] size_t mcl_index = 0;\n";
        std::string inner = pad + "    ";
        std::vector<std::string> names;
        for (size_t d = 0; d < target.ranges.size(); ++d) {
            std::string n = fmt::format("mcl_t{}", d);
            names.push_back(n);
            out += fmt::format("{}for (long long {} = {}; {} <= {}; ++{})\n", inner, n, value(*target.ranges[d].low), n,
                               value(*target.ranges[d].high), n);
            inner += "    ";
        }
        std::string tag = fmt::format("{{{}}}", fmt::join(names, ", "));
        std::string text = body;
        for (size_t at = text.find("TAG"); at != std::string::npos; at = text.find("TAG", at + tag.size()))
            text.replace(at, 3, tag);
        out += inner + "{\n" + inner + "    " + text + "\n" + inner + "    ++mcl_index;\n" + inner + "}\n";
        return out + pad + "}\n";
    }

    std::string header() const {
        std::string out = fmt::format(
            "// {}.h: the Concurrent Collections graph '{}' on the MCL runtime, generated by `mclc gen --graph`.\n"
            "// Do not edit: regenerate it.\n#pragma once\n\n#include \"mcl_cnc.h\"\n\nnamespace {} {{\n\n"
            "// What the environment puts and gets: per item collection its items one after another, in the "
            "order of\n// the tags of the range (the last component fastest), each row-major. Every rank passes "
            "the puts;\n// rank 0 receives the gets.\nstruct Environment {{\n",
            code_.name, code_.name, code_.name);
        std::set<std::string> done;
        for (const auto* list : {&g_.env_puts, &g_.env_gets})
            for (const EnvTarget& t : *list) {
                if (t.is_tag || !done.insert(t.name).second) continue;
                const ItemCollection& i = item_of(t.name);
                bool put = list == &g_.env_puts;
                out += fmt::format("    {}{}* {} = nullptr;  // {} [{}], {} values each\n", put ? "const " : "",
                                   element_spelling(i.element), t.name, put ? "puts" : "gets", t.name, elements(i));
            }
        out += "};\n\n// Runs the graph: every step instance its tags prescribe, as runtime tasks, ordered by their "
               "items.\n// Throws mcl::Error when an instance gets an item nothing puts or instances wait for each "
               "other.\nvoid run(mcl::rt::Runtime& runtime, const Environment& environment);\n\n}  // namespace " +
               code_.name + "\n";
        return out;
    }

    // The item an array parameter gets, at the tag of the relation that
    // names it (with that relation's names for the tag's components).
    std::string item_argument(const CheckedStep& s, const std::string& name) {
        for (const Relation* r : s.relations)
            for (const auto* list : {&r->gets, &r->puts})
                for (const ItemInstance& i : *list) {
                    if (i.name != name) continue;
                    std::string binding;
                    for (size_t c = 0; c < r->step.components.size(); ++c)
                        binding += fmt::format("const long long {} = mcl_tag[{}]; ", component(r->step.components[c]), c);
                    components_.clear();
                    components_.insert(r->step.components.begin(), r->step.components.end());
                    return fmt::format("[&]() -> auto& {{ {}return {}.at({}); }}()", binding, item(i.name), tag(i));
                }
        throw std::logic_error("checked step without item " + name);
    }

    std::string step_code(const CheckedStep& s) {
        std::string out = fmt::format("    size_t step_{} = graph.add_step({{\"{}\",\n", s.step->name, s.step->name);
        auto lambda = [&](const std::function<std::string(const Relation&)>& body) {
            std::string text = "        [&](const mcl::rt::cnc::Tag& mcl_tag) {\n";
            text += "            std::vector<mcl::rt::cnc::ItemUse> mcl_uses;\n";
            for (const Relation* r : s.relations) text += body(*r);
            return text + "            return mcl_uses;\n        },\n";
        };
        auto bind = [&](const Relation& r) {
            components_.clear();
            std::string text;
            for (size_t c = 0; c < r.step.components.size(); ++c) {
                components_.insert(r.step.components[c]);
                text += fmt::format("            [[maybe_unused]] const long long {} = mcl_tag[{}];\n",
                                    component(r.step.components[c]), c);
            }
            return text;
        };
        auto uses = [&](const std::vector<ItemInstance> Relation::*list) {
            return lambda([&](const Relation& r) {
                std::string text = "            {\n" + bind(r);
                for (const ItemInstance& i : r.*list)
                    text += fmt::format("            mcl_uses.push_back({{&{}, {}}});\n", item(i.name), tag(i));
                return text + "            }\n";
            });
        };
        out += uses(&Relation::gets) + uses(&Relation::puts);
        // The submit: each parameter from its binding, items at the tags of
        // the relation that names them.
        out += "        [&]([[maybe_unused]] const mcl::rt::cnc::Tag& mcl_tag) {\n";
        std::vector<std::string> args = {"runtime"};
        for (size_t p = 0; p < s.kernel->params.size(); ++p) {
            const Binding& b = s.bindings[p];
            if (b.kind == Binding::Kind::Constant) {
                args.push_back(constant(b.name));
            } else if (b.kind == Binding::Kind::Component) {
                args.push_back(fmt::format("static_cast<int>(mcl_tag[{}])", b.component));
            } else {
                args.push_back(item_argument(s, b.name));
            }
        }
        args.push_back(s.prescription && !s.prescription->affinity.empty() ? "affinity_" + s.step->name
                                                                              : "mcl::rt::SubmitOptions{}");
        out += fmt::format("            {}::{}({});\n        }}}});\n", code_.codelets_namespace,
                           code_.submit_function(s.kernel->name), fmt::join(args, ",\n                "));
        return out;
    }

    std::string source() {
        std::string out = fmt::format(
            "// {}.cpp: the Concurrent Collections graph '{}' on the MCL runtime, generated by `mclc gen --graph`.\n"
            "// Do not edit: regenerate it.\n#include \"{}.h\"\n\n#include <functional>\n#include <vector>\n\n"
            "#include \"{}\"\n\nnamespace {} {{\n\nnamespace {{\n",
            code_.name, code_.name, code_.name, code_.codelets_header, code_.name);
        for (const Constant& c : g_.constants)
            out += c.is_float ? fmt::format("[[maybe_unused]] constexpr float {} = {}f;\n", constant(c.name),
                                            c.spelling.find_first_of(".eE") == std::string::npos ? c.spelling + ".0"
                                                                                                 : c.spelling)
                              : fmt::format("[[maybe_unused]] constexpr int {} = {};\n", constant(c.name), c.int_value);
        for (const CheckedStep& s : checked_.steps) {
            if (!s.prescription || s.prescription->affinity.empty()) continue;
            int cpu = 0, gpu = 0;
            for (const AffinityWeight& w : s.prescription->affinity) {
                if (w.kind == "CPU") cpu = static_cast<int>(w.weight);
                if (w.kind == "GPU") gpu = static_cast<int>(w.weight);
            }
            out += fmt::format("// ({} @ CPU = {}, GPU = {}): OpenCL workers count as GPU; FPGA has no worker here.\n"
                               "const mcl::rt::Affinity affinity_{}_weights{{{}, {}}};\n",
                               s.step->name, cpu, gpu, s.step->name, cpu, gpu);
        }
        out += "\n}  // namespace\n\nvoid run(mcl::rt::Runtime& runtime, const Environment& environment) {\n";
        for (const CheckedStep& s : checked_.steps)
            if (s.prescription && !s.prescription->affinity.empty())
                out += fmt::format("    mcl::rt::SubmitOptions affinity_{};\n    affinity_{}.affinity = "
                                   "&affinity_{}_weights;\n",
                                   s.step->name, s.step->name, s.step->name);
        out += "    mcl::rt::cnc::Graph graph(runtime);\n";
        for (const ItemCollection& i : g_.items)
            out += fmt::format("    mcl::rt::cnc::ItemCollection<{}> {}(runtime, \"{}\", {});\n",
                               element_spelling(i.element), item(i.name), i.name, elements(i));
        for (const EnvTarget& t : g_.env_puts) {
            if (t.is_tag) continue;
            out += fmt::format("    // env -> [{}]\n", t.name);
            out += range_loops(t,
                               fmt::format("{}.put(TAG, environment.{} + mcl_index * {}); graph.environment_put({}, "
                                           "TAG);",
                                           item(t.name), t.name, elements(item_of(t.name)), item(t.name)),
                               "    ");
        }
        for (const CheckedStep& s : checked_.steps) out += step_code(s);
        for (const EnvTarget& t : g_.env_puts) {
            if (!t.is_tag) continue;
            std::string body;
            for (const CheckedStep& s : checked_.steps)
                if (s.prescription && s.prescription->tag == t.name)
                    body += fmt::format("graph.prescribe(step_{}, TAG); ", s.step->name);
            out += fmt::format("    // env -> <{}>: its tags prescribe the steps\n", t.name);
            out += range_loops(t, body, "    ");
        }
        out += "    graph.run();\n";
        for (const EnvTarget& t : g_.env_gets) {
            out += fmt::format("    // env <- [{}]\n", t.name);
            out += range_loops(t, fmt::format("{}.start_get(TAG);", item(t.name)), "    ");
            out += range_loops(t,
                               fmt::format("{}.get(TAG, environment.{} + mcl_index * {});", item(t.name), t.name,
                                           elements(item_of(t.name))),
                               "    ");
        }
        return out + "}\n\n}  // namespace " + code_.name + "\n";
    }

    const Graph& g_;
    const CheckedGraph& checked_;
    const GraphCode& code_;
    DiagnosticEngine& diags_;
    std::set<std::string> components_;  // of the relation being emitted
};

}  // namespace

std::vector<backends::GeneratedFile> generate_graph(const Graph& graph, const CheckedGraph& checked,
                                                    const GraphCode& code, DiagnosticEngine& diags) {
    return Generator(graph, checked, code, diags).run();
}

}  // namespace mcl::cnc
