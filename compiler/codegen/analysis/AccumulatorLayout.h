// Values computed from a Tensor Core accumulator, kept in its layout (tile-assign-layouts).
//
// Online softmax computes, from the scores S = Q.K^T in #tile.mma, each row's maximum and sum
// (row reductions), rescales S and the output accumulator by them (broadcasts back over the
// columns) and carries both across the key blocks (loop-carried values). In the canonical layout
// each of those steps moves data between threads through shared memory. In the accumulator's
// own layout none does: the threads that hold a row's fragments hold its statistics too
// (#tile.mma_rows), a row reduction is a fold of registers and two quad shuffles, a broadcast
// back reads a register, and P = exp(S - m) is already in the layout of wgmma's register A
// operand.
#pragma once

#include "dialect/TileDialect.h"

#include <cstdint>

namespace tile::codegen {

/// Gives the accumulator layout of a product (#tile.mma, with its grid) to the tiles computed
/// from its result by element-wise ops, scf.for iter_args and scf.if results, and
/// #tile.mma_rows to their row reductions (max, min, sum or product along the columns, with
/// keepdims) and the element-wise ops on those; a broadcast of such rows over the columns is in
/// #tile.mma again. Other operands of those ops must be free to build in any layout (splat
/// constants, broadcast scalars, tiles each thread recomputes); other users get a conversion back
/// to the canonical layout. Applied to the values connected to a row reduction only: without one,
/// tile-remove-layout-conversions already keeps element-wise chains in the accumulator layout
/// where it pays. Returns how many values changed layout.
int64_t keepInAccumulatorLayout(mlir::tile::KernelOp kernel);

} // namespace tile::codegen
