//===- TileOps.td - tile dialect operations ------------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "dialect/TileDialect.td"
include "dialect/TileTypes.td"
include "dialect/TileEnums.td"
include "dialect/TileAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Kernel entry
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, AutomaticAllocationScope,
    SingleBlockImplicitTerminator<"ReturnOp">]> {
  let summary = "a kernel entry point, run once per block of the grid";
  let description = [{
    The body runs once for every block of a 1-3-D grid. Arguments are arrays
    (`!tile.array`) or scalars (integers, floats); a kernel returns nothing.
    Kernel options recorded as attributes: `occupancy` (blocks per SM the
    compiler should aim for, 1-32), `num_ctas` (cluster size, a power of two
    up to 16), `num_threads` (threads per block, a power of two from 32 to
    1024: given by the kernel option, or chosen by `tile-choose-threads`),
    `warp_specialize` (true: a producer warpgroup issues a pipelined loop's copies where the
    loop admits it; false: never; absent: `tile-warp-specialize` decides) and `constants`
    (the specialization constants, for the record).

    ```mlir
    tile.kernel @scale(%x: !tile.array<?xf32>, %s: f32) attributes {occupancy = 2 : i32} {
      ...
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<I32Attr>:$occupancy,
                       OptionalAttr<I32Attr>:$num_ctas,
                       OptionalAttr<I32Attr>:$num_threads,
                       OptionalAttr<BoolAttr>:$warp_specialize,
                       OptionalAttr<DictionaryAttr>:$constants);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type)>];
  let skipDefaultBuilders = 1;
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// The source name of parameter `index`: the front end's NameLoc on the block argument,
    /// else a `tile.name` argument attribute, else "argN".
    std::string getParamName(unsigned index);
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, HasParent<"KernelOp">, Terminator, ReturnLike]> {
  let summary = "ends a kernel";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

class Tile_GridQueryOp<string mnemonic> : Tile_Op<mnemonic, [Pure]> {
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_BlockIdOp : Tile_GridQueryOp<"bid"> {
  let summary = "the block's coordinate along a grid axis (0, 1 or 2)";
}

def Tile_NumBlocksOp : Tile_GridQueryOp<"num_blocks"> {
  let summary = "the number of blocks along a grid axis (0, 1 or 2)";
}

def Tile_DimOp : Tile_Op<"dim", [Pure]> {
  let summary = "the run-time extent of an array dimension";
  let arguments = (ins Tile_ArrayType:$array, I32Attr:$axis);
  let results = (outs I64:$result);
  let assemblyFormat = "$array `,` $axis attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_StrideOp : Tile_Op<"stride", [Pure]> {
  let summary = "the run-time stride (in elements) of an array dimension";
  let arguments = (ins Tile_ArrayType:$array, I32Attr:$axis);
  let results = (outs I64:$result);
  let assemblyFormat = "$array `,` $axis attr-dict `:` qualified(type($array))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_LoadOp : Tile_Op<"load", [Tile_PowerOfTwoShapes,
                                   MemoryEffects<[MemRead]>]> {
  let summary = "load a tile from an array, indexed in tile space";
  let description = [{
    Loads the tile whose position, counted in tiles of the result's shape, is
    given by `indices` (one per array dimension). Elements outside the array
    take the `padding` value (`undetermined` leaves them unspecified).

    With `order`, result dimension `d` runs along array dimension `order[d]`
    (e.g. `order = [1, 0]` loads a transposed view); `indices[d]` then counts
    tiles along array dimension `order[d]`.

    Hints: `latency` (1 low ... 10 high expected memory latency) drives the
    pipelining depth, `allow_tma` permits or forbids the TMA path.

    ```mlir
    %t = tile.load %x[%i, %j] padding = zero : !tile.array<?x?xf32>[i32, i32] -> tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_ArrayType:$array, Variadic<Tile_IndexScalar>:$indices,
                       DefaultValuedAttr<Tile_PaddingModeAttr, "::mlir::tile::PaddingMode::undetermined">:$padding,
                       OptionalAttr<DenseI32ArrayAttr>:$order,
                       OptionalAttr<I32Attr>:$latency,
                       OptionalAttr<BoolAttr>:$allow_tma);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` (`padding` `=` $padding^)? (`order` `=` $order^)? attr-dict
    `:` qualified(type($array)) `[` type($indices) `]` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [Tile_PowerOfTwoShapes,
                                     MemoryEffects<[MemWrite]>]> {
  let summary = "store a tile into an array, indexed in tile space";
  let description = [{
    The inverse of `tile.load`: elements that fall outside the array are not
    written. `order`, `latency` and `allow_tma` mean what they mean on loads.
  }];
  let arguments = (ins Tile_Tile:$value, Tile_ArrayType:$array,
                       Variadic<Tile_IndexScalar>:$indices,
                       OptionalAttr<DenseI32ArrayAttr>:$order,
                       OptionalAttr<I32Attr>:$latency,
                       OptionalAttr<BoolAttr>:$allow_tma);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` (`order` `=` $order^)? attr-dict
    `:` type($value) `,` qualified(type($array)) `[` type($indices) `]`
  }];
  let hasVerifier = 1;
}

