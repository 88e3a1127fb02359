// The language server behind `mclc lsp`: the Language Server Protocol
// (3.17) over JSON-RPC on a pair of streams, for MCPL (`.mcl`) and HDL
// (`.hdl`) documents.
//
// Needs: where descriptions and include roots are (ServerOptions), the
//   client's messages on `in` and a stream for the server's (stdout).
// Does: keeps the open documents (full text sync) and analyses one on
//   every didOpen and didChange (Analysis.h), publishing its errors and
//   warnings and, for MCPL, the performance remarks as diagnostics of
//   severity Information whose `code` is the remark kind; answers hover
//   (Hover.h), definition (Definition.h) and the command
//   `mclc.feedbackAtLevel` [uri, level], which translates the module to
//   the level and returns its remarks as `mclc feedback --format json`
//   prints them (failing with the errors when it does not translate).
//   Example values for the remarks' quantities may come with initialize
//   (initializationOptions.params).
//   Lifecycle as LSP says: requests before `initialize` fail with
//   ServerNotInitialized, requests after `shutdown` with InvalidRequest,
//   `exit` ends serving with 0 after `shutdown` and 1 without (the end of
//   the input counts as `exit`).
// Guarantees: every request gets one response; unknown methods get
//   MethodNotFound, malformed JSON and bad framing a ParseError response;
//   an exception while handling one message (bad parameters, a bug) fails
//   that request, or is logged (window/logMessage) for a notification, and
//   the server goes on. Only protocol messages are written to `out`.
#pragma once

#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "lsp/Analysis.h"

namespace mcl::lsp {

class LanguageServer {
public:
    LanguageServer(ServerOptions options, std::ostream& out) : options_(std::move(options)), out_(out) {}

    // Serves the messages on `in` until `exit` or the end of the input; the
    // exit status.
    int serve(std::istream& in);
    // Handles the JSON text of one message; the exit status after `exit`.
    std::optional<int> handle(const std::string& body);

private:
    struct Document {
        std::string path;
        std::string language_id;
        std::string text;
        nlohmann::json version;
        std::unique_ptr<Analysis> analysis;
    };

    nlohmann::json request(const std::string& method, const nlohmann::json& params);
    std::optional<int> notify(const std::string& method, const nlohmann::json& params);

    nlohmann::json initialize_result() const;
    // initializationOptions {"params": {"n": 2048, ...}}: example values for
    // the remarks, as `mclc feedback --param n=2048` takes them.
    void set_example_values(const nlohmann::json& initialization_options);
    void open(const nlohmann::json& params);
    void change(const nlohmann::json& params);
    void close(const nlohmann::json& params);
    void analyze_and_publish(const std::string& uri, Document& document);
    // The open document a request names and the position in it; null when
    // it is not open.
    std::pair<const Document*, SourceLocation> document_position(const nlohmann::json& params) const;
    nlohmann::json feedback_at_level(const nlohmann::json& arguments);

    void send(const nlohmann::json& message);
    void log_error(const std::string& message);

    ServerOptions options_;
    std::ostream& out_;
    feedback::Params example_values_;
    std::map<std::string, Document> documents_;  // by URI
    bool initialized_ = false;
    bool shut_down_ = false;
};

}  // namespace mcl::lsp
