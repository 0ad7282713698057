// tile-bench gemm (Gemm.cpp).
#pragma once

namespace tile::bench {

/// Runs `tile-bench gemm ...` (argv[1] is "gemm"); returns the exit code.
int runGemm(int argc, char **argv);

} // namespace tile::bench
