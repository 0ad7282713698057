// ptxas's -v report read into figures, and the warning a spilling kernel gets.
#include "compiler/target/PtxasReport.h"

#include <catch2/catch.hpp>

using tile::target::parsePtxasReport;
using tile::target::ResourceUsage;
using tile::target::spillWarning;

TEST_CASE("ptxas reports are read into registers and spill bytes", "[target]") {
  // What ptxas 13.0 prints for a kernel that fits, and for one that spills.
  ResourceUsage fits = parsePtxasReport("ptxas info    : 0 bytes gmem\n"
                                        "ptxas info    : Compiling entry function 'matmul__tile' for 'sm_90a'\n"
                                        "ptxas info    : Function properties for matmul__tile\n"
                                        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                        "ptxas info    : Used 242 registers, used 1 barriers\n"
                                        "ptxas info    : Compile time = 239.955 ms\n");
  CHECK(fits.registers == 242);
  CHECK_FALSE(fits.spills());
  ResourceUsage spills = parsePtxasReport("ptxas info    : Function properties for norm__tile\n"
                                          "    600 bytes stack frame, 588 bytes spill stores, 580 bytes spill loads\n"
                                          "ptxas info    : Used 255 registers, used 1 barriers, 600 bytes cumulative "
                                          "stack size\n");
  CHECK(spills.registers == 255);
  CHECK(spills.stackFrame == 600);
  CHECK(spills.spillStores == 588);
  CHECK(spills.spillLoads == 580);
  CHECK(spills.spills());
  // Nothing to read: no figures, no spills.
  ResourceUsage empty = parsePtxasReport("");
  CHECK(empty.registers == -1);
  CHECK_FALSE(empty.spills());
}

TEST_CASE("a spilling kernel's warning names it, the bytes and what to change", "[target]") {
  ResourceUsage usage;
  usage.registers = 255;
  usage.spillStores = 588;
  usage.spillLoads = 580;
  CHECK(spillWarning("layer_norm", 128, usage) ==
        "kernel 'layer_norm' spills registers to local memory at 128 threads per block: 255 registers, 588 bytes "
        "stored and 580 loaded per thread; give it more threads (@ct.kernel(num_threads=256), or --num-threads 256 "
        "to tile-cc and tile-run) or smaller tiles");
  // At the block's limit only smaller tiles are left.
  CHECK(spillWarning("k", 1024, usage) ==
        "kernel 'k' spills registers to local memory at 1024 threads per block: 255 registers, 588 bytes stored "
        "and 580 loaded per thread; give it smaller tiles");
  // Nor where twice the threads would leave a wgmma's accumulator too few registers.
  CHECK(spillWarning("k", 256, usage, 256) ==
        "kernel 'k' spills registers to local memory at 256 threads per block: 255 registers, 588 bytes stored "
        "and 580 loaded per thread; give it smaller tiles");
  CHECK(spillWarning("k", 128, ResourceUsage{}) == "");
}
