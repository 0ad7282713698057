// Programmatic dependent launch (cuTile's grid_dependency_control_*): griddepcontrol.wait and
// griddepcontrol.launch_dependents on sm_90 and later. Before sm_90 there is no programmatic
// dependent launch, kernels of a stream run one after another, and both are no-ops.

#include "compiler/codegen/analysis/Debug.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#define DEBUG_TYPE "tile-lower-to-llvm"

using namespace mlir;

namespace tile::codegen {

LogicalResult KernelLowering::lowerGridDependencyControl(mlir::tile::GridDependencyControlOp op) {
  bool wait = op.getAction() == mlir::tile::GridDependencyAction::wait;
  if (target_.sm < 90) {
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] tile.grid_dependency_control at " << op.getLoc() << ": sm_"
                            << target_.sm << " has no programmatic dependent launch; nothing to do\n");
    return success();
  }
  NVVM::GriddepcontrolOp::create(b_, loc_,
                                 wait ? NVVM::GridDepActionKind::wait : NVVM::GridDepActionKind::launch_dependents);
  return success();
}

// Copies issued ahead run before the wait where the source put it when they copy a load that
// comes after that wait: a kernel-start copy (issued at kernel start) of a load after any wait,
// or a pipelined loop's copy (the prologue before the loop copies the first iterations) when
// the loop holds a wait. They could read what a predecessor has not finished writing, so such
// a kernel waits at its start, before any copy (the wait in place then returns at once). Copies
// of loads that precede every wait (the inputs a kernel reads while its predecessor finishes)
// keep the wait where the source put it.
void KernelLowering::waitBeforeCopiesAhead() {
  if (target_.sm < 90)
    return;
  llvm::DenseMap<Operation *, int64_t> position; // program order
  SmallVector<Operation *> waits;
  kernel_.walk<WalkOrder::PreOrder>([&](Operation *op) {
    position[op] = static_cast<int64_t>(position.size());
    if (auto control = dyn_cast<mlir::tile::GridDependencyControlOp>(op);
        control && control.getAction() == mlir::tile::GridDependencyAction::wait)
      waits.push_back(op);
  });
  if (waits.empty())
    return;
  Operation *early = nullptr;
  kernel_.walk([&](Operation *op) {
    if (early)
      return;
    if (op->hasAttr(kPrefetchOffsetAttr) &&
        llvm::any_of(waits, [&](Operation *w) { return position[w] < position[op]; }))
      early = op;
    if (op->hasAttr(kPipelineOffsetAttr))
      for (Operation *loop = op->getParentOp(); loop && loop != kernel_.getOperation(); loop = loop->getParentOp())
        if (loop->hasAttr(kPipelineStagesAttr) &&
            llvm::any_of(waits, [&](Operation *w) { return loop->isProperAncestor(w); })) {
          early = op;
          break;
        }
  });
  if (!early) {
    TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel_.getSymName()
                            << "': every copy issued ahead is of a load before the waits; they stay in place\n");
    return;
  }
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel_.getSymName()
                          << "': waits for its predecessors at kernel start: the load at " << early->getLoc()
                          << " follows a wait and is copied ahead of it\n");
  NVVM::GriddepcontrolOp::create(b_, loc_, NVVM::GridDepActionKind::wait);
}

} // namespace tile::codegen
