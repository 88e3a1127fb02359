#include "lsp/Hover.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/print/PrintMcpl.h"
#include "feedback/FeedbackOutput.h"
#include "lsp/Positions.h"
#include "lsp/SymbolAt.h"

namespace mcl::lsp {

namespace {

using nlohmann::json;

// Remark messages hold products such as `2*m*n*p`, which Markdown would
// otherwise read as emphasis.
std::string escape_markdown(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (std::string_view("\\`*_[]<>|#").find(c) != std::string_view::npos) out.push_back('\\');
        out.push_back(c);
    }
    return out;
}

std::string code_block(const std::string& code) { return fmt::format("```mcl\n{}\n```\n", code); }

// A function's header as written: its lines up to the body's `{`.
std::string function_header(const Analysis& a, const mcpl::Function& f) {
    constexpr uint32_t kMaxHeaderLines = 12;
    std::string header;
    for (uint32_t line = f.hardware_location.line; line < f.hardware_location.line + kMaxHeaderLines; ++line) {
        std::string_view text = a.sources.line_text(f.location.file, line);
        size_t brace = text.find('{');
        if (!header.empty()) header += '\n';
        header += text.substr(0, brace);
        if (brace != std::string_view::npos) break;
    }
    size_t end = header.find_last_not_of(" \t\n");
    return end == std::string::npos ? f.name : header.substr(0, end + 1);
}

std::string variable_text(const SymbolAt& symbol) {
    std::string text;
    if (symbol.decl)
        text = code_block(mcpl::print_decl(*symbol.decl));
    else if (symbol.form)
        text = code_block(fmt::format("{} {}", mcpl::print_type(symbol.form->type), symbol.form->name));
    else
        text = fmt::format("`{}`\n", symbol.name);
    std::vector<std::string> facts;
    if (!symbol.role.empty()) facts.push_back(symbol.role);
    if (symbol.decl && !symbol.decl->memory_space.empty())
        facts.push_back(fmt::format("memory space `{}`", symbol.decl->memory_space));
    if (!facts.empty()) text += fmt::format("\n{}\n", fmt::join(facts, "; "));
    bool indexed = symbol.expr && !symbol.expr->var.empty() && !symbol.expr->var.front().indices.empty();
    if (indexed) text += fmt::format("\naccess `{}`\n", mcpl::print_expr(*symbol.expr));
    return text;
}

// A record as declared: its name and its fields.
std::string record_text(const Analysis& a, const mcpl::RecordType& record) {
    std::string code = fmt::format("type {} {{\n", record.name);
    for (const auto& field : record.fields) code += fmt::format("    {};\n", mcpl::print_decl(*field));
    return code_block(code + "}") + fmt::format("\n{}\n", escape_markdown(a.sources.path(record.location.file)));
}

std::string hardware_text(const Analysis& a, const std::string& name) {
    std::string file = a.library.file_of(name);
    if (file.empty()) return fmt::format("unknown hardware description `{}`\n", name);
    std::string text = fmt::format("hardware description `{}`", name);
    if (auto parent = a.library.parent(name)) text += fmt::format(", specializes `{}`", *parent);
    if (!a.library.find(name)) text += " (has errors)";
    return text + fmt::format("\n\n{}\n", escape_markdown(file));
}

std::string import_text(const Analysis& a, const mcpl::Import& import) {
    if (const mcpl::Module* m = imported_module(a, import))
        return fmt::format("module `{}`\n\n{}\n", import.str(), escape_markdown(a.sources.path(m->file)));
    if (import.path.size() == 1) return hardware_text(a, import.path.front());
    return fmt::format("module `{}` (not loaded)\n", import.str());
}

// One remark as a paragraph and a table of its quantities.
std::string remark_text(const Analysis& a, const feedback::Remark& remark) {
    json j = feedback::remarks_to_json({remark}, a.sources)["remarks"][0];
    std::string text = fmt::format("\n---\n**{}**{}: {}\n", j["kind"].get<std::string>(),
                                   remark.approximate ? " (approximate)" : "", escape_markdown(remark.message));
    const json& quantities = j["quantities"];
    if (quantities.empty()) return text;
    // The value column only when example values were given.
    bool values = std::any_of(quantities.begin(), quantities.end(), [](const json& q) { return q.contains("value"); });
    text += values ? "\n| quantity | expression | value |\n|---|---|---|\n"
                   : "\n| quantity | expression |\n|---|---|\n";
    for (const auto& [name, q] : quantities.items()) {
        text += fmt::format("| {} | `{}` |", name, q["expr"].get<std::string>());
        if (values) text += q.contains("value") ? fmt::format(" {} |", q["value"].get<double>()) : " |";
        text += "\n";
    }
    return text;
}

std::string remarks_text(const Analysis& a, const SymbolAt& symbol) {
    std::string text;
    for (const feedback::Remark& r : a.remarks)
        if (r.location == symbol.location) text += remark_text(a, r);
    if (!text.empty() || symbol.kind != SymbolAt::Kind::VariableUse) return text;
    for (const feedback::Remark& r : a.remarks)
        if (r.location.file == symbol.location.file && r.location.line == symbol.location.line)
            text += remark_text(a, r);
    return text;
}

std::string symbol_text(const Analysis& a, const SymbolAt& symbol) {
    switch (symbol.kind) {
    case SymbolAt::Kind::VariableUse:
    case SymbolAt::Kind::Declaration: return variable_text(symbol);
    case SymbolAt::Kind::RecordType:
        return symbol.record ? record_text(a, *symbol.record) : fmt::format("record type `{}`\n", symbol.name);
    case SymbolAt::Kind::Call:
        if (symbol.expr->function) return code_block(function_header(a, *symbol.expr->function));
        return fmt::format("builtin function `{}`\n", symbol.name);
    case SymbolAt::Kind::FunctionName: return code_block(function_header(a, *symbol.function));
    case SymbolAt::Kind::HardwareName: return hardware_text(a, symbol.name);
    case SymbolAt::Kind::Import: return import_text(a, *symbol.import);
    case SymbolAt::Kind::Export:
        for (const auto& f : a.module->functions)
            if (f->name == symbol.name) return code_block(function_header(a, *f));
        for (const auto& r : a.module->records)
            if (r->name == symbol.name) return record_text(a, *r);
        return "";
    }
    return "";
}

}  // namespace

nlohmann::json hover(const Analysis& analysis, SourceLocation position) {
    if (analysis.language != Language::Mcpl || !analysis.module) return nullptr;
    std::optional<SymbolAt> symbol = symbol_at(*analysis.module, position);
    if (!symbol) return nullptr;
    std::string text = symbol_text(analysis, *symbol) + remarks_text(analysis, *symbol);
    if (text.empty()) return nullptr;
    return {{"contents", {{"kind", "markdown"}, {"value", text}}},
            {"range", range_json(analysis.sources, symbol->location, symbol->length)}};
}

}  // namespace mcl::lsp
