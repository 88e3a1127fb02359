// libFuzzer target for the language server (`mclc lsp`). The input is the
// text of one document, HDL when it says `hardware_description` and MCPL
// otherwise, which an editor session opens, queries and edits through
// LanguageServer::handle as a client's messages would: it asks for hover
// and the definition at token boundaries of the document (up to
// kMaxPositions), runs the mclc.feedbackAtLevel command at a leaf chosen by
// the input's size, deletes a range chosen by the input's size (its end
// past its line), asks again at the same positions on the edited text and
// closes the document. These messages are well formed, so besides a crash
// or a sanitizer report, an "internal error" response or a logged
// exception (window/logMessage) is a bug. An input that starts with
// `Content-Length:` is instead the client's whole byte stream (framing,
// JSON and parameters as they come), where only a crash, a sanitizer
// report or an internal error is.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lsp/JsonRpc.h"
#include "lsp/LanguageServer.h"

namespace {

using nlohmann::json;

// The leaves that feedbackAtLevel translates to, one per input.
constexpr const char* kLeaves[] = {"hopper", "fermi", "x86_avx2", "xeon_phi", "gpu"};
// The positions asked about: lines, characters per line and in all, at most.
constexpr int kMaxLines = 200;
constexpr int kMaxCharacters = 120;
constexpr size_t kMaxPositions = 200;

int character_class(char c) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') return 0;
    return std::isspace(static_cast<unsigned char>(c)) ? 1 : 2;
}

class Session {
public:
    explicit Session(bool hdl)
        : server_({MCL_STDLIB_HW_DIR, {}, {MCL_EXAMPLES_DIR}}, out_),
          uri_(std::string("file://") + MCL_EXAMPLES_DIR + (hdl ? "/fuzz/document.hdl" : "/fuzz/document.mcl")) {}

    void send(const std::string& method, json params, bool request = true) {
        json message = {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
        if (request) message["id"] = ++next_id_;
        // A client sends UTF-8; bytes of the input that are not become U+FFFD.
        const std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
        (void)server_.handle(body);
        check_answers(body);
    }

    // Fails on an internal error among the server's messages since the last
    // check, and on a logged exception when the client's messages were well
    // formed (a bad notification is logged, as it should be).
    void check_answers(const std::string& after, bool well_formed = true) {
        std::istringstream written(out_.str());
        mcl::lsp::MessageReader reader(written);
        for (auto answer = reader.read(); answer.status == mcl::lsp::IncomingMessage::Status::Message;
             answer = reader.read()) {
            const json reply = json::parse(answer.body);
            const bool internal_error =
                reply.contains("error") && reply["error"].value("code", 0) == mcl::lsp::error_code::kInternalError;
            if (internal_error || (well_formed && reply.value("method", "") == "window/logMessage")) {
                std::fprintf(stderr, "%s\nafter %s\n", answer.body.c_str(), after.c_str());
                std::abort();
            }
        }
        out_.str("");
    }

    // Asks at token boundaries (a change between word characters, spaces
    // and others) of the first lines, at one past each line's end, and at
    // byte offsets taken as UTF-16 characters, so that positions inside and
    // past multi-byte characters are asked for too; at most
    // kMaxPositions, evenly spread, since each answer walks the module.
    void ask_at_positions(const std::string& text) {
        std::vector<std::pair<int, size_t>> positions;
        int line = 0;
        size_t start = 0;
        while (line < kMaxLines && start <= text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const size_t length = std::min<size_t>(end - start, kMaxCharacters);
            for (size_t character = 0; character <= length + 1; ++character)
                if (character == 0 || character >= length ||
                    character_class(text[start + character]) != character_class(text[start + character - 1]))
                    positions.emplace_back(line, character);
            start = end + 1;
            ++line;
        }
        const size_t stride = positions.size() / kMaxPositions + 1;
        for (size_t i = text.size() % stride; i < positions.size(); i += stride) {
            json params = {{"textDocument", {{"uri", uri_}}},
                           {"position", {{"line", positions[i].first}, {"character", positions[i].second}}}};
            send("textDocument/hover", params);
            send("textDocument/definition", params);
        }
    }

    // Serves `input` as the client's whole byte stream: framing, JSON and
    // parameters as they come.
    void serve(const std::string& input) {
        std::istringstream in(input);
        (void)server_.serve(in);
        check_answers("the input", false);
    }

    const std::string& uri() const { return uri_; }

private:
    std::ostringstream out_;
    mcl::lsp::LanguageServer server_;
    std::string uri_;
    int next_id_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (text.rfind("Content-Length:", 0) == 0) {
        Session session(false);
        session.serve(text);
        return 0;
    }
    const bool hdl = text.find("hardware_description") != std::string::npos;
    Session session(hdl);
    session.send("initialize", {{"initializationOptions", {{"params", {{"n", 64}, {"m", 48}}}}}});
    session.send("initialized", json::object(), false);
    session.send("textDocument/didOpen",
                 {{"textDocument",
                   {{"uri", session.uri()}, {"languageId", hdl ? "hdl" : "mcpl"}, {"version", 1}, {"text", text}}}},
                 false);
    session.ask_at_positions(text);
    if (!hdl)
        session.send("workspace/executeCommand",
                     {{"command", "mclc.feedbackAtLevel"},
                      {"arguments", {session.uri(), kLeaves[size % std::size(kLeaves)]}}});

    // An edit that deletes from a third of the lines to past the end of a
    // line two thirds down; the server clamps what lies beyond the text.
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    const json range = {{"start", {{"line", lines / 3}, {"character", size % 7}}},
                        {"end", {{"line", 2 * lines / 3 + 1}, {"character", 1000}}}};
    session.send("textDocument/didChange",
                 {{"textDocument", {{"uri", session.uri()}, {"version", 2}}},
                  {"contentChanges", {{{"range", range}, {"text", ""}}}}},
                 false);
    session.ask_at_positions(text);  // the old text's positions, on the new text
    session.send("textDocument/didClose", {{"textDocument", {{"uri", session.uri()}}}}, false);
    session.send("shutdown", nullptr);
    session.send("exit", nullptr, false);
    return 0;
}
