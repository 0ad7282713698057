// tile.atomic_rmw and tile.atomic_cas: one LLVM atomic per element this thread owns, with the
// op's memory order (for atomic_rmw, as fences around a relaxed atomic) and scope (NVPTX sync scopes "block" and
// "device"; "sys" is the default, system scope). Replicas of a replicated layout take the owner's old value through
// shared memory, as tile.atomic_add does.

#include "compiler/codegen/lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tile::codegen {

static LLVM::AtomicOrdering ordering(StringRef order) {
  if (order == "acquire")
    return LLVM::AtomicOrdering::acquire;
  if (order == "release")
    return LLVM::AtomicOrdering::release;
  if (order == "acq_rel")
    return LLVM::AtomicOrdering::acq_rel;
  return LLVM::AtomicOrdering::monotonic;
}

// The ordering a failed compare-and-swap may have (no release part).
static LLVM::AtomicOrdering failureOrdering(LLVM::AtomicOrdering o) {
  if (o == LLVM::AtomicOrdering::acq_rel)
    return LLVM::AtomicOrdering::acquire;
  if (o == LLVM::AtomicOrdering::release)
    return LLVM::AtomicOrdering::monotonic;
  return o;
}

static StringRef syncScope(StringRef scope) {
  if (scope == "block" || scope == "device")
    return scope;
  return StringRef(); // system scope
}

static LLVM::AtomicBinOp binOp(StringRef kind, Type elt) {
  bool f = isa<FloatType>(elt);
  if (kind == "xchg")
    return LLVM::AtomicBinOp::xchg;
  if (kind == "add")
    return f ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  if (kind == "max")
    return LLVM::AtomicBinOp::max;
  if (kind == "min")
    return LLVM::AtomicBinOp::min;
  if (kind == "and")
    return LLVM::AtomicBinOp::_and;
  if (kind == "or")
    return LLVM::AtomicBinOp::_or;
  return LLVM::AtomicBinOp::_xor;
}

LogicalResult KernelLowering::lowerAtomic(Operation *op) {
  auto rmw = dyn_cast<mlir::tile::AtomicRMWOp>(op);
  auto cas = dyn_cast<mlir::tile::AtomicCASOp>(op);
  Array &array = arrays_[rmw ? rmw.getArray() : cas.getArray()];
  ValueRange indexTiles = rmw ? rmw.getIndices() : cas.getIndices();
  Value mask = rmw ? rmw.getMask() : cas.getMask();
  Type dataType = op->getResult(0).getType();
  TileLayout layout = layoutOf(dataType);
  Type elt = cast<RankedTensorType>(dataType).getElementType();
  StringRef order = rmw ? rmw.getMemoryOrder() : cas.getMemoryOrder();
  StringRef scope = rmw ? rmw.getMemoryScope() : cas.getMemoryScope();
  LLVM::AtomicOrdering ord = ordering(order);
  StringRef sync = syncScope(scope);
  Elements results;
  for (int64_t r = 0; r < layout.perThread; ++r) {
    Value ok;
    SmallVector<Value> idx = elementIndices(array, indexTiles, mask, r, ok);
    ok = boolAnd(owns(layout, r), ok);
    Value ptr = elementPointer(array, idx);
    if (rmw) {
      Value value = tiles_[rmw.getValue()][r];
      // NVPTX drops the ordering of an atomicrmw (it emits a relaxed atom), so the ordering
      // comes from fences around a monotonic one: release before, acquire after.
      bool releases = ord == LLVM::AtomicOrdering::release || ord == LLVM::AtomicOrdering::acq_rel;
      bool acquires = ord == LLVM::AtomicOrdering::acquire || ord == LLVM::AtomicOrdering::acq_rel;
      results.push_back(ifValue(
          ok, elt,
          [&] {
            if (releases)
              LLVM::FenceOp::create(b_, loc_, LLVM::AtomicOrdering::release, sync);
            Value old = LLVM::AtomicRMWOp::create(b_, loc_, binOp(rmw.getKind(), elt), ptr, value,
                                                  LLVM::AtomicOrdering::monotonic, sync)
                            .getResult();
            if (acquires)
              LLVM::FenceOp::create(b_, loc_, LLVM::AtomicOrdering::acquire, sync);
            return old;
          },
          [&] { return zeroOf(elt); }));
    } else {
      Value expected = tiles_[cas.getExpected()][r], desired = tiles_[cas.getDesired()][r];
      results.push_back(ifValue(
          ok, elt,
          [&] {
            auto pair =
                LLVM::AtomicCmpXchgOp::create(b_, loc_, ptr, expected, desired, ord, failureOrdering(ord), sync);
            return LLVM::ExtractValueOp::create(b_, loc_, pair, ArrayRef<int64_t>{0}).getResult();
          },
          [&] { return zeroOf(elt); }));
    }
  }
  shareOwnersValues(results, layout, elt);
  tiles_[op->getResult(0)] = results;
  return success();
}

} // namespace tile::codegen