def Tile_GatherOp : Tile_Op<"gather", [Tile_PowerOfTwoShapes,
                                       MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "load elements at per-element indices";
  let description = [{
    `indices` holds one integer tile per array dimension, each of the result's
    shape. Elements whose mask is false or whose index is out of bounds take
    `padding` (zero when absent).
  }];
  let arguments = (ins Tile_ArrayType:$array, Variadic<Tile_IntTile>:$indices,
                       Optional<Tile_BoolTile>:$mask, Optional<AnyType>:$padding);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $array `[` $indices `]` (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`padding` `(` $padding^ `:` type($padding) `)`)? attr-dict
    `:` qualified(type($array)) `[` type($indices) `]` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScatterOp : Tile_Op<"scatter", [Tile_PowerOfTwoShapes,
                                         MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "store elements at per-element indices";
  let description = [{
    Writes `value[k]` to `array[indices[0][k], ...]` where the mask is true and
    the index is in bounds; other elements are skipped.
  }];
  let arguments = (ins Tile_Tile:$value, Tile_ArrayType:$array,
                       Variadic<Tile_IntTile>:$indices, Optional<Tile_BoolTile>:$mask);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` (`mask` `(` $mask^ `:` type($mask) `)`)? attr-dict
    `:` type($value) `,` qualified(type($array)) `[` type($indices) `]`
  }];
  let hasVerifier = 1;
}

def Tile_AtomicAddOp : Tile_Op<"atomic_add", [Tile_PowerOfTwoShapes,
                                              MemoryEffects<[MemRead, MemWrite]>,
                                              AttrSizedOperandSegments,
                                              AllTypesMatch<["value", "result"]>]> {
  let summary = "atomically add elements at per-element indices; returns the old values";
  let description = [{
    Like `tile.scatter`, but adds atomically and returns the previous contents
    (the padding value zero where masked off or out of bounds).
  }];
  let arguments = (ins Tile_Tile:$value, Tile_ArrayType:$array,
                       Variadic<Tile_IntTile>:$indices, Optional<Tile_BoolTile>:$mask);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $value `,` $array `[` $indices `]` (`mask` `(` $mask^ `:` type($mask) `)`)? attr-dict
    `:` type($value) `,` qualified(type($array)) `[` type($indices) `]`
  }];
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [Tile_PowerOfTwoShapes,
                                              MemoryEffects<[MemRead, MemWrite]>,
                                              AttrSizedOperandSegments,
                                              AllTypesMatch<["value", "result"]>]> {
  let summary = "atomic read-modify-write at per-element indices; returns the old values";
  let description = [{
    Like `tile.atomic_add` with the operation `kind` (`xchg`, `add`, `max`, `min`, `and`,
    `or`, `xor`), a `memory_order` (`relaxed`, `acquire`, `release`, `acq_rel`) and a
    `memory_scope` (`block`, `device`, `sys`). Masked-off or out-of-bounds elements are not
    accessed and return zero.
  }];
  let arguments = (ins Tile_Tile:$value, Tile_ArrayType:$array,
                       Variadic<Tile_IntTile>:$indices, Optional<Tile_BoolTile>:$mask,
                       StrAttr:$kind, StrAttr:$memory_order, StrAttr:$memory_scope);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $kind $value `,` $array `[` $indices `]` (`mask` `(` $mask^ `:` type($mask) `)`)? attr-dict
    `:` type($value) `,` qualified(type($array)) `[` type($indices) `]`
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [Tile_PowerOfTwoShapes,
                                              MemoryEffects<[MemRead, MemWrite]>,
                                              AttrSizedOperandSegments,
                                              AllTypesMatch<["expected", "desired", "result"]>]> {
  let summary = "atomic compare-and-swap at per-element indices; returns the old values";
  let description = [{
    For each element: if the array element equals `expected`, it becomes `desired`; the
    old value is returned either way (zero where masked off or out of bounds).
  }];
  let arguments = (ins Tile_Tile:$expected, Tile_Tile:$desired, Tile_ArrayType:$array,
                       Variadic<Tile_IntTile>:$indices, Optional<Tile_BoolTile>:$mask,
                       StrAttr:$memory_order, StrAttr:$memory_scope);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $expected `,` $desired `,` $array `[` $indices `]` (`mask` `(` $mask^ `:` type($mask) `)`)? attr-dict
    `:` type($expected) `,` qualified(type($array)) `[` type($indices) `]`
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix product
//===----------------------------------------------------------------------===//

def Tile_MmaOp : Tile_Op<"mma", [Pure, Tile_PowerOfTwoShapes,
                                 AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate: result = a * b + acc";
  let description = [{
    2-D (`a`: MxK, `b`: KxN, `acc`: MxN) or batched 3-D (BxMxK, BxKxN, BxMxN).
    `a` and `b` share an element type; supported combinations are
    f16/bf16/tf32/f8 -> f32, f16 -> f16, f32 -> f32, f64 -> f64, i8 -> i32.
  }];
  let arguments = (ins Tile_Tile:$a, Tile_Tile:$b, Tile_Tile:$acc);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "reduce a tile along one axis";
  let description = [{
    `sum`, `prod`, `max`, `min` keep the element type; `argmax`/`argmin` return
    i32 positions (the first occurrence on ties). Without `keepdims` the axis is
    removed (a 1-D input gives a 0-D tile); with it, the axis becomes 1.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_Tile:$input, I32Attr:$axis,
                       UnitAttr:$keepdims);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $kind $input `axis` `=` $axis (`keepdims` $keepdims^)? attr-dict
    `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, Tile_PowerOfTwoShapes,
                                   AllTypesMatch<["input", "result"]>]> {
  let summary = "inclusive prefix sum or product along one axis";
  let arguments = (ins Tile_ScanKindAttr:$kind, Tile_Tile:$input, I32Attr:$axis,
                       UnitAttr:$reverse);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $kind $input `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Creation and shape manipulation
//===----------------------------------------------------------------------===//

def Tile_IotaOp : Tile_Op<"iota", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "the 1-D tile [0, 1, ..., n-1]";
  let results = (outs Tile_IntTile:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "broadcast a scalar, or a tile's size-1 dimensions, to a shape";
  let description = [{
    The input is a scalar (splat) or a tile of the result's rank whose every
    dimension equals the result's or is 1.
  }];
  let arguments = (ins AnyType:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "insert a dimension of size 1 at `axis`";
  let arguments = (ins Tile_Tile:$input, I32Attr:$axis);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure]> {
  let summary = "move a tile's elements to another distributed layout";
  let description = [{
    The same tile (shape and element type) with another layout encoding: code generation
    moves the elements between threads (through shared memory). Layout passes insert these
    where producers and consumers disagree and remove the ones they can make unnecessary.

    ```mlir
    %m = tile.convert_layout %acc : tensor<64x64xf32> -> tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    ```
  }];
  let arguments = (ins Tile_Tile:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "reinterpret a tile's elements (row-major order) with another shape";
  let arguments = (ins Tile_Tile:$input);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_PermuteOp : Tile_Op<"permute", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "permute a tile's dimensions: result dim d is input dim permutation[d]";
  let arguments = (ins Tile_Tile:$input, DenseI32ArrayAttr:$permutation);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input $permutation attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_CatOp : Tile_Op<"cat", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "concatenate two tiles along an axis";
  let arguments = (ins Tile_Tile:$lhs, Tile_Tile:$rhs, I32Attr:$axis);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `axis` `=` $axis attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ExtractOp : Tile_Op<"extract", [Pure, Tile_PowerOfTwoShapes]> {
  let summary = "extract a sub-tile; `indices` count in sub-tiles of the result's shape";
  let arguments = (ins Tile_Tile:$input, DenseI64ArrayAttr:$indices);
  let results = (outs Tile_Tile:$result);
  let assemblyFormat = "$input $indices attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_PrintOp : Tile_Op<"print", [Tile_PowerOfTwoShapes]> {
  let summary = "printf-style debug printing from the device";
  let description = [{
    `format` is a C printf format with one conversion per argument; a tile
    argument prints every element with that conversion. Printing happens once
    per block, not once per thread.
  }];
  let arguments = (ins StrAttr:$format, Variadic<AnyType>:$args);
  let assemblyFormat = "$format (`,` $args^ `:` type($args))? attr-dict";
  let hasVerifier = 1;
}

def Tile_AssertOp : Tile_Op<"assert", [Tile_PowerOfTwoShapes]> {
  let summary = "abort the kernel with a message when any element of the condition is false";
  let arguments = (ins AnyTypeOf<[I1, Tile_BoolTile]>:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_GridDependencyControlOp : Tile_Op<"grid_dependency_control"> {
  let summary = "programmatic dependent launch: wait for the preceding kernel, or let the next start";
  let description = [{
    cuTile's `grid_dependency_control_wait()` and `..._launch_dependents()`. `wait` blocks
    until the kernels this one was launched after (with programmatic dependent launch) have
    finished and their memory is visible; `launch_dependents` lets the kernel launched after
    this one start once every block of this kernel has issued it or finished. Both are no-ops
    when the kernel was launched without programmatic dependent launch, and on targets before
    sm_90, which have none. A kernel that waits is launched with it (the metadata's
    `programmatic_dependent_launch`); the op has effects, so nothing moves across it.

    ```mlir
    tile.grid_dependency_control wait
    ```
  }];
  let arguments = (ins Tile_GridDependencyActionAttr:$action);
  let assemblyFormat = "$action attr-dict";
}

#endif // TILE_OPS_TD
