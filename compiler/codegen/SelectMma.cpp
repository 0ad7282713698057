// The tile-select-mma pass: which instruction runs each tile.mma (wgmma, mma.sync or FMA),
// from the target, the dtypes, the shapes and the kernel's warps.

#include "compiler/codegen/Debug.h"
#include "compiler/codegen/MmaLayout.h"
#include "compiler/codegen/Passes.h"

#define DEBUG_TYPE "tile-select-mma"

namespace tile::codegen {

#define GEN_PASS_DEF_TILESELECTMMA
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

struct TileSelectMmaPass : impl::TileSelectMmaBase<TileSelectMmaPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    bool failed = false;
    for (auto kernel : getOperation().getOps<mlir::tile::KernelOp>()) {
      int64_t threads = kernelThreads(kernel, numThreads);
      if (!threads)
        return signalPassFailure();
      kernel.walk([&](mlir::tile::MmaOp op) {
        std::string why;
        using mlir::tile::MmaInstruction;
        MmaInstruction best = chooseMmaInstruction(op, *target, threads, why);
        if (std::optional<MmaInstruction> asked = recordedMmaInstruction(op)) {
          // Written by hand: a slower instruction is honoured, one the product cannot run is not.
          bool possible = *asked == MmaInstruction::fma || *asked == best ||
                          (*asked == MmaInstruction::mma_sync && best == MmaInstruction::wgmma);
          if (!possible) {
            op.emitError() << kMmaInstructionAttr << " = " << stringifyMmaInstruction(*asked)
                           << " cannot run this product on sm_" << target->sm << (target->archSpecific ? "a" : "")
                           << ": " << why;
            failed = true;
          }
          TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": "
                                  << stringifyMmaInstruction(*asked) << " (given; the best here is "
                                  << stringifyMmaInstruction(best) << ")\n");
          return;
        }
        if (!why.empty())
          op.emitRemark() << why;
        op->setAttr(kMmaInstructionAttr, mlir::tile::MmaInstructionAttr::get(op.getContext(), best));
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": "
                                << stringifyMmaInstruction(best) << " at " << threads << " threads"
                                << (why.empty() ? "" : " (" + why + ")") << "\n");
      });
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace

} // namespace tile::codegen
