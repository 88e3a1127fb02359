#include "driver/Session.h"

#include <cstdlib>
#include <ostream>
#include <sstream>

namespace mcl::driver {

namespace {
std::vector<std::string> split_path_list(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ':'))
        if (!item.empty()) out.push_back(item);
    return out;
}
}  // namespace

HardwarePaths hardware_paths(const std::vector<std::string>& hwd_path_options) {
    HardwarePaths p;
    const char* builtin = std::getenv("MCL_STDLIB_HW");
    p.builtin_dir = builtin && *builtin ? builtin : MCL_STDLIB_HW_DIR;
    p.user_dirs = hwd_path_options;
    if (const char* env = std::getenv("MCL_HWD_PATH"))
        for (const std::string& d : split_path_list(env)) p.user_dirs.push_back(d);
    return p;
}

int Session::report(std::ostream& err) const {
    diags.print_text(err);
    return diags.has_errors() ? 1 : 0;
}

std::string Session::located_error(const SourceLocation& location, const std::string& message) const {
    return diags.format_text(Diagnostic{Severity::Error, location, message, {}});
}

}  // namespace mcl::driver
