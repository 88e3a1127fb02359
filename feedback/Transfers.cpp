#include "feedback/Transfers.h"

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "compiler/print/PrintMcpl.h"

namespace mcl::feedback {

namespace {

using mcpl::Decl;

// Bytes of one element of `t` (its array groups dropped), as C lays it out:
// a record's padding moves too.
std::optional<GiNaC::ex> element_size(const mcpl::Type& t) {
    int64_t bytes = mcpl::element_byte_size(t);
    if (bytes <= 0) return std::nullopt;
    return GiNaC::ex(bytes);
}

// Bytes of a declared variable: element size times the product of extents.
std::optional<GiNaC::ex> size_of(const mcpl::BasicDecl& form, Symbols& symbols) {
    std::optional<GiNaC::ex> size = element_size(form.resolved_type);
    if (!size) return std::nullopt;
    GiNaC::ex extents = 1;
    for (const auto& group : form.type.dimensions)
        for (const auto& extent : group) {
            std::optional<GiNaC::ex> e = symbols.expression(*extent);
            if (!e) return std::nullopt;
            extents *= *e;
        }
    return *size * extents;  // factored, as declared: 4*(h+fh-1)*(w+fw-1)
}

// The size as the declaration spells it: "4*(h + fh - 1)*(w + fw - 1)";
// records and scalars as the computed number.
std::string as_declared(const mcpl::BasicDecl& form, const GiNaC::ex& size) {
    const mcpl::Type& t = form.resolved_type;
    if (!t.primitive || !t.is_array()) return Symbols::text(size);
    std::optional<GiNaC::ex> element = element_size(t.element());
    if (!element) return Symbols::text(size);
    std::string text = Symbols::text(*element);
    for (const auto& group : form.type.dimensions)
        for (const auto& extent : group) {
            bool simple = extent->kind == mcpl::Expr::Kind::Var || extent->kind == mcpl::Expr::Kind::IntLiteral;
            std::string e = mcpl::print_expr(*extent);
            text += simple ? fmt::format("*{}", e) : fmt::format("*({})", e);
        }
    return text;
}

std::string number(double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

Remark direction(const FeedbackInput& in, const hdl::DeviceNode& link, bool to_device) {
    Remark r;
    r.kind = RemarkKind::Transfers;
    r.location = in.function.location;
    GiNaC::ex bytes = 0;
    std::vector<std::string> parts, unknown;
    for (const auto& p : in.function.params) {
        const Decl& d = *p;
        bool is_array = d.forms.back().resolved_type.is_array();
        bool moves = to_device ? d.is_read && (is_array || d.is_written) : d.is_written;
        if (!moves) continue;
        std::optional<GiNaC::ex> size = size_of(d.forms.front(), in.symbols);
        if (!size) {
            unknown.push_back(d.name());
            continue;
        }
        bytes += *size;
        parts.push_back(d.name() + " (" + as_declared(d.forms.front(), *size) + ")");
    }
    const char* suffix = to_device ? "to_device" : "from_device";
    NamedQuantity total = in.symbols.quantity(std::string("bytes_") + suffix, bytes.expand());
    r.message = Symbols::text(total.expr) + " bytes";
    if (total.value && !GiNaC::is_a<GiNaC::numeric>(total.expr)) r.message += " (" + number(*total.value, "%.0f") + ")";
    r.message += std::string(to_device ? " from host to device" : " from device to host") + " over " + link.name;
    if (!parts.empty()) {
        r.message += ": ";
        for (size_t i = 0; i < parts.size(); ++i) r.message += (i ? ", " : "") + parts[i];
    }
    r.quantities.push_back(total);
    if (link.bandwidth && !link.bandwidth->unlimited && link.bandwidth->value > 0) {
        GiNaC::ex seconds = total.expr / GiNaC::numeric(link.bandwidth->value);
        NamedQuantity time = in.symbols.quantity(std::string("seconds_") + suffix, seconds);
        r.message += "; at " + number(static_cast<double>(link.bandwidth->value) / 1e9, "%g") + " GB/s";
        if (time.value) r.message += " that is about " + number(*time.value, "%.3g") + " s";
        else r.message += " that takes (" + Symbols::text(total.expr) + ")/" +
                          std::to_string(link.bandwidth->value) + " s";
        if (link.latency) r.message += ", plus a latency of " + std::to_string(*link.latency) + " cycles";
        r.quantities.push_back(std::move(time));
    } else if (link.latency) {
        r.message += "; latency " + std::to_string(*link.latency) + " cycles";
    }
    if (!unknown.empty()) {
        r.approximate = true;
        r.message += "; the size of ";
        for (size_t i = 0; i < unknown.size(); ++i) r.message += (i ? ", " : "") + unknown[i];
        r.message += " is not known and not counted";
    }
    return r;
}

bool any_moves(const FeedbackInput& in, bool to_device) {
    for (const auto& p : in.function.params) {
        bool is_array = p->forms.back().resolved_type.is_array();
        if (to_device ? p->is_read && (is_array || p->is_written) : p->is_written) return true;
    }
    return false;
}

}  // namespace

std::vector<Remark> transfers_pass(const FeedbackInput& in) {
    const hdl::DeviceNode* link = in.model.host_link();
    if (!link) return {};
    std::vector<Remark> out;
    for (bool to_device : {true, false})
        if (any_moves(in, to_device)) out.push_back(direction(in, *link, to_device));
    return out;
}

}  // namespace mcl::feedback
