#include "lsp/LanguageServer.h"

#include <stdexcept>

#include <fmt/format.h>

#include "feedback/FeedbackOutput.h"
#include "lsp/Definition.h"
#include "lsp/Hover.h"
#include "lsp/JsonRpc.h"
#include "lsp/Positions.h"
#include "support/InputFile.h"
#include "support/Utf8.h"

namespace mcl::lsp {

namespace {

using nlohmann::json;

constexpr const char* kFeedbackAtLevel = "mclc.feedbackAtLevel";

// A request that fails with a JSON-RPC error other than InternalError.
struct RequestError : std::runtime_error {
    RequestError(int code, const std::string& message) : std::runtime_error(message), code(code) {}
    int code;
};

// LSP's DiagnosticSeverity.
int lsp_severity(Severity s) {
    switch (s) {
    case Severity::Error: return 1;
    case Severity::Warning: return 2;
    case Severity::Remark: return 3;
    case Severity::Note: return 4;
    }
    return 1;
}

json related_location(const SourceManager& sources, SourceLocation loc) {
    return {{"uri", path_to_uri(sources.path(loc.file))},
            {"range", range_json(sources, loc, token_length(sources, loc))}};
}

// A diagnostic in the document at its token; one elsewhere (an imported
// module, a description, or no file) at the document's start, saying where
// it is. Located notes become related information.
json diagnostic_json(const Analysis& a, const Diagnostic& d) {
    const SourceManager& sources = a.sources;
    std::string message = d.message;
    json related = json::array();
    json range;
    if (d.location.file == a.document_file) {
        range = range_json(sources, d.location, d.location.line > 0 ? token_length(sources, d.location) : 0);
    } else {
        range = range_json(sources, SourceLocation{a.document_file, 1, 1}, 0);
        if (d.location.valid()) {
            message = fmt::format("{}:{}:{}: {}", sources.path(d.location.file), d.location.line, d.location.column,
                                  message);
            related.push_back({{"location", related_location(sources, d.location)}, {"message", d.message}});
        }
    }
    for (const Diagnostic& note : d.notes) {
        if (note.location.valid())
            related.push_back({{"location", related_location(sources, note.location)}, {"message", note.message}});
        else
            message += "\nnote: " + note.message;
    }
    json out = {{"range", range}, {"severity", lsp_severity(d.severity)}, {"source", "mclc"}, {"message", message}};
    if (!related.empty()) out["relatedInformation"] = related;
    return out;
}

// Everything said about the document: its own diagnostics, errors from
// elsewhere (they stop its checking), and the remarks on its lines.
json diagnostics_json(const Analysis& a) {
    json all = json::array();
    for (const Diagnostic& d : a.diags.diagnostics())
        if (d.location.file == a.document_file || d.severity == Severity::Error)
            all.push_back(diagnostic_json(a, d));
    for (const feedback::Remark& r : a.remarks) {
        if (r.location.file != a.document_file) continue;
        all.push_back({{"range", range_json(a.sources, r.location, token_length(a.sources, r.location))},
                       {"severity", r.warning ? 2 : 3},
                       {"code", feedback::remark_kind_name(r.kind)},
                       {"source", "mclc"},
                       {"message", r.message}});
    }
    return all;
}

// The byte offset of an LSP position in `text` (clamped to its end).
size_t offset_of(const std::string& text, const json& position) {
    uint64_t line = position.at("line").get<uint64_t>();
    uint64_t character = position.at("character").get<uint64_t>();
    size_t start = 0;
    for (uint64_t l = 0; l < line; ++l) {
        size_t newline = text.find('\n', start);
        if (newline == std::string::npos) return text.size();
        start = newline + 1;
    }
    size_t end = text.find('\n', start);
    std::string_view line_text(text.data() + start, (end == std::string::npos ? text.size() : end) - start);
    uint32_t column = column_of_character(line_text, character);
    size_t offset = start;
    for (uint32_t c = 1; c < column && offset < start + line_text.size(); ++c) offset = next_code_point(text, offset);
    return offset;
}

std::string read_file(const std::string& path) {
    std::string error;
    std::optional<std::string> text = read_input_file(path, error);
    if (!text) throw RequestError(error_code::kInvalidParams, error);
    return std::move(*text);
}

}  // namespace

int LanguageServer::serve(std::istream& in) {
    MessageReader reader(in);
    for (;;) {
        IncomingMessage message = reader.read();
        switch (message.status) {
        case IncomingMessage::Status::EndOfStream: return shut_down_ ? 0 : 1;
        case IncomingMessage::Status::BadFraming:
            send(error_response(nullptr, error_code::kParseError, "bad message header: " + message.error));
            break;
        case IncomingMessage::Status::Message:
            if (std::optional<int> status = handle(message.body)) return *status;
            break;
        }
    }
}

std::optional<int> LanguageServer::handle(const std::string& body) {
    json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) {
        send(error_response(nullptr, error_code::kParseError, "the message is not JSON"));
        return std::nullopt;
    }
    bool has_method = message.is_object() && message.contains("method") && message["method"].is_string();
    json id = message.is_object() && message.contains("id") ? message["id"] : json();
    bool valid_id = id.is_string() || id.is_number_integer();
    if (!has_method) {
        // A response to a request of ours (we send none) needs no answer.
        if (message.is_object() && message.contains("id") && (message.contains("result") || message.contains("error")))
            return std::nullopt;
        send(error_response(valid_id ? id : json(), error_code::kInvalidRequest, "not a JSON-RPC request"));
        return std::nullopt;
    }
    std::string method = message["method"].get<std::string>();
    json params = message.contains("params") ? message["params"] : json::object();
    if (!message.contains("id")) {
        try {
            return notify(method, params);
        } catch (const std::exception& e) {
            log_error(fmt::format("{}: {}", method, e.what()));
        } catch (...) {
            log_error(fmt::format("{}: unknown exception", method));
        }
        return std::nullopt;
    }
    if (!valid_id) {
        send(error_response(nullptr, error_code::kInvalidRequest, "a request's id is a string or an integer"));
        return std::nullopt;
    }
    try {
        send(response(id, request(method, params)));
    } catch (const RequestError& e) {
        send(error_response(id, e.code, e.what()));
    } catch (const json::exception& e) {
        send(error_response(id, error_code::kInvalidParams, fmt::format("{}: bad parameters: {}", method, e.what())));
    } catch (const std::exception& e) {
        send(error_response(id, error_code::kInternalError, fmt::format("{}: internal error: {}", method, e.what())));
    } catch (...) {
        send(error_response(id, error_code::kInternalError, method + ": internal error"));
    }
    return std::nullopt;
}

