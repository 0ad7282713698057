// Which tile.store ops the Tensor Memory Accelerator writes (bulk tensor stores from shared
// memory), decided by tile-place-tma; tile-pipeline-loops keeps their staging buffer out of the
// shared memory it hands to the stages.
//
// A store inside a loop costs every thread its address arithmetic, bounds checks and the
// registers they hold on each iteration (fwd_pass_state stores a 64 x 64 state per chunk: ~50
// of its 137 registers). Written through TMA instead, the threads put their elements into a
// staging buffer in the layout of the descriptor's box (row-major, or swizzled column blocks
// of 32/64/128 bytes: StageLayout.h) and one thread issues the copy; the hardware clips the
// box at the array's edges. The copy is asynchronous: a buffer is reused only after the copy
// engine has read it (cp.async.bulk.wait_group.read; with two buffers the stores alternate and
// that wait costs no barrier of its own), and the kernel waits for its stores before it exits.
//
// Because nothing orders a bulk store with the kernel's other accesses to the same memory, a
// store qualifies only when it is the kernel's one access to its array argument and each
// iteration of every loop around it writes another tile (an index is the loop's induction
// variable, plus or times a loop-invariant). Array arguments are taken not to overlap, as the
// tile language's other memory optimizations take them (docs/pipeline.md).
#pragma once

#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "dialect/TileDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <variant>

namespace tile::codegen {

/// A store TMA can write: the array argument, one copy's box (outermost first), the swizzle of
/// the staging buffer's column blocks (0: row-major) and the buffer's bytes (the whole tile).
struct TmaStorePlan {
  unsigned arg;
  llvm::SmallVector<int64_t> box;
  int64_t swizzle;
  int64_t stagingBytes;
};

/// The plan for `store`, or why TMA does not write it.
std::variant<TmaStorePlan, std::string> tmaStoreFor(mlir::tile::StoreOp store, mlir::tile::KernelOp kernel,
                                                    const GpuTarget &target);

/// The largest tile of the kernel's TMA stores (0 when none): the size of each staging buffer.
int64_t tmaStoreStagingBytes(mlir::tile::KernelOp kernel, const GpuTarget &target);

/// One staging buffer for tiles of up to `tileBytes`, on the 1024-byte swizzle period. The
/// lowering gives the stores two when they fit beside the rest at the kernel's occupancy (a
/// store then writes one while the copy engine may still read the other), else one.
inline int64_t tmaStagingBufferBytes(int64_t tileBytes) {
  return (tileBytes + kSwizzleAlign - 1) / kSwizzleAlign * kSwizzleAlign;
}

} // namespace tile::codegen
