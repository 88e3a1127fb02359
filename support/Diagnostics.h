// DiagnosticEngine: the one place every stage reports to (parse errors,
// semantic errors, translation errors, performance remarks), in the style of
// clang's. A diagnostic has a severity, a location and a message, and may carry
// notes that point elsewhere. The engine renders clang-style text
// (`file:line:col: error: msg`, the source line and a caret) or JSON.
#pragma once

#include <cstddef>
#include <deque>
#include <iosfwd>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "support/SourceManager.h"

namespace mcl {

enum class Severity { Note, Remark, Warning, Error };

const char* severity_name(Severity s);

struct Diagnostic {
    Severity severity = Severity::Error;
    SourceLocation location;
    std::string message;
    std::vector<Diagnostic> notes;
};

class DiagnosticEngine {
public:
    explicit DiagnosticEngine(const SourceManager& sources) : sources_(&sources) {}

    // Each returns the stored diagnostic so that notes can be attached. A
    // diagnostic that repeats one already reported (the same severity,
    // location and message: two passes, or two statements that translation
    // made of one, finding the same fault) is not stored or counted again;
    // notes attached to the repeat are dropped with it.
    Diagnostic& report(Severity s, SourceLocation loc, std::string message);
    Diagnostic& error(SourceLocation loc, std::string message) {
        return report(Severity::Error, loc, std::move(message));
    }
    Diagnostic& warning(SourceLocation loc, std::string message) {
        return report(Severity::Warning, loc, std::move(message));
    }
    Diagnostic& remark(SourceLocation loc, std::string message) {
        return report(Severity::Remark, loc, std::move(message));
    }
    static void add_note(Diagnostic& d, SourceLocation loc, std::string message);

    size_t error_count() const { return errors_; }
    // Errors located in one file (lets a library drop just the bad files).
    size_t error_count_in(uint32_t file) const;
    bool has_errors() const { return errors_ > 0; }
    const std::deque<Diagnostic>& diagnostics() const { return diagnostics_; }
    const SourceManager& sources() const { return *sources_; }

    // Renders every diagnostic as clang-style text with source line and caret.
    void print_text(std::ostream& out) const;
    std::string format_text(const Diagnostic& d) const;
    nlohmann::json to_json() const;

private:
    void format_one(std::string& out, const Diagnostic& d) const;
    nlohmann::json json_one(const Diagnostic& d) const;

    const SourceManager* sources_;
    std::deque<Diagnostic> diagnostics_;  // deque: report() hands out stable references
    std::set<std::tuple<Severity, uint32_t, uint32_t, uint32_t, std::string>> reported_;
    Diagnostic repeat_;  // what report() hands out for a repeat
    size_t errors_ = 0;
};

}  // namespace mcl
