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

#endif // TILE_ENUMS_TD