json LanguageServer::request(const std::string& method, const json& params) {
    if (method == "initialize") {
        if (initialized_) throw RequestError(error_code::kInvalidRequest, "initialize was sent already");
        set_example_values(params.value("initializationOptions", json::object()));
        initialized_ = true;
        return initialize_result();
    }
    if (!initialized_) throw RequestError(error_code::kServerNotInitialized, "initialize must come first");
    if (shut_down_) throw RequestError(error_code::kInvalidRequest, "the server is shutting down");
    if (method == "shutdown") {
        shut_down_ = true;
        return nullptr;
    }
    if (method == "textDocument/hover" || method == "textDocument/definition") {
        auto [document, position] = document_position(params);
        if (!document) return nullptr;
        return method == "textDocument/hover" ? hover(*document->analysis, position)
                                              : definition(*document->analysis, position);
    }
    if (method == "workspace/executeCommand") {
        std::string command = params.at("command").get<std::string>();
        if (command != kFeedbackAtLevel)
            throw RequestError(error_code::kInvalidParams, fmt::format("unknown command '{}'", command));
        return feedback_at_level(params.value("arguments", json::array()));
    }
    throw RequestError(error_code::kMethodNotFound, fmt::format("unknown method '{}'", method));
}

std::optional<int> LanguageServer::notify(const std::string& method, const json& params) {
    if (method == "exit") return shut_down_ ? 0 : 1;
    // Before initialize only exit counts; after shutdown nothing changes.
    if (!initialized_ || shut_down_) return std::nullopt;
    if (method == "textDocument/didOpen") open(params);
    if (method == "textDocument/didChange") change(params);
    if (method == "textDocument/didClose") close(params);
    return std::nullopt;
}

json LanguageServer::initialize_result() const {
    return {{"capabilities",
             {{"textDocumentSync", {{"openClose", true}, {"change", 1}}},  // 1: the full text on every change
              {"hoverProvider", true},
              {"definitionProvider", true},
              {"executeCommandProvider", {{"commands", {kFeedbackAtLevel}}}}}},
            {"serverInfo", {{"name", "mclc"}}}};
}

