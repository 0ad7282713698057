// Where a Tensor Core operand is read from: queries the planning passes and the lowering both
// ask (is this operand a pipeline stage read in place, through which transpose), kept apart from
// the lowering so that planning does not depend on it.
#pragma once

#include "dialect/TileDialect.h"

#include <optional>
#include <utility>

namespace tile::codegen {

/// The loaded tile of integers (int8 weights, say) or 8-bit floats of `operand`'s size that
/// `operand` is computed from, through any ops; null when there is none. Register fragments
/// are not built from such tiles: read from their stages in the Tensor Core layout they gave
/// wrong results on the GPU (an N x K int8 tile at 128 threads, a K x N one at 256), so such
/// an operand goes through shared memory.
mlir::tile::LoadOp convertedNarrowLoad(mlir::Value operand);

/// What a convertedNarrowLoad holds, in words: "integers" or "8-bit floats".
const char *narrowLoadElements(mlir::tile::LoadOp load);

/// The permute swapping the last two dimensions that produces `operand`, if any.
mlir::tile::PermuteOp lastTwoSwapped(mlir::Value operand);

/// The load whose stages hold `v` in core-matrix order (tile.pipeline_core_matrices), through
/// reshapes and at most one transpose of a 2-D tile, and whether `v` is that transpose; a null
/// load when there is none.
std::pair<mlir::tile::LoadOp, bool> coreMatrixLoad(mlir::Value v);

/// A wgmma operand that is a pipelined load in core-matrix order (through reshapes and a
/// transpose), read in place: K-major, or MN-major (A loaded K x M, B loaded K x N).
struct StageOperand {
  mlir::tile::LoadOp load;
  bool mnMajor;
};
/// The stage `operand` (A, or B with `isB`) is read from in place: a kernel-start copy, or
/// the stages of the pipelined loop around the load (tile-pipeline-loops); none otherwise.
std::optional<StageOperand> stageOperand(mlir::Value operand, bool isB);

} // namespace tile::codegen
