#include "lsp/Definition.h"

#include "hdl/ParseHdl.h"
#include "lsp/Positions.h"
#include "lsp/SymbolAt.h"

namespace mcl::lsp {

namespace {

nlohmann::json location_json(const SourceManager& sources, SourceLocation loc, uint32_t length) {
    return {{"uri", path_to_uri(sources.path(loc.file))}, {"range", range_json(sources, loc, length)}};
}

// The name after `hardware_description` in the description's file, or the
// file's start when it does not parse.
nlohmann::json description_location(const Analysis& a, const std::string& name) {
    std::string path = a.library.file_of(name);
    if (path.empty()) return nullptr;
    if (uint32_t file = file_id_of(a.sources, path)) {
        DiagnosticEngine reported_already(a.sources);
        if (auto description = hdl::parse_hdl(file, a.sources, reported_already))
            return location_json(a.sources, description->location, static_cast<uint32_t>(name.size()));
    }
    nlohmann::json start = {{"line", 0}, {"character", 0}};
    return {{"uri", path_to_uri(path)}, {"range", {{"start", start}, {"end", start}}}};
}

nlohmann::json mcpl_definition(const Analysis& a, SourceLocation position) {
    if (!a.module) return nullptr;
    std::optional<SymbolAt> symbol = symbol_at(*a.module, position);
    if (!symbol) return nullptr;
    switch (symbol->kind) {
    case SymbolAt::Kind::VariableUse:
    case SymbolAt::Kind::Declaration: {
        const mcpl::BasicDecl* form = symbol->form;
        if (!form && symbol->decl) form = &symbol->decl->forms.back();
        if (!form) return nullptr;
        return location_json(a.sources, form->location, static_cast<uint32_t>(form->name.size()));
    }
    case SymbolAt::Kind::RecordType:
        if (!symbol->record) return nullptr;
        return location_json(a.sources, symbol->record->location, static_cast<uint32_t>(symbol->record->name.size()));
    case SymbolAt::Kind::Call: {
        const mcpl::Function* f = symbol->expr->function;
        if (!f) return nullptr;
        return location_json(a.sources, f->location, static_cast<uint32_t>(f->name.size()));
    }
    case SymbolAt::Kind::FunctionName:
        return location_json(a.sources, symbol->location, symbol->length);
    case SymbolAt::Kind::HardwareName: return description_location(a, symbol->name);
    case SymbolAt::Kind::Import:
        if (const mcpl::Module* m = imported_module(a, *symbol->import))
            return location_json(a.sources, m->location, static_cast<uint32_t>(m->name.size()));
        if (symbol->import->path.size() == 1) return description_location(a, symbol->import->path.front());
        return nullptr;
    case SymbolAt::Kind::Export:
        for (const auto& f : a.module->functions)
            if (f->name == symbol->name)
                return location_json(a.sources, f->location, static_cast<uint32_t>(f->name.size()));
        for (const auto& r : a.module->records)
            if (r->name == symbol->name)
                return location_json(a.sources, r->location, static_cast<uint32_t>(r->name.size()));
        return nullptr;
    }
    return nullptr;
}

bool on_name(SourceLocation position, SourceLocation name_location, size_t length) {
    return position.file == name_location.file && position.line == name_location.line &&
           position.column >= name_location.column && position.column < name_location.column + length;
}

nlohmann::json hdl_definition(const Analysis& a, SourceLocation position) {
    const hdl::Description* d = a.description.get();
    if (!d) return nullptr;
    if (d->specializes && on_name(position, d->specializes_location, d->specializes->size()))
        return description_location(a, *d->specializes);
    if (on_name(position, d->location, d->name.size()))
        return location_json(a.sources, d->location, static_cast<uint32_t>(d->name.size()));
    return nullptr;
}

}  // namespace

nlohmann::json definition(const Analysis& analysis, SourceLocation position) {
    return analysis.language == Language::Mcpl ? mcpl_definition(analysis, position)
                                               : hdl_definition(analysis, position);
}

}  // namespace mcl::lsp
