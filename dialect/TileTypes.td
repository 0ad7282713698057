//===- TileTypes.td - tile dialect types and constraints -----*- tablegen -*-===//

#ifndef TILE_TYPES_TD
#define TILE_TYPES_TD

include "dialect/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

def Tile_ArrayType : TypeDef<Tile_Dialect, "Array"> {
  let mnemonic = "array";
  let summary = "an array in global memory: element type, rank, optional static dims";
  let description = [{
    A kernel argument living in global memory. Its element type and rank are
    fixed at compile time; each dimension is either static or `?` (known at
    run time). At the kernel ABI an array is passed as
    `(pointer, shape[rank] : i64, strides[rank] : i64)`, strides in elements.

    ```mlir
    !tile.array<?x?xbf16>     // rank 2, both dims dynamic
    !tile.array<?x64xf32>     // rank 2, the last dim statically 64
    !tile.array<f32>          // rank 0: a single element
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    bool isDynamicDim(unsigned i) const {
      return ::mlir::ShapedType::isDynamic(getShape()[i]);
    }
    /// An array type of the given rank with every dimension dynamic.
    static ArrayType getDynamic(::mlir::Type elementType, int64_t rank);
  }];
}

// Element types a tile or array may hold. Unsigned integers (ui8-ui64) type arrays; tiles hold
// them while the front end builds a kernel and are signless afterwards (the operations that
// depend on signedness carry it themselves, as arith's do).
def Tile_ElementType : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger, Index, F16, BF16, F32, F64, TF32,
                                  F8E4M3FN, F8E5M2], "tile element type">;

// A tile: a statically shaped ranked tensor. Power-of-two dimensions are checked
// by the TilePowerOfTwoShapes trait so the message can name the dimension.
def Tile_Tile : Type<And<[AnyRankedTensor.predicate, HasStaticShapePred]>,
                     "tile (statically shaped tensor)", "::mlir::RankedTensorType">;
def Tile_IntTile : Type<And<[Tile_Tile.predicate,
                             SubstLeaves<"$_self", "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                                         AnySignlessInteger.predicate>]>,
                        "tile of integers", "::mlir::RankedTensorType">;
def Tile_BoolTile : Type<And<[Tile_Tile.predicate,
                              SubstLeaves<"$_self", "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                                          I1.predicate>]>,
                         "tile of i1", "::mlir::RankedTensorType">;

// A scalar usable as a tile-space index.
def Tile_IndexScalar : AnyTypeOf<[I32, I64, Index], "tile index (i32, i64 or index)">;

// Verifies that every tile operand and result has power-of-two dimensions and a
// supported element type.
def Tile_PowerOfTwoShapes : NativeOpTrait<"TilePowerOfTwoShapes"> {
  let cppNamespace = "::mlir::tile";
}

#endif // TILE_TYPES_TD
