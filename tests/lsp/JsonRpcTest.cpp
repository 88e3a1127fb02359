// The LSP framing (lsp/JsonRpc.h) and position conversions (lsp/Positions.h).
#include <sstream>

#include <gtest/gtest.h>

#include "lsp/JsonRpc.h"
#include "lsp/Positions.h"

namespace mcl::lsp {
namespace {

using Status = IncomingMessage::Status;

TEST(MessageReader, ReadsConsecutiveMessagesWithOtherHeaders) {
    std::istringstream in("Content-Length: 2\r\n\r\n{}"
                          "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
                          "content-length:  7 \r\n\r\n[1,2,3]");
    MessageReader reader(in);
    IncomingMessage first = reader.read();
    EXPECT_EQ(first.status, Status::Message);
    EXPECT_EQ(first.body, "{}");
    IncomingMessage second = reader.read();
    EXPECT_EQ(second.status, Status::Message);
    EXPECT_EQ(second.body, "[1,2,3]");
    EXPECT_EQ(reader.read().status, Status::EndOfStream);
}

TEST(MessageReader, AcceptsBareNewlines) {
    std::istringstream in("Content-Length: 2\n\n{}");
    IncomingMessage m = MessageReader(in).read();
    EXPECT_EQ(m.status, Status::Message);
    EXPECT_EQ(m.body, "{}");
}

TEST(MessageReader, PartialHeaderIsTheEndOfTheStream) {
    std::istringstream in("Content-Len");
    EXPECT_EQ(MessageReader(in).read().status, Status::EndOfStream);
}

TEST(MessageReader, ShortBodyIsTheEndOfTheStream) {
    std::istringstream in("Content-Length: 10\r\n\r\n{}");
    EXPECT_EQ(MessageReader(in).read().status, Status::EndOfStream);
}

TEST(MessageReader, BadContentLengthIsReportedAndReadingGoesOn) {
    for (const char* value : {"twelve", "-3", "12abc", "", "99999999999999999999999", "999999999999"}) {
        std::istringstream in(std::string("Content-Length: ") + value + "\r\n\r\nContent-Length: 2\r\n\r\n{}");
        MessageReader reader(in);
        IncomingMessage bad = reader.read();
        EXPECT_EQ(bad.status, Status::BadFraming) << value;
        EXPECT_NE(bad.error.find("Content-Length"), std::string::npos) << bad.error;
        IncomingMessage next = reader.read();
        EXPECT_EQ(next.status, Status::Message) << value;
        EXPECT_EQ(next.body, "{}");
    }
}

TEST(MessageReader, MissingContentLengthAndLinesWithoutColon) {
    std::istringstream missing("Content-Type: x\r\n\r\n");
    IncomingMessage m = MessageReader(missing).read();
    EXPECT_EQ(m.status, Status::BadFraming);
    EXPECT_EQ(m.error, "no Content-Length header");
    std::istringstream garbage("hello\r\n\r\n");
    EXPECT_EQ(MessageReader(garbage).read().status, Status::BadFraming);
}

TEST(MessageReader, OverlongHeaderLineIsBadFraming) {
    std::istringstream in("X-Long: " + std::string(100000, 'x') + "\r\nContent-Length: 2\r\n\r\n{}");
    IncomingMessage m = MessageReader(in).read();
    EXPECT_EQ(m.status, Status::BadFraming);
    EXPECT_EQ(m.error, "header line too long");
}

TEST(WriteMessage, FramesTheBody) {
    std::ostringstream out;
    write_message(out, response(7, nullptr));
    EXPECT_EQ(out.str(), "Content-Length: 38\r\n\r\n{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":null}");
    std::ostringstream bad_utf8;
    write_message(bad_utf8, notification("m", {{"text", "\xff"}}));  // replaced, not thrown
    EXPECT_NE(bad_utf8.str().find("\xef\xbf\xbd"), std::string::npos);
}

TEST(Positions, FileUris) {
    EXPECT_EQ(uri_to_path("file:///a%20b/c.mcl"), "/a b/c.mcl");
    EXPECT_EQ(uri_to_path("file://localhost/x.hdl"), "/x.hdl");
    EXPECT_EQ(uri_to_path("untitled:Untitled-1"), "untitled:Untitled-1");
    EXPECT_EQ(uri_to_path("file:///bad%zz"), "/bad%zz");
    EXPECT_EQ(path_to_uri("/a b/c+d.mcl"), "file:///a%20b/c%2Bd.mcl");
    EXPECT_EQ(uri_to_path(path_to_uri("/dir/ä.mcl")), "/dir/ä.mcl");
}

TEST(Positions, Utf16Characters) {
    // 'é' is one UTF-16 unit, '𝑥' (U+1D465) two.
    std::string line = "é𝑥a";
    EXPECT_EQ(utf16_character(line, 1), 0u);
    EXPECT_EQ(utf16_character(line, 2), 1u);
    EXPECT_EQ(utf16_character(line, 3), 3u);
    EXPECT_EQ(utf16_character(line, 4), 4u);
    EXPECT_EQ(utf16_character(line, 99), 4u);
    EXPECT_EQ(column_of_character(line, 0), 1u);
    EXPECT_EQ(column_of_character(line, 1), 2u);
    EXPECT_EQ(column_of_character(line, 3), 3u);
    EXPECT_EQ(column_of_character(line, 99), 4u);
}

TEST(Positions, TokenLengthAndRange) {
    SourceManager sources;
    uint32_t file = sources.add_buffer("t.mcl", "x = sum_2 + 1;\n");
    EXPECT_EQ(token_length(sources, {file, 1, 5}), 5u);
    EXPECT_EQ(token_length(sources, {file, 1, 11}), 1u);
    EXPECT_EQ(token_length(sources, {file, 1, 40}), 0u);
    nlohmann::json range = range_json(sources, {file, 1, 5}, 5);
    EXPECT_EQ(range["start"], (nlohmann::json{{"line", 0}, {"character", 4}}));
    EXPECT_EQ(range["end"], (nlohmann::json{{"line", 0}, {"character", 9}}));
}

}  // namespace
}  // namespace mcl::lsp
