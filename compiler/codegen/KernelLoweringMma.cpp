// Matrix products. The FMA path works for every dtype combination: both operands go to shared
// memory and each thread accumulates its canonical-layout output registers over K.

#include "compiler/codegen/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::codegen {

// Converts an operand element to the accumulator type.
static Value toAccType(OpBuilder &b, Location loc, Value v, Type acc) {
  Type t = v.getType();
  if (t == acc)
    return v;
  if (isa<FloatType>(acc))
    return isa<FloatType>(t) ? Value(arith::ExtFOp::create(b, loc, acc, v)) : Value(arith::SIToFPOp::create(b, loc, acc, v));
  return arith::ExtSIOp::create(b, loc, acc, v);
}

LogicalResult KernelLowering::lowerMma(mlir::tile::MmaOp op) {
  auto aType = op.getA().getType(), bType = op.getB().getType();
  auto accType = op.getAcc().getType();
  TileLayout la = layoutOf(aType), lb = layoutOf(bType), out = layoutOf(accType);
  Type ea = aType.getElementType(), eacc = accType.getElementType();
  int64_t rank = aType.getRank(), k = aType.getDimSize(rank - 1);
  int64_t bOffset = alignTo16(la.numElements * byteSize(ea));
  barrier();
  writeShared(tiles_[op.getA()], la, ea, 0);
  writeShared(tiles_[op.getB()], lb, ea, bOffset);
  barrier();
  // One loop over K carries every output register of this thread.
  SmallVector<SmallVector<Value>> outIdx;
  for (int64_t r = 0; r < out.perThread; ++r)
    outIdx.push_back(delinearize(linearIndex(out, r), out.shape));
  auto loop = scf::ForOp::create(b_, loc_, i32(0), i32(k), i32(1), tiles_[op.getAcc()]);
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToStart(loop.getBody());
    Value kk = loop.getInductionVar();
    SmallVector<Value> next;
    for (int64_t r = 0; r < out.perThread; ++r) {
      SmallVector<Value> ai = outIdx[r], bi = outIdx[r];
      ai[rank - 1] = kk;       // a[..., m, k]
      bi[rank - 2] = kk;       // b[..., k, n]
      Value av = toAccType(b_, loc_, readShared(ea, 0, linearize(ai, la.shape)), eacc);
      Value bv = toAccType(b_, loc_, readShared(ea, bOffset, linearize(bi, lb.shape)), eacc);
      Value acc = loop.getRegionIterArgs()[r];
      next.push_back(isa<FloatType>(eacc) ? Value(math::FmaOp::create(b_, loc_, av, bv, acc))
                                          : Value(arith::AddIOp::create(b_, loc_, acc, arith::MulIOp::create(b_, loc_, av, bv))));
    }
    scf::YieldOp::create(b_, loc_, next);
  }
  tiles_[op] = Elements(loop.getResults().begin(), loop.getResults().end());
  return success();
}

}  // namespace tile::codegen
