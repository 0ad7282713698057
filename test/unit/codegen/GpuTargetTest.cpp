// GpuTarget::parse: an architecture name (rt::GpuArch) that code generation supports, sm_70 ...
// sm_90a; anything else is nullopt with a message, never an exception (it used std::stoi, which
// throws, in code built without exceptions).
#include "compiler/codegen/analysis/GpuTarget.h"

#include <catch2/catch.hpp>

using tile::codegen::GpuTarget;

TEST_CASE("GpuTarget parses sm_XY[a] and nothing else", "[codegen]") {
  std::string error;
  CHECK(GpuTarget::parse("sm_90a", error)->sm == 90);
  CHECK(GpuTarget::parse("sm_80", error)->sm == 80);
  CHECK(GpuTarget::parse("sm_75", error)->sm == 75);
  // Only the a feature set has wgmma.
  CHECK(GpuTarget::parse("sm_90a", error)->hasWgmma());
  CHECK_FALSE(GpuTarget::parse("sm_90", error)->hasWgmma());
  CHECK_FALSE(GpuTarget::parse("sm_80", error)->hasWgmma());
  for (const char *bad : {"", "sm_", "sm_a", "sm_9", "sm_-9", "sm_+9", "sm_ 9", "sm_9x", "SM_90",
                          "sm_99999999999999999999", "compute_90"}) {
    error.clear();
    CHECK_FALSE(GpuTarget::parse(bad, error));
    CHECK_THAT(error, Catch::Contains("unknown target"));
  }
  // Names of real architectures code generation does not support are told apart.
  for (const char *unsupported : {"sm_60", "sm_80a", "sm_100a", "sm_120", "sm_900"}) {
    error.clear();
    CHECK_FALSE(GpuTarget::parse(unsupported, error));
    CHECK_THAT(error, Catch::Contains("unsupported target '" + std::string(unsupported) + "'"));
  }
}
