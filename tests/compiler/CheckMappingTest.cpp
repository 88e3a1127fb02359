// check_mapping: foreach nesting against the par_groups of a description,
// memory-space visibility and defaults (thesis Fig. 3.6), device functions,
// and barriers. Each rule has a bad input whose message and location are
// checked, and good inputs whose memory spaces are checked.
#include <functional>
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ast/AstWalk.h"
#include "compiler/sema/CheckProgram.h"
#include "compiler/sema/LoadModules.h"
#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::mcpl {
namespace {

using ::testing::HasSubstr;
using testing::check_files;
using testing::expect_clean;
using testing::expect_error;
using testing::find_decl;
using testing::check_text;
using testing::CheckedText;

const Function* find_function(const CheckedText& checked, const std::string& name) {
    for (const auto& module : checked.program.modules)
        for (const auto& fn : module->functions)
            if (fn->name == name) return fn.get();
    return nullptr;
}

// The memory space given to variable `var` of function `fn`.
std::string space_of(const CheckedText& checked, const std::string& fn, const std::string& var) {
    if (!find_function(checked, fn)) return "<no function " + fn + ">";
    const Decl* decl = find_decl(checked, fn, var);
    return decl ? decl->memory_space : "<no variable " + var + ">";
}

// ---------------------------------------------------------------- examples

TEST(CheckMapping, ExamplesAreClean) {
    const std::string dir = MCL_EXAMPLES_DIR;
    for (const char* file :
         {"matmul/matmul.mcl", "matmul/matmul_gpu.mcl", "matmul/matmul_gpu_v1.mcl",
          "blackscholes/blackscholes.mcl", "reduction/reduction.mcl", "histogram/histogram.mcl",
          "vectoradd/vectoradd.mcl", "spmv/spmv.mcl", "convolution/convolution.mcl"}) {
        SCOPED_TRACE(file);
        expect_clean(check_files({dir + "/" + file}, {dir}));
    }
}

TEST(CheckMapping, MatmulSpaces) {
    CheckedText checked = check_files({std::string(MCL_EXAMPLES_DIR) + "/matmul/matmul.mcl"});
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "matmul", "c"), "main");
    EXPECT_EQ(space_of(checked, "matmul", "a"), "main");
    EXPECT_EQ(space_of(checked, "matmul", "sum"), "reg");  // written, in a thread
    EXPECT_EQ(space_of(checked, "matmul", "k"), "reg");    // the loop counter is written
    EXPECT_EQ(space_of(checked, "matmul", "n"), "");       // a size, never written
    EXPECT_EQ(space_of(checked, "matmul", "i"), "");       // a foreach index
}

TEST(CheckMapping, GpuSharedMemoryAtBlockLevel) {
    CheckedText checked =
        check_files({std::string(MCL_EXAMPLES_DIR) + "/matmul/matmul_gpu_v1.mcl"});
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "matmul", "l_a"), "local");
    EXPECT_EQ(space_of(checked, "matmul", "c"), "dev");
    EXPECT_EQ(space_of(checked, "matmul", "nrThreadsM"), "");  // const, never written
    EXPECT_EQ(space_of(checked, "matmul", "sum"), "reg");
}

// ------------------------------------------------------------ foreach nesting

TEST(CheckMapping, ThesisFigure36Nesting) {
    // Two dimensions of blocks, `local` declared in a block, two dimensions
    // of threads inside, `reg` in a thread.
    expect_clean(check_text(R"(module m;
import gpu;
gpu void f(int n, int m) {
    foreach (int ib in n blocks) {
        foreach (int jb in m blocks) {
            local int[n] a;
            foreach (int it in n threads) {
                foreach (int jt in m threads) {
                    reg int b;
                    b = a[it];
                }
            }
        }
    }
}
)"));
}

TEST(CheckMapping, UnknownParGroup) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n) {
    foreach (int i in n threds) {
    }
}
)",
                 "t.mcl:4:25: error: 'threds' is not a par_group of description 'perfect'; "
                 "did you mean 'threads'?");
}

TEST(CheckMapping, SkippedLevel) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int i in n threads) {
    }
}
)",
                 "t.mcl:4:25: error: foreach over 'threads' must be nested in a foreach over "
                 "'blocks'");
}

