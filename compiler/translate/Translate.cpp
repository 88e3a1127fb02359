#include "compiler/translate/Translate.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/ast/ConstantValue.h"
#include "compiler/sema/CheckLaunchBarriers.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/translate/ParGroupMapping.h"
#include "compiler/translate/TranslateForeach.h"
#include "compiler/translate/TranslateHardwareValues.h"
#include "compiler/translate/TranslateMemorySpaces.h"
#include "support/Spelling.h"

namespace mcl::translate {

namespace {

// Replaces `import from;` by `import to;` in modules that no longer use
// `from`, and adds `import to;` where a function now needs it.
void update_imports(mcpl::Program& program, mcpl::Module& m, const std::string& from, const std::string& to) {
    bool uses_to = false, uses_from = false;
    for (const auto& f : m.functions) {
        uses_to |= f->hardware == to;
        uses_from |= f->hardware == from;
    }
    if (!uses_to) return;
    auto imports = [&](const std::string& name) {
        return std::find_if(m.imports.begin(), m.imports.end(), [&](const mcpl::Import& i) {
            return i.path.size() == 1 && i.path[0] == name;
        });
    };
    if (imports(to) != m.imports.end()) return;
    std::vector<std::string>& imported = program.imported_hardware[&m];
    auto old = imports(from);
    if (old != m.imports.end() && !uses_from) {
        old->path[0] = to;
        std::replace(imported.begin(), imported.end(), from, to);
        return;
    }
    m.imports.push_back(mcpl::Import{{to}, m.location});
    imported.push_back(to);
}

// Translation moves statements out of the foreach statements it replaces
// and drops those, with the declarations of their indices: until the
// program is checked again a variable may name a freed declaration. The
// function's variables forget their declarations, so that a step that
// stops at an error leaves none dangling; the check resolves them again.
void forget_declarations(mcpl::Function& f) {
    mcpl::for_each_stmt(*f.body, [](mcpl::Stmt& s) {
        mcpl::for_each_own_expr(s, [](mcpl::Expr& e) {
            mcpl::for_each_var(e, [](mcpl::Expr& var) {
                var.decl = nullptr;
                var.form = nullptr;
            });
        });
    });
}

}  // namespace

bool translate_program(mcpl::Program& program, const std::string& target, const hdl::HardwareLibrary& library,
                       DiagnosticEngine& diags) {
    const size_t errors = diags.error_count();
    if (!library.find(target)) {
        diags.error({}, fmt::format("unknown hardware description '{}'{}", target,
                                    did_you_mean(target, library.names())));
        return false;
    }
    // The root modules decide whether the target makes sense.
    const mcpl::Function* first = nullptr;
    bool any_above = false;
    for (const mcpl::Module* m : program.roots)
        for (const auto& f : m->functions) {
            if (!first) first = f.get();
            if (library.is_ancestor(f->hardware, target)) {
                any_above = true;
            } else {
                diags.report(Severity::Note, f->hardware_location,
                             fmt::format("'{}' is left as it is: its description '{}' is not above '{}'", f->name,
                                         f->hardware, target));
            }
        }
    if (first && !any_above) {
        diags.error(first->hardware_location,
                    fmt::format("cannot translate to '{}': it is not below the description of any function here "
                                "('{}' targets '{}'); translation only goes down the hierarchy",
                                target, first->name, first->hardware));
        return false;
    }

    // The functions that move, and the memory space each of their barriers
    // names as written, for reporting barriers the move makes grid-wide.
    std::vector<const mcpl::Function*> moved;
    std::map<const mcpl::Stmt*, std::string> written_spaces;
    for (const auto& m : program.modules)
        for (const auto& f : m->functions) {
            if (f->hardware == target || !library.is_ancestor(f->hardware, target)) continue;
            moved.push_back(f.get());
            mcpl::for_each_stmt(*f->body, [&](const mcpl::Stmt& s) {
                if (s.kind == mcpl::Stmt::Kind::Barrier) written_spaces[&s] = s.name;
            });
        }
    const OuterNames outer = outer_names(program, library);

    const std::vector<std::string> root_path = *library.path(hdl::kRootDescription, target);
    for (size_t step = 0; step + 1 < root_path.size(); ++step) {
        const std::string& from = root_path[step];
        const std::string& to = root_path[step + 1];
        const hdl::HardwareModel& from_model = *library.find(from);
        const hdl::HardwareModel& to_model = *library.find(to);
        std::vector<std::pair<mcpl::Module*, mcpl::Function*>> functions;
        for (auto& m : program.modules)
            for (auto& f : m->functions)
                if (f->hardware == from) functions.emplace_back(m.get(), f.get());
        if (functions.empty()) continue;
        auto mapping = find_par_group_mapping(from_model, to_model);
        if (auto* err = std::get_if<MappingError>(&mapping)) {
            for (auto& [m, f] : functions) {
                auto& d = diags.error(f->hardware_location,
                                      fmt::format("cannot translate '{}' from '{}' to '{}': '{}' breaks the rules "
                                                  "for a child description (thesis section 3.6.1): {}",
                                                  f->name, from, to, to, err->message));
                DiagnosticEngine::add_note(d, to_model.location, fmt::format("'{}' is described here", to));
            }
            return false;
        }
        for (auto& [m, f] : functions) {
            translate_memory_spaces(*f, from_model, to_model, std::get<ParGroupMapping>(mapping), diags);
            translate_hardware_values(*f, from_model, to_model, std::get<ParGroupMapping>(mapping));
            translate_foreach(*f, to_model, std::get<ParGroupMapping>(mapping), outer, diags);
            forget_declarations(*f);
            f->hardware = to;
        }
        for (auto& m : program.modules) update_imports(program, *m, from, to);
        if (diags.error_count() > errors) return false;
        if (!mcpl::check_program(program, library, diags, {.launch_barriers = false, .source_warnings = false})) return false;
    }
    for (const mcpl::Function* f : moved) mcpl::check_launch_barriers(*f, *library.find(target), written_spaces, diags);
    return diags.error_count() == errors;
}

}  // namespace mcl::translate
