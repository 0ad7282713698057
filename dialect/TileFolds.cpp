//===- TileFolds.cpp - tile dialect folders -------------------------------===//
//
// The obvious folds: identities, chains of shape ops, splat constants pushed
// through shape ops, and static array dimensions.
//
//===----------------------------------------------------------------------===//

#include "dialect/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tile;

// A splat constant (a scalar attribute or a splat dense attribute) re-shaped to
// `type`; null otherwise.
static Attribute resplat(Attribute value, RankedTensorType type) {
  if (auto dense = dyn_cast_or_null<SplatElementsAttr>(value))
    return SplatElementsAttr::get(type, dense.getSplatValue<Attribute>());
  if (isa_and_nonnull<IntegerAttr, FloatAttr>(value))
    return SplatElementsAttr::get(type, value);
  return {};
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  ArrayType array = getArray().getType();
  if (getAxis() < 0 || getAxis() >= array.getRank() || array.isDynamicDim(getAxis()))
    return {};
  return IntegerAttr::get(getType(), array.getShape()[getAxis()]);
}

OpFoldResult ReduceOp::fold(FoldAdaptor) {
  // Reducing a size-1 axis while keeping it changes nothing (except for arg*,
  // which produce positions).
  auto in = getInput().getType();
  if (getKeepdims() && in == getType() && getKind() != ReduceKind::argmax && getKind() != ReduceKind::argmin)
    return getInput();
  return {};
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (Attribute splat = resplat(adaptor.getInput(), getType()))
    return splat;
  if (auto inner = getInput().getDefiningOp<BroadcastOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) { return resplat(adaptor.getInput(), getType()); }

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  if (auto inner = getInput().getDefiningOp<ConvertLayoutOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult PermuteOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> perm = getPermutation();
  bool identity = llvm::all_of(
      llvm::enumerate(perm), [](auto p) { return static_cast<int64_t>(p.value()) == static_cast<int64_t>(p.index()); });
  if (identity)
    return getInput();
  if (Attribute splat = resplat(adaptor.getInput(), getType()))
    return splat;
  // permute(permute(x, inner), outer): result dim d is x's dim inner[outer[d]].
  if (auto inner = getInput().getDefiningOp<PermuteOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t p : perm)
      composed.push_back(inner.getPermutation()[p]);
    getInputMutable().assign(inner.getInput());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

OpFoldResult ExtractOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return resplat(adaptor.getInput(), getType());
}
