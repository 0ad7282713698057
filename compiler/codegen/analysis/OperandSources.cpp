#include "compiler/codegen/analysis/OperandSources.h"
#include "compiler/codegen/analysis/ElementStorage.h"
#include "compiler/codegen/analysis/Pipelining.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace tile::codegen {

mlir::tile::LoadOp convertedNarrowLoad(Value operand) {
  auto tile = dyn_cast<RankedTensorType>(operand.getType());
  if (!tile)
    return {};
  SmallVector<Value> pending{operand};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!pending.empty()) {
    Operation *def = pending.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (auto load = dyn_cast<mlir::tile::LoadOp>(def)) {
      Type element = load.getType().getElementType();
      if ((isa<IntegerType>(element) || isFloat8(element)) && load.getType().getNumElements() == tile.getNumElements())
        return load;
      continue;
    }
    for (Value input : def->getOperands())
      if (isa<RankedTensorType>(input.getType()))
        pending.push_back(input);
  }
  return {};
}

const char *narrowLoadElements(mlir::tile::LoadOp load) {
  return isFloat8(load.getType().getElementType()) ? "8-bit floats" : "integers";
}

mlir::tile::PermuteOp lastTwoSwapped(Value operand) {
  auto p = operand.getDefiningOp<mlir::tile::PermuteOp>();
  if (!p)
    return nullptr;
  ArrayRef<int32_t> perm = p.getPermutation();
  int64_t rank = perm.size();
  if (rank < 2 || perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2)
    return nullptr;
  for (int64_t d = 0; d + 2 < rank; ++d)
    if (perm[d] != d)
      return nullptr;
  return p;
}

std::pair<mlir::tile::LoadOp, bool> coreMatrixLoad(Value v) {
  bool transposed = false;
  if (mlir::tile::PermuteOp p = lastTwoSwapped(v); p && p.getPermutation().size() == 2) {
    transposed = true;
    v = p.getInput();
  }
  while (auto reshape = v.getDefiningOp<mlir::tile::ReshapeOp>())
    v = reshape.getInput();
  auto load = v.getDefiningOp<mlir::tile::LoadOp>();
  if (!load || !load->hasAttr(kPipelineCoreMatricesAttr))
    return {nullptr, false};
  return {load, transposed};
}

std::optional<StageOperand> stageOperand(Value operand, bool isB) {
  auto [load, transposed] = coreMatrixLoad(operand);
  if (!load)
    return std::nullopt;
  // The core-matrix order is the loaded tile's rows: reshapes on the way must keep them.
  for (Value r = transposed ? lastTwoSwapped(operand).getInput() : operand; r != load.getResult();
       r = r.getDefiningOp<mlir::tile::ReshapeOp>().getInput())
    if (cast<RankedTensorType>(r.getType()).getShape().back() != load.getType().getShape().back())
      return std::nullopt;
  if (!load->hasAttr(kPrefetchOffsetAttr)) {
    auto loop = dyn_cast_or_null<scf::ForOp>(load->getParentOp());
    if (!loop || !pipelineStages(loop))
      return std::nullopt;
  }
  // A is K-major as loaded (M x K) and M-major transposed; B the other way round.
  return StageOperand{load, isB ? !transposed : transposed};
}

} // namespace tile::codegen
