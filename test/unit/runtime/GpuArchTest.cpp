#include "runtime/GpuArch.h"

#include <catch2/catch.hpp>

using tile::rt::GpuArch;

TEST_CASE("GpuArch parses NVIDIA's architecture names and prints them back", "[runtime]") {
  for (const char *name : {"sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_90a", "sm_100a", "sm_120"}) {
    std::optional<GpuArch> arch = GpuArch::parse(name);
    REQUIRE(arch);
    CHECK(arch->name() == name);
  }
  GpuArch hopper = *GpuArch::parse("sm_90a");
  CHECK(hopper.major == 9);
  CHECK(hopper.minor == 0);
  CHECK(hopper.archSpecific);
  CHECK(hopper.sm() == 90);
  GpuArch blackwell = *GpuArch::parse("sm_100a");
  CHECK(blackwell.major == 10);
  CHECK(blackwell.minor == 0);
  CHECK(*GpuArch::parse("sm_86") == GpuArch{8, 6, false});
}

TEST_CASE("GpuArch refuses what is not an architecture name", "[runtime]") {
  for (const char *name : {"", "sm_", "sm_9", "sm_1000", "sm_090", "sm_9x", "sm_90b", "sm_90aa", "SM_90", "compute_90",
                           "sm_-9", "sm_ 90", "90", "sm_a"})
    CHECK_FALSE(GpuArch::parse(name));
}
