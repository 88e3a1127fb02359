// The model queries of point 3 of the HDL issue on three real leaves of the
// built-in library: fermi (GTX 480), hopper (H100 SXM5) and the x86 AVX2 CPU.
// Expected numbers are the vendor figures cited in the .hdl files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "hdl/Schema.h"
#include "tests/hdl/HdlTestSupport.h"

namespace mcl::hdl::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

class StdlibModel : public ::testing::Test {
protected:
    static void SetUpTestSuite() { lib_ = new LoadedLibrary(load_stdlib()); }
    static void TearDownTestSuite() { delete lib_; }
    const HardwareModel& model(const std::string& name) {
        const HardwareModel* m = lib_->library->find(name);
        EXPECT_NE(m, nullptr) << lib_->text();
        return *m;
    }
    static const DeviceNode& node(const HardwareModel& m, const std::string& path) {
        for (const DeviceNode* n : m.nodes_of_kind(BlockKind::Device))
            if (n->path == path) return *n;
        throw std::runtime_error("no node " + path);
    }
    static std::vector<std::string> names(const std::vector<const DeviceNode*>& nodes) {
        std::vector<std::string> out;
        for (const DeviceNode* n : nodes) out.push_back(n->name);
        return out;
    }
    static LoadedLibrary* lib_;
};
LoadedLibrary* StdlibModel::lib_ = nullptr;

TEST_F(StdlibModel, LibraryLoadsClean) { EXPECT_EQ(lib_->text(), ""); }

TEST_F(StdlibModel, FermiParallelismHierarchy) {
    const HardwareModel& m = model("fermi");
    std::vector<std::string> groups;
    for (const ParGroup* g : m.par_groups()) groups.push_back(g->name);
    EXPECT_THAT(groups, ElementsAre("blocks", "warps", "threads"));
    EXPECT_EQ(m.executing_par_unit().name, "thread");
    const ParGroup* threads = m.find_par_group("threads");
    EXPECT_EQ(threads->units.bound, UnitCount::Bound::Exact);
    EXPECT_EQ(threads->units.count.value, 32);
    EXPECT_EQ(m.find_par_group("blocks")->units.bound, UnitCount::Bound::Max);
    EXPECT_TRUE(m.find_memory_space("global")->is_default);
    EXPECT_TRUE(m.find_memory_space("constant")->read_only);
    EXPECT_EQ(m.memory_space_owner("global"), nullptr);
    EXPECT_EQ(m.memory_space_owner("shared")->name, "block");
    EXPECT_EQ(m.memory_space_owner("reg")->name, "thread");
    EXPECT_EQ(m.memory_space_owner("local")->name, "thread");
}

TEST_F(StdlibModel, FermiMemoriesCachesAndSlots) {
    const HardwareModel& m = model("fermi");
    EXPECT_THAT(names(m.memories_for_space("shared")), ElementsAre("shared_mem"));
    const DeviceNode& shared = *m.memories_for_space("shared")[0];
    EXPECT_EQ(shared.capacity->value, 48 * 1024);
    EXPECT_EQ(*shared.nr_banks, 32);
    EXPECT_EQ(shared.instance_count().value, 15) << "one per SM";
    const DeviceNode& l2 = node(m, "fermi.l2_cache");
    EXPECT_EQ(l2.capacity->value, 768 * 1024);
    EXPECT_EQ(l2.kind, BlockKind::Cache);
    const DeviceNode& l1 = node(m, "fermi.sms.sm.l1_cache");
    EXPECT_EQ(*l1.cache_line_size, 128);
    const DeviceNode& regs = *m.memories_for_space("reg")[0];
    EXPECT_FALSE(regs.addressable);
    EXPECT_EQ(regs.capacity->value, 32768 * 4);

    const DeviceNode& sm = *m.execution_units_for("block")[0];
    EXPECT_EQ(sm.name, "sm");
    EXPECT_EQ(sm.slots_for("block"), 8);
    EXPECT_EQ(sm.slots_for("warp"), 48);
    EXPECT_EQ(sm.parent->units->count.value, 15);
}

