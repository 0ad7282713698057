#include "compiler/codegen/analysis/WarpSpecialization.h"

#include "compiler/codegen/analysis/Pipelining.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tile::codegen {

static bool isScalarQuery(Operation *op) {
  auto scalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) && llvm::all_of(op->getResultTypes(), scalar) &&
         llvm::all_of(op->getOperands(),
                      [&](Value v) { return scalar(v.getType()) || isa<mlir::tile::ArrayType>(v.getType()); });
}

std::optional<SmallVector<Operation *>> producerPrologue(scf::ForOp loop, std::string &why) {
  Block *top = loop->getBlock();
  Block *body = loop.getBody();
  llvm::SetVector<Operation *> outer, inner;
  SmallVector<Value> worklist{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  for (Operation &op : *body)
    if (auto load = dyn_cast<mlir::tile::LoadOp>(op); load && load->hasAttr(kPipelineOffsetAttr))
      llvm::append_range(worklist, load.getIndices());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == top)
        continue; // a kernel argument
      why = "a copied load's index depends on a value the loop carries";
      return std::nullopt;
    }
    Operation *def = v.getDefiningOp();
    llvm::SetVector<Operation *> *set = def->getBlock() == top ? &outer : def->getBlock() == body ? &inner : nullptr;
    if (!set) {
      why = "a copied load's index is computed in a nested region";
      return std::nullopt;
    }
    if (!isScalarQuery(def)) {
      why = "a copied load's index or the loop's bounds depend on '" + def->getName().getStringRef().str() +
            "', which is not scalar arithmetic or a grid/array query";
      return std::nullopt;
    }
    if (set->insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(outer.begin(), outer.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

std::optional<std::string> whyNotWarpSpecialized(scf::ForOp loop) {
  if (!isa<mlir::tile::KernelOp>(loop->getParentOp()))
    return std::string("the loop is not in the kernel's top block");
  if (!pipelineStages(loop))
    return std::string("the loop is not pipelined");
  bool anyLoad = false, allTma = true;
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<mlir::tile::LoadOp>(op); load && load->hasAttr(kPipelineOffsetAttr)) {
      anyLoad = true;
      allTma &= load->hasAttr(kTmaAttr);
    }
  if (!anyLoad || !allTma)
    return std::string("not every load copied ahead is a TMA copy");
  if (markedPendingWgmma(loop))
    return std::string("its product stays pending across iterations (the consumers issue the copies after its wait)");
  bool bulkStore = false;
  loop.getBody()->walk([&](mlir::tile::StoreOp store) { bulkStore |= store->hasAttr(kTmaAttr); });
  if (bulkStore)
    return std::string("the loop has a bulk store");
  bool waitsForGrid = false;
  loop->getParentOp()->walk([&](mlir::tile::GridDependencyControlOp op) {
    waitsForGrid |= op.getAction() == mlir::tile::GridDependencyAction::wait;
  });
  if (waitsForGrid)
    return std::string("the kernel waits for the previous grid (the producer's copies would not)");
  std::string why;
  if (!producerPrologue(loop, why))
    return why;
  return std::nullopt;
}

int64_t consumerRegisters(int64_t consumerThreads) {
  if (consumerThreads < 256)
    return 0;
  // setmaxnreg moves registers within the block's own allocation: every thread's share at
  // launch (ptxas gives a kernel with setmaxnreg exactly that many, a multiple of 8), less what
  // the producer keeps. Asking for more would block the consumers forever.
  int64_t threads = consumerThreads + kProducerThreads;
  int64_t atLaunch = std::min<int64_t>(255, 65536 / threads) / 8 * 8;
  int64_t share = (threads * atLaunch - kProducerThreads * kProducerRegisters) / consumerThreads;
  return std::min<int64_t>(240, share / 8 * 8);
}

} // namespace tile::codegen
