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
include "dialect/TileEnums.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

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

def Tile_MmaRowsLayoutAttr : AttrDef<Tile_Dialect, "MmaRowsLayout"> {
  let mnemonic = "mma_rows";
  let summary = "one value per row of a #tile.mma accumulator, where its fragments hold the row";
  let description = [{
    A `... x M x 1` tile (a row reduction of a `... x M x N` accumulator with `keepdims`, such
    as online softmax's running maximum) held where the accumulator with the same warp grid
    holds its rows: lane l of the warp at (b, m) holds rows l/4 and l/4+8 of each 16-row tile it
    owns. Register r of a thread is the upper (r odd) or lower row of its (r / 2)-th (batch,
    m-tile) pair, in the order of #tile.mma. The 4 lanes of a quad and the warps along N hold
    the same values (the lane with l % 4 = 0 of the warp with n = 0 owns them), so a broadcast
    of the rows back over the accumulator's columns, and element-wise ops between the two, never
    leave the registers.

    ```mlir
    tensor<128x1xf32, #tile.mma_rows<warpsB = 1, warpsM = 4, warpsN = 1>>
    ```
  }];
  let parameters = (ins "int64_t":$warpsB, "int64_t":$warpsM, "int64_t":$warpsN);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// The accumulator layout whose rows these are.
    MmaLayoutAttr getAccumulator() const {
      return MmaLayoutAttr::get(getContext(), getWarpsB(), getWarpsM(), getWarpsN());
    }
  }];
}

def Tile_TargetAttr : AttrDef<Tile_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the GPU a module is compiled for";
  let description = [{
    Recorded on the module as `tile.target` by `tile-choose-threads`; every later pass reads
    the target from it. The name is parsed by the project's one parser of architecture names
    (`rt::GpuArch`): `sm_` with the compute capability and an optional `a` for the
    architecture-specific feature set (wgmma on sm_90a).

    ```mlir
    module attributes {tile.target = #tile.target<sm_90a>} { ... }
    ```
  }];
  let parameters = (ins "int":$major, "int":$minor, "bool":$archSpecific);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// "sm_90a"
    std::string getName() const;
    /// The attribute for an architecture name; null (with `error` set) when it is not one.
    static TargetAttr parseName(::mlir::MLIRContext *context, ::llvm::StringRef name, std::string &error);
  }];
}

// Decisions of code generation, as discardable attributes of the ops they decide for (the
// dialect verifies that each sits on the op it belongs to).

def Tile_MmaInstructionAttr : EnumAttr<Tile_Dialect, Tile_MmaInstruction, "mma_instruction"> {
  let summary = "the instruction chosen for a tile.mma (tile-select-mma)";
  let description = [{
    Recorded on every `tile.mma` as `tile.mma_instruction` by `tile-select-mma` (or
    `tile-assign-layouts` for IR that skipped it); the lowering emits exactly this instruction.

    ```mlir
    %d = tile.mma %a, %b, %c {tile.mma_instruction = #tile.mma_instruction<wgmma>} : ...
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Tile_OperandSourceAttr : EnumAttr<Tile_Dialect, Tile_OperandSource, "operand"> {
  let summary = "where a product reads its A operand (tile-assign-layouts)";
  let description = [{
    Recorded on a `tile.mma` whose A operand is computed in registers, as `tile.operand_a`:
    `registers` when every thread builds its own A fragments, `shared` when the operand goes
    through shared memory (a remark says why).
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // TILE_ATTRS_TD
