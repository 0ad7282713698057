// tile-bench ssd --backward: times the Mamba-2 backward pass (kernels/mamba2/SsdBackward.h).
#pragma once

namespace tile::bench {

/// Runs `tile-bench ssd --backward ...` (argv[1] is "ssd", --backward anywhere after it); returns
/// the exit code: 2 for a bad command line (checked before it looks for a GPU), 77 without a GPU.
int runSsdBackward(int argc, char **argv);

} // namespace tile::bench
