// scf.for, scf.while, scf.if and the terminators (scf.yield, tile.return), which runBlock consumes.

#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tile::interp {
namespace {

using Values = std::vector<std::shared_ptr<const Tensor>>;

LogicalResult runFor(ExecContext &ctx, Operation *op) {
  auto loop = cast<scf::ForOp>(op);
  DType ivType = elementDType(loop.getInductionVar());
  const Tensor &lbT = ctx.tensor(loop.getLowerBound()), &ubT = ctx.tensor(loop.getUpperBound()),
               &stepT = ctx.tensor(loop.getStep());
  bool isUnsigned = loop.getUnsignedCmp();
  auto read = [&](const Tensor &t) -> __int128 {
    return isUnsigned ? static_cast<__int128>(unsignedValue(t.i[0], t.dtype))
                      : static_cast<__int128>(signedValue(t.i[0], t.dtype));
  };
  __int128 lb = read(lbT), ub = read(ubT), step = read(stepT);
  if (step <= 0)
    return ctx.fail(op, "scf.for step must be positive, got " + std::to_string(static_cast<int64_t>(step)));
  Values iters;
  for (Value v : loop.getInitArgs())
    iters.push_back(ctx.shared(v));
  Block &body = loop.getRegion().front();
  for (__int128 iv = lb; iv < ub; iv += step) {
    ctx.bind(loop.getInductionVar(), Tensor::scalarInt(ivType, static_cast<int64_t>(iv)));
    for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), iters))
      ctx.bind(arg, value);
    Values next;
    if (failed(runBlock(ctx, body, &next)))
      return failure();
    iters = std::move(next);
  }
  for (auto [result, value] : llvm::zip(loop.getResults(), iters))
    ctx.bind(result, value);
  return success();
}

// scf.while: the before region computes the condition and the values passed on (to the
// after region, or out as results once the condition is false).
LogicalResult runWhile(ExecContext &ctx, Operation *op) {
  auto loop = cast<scf::WhileOp>(op);
  Values iters;
  for (Value v : loop.getInits())
    iters.push_back(ctx.shared(v));
  for (;;) {
    for (auto [arg, value] : llvm::zip(loop.getBeforeArguments(), iters))
      ctx.bind(arg, value);
    Values passed; // the condition, then the forwarded values
    if (failed(runBlock(ctx, loop.getBefore().front(), &passed)))
      return failure();
    bool go = passed[0]->i[0] != 0;
    passed.erase(passed.begin());
    if (!go) {
      for (auto [result, value] : llvm::zip(loop.getResults(), passed))
        ctx.bind(result, value);
      return success();
    }
    for (auto [arg, value] : llvm::zip(loop.getAfterArguments(), passed))
      ctx.bind(arg, value);
    Values next;
    if (failed(runBlock(ctx, loop.getAfter().front(), &next)))
      return failure();
    iters = std::move(next);
  }
}

LogicalResult runIf(ExecContext &ctx, Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  bool cond = ctx.tensor(ifOp.getCondition()).i[0] != 0;
  Region &region = cond ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  Values results;
  if (failed(runBlock(ctx, region.front(), &results)))
    return failure();
  for (auto [result, value] : llvm::zip(ifOp.getResults(), results))
    ctx.bind(result, value);
  return success();
}

// Terminators end runBlock before dispatch; registering them marks them supported.
LogicalResult terminator(ExecContext &, Operation *) { return success(); }

} // namespace

void registerControlFlowOps(OpTable &t) {
  t.add<scf::ForOp>(runFor);
  t.add<scf::IfOp>(runIf);
  t.add<scf::WhileOp>(runWhile);
  t.add<scf::ConditionOp>(terminator);
  t.add<scf::YieldOp>(terminator);
  t.add<mlir::tile::ReturnOp>(terminator);
}

} // namespace tile::interp
