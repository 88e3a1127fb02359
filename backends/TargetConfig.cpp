#include "backends/TargetConfig.h"

#include <algorithm>
#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "support/InputFile.h"
#include "support/Spelling.h"

namespace mcl::backends {

namespace {

// Finds where keys are in the file's text, so that errors point at them.
// nlohmann::json keeps no positions; a key is searched for as "key" after
// the position of its parent, which is exact for any sensibly laid-out file.
class Locator {
public:
    Locator(const SourceManager& sources, uint32_t file) : sources_(sources), file_(file) {}

    size_t find_key(const std::string& key, size_t from) const {
        const std::string& text = sources_.text(file_);
        size_t at = text.find('"' + key + '"', from);
        return at == std::string::npos ? from : at;
    }
    SourceLocation at(size_t offset) const { return sources_.location_of_offset(file_, offset); }

private:
    const SourceManager& sources_;
    uint32_t file_;
};

class ConfigParser {
public:
    ConfigParser(const std::string& path, uint32_t file, const hdl::HardwareModel& leaf, SourceManager& sources,
                 DiagnosticEngine& diags)
        : path_(path), file_(file), leaf_(leaf), locator_(sources, file), diags_(diags) {}

    std::optional<TargetConfig> parse(const std::string& text) {
        nlohmann::json root;
        try {
            root = nlohmann::json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
            size_t offset = e.byte > 0 ? e.byte - 1 : 0;
            std::string what = e.what();
            // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> the reason
            size_t colon = what.find(": ");
            diags_.error(locator_.at(std::min(offset, text.size())),
                         fmt::format("invalid JSON in target configuration: {}",
                                     colon == std::string::npos ? what : what.substr(colon + 2)));
            return std::nullopt;
        }
        size_t errors_before = diags_.error_count();
        TargetConfig config;
        config.path = path_;
        config.file = file_;
        SourceLocation file_loc{file_, 0, 0};
        if (!root.is_object()) {
            diags_.error(locator_.at(0), "a target configuration is a JSON object with \"leaf\" and \"backends\"");
            return std::nullopt;
        }
        if (!root.contains("leaf") || !root["leaf"].is_string()) {
            diags_.error(file_loc, "missing string field \"leaf\" in target configuration");
        } else {
            config.leaf = root["leaf"].get<std::string>();
            if (config.leaf != leaf_.name)
                diags_.error(locator_.at(locator_.find_key("leaf", 0)),
                             fmt::format("\"leaf\" is '{}', but this is the configuration of '{}'", config.leaf,
                                         leaf_.name));
        }
        if (!root.contains("backends") || !root["backends"].is_object()) {
            diags_.error(file_loc, "missing object field \"backends\" in target configuration");
        } else {
            size_t backends_at = locator_.find_key("backends", 0);
            for (const auto& [name, section] : root["backends"].items()) {
                size_t at = locator_.find_key(name, backends_at);
                if (auto b = parse_backend(name, section, at)) config.backends.emplace(name, std::move(*b));
            }
        }
        if (root.contains("match")) config.match = parse_match(root["match"]);
        for (const auto& [key, value] : root.items())
            if (key != "leaf" && key != "backends" && key != "comment" && key != "match")
                diags_.error(locator_.at(locator_.find_key(key, 0)),
                             fmt::format("unknown field \"{}\" in target configuration{}", key,
                                         did_you_mean(key, {"leaf", "backends", "comment", "match"})));
        if (diags_.error_count() != errors_before) return std::nullopt;
        return config;
    }

private:
    std::optional<DeviceMatch> parse_match(const nlohmann::json& section) {
        size_t at = locator_.find_key("match", 0);
        DeviceMatch match;
        match.location = locator_.at(at);
        if (!section.is_object()) {
            diags_.error(match.location, "\"match\" must be an object with \"device_type\", \"vendor\" and \"name\"");
            return std::nullopt;
        }
        const std::vector<std::string> fields = {"device_type", "vendor", "name"};
        for (const auto& [key, value] : section.items())
            if (std::find(fields.begin(), fields.end(), key) == fields.end())
                diags_.error(locator_.at(locator_.find_key(key, at)),
                             fmt::format("unknown field \"{}\" in \"match\"{}", key, did_you_mean(key, fields)));
        bool valid = true;
        for (const std::string& field : fields) {
            SourceLocation loc = locator_.at(locator_.find_key(field, at));
            if (!section.contains(field) || !section[field].is_string()) {
                diags_.error(match.location, fmt::format("\"match\" has no string field \"{}\"", field));
                valid = false;
                continue;
            }
            std::string text = section[field].get<std::string>();
            if (field == "device_type") {
                if (text != "cpu" && text != "gpu" && text != "accelerator") {
                    diags_.error(loc, fmt::format("device_type '{}' is not cpu, gpu or accelerator", text));
                    valid = false;
                }
                match.device_type = text;
                continue;
            }
            try {
                std::regex check(text);
            } catch (const std::regex_error& e) {
                diags_.error(loc, fmt::format("\"{}\" is not a valid regular expression: {}", field, e.what()));
                valid = false;
            }
            (field == "vendor" ? match.vendor : match.name) = text;
        }
        if (!valid) return std::nullopt;
        return match;
    }

