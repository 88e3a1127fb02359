// The library: loading, user overrides, duplicates, the specializes tree
// (unknown parent, cycles, a second root, a parent with errors), and the
// tree queries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/hdl/HdlTestSupport.h"

namespace mcl::hdl::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A valid child description named `name` of `parent`.
std::string child(const std::string& name, const std::string& parent) {
    return "hardware_description " + name + ";\nspecializes " + parent + R"(;
parallelism hierarchy {
  memory_space main { default; }
  par_group threads { max_nr_units = unlimited; perfect.hierarchy.threads.thread; }
}
device )" + name + R"( { perfect.mem; cores; }
execution_group cores { nr_units = 4; execution_unit core { slots(thread, 2); } }
)";
}

TEST(HardwareLibrary, TreeQueries) {
    auto l = load_texts({{"a.hdl", child("a", "perfect")},
                         {"b.hdl", child("b", "a")},
                         {"c.hdl", child("c", "a")},
                         {"d.hdl", child("d", "perfect")}});
    ASSERT_EQ(l.text(), "");
    const HardwareLibrary& lib = *l.library;
    EXPECT_THAT(lib.names(), ElementsAre("a", "b", "c", "d", "perfect"));
    EXPECT_THAT(lib.children("perfect"), ElementsAre("a", "d"));
    EXPECT_THAT(lib.children("a"), ElementsAre("b", "c"));
    EXPECT_THAT(lib.leaves(), ElementsAre("b", "c", "d"));
    EXPECT_EQ(lib.parent("b"), "a");
    EXPECT_EQ(lib.parent("perfect"), std::nullopt);
    EXPECT_THAT(*lib.path("perfect", "c"), ElementsAre("perfect", "a", "c"));
    EXPECT_THAT(*lib.path("b", "b"), ElementsAre("b"));
    EXPECT_EQ(lib.path("b", "a"), std::nullopt) << "paths only go down";
    EXPECT_EQ(lib.path("d", "c"), std::nullopt);
    EXPECT_TRUE(lib.is_ancestor("a", "b"));
    EXPECT_FALSE(lib.is_ancestor("b", "a"));
}

TEST(HardwareLibrary, UserDescriptionOverridesBuiltIn) {
    LoadedLibrary l;
    l.library->add_buffer("perfect.hdl", kTestPerfect, false);
    l.library->add_buffer("a.hdl", child("a", "perfect"), false);
    std::string mine = child("a", "perfect");
    mine.replace(mine.find("nr_units = 4"), 12, "nr_units = 64");
    l.library->add_buffer("user/a.hdl", mine, true);
    l.library->finish();
    ASSERT_EQ(l.text(), "");
    EXPECT_EQ(l.library->file_of("a"), "user/a.hdl");
    EXPECT_EQ(l.library->find("a")->device->children[1]->units->count.value, 64);
}

TEST(HardwareLibrary, DuplicateNames) {
    auto l = load_texts({{"a.hdl", child("a", "perfect")}, {"a2.hdl", child("a", "perfect")}});
    EXPECT_THAT(l.text(), HasSubstr("a2.hdl:1:22: error: duplicate hardware description 'a'"));
    EXPECT_THAT(l.text(), HasSubstr("a.hdl:1:22: note: first described here"));
}

TEST(HardwareLibrary, SpecializationCycle) {
    auto l = load_texts({{"a.hdl", child("a", "b")}, {"b.hdl", child("b", "a")}});
    EXPECT_THAT(l.text(), HasSubstr("a.hdl:2:13: error: specialization cycle: a -> b -> a"));
    EXPECT_THAT(l.text(), HasSubstr("b.hdl:2:13: error: specialization cycle: b -> a -> b"));
    EXPECT_EQ(l.library->find("a"), nullptr);
    EXPECT_NE(l.library->find("perfect"), nullptr);
}

TEST(HardwareLibrary, SelfSpecialization) {
    auto l = load_texts({{"a.hdl", child("a", "a")}});
    EXPECT_THAT(l.text(), HasSubstr("a.hdl:2:13: error: specialization cycle: a -> a"));
}

TEST(HardwareLibrary, RootCannotSpecialize) {
    std::string p = kTestPerfect;
    p.replace(p.find('\n'), 1, "\nspecializes a;\n");
    auto l = load_texts({{"perfect.hdl", p}, {"a.hdl", child("a", "perfect")}}, false);
    EXPECT_THAT(l.text(), HasSubstr("perfect.hdl:2:13: error: 'perfect' is the root of the hierarchy"));
}

TEST(HardwareLibrary, ChildOfABadDescriptionIsLeftOut) {
    std::string bad = child("a", "perfect");
    bad.replace(bad.find("slots(thread, 2);"), 17, "");
    auto l = load_texts({{"a.hdl", bad}, {"b.hdl", child("b", "a")}, {"c.hdl", child("c", "perfect")}});
    EXPECT_THAT(l.text(), HasSubstr("b.hdl:2:13: error: 'b' specializes 'a', which has errors"));
    EXPECT_EQ(l.library->find("b"), nullptr);
    EXPECT_NE(l.library->find("c"), nullptr) << "unrelated descriptions stay";
}

TEST(HardwareLibrary, MissingRoot) {
    auto l = load_texts({{"a.hdl", child("a", "perfect")}}, false);
    EXPECT_THAT(l.text(), HasSubstr("mclc: error: the hardware library has no description 'perfect'"));
}

