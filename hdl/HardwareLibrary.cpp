#include "hdl/HardwareLibrary.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "hdl/BuildHardwareModel.h"
#include "hdl/ParseHdl.h"
#include "hdl/ResolveReferences.h"
#include "hdl/ValidateHdl.h"
#include "support/InputFile.h"
#include "support/Spelling.h"

namespace fs = std::filesystem;

namespace mcl::hdl {

void HardwareLibrary::load(const std::string& builtin_dir, const std::vector<std::string>& user_dirs) {
    add_directory(builtin_dir, false);
    for (const std::string& d : user_dirs) add_directory(d, true);
    finish();
}

void HardwareLibrary::finish() {
    std::map<std::string, const Description*> asts;
    for (const auto& [name, e] : entries_) asts[name] = e->ast.get();
    Resolution resolution = resolve_references(asts, loading_diags());
    for (auto& [name, e] : entries_) {
        bool valid = validate_description(*e->ast, resolution, loading_diags());
        e->valid = valid && loading_diags().error_count_in(e->ast->file) == 0;
    }
    check_hierarchy();
    for (auto& [name, e] : entries_)
        if (e->valid) e->model = build_hardware_model(*e->ast, resolution);
    if (user_errors_ == UserErrors::Defer) sort_out_held_diagnostics();
}

// Diagnostics in the files of bad user descriptions are held, with a warning
// for each such description; everything else goes on as it was reported.
void HardwareLibrary::sort_out_held_diagnostics() {
    auto forward = [](DiagnosticEngine& to, const Diagnostic& d) {
        to.report(d.severity, d.location, d.message).notes = d.notes;
    };
    std::vector<std::string> bad;  // in the order their first diagnostic came
    for (const Diagnostic& d : held_.diagnostics()) {
        auto file = user_files_.find(d.location.file);
        if (file == user_files_.end() || find(file->second)) {
            forward(diags_, d);
            continue;
        }
        std::vector<Diagnostic>& held = held_errors_[file->second];
        if (held.empty()) bad.push_back(file->second);
        held.push_back(d);
    }
    for (const std::string& name : bad) {
        const std::vector<Diagnostic>& held = held_errors_.at(name);
        const Diagnostic& first = held.front();
        size_t errors = std::count_if(held.begin(), held.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
        diags_.warning(first.location,
                       fmt::format("hardware description '{}' has {} error{} and is left out; the first: {}", name,
                                   errors, errors == 1 ? "" : "s", first.message));
    }
}

bool HardwareLibrary::report_errors_of(const std::string& name) const {
    auto it = held_errors_.find(name);
    if (it == held_errors_.end()) return false;
    if (!held_reported_[name])
        for (const Diagnostic& d : it->second) diags_.report(d.severity, d.location, d.message).notes = d.notes;
    held_reported_[name] = true;
    return true;
}

bool HardwareLibrary::add_directory(const std::string& dir, bool user, const EditedFile* edited) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        loading_diags().error({}, fmt::format("hardware description directory '{}' does not exist", dir));
        return false;
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".hdl") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::string edited_key = edited ? canonical_path(edited->path) : std::string();
    bool edited_added = false;
    for (const std::string& f : files) {
        std::string error;
        if (edited && canonical_path(f) == edited_key) {
            add_buffer(edited->path, edited->text, user);
            edited_added = true;
        } else if (auto file = sources_.load_file(f, error)) {
            add_parsed(*file, f, user);
        } else {
            loading_diags().error({}, error);
        }
    }
    return edited_added;
}

void HardwareLibrary::add_buffer(const std::string& path, std::string text, bool user) {
    add_parsed(sources_.add_buffer(path, std::move(text)), path, user);
}

void HardwareLibrary::add_parsed(uint32_t file, const std::string& path, bool user) {
    auto ast = parse_hdl(file, sources_, loading_diags());
    // A file that does not parse is taken to describe the name of the file.
    if (user) user_files_[file] = ast ? ast->name : fs::path(path).stem().string();
    if (!ast) return;
    auto it = entries_.find(ast->name);
    if (it != entries_.end()) {
        Entry& existing = *it->second;
        if (user && !existing.user) {  // a user description overrides the built-in one
            overridden_.push_back(std::move(it->second));
            entries_.erase(it);
        } else {
            auto& d = loading_diags().error(ast->location,
                                   fmt::format("duplicate hardware description '{}'", ast->name));
            DiagnosticEngine::add_note(d, existing.ast->location, "first described here");
            return;
        }
    }
    auto entry = std::make_unique<Entry>();
    entry->path = path;
    entry->user = user;
    std::string name = ast->name;
    entry->ast = std::move(ast);
    entries_[name] = std::move(entry);
}