TEST(CheckMapping, SkippedLevelInsideAForeach) {
    // fermi: blocks > warps > threads
    expect_error(R"(module m;
import fermi;
fermi void f(int n) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
        }
    }
}
)",
                 "t.mcl:5:30: error: foreach over 'threads' must be nested in a foreach over "
                 "'warps'; expected a foreach over 'blocks' or 'warps' here");
}

TEST(CheckMapping, OuterGroupInsideInnerGroup) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            foreach (int c in n blocks) {
            }
        }
    }
}
)",
                 "t.mcl:6:33: error: foreach over 'blocks' cannot be nested in a foreach over "
                 "'threads'; expected a foreach over 'threads' here");
}

TEST(CheckMapping, DimensionUsesEnclosingIndex) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n) {
    foreach (int i in n threads) {
        foreach (int j in i + 1 threads) {
        }
    }
}
)",
                 "t.mcl:5:27: error: the dimension of a foreach may not depend on 'i', the index "
                 "of an enclosing foreach");
}

// -------------------------------------------------------------- memory spaces

TEST(CheckMapping, UnknownMemorySpace) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n, maim float[n] x) {
}
)",
                 "t.mcl:3:23: error: 'maim' is not a memory space of description 'perfect'; did "
                 "you mean 'main'?");
}

TEST(CheckMapping, SpaceTooDeepAtTopLevel) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n) {
    reg float r;
    r = 1.0;
}
)",
                 "t.mcl:4:5: error: memory space 'reg' belongs to par_unit 'thread' and is not "
                 "visible here; declare it inside a foreach over 'threads'");
}

TEST(CheckMapping, BlockSpaceOutsideBlocks) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    local float[n] l;
}
)",
                 "t.mcl:4:5: error: memory space 'local' belongs to par_unit 'block' and is not "
                 "visible here; declare it inside a foreach over 'blocks'");
}

TEST(CheckMapping, ThreadSpaceAtBlockLevel) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        reg float[4] r;
    }
}
)",
                 "t.mcl:5:9: error: memory space 'reg' belongs to par_unit 'thread' and is not "
                 "visible here; declare it inside a foreach over 'threads'");
}

TEST(CheckMapping, OuterSpacesAreVisibleDeeper) {
    CheckedText checked = check_text(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        local float[32] l;
        foreach (int t in 32 threads) {
            dev float[4] d;
            d[0] = l[t];
            l[t] = d[0];
        }
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "f", "d"), "dev");
    EXPECT_EQ(space_of(checked, "f", "l"), "local");
}

TEST(CheckMapping, SharedSpaceDeclaredInsideTheUnitsThatShareIt) {
    // Every thread would run the declaration: the reference gave each its
    // own `slot`, the backends one per block, on which the threads raced.
    expect_error(R"(module m;
import gpu;
gpu void f(int n, float[n, 32] out) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            local float[1] slot;
            slot[0] = 1.0;
            out[b, t] = slot[0];
        }
    }
}
)",
                 "t.mcl:6:13: error: 'slot' cannot be declared inside a foreach over 'threads': memory space "
                 "'local' is shared by the units inside a 'block', but here each 'thread' would declare its own; "
                 "declare it inside the foreach over 'blocks', before the foreach over 'threads'");
}

TEST(CheckMapping, SharedSpaceDeclaredInADeviceFunction) {
    // The C family backends placed no storage for it at all.
    expect_error(R"(module m;
import gpu;
gpu float neighbour(const int t, const float v) {
    local float[32] slots;
    slots[t] = v;
    barrier(local);
    return slots[(t + 1) % 32];
}
gpu void f(int n, float[n, 32] out) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            out[b, t] = neighbour(t, 1.0);
        }
    }
}
)",
                 "t.mcl:4:5: error: 'slots' cannot be declared in a device function: memory space 'local' is "
                 "shared by the units inside a 'block', but a device function runs on each 'thread' that calls "
                 "it; declare it inside the foreach over 'blocks' and pass it as a parameter");
}

TEST(CheckMapping, FirstVisibleOfSeveralSpaces) {
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect void f(reg main float top) {
    foreach (int i in 4 threads) {
        reg main float inner;
        inner = top;
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "f", "top"), "main");
    EXPECT_EQ(space_of(checked, "f", "inner"), "reg");
}

