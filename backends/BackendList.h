// The list of backends (BackendList.cpp): the one place a new backend is
// registered. Backend.cpp builds its registry from it.
#pragma once

#include <memory>
#include <vector>

namespace mcl::backends {

class Backend;

std::vector<std::unique_ptr<Backend>> make_all_backends();

}  // namespace mcl::backends
