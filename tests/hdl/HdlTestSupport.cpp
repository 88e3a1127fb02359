#include "tests/hdl/HdlTestSupport.h"

#include <sstream>

namespace mcl::hdl::testing {

const char* const kTestPerfect = R"(hardware_description perfect;
parallelism hierarchy {
  memory_space main { default; }
  par_group threads {
    max_nr_units = unlimited;
    par_unit thread { memory_space reg { default; } }
  }
}
device perfect { mem; ic; cores; }
memory mem { space(main); capacity = unlimited B; }
memory regs { space(reg); capacity = unlimited B; addressable = false; }
interconnect ic { connects(mem, cores.core[*]); latency = 1 cycle; bandwidth = unlimited bit/s; }
execution_group cores {
  max_nr_units = unlimited;
  execution_unit core {
    ls_units; regs; slots(thread, 1);
    instructions ops { op((+), 1); op((-), 1); }
  }
}
load_store_group ls_units {
  max_nr_units = unlimited;
  load_store_unit ls_unit { slots(thread, 1); instructions ls_ops { op("load", 1); op("store", 1); } }
}
)";

std::string LoadedLibrary::text() const {
    std::ostringstream out;
    diags->print_text(out);
    return out.str();
}

LoadedLibrary load_texts(const std::vector<std::pair<std::string, std::string>>& files,
                         bool with_perfect) {
    LoadedLibrary l;
    if (with_perfect) l.library->add_buffer("perfect.hdl", kTestPerfect, false);
    for (const auto& [path, text] : files) l.library->add_buffer(path, text, true);
    l.library->finish();
    return l;
}

LoadedLibrary load_stdlib() {
    LoadedLibrary l;
    l.library->load(MCL_STDLIB_HW_DIR, {});
    return l;
}

}  // namespace mcl::hdl::testing