TEST_F(StdlibModel, FermiInterconnectsSimdAndFeedback) {
    const HardwareModel& m = model("fermi");
    const DeviceNode& l2 = node(m, "fermi.l2_cache");
    const DeviceNode& sm = *m.execution_units_for("block")[0];
    auto ics = m.interconnects_between(l2, sm);
    ASSERT_EQ(ics.size(), 1u);
    EXPECT_EQ(*ics[0]->latency, 300);
    const DeviceNode& mem_ic = node(m, "fermi.mem_ic");
    EXPECT_EQ(mem_ic.bandwidth->value, 177'408'000'000);  // 177.4 GB/s
    ASSERT_NE(m.host_link(), nullptr);
    EXPECT_EQ(m.host_link()->name, "pcie");
    EXPECT_EQ(m.host_link()->bandwidth->value, 8'000'000'000);

    EXPECT_THAT(names(m.simd_groups()), UnorderedElementsAre("cuda_cores", "load_store_units"));
    EXPECT_THAT(names(m.load_store_groups()), ElementsAre("load_store_units"));
    EXPECT_EQ(m.load_store_groups()[0]->units->count.value, 16);
    EXPECT_THAT(m.performance_feedback_names(),
                UnorderedElementsAre("occupancy", "load_store_optimality"));
}

TEST_F(StdlibModel, HopperModel) {
    const HardwareModel& m = model("hopper");
    EXPECT_EQ(m.parent, "nvidia");
    EXPECT_EQ(m.executing_par_unit().name, "thread");
    const DeviceNode& sm = *m.execution_units_for("block")[0];
    EXPECT_EQ(sm.parent->units->count.value, 132);
    EXPECT_EQ(sm.slots_for("block"), 32);
    EXPECT_EQ(sm.slots_for("warp"), 64);
    EXPECT_EQ(m.memories_for_space("shared")[0]->capacity->value, 228 * 1024);
    EXPECT_EQ(node(m, "hopper.l2_cache").capacity->value, 50LL << 20);
    EXPECT_EQ(node(m, "hopper.device_mem").capacity->value, 80LL << 30);
    EXPECT_EQ(node(m, "hopper.mem_ic").bandwidth->value, 3'350'000'000'000);
    EXPECT_EQ(*node(m, "hopper.sms.sm.l1_cache").cache_line_size, 128);
    EXPECT_EQ(*node(m, "hopper.sms").clock_frequency, 1'980'000'000);
    const DeviceNode& shared = *m.memories_for_space("shared")[0];
    // A CUDA core sits in a sub-core, which the shared-memory interconnect reaches.
    const DeviceNode* lane = nullptr;
    for (const DeviceNode* u : m.execution_units_for("thread"))
        if (u->kind == BlockKind::SimdUnit) lane = u;
    ASSERT_NE(lane, nullptr);
    EXPECT_EQ(lane->path, "hopper.sms.sm.sub_cores.sub_core.fp32_cores.fp32_core");
    EXPECT_EQ(lane->instance_count().value, 132 * 4 * 32);
    EXPECT_FALSE(m.interconnects_between(shared, *lane).empty());
    EXPECT_EQ(m.host_link()->name, "pcie");
    EXPECT_THAT(m.performance_feedback_names(),
                UnorderedElementsAre("occupancy", "load_store_optimality"));
}

TEST_F(StdlibModel, X86Avx2Model) {
    const HardwareModel& m = model("x86_avx2");
    std::vector<std::string> groups;
    for (const ParGroup* g : m.par_groups()) groups.push_back(g->name);
    EXPECT_THAT(groups, ElementsAre("threads", "vectors"));
    EXPECT_TRUE(m.find_par_group("threads")->units.count.unlimited);
    EXPECT_EQ(m.find_par_group("vectors")->units.count.value, 8) << "8 floats in a 256-bit vector";
    EXPECT_EQ(m.executing_par_unit().name, "vector");
    EXPECT_TRUE(m.find_memory_space("main")->is_default);
    for (const DeviceNode* c : m.nodes_of_kind(BlockKind::Cache)) EXPECT_EQ(*c->cache_line_size, 64);
    EXPECT_EQ(node(m, "x86_avx2.cores.core.l1_cache").capacity->value, 32 * 1024);
    const DeviceNode& core = *m.execution_units_for("thread")[0];
    EXPECT_EQ(core.slots_for("thread"), 2) << "two hardware threads per core";
    EXPECT_EQ(core.parent->units->count.value, 2);
    EXPECT_THAT(names(m.simd_groups()), UnorderedElementsAre("fma_lanes", "vector_load_store"));
    EXPECT_EQ(m.host_link(), nullptr) << "the CPU is the host";
    const DeviceNode& l1 = node(m, "x86_avx2.cores.core.l1_cache");
    const DeviceNode& ls_lane = *m.load_store_groups()[0]->children[0];
    EXPECT_EQ(ls_lane.kind, BlockKind::LoadStoreUnit);
    EXPECT_FALSE(m.interconnects_between(l1, ls_lane).empty());
}

// The numbers translation's choice of threads per block reads: processors
// that take blocks (the vendor's multiprocessor counts) and the SIMD width
// of the lanes that run threads.
TEST_F(StdlibModel, ProcessorsAndSimdWidths) {
    EXPECT_EQ(model("gpu").nr_processors("block"), 16);
    EXPECT_EQ(model("hopper").nr_processors("block"), 132);
    EXPECT_EQ(model("fermi").nr_processors("block"), 15);
    EXPECT_EQ(model("mi100").nr_processors("block"), 120);
    EXPECT_EQ(model("gpu").simd_width("thread"), 32);
    EXPECT_EQ(model("fpga").simd_width("lane"), 16);
    EXPECT_EQ(model("fpga").nr_processors("pipeline"), 1);
    EXPECT_EQ(model("gpu").nr_processors("no_such_unit"), 0);
    EXPECT_EQ(model("gpu").simd_width("block"), 0);
}

TEST_F(StdlibModel, HierarchyOfTheBuiltInLibrary) {
    const HardwareLibrary& lib = *lib_->library;
    EXPECT_THAT(*lib.path("perfect", "hopper"), ElementsAre("perfect", "accelerator", "gpu", "nvidia", "hopper"));
    EXPECT_THAT(*lib.path("perfect", "x86_avx2"), ElementsAre("perfect", "cpu", "x86_avx2"));
    EXPECT_THAT(*lib.path("accelerator", "xeon_phi"), ElementsAre("accelerator", "mic", "xeon_phi"));
    for (const std::string& leaf : lib.leaves())
        EXPECT_TRUE(lib.is_ancestor("perfect", leaf)) << leaf;
}

}  // namespace
}  // namespace mcl::hdl::testing
