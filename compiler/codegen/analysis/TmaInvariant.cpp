// The invariant of tile-place-tma's descriptors (Invariants.h): each TMA load's descriptor is
// the copy the code reading the load's stage assumes, derived here from the stage layout the
// reads use (StageLayout.h) and the load's padding, not from the placement's own reasoning.

#include "compiler/codegen/analysis/Invariants.h"
#include "compiler/codegen/analysis/Pipelining.h"
#include "compiler/codegen/analysis/StageLayout.h"
#include "compiler/codegen/analysis/TmaAccess.h"
#include "dialect/TileDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tile::codegen {

namespace {

/// A copy as the code that reads its stage needs it: the box of one bulk copy, the swizzle
/// span, and whether out-of-bounds elements must read as NaN.
struct CopyAsRead {
  SmallVector<int64_t> box;
  int64_t swizzle = 0;
  bool nanFill = false;
};

CopyAsRead copyAsRead(mlir::tile::LoadOp load) {
  auto type = load.getType();
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  CopyAsRead copy;
  copy.box.assign(type.getShape().begin(), type.getShape().end());
  // A Tensor Core operand's stage is read in swizzled column blocks of S bytes (one copy per
  // block, S wide); any other stage row-major, one copy of the whole tile.
  if (load->hasAttr(kPipelineCoreMatricesAttr))
    copy.swizzle = stageSwizzleBytes(type.getShape().back() * elementBytes);
  if (copy.swizzle)
    copy.box.back() = copy.swizzle / elementBytes;
  // NaN padding of floats is TMA's NaN fill; every other padding reads zeros from the copy, and
  // the threads reading the stage put the padding in.
  copy.nanFill = load.getPadding() == mlir::tile::PaddingMode::nan && tmaFillsNan(type.getElementType());
  return copy;
}

void describe(llvm::raw_ostream &os, ArrayRef<int64_t> box, int64_t swizzle, bool nanFill) {
  os << "box [";
  llvm::interleaveComma(box, os);
  os << "], swizzle " << swizzle << ", " << (nanFill ? "NaN" : "zero") << " fill";
}

} // namespace

LogicalResult verifyTmaDescriptors(Operation *scope) {
  WalkResult result = scope->walk([&](mlir::tile::LoadOp load) -> WalkResult {
    auto index = load->getAttrOfType<IntegerAttr>(kTmaAttr);
    if (!index)
      return WalkResult::advance();
    auto kernel = load->getParentOfType<mlir::tile::KernelOp>();
    auto maps = kernel ? kernel->getAttrOfType<ArrayAttr>(kTmaMapsAttr) : ArrayAttr();
    if (!maps || index.getInt() < 0 || index.getInt() >= int64_t(maps.size()))
      return load.emitError("internal error: ") << kTmaAttr << " names no descriptor of the kernel's " << kTmaMapsAttr;
    auto map = dyn_cast<DictionaryAttr>(maps[index.getInt()]);
    auto box = map ? map.getAs<DenseI64ArrayAttr>("box") : DenseI64ArrayAttr();
    auto swizzle = map ? map.getAs<IntegerAttr>("swizzle") : IntegerAttr();
    auto nanFill = map ? map.getAs<BoolAttr>("nan_fill") : BoolAttr();
    if (!box || !swizzle || !nanFill)
      return load.emitError("internal error: TMA descriptor ") << index.getInt() << " lacks box, swizzle or nan_fill";
    CopyAsRead expected = copyAsRead(load);
    if (box.asArrayRef() == ArrayRef<int64_t>(expected.box) && swizzle.getInt() == expected.swizzle &&
        nanFill.getValue() == expected.nanFill)
      return WalkResult::advance();
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "internal error: TMA descriptor " << index.getInt() << " (";
    describe(os, box.asArrayRef(), swizzle.getInt(), nanFill.getValue());
    os << ") is not the copy the code reading this load's stage assumes (";
    describe(os, expected.box, expected.swizzle, expected.nanFill);
    os << ")";
    return load.emitError(text);
  });
  return failure(result.wasInterrupted());
}

} // namespace tile::codegen
