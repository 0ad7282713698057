// The decisions of tile-pipeline-loops (PipelineLoops.cpp) as tile-lower-to-llvm reads them
// (KernelLoweringPipeline.cpp): attribute names and the stage model.
#pragma once

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
/// On a tile.load of the body of a kernel with loops: copied at kernel start into the
/// prefetch region (the first bytes of shared memory) at this offset; the first such load
/// before the body's first loop waits for the copies of those, the first after it for all.
inline constexpr llvm::StringLiteral kPrefetchOffsetAttr = "tile.prefetch_offset";
/// On a tile.kernel: the bytes of the prefetch region.
inline constexpr llvm::StringLiteral kPrefetchBytesAttr = "tile.prefetch_bytes";
/// On a tile.kernel: the bytes of the stages region, which follows the prefetch region.
inline constexpr llvm::StringLiteral kPipelineBytesAttr = "tile.pipeline_bytes";

/// Stages for a loop whose loads carry `latency` hints (the largest; 0 when none has one):
/// 3 without hints or for latency 1-3, 4 for 4-6, 5 for 7-10.
int64_t pipelineStagesForLatency(int64_t latency);

} // namespace tile::codegen
