#define CATCH_CONFIG_EXTERNAL_INTERFACES // for the listener below
#include "test/unit/runtime/GpuTest.h"

#include <cstdlib>
#include <iostream>

namespace tile::rt::test {

namespace {
int skipped = 0;
std::string lastReason;
} // namespace

void countSkip() { ++skipped; }

bool gpuRequired() {
  const char *v = std::getenv("TILE_TEST_REQUIRE_GPU");
  return v && *v && std::string(v) != "0";
}

bool gpuAvailable(std::string &why) {
  if (Device::available(0, &why))
    return true;
  if (!gpuRequired())
    countSkip(); // else the test fails
  lastReason = why;
  return false;
}

namespace {
// Prints how many [gpu] test cases skipped, after the run (CI logs show it next to the totals).
struct SkipSummary : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunEnded(const Catch::TestRunStats &) override {
    if (skipped)
      std::cout << "SKIPPED: " << skipped << " [gpu] test case(s)"
                << (lastReason.empty() ? "" : " (" + lastReason + ")") << "\n"
                << "(Catch2's totals below count a skipped test case as passed: those ran nothing)\n";
  }
};
} // namespace

CATCH_REGISTER_LISTENER(SkipSummary)

} // namespace tile::rt::test
