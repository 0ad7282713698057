//===- TileGpu.td - the GPU-level tile dialect ----------------*- tablegen -*-===//
//
// What the hardware-agnostic tile dialect leaves implicit, as IR values: shared-memory buffers
// with their layout (NVMMA swizzle, transposed, padded rows, pipeline stages), mbarriers, and
// the asynchronous Tensor Core product of sm_90a (wgmma) with its wait. Code generation's
// passes decide shapes and encodings; the tile dialect never sees these types.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_GPU_TD
#define TILE_GPU_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileGpu_Dialect : Dialect {
  let name = "tgpu";
  let cppNamespace = "::mlir::tgpu";
  let summary = "Shared memory, barriers and asynchronous Tensor Core work as IR values";
  let description = [{
    The GPU level of the tile compiler: a `!tgpu.shared` buffer is a tile-shaped region of a
    block's shared memory with an encoding (how elements are laid out: the swizzled core
    matrices wgmma and TMA read, or padded rows), optionally repeated as pipeline stages;
    `!tgpu.mbarrier` is a shared-memory barrier that asynchronous copies complete.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Encodings
//===----------------------------------------------------------------------===//

def TileGpu_NvmmaEncodingAttr : AttrDef<TileGpu_Dialect, "NvmmaEncoding"> {
  let mnemonic = "nvmma";
  let summary = "the swizzled core-matrix layout wgmma and TMA use";
  let description = [{
    Rows of the buffer's last dimension in blocks of `swizzle` bytes (32, 64 or 128; 0: no
    swizzle, interleaved 8x16-byte core matrices), 16-byte chunks XOR-permuted by the row
    within each 8-row group, so that the 8 rows of a core matrix fall in distinct banks.
    Dimensions before the last two are a batch of tiles stacked along the rows.
    `transposed = true` marks a view with the last two dimensions swapped against memory
    (`tgpu.transpose`): the view's second-to-last dimension is the contiguous one. A product
    reads an operand with K contiguous as K-major, the other orientation with its transpose
    bit (MN-major, 16-bit elements only): A (M x K) is K-major unless transposed, B (K x N)
    only when transposed.

    ```mlir
    !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
    ```
  }];
  let parameters = (ins "int64_t":$swizzle, "bool":$transposed);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def TileGpu_PaddedEncodingAttr : AttrDef<TileGpu_Dialect, "PaddedEncoding"> {
  let mnemonic = "padded";
  let summary = "rows of the last dimension `pitch` elements apart";
  let description = [{
    Row-major with `pitch` elements (at least the row's length) from one row's start to the
    next: the padding spreads a column's elements over the banks.

    ```mlir
    !tgpu.shared<64x64xf32, #tgpu.padded<pitch = 68>>
    ```
  }];
  let parameters = (ins "int64_t":$pitch);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def TileGpu_SharedType : TypeDef<TileGpu_Dialect, "Shared"> {
  let mnemonic = "shared";
  let summary = "a tile-shaped buffer in a block's shared memory";
  let description = [{
    A statically shaped region of shared memory holding one tile (`stages = 0`) or `stages`
    copies of it (a pipelined loop's stages; `tgpu.stage` views one), laid out by `encoding`
    (`#tgpu.nvmma`, `#tgpu.padded`, or none: row-major).

    ```mlir
    !tgpu.shared<64x64xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>>
    !tgpu.shared<64x128xbf16, #tgpu.nvmma<swizzle = 128, transposed = false>, stages = 3>
    !tgpu.shared<128xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding, "int64_t":$stages);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// Elements of one stage (of the whole buffer when it has none).
    int64_t getNumElements() const;
    /// Bytes an element takes in memory (tf32 is stored in 4).
    int64_t getElementBytes() const;
    /// Bytes the whole buffer takes: every stage, padded rows at their pitch.
    int64_t getSizeInBytes() const;
    /// The tile type one stage holds.
    ::mlir::RankedTensorType getTileType() const;
    /// Where the buffer must start: the swizzle's period (8 rows of it: 1024 bytes for the
    /// 128-byte swizzle), else 16 bytes.
    int64_t getAlignment() const;
    /// The NVMMA encoding, if that is the buffer's.
    NvmmaEncodingAttr getNvmma() const { return ::llvm::dyn_cast_or_null<NvmmaEncodingAttr>(getEncoding()); }
  }];
}

def TileGpu_MbarrierType : TypeDef<TileGpu_Dialect, "Mbarrier"> {
  let mnemonic = "mbarrier";
  let summary = "a barrier in shared memory that threads and asynchronous copies complete";
}

// A tile: a statically shaped ranked tensor, as in the tile dialect.
def TileGpu_Tile : Type<And<[AnyRankedTensor.predicate, HasStaticShapePred]>,
                        "tile (statically shaped tensor)", "::mlir::RankedTensorType">;

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

class TileGpu_Op<string mnemonic, list<Trait> traits = []> : Op<TileGpu_Dialect, mnemonic, traits>;

def TileGpu_AllocSharedOp : TileGpu_Op<"alloc_shared", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a shared-memory buffer, live from here to its last use";
  let description = [{
    The buffer's place in shared memory is the allocator's choice (buffers whose uses do not
    overlap may share bytes); `tgpu.alloc_shared` only says what it holds.
  }];
  let results = (outs TileGpu_SharedType:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
}

def TileGpu_StoreSharedOp : TileGpu_Op<"store_shared", [MemoryEffects<[MemWrite]>]> {
  let summary = "write a tile into a buffer (one stage of it with `stage`)";
  let arguments = (ins TileGpu_Tile:$value, TileGpu_SharedType:$buffer, Optional<I32>:$stage);
  let assemblyFormat = "$value `,` $buffer (`[` $stage^ `]`)? attr-dict `:` type($value) `,` type($buffer)";
  let hasVerifier = 1;
}

def TileGpu_LoadSharedOp : TileGpu_Op<"load_shared", [MemoryEffects<[MemRead]>]> {
  let summary = "read a tile from a buffer (one stage of it with `stage`)";
  let arguments = (ins TileGpu_SharedType:$buffer, Optional<I32>:$stage);
  let results = (outs TileGpu_Tile:$value);
  let assemblyFormat = "$buffer (`[` $stage^ `]`)? attr-dict `:` type($buffer) `->` type($value)";
  let hasVerifier = 1;
}

def TileGpu_StageOp : TileGpu_Op<"stage", [Pure]> {
  let summary = "one stage of a staged buffer, as a buffer";
  let arguments = (ins TileGpu_SharedType:$buffer, I32:$index);
  let results = (outs TileGpu_SharedType:$result);
  let assemblyFormat = "$buffer `[` $index `]` attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def TileGpu_TransposeOp : TileGpu_Op<"transpose", [Pure]> {
  let summary = "a 2-D buffer viewed transposed (the same bytes)";
  let description = [{
    The view a Tensor Core product reads with its transpose bit: the shape swapped and the
    NVMMA encoding's `transposed` flag flipped. wgmma transposes 16-bit elements only, so the
    view of a buffer of 32-bit elements is refused.
  }];
  let arguments = (ins TileGpu_SharedType:$buffer);
  let results = (outs TileGpu_SharedType:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def TileGpu_AllocMbarrierOp : TileGpu_Op<"alloc_mbarrier", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "an mbarrier expecting `count` arrivals per phase";
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let results = (outs TileGpu_MbarrierType:$barrier);
  let assemblyFormat = "`count` `=` $count attr-dict `:` type($barrier)";
}

def TileGpu_ArriveOp : TileGpu_Op<"arrive", [MemoryEffects<[MemWrite]>]> {
  let summary = "arrive on an mbarrier, expecting `tx_bytes` more bytes of asynchronous copies";
  let arguments = (ins TileGpu_MbarrierType:$barrier,
                       ConfinedAttr<DefaultValuedAttr<I64Attr, "0">, [IntNonNegative]>:$tx_bytes);
  let assemblyFormat = "$barrier attr-dict `:` type($barrier)";
}

def TileGpu_WaitOp : TileGpu_Op<"wait", [MemoryEffects<[MemRead]>]> {
  let summary = "wait until an mbarrier completes the phase with parity `phase`";
  let arguments = (ins TileGpu_MbarrierType:$barrier, I1:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` type($barrier)";
}

def TileGpu_FenceAsyncSharedOp : TileGpu_Op<"fence_async_shared", [MemoryEffects<[MemWrite]>]> {
  let summary = "order this thread's shared-memory writes before the async proxy's reads";
  let description = [{
    `fence.proxy.async.shared::cta`: wgmma and TMA read shared memory through the async proxy,
    so a buffer written with ordinary stores needs this fence before they read it.
  }];
  let assemblyFormat = "attr-dict";
}

def TileGpu_WgmmaOp : TileGpu_Op<"wgmma", [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "start an asynchronous warpgroup product D = A.B + acc (sm_90a)";
  let description = [{
    A is a tile in registers or a buffer, B a buffer; the result is the accumulator that a
    later `tgpu.wgmma_wait` completes (reading it before is undefined). A is M x K, B K x N,
    the accumulator M x N: M a multiple of 64, N a multiple of 8 up to 256, K a multiple of
    the instruction's (16 for bf16/f16). A and B hold the same element type (bf16 or f16);
    the accumulator is f32 or f16. A transposed view (`#tgpu.nvmma<transposed = true>`) of A
    or B is read with the transpose bit.

    ```mlir
    %d = tgpu.wgmma %a, %b, %acc : !tgpu.shared<64x64xbf16, ...>, !tgpu.shared<64x128xbf16, ...>, tensor<64x128xf32>
    %r = tgpu.wgmma_wait %d {pending = 0} : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TileGpu_Tile, TileGpu_SharedType]>:$a, TileGpu_SharedType:$b, TileGpu_Tile:$acc);
  let results = (outs TileGpu_Tile:$result);
  let assemblyFormat = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)";
  let hasVerifier = 1;
}

def TileGpu_WgmmaWaitOp : TileGpu_Op<"wgmma_wait", [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait until at most `pending` wgmma groups are in flight; the accumulator is then complete";
  let arguments = (ins TileGpu_Tile:$acc, ConfinedAttr<I64Attr, [IntNonNegative]>:$pending);
  let results = (outs TileGpu_Tile:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

#endif // TILE_GPU_TD
