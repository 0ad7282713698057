// tile-bench ssd --decode (Decode.cpp).
#pragma once

namespace tile::bench {

/// Runs `tile-bench ssd --decode ...` (argv[1] is "ssd", --decode anywhere after it); returns the
/// exit code: 2 for a bad command line (checked before it looks for a GPU), 77 without a GPU.
int runSsdDecode(int argc, char **argv);

} // namespace tile::bench
