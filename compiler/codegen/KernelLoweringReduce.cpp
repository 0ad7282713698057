// tile.reduce and tile.scan under the canonical layout.

#include "compiler/codegen/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::codegen {

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

// acc <op> v for a reduction kind (not the arg* kinds).
static Value combine(OpBuilder &b, Location loc, mlir::tile::ReduceKind kind, Value acc, Value v) {
  bool f = isa<FloatType>(acc.getType());
  switch (kind) {
  case mlir::tile::ReduceKind::sum: return f ? Value(arith::AddFOp::create(b, loc, acc, v)) : Value(arith::AddIOp::create(b, loc, acc, v));
  case mlir::tile::ReduceKind::prod: return f ? Value(arith::MulFOp::create(b, loc, acc, v)) : Value(arith::MulIOp::create(b, loc, acc, v));
  case mlir::tile::ReduceKind::max: return f ? Value(arith::MaximumFOp::create(b, loc, acc, v)) : Value(arith::MaxSIOp::create(b, loc, acc, v));
  case mlir::tile::ReduceKind::min: return f ? Value(arith::MinimumFOp::create(b, loc, acc, v)) : Value(arith::MinSIOp::create(b, loc, acc, v));
  default: return acc;
  }
}

LogicalResult KernelLowering::lowerReduce(mlir::tile::ReduceOp op) {
  auto inType = op.getInput().getType();
  TileLayout in = layoutOf(inType), out = layoutOf(op.getType());
  Type elt = inType.getElementType();
  int64_t axis = op.getAxis(), extent = inType.getDimSize(axis);
  bool isArg = op.getKind() == mlir::tile::ReduceKind::argmax || op.getKind() == mlir::tile::ReduceKind::argmin;
  barrier();
  writeShared(tiles_[op.getInput()], in, elt, 0);
  barrier();
  Elements values;
  for (int64_t r = 0; r < out.perThread; ++r) {
    SmallVector<Value> idx = delinearize(linearIndex(out, r), out.shape);
    if (!op.getKeepdims())
      idx.insert(idx.begin() + axis, i32(0));
    idx[axis] = i32(0);
    Value first = readShared(elt, 0, linearize(idx, in.shape));
    SmallVector<Value> inits = {first};
    if (isArg)
      inits.push_back(i32(0));
    auto loop = scf::ForOp::create(b_, loc_, i32(1), i32(extent), i32(1), inits);
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> at = idx;
      at[axis] = loop.getInductionVar();
      Value v = readShared(elt, 0, linearize(at, in.shape));
      Value acc = loop.getRegionIterArgs()[0];
      SmallVector<Value> next;
      if (isArg) {
        // Strictly better replaces: ties keep the first position.
        bool isMax = op.getKind() == mlir::tile::ReduceKind::argmax;
        Value better = isa<FloatType>(elt)
                           ? Value(arith::CmpFOp::create(b_, loc_, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, v, acc))
                           : Value(arith::CmpIOp::create(b_, loc_, isMax ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, v, acc));
        next.push_back(arith::SelectOp::create(b_, loc_, better, v, acc));
        next.push_back(arith::SelectOp::create(b_, loc_, better, loop.getInductionVar(), loop.getRegionIterArgs()[1]));
      } else {
        next.push_back(combine(b_, loc_, op.getKind(), acc, v));
      }
      scf::YieldOp::create(b_, loc_, next);
    }
    values.push_back(loop.getResult(isArg ? 1 : 0));
  }
  tiles_[op] = values;
  return success();
}

LogicalResult KernelLowering::lowerScan(mlir::tile::ScanOp op) {
  auto type = op.getType();
  TileLayout layout = layoutOf(type);
  Type elt = type.getElementType();
  int64_t axis = op.getAxis(), extent = type.getDimSize(axis);
  auto kind = op.getKind() == mlir::tile::ScanKind::cumsum ? mlir::tile::ReduceKind::sum : mlir::tile::ReduceKind::prod;
  barrier();
  writeShared(tiles_[op.getInput()], layout, elt, 0);
  barrier();
  Elements values;
  for (int64_t r = 0; r < layout.perThread; ++r) {
    SmallVector<Value> idx = delinearize(linearIndex(layout, r), layout.shape);
    Value pos = idx[axis];
    // Inclusive: positions [0, pos] forward, [pos, extent) in reverse.
    Value lo = op.getReverse() ? pos : i32(0);
    Value hi = op.getReverse() ? i32(extent) : Value(arith::AddIOp::create(b_, loc_, pos, i32(1)));
    Value init = isa<FloatType>(elt) ? Value(arith::ConstantOp::create(b_, loc_, elt, b_.getFloatAttr(elt, kind == mlir::tile::ReduceKind::sum ? 0.0 : 1.0)))
                                     : Value(arith::ConstantOp::create(b_, loc_, elt, b_.getIntegerAttr(elt, kind == mlir::tile::ReduceKind::sum ? 0 : 1)));
    auto loop = scf::ForOp::create(b_, loc_, lo, hi, i32(1), ValueRange{init});
    {
      OpBuilder::InsertionGuard guard(b_);
      b_.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> at = idx;
      at[axis] = loop.getInductionVar();
      Value v = readShared(elt, 0, linearize(at, layout.shape));
      scf::YieldOp::create(b_, loc_, combine(b_, loc_, kind, loop.getRegionIterArgs()[0], v));
    }
    values.push_back(loop.getResult(0));
  }
  tiles_[op] = values;
  return success();
}

}  // namespace tile::codegen
