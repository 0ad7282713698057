// The tile-assign-layouts pass: Tensor Core products get the #tile.mma accumulator layout,
// with explicit conversions from and to the canonical layout around them.

#include "compiler/codegen/Debug.h"
#include "compiler/codegen/MmaLayout.h"
#include "compiler/codegen/Passes.h"

#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "tile-assign-layouts"

namespace tile::codegen {

#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

// "tile.mma 64x32xbf16 * 32x64xbf16 -> 64x64xf32 at loc(...)", for the debug output.
void describeMma(llvm::raw_ostream &os, mlir::tile::MmaOp op) {
  auto shape = [&](RankedTensorType t) {
    for (int64_t d : t.getShape())
      os << d << "x";
    os << t.getElementType();
  };
  os << "tile.mma ";
  shape(op.getA().getType());
  os << " * ";
  shape(op.getB().getType());
  os << " -> ";
  shape(op.getAcc().getType());
  os << " at " << op.getLoc();
}

/// Records which instruction runs `op` (`tile.mma_instruction`: wgmma, mma.sync or fma) given
/// its accumulator layout, with a remark whenever the target has a faster one it cannot use.
void recordInstruction(mlir::tile::MmaOp op, const GpuTarget &target, int64_t numThreads,
                       mlir::tile::MmaLayoutAttr layout) {
  StringRef instruction;
  std::string why = tensorCoreRefusal(op, target);
  if (!why.empty()) {
    instruction = "fma";
    op.emitRemark() << "no Tensor Cores for this product: " << why << "; using FMA";
  } else if (!layout) {
    instruction = "fma";
    MmaWarpGrid g = MmaWarpGrid::of(op, numThreads);
    op.emitRemark() << "Tensor Cores need work for every warp: this product has work for " << g.numWarps() << " of "
                    << numThreads / 32 << " warps; using FMA";
  } else if (usesWgmma(op, target, layout, &why)) {
    instruction = "wgmma";
  } else {
    instruction = "mma.sync";
    if (target.hasWgmma())
      op.emitRemark() << why << "; using mma.sync";
  }
  op->setAttr("tile.mma_instruction", StringAttr::get(op.getContext(), instruction));
}

struct TileAssignLayoutsPass : impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string error;
    std::optional<GpuTarget> target = GpuTarget::parse(arch, error);
    if (!target || !GpuTarget::checkNumThreads(numThreads, error)) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] target sm_" << target->sm << ", " << numThreads << " threads ("
                            << numThreads / 32 << " warps)\n");
    OpBuilder b(&getContext());
    getOperation().walk([&](mlir::tile::MmaOp op) {
      RankedTensorType accType = op.getAcc().getType();
      if (accType.getEncoding()) {
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] "; describeMma(llvm::dbgs(), op);
                   llvm::dbgs() << ": keeps its layout " << accType.getEncoding() << "\n");
        recordInstruction(op, *target, numThreads, dyn_cast<mlir::tile::MmaLayoutAttr>(accType.getEncoding()));
        return;
      }
      std::optional<mlir::tile::MmaLayoutAttr> layout = accumulatorLayoutFor(op, *target, numThreads);
      recordInstruction(op, *target, numThreads, layout.value_or(nullptr));
      TILE_DEBUG({
        llvm::raw_ostream &os = llvm::dbgs();
        os << "[" DEBUG_TYPE "] ";
        describeMma(os, op);
        std::string why = tensorCoreRefusal(op, *target);
        if (!why.empty()) {
          os << ": no Tensor Cores (" << why << "); FMA path, canonical layout\n";
        } else {
          MmaWarpGrid g = MmaWarpGrid::of(op, numThreads); // M, N are multiples of 16, 8 here
          os << (layout ? ": Tensor Cores (mma.sync.m16n8k" : ": Tensor Cores possible (mma.sync.m16n8k")
             << mmaInstructionK(op.getA().getType().getElementType()) << "), warp grid " << g.warpsB << "x" << g.warpsM
             << "x" << g.warpsN << " (batch x M x N)";
          if (layout)
            os << " -> " << *layout << "\n";
          else
            os << " gives work to " << g.numWarps() << " of " << numThreads / 32 << " warps; canonical layout\n";
        }
      });
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

} // namespace

} // namespace tile::codegen
