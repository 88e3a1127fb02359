// The runtime of MCL host glue: what the generated `<module>.cpp` files
// include. `mclc gen` copies this file beside them, so an output directory
// is self-contained. Several generated directories may be used in one
// program: the guard keeps the definitions single.
#ifndef MCL_RUNTIME_H
#define MCL_RUNTIME_H

#include <cstddef>
#include <cstdlib>
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

// How many bytes of released device arrays a device keeps for reuse (see
// DeviceArray in mcl_opencl.h and mcl_cuda.h): MCL_DEVICE_ARRAY_CACHE_MB
// when set (0 releases every array at once), else `default_bytes`.
inline size_t device_array_cache_bytes(size_t default_bytes) {
    const char* setting = std::getenv("MCL_DEVICE_ARRAY_CACHE_MB");
    if (!setting) return default_bytes;
    std::string text = setting;
    size_t used = 0;
    unsigned long long megabytes = 0;
    try {
        megabytes = std::stoull(text, &used);
    } catch (const std::logic_error&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || text[0] == '-')
        throw Error("MCL_DEVICE_ARRAY_CACHE_MB='" + text + "' is not a number of megabytes (e.g. 512)");
    if (megabytes > (static_cast<size_t>(-1) >> 20)) return static_cast<size_t>(-1);
    return static_cast<size_t>(megabytes) << 20;
}

}  // namespace mcl

#endif  // MCL_RUNTIME_H
