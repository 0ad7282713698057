// The tile-select-mma pass: which instruction runs each tile.mma (wgmma, mma.sync or FMA),
// from the target, the dtypes, the shapes and the kernel's warps. A product of 8-bit floats
// that wgmma cannot read as such runs on f16 operands instead (widenFloat8Operands).

#include "compiler/codegen/Passes.h"
#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/MmaLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#define DEBUG_TYPE "tile-select-mma"

namespace tile::codegen {

#define GEN_PASS_DEF_TILESELECTMMA
#include "compiler/codegen/Passes.h.inc"

using namespace mlir;

namespace {

using mlir::tile::MmaInstruction;

bool hasFloat8Operand(mlir::tile::MmaOp op) {
  return isFloat8(op.getA().getType().getElementType()) || isFloat8(op.getB().getType().getElementType());
}

// Widens each 8-bit float operand of `op` to f16 (or to the other operand's type when that is
// not an 8-bit float). Exact: every float8_e4m3fn and float8_e5m2 value is an f16 value.
void widenFloat8Operands(mlir::tile::MmaOp op) {
  OpBuilder b(op);
  for (unsigned i : {0u, 1u}) {
    auto type = cast<RankedTensorType>(op->getOperand(i).getType());
    if (!isFloat8(type.getElementType()))
      continue;
    Type other = cast<RankedTensorType>(op->getOperand(1 - i).getType()).getElementType();
    Type wide = isFloat8(other) ? b.getF16Type() : other;
    auto wideType = RankedTensorType::get(type.getShape(), wide, type.getEncoding());
    op->setOperand(i, arith::ExtFOp::create(b, op.getLoc(), wideType, op->getOperand(i)));
  }
}

// Why a product with an 8-bit float operand does not run as an 8-bit wgmma; empty when it does
// (or has no such operand).
std::string float8WgmmaRefusal(mlir::tile::MmaOp op, const GpuTarget &target, int64_t threads) {
  if (!hasFloat8Operand(op))
    return "";
  std::string why = tensorCoreRefusal(op, target);
  if (!why.empty())
    return why;
  std::optional<mlir::tile::MmaLayoutAttr> acc = accumulatorLayoutFor(op, target, threads);
  if (!acc)
    return "not every warp has work in this product";
  if (!usesWgmma(op, target, *acc, &why)) {
    // A decode-sized M: the transposed product has N rows.
    RankedTensorType a = op.getA().getType(), b = op.getB().getType();
    if (a.getRank() == 2 && a.getDimSize(0) < 64 && b.getDimSize(1) % 64 == 0)
      why += "; computing its transpose instead, ct.mma(B^T, A^T) with N = " + std::to_string(b.getDimSize(1)) +
             " as its M (TileGym's SWAP_AB), runs it as an 8-bit wgmma";
    return why;
  }
  if (recordedMmaInstruction(op).value_or(MmaInstruction::wgmma) != MmaInstruction::wgmma)
    return "another instruction was asked for";
  return "";
}

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
        MmaInstruction best = chooseMmaInstruction(op, *target, threads, why);
        if (std::string reason = float8WgmmaRefusal(op, *target, threads); !reason.empty()) {
          op.emitRemark() << "the 8-bit float product runs on f16 operands (converted exactly), not as an 8-bit "
                             "wgmma: "
                          << reason;
          TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.mma at " << op.getLoc()
                                  << ": 8-bit float operands widened to f16 (" << reason << ")\n");
          widenFloat8Operands(op);
          best = chooseMmaInstruction(op, *target, threads, why);
        }
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