    std::optional<BackendConfig> parse_backend(const std::string& name, const nlohmann::json& section, size_t at) {
        BackendConfig b;
        b.backend = name;
        b.location = locator_.at(at);
        if (!section.is_object()) {
            diags_.error(b.location, fmt::format("backend '{}' must be a JSON object", name));
            return std::nullopt;
        }
        b.raw = section;
        if (!section.contains("device_type") || !section["device_type"].is_string())
            diags_.error(b.location, fmt::format("backend '{}' has no string field \"device_type\"", name));
        else
            b.device_type = section["device_type"].get<std::string>();

        std::vector<std::string> group_names;
        for (const hdl::ParGroup* g : leaf_.par_groups()) group_names.push_back(g->name);
        std::vector<std::string> space_names;
        for (const hdl::MemorySpace* s : leaf_.all_memory_spaces()) space_names.push_back(s->name);

        parse_entries(name, section, "par_groups", "par_group", group_names, at, b.par_groups);
        parse_entries(name, section, "memory_spaces", "memory space", space_names, at, b.memory_spaces);

        if (section.contains("builtins")) {
            size_t builtins_at = locator_.find_key("builtins", at);
            const nlohmann::json& builtins = section["builtins"];
            if (!builtins.is_object()) {
                diags_.error(locator_.at(builtins_at), fmt::format("\"builtins\" of backend '{}' must be an object "
                                                                   "of names to spellings", name));
            } else {
                for (const auto& [fn, spelling] : builtins.items()) {
                    SourceLocation loc = locator_.at(locator_.find_key(fn, builtins_at));
                    if (!spelling.is_string() || spelling.get<std::string>().empty()) {
                        diags_.error(loc, fmt::format("builtin '{}' of backend '{}' must be spelt by a non-empty "
                                                      "string", fn, name));
                        continue;
                    }
                    b.builtins[fn] = spelling.get<std::string>();
                    b.builtin_locations[fn] = loc;
                }
            }
        }
        return b;
    }

    void parse_entries(const std::string& backend, const nlohmann::json& section, const std::string& field,
                       const std::string& what, const std::vector<std::string>& known, size_t backend_at,
                       std::map<std::string, ConfigEntry>& out) {
        if (!section.contains(field)) {
            diags_.error(locator_.at(backend_at),
                         fmt::format("backend '{}' has no field \"{}\"", backend, field));
            return;
        }
        size_t field_at = locator_.find_key(field, backend_at);
        const nlohmann::json& entries = section[field];
        if (!entries.is_object()) {
            diags_.error(locator_.at(field_at),
                         fmt::format("\"{}\" of backend '{}' must be a JSON object", field, backend));
            return;
        }
        for (const auto& [key, value] : entries.items()) {
            SourceLocation loc = locator_.at(locator_.find_key(key, field_at));
            if (std::find(known.begin(), known.end(), key) == known.end()) {
                diags_.error(loc, fmt::format("unknown {} '{}': '{}' has no {} of that name{}", what, key,
                                              leaf_.name, what, did_you_mean(key, known)));
                continue;
            }
            if (!value.is_object()) {
                diags_.error(loc, fmt::format("{} '{}' of backend '{}' must be a JSON object", what, key, backend));
                continue;
            }
            out[key] = ConfigEntry{value, loc};
        }
    }

    std::string path_;
    uint32_t file_;
    const hdl::HardwareModel& leaf_;
    Locator locator_;
    DiagnosticEngine& diags_;
};

}  // namespace

std::string ConfigEntry::string(const std::string& key) const {
    if (!properties.is_object() || !properties.contains(key) || !properties[key].is_string()) return "";
    return properties[key].get<std::string>();
}

std::string memory_scope(const BackendConfig& config, const std::string& space) {
    auto it = config.memory_spaces.find(space);
    if (it == config.memory_spaces.end()) return "";
    return it->second.string("scope");
}

const BackendConfig* TargetConfig::backend(const std::string& name) const {
    auto it = backends.find(name);
    return it == backends.end() ? nullptr : &it->second;
}

std::vector<std::string> TargetConfig::backend_names() const {
    std::vector<std::string> names;
    for (const auto& [name, b] : backends) names.push_back(name);
    return names;
}

std::optional<TargetConfig> parse_target_config(const std::string& path, std::string text,
                                                const hdl::HardwareModel& leaf, SourceManager& sources,
                                                DiagnosticEngine& diags) {
    std::string copy = text;
    uint32_t file = sources.add_buffer(path, std::move(text));
    return ConfigParser(path, file, leaf, sources, diags).parse(copy);
}

std::optional<TargetConfig> load_target_config(const std::string& path, const hdl::HardwareModel& leaf,
                                               SourceManager& sources, DiagnosticEngine& diags) {
    std::string error;
    std::optional<std::string> text = read_input_file(path, error);
    if (!text) {
        diags.error(SourceLocation{}, fmt::format("target configuration: {}", error));
        return std::nullopt;
    }
    return parse_target_config(path, std::move(*text), leaf, sources, diags);
}

std::map<std::string, std::string> find_target_configs(const std::vector<std::string>& dirs) {
    std::map<std::string, std::string> found;
    for (const std::string& dir : dirs) {
        std::error_code ec;
        std::filesystem::path targets = std::filesystem::path(dir) / "targets";
        if (!std::filesystem::is_directory(targets, ec)) continue;
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(targets, ec))
            if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) found.emplace(f.stem().string(), f.string());  // earlier dirs win
    }
    return found;
}

}  // namespace mcl::backends