TEST(CheckMapping, DefaultsFollowTheNesting) {
    CheckedText checked = check_text(R"(module m;
import gpu;
gpu void f(int n, float[n] out) {
    int count = 0;
    count++;
    foreach (int b in n blocks) {
        float[32] staged;
        foreach (int t in 32 threads) {
            float x = 1.0;
            float y = 2.0;
            y += x;
            staged[t] = y;
            out[t] = staged[t];
        }
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "f", "out"), "dev");     // array parameter
    EXPECT_EQ(space_of(checked, "f", "count"), "dev");   // written, top level
    EXPECT_EQ(space_of(checked, "f", "staged"), "dev");  // block has no default: the top's
    EXPECT_EQ(space_of(checked, "f", "y"), "reg");       // written, in a thread
    EXPECT_EQ(space_of(checked, "f", "x"), "");          // never written, scalar
}

// A description whose memory spaces are not `default`.
const char* const kNoDefault = R"(hardware_description bare;
specializes perfect;
parallelism hierarchy {
  memory_space main { }
  par_group threads {
    max_nr_units = unlimited;
    par_unit thread { memory_space reg { } }
  }
}
device bare { mem; ic; cores; }
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

// Module text `t.mcl` checked against the standard descriptions and one
// more, `description` (file `file`).
struct CheckedWithDescription {
    SourceManager sources;
    DiagnosticEngine diags{sources};
    hdl::HardwareLibrary library{sources, diags};
    Program program;

    CheckedWithDescription(const char* file, const char* description, const char* text) {
        library.add_directory(MCL_STDLIB_HW_DIR, false);
        library.add_buffer(file, description, true);
        library.finish();
        if (diags.has_errors()) return;
        program = load_modules_from_text("t.mcl", text, {}, sources, library, diags);
        check_program(program, library, diags);
    }
    std::string first_diagnostic() const {
        return diags.diagnostics().empty() ? "" : diags.format_text(diags.diagnostics().front());
    }
};

TEST(CheckMapping, NoDefaultSpaceVisible) {
    CheckedWithDescription checked("bare.hdl", kNoDefault, R"(module m;
import bare;
bare void f(int n, main float[n] ok) {
    foreach (int i in n threads) {
        float x;
        x = ok[i];
    }
}
)");
    ASSERT_EQ(checked.diags.error_count(), 1u);
    EXPECT_THAT(checked.first_diagnostic(),
                HasSubstr("t.mcl:5:15: error: 'x' needs a memory space: no default memory space "
                          "is visible here"));
}

// A description whose middle par_unit has the default memory space and whose
// innermost has none.
const char* const kMiddleDefault = R"(hardware_description middle;
specializes perfect;
parallelism hierarchy {
  memory_space main { default; }
  par_group blocks {
    max_nr_units = unlimited;
    par_unit block {
      memory_space shared { default; }
      par_group threads {
        max_nr_units = unlimited;
        par_unit thread { memory_space reg { } }
      }
    }
  }
}
device middle { mem; ic; cores; }
memory mem { space(main); capacity = unlimited B; }
memory on_chip { space(shared); capacity = unlimited B; }
memory regs { space(reg); capacity = unlimited B; addressable = false; }
interconnect ic { connects(mem, cores.core[*]); latency = 1 cycle; bandwidth = unlimited bit/s; }
execution_group cores {
  max_nr_units = unlimited;
  execution_unit core {
    ls_units; regs; on_chip; slots(thread, 1);
    instructions ops { op((+), 1); op((-), 1); }
  }
}
load_store_group ls_units {
  max_nr_units = unlimited;
  load_store_unit ls_unit { slots(thread, 1); instructions ls_ops { op("load", 1); op("store", 1); } }
}
)";

TEST(CheckMapping, DefaultOfAnEnclosingParUnitIsNotTakenDeeper) {
    // `staged` in a thread would be one block-shared array for every thread
    // that runs the declaration: the top-level default is taken instead.
    CheckedWithDescription checked("middle.hdl", kMiddleDefault, R"(module m;
import middle;
middle void f(int n, float[n, 4] out) {
    foreach (int b in n blocks) {
        float[4] block_copy;
        foreach (int t in 4 threads) {
            float[4] staged;
            staged[t] = 1.0;
            block_copy[t] = staged[t];
            out[b, t] = block_copy[t];
        }
    }
}
)");
    ASSERT_FALSE(checked.diags.has_errors()) << checked.first_diagnostic();
    std::map<std::string, std::string> spaces;
    for_each_stmt(*checked.program.modules.front()->functions.front()->body, [&](const Stmt& st) {
        if (st.kind == Stmt::Kind::Decl) spaces[st.decl->name()] = st.decl->memory_space;
    });
    EXPECT_EQ(spaces["block_copy"], "shared");
    EXPECT_EQ(spaces["staged"], "main");
}

