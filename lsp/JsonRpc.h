// JSON-RPC 2.0 over a byte stream with the Language Server Protocol's
// framing: each message is `Content-Length: N\r\n` (other headers allowed
// and ignored), an empty line, then N bytes of JSON.
//
// Needs: a blocking input stream (stdin) and an output stream (stdout).
// Guarantees: the reader never throws on bad input. A header block without
// a usable Content-Length is consumed up to its empty line and reported as
// bad framing, so that the next message can still be read; a stream that
// ends inside a header or body is the end of the stream. The writer puts
// out one complete message and flushes it.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

namespace mcl::lsp {

// The error codes of JSON-RPC 2.0 and the ones LSP adds.
namespace error_code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kServerNotInitialized = -32002;
inline constexpr int kRequestFailed = -32803;
}  // namespace error_code

struct IncomingMessage {
    enum class Status { Message, BadFraming, EndOfStream };
    Status status = Status::EndOfStream;
    std::string body;   // Message: the JSON text, not yet parsed
    std::string error;  // BadFraming: what was wrong with the header
};

class MessageReader {
public:
    explicit MessageReader(std::istream& in) : in_(in) {}
    IncomingMessage read();

private:
    std::istream& in_;
};

void write_message(std::ostream& out, const nlohmann::json& message);

nlohmann::json response(const nlohmann::json& id, nlohmann::json result);
nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message);
nlohmann::json notification(const std::string& method, nlohmann::json params);

}  // namespace mcl::lsp
