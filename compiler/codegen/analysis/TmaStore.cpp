#include "compiler/codegen/analysis/TmaStore.h"

#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/analysis/TmaAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tile::codegen {

using namespace mlir;

namespace {

/// The staging buffer lives beside the stages at the kernel's occupancy: a larger tile keeps
/// its ordinary stores rather than taking their shared memory.
constexpr int64_t kMaxStagingBytes = 32 * 1024;

/// Whether `index` takes another value on each iteration of `loop`: its induction variable,
/// plus, minus or times (a nonzero constant) something defined outside the loop.
bool changesEveryIteration(Value index, scf::ForOp loop) {
  if (index == loop.getInductionVar())
    return true;
  Operation *def = index.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return false;
  auto invariant = [&](Value v) { return loop.isDefinedOutsideOfLoop(v); };
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(def))
    return changesEveryIteration(def->getOperand(0), loop);
  if (isa<arith::AddIOp>(def))
    return (changesEveryIteration(def->getOperand(0), loop) && invariant(def->getOperand(1))) ||
           (invariant(def->getOperand(0)) && changesEveryIteration(def->getOperand(1), loop));
  if (isa<arith::SubIOp>(def))
    return changesEveryIteration(def->getOperand(0), loop) && invariant(def->getOperand(1));
  if (isa<arith::MulIOp>(def)) {
    for (int i = 0; i < 2; ++i) {
      IntegerAttr factor;
      if (matchPattern(def->getOperand(1 - i), m_Constant(&factor)) && !factor.getValue().isZero() &&
          changesEveryIteration(def->getOperand(i), loop))
        return true;
    }
  }
  return false;
}

} // namespace

std::variant<TmaStorePlan, std::string> tmaStoreFor(mlir::tile::StoreOp store, mlir::tile::KernelOp kernel,
                                                    const GpuTarget &target) {
  auto type = cast<RankedTensorType>(store.getValue().getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned arg = 0;
  std::string why =
      tmaAccessRefusal(store.getArray(), store.getOrder(), store.getAllowTma(), shape, kernel, target, arg);
  if (!why.empty())
    return why;
  if (!store->getParentOfType<scf::ForOp>())
    return std::string("it is not in a loop (bulk stores pay off where a loop repeats the store)");
  std::string name = kernel.getParamName(arg);
  Type elt = type.getElementType();
  if (elt.isInteger(1) || elt.isTF32())
    return std::string("TMA does not store ") + (elt.isInteger(1) ? "bool" : "tf32") + " elements as they are held";
  int64_t esize = elementBytes(elt);
  int64_t bytes = type.getNumElements() * esize;
  if (bytes > kMaxStagingBytes)
    return "its " + std::to_string(bytes) + "-byte tile is over the " + std::to_string(kMaxStagingBytes) +
           "-byte staging limit";
  int64_t rowBytes = shape.back() * esize;
  SmallVector<int64_t> box(shape);
  // The copy engine swizzles by the shared-memory address (a 16-byte chunk's index XOR the
  // address's bits 7-9), the staging writes by the row within a column block (operandTileOffset):
  // the two agree when every column block is whole periods of 8 swizzled rows. A tile with
  // fewer or ragged rows (a row of a softmax) is staged unswizzled, one box per row block.
  const int64_t rows = type.getNumElements() / shape.back();
  int64_t swizzle = rows % 8 == 0 ? stageSwizzleBytes(rowBytes) : 0;
  if (swizzle)
    box.back() = swizzle / esize;
  why = tmaBoxRefusal(box, esize);
  if (!why.empty())
    return why;
  for (OpOperand &use : store.getArray().getUses())
    if (use.getOwner() != store.getOperation() && !isMemoryEffectFree(use.getOwner()))
      return "the kernel also accesses '" + name + "' elsewhere (nothing orders a bulk store with other accesses)";
  for (auto loop = store->getParentOfType<scf::ForOp>(); loop; loop = loop->getParentOfType<scf::ForOp>())
    if (llvm::none_of(store.getIndices(), [&](Value i) { return changesEveryIteration(i, loop); }))
      return std::string("no tile index changes with every iteration of the loop around it (nothing orders "
                         "the bulk stores of two iterations)");
  return TmaStorePlan{arg, box, swizzle, bytes};
}

int64_t tmaStoreStagingBytes(mlir::tile::KernelOp kernel, const GpuTarget &target) {
  int64_t bytes = 0;
  kernel.walk([&](mlir::tile::StoreOp store) {
    auto plan = tmaStoreFor(store, kernel, target);
    if (auto *p = std::get_if<TmaStorePlan>(&plan))
      bytes = std::max(bytes, p->stagingBytes);
  });
  return bytes;
}

} // namespace tile::codegen
