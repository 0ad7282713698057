// Shape ops that move data between threads. Under the canonical layout they go through shared
// memory: the input tile is written at its row-major positions, then each thread reads the
// elements its result registers need. Correct for every shape. Reductions and scans live in
// KernelLoweringReduce.cpp, matrix products in KernelLoweringMma.cpp.

#include "compiler/codegen/analysis/Rematerialize.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::codegen {

Value KernelLowering::linearize(ArrayRef<Value> idx, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = TileLayout(shape, 1).strides();
  Value linear = i32(0);
  for (size_t d = 0; d < idx.size(); ++d)
    linear = arith::AddIOp::create(b_, loc_, linear, arith::MulIOp::create(b_, loc_, idx[d], i32(strides[d])));
  return linear;
}

LogicalResult KernelLowering::lowerShapeOp(Operation *op) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  TileLayout out = layoutOf(resultType);
  Type elt = resultType.getElementType();
  if (isa<mlir::tile::IotaOp>(op)) {
    Elements values;
    for (int64_t r = 0; r < out.perThread; ++r) {
      Value e = linearIndex(out, r);
      values.push_back(elt.getIntOrFloatBitWidth() == 32  ? e
                       : elt.getIntOrFloatBitWidth() > 32 ? Value(arith::ExtUIOp::create(b_, loc_, elt, e))
                                                          : Value(arith::TruncIOp::create(b_, loc_, elt, e)));
    }
    tiles_[op->getResult(0)] = values;
    return success();
  }
  Value input = op->getOperand(0);
  // Row-major order is unchanged by reshape and expand_dims: when both shapes get the same
  // distribution (the run length V depends on the last dimension), the registers carry over.
  if (isa<mlir::tile::ReshapeOp, mlir::tile::ExpandDimsOp>(op)) {
    TileLayout in = layoutOf(input.getType());
    // Accumulator fragments carry over between shapes with the same matrices (M x N, after the
    // same number of batch elements) and warps.
    bool sameFragments =
        in.isMma() && out.isMma() && llvm::equal(in.mmaWarps, out.mmaWarps) && in.mmaMatrices() == out.mmaMatrices();
    bool sameRuns = !in.isMma() && !out.isMma() && in.perThread == out.perThread && in.vector == out.vector &&
                    in.replicated == out.replicated;
    if (sameFragments || sameRuns) {
      // Copy before inserting: a DenseMap insertion may rehash and move the input's entry.
      Elements same = tiles_.lookup(input);
      tiles_[op->getResult(0)] = std::move(same);
      return success();
    }
  }
  if (isa<mlir::tile::BroadcastOp>(op) && !isa<RankedTensorType>(input.getType())) {
    tiles_[op->getResult(0)] = Elements(out.perThread, scalars_.lookup(input));
    return success();
  }
  if (isa<mlir::tile::BroadcastOp>(op) && cast<RankedTensorType>(input.getType()).getNumElements() == 1) {
    tiles_[op->getResult(0)] = Elements(out.perThread, tiles_[input][0]); // every thread holds it
    return success();
  }
  auto inType = cast<RankedTensorType>(input.getType());
  TileLayout in = layoutOf(inType);
  int64_t rhsOffset = alignTo16(in.numElements * elementBytes(elt));
  barrier();
  writeShared(tiles_[input], in, elt, 0);
  auto cat = dyn_cast<mlir::tile::CatOp>(op);
  if (cat)
    writeShared(tiles_[cat.getRhs()], layoutOf(cat.getRhs().getType()), elt, rhsOffset);
  barrier();
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    SmallVector<Value> idx = delinearize(linearIndex(out, r), out.shape);
    Value src;
    if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(op)) {
      for (size_t d = 0; d < idx.size(); ++d)
        if (inType.getDimSize(d) == 1)
          idx[d] = i32(0);
      src = linearize(idx, in.shape);
    } else if (auto perm = dyn_cast<mlir::tile::PermuteOp>(op)) {
      SmallVector<Value> srcIdx(idx.size());
      for (auto [d, p] : llvm::enumerate(perm.getPermutation()))
        srcIdx[p] = idx[d];
      src = linearize(srcIdx, in.shape);
    } else if (auto ex = dyn_cast<mlir::tile::ExtractOp>(op)) {
      for (size_t d = 0; d < idx.size(); ++d)
        idx[d] = arith::AddIOp::create(b_, loc_, idx[d], i32(ex.getIndices()[d] * out.shape[d]));
      src = linearize(idx, in.shape);
    } else if (isa<mlir::tile::ReshapeOp, mlir::tile::ExpandDimsOp>(op)) {
      src = linearize(idx, out.shape); // the same row-major position
    } else if (cat) {
      // Elements past the left tile along the axis come from the right one.
      int64_t axis = cat.getAxis(), split = inType.getDimSize(axis);
      Value fromRhs = arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::uge, idx[axis], i32(split));
      SmallVector<Value> rhsIdx = idx;
      rhsIdx[axis] = arith::SubIOp::create(b_, loc_, idx[axis], i32(split));
      Value lhsLinear = linearize(idx, in.shape);
      Value rhsLinear = arith::AddIOp::create(b_, loc_, linearize(rhsIdx, layoutOf(cat.getRhs().getType()).shape),
                                              i32(rhsOffset / elementBytes(elt)));
      src = arith::SelectOp::create(b_, loc_, fromRhs, rhsLinear, lhsLinear);
    } else {
      return op->emitError("code generation does not support '") << op->getName() << "' yet";
    }
    values.push_back(readShared(elt, 0, src));
  }
  tiles_[op->getResult(0)] = values;
  return success();
}

// Every thread writes its registers at their elements' row-major positions and reads the ones
// its registers hold in the other layout. Rows are padded by 8 elements when an mma layout is
// involved: its fragments touch 8 rows at the same columns per access, which a row pitch that
// is a multiple of 32 banks would serialize 8 ways (padded: at most 2).
LogicalResult KernelLowering::lowerConvertLayout(mlir::tile::ConvertLayoutOp op) {
  if (op->hasAttr(kRematerializeAttr))
    return lowerRematerializedConversion(op);
  TileLayout in = layoutOf(op.getInput().getType()), out = layoutOf(op.getType());
  Type elt = op.getType().getElementType();
  int64_t rowLength = out.rowLength();
  int64_t pitch = (in.isMma() || out.isMma()) ? rowLength + 8 : 0;
  barrier();
  writeShared(tiles_[op.getInput()], in, elt, 0, pitch);
  barrier();
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    values.push_back(readShared(elt, 0, paddedPosition(linearIndex(out, r), rowLength, pitch)));
  }
  tiles_[op] = values;
  return success();
}

} // namespace tile::codegen
