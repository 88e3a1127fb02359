// A Program: the MCPL modules the compiler works on, with what each imports.
// LoadModules builds it from the files named on the command line; the
// checking passes annotate its ASTs in place.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"

namespace mcl::mcpl {

struct Program {
    std::vector<std::unique_ptr<Module>> modules;  // every loaded module
    std::vector<const Module*> roots;              // the files named by the user, in order
    // Per module: the modules and hardware descriptions it imports directly.
    std::map<const Module*, std::vector<const Module*>> imported_modules;
    std::map<const Module*, std::vector<std::string>> imported_hardware;
};

}  // namespace mcl::mcpl
