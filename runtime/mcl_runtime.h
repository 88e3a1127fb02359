// The runtime of MCL host glue: what the generated `<module>.cpp` files
// include. `mclc gen` copies this file beside them, so an output directory
// is self-contained. Several generated directories may be used in one
// program: the guard keeps the definitions single.
#ifndef MCL_RUNTIME_H
#define MCL_RUNTIME_H

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

namespace mcl {

// Every failure of generated host glue reaches the caller as an mcl::Error
// whose text says which kernel failed and carries the backend's own message.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `e` as an Error that says where it happened ("module::kernel (backend)"),
// unless its text says so already.
inline Error error_in(const std::string& where, const std::exception& e) {
    std::string text = e.what();
    if (text.compare(0, where.size(), where) == 0) return Error(text);
    return Error(where + ": " + text);
}

// `text` as a whole unsigned decimal number (a setting such as a device
// index); nothing when it is empty, signed, has anything after the digits or
// does not fit.
inline std::optional<unsigned long long> whole_number(const std::string& text) {
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return std::nullopt;
    try {
        size_t used = 0;
        unsigned long long value = std::stoull(text, &used);
        if (used == text.size()) return value;
    } catch (const std::out_of_range&) {
    }
    return std::nullopt;
}

// How many bytes of released device arrays a device keeps for reuse (see
// DeviceArray in mcl_opencl.h and mcl_cuda.h): MCL_DEVICE_ARRAY_CACHE_MB
// when set (0 releases every array at once), else `default_bytes`.
inline size_t device_array_cache_bytes(size_t default_bytes) {
    const char* setting = std::getenv("MCL_DEVICE_ARRAY_CACHE_MB");
    if (!setting) return default_bytes;
    std::optional<unsigned long long> megabytes = whole_number(setting);
    if (!megabytes)
        throw Error(std::string("MCL_DEVICE_ARRAY_CACHE_MB='") + setting +
                    "' is not a number of megabytes (e.g. 512)");
    if (*megabytes > (static_cast<size_t>(-1) >> 20)) return static_cast<size_t>(-1);
    return static_cast<size_t>(*megabytes) << 20;
}

}  // namespace mcl

#endif  // MCL_RUNTIME_H
