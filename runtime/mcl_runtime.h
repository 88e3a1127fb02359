// The runtime of MCL host glue: what the generated `<module>.cpp` files
// include. `mclc gen` copies this file beside them, so an output directory
// is self-contained. Several generated directories may be used in one
// program: the guard keeps the definitions single.
#ifndef MCL_RUNTIME_H
#define MCL_RUNTIME_H

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
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

// One array argument of a kernel call as the glue checks it: the
// parameter's name, the memory it spans (none from a null begin) and
// whether the kernel writes it.
struct ArrayArgument {
    const char* name;
    const void* begin;
    size_t bytes;
    bool written;
};

// The bytes of `elements` elements of `element_bytes` each; none for a
// count below one (such an array is empty).
inline size_t array_bytes(long long elements, size_t element_bytes) {
    return elements > 0 ? static_cast<size_t>(elements) * element_bytes : 0;
}

// Throws an Error when an array the kernel writes shares memory with another
// of its array arguments. A kernel's parameters never alias (the language's
// rule, on which the generated code relies): a kernel that reads what it
// overwrites in place would compute from partly updated inputs, and
// differently on each backend.
inline void check_arrays_apart(std::initializer_list<ArrayArgument> arrays) {
    for (const ArrayArgument* a = arrays.begin(); a != arrays.end(); ++a)
        for (const ArrayArgument* b = a + 1; b != arrays.end(); ++b) {
            if ((!a->written && !b->written) || !a->begin || !b->begin || a->bytes == 0 || b->bytes == 0) continue;
            auto start_a = reinterpret_cast<std::uintptr_t>(a->begin);
            auto start_b = reinterpret_cast<std::uintptr_t>(b->begin);
            if (start_a < start_b + b->bytes && start_b < start_a + a->bytes)
                throw Error(std::string("the arrays passed for '") + a->name + "' and '" + b->name +
                            "' share memory, and the kernel writes '" + (a->written ? a->name : b->name) +
                            "': its array parameters must not alias (pass a separate array)");
        }
}

// Throws an Error when `subject` (an array argument, named as the message
// shows it) holds `size` elements, fewer than the `elements` that the
// kernel's parameters give it: the kernel would read and write past its end.
inline void check_element_count(const std::string& subject, unsigned long long size, long long elements) {
    if (elements > 0 && size < static_cast<unsigned long long>(elements))
        throw Error(subject + " holds " + std::to_string(size) + " elements, fewer than the " +
                    std::to_string(elements) + " that the kernel's parameters give it");
}

// Throws an Error unless the device array passed for parameter `name` lies
// in memory that `device`, the one that runs the call, can use (its own
// context or GPU): another's buffer would fail to launch or be read from
// the wrong memory.
template <typename Device, typename DeviceArray>
void check_array_device(const char* name, const DeviceArray& array, const Device& device) {
    if (!array.usable_on(device))
        throw Error(std::string("the array passed for '") + name +
                    "' was allocated for another device or context than the one that runs the call (" +
                    device.name() + "): allocate it there");
}

// check_element_count for the device array passed for parameter `name`.
template <typename DeviceArray>
void check_array_size(const char* name, const DeviceArray& array, long long elements) {
    check_element_count(std::string("the array passed for '") + name + "'", array.size(), elements);
}

}  // namespace mcl

#endif  // MCL_RUNTIME_H
