// The runtime headers under runtime/ that generated host glue includes,
// embedded into mclc at build time (RuntimeFiles.cpp is generated from the
// files by backends/CMakeLists.txt), so that `mclc gen` can copy them beside
// the generated files wherever mclc runs.
#pragma once

#include <string>

namespace mcl::backends {

// The text of runtime/<name>, e.g. "mcl_runtime.h"; empty when unknown.
std::string runtime_file(const std::string& name);

}  // namespace mcl::backends
