// The runtime of MCL host glue: what the generated `<module>.cpp` files
// include. `mclc gen` copies this file beside them, so an output directory
// is self-contained. Several generated directories may be used in one
// program: the guard keeps the definitions single.
#ifndef MCL_RUNTIME_H
#define MCL_RUNTIME_H

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

}  // namespace mcl

#endif  // MCL_RUNTIME_H
