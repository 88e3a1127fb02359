// Every validation rule of the HDL front end, each with a bad input whose
// message and file:line:col are checked. The inputs are small child
// descriptions of a valid test `perfect`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/hdl/HdlTestSupport.h"

namespace mcl::hdl::testing {
namespace {

using ::testing::HasSubstr;

// A valid description that the cases below break one rule at a time.
constexpr const char* kValid = R"(hardware_description x;
specializes perfect;
parallelism hierarchy {
  memory_space dev { default; }
  par_group blocks {
    max_nr_units = 1024;
    par_unit block {
      memory_space local { }
      par_group threads { max_nr_units = 256; perfect.hierarchy.threads.thread; }
    }
  }
}
device x { mem; ic; sms; }
memory mem { space(dev); capacity = 2 GB; }
memory on_chip { space(local); capacity = 48 kB; nr_banks = 32; }
cache l1 { space(dev); capacity = 16 kB; cache_line_size = 128 B; }
interconnect ic { connects(mem, sms.sm[*]); latency = 400 cycles; bandwidth = 177 GB/s; }
execution_group sms {
  nr_units = 15;
  execution_unit sm {
    slots(block, 8);
    on_chip; l1;
    simd_group lanes {
      nr_units = 32;
      slots(thread, 1);
      simd_unit lane { instructions ops { op((+), 1); } }
    }
  }
}
)";

TEST(ValidateHdl, ValidDescriptionHasNoDiagnostics) {
    auto l = load_texts({{"x.hdl", kValid}});
    EXPECT_EQ(l.text(), "");
    EXPECT_NE(l.library->find("x"), nullptr);
}

struct BadCase {
    const char* rule;
    std::string text;
    const char* expected;  // "file:line:col: error: message" or a part of it
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.rule; }

std::string replace(std::string s, const std::string& from, const std::string& to) {
    size_t at = s.find(from);
    if (at == std::string::npos) throw std::runtime_error("test case does not apply: " + from);
    return s.replace(at, from.size(), to);
}

std::vector<BadCase> bad_cases() {
    const std::string v = kValid;
    return {
        {"syntax error", replace(v, "device x { mem; ic; sms; }", "device x { mem; ic; sms; "),
         "x.hdl:30:1: error: syntax error: extraneous input '<EOF>'"},
        {"unexpected character", replace(v, "nr_banks = 32;", "nr_banks = 32 @;"),
         "x.hdl:15:64: error: syntax error: unexpected character '@'"},
        {"unknown block kind", replace(v, "memory on_chip", "memroy on_chip"),
         "x.hdl:15:1: error: unknown block kind 'memroy'"},
        {"unknown property", replace(v, "capacity = 48 kB", "capcity = 48 kB"),
         "x.hdl:15:32: error: unknown property 'capcity'; did you mean 'capacity'?"},
        {"property of another block", replace(v, "nr_banks = 32;", "latency = 3 cycles;"),
         "x.hdl:15:50: error: 'latency' is not a property of a memory"},
        {"property written in the wrong form", replace(v, "space(local);", "space = 1;"),
         "x.hdl:15:18: error: 'space' is written as a call 'name(arguments);'"},
        {"duplicate property", replace(v, "nr_banks = 32;", "nr_banks = 32; nr_banks = 16;"),
         "x.hdl:15:65: error: duplicate property 'nr_banks'"},
        {"memory needs a space", replace(v, "memory mem { space(dev); ", "memory mem { "),
         "x.hdl:14:8: error: memory 'mem' needs a 'space' property"},
        {"interconnect needs a latency", replace(v, " latency = 400 cycles;", ""),
         "x.hdl:17:14: error: interconnect 'ic' needs a 'latency' property"},
        {"interconnect needs connects", replace(v, "connects(mem, sms.sm[*]); ", ""),
         "x.hdl:17:14: error: interconnect 'ic' needs a 'connects' property"},
        {"unknown unit", replace(v, "2 GB;", "2 GBs;"),
         "x.hdl:14:39: error: unknown unit 'GBs'"},
        {"wrong unit", replace(v, "400 cycles", "400 B"),
         "x.hdl:17:59: error: in 'latency': wrong unit 'B'; expected cycle or cycles"},
        {"missing unit", replace(v, "2 GB;", "2;"),
         "x.hdl:14:37: error: in 'capacity': missing unit; expected B, bit or bits"},
        {"unit on a count", replace(v, "nr_units = 15;", "nr_units = 15 B;"),
         "x.hdl:19:17: error: in 'nr_units': unexpected unit 'B'"},
        {"bits that are no whole bytes", replace(v, "48 kB", "3 bit"),
         "x.hdl:15:43: error: in 'capacity': 3 bit is not a whole number of bytes"},
        {"value overflow", replace(v, "2 GB;", "9999999999 GB;"),
         "x.hdl:14:37: error: in 'capacity': value does not fit in 64 bits"},
        {"integer literal too large", replace(v, "2 GB;", "99999999999999999999 GB;"),
         "x.hdl:14:37: error: integer literal '99999999999999999999' is too large"},
        {"division by zero", replace(v, "nr_banks = 32", "nr_banks = 32 / 0"),
         "x.hdl:15:64: error: in 'nr_banks': division by zero"},
        {"negative value", replace(v, "nr_banks = 32", "nr_banks = -32"),
         "x.hdl:15:61: error: in 'nr_banks': value must not be negative"},
        {"unlimited where a number is needed", replace(v, "400 cycles", "unlimited cycles"),
         "x.hdl:17:55: error: in 'latency': 'unlimited' is not allowed here"},
        {"boolean property", replace(v, "nr_banks = 32;", "addressable = 3;"),
         "x.hdl:15:64: error: in 'addressable': expected 'true' or 'false'"},
        {"group without a unit count", replace(v, "  nr_units = 15;\n", ""),
         "x.hdl:18:17: error: execution_group 'sms' needs 'nr_units' or 'max_nr_units'"},
        {"group with two unit counts", replace(v, "nr_units = 15;", "nr_units = 15; max_nr_units = 16;"),
         "x.hdl:19:18: error: execution_group 'sms' sets its number of units twice"},
        {"group with zero units", replace(v, "nr_units = 15;", "nr_units = 0;"),
         "x.hdl:19:14: error: 'nr_units' must be positive"},
        {"group without its unit", replace(v, "simd_unit lane { instructions ops { op((+), 1); } }", ""),
         "x.hdl:23:16: error: simd_group 'lanes' needs a simd_unit block"},
        {"group with the wrong unit kind", replace(v, "simd_unit lane", "execution_unit lane"),
         "x.hdl:26:7: error: a simd_group cannot contain a execution_unit; allowed here: simd_unit"},
        {"group with two units",
         replace(v, "simd_unit lane { instructions ops { op((+), 1); } }",
                 "simd_unit lane { instructions ops { op((+), 1); } } simd_unit lane2 { instructions o { op((+), 1); } }"),
         "x.hdl:26:59: error: a simd_group contains at most one simd_unit"},
        {"memory inside a par_unit", replace(v, "memory_space local { }", "memory local { space(dev); }"),
         "x.hdl:8:7: error: a par_unit cannot contain a memory"},
        {"par_group inside a device", replace(v, "device x { mem; ic; sms; }", "device x { mem; ic; sms; hierarchy; }"),
         "x.hdl:13:26: error: a device cannot contain a parallelism ('hierarchy' is one)"},
        {"block inside a memory", replace(v, "nr_banks = 32;", "nr_banks = 32; cache c { space(dev); cache_line_size = 4 B; }"),
         "x.hdl:15:65: error: a memory cannot contain a cache; a memory contains no blocks"},
        {"parallelism without par_group",
         replace(v, "  par_group blocks {\n    max_nr_units = 1024;\n    par_unit block {\n      memory_space local { }\n      par_group threads { max_nr_units = 256; perfect.hierarchy.threads.thread; }\n    }\n  }\n", ""),
         "x.hdl:3:13: error: parallelism 'hierarchy' needs a par_group block"},
        {"parallelism without memory space", replace(v, "  memory_space dev { default; }\n", ""),
         "x.hdl:3:13: error: parallelism 'hierarchy' needs a memory_space block"},
        {"par_unit with two par_groups",
         replace(v, "par_group threads { max_nr_units = 256; perfect.hierarchy.threads.thread; }",
                 "par_group threads { max_nr_units = 256; perfect.hierarchy.threads.thread; } par_group t2 { nr_units = 2; par_unit u2 { } }"),
         "x.hdl:9:83: error: a par_unit contains at most one par_group"},
        {"simd unit without instructions", replace(v, "simd_unit lane { instructions ops { op((+), 1); } }", "simd_unit lane { }"),
         "x.hdl:26:17: error: simd_unit 'lane' needs a instructions block"},
        {"execution unit without slots", replace(v, "    slots(block, 8);\n", ""),
         "x.hdl:20:3: error: execution_unit 'sm' has no 'slots(par_unit, n)', and neither has its group 'sms'"},
        {"slots of an unknown par_unit", replace(v, "slots(block, 8)", "slots(blok, 8)"),
         "x.hdl:21:11: error: 'blok' is not a par_unit of description 'x'; did you mean 'block'?"},
        {"space of an unknown memory space", replace(v, "space(local)", "space(shared)"),
         "x.hdl:15:24: error: 'shared' is not a memory space of description 'x'"},
        {"slots need a positive count", replace(v, "slots(block, 8)", "slots(block, 0)"),
         "x.hdl:21:18: error: the number of slots must be positive"},
        {"connects takes two blocks", replace(v, "connects(mem, sms.sm[*])", "connects(mem)"),
         "x.hdl:17:19: error: 'connects' takes 2 arguments: connects(block, block)"},
        {"[*] on a block that is no unit", replace(v, "sms.sm[*]", "sms[*]"),
         "x.hdl:17:33: error: '[*]' selects every unit of a group, but 'sms' is a execution_group"},
        {"unresolved reference", replace(v, "device x { mem; ic; sms; }", "device x { mem; ic; smz; }"),
         "x.hdl:13:21: error: cannot resolve 'smz': no such block at the top level of this description"},
        {"unresolved qualified reference", replace(v, "perfect.hierarchy.threads.thread", "perfect.hierarchy.thread"),
         "x.hdl:9:47: error: cannot resolve 'perfect.hierarchy.thread'"},
        {"unresolved connects endpoint", replace(v, "connects(mem, sms.sm[*])", "connects(memory0, sms.sm[*])"),
         "x.hdl:17:28: error: cannot resolve 'memory0'"},
        {"reference cycle", replace(v, "memory mem { space(dev); capacity = 2 GB; }", "memory mem { space(dev); capacity = 2 GB; }\ndevice_group g { nr_units = 2; device_unit u { g; } }"),
         "x.hdl:15:48: error: 'g' includes itself"},
        {"missing parallelism block", replace(v, "parallelism hierarchy", "device_group hierarchy"),
         "x.hdl:1:22: error: description 'x' has no 'parallelism' block"},
        {"missing device block", replace(v, "device x {", "device y {"),
         "x.hdl:1:22: error: description 'x' has no 'device x' block"},
        {"duplicate top-level block", replace(v, "memory on_chip", "memory mem"),
         "x.hdl:15:8: error: duplicate top-level block 'mem'"},
        {"two default memory spaces in one scope", replace(v, "memory_space local { }", "memory_space local { default; } memory_space l2 { default; }"),
         "x.hdl:8:39: error: memory spaces 'local' and 'l2' are both 'default' in the same scope"},
        {"a name twice in the parallelism hierarchy", replace(v, "memory_space local { }", "memory_space dev { }"),
         "x.hdl:8:7: error: 'dev' is already a name in the parallelism hierarchy"},
        {"performance_feedback takes a string", replace(v, "slots(block, 8);", "slots(block, 8); performance_feedback(occupancy);"),
         "x.hdl:21:43: error: expected a string naming the feedback"},
        {"op takes an operator", replace(v, "op((+), 1)", "op(plus, 1)"),
         "x.hdl:26:46: error: expected an operator such as (+) or a string such as \"load\""},
        {"unknown parent", replace(v, "specializes perfect;", "specializes perfekt;"),
         "x.hdl:2:13: error: 'x' specializes unknown description 'perfekt'; did you mean 'perfect'?"},
        {"no specializes", replace(v, "specializes perfect;\n", ""),
         "x.hdl:1:22: error: description 'x' does not say what it specializes"},
        {"nesting too deep", replace(v, "nr_banks = 32", "nr_banks = " + std::string(300, '(') + "32" + std::string(300, ')')),
         "x.hdl:15:"},
    };
}

class BadHdl : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadHdl, ReportsLocatedError) {
    const BadCase& c = GetParam();
    auto l = load_texts({{"x.hdl", c.text}});
    EXPECT_THAT(l.text(), HasSubstr(c.expected)) << "rule: " << c.rule;
    EXPECT_TRUE(l.diags->has_errors());
    EXPECT_EQ(l.library->find("x"), nullptr) << "an invalid description must be left out";
    EXPECT_NE(l.library->find("perfect"), nullptr) << "one bad file must not take down the others";
}

INSTANTIATE_TEST_SUITE_P(AllRules, BadHdl, ::testing::ValuesIn(bad_cases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             std::string name;
                             for (char ch : std::string(info.param.rule))
                                 name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                             return name;
                         });

}  // namespace
}  // namespace mcl::hdl::testing
