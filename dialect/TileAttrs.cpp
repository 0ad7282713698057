//===- TileAttrs.cpp - tile dialect attributes ----------------------------===//

#include "dialect/TileDialect.h"
#include "runtime/GpuArch.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_ATTRDEF_CLASSES
#include "dialect/TileAttrs.cpp.inc"

std::string TargetAttr::getName() const {
  return ::tile::rt::GpuArch{getMajor(), getMinor(), getArchSpecific()}.name();
}

TargetAttr TargetAttr::parseName(MLIRContext *context, StringRef name, std::string &error) {
  std::optional<::tile::rt::GpuArch> arch = ::tile::rt::GpuArch::parse(std::string_view(name.data(), name.size()));
  if (!arch) {
    error = "'" + name.str() + "' is not an architecture like sm_90a or sm_80";
    return nullptr;
  }
  return TargetAttr::get(context, arch->major, arch->minor, arch->archSpecific);
}

// #tile.target<sm_90a>
Attribute TargetAttr::parse(AsmParser &parser, Type) {
  std::string name, error;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeywordOrString(&name))
    return nullptr;
  TargetAttr attr = parseName(parser.getContext(), name, error);
  if (!attr) {
    parser.emitError(at, error);
    return nullptr;
  }
  if (parser.parseGreater())
    return nullptr;
  return attr;
}

void TargetAttr::print(AsmPrinter &printer) const { printer << "<" << getName() << ">"; }

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
  if (name == "tile.target") {
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'tile.target' belongs on the module";
    if (!isa<TargetAttr>(attribute.getValue()))
      return op->emitError() << "'tile.target' must be #tile.target<sm_XX[a]>, got " << attribute.getValue();
    return success();
  }
  if (name == "tile.mma_instruction")
    return expect(isa<MmaInstructionAttr>(attribute.getValue()), "#tile.mma_instruction<wgmma|mma.sync|fma>");
  if (name == "tile.operand_a")
    return expect(isa<OperandSourceAttr>(attribute.getValue()), "#tile.operand<registers|shared>");
  return success();
}
