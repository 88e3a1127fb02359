// The names a function's code may refer to besides its own, and fresh names
// for what a pass generates in it.
//
// Needs: a checked program and the hardware library it was checked with.
// Guarantees: a name FreshNames gives differs from every name of the
//   function, of the program's modules, of the descriptions and from every
//   name it gave before, so generated code neither captures a name the
//   user's code refers to nor hides one it may refer to.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "compiler/ast/Ast.h"
#include "compiler/sema/Program.h"
#include "hdl/HardwareLibrary.h"

namespace mcl::translate {

// Names visible to a function besides its own parameters and locals.
struct OuterNames {
    std::set<std::string> program;       // constants, records and functions of every module
    std::set<std::string> descriptions;  // hardware descriptions, which hardware values start with
    // The values of the module-level int constants that fold (a count of
    // `THREADS` threads is as constant as one of 128; a hardware value in
    // one names its description, so translation does not change it).
    std::map<const mcpl::Decl*, int64_t> constant_values;
};

// The names of `program`'s modules and of `library`'s descriptions, and the
// values of the module constants, for translating any of its functions.
OuterNames outer_names(const mcpl::Program& program, const hdl::HardwareLibrary& library);

// The values of `program`'s module-level int constants that fold.
std::map<const mcpl::Decl*, int64_t> module_constant_values(const mcpl::Program& program);

// The names taken in one function, and new ones that differ from them.
class FreshNames {
public:
    FreshNames(const mcpl::Function& f, const OuterNames& outer);

    // `wanted`, or the first of `wanted_2`, `wanted_3`, ... not taken; it is
    // taken from then on.
    std::string fresh(const std::string& wanted);

    // Whether the user declared `name`: in the function or in a module.
    bool declared_by_user(const std::string& name) const { return user_.count(name) > 0; }

private:
    std::set<std::string> user_;   // the function's and the modules' names
    std::set<std::string> taken_;  // the user's, the descriptions' and the names given
};

}  // namespace mcl::translate
