// Programmatic dependent launch (cuTile's grid_dependency_control_*): griddepcontrol.wait and
// griddepcontrol.launch_dependents on sm_90 and later. Before sm_90 there is no programmatic
// dependent launch, kernels of a stream run one after another, and both are no-ops.

#include "compiler/codegen/Debug.h"
#include "compiler/codegen/KernelLowering.h"
#include "compiler/codegen/Pipelining.h"

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

// Copies issued ahead (a kernel-start copy of a load anywhere in the body, a pipelined loop's
// prologue before the loop) may run before the wait where the source put it, and read what a
// predecessor has not finished writing: such a kernel waits at its start, before any copy.
// Waiting earlier is always safe; the wait in place then returns at once.
void KernelLowering::waitBeforeCopiesAhead() {
  if (target_.sm < 90)
    return;
  bool waits = false, copiesAhead = false;
  kernel_.walk([&](Operation *op) {
    if (auto control = dyn_cast<mlir::tile::GridDependencyControlOp>(op))
      waits |= control.getAction() == mlir::tile::GridDependencyAction::wait;
    copiesAhead |= op->hasAttr(kPrefetchOffsetAttr) || op->hasAttr(kPipelineOffsetAttr);
  });
  if (!waits || !copiesAhead)
    return;
  TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel '" << kernel_.getSymName()
                          << "': waits for its predecessors at kernel start, before the copies issued ahead\n");
  NVVM::GriddepcontrolOp::create(b_, loc_, NVVM::GridDepActionKind::wait);
}

} // namespace tile::codegen
