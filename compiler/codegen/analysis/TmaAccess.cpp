#include "compiler/codegen/analysis/TmaAccess.h"
#include "compiler/codegen/analysis/ElementStorage.h"

namespace tile::codegen {

using namespace mlir;

std::string tmaAccessRefusal(Value array, std::optional<ArrayRef<int32_t>> order, std::optional<bool> allowTma,
                             ArrayRef<int64_t> shape, mlir::tile::KernelOp kernel, const GpuTarget &target,
                             unsigned &arg) {
  if (target.sm < 90)
    return "sm_" + std::to_string(target.sm) + " has no TMA (sm_90 and later)";
  if (allowTma && !*allowTma)
    return "allow_tma=False";
  auto blockArg = dyn_cast<BlockArgument>(array);
  if (!blockArg || blockArg.getOwner() != &kernel.getBody().front())
    return "its array is not a kernel argument";
  arg = blockArg.getArgNumber();
  std::string name = kernel.getParamName(arg);
  if (!kernel.getArgAttr(arg, mlir::tile::kAlignedArgAttr))
    return "the array '" + name + "' is not known to be 16-byte aligned (an aligned argument: --arg " + name +
           "=DTYPE:RANK:aligned; the JIT passes arrays that are so)";
  if (order)
    for (auto [i, d] : llvm::enumerate(*order))
      if (int64_t(i) != d)
        return "its dimensions are not in memory order (order=)";
  int64_t rank = shape.size();
  if (rank > kMaxTmaRank)
    return "rank " + std::to_string(rank) + " is over TMA's " + std::to_string(kMaxTmaRank);
  // The H200's driver (CUDA 13.0) refused a rank-1 descriptor (cuTensorMapEncodeTiled:
  // CUDA_ERROR_INVALID_VALUE); such vectors are small anyway.
  if (rank == 1)
    return "a rank-1 array (the driver refuses rank-1 descriptors)";
  return "";
}

std::string tmaBoxRefusal(ArrayRef<int64_t> box, int64_t elementBytes) {
  if (box.back() * elementBytes % 16)
    return "its rows are " + std::to_string(box.back() * elementBytes) + " bytes, not a multiple of 16";
  for (int64_t d : box)
    if (d > kMaxTmaBoxDim)
      return "a box dimension of " + std::to_string(d) + " is over TMA's " + std::to_string(kMaxTmaBoxDim);
  return "";
}

bool tmaFillsNan(mlir::Type element) { return mlir::isa<mlir::FloatType>(element) && !isFloat8(element); }

} // namespace tile::codegen
