// [gpu] tests need a CUDA device. Where there is none they report "skipped: <why>" as a
// warning and return (Catch2 v2 has no SKIP); a listener (GpuTest.cpp) counts them and prints a
// summary line at the end of the run.
#pragma once

#include "runtime/Device.h"

#include <catch2/catch.hpp>

#include <string>

namespace tile::rt::test {

/// Whether device 0 is usable; otherwise counts the test as skipped and puts the reason in `why`.
bool gpuAvailable(std::string &why);
/// TILE_TEST_REQUIRE_GPU=1 (set by scripts/gpu-run.sh) turns a skip into a failure.
bool gpuRequired();
/// Counts a skipped test for the end-of-run summary.
void countSkip();

} // namespace tile::rt::test

/// Declares `Device device` for device 0, or skips the test case (WARN + return).
#define TILE_REQUIRE_GPU(device)                                                                                       \
  std::string device##SkipReason;                                                                                      \
  if (!::tile::rt::test::gpuAvailable(device##SkipReason)) {                                                           \
    if (::tile::rt::test::gpuRequired())                                                                               \
      FAIL("TILE_TEST_REQUIRE_GPU is set: " << device##SkipReason);                                                    \
    WARN("skipped: " << device##SkipReason);                                                                           \
    return;                                                                                                            \
  }                                                                                                                    \
  ::tile::rt::Device device(0)

/// Skips the rest of a test case with a reason (e.g. no cubin because ptxas was absent).
#define TILE_SKIP(reason)                                                                                              \
  do {                                                                                                                 \
    if (::tile::rt::test::gpuRequired())                                                                               \
      FAIL("TILE_TEST_REQUIRE_GPU is set: " << reason);                                                                \
    ::tile::rt::test::countSkip();                                                                                     \
    WARN("skipped: " << reason);                                                                                       \
    return;                                                                                                            \
  } while (0)
