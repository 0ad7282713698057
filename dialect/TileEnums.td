//===- TileEnums.td - tile dialect enum attributes -----------*- tablegen -*-===//

#ifndef TILE_ENUMS_TD
#define TILE_ENUMS_TD

include "dialect/TileDialect.td"
include "mlir/IR/EnumAttr.td"

def Tile_PaddingModeAttr : I32EnumAttr<"PaddingMode",
    "value given to out-of-bounds elements of a load", [
  I32EnumAttrCase<"undetermined", 0>,
  I32EnumAttrCase<"zero", 1>,
  I32EnumAttrCase<"neg_zero", 2>,
  I32EnumAttrCase<"nan", 3>,
  I32EnumAttrCase<"pos_inf", 4>,
  I32EnumAttrCase<"neg_inf", 5>
]> { let cppNamespace = "::mlir::tile"; }

def Tile_ReduceKindAttr : I32EnumAttr<"ReduceKind", "reduction", [
  I32EnumAttrCase<"sum", 0>,
  I32EnumAttrCase<"prod", 1>,
  I32EnumAttrCase<"max", 2>,
  I32EnumAttrCase<"min", 3>,
  I32EnumAttrCase<"argmax", 4>,
  I32EnumAttrCase<"argmin", 5>
]> { let cppNamespace = "::mlir::tile"; }

def Tile_ScanKindAttr : I32EnumAttr<"ScanKind", "prefix scan", [
  I32EnumAttrCase<"cumsum", 0>,
  I32EnumAttrCase<"cumprod", 1>
]> { let cppNamespace = "::mlir::tile"; }

def Tile_GridDependencyActionAttr : I32EnumAttr<"GridDependencyAction",
    "programmatic dependent launch control", [
  I32EnumAttrCase<"wait", 0>,
  I32EnumAttrCase<"launch_dependents", 1>
]> { let cppNamespace = "::mlir::tile"; }

// Code generation's decisions, recorded on ops as typed attributes (TileAttrs.td) that the
// later passes and the lowering read.
def Tile_MmaInstruction : I32EnumAttr<"MmaInstruction",
    "the instruction that runs a matrix product", [
  I32EnumAttrCase<"wgmma", 0>,
  I32EnumAttrCase<"mma_sync", 1, "mma.sync">,
  I32EnumAttrCase<"fma", 2>
]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_OperandSource : I32EnumAttr<"OperandSource",
    "where a Tensor Core product reads an operand from", [
  I32EnumAttrCase<"registers", 0>,
  I32EnumAttrCase<"shared", 1>
]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

#endif // TILE_ENUMS_TD
