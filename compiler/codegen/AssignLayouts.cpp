// The tile-assign-layouts pass: Tensor Core products get the #tile.mma accumulator layout,
// with explicit conversions from and to the canonical layout around them.

#include "compiler/codegen/MmaLayout.h"
#include "compiler/codegen/Passes.h"

#include "mlir/IR/Builders.h"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {
struct TileAssignLayoutsPass : impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = GpuTarget::parse(arch);
    if (!target) {
      getOperation().emitError("unknown target '") << arch << "' (expected sm_70 ... sm_90a)";
      return signalPassFailure();
    }
    OpBuilder b(&getContext());
    getOperation().walk([&](mlir::tile::MmaOp op) {
      RankedTensorType accType = op.getAcc().getType();
      if (accType.getEncoding())
        return;
      std::optional<mlir::tile::MmaLayoutAttr> layout = accumulatorLayoutFor(op, *target, numThreads);
      if (!layout)
        return;
      auto encoded = RankedTensorType::get(accType.getShape(), accType.getElementType(), *layout);
      b.setInsertionPoint(op);
      auto in = mlir::tile::ConvertLayoutOp::create(b, op.getLoc(), encoded, op.getAcc());
      op.getAccMutable().assign(in);
      op.getResult().setType(encoded);
      b.setInsertionPointAfter(op);
      auto out = mlir::tile::ConvertLayoutOp::create(b, op.getLoc(), accType, op.getResult());
      op.getResult().replaceAllUsesExcept(out, out);
    });
  }
};
}  // namespace

}  // namespace tile::codegen
