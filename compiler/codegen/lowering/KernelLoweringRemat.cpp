// Rematerialized tiles (Rematerialize.h): a thread recomputes the elements of a broadcast's
// input that its registers need, from the ops that build it, instead of taking them from the
// threads that hold them through shared memory.

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/analysis/Rematerialize.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <functional>
#include <map>

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

FailureOr<Value> KernelLowering::rematerializedElement(Value tile, Value linear) {
  auto type = dyn_cast<RankedTensorType>(tile.getType());
  if (!type)
    return scalars_.lookup(tile);
  if (Value given = rematerializedLeaves_.lookup(tile)) // this register's element, read with ldmatrix
    return given;
  Operation *def = tile.getDefiningOp();
  // Splat constants and broadcast scalars hold one value in every register.
  if (isa<arith::ConstantOp>(def))
    return tiles_[tile][0];
  if (auto bc = dyn_cast<mlir::tile::BroadcastOp>(def)) {
    auto in = dyn_cast<RankedTensorType>(bc.getInput().getType());
    if (!in)
      return scalars_.lookup(bc.getInput());
    SmallVector<Value> idx = delinearize(linear, type.getShape());
    for (size_t d = 0; d < idx.size(); ++d)
      if (in.getDimSize(d) == 1)
        idx[d] = i32(0);
    return rematerializedElement(bc.getInput(), linearize(idx, in.getShape()));
  }
  if (auto permute = dyn_cast<mlir::tile::PermuteOp>(def)) {
    // Result dim d is input dim permutation[d].
    auto in = cast<RankedTensorType>(permute.getInput().getType());
    SmallVector<Value> idx = delinearize(linear, type.getShape()), inIdx(idx.size());
    for (auto [d, from] : llvm::enumerate(permute.getPermutation()))
      inIdx[from] = idx[d];
    return rematerializedElement(permute.getInput(), linearize(inIdx, in.getShape()));
  }
  if (isa<mlir::tile::ReshapeOp, mlir::tile::ExpandDimsOp>(def)) // row-major order is unchanged
    return rematerializedElement(def->getOperand(0), linear);
  if (isa<mlir::tile::IotaOp>(def)) {
    Type elt = type.getElementType();
    unsigned bits = elt.getIntOrFloatBitWidth();
    return bits == 32  ? linear
           : bits > 32 ? Value(arith::ExtUIOp::create(b_, loc_, elt, linear))
                       : Value(arith::TruncIOp::create(b_, loc_, elt, linear));
  }
  if (auto load = dyn_cast<mlir::tile::LoadOp>(def)) {
    // A load copied into shared memory ahead of time (already waited for where the load was
    // lowered, which dominates this use) is re-read from its buffer; others from global memory.
    if (load->hasAttr(kPipelineOffsetAttr) || load->hasAttr(kPrefetchOffsetAttr)) {
      Value offset = stageByteOffset(load);
      if (!offset)
        return load.emitError("internal error: a pipelined load re-read outside its pipelined loop");
      return readStageElement(load, offset, linear);
    }
    return loadTileElement(load, linear);
  }
  SmallVector<Value> operands;
  for (Value operand : def->getOperands()) {
    FailureOr<Value> element = rematerializedElement(operand, linear);
    if (failed(element))
      return failure();
    operands.push_back(*element);
  }
  FailureOr<SmallVector<Value>> results = lowerElementwiseOnScalars(def, operands);
  if (failed(results))
    return failure();
  return (*results)[0];
}

// The coordinates (i32 per dim) of every register's element, built so that registers in one
// run (canonical layout) or one fragment row or column (mma layout) share their SSA values for
// the dimensions they share: a broadcast then recomputes each distinct input element once.
std::vector<SmallVector<Value>> KernelLowering::elementCoordinates(const TileLayout &layout) {
  std::vector<SmallVector<Value>> coords;
  int64_t rank = layout.shape.size();
  if (layout.isMma()) {
    auto [mDim, nDim] = layout.mmaMatrixDims();
    int64_t n = layout.shape[nDim];
    int64_t nPerWarp = n / 8 / layout.mmaWarps[2];
    MmaThread t = mmaThread(layout.mmaWarps[1], layout.mmaWarps[2]);
    std::map<int64_t, SmallVector<Value>> rows; // per (pair, lower half): batch coordinates and row
    std::map<int64_t, Value> cols;              // per (n-tile, odd column)
    for (int64_t r = 0; r < layout.perThread; ++r) {
      int64_t i = r % 4, j = (r / 4) % nPerWarp, pair = r / (4 * nPerWarp);
      SmallVector<Value> &row = rows[2 * pair + (i >= 2)];
      if (row.empty()) {
        auto [batch, rowIndex] = mmaBatchAndRow(layout, r, t);
        row = delinearize(batch, ArrayRef(layout.shape).take_front(mDim));
        row.push_back(rowIndex);
      }
      Value &col = cols[2 * j + (i & 1)];
      if (!col)
        col = mmaColumn(layout, r, t);
      // Unit dims between and after M and N are at index 0.
      SmallVector<Value> c = row;
      c.resize(rank, i32(0));
      c[nDim] = col;
      coords.push_back(c);
    }
    return coords;
  }
  bool runsInRows = !layout.replicated && rank > 0 && layout.shape.back() % layout.vector == 0;
  for (int64_t r = 0; r < layout.perThread; ++r) {
    if (runsInRows && r % layout.vector) { // the run's first element, further along its row
      SmallVector<Value> c = coords[r - r % layout.vector];
      c.back() = arith::AddIOp::create(b_, loc_, c.back(), i32(r % layout.vector));
      coords.push_back(c);
      continue;
    }
    coords.push_back(delinearize(linearIndex(layout, r), layout.shape));
  }
  return coords;
}

