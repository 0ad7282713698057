// Checks the compiler runs on its own output after a decision, independently of the code that
// made it: a violation is an internal error naming the op, never a silently wrong kernel.
// Cheap (linear or quadratic in the few ops they look at), so always on.
#pragma once

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace tile::codegen {

/// After tile-allocate-shared: every tgpu.alloc_shared under `scope` has a tgpu.offset on its
/// encoding's alignment, and no two buffers whose live ranges meet share a byte. Liveness is
/// computed here afresh, op by op in program order (a buffer is live from its allocation to the
/// last use of it or of a view or tile read from it; a use inside a loop that does not hold the
/// allocation keeps it live to the loop's end), not with the allocator's own ranges.
mlir::LogicalResult verifySharedAllocation(mlir::Operation *scope);

/// After tile-place-tma and before the lowering issues the copies: the descriptor of every TMA
/// load under `scope` (tile.tma_maps) is the copy that the code reading the load's stage
/// assumes - its box (the tile, or one swizzled column block of it), its swizzle (the stage
/// layout's, 0 for a row-major stage) and its fill (NaN exactly for NaN padding).
mlir::LogicalResult verifyTmaDescriptors(mlir::Operation *scope);

} // namespace tile::codegen
