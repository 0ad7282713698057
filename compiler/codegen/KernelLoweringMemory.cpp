// Loads and stores addressed in tile space, and element-wise gathers, scatters and atomics.
// Every access is bounds-checked against the array's run-time shape (ragged edges) and
// addressed in 64-bit arithmetic.

#include "compiler/codegen/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;

namespace tile::codegen {

// The value out-of-bounds elements of a load take.
static Value paddingValue(OpBuilder &b, Location loc, Type type, mlir::tile::PaddingMode mode) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    APFloat v = APFloat::getZero(sem);
    if (mode == mlir::tile::PaddingMode::neg_zero) v = APFloat::getZero(sem, /*Negative=*/true);
    if (mode == mlir::tile::PaddingMode::nan) v = APFloat::getQNaN(sem);
    if (mode == mlir::tile::PaddingMode::pos_inf) v = APFloat::getInf(sem);
    if (mode == mlir::tile::PaddingMode::neg_inf) v = APFloat::getInf(sem, /*Negative=*/true);
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
  }
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, 0));
}

// Element indices into the array and the in-bounds mask for register `r` of a tile access.
static SmallVector<Value> accessIndices(KernelLowering &l, KernelLowering::Array &array, ValueRange tileIndices,
                                        std::optional<ArrayRef<int32_t>> order, const TileLayout &layout,
                                        int64_t r, Value &inBounds) {
  OpBuilder &b = l.b_;
  Location loc = l.loc_;
  SmallVector<Value> local = l.delinearize(l.linearIndex(layout, r), layout.shape);
  SmallVector<Value> indices(layout.shape.size());
  inBounds = {};
  for (size_t d = 0; d < layout.shape.size(); ++d) {
    size_t a = order ? static_cast<size_t>((*order)[d]) : d;
    Value tileStart = arith::MulIOp::create(b, loc, l.toI64(l.scalars_.lookup(tileIndices[d])), l.i64(layout.shape[d]));
    Value idx = arith::AddIOp::create(b, loc, tileStart, arith::ExtUIOp::create(b, loc, b.getI64Type(), local[d]));
    indices[a] = idx;
    // Unsigned compare: negative indices are out of bounds too.
    inBounds = l.boolAnd(inBounds, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, idx, array.shape[a]));
  }
  return indices;
}

LogicalResult KernelLowering::lowerLoad(mlir::tile::LoadOp op) {
  Array &array = arrays_[op.getArray()];
  TileLayout layout = layoutOf(op.getType());
  Type elt = op.getType().getElementType();
  Elements values;
  for (int64_t r = 0; r < layout.perThread; ++r) {
    Value inBounds;
    SmallVector<Value> idx = accessIndices(*this, array, op.getIndices(), op.getOrder(), layout, r, inBounds);
    Value ptr = elementPointer(array, idx);
    values.push_back(ifValue(
        inBounds, elt, [&] { return loadElement(elt, ptr); },
        [&] { return paddingValue(b_, loc_, elt, op.getPadding()); }));
  }
  tiles_[op] = values;
  return success();
}

LogicalResult KernelLowering::lowerStore(mlir::tile::StoreOp op) {
  Array &array = arrays_[op.getArray()];
  TileLayout layout = layoutOf(op.getValue().getType());
  const Elements &values = tiles_[op.getValue()];
  for (int64_t r = 0; r < layout.perThread; ++r) {
    Value inBounds;
    SmallVector<Value> idx = accessIndices(*this, array, op.getIndices(), op.getOrder(), layout, r, inBounds);
    Value ptr = elementPointer(array, idx);
    ifThen(boolAnd(owns(layout, r), inBounds), [&] { storeElement(values[r], ptr); });
  }
  return success();
}

LogicalResult KernelLowering::lowerElementAccess(Operation *op) {
  auto gather = dyn_cast<mlir::tile::GatherOp>(op);
  auto atomic = dyn_cast<mlir::tile::AtomicAddOp>(op);
  Value arrayValue = op->getOperand(gather ? 0 : 1);
  Array &array = arrays_[arrayValue];
  ValueRange indexTiles = gather ? gather.getIndices()
                          : atomic ? atomic.getIndices()
                                   : cast<mlir::tile::ScatterOp>(op).getIndices();
  Value mask = gather ? gather.getMask() : atomic ? atomic.getMask() : cast<mlir::tile::ScatterOp>(op).getMask();
  Type dataType = gather ? gather.getType() : op->getOperand(0).getType();
  TileLayout layout = layoutOf(dataType);
  Type elt = cast<RankedTensorType>(dataType).getElementType();
  Elements results;
  for (int64_t r = 0; r < layout.perThread; ++r) {
    SmallVector<Value> idx;
    Value ok = mask ? tiles_[mask][r] : Value();
    for (auto [d, t] : llvm::enumerate(indexTiles)) {
      Value i = toI64(tiles_[t][r]);
      idx.push_back(i);
      ok = boolAnd(ok, arith::CmpIOp::create(b_, loc_, arith::CmpIPredicate::ult, i, array.shape[d]));
    }
    Value ptr = elementPointer(array, idx);
    if (gather) {
      Value pad = gather.getPadding() ? scalars_.lookup(gather.getPadding()) : zeroOf(elt);
      results.push_back(ifValue(ok, elt, [&] { return loadElement(elt, ptr); }, [&] { return pad; }));
      continue;
    }
    Value value = tiles_[op->getOperand(0)][r];
    ok = boolAnd(owns(layout, r), ok);
    if (!atomic) {
      ifThen(ok, [&] { storeElement(value, ptr); });
      continue;
    }
    auto kind = isa<FloatType>(elt) ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
    results.push_back(ifValue(
        ok, elt,
        [&] { return LLVM::AtomicRMWOp::create(b_, loc_, kind, ptr, value, LLVM::AtomicOrdering::monotonic); },
        [&] { return zeroOf(elt); }));
  }
  if (gather) {
    tiles_[op->getResult(0)] = results;
  } else if (atomic) {
    if (layout.replicated) {
      // Only owners added; replicas take the owner's old value through shared memory.
      barrier();
      writeShared(results, layout, elt, 0);
      barrier();
      for (int64_t r = 0; r < layout.perThread; ++r)
        results[r] = readShared(elt, 0, linearIndex(layout, r));
    }
    tiles_[op->getResult(0)] = results;
  }
  return success();
}

}  // namespace tile::codegen
