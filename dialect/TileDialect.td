//===- TileDialect.td - the tile dialect ---------------------*- tablegen -*-===//
//
// The hardware-agnostic tile dialect: kernels over whole tiles. Tiles are builtin
// statically shaped tensors with power-of-two dimensions; elementwise math uses
// arith/math on tensors and loops use scf, so upstream folding works unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Tile-based GPU kernels (cuTile-style)";
  let description = [{
    Kernels written as operations on whole tiles: loads and stores addressed in
    tile space, Tensor Core matrix products, reductions, scans and shape
    manipulation. The compiler distributes tiles over threads later.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TD