void HardwareLibrary::check_hierarchy() {
    if (!entries_.count(kRootDescription))
        loading_diags().error({}, fmt::format("the hardware library has no description '{}', the root of the "
                                     "hierarchy",
                                     kRootDescription));
    std::vector<std::string> all;
    for (const auto& [name, e] : entries_) all.push_back(name);
    for (auto& [name, e] : entries_) {
        const Description& d = *e->ast;
        if (!d.specializes) {
            if (name != kRootDescription) {
                loading_diags().error(d.location,
                             fmt::format("description '{}' does not say what it specializes; every "
                                         "description except '{}' needs 'specializes PARENT;'",
                                         name, kRootDescription));
                e->valid = false;
            }
            continue;
        }
        if (name == kRootDescription) {
            loading_diags().error(d.specializes_location,
                         fmt::format("'{}' is the root of the hierarchy and cannot specialize another description",
                                     kRootDescription));
            e->valid = false;
            continue;
        }
        if (!entries_.count(*d.specializes)) {
            loading_diags().error(d.specializes_location,
                         fmt::format("'{}' specializes unknown description '{}'{}", name, *d.specializes,
                                     did_you_mean(*d.specializes, all)));
            e->valid = false;
            continue;
        }
        // Walk up; coming back to `name` is a cycle.
        std::vector<std::string> chain{name};
        for (std::string at = *d.specializes;;) {
            chain.push_back(at);
            if (at == name) {
                loading_diags().error(d.specializes_location,
                             fmt::format("specialization cycle: {}", fmt::join(chain, " -> ")));
                e->valid = false;
                break;
            }
            auto it = entries_.find(at);
            if (it == entries_.end() || !it->second->ast->specializes || chain.size() > entries_.size() + 1)
                break;
            at = *it->second->ast->specializes;
        }
    }
    // A description is reachable only if every ancestor is valid.
    bool changed = true;
    while (changed) {
        changed = false;
        for (auto& [name, e] : entries_) {
            if (!e->valid || !e->ast->specializes) continue;
            auto it = entries_.find(*e->ast->specializes);
            if (it != entries_.end() && !it->second->valid) {
                loading_diags().error(e->ast->specializes_location,
                             fmt::format("'{}' specializes '{}', which has errors", name, *e->ast->specializes));
                e->valid = false;
                changed = true;
            }
        }
    }
}

const HardwareModel* HardwareLibrary::find(const std::string& name) const {
    auto it = entries_.find(name);
    return it != entries_.end() && it->second->valid ? it->second->model.get() : nullptr;
}

std::vector<std::string> HardwareLibrary::names() const {
    std::vector<std::string> out;
    for (const auto& [name, e] : entries_)
        if (e->valid) out.push_back(name);
    return out;
}

std::optional<std::string> HardwareLibrary::parent(const std::string& name) const {
    const HardwareModel* m = find(name);
    return m ? m->parent : std::nullopt;
}

std::vector<std::string> HardwareLibrary::children(const std::string& name) const {
    std::vector<std::string> out;
    for (const std::string& n : names())
        if (parent(n) == name) out.push_back(n);
    return out;
}

std::vector<std::string> HardwareLibrary::leaves() const {
    std::vector<std::string> out;
    for (const std::string& n : names())
        if (children(n).empty()) out.push_back(n);
    return out;
}

bool HardwareLibrary::is_ancestor(const std::string& ancestor, const std::string& name) const {
    return path(ancestor, name).has_value();
}

std::optional<std::vector<std::string>> HardwareLibrary::path(const std::string& from,
                                                              const std::string& to) const {
    if (!find(from) || !find(to)) return std::nullopt;
    std::vector<std::string> up{to};
    for (std::optional<std::string> at = to; at && *at != from;) {
        at = parent(*at);
        if (!at) return std::nullopt;
        up.push_back(*at);
    }
    std::reverse(up.begin(), up.end());
    return up;
}

std::string HardwareLibrary::file_of(const std::string& name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? std::string() : it->second->path;
}

}  // namespace mcl::hdl