// ------------------------------------------------------- device functions

TEST(CheckMapping, DeviceFunctionSeesThreadSpaces) {
    // `scale` runs inside the threads through `helper`: its `reg` parameter
    // and its written local (default `reg`) are fine.
    CheckedText checked = check_text(R"(module m;
import perfect;
perfect float scale(reg float v) {
    float r = v;
    r *= 2.0;
    return r;
}
perfect float helper(const float v) {
    return scale(v);
}
perfect void k(int n, float[n] out) {
    foreach (int i in n threads) {
        out[i] = helper(out[i]);
    }
}
)");
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "scale", "v"), "reg");
    EXPECT_EQ(space_of(checked, "scale", "r"), "reg");
}

TEST(CheckMapping, LibraryFunctionCalledFromThreads) {
    CheckedText checked =
        check_files({std::string(MCL_EXAMPLES_DIR) + "/reduction/reduction.mcl"}, {MCL_EXAMPLES_DIR});
    expect_clean(checked);
    EXPECT_EQ(space_of(checked, "atomicAdd", "r"), "reg");  // first visible of `reg main`
    EXPECT_EQ(space_of(checked, "reduction", "sum"), "main");
}

TEST(CheckMapping, UncalledFunctionIsAKernel) {
    expect_error(R"(module m;
import perfect;
perfect void k(reg float v) {
}
)",
                 "t.mcl:3:16: error: memory space 'reg' belongs to par_unit 'thread' and is not "
                 "visible here; declare it inside a foreach over 'threads'");
}

// ---------------------------------------------------------------- barriers

TEST(CheckMapping, BarrierOnSharedSpace) {
    expect_clean(check_text(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            barrier(local);
        }
    }
}
)"));
}

TEST(CheckMapping, BarrierOnPrivateSpace) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            barrier(reg);
        }
    }
}
)",
                 "t.mcl:6:21: error: barrier on 'reg', which is private to each 'thread'; "
                 "expected a memory space shared by the units of 'threads': 'dev' or 'local'");
}

TEST(CheckMapping, BarrierOnBlockSpaceBetweenBlocks) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        barrier(local);
    }
}
)",
                 "t.mcl:5:17: error: barrier on 'local', which is private to each 'block'; "
                 "expected a memory space shared by the units of 'blocks': 'dev'");
}

TEST(CheckMapping, BarrierOnSpaceOfInnerUnit) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        barrier(reg);
    }
}
)",
                 "t.mcl:5:17: error: barrier on 'reg', which belongs to par_unit 'thread' inside "
                 "each 'block'; expected a memory space shared by the units of 'blocks': 'dev'");
}

TEST(CheckMapping, BarrierInADeviceFunction) {
    // `sync` runs in the threads it is called from: `local` is shared by
    // them, `reg` is not.
    CheckedText checked = check_text(R"(module m;
import gpu;
gpu void sync() {
    barrier(local);
    barrier(reg);
}
gpu void f(int n) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            sync();
        }
    }
}
)");
    EXPECT_EQ(checked.diags->error_count(), 1u) << checked.text();
    EXPECT_THAT(checked.text(), HasSubstr("t.mcl:5:13: error: barrier on 'reg', which is private "
                                          "to each 'thread'"));
}

TEST(CheckMapping, BarrierOutsideForeach) {
    expect_error(R"(module m;
import perfect;
perfect void f(int n) {
    barrier(main);
}
)",
                 "t.mcl:4:5: error: barrier outside any foreach: no units to synchronise");
}

TEST(CheckMapping, BarrierOnUnknownSpace) {
    expect_error(R"(module m;
import gpu;
gpu void f(int n) {
    foreach (int b in n blocks) {
        foreach (int t in 32 threads) {
            barrier(locl);
        }
    }
}
)",
                 "t.mcl:6:21: error: 'locl' is not a memory space of description 'gpu'; did you "
                 "mean 'local'?");
}

}  // namespace
}  // namespace mcl::mcpl
