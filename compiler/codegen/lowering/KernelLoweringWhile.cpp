// scf.while (while loops, and for loops that break or return early): tiles flow through the
// loop as their per-thread elements, like scf.for and scf.if in KernelLowering.cpp.

#include "compiler/codegen/lowering/KernelLowering.h"

using namespace mlir;

namespace tile::codegen {

static SmallVector<Type> registerTypes(KernelLowering &l, TypeRange types) {
  SmallVector<Type> out;
  for (Type t : types) {
    if (isa<RankedTensorType>(t))
      out.append(l.layoutOf(t).perThread, registerType(getElementTypeOrSelf(t)));
    else
      out.push_back(t);
  }
  return out;
}

LogicalResult KernelLowering::lowerWhile(scf::WhileOp op) {
  SmallVector<Value> inits;
  flatten(*this, op.getInits(), inits);
  SmallVector<Type> beforeTypes = registerTypes(*this, op.getInits().getTypes());
  SmallVector<Type> afterTypes = registerTypes(*this, op.getResultTypes());
  auto newWhile = scf::WhileOp::create(b_, loc_, afterTypes, inits);
  Block *before =
      b_.createBlock(&newWhile.getBefore(), {}, beforeTypes, SmallVector<Location>(beforeTypes.size(), loc_));
  Block *after = b_.createBlock(&newWhile.getAfter(), {}, afterTypes, SmallVector<Location>(afterTypes.size(), loc_));
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(before);
    unflatten(*this, op.getBeforeArguments(), before->getArguments(), 0);
    if (failed(lowerRegion(op.getBefore())))
      return failure();
    auto condition = cast<scf::ConditionOp>(op.getBefore().front().getTerminator());
    SmallVector<Value> passed;
    flatten(*this, condition.getArgs(), passed);
    scf::ConditionOp::create(b_, loc_, scalars_.lookup(condition.getCondition()), passed);
  }
  {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(after);
    unflatten(*this, op.getAfterArguments(), after->getArguments(), 0);
    if (failed(lowerRegion(op.getAfter())))
      return failure();
    SmallVector<Value> yields;
    flatten(*this, op.getAfter().front().getTerminator()->getOperands(), yields);
    scf::YieldOp::create(b_, loc_, yields);
  }
  b_.setInsertionPointAfter(newWhile);
  unflatten(*this, op.getResults(), newWhile.getResults(), 0);
  return success();
}

} // namespace tile::codegen
