// The tile-assign-layouts pass: Tensor Core products get the #tile.mma accumulator layout,
// with explicit conversions from and to the canonical layout around them.

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/AccumulatorLayout.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/OperandSources.h"
#include "compiler/codegen/analysis/Rematerialize.h"

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

// The A operand is a load (through reshapes and permutes) that the lowering reads in place
// from shared memory: nothing is computed in registers.
bool isLoadedOperand(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<mlir::tile::LoadOp>(def))
      return true;
    if (!isa<mlir::tile::ReshapeOp, mlir::tile::ExpandDimsOp, mlir::tile::PermuteOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

/// An A operand computed in registers is given the #tile.mma layout of the product's warp grid
/// on its M x K shape when every thread can build its own elements (Rematerialize.h): the A
/// fragments of mma.sync.m16n8k16 and of wgmma's register-A form are the accumulator fragments
/// of two neighbouring 8-column tiles, so the product takes A from registers and the operand
/// never goes through shared memory. Records `tile.operand_a` (#tile.operand<registers> or <shared>), with
/// a remark saying why when a computed operand stays in shared memory.
void placeOperandA(mlir::tile::MmaOp op, mlir::tile::MmaLayoutAttr acc, OpBuilder &b) {
  Value a = op.getA();
  if (isLoadedOperand(a))
    return;
  auto record = [&](mlir::tile::OperandSource where) {
    op->setAttr(kOperandAAttr, mlir::tile::OperandSourceAttr::get(op.getContext(), where));
  };
  auto shared = [&](const Twine &why) {
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc()
                            << ": A computed in registers, through shared memory (" << why << ")\n");
    op.emitRemark() << "the A operand is computed in registers but goes through shared memory: " << why;
    record(mlir::tile::OperandSource::shared);
  };
  RankedTensorType type = op.getA().getType();
  Type elt = type.getElementType();
  if (type.getRank() != 2)
    return shared("batched products read A from shared memory");
  if (!elt.isBF16() && !elt.isF16())
    return shared("A fragments in registers are built for 16-bit operands only, not " +
                  llvm::Twine(elt.isTF32() ? "tf32" : "this type"));
  if (acc.getWarpsN() != 1)
    return shared("the warps split N, so several warps would need the same rows of A");
  if (mlir::tile::LoadOp narrow = convertedNarrowLoad(a))
    return shared("it is converted from a loaded tile of " + llvm::Twine(narrowLoadElements(narrow)) +
                  " (register fragments are not built from 8-bit stages)");
  // Built from another product's accumulator in this very layout (FlashAttention's P = f(Q.K^T)
  // feeding P.V; Mamba-2's masked C.B^T): its fragments are the A fragments already.
  auto layout = mlir::tile::MmaLayoutAttr::get(op.getContext(), 1, acc.getWarpsM(), 1);
  std::string why;
  if (!isRematerializable(a, op, &why, kMaxRematerializedConversionOps, layout))
    return shared("its threads cannot build their own elements (" + why + ")");
  b.setInsertionPoint(op);
  auto converted =
      mlir::tile::ConvertLayoutOp::create(b, op.getLoc(), RankedTensorType::get(type.getShape(), elt, layout), a);
  op.getAMutable().assign(converted);
  record(mlir::tile::OperandSource::registers);
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc() << ": A in registers (" << layout
                          << "), each thread builds its fragments\n");
}

struct TileAssignLayoutsPass : impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GpuTarget> target = passTarget(getOperation(), arch);
    if (!target)
      return signalPassFailure();
    for (auto kernel : getOperation().getOps<mlir::tile::KernelOp>()) {
      int64_t threads = kernelThreads(kernel, numThreads);
      if (!threads)
        return signalPassFailure();
      TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "': target sm_" << target->sm
                              << ", " << threads << " threads (" << threads / 32 << " warps)\n");
      assignKernel(kernel, *target, threads);
    }
  }

  void assignKernel(mlir::tile::KernelOp kernel, const GpuTarget &target, int64_t threads) {
    OpBuilder b(&getContext());
    SmallVector<std::pair<mlir::tile::MmaOp, mlir::tile::MmaLayoutAttr>> products;
    kernel.walk([&](mlir::tile::MmaOp op) {
      RankedTensorType accType = op.getAcc().getType();
      if (accType.getEncoding()) {
        TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] "; describeMma(llvm::dbgs(), op);
                   llvm::dbgs() << ": keeps its layout " << accType.getEncoding() << "\n");
        if (!op->hasAttr(kMmaInstructionAttr))
          recordMmaInstruction(op, target, threads);
        return;
      }
      // tile-select-mma records the instruction first in the pipeline; IR without it gets it here.
      if (!op->hasAttr(kMmaInstructionAttr))
        recordMmaInstruction(op, target, threads);
      std::optional<mlir::tile::MmaLayoutAttr> layout = accumulatorLayoutFor(op, target, threads);
      TILE_DEBUG({
        llvm::raw_ostream &os = llvm::dbgs();
        os << "[" DEBUG_TYPE "] ";
        describeMma(os, op);
        std::string why = tensorCoreRefusal(op, target);
        if (!why.empty()) {
          os << ": no Tensor Cores (" << why << "); FMA path, canonical layout\n";
        } else {
          MmaWarpGrid g = MmaWarpGrid::of(op, threads); // M, N are multiples of 16, 8 here
          os << (layout ? ": Tensor Cores (mma.sync.m16n8k" : ": Tensor Cores possible (mma.sync.m16n8k")
             << mmaInstructionK(op.getA().getType().getElementType()) << "), warp grid " << g.warpsB << "x" << g.warpsM
             << "x" << g.warpsN << " (batch x M x N)";
          if (layout)
            os << " -> " << *layout << "\n";
          else
            os << " gives work to " << g.numWarps() << " of " << threads / 32 << " warps; canonical layout\n";
        }
      });
      if (!layout)
        return;
      products.push_back({op, *layout});
      auto encoded = RankedTensorType::get(accType.getShape(), accType.getElementType(), *layout);
      b.setInsertionPoint(op);
      auto in = mlir::tile::ConvertLayoutOp::create(b, op.getLoc(), encoded, op.getAcc());
      op.getAccMutable().assign(in);
      op.getResult().setType(encoded);
      b.setInsertionPointAfter(op);
      auto out = mlir::tile::ConvertLayoutOp::create(b, op.getLoc(), accType, op.getResult());
      op.getResult().replaceAllUsesExcept(out, out);
    });
    // Then what is computed from the accumulators (online softmax's statistics and P), and last
    // the A operands, which may be such values.
    int64_t kept = keepInAccumulatorLayout(kernel);
    TILE_DEBUG(if (kept) llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel.getSymName() << "': " << kept
                                      << " value(s) kept in accumulator layouts\n");
    for (auto [op, layout] : products)
      placeOperandA(op, layout, b);
  }
};

} // namespace

} // namespace tile::codegen
