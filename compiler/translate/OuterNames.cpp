#include "compiler/translate/OuterNames.h"

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"

namespace mcl::translate {

OuterNames outer_names(const mcpl::Program& program, const hdl::HardwareLibrary& library) {
    OuterNames names;
    for (const auto& m : program.modules) {
        for (const auto& c : m->constants) names.program.insert(c->name());
        for (const auto& r : m->records) names.program.insert(r->name);
        for (const auto& f : m->functions) names.program.insert(f->name);
    }
    for (const std::string& d : library.names()) names.descriptions.insert(d);
    names.constant_values = module_constant_values(program);
    return names;
}

std::map<const mcpl::Decl*, int64_t> module_constant_values(const mcpl::Program& program) {
    std::map<const mcpl::Decl*, int64_t> values;
    for (const auto& m : program.modules)
        for (const auto& c : m->constants)
            if (c->forms.front().resolved_type.primitive == mcpl::Primitive::Int)
                if (auto value = mcpl::checked_constant_int_value(*c->init)) values[c.get()] = *value;
    return values;
}

FreshNames::FreshNames(const mcpl::Function& f, const OuterNames& outer) : user_(mcpl::function_names(f)) {
    user_.insert(outer.program.begin(), outer.program.end());
    taken_ = user_;
    taken_.insert(outer.descriptions.begin(), outer.descriptions.end());
}

std::string FreshNames::fresh(const std::string& wanted) {
    std::string name = wanted;
    for (int n = 2; taken_.count(name); ++n) name = fmt::format("{}_{}", wanted, n);
    taken_.insert(name);
    return name;
}

}  // namespace mcl::translate