LogicalResult KernelLowering::lowerRematerializedBroadcast(mlir::tile::BroadcastOp op) {
  std::string why;
  if (!isRematerializable(op.getInput(), op, &why))
    return op.emitError("'") << kRematerializeAttr << "' on a broadcast whose input cannot be recomputed: " << why;
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  TileLayout out = layoutOf(op.getType());
  Value zero = i32(0);
  std::map<SmallVector<void *>, Value> computed; // input element (its coordinates' values) -> value
  Elements values;
  for (SmallVector<Value> &at : elementCoordinates(out)) {
    SmallVector<void *> key;
    for (size_t d = 0; d < at.size(); ++d) {
      if (inType.getDimSize(d) == 1)
        at[d] = zero;
      key.push_back(at[d].getAsOpaquePointer());
    }
    Value &element = computed[key];
    if (!element) {
      FailureOr<Value> v = rematerializedElement(op.getInput(), linearize(at, inType.getShape()));
      if (failed(v))
        return failure();
      element = *v;
    }
    values.push_back(element);
  }
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.broadcast at " << op.getLoc() << ": " << computed.size()
                          << " input element(s) recomputed for " << out.perThread
                          << " register(s) per thread, no shared memory\n");
  tiles_[op.getResult()] = values;
  return success();
}

// A 16-bit tile that a stage holds in core-matrix order (tile.pipeline_core_matrices: rows of
// 8 elements contiguous, swizzled into distinct banks), or its transpose, converted to the mma
// layout: each 16x16 block of a warp is one ldmatrix.x4 (.trans for the transpose), whose four
// registers are the fragments of two neighbouring n-tiles (rows g and g + 8), as mma.sync and
// wgmma read A; instead of an ld.shared and its address per element.
bool KernelLowering::conversionByLdmatrix(mlir::tile::ConvertLayoutOp op) {
  std::optional<Elements> values = ldmatrixFragments(op.getInput(), op.getType());
  if (!values)
    return false;
  tiles_[op.getResult()] = std::move(*values);
  return true;
}

std::optional<KernelLowering::Elements> KernelLowering::ldmatrixFragments(Value input, RankedTensorType type) {
  TileLayout out = layoutOf(type);
  Type elt = type.getElementType();
  if (!out.isMma() || type.getRank() != 2 || out.mmaWarps[0] != 1 || !(elt.isBF16() || elt.isF16()) ||
      cast<RankedTensorType>(input.getType()).getShape() != type.getShape())
    return std::nullopt;
  auto [load, transposed] = coreMatrixLoad(input);
  if (!load)
    return std::nullopt;
  int64_t m = type.getDimSize(0), n = type.getDimSize(1);
  int64_t cols = load.getType().getShape().back(), rows = load.getType().getNumElements() / cols;
  if (transposed ? (rows != n || cols != m) : (rows != m || cols != n))
    return std::nullopt;
  int64_t wm = out.mmaWarps[1], wn = out.mmaWarps[2];
  int64_t nPerWarp = n / 8 / wn, mPerWarp = m / 16 / wm;
  Value base = stageByteOffset(load);
  if (!base || nPerWarp % 2)
    return std::nullopt;
  MmaThread t = mmaThread(wm, wn);
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b_, loc_, x, y).getResult(); };
  auto mul = [&](Value x, int64_t c) { return arith::MulIOp::create(b_, loc_, x, i32(c)).getResult(); };
  // For the transpose the stored rows run along the tile's columns.
  LdmatrixLanes lanes = ldmatrixLanes(t.lane, elementBytes(elt));
  Elements values(out.perThread);
  for (int64_t mLocal = 0; mLocal < mPerWarp; ++mLocal) {
    Value m0 = mul(add(t.warpM, i32(mLocal * wm)), 16);
    for (int64_t j = 0; j < nPerWarp; j += 2) {
      Value n0 = mul(add(mul(t.warpN, nPerWarp), i32(j)), 8);
      Value storedRow = transposed ? add(n0, lanes.rowT) : add(m0, lanes.row);
      Value storedCol = transposed ? add(m0, lanes.colT) : add(n0, lanes.col);
      Value linear = add(mul(storedRow, cols), storedCol);
      SmallVector<Value> regs = ldmatrixRegs(stagePointer(elt, base, stageIndex(load, linear)), 4, transposed);
      // Registers: (rows g, g + 8) of n-tile j, then of n-tile j + 1.
      for (int64_t q = 0; q < 4; ++q) {
        int64_t first = (mLocal * nPerWarp + j + q / 2) * 4 + (q % 2) * 2;
        Value pair = LLVM::BitcastOp::create(b_, loc_, VectorType::get({2}, elt), regs[q]);
        values[first] = LLVM::ExtractElementOp::create(b_, loc_, pair, i32(0));
        values[first + 1] = LLVM::ExtractElementOp::create(b_, loc_, pair, i32(1));
      }
    }
  }
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << type << " in the mma layout: " << mPerWarp * nPerWarp / 2
                          << " ldmatrix.x4" << (transposed ? ".trans" : "")
                          << " per thread from the stage of the load at " << load.getLoc() << "\n");
  return values;
}