void LanguageServer::set_example_values(const json& initialization_options) {
    if (!initialization_options.is_object() || !initialization_options.contains("params")) return;
    for (const auto& [name, value] : initialization_options["params"].items())
        if (value.is_number()) example_values_[name] = value.get<double>();
}

void LanguageServer::open(const json& params) {
    const json& item = params.at("textDocument");
    std::string uri = item.at("uri").get<std::string>();
    Document document{uri_to_path(uri), item.value("languageId", ""), item.at("text").get<std::string>(),
                      item.value("version", json()), nullptr};
    analyze_and_publish(uri, documents_[uri] = std::move(document));
}

void LanguageServer::change(const json& params) {
    std::string uri = params.at("textDocument").at("uri").get<std::string>();
    auto it = documents_.find(uri);
    if (it == documents_.end()) throw std::invalid_argument("didChange of a document that is not open: " + uri);
    Document& document = it->second;
    for (const json& change : params.at("contentChanges")) {
        std::string text = change.at("text").get<std::string>();
        if (!change.contains("range")) {
            document.text = std::move(text);
            continue;
        }
        // We ask for full text; a client that sends ranges anyway still works.
        size_t begin = offset_of(document.text, change["range"].at("start"));
        size_t end = std::max(begin, offset_of(document.text, change["range"].at("end")));
        document.text.replace(begin, end - begin, text);
    }
    document.version = params["textDocument"].value("version", json());
    analyze_and_publish(uri, document);
}

void LanguageServer::close(const json& params) {
    std::string uri = params.at("textDocument").at("uri").get<std::string>();
    documents_.erase(uri);
    send(notification("textDocument/publishDiagnostics", {{"uri", uri}, {"diagnostics", json::array()}}));
}

void LanguageServer::analyze_and_publish(const std::string& uri, Document& document) {
    document.analysis = language_of(document.path, document.language_id) == Language::Hdl
                            ? analyze_hdl(options_, document.path, document.text)
                            : analyze_mcpl(options_, document.path, document.text, example_values_);
    json params = {{"uri", uri}, {"diagnostics", diagnostics_json(*document.analysis)}};
    if (document.version.is_number_integer()) params["version"] = document.version;
    send(notification("textDocument/publishDiagnostics", params));
}

std::pair<const LanguageServer::Document*, SourceLocation> LanguageServer::document_position(
    const json& params) const {
    std::string uri = params.at("textDocument").at("uri").get<std::string>();
    const json& position = params.at("position");
    uint32_t line = position.at("line").get<uint32_t>() + 1;
    uint64_t character = position.at("character").get<uint64_t>();
    auto it = documents_.find(uri);
    // No analysis: the one of its last change stopped with an exception.
    if (it == documents_.end() || !it->second.analysis) return {nullptr, {}};
    const Analysis& a = *it->second.analysis;
    uint32_t column = column_of_character(a.sources.line_text(a.document_file, line), character);
    return {&it->second, SourceLocation{a.document_file, line, column}};
}

json LanguageServer::feedback_at_level(const json& arguments) {
    if (!arguments.is_array() || arguments.size() != 2 || !arguments[0].is_string() || !arguments[1].is_string())
        throw RequestError(error_code::kInvalidParams, fmt::format("{} takes [uri, level]", kFeedbackAtLevel));
    std::string uri = arguments[0].get<std::string>();
    std::string level = arguments[1].get<std::string>();
    auto open_document = documents_.find(uri);
    std::string path = uri_to_path(uri);
    std::string text = open_document != documents_.end() ? open_document->second.text : read_file(path);
    std::unique_ptr<Analysis> a = analyze_mcpl(options_, path, text, example_values_, level);
    if (a->diags.has_errors()) {
        std::string errors;
        for (const Diagnostic& d : a->diags.diagnostics())
            if (d.severity == Severity::Error) errors += a->diags.format_text(d);
        throw RequestError(error_code::kRequestFailed, errors);
    }
    return feedback::remarks_to_json(a->remarks, a->sources);
}

void LanguageServer::send(const json& message) { write_message(out_, message); }

void LanguageServer::log_error(const std::string& message) {
    send(notification("window/logMessage", {{"type", 1}, {"message", message}}));
}

}  // namespace mcl::lsp
