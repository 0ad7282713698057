//===- TileAttrs.cpp - tile dialect attributes ----------------------------===//

#include "dialect/TileDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_ATTRDEF_CLASSES
#include "dialect/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/TileAttrs.cpp.inc"
      >();
}

// The decision attributes (TileAttrs.td) sit on the op they decide for, with their own type:
// IR written by hand with a string (`tile.mma_instruction = "wgmma"`) gets a located error here
// rather than being read as no decision. Other tile.* attributes are not checked here.
LogicalResult TileDialect::verifyOperationAttribute(Operation *op, NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  auto expect = [&](bool typed, StringRef what) -> LogicalResult {
    if (!isa<MmaOp>(op))
      return op->emitError() << "'" << name << "' belongs on tile.mma";
    if (!typed)
      return op->emitError() << "'" << name << "' must be " << what << ", got " << attribute.getValue();
    return success();
  };
  if (name == "tile.mma_instruction")
    return expect(isa<MmaInstructionAttr>(attribute.getValue()), "#tile.mma_instruction<wgmma|mma.sync|fma>");
  if (name == "tile.operand_a")
    return expect(isa<OperandSourceAttr>(attribute.getValue()), "#tile.operand<registers|shared>");
  return success();
}