// A conversion to the mma layout of tiles computed element-wise from core-matrix stages (an A
// operand such as (w x)^T, x staged): the staged tiles' fragments are read with ldmatrix (.trans
// for a transpose) and the element-wise ops applied to each register, the other operands (row
// or column vectors) recomputed per element; instead of an ld.shared per element of the staged
// tile.
bool KernelLowering::conversionWithLdmatrixLeaves(mlir::tile::ConvertLayoutOp op) {
  // The tiles of the conversion's shape that its input is computed from element-wise (through
  // arith and math ops) and that stages hold in core-matrix order.
  ArrayRef<int64_t> shape = op.getType().getShape();
  SmallVector<Value> leaves;
  std::function<void(Value)> collect = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || llvm::is_contained(leaves, v))
      return;
    if (coreMatrixLoad(v).first) {
      leaves.push_back(v);
      return;
    }
    if (!isa<arith::ArithDialect, math::MathDialect>(def->getDialect()))
      return;
    for (Value operand : def->getOperands())
      if (auto t = dyn_cast<RankedTensorType>(operand.getType()); t && t.getShape() == shape)
        collect(operand);
  };
  collect(op.getInput());
  if (leaves.empty())
    return false;
  std::vector<Elements> leafValues;
  for (Value leaf : leaves) {
    std::optional<Elements> fragments = ldmatrixFragments(
        leaf, RankedTensorType::get(op.getType().getShape(), cast<RankedTensorType>(leaf.getType()).getElementType(),
                                    op.getType().getEncoding()));
    if (!fragments)
      return false;
    leafValues.push_back(std::move(*fragments));
  }
  TileLayout out = layoutOf(op.getType());
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    for (auto [leaf, regs] : llvm::zip(leaves, leafValues))
      rematerializedLeaves_[leaf] = regs[r];
    FailureOr<Value> element = rematerializedElement(op.getInput(), linearIndex(out, r));
    rematerializedLeaves_.clear();
    if (failed(element))
      return false;
    values.push_back(*element);
  }
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.convert_layout at " << op.getLoc() << ": " << leaves.size()
                          << " staged tile(s) read with ldmatrix, the element-wise ops applied per register\n");
  tiles_[op.getResult()] = values;
  return true;
}

LogicalResult KernelLowering::lowerRematerializedConversion(mlir::tile::ConvertLayoutOp op) {
  if (conversionByLdmatrix(op) || conversionWithLdmatrixLeaves(op))
    return success();
  std::string why;
  if (!isRematerializable(op.getInput(), op, &why, kMaxRematerializedConversionOps))
    return op.emitError("'") << kRematerializeAttr << "' on a conversion whose input cannot be recomputed: " << why;
  TileLayout out = layoutOf(op.getType());
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.convert_layout at " << op.getLoc() << ": " << out.perThread
                          << " element(s) per thread recomputed in the target layout, no shared memory\n");
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    FailureOr<Value> element = rematerializedElement(op.getInput(), linearIndex(out, r));
    if (failed(element))
      return failure();
    values.push_back(*element);
  }
  tiles_[op.getResult()] = values;
  return success();
}

} // namespace tile::codegen
