// The runtime's choice of version per leaf (backends/starpu/VersionTable.h).
#include "backends/starpu/VersionTable.h"

#include <gtest/gtest.h>

#include "tests/compiler/CompilerTestSupport.h"

namespace mcl::backends::starpu {
namespace {

// The built-in hierarchy, loaded by checking a trivial module.
const hdl::HardwareLibrary& library() {
    static mcpl::testing::CheckedText checked = mcpl::testing::check_text("module m;\n");
    return *checked.library;
}

const std::vector<LeafSource> kLeaves = {{"alveo_u250", {"hls"}},
                                         {"fermi", {"cuda", "opencl"}},
                                         {"hopper", {"cuda", "opencl"}},
                                         {"x86_avx2", {"cpp", "opencl"}}};

const LeafChoice& choice(const KernelTable& t, const std::string& leaf) {
    for (const LeafChoice& c : t.leaves)
        if (c.leaf == leaf) return c;
    throw std::runtime_error("no leaf " + leaf);
}

const GenericChoice* generic(const KernelTable& t, const std::string& type, WorkerKind kind) {
    for (const GenericChoice& g : t.generic)
        if (g.device_type == type && g.kind == kind) return &g;
    return nullptr;
}

TEST(VersionTable, DeepestVersionOnTheLeafsPathWinsAndLaterWinsAtOneLevel) {
    std::vector<VersionSource> versions = {{"mm", "perfect", {"mm"}},
                                           {"mm_gpu", "gpu", {"mm"}},
                                           {"mm_gpu_v1", "gpu", {"mm"}},
                                           {"mm_hopper", "hopper", {"mm"}}};
    std::vector<KernelTable> tables = choose_versions(versions, kLeaves, library());
    ASSERT_EQ(tables.size(), 1u);
    const KernelTable& t = tables.front();
    EXPECT_EQ(choice(t, "hopper").version, 3u);
    EXPECT_EQ(choice(t, "fermi").version, 2u);
    EXPECT_EQ(choice(t, "fermi").same_level, std::vector<size_t>{1});
    EXPECT_EQ(choice(t, "x86_avx2").version, 0u);
    EXPECT_EQ(choice(t, "alveo_u250").version, 0u);
    EXPECT_TRUE(choice(t, "alveo_u250").kinds.empty());  // hls only: no worker kind
    EXPECT_EQ(choice(t, "x86_avx2").kinds, (std::vector<WorkerKind>{WorkerKind::cpu, WorkerKind::opencl}));
    EXPECT_EQ(choice(t, "hopper").kinds, std::vector<WorkerKind>{WorkerKind::opencl});
}

TEST(VersionTable, UnmatchedDevicesRunTheirGenericLevelsVersion) {
    std::vector<VersionSource> versions = {{"mm", "perfect", {"mm"}},
                                           {"mm_gpu", "gpu", {"mm"}},
                                           {"mm_x86", "x86_avx2", {"mm"}}};
    KernelTable t = choose_versions(versions, kLeaves, library()).front();
    // gpu: fermi runs mm_gpu already, so its implementation serves.
    const GenericChoice* gpu = generic(t, "gpu", WorkerKind::opencl);
    ASSERT_NE(gpu, nullptr);
    EXPECT_EQ(gpu->version, 1u);
    EXPECT_EQ(gpu->leaf, "fermi");
    // cpu: the perfect version, generated for x86_avx2 besides its own.
    const GenericChoice* cpu = generic(t, "cpu", WorkerKind::cpu);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(cpu->version, 0u);
    EXPECT_EQ(cpu->leaf, "x86_avx2");
    EXPECT_TRUE(t.implementations.count({0, "x86_avx2", WorkerKind::cpu}));
    EXPECT_TRUE(t.implementations.count({2, "x86_avx2", WorkerKind::cpu}));
    EXPECT_EQ(generic(t, "gpu", WorkerKind::cpu), nullptr);  // CPU workers are cpu devices only
}

TEST(VersionTable, LeafWithoutAVersionOnItsPathHasNone) {
    std::vector<VersionSource> versions = {{"k_gpu", "gpu", {"k"}}};
    KernelTable t = choose_versions(versions, kLeaves, library()).front();
    EXPECT_FALSE(choice(t, "x86_avx2").version.has_value());
    EXPECT_TRUE(choice(t, "x86_avx2").kinds.empty());
    EXPECT_EQ(generic(t, "cpu", WorkerKind::cpu), nullptr);
    std::string text = version_table_text({t}, versions);
    EXPECT_NE(text.find("x86_avx2   <- none (no version on its path)"), std::string::npos) << text;
}

TEST(VersionTable, EachKernelHasItsOwnTable) {
    std::vector<VersionSource> versions = {{"two", "perfect", {"a", "b"}}, {"two_gpu", "gpu", {"b"}}};
    std::vector<KernelTable> tables = choose_versions(versions, kLeaves, library());
    ASSERT_EQ(tables.size(), 2u);
    EXPECT_EQ(choice(tables[0], "hopper").version, 0u);
    EXPECT_EQ(choice(tables[1], "hopper").version, 1u);
}

}  // namespace
}  // namespace mcl::backends::starpu
