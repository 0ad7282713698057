// The decisions of tile-pipeline-loops (PipelineLoops.cpp) as tile-lower-to-llvm reads them
// (KernelLoweringPipeline.cpp): attribute names and the stage model.
#pragma once

#include "dialect/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace tile::codegen {

/// On a pipelined scf.for: its number of stages (>= 2) and the bytes of one stage.
inline constexpr llvm::StringLiteral kPipelineStagesAttr = "tile.pipeline_stages";
inline constexpr llvm::StringLiteral kPipelineStageBytesAttr = "tile.pipeline_stage_bytes";
/// On a tile.load copied ahead: the byte offset of its stage-0 buffer in the stages region.
inline constexpr llvm::StringLiteral kPipelineOffsetAttr = "tile.pipeline_offset";
/// On a tile.load copied ahead whose every product is a 2-D wgmma or mma.sync one (through
/// reshapes and a transpose): its stages hold the Tensor Core operand layout (StageLayout.h:
/// swizzled, on kSwizzleAlign boundaries), which the products read in place, K-major or, for
/// an operand that is MN-major in memory, transposed.
inline constexpr llvm::StringLiteral kPipelineCoreMatricesAttr = "tile.pipeline_core_matrices";
/// On the one wgmma product of a pipelined loop that accumulates into the loop's carried value
/// (acc = mma(a, b, acc), nothing else reading either): each iteration leaves its wgmma group
/// pending (wgmma.wait_group 1) so that it runs while the next iteration waits for its copies
/// and issues its own; the copies into the stage the previous group read are issued after that
/// wait, and the loop's result waits for the last group.
inline constexpr llvm::StringLiteral kWgmmaPendingAttr = "tile.wgmma_pending";
/// On a tile.load of the body of a kernel with loops: copied at kernel start into the
/// prefetch region (the first bytes of shared memory) at this offset; the first such load
/// before the body's first loop waits for the copies of those, the first after it for all.
inline constexpr llvm::StringLiteral kPrefetchOffsetAttr = "tile.prefetch_offset";
/// On a tile.kernel: the bytes of the prefetch region.
inline constexpr llvm::StringLiteral kPrefetchBytesAttr = "tile.prefetch_bytes";
/// On a tile.kernel: the bytes of the stages region, which follows the prefetch region.
inline constexpr llvm::StringLiteral kPipelineBytesAttr = "tile.pipeline_bytes";

/// On a tile.load copied ahead (tile.pipeline_offset or tile.prefetch_offset): the index of the
/// kernel's TMA descriptor (tile.tma_maps) its copy uses; one thread then copies the tile with
/// the Tensor Memory Accelerator, one bulk copy per swizzle column block, and the loop's or the
/// prefetch group's mbarrier says when it has landed (tile-place-tma, PlaceTma.cpp).
/// On a tile.store in a loop: the index of the descriptor its bulk tensor stores use; the
/// threads write the tile into the kernel's staging buffer and one thread stores it
/// (TmaStore.h, KernelLoweringTmaStore.cpp).
inline constexpr llvm::StringLiteral kTmaAttr = "tile.tma";
/// On a tile.kernel: its TMA descriptors, each a dictionary {arg: the array argument's index,
/// box: one copy's box (outermost first), swizzle: 0, 32, 64 or 128 bytes, nan_fill: bool}.
/// They follow the kernel's parameters as 128-byte __grid_constant__ CUtensorMaps.
inline constexpr llvm::StringLiteral kTmaMapsAttr = "tile.tma_maps";
/// On a tile.kernel with TMA stores: the bytes of the staging buffer they share, which follows
/// the kernel's other shared memory on a 1024-byte boundary.
inline constexpr llvm::StringLiteral kTmaStoreBytesAttr = "tile.tma_store_bytes";
/// On a tile.kernel: no shared memory is left at its occupancy for the mbarriers of TMA copies
/// at kernel start (tile-place-tma keeps cp.async for those loads).
inline constexpr llvm::StringLiteral kNoTmaPrefetchAttr = "tile.no_tma_prefetch";
/// The bytes of one mbarrier, which a kernel adds after its other shared memory for each stage
/// of a loop with TMA copies and each kernel-start group with them; tile-pipeline-loops keeps
/// them out of the budget it hands out.
inline constexpr int64_t kTmaBarrierBytes = 8;

/// Stages for a loop whose loads carry `latency` hints (the largest; 0 when none has one):
/// 3 without hints or for latency 1-3, 4 for 4-6, 5 for 7-10.
int64_t pipelineStagesForLatency(int64_t latency);

/// The stages of a pipelined loop (its tile.pipeline_stages, at least 2); 0 when it is not.
inline int64_t pipelineStages(mlir::scf::ForOp loop) {
  auto stages = loop->getAttrOfType<mlir::IntegerAttr>(kPipelineStagesAttr);
  return stages && stages.getInt() >= 2 ? stages.getInt() : 0;
}

/// The product of pipelined `loop` that may leave its wgmma group pending across iterations
/// (kWgmmaPendingAttr): the only tile.mma of the body, run as wgmma, accumulating into an
/// iter_arg that nothing else reads, its result used only by the yield at that position. Null
/// when there is none.
mlir::tile::MmaOp pendingWgmma(mlir::scf::ForOp loop);

/// The product of `loop`'s body that tile-pipeline-loops marked kWgmmaPendingAttr, if any.
mlir::tile::MmaOp markedPendingWgmma(mlir::scf::ForOp loop);

} // namespace tile::codegen
