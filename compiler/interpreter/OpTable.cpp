#include "compiler/interpreter/OpTable.h"

using namespace mlir;

namespace tile::interp {

const OpTable &opTable() {
  static const OpTable table = [] {
    OpTable t;
    registerArithOps(t);
    registerCastOps(t);
    registerMathOps(t);
    registerControlFlowOps(t);
    registerGridOps(t);
    registerMemoryOps(t);
    registerElementAccessOps(t);
    registerMmaOps(t);
    registerReduceScanOps(t);
    registerShapeOps(t);
    registerDebugOps(t);
    return t;
  }();
  return table;
}

LogicalResult runBlock(ExecContext &ctx, Block &block, std::vector<std::shared_ptr<const Tensor>> *results) {
  const OpTable &table = opTable();
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      if (results)
        for (Value v : op.getOperands())
          results->push_back(ctx.shared(v));
      return success();
    }
    OpHandler handler = table.lookup(op.getName().getStringRef());
    if (!handler)
      return ctx.fail(&op, "the interpreter does not support '" + op.getName().getStringRef() + "'");
    if (failed(handler(ctx, &op)))
      return failure();
  }
  return success();
}

} // namespace tile::interp