TEST(HardwareLibrary, MissingDirectory) {
    LoadedLibrary l;
    l.library->load("/nonexistent/stdlib", {});
    EXPECT_THAT(l.text(), HasSubstr("hardware description directory '/nonexistent/stdlib' does not exist"));
}

TEST(HardwareLibrary, CrossDescriptionReferencesFollowIncludes) {
    // perfect.cores.core.ls_units walks into core, then through its reference
    // `ls_units;` to the top-level load_store_group.
    std::string a = child("a", "perfect");
    a.replace(a.find("slots(thread, 2);"), 17, "slots(thread, 2); perfect.cores.core.ls_units;");
    auto l = load_texts({{"a.hdl", a}});
    ASSERT_EQ(l.text(), "");
    EXPECT_EQ(l.library->find("a")->load_store_groups().size(), 1u);
}

}  // namespace
}  // namespace mcl::hdl::testing

namespace mcl::hdl::testing {
namespace {

// A library whose user descriptions' errors are deferred (UserErrors::Defer).
LoadedLibrary load_deferred(const std::vector<std::pair<std::string, std::string>>& user_files) {
    LoadedLibrary l;
    l.library = std::make_unique<HardwareLibrary>(*l.sources, *l.diags, UserErrors::Defer);
    l.library->add_buffer("perfect.hdl", kTestPerfect, false);
    for (const auto& [path, text] : user_files) l.library->add_buffer(path, text, true);
    l.library->finish();
    return l;
}

TEST(HardwareLibrary, DeferredUserErrorsAreAWarningUntilUsed) {
    std::string bad = child("bad", "perfect");
    bad.replace(bad.find("nr_units = 4"), 12, "nr_units = x");
    LoadedLibrary l = load_deferred({{"user/a.hdl", child("a", "perfect")},
                                     {"user/bad.hdl", bad},
                                     {"user/unparsable.hdl", "hardware_description unparsable; {"}});
    EXPECT_FALSE(l.diags->has_errors()) << l.text();
    EXPECT_THAT(l.text(), HasSubstr("warning: hardware description 'bad' has 1 error and is left out"));
    EXPECT_THAT(l.text(), HasSubstr("warning: hardware description 'unparsable' has"));
    EXPECT_TRUE(l.library->find("a"));
    EXPECT_FALSE(l.library->find("bad"));
    EXPECT_FALSE(l.library->report_errors_of("a"));
    EXPECT_TRUE(l.library->report_errors_of("bad"));
    EXPECT_EQ(l.diags->error_count(), 1u) << l.text();
    EXPECT_TRUE(l.library->report_errors_of("bad")) << "still bad";
    EXPECT_EQ(l.diags->error_count(), 1u) << "reported once";
    EXPECT_TRUE(l.library->report_errors_of("unparsable"));
    EXPECT_EQ(l.diags->error_count(), 2u) << l.text();
}

TEST(HardwareLibrary, ReportedUserErrorsAreErrors) {
    std::string bad = child("bad", "perfect");
    bad.replace(bad.find("nr_units = 4"), 12, "nr_units = x");
    LoadedLibrary l = load_texts({{"user/bad.hdl", bad}});
    EXPECT_TRUE(l.diags->has_errors());
    EXPECT_FALSE(l.library->report_errors_of("bad")) << "nothing held";
}

TEST(HardwareLibrary, DeferredBuiltInErrorsAreErrors) {
    LoadedLibrary l;
    l.library = std::make_unique<HardwareLibrary>(*l.sources, *l.diags, UserErrors::Defer);
    l.library->add_buffer("perfect.hdl", kTestPerfect, false);
    l.library->add_buffer("a.hdl", "hardware_description a; {", false);
    l.library->finish();
    EXPECT_TRUE(l.diags->has_errors());
}

// The original distribution's dialect: a child keeps its parent's `device`
// name, a cache has no line size; both load with a warning.
TEST(HardwareLibrary, DialectChildDescriptionsLoad) {
    std::string text = child("a", "perfect");
    text.replace(text.find("device a"), 8, "device perfect");
    text.replace(text.find("cores; }"), 8, "cores; l2; }\ncache l2 { space(main); capacity = 1 MB; }");
    LoadedLibrary l = load_texts({{"user/a.hdl", text}});
    EXPECT_FALSE(l.diags->has_errors()) << l.text();
    EXPECT_THAT(l.text(), HasSubstr("warning: 'device perfect' in description 'a' keeps the name of the description "
                                    "it specializes; it is read as 'device a'"));
    EXPECT_THAT(l.text(), HasSubstr("warning: cache 'l2' has no 'cache_line_size'"));
    const HardwareModel* a = l.library->find("a");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->device->path, "a");
    EXPECT_EQ(a->nodes_of_kind(BlockKind::Cache).size(), 1u);
}

TEST(HardwareLibrary, ADeviceNamedAfterAnotherDescriptionIsMissing) {
    std::string text = child("a", "perfect");
    text.replace(text.find("device a"), 8, "device b");
    LoadedLibrary l = load_texts({{"user/a.hdl", text}});
    EXPECT_THAT(l.text(), HasSubstr("error: description 'a' has no 'device a' block"));
}

}  // namespace
}  // namespace mcl::hdl::testing
