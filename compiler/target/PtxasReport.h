// What ptxas's -v report says about a kernel's resources, and the warning a kernel that
// spills gets wherever it is compiled (tile-cc, the JIT, tile-run): spilled registers go to
// local memory, which costs a kernel much of its speed without changing its results, so
// nothing else would tell.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tile::target {

struct ResourceUsage {
  int64_t registers = -1; // per thread; -1 when the report does not say
  int64_t stackFrame = 0; // bytes per thread
  int64_t spillStores = 0, spillLoads = 0;

  bool spills() const { return spillStores > 0 || spillLoads > 0; }
};

/// The figures of a `ptxas -v` report, summed over the functions it lists.
ResourceUsage parsePtxasReport(llvm::StringRef report);

/// "" for a kernel that does not spill; otherwise one line naming the kernel, its threads and
/// registers, the bytes, and what to change: more threads (`num_threads`, up to 1024) or
/// smaller tiles, e.g. "kernel 'layer_norm' spills registers to local memory at 128 threads per
/// block: 255 registers, 588 bytes stored and 588 loaded per thread; give it more threads
/// (@ct.kernel(num_threads=256), or --num-threads 256 to tile-cc and tile-run) or smaller tiles".
/// More threads are suggested only up to `maxThreads` (the most at which the kernel's wgmma
/// accumulators still fit a thread's registers).
std::string spillWarning(llvm::StringRef kernel, int64_t threads, const ResourceUsage &usage,
                         int64_t maxThreads = 1024);

} // namespace tile::target
