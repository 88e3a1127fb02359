// Pass: load the MCPL modules a compilation needs.
//
// Needs: the files named by the user, include roots (`-I DIR`) and the
//   hardware library (an import may name a description).
// Does: parses each file, then follows its imports. `import a.b.c;` names a
//   hardware description when it is a single name the library knows, and
//   otherwise module `c` of package `a.b`: the file `a/b/c.mcl` under an
//   include root. The roots searched are the `-I` directories, then the root
//   implied by the importing file itself (its directory with one level
//   removed per component of its `package` line). A loaded module must
//   declare the package and module name its path says. Each file is loaded
//   once; an import cycle is allowed (the modules see each other's exports),
//   a module importing itself is not.
// Guarantees: every import is resolved or reported at its location (missing
//   module, package mismatch, self-import); Program::imported_* are filled.
#pragma once

#include <string>
#include <vector>

#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"
#include "support/Diagnostics.h"

namespace mcl::mcpl {

Program load_modules(const std::vector<std::string>& files, const std::vector<std::string>& include_roots,
                     SourceManager& sources, const hdl::HardwareLibrary& library,
                     DiagnosticEngine& diags);

// Loads one module from text (for tests and tools): `path` names it in
// diagnostics and anchors its implied include root.
Program load_modules_from_text(const std::string& path, const std::string& text,
                               const std::vector<std::string>& include_roots, SourceManager& sources,
                               const hdl::HardwareLibrary& library, DiagnosticEngine& diags);

}  // namespace mcl::mcpl
