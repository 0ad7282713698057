// The tile-place-shared-operands pass: each operand that a wgmma product reads from shared
// memory and that no pipeline stage holds gets a buffer of its own, as tgpu IR in front of the
// product, which then reads it in place:
//
//   %buf = tgpu.alloc_shared : !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
//   tgpu.store_shared %x, %buf : tensor<64x64xbf16>, !tgpu.shared<...>
//   %view = tgpu.transpose %buf : ...                     (for an operand that is a transpose)
//   %operand = tgpu.load_shared %view : !tgpu.shared<...> -> tensor<64x64xbf16>
//
// The decisions are the buffer's type: its orientation (the tile as computed, so that each
// thread stores 16-byte vectors; for an operand that is a tile.permute of the last two
// dimensions, the permute's input read through a transposed view with wgmma's transpose bit,
// so nothing is transposed in registers) and its swizzle (StageLayout.h: the widest the rows
// allow; operand tiles are whole KiB, so the 1024-byte alignment costs at most the padding of
// the buffers' start). tile-allocate-shared then places the buffers by liveness.
// A product its loop leaves pending across iterations (tile.wgmma_pending) is waited for in
// its own iteration once it reads such a buffer: the next iteration rewrites the buffer.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/OperandSources.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "dialect/gpu/TileGpu.h"

#define DEBUG_TYPE "tile-place-shared-operands"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEPLACESHAREDOPERANDS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

// An operand that gets a buffer: the tile stored (the operand, or the input of the permute
// producing it) and whether the product reads it through a transposed view.
struct OperandPlan {
  unsigned operandNumber;
  Value stored;
  bool transposedView;
};

} // namespace

LogicalResult placeSharedOperands(mlir::tile::KernelOp kernel, const GpuTarget &target) {
  SmallVector<mlir::tile::MmaOp> products;
  kernel.walk([&](mlir::tile::MmaOp op) {
    if (runsAsWgmma(op, target))
      products.push_back(op);
  });
  MLIRContext *ctx = kernel.getContext();
  for (mlir::tile::MmaOp op : products) {
    SmallVector<OperandPlan> plans;
    for (unsigned i : {0u, 1u}) {
      Value operand = op->getOperand(i);
      bool isB = i == 1;
      // A in the #tile.mma layout is read from registers (tile-assign-layouts); operands
      // already in a buffer or a pipeline stage are read there.
      if (!isB && isa_and_nonnull<mlir::tile::MmaLayoutAttr>(cast<RankedTensorType>(operand.getType()).getEncoding()))
        continue;
      if (operand.getDefiningOp<tgpu::LoadSharedOp>() || stageOperand(operand, isB))
        continue;
      OperandPlan plan{i, operand, false};
      if (mlir::tile::PermuteOp permute = lastTwoSwapped(operand))
        plan = {i, permute.getInput(), true};
      plans.push_back(plan);
    }
    if (plans.empty())
      continue;

    OpBuilder b(op);
    Location loc = op.getLoc();
    for (OperandPlan &plan : plans) {
      auto stored = cast<RankedTensorType>(plan.stored.getType());
      int64_t rowBytes = stored.getShape().back() * elementBytes(stored.getElementType());
      auto encoding = tgpu::NvmmaEncodingAttr::get(ctx, stageSwizzleBytes(rowBytes), false);
      auto bufferType = tgpu::SharedType::get(ctx, stored.getShape(), stored.getElementType(), encoding, 0);
      Value buffer = tgpu::AllocSharedOp::create(b, loc, bufferType);
      tgpu::StoreSharedOp::create(b, loc, plan.stored, buffer, Value());
      if (plan.transposedView) {
        SmallVector<int64_t> shape(stored.getShape());
        std::swap(shape[shape.size() - 2], shape.back());
        auto viewType = tgpu::SharedType::get(ctx, shape, stored.getElementType(),
                                              tgpu::NvmmaEncodingAttr::get(ctx, encoding.getSwizzle(), true), 0);
        buffer = tgpu::TransposeOp::create(b, loc, viewType, buffer);
      }
      Value operand = op->getOperand(plan.operandNumber);
      Value read = tgpu::LoadSharedOp::create(b, loc, operand.getType(), buffer, Value());
      op->setOperand(plan.operandNumber, read);
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << loc << ": " << (plan.operandNumber ? "B" : "A")
                              << " in " << bufferType
                              << (plan.transposedView ? ", the permute's input read through a transposed view"
                                                      : ", stored as computed")
                              << "\n");
      if (Operation *def = operand.getDefiningOp(); def && isa<mlir::tile::PermuteOp>(def) && def->use_empty())
        def->erase();
    }
    if (op->hasAttr(kWgmmaPendingAttr)) {
      op->removeAttr(kWgmmaPendingAttr);
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << loc
                              << ": waited for in its own iteration (the next one rewrites its buffers)\n");
    }
  }
  return success();
}

namespace {

struct TilePlaceSharedOperandsPass : impl::TilePlaceSharedOperandsBase<TilePlaceSharedOperandsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    for (mlir::tile::KernelOp kernel : getOperation().getOps<mlir::tile::KernelOp>())
      if (failed(placeSharedOperands(kernel, *target)))
        return signalPassFailure();
  }
};

} // namespace

} // namespace tile::codegen
