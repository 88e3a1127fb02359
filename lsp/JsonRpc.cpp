#include "lsp/JsonRpc.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <istream>
#include <optional>
#include <ostream>

namespace mcl::lsp {

namespace {

// Bounds what one header line or body may make the server allocate.
constexpr size_t kMaxHeaderLine = 8192;
constexpr size_t kMaxBody = size_t{256} << 20;

std::string trim(const std::string& s) {
    size_t begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    size_t end = s.find_last_not_of(" \t");
    return s.substr(begin, end - begin + 1);
}

// One header line without its "\r\n"; false when the stream ends before
// the line does. A line longer than kMaxHeaderLine is read to its end but
// kept only in part, and `too_long` says so.
bool read_header_line(std::istream& in, std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    for (int c = in.get(); c != std::char_traits<char>::eof(); c = in.get()) {
        if (c == '\n') {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return true;
        }
        if (line.size() < kMaxHeaderLine)
            line.push_back(static_cast<char>(c));
        else
            too_long = true;
    }
    return false;
}

}  // namespace

IncomingMessage MessageReader::read() {
    std::optional<size_t> length;
    std::string error;
    bool in_header = false;
    for (;;) {
        std::string line;
        bool too_long = false;
        if (!read_header_line(in_, line, too_long)) return {IncomingMessage::Status::EndOfStream, "", ""};
        if (line.empty()) {
            if (in_header) break;
            continue;  // blank lines between messages carry nothing
        }
        in_header = true;
        if (too_long) {
            error = "header line too long";
            continue;
        }
        size_t colon = line.find(':');
        if (colon == std::string::npos) {
            error = "header line without ':': '" + line.substr(0, 80) + (line.size() > 80 ? "...'" : "'");
            continue;
        }
        std::string name = trim(line.substr(0, colon));
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        if (name != "content-length") continue;
        std::string value = trim(line.substr(colon + 1));
        size_t n = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
            error = "bad Content-Length '" + value + "'";
            continue;
        }
        length = n;
    }
    if (error.empty() && !length) error = "no Content-Length header";
    if (error.empty() && *length > kMaxBody) error = "Content-Length " + std::to_string(*length) + " is too large";
    if (!error.empty()) return {IncomingMessage::Status::BadFraming, "", error};
    std::string body(*length, '\0');
    in_.read(body.data(), static_cast<std::streamsize>(body.size()));
    if (static_cast<size_t>(in_.gcount()) != body.size()) return {IncomingMessage::Status::EndOfStream, "", ""};
    return {IncomingMessage::Status::Message, std::move(body), ""};
}

void write_message(std::ostream& out, const nlohmann::json& message) {
    // Replacing invalid UTF-8 (from a document's text in a message) keeps
    // dump() from throwing.
    std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    out.flush();
}

nlohmann::json response(const nlohmann::json& id, nlohmann::json result) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

nlohmann::json error_response(const nlohmann::json& id, int code, const std::string& message) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

nlohmann::json notification(const std::string& method, nlohmann::json params) {
    return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace mcl::lsp
