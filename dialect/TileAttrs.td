//===- TileAttrs.td - tile dialect attributes -----------------*- tablegen -*-===//
//
// Distributed layouts: how a tile's elements map to the registers, lanes and warps of a block.
// A tile type without an encoding has the canonical (blocked) layout; code generation's layout
// passes put other layouts on tensor types as encodings and connect them with
// `tile.convert_layout`.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "dialect/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_MmaLayoutAttr : AttrDef<Tile_Dialect, "MmaLayout"> {
  let mnemonic = "mma";
  let summary = "the accumulator layout of mma.sync.m16n8k16";
  let description = [{
    A 2-D (MxN) or batched 3-D (BxMxN) tile split into 16x8 tiles, each held by one warp as
    mma.sync's C/D fragment: lane l holds rows l/4 and l/4+8, columns 2*(l%4) and 2*(l%4)+1.
    The block's warps form a `warpsB x warpsM x warpsN` grid (warp w sits at
    m = w % warpsM, n = (w / warpsM) % warpsN, b = w / (warpsM * warpsN)); a warp owns a
    contiguous strip of N/8/warpsN tiles along N and every warpsM-th (warpsB-th) tile along M
    (B). Register r of a thread is fragment element r % 4 of n-tile (r / 4) % (N/8/warpsN) of
    its (r / 4 / (N/8/warpsN))-th (batch, m-tile) pair, m fastest.

    ```mlir
    tensor<64x64xf32, #tile.mma<warpsB = 1, warpsM = 4, warpsN = 1>>
    ```
  }];
  let parameters = (ins "int64_t":$warpsB, "int64_t":$warpsM, "int64_t":$warpsN);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    int64_t getNumWarps() const { return getWarpsB() * getWarpsM() * getWarpsN(); }
  }];
}

#endif // TILE_ATTRS_TD
