// Tensor Core products: when a tile.mma runs on mma.sync, and the accumulator layout it then
// uses (#tile.mma): which element each register of a thread holds.
#pragma once

#include "compiler/codegen/analysis/GpuTarget.h"
#include "compiler/codegen/analysis/TileLayout.h"
#include "dialect/TileDialect.h"

#include <optional>
#include <string>

namespace tile::codegen {

/// On a tile.mma whose A operand is computed (not loaded), a #tile.operand: registers when
/// tile-assign-layouts gave A the #tile.mma layout (the product reads its fragments from
/// registers), shared when it goes through shared memory.
inline constexpr llvm::StringLiteral kOperandAAttr = "tile.operand_a";

/// On a tile.mma: the #tile.mma_instruction that runs it (tile-select-mma).
inline constexpr llvm::StringLiteral kMmaInstructionAttr = "tile.mma_instruction";

/// The instruction recorded on `op` (kMmaInstructionAttr); nullopt before tile-select-mma.
std::optional<mlir::tile::MmaInstruction> recordedMmaInstruction(mlir::Operation *op);

/// The K of the mma.sync shape for an operand type: 16 (bf16, f16), 8 (tf32), 0 for none.
int64_t mmaInstructionK(mlir::Type operand);

/// Whether `op` runs on Tensor Cores (mma.sync.m16n8k16 for bf16/f16, m16n8k8 for tf32): an
/// f32 accumulator, M a multiple of 16, K of the instruction's K, N of 8, an sm_80+ target.
bool usesTensorCores(mlir::tile::MmaOp op, const GpuTarget &target);

/// Whether a Tensor Core product whose accumulator has layout `acc` runs as wgmma
/// (sm_90a; bf16/f16 operands; warpgroups stacked along M: warpsM a multiple of 4, one warp
/// along N and batch; K a multiple of 16) rather than mma.sync. `why` says what is missing.
bool usesWgmma(mlir::tile::MmaOp op, const GpuTarget &target, mlir::tile::MmaLayoutAttr acc,
               std::string *why = nullptr);

/// Whether `op` runs as wgmma: on Tensor Cores, usesWgmma with its accumulator's layout, and
/// tile-select-mma did not choose mma.sync (else why not, in `why`).
bool runsAsWgmma(mlir::tile::MmaOp op, const GpuTarget &target, std::string *why = nullptr);

/// A wgmma matrix descriptor for a shared-memory byte address, the leading/stride byte offsets
/// and the swizzle of the layout in bytes (0: none; 128, 64, 32: StageLayout.h) (PTX ISA
/// "Matrix Descriptor Format").
uint64_t wgmmaDescriptor(uint32_t sharedAddress, uint32_t leadingByteOffset, uint32_t strideByteOffset,
                         int64_t swizzleBytes = 0);

/// Why `op` does not run on Tensor Cores, in words ("M = 24 is not a multiple of 16"); empty
/// when it does. usesTensorCores(op, target) is tensorCoreRefusal(op, target).empty().
std::string tensorCoreRefusal(mlir::tile::MmaOp op, const GpuTarget &target);

/// How the warps of a block split a (batch x M x N) product into 16x8 tiles: as many along
/// M as there are m-tiles, then along N, then batch. Some warps may be left without work.
struct MmaWarpGrid {
  int64_t warpsB = 1, warpsM = 1, warpsN = 1;
  static MmaWarpGrid choose(int64_t batch, int64_t m, int64_t n, int64_t numThreads);
  /// The grid for `op`'s accumulator (batch 1 for a 2-D product).
  static MmaWarpGrid of(mlir::tile::MmaOp op, int64_t numThreads);
  int64_t numWarps() const { return warpsB * warpsM * warpsN; }
};

/// The accumulator layout for `op` when it runs on Tensor Cores and every warp of the block
/// has work (otherwise the product keeps the canonical layout and goes through shared memory).
std::optional<mlir::tile::MmaLayoutAttr> accumulatorLayoutFor(mlir::tile::MmaOp op, const GpuTarget &target,
                                                              int64_t numThreads);

/// The instruction that runs `op` at `numThreads` on `target`, from the accumulator layout it
/// has (an encoding) or would get (accumulatorLayoutFor); `why` says, when it is not the
/// fastest the target has, why not (empty otherwise).
mlir::tile::MmaInstruction chooseMmaInstruction(mlir::tile::MmaOp op, const GpuTarget &target, int64_t numThreads,
                                                std::string &why);

/// chooseMmaInstruction recorded as tile.mma_instruction, with a remark saying why whenever
/// the target has a faster instruction the product cannot use.
void recordMmaInstruction(mlir::tile::MmaOp op, const GpuTarget &target, int64_t numThreads);

/// The tile.load a Tensor Core operand reads, through reshapes and transposes; null when the
/// operand is computed.
mlir::tile::LoadOp operandLoad(mlir::Value operand);

/// The TileLayout of a tile type: canonical without an encoding, mma fragments with #tile.mma.
TileLayout layoutOfType(mlir::Type tensorType, int64_t numThreads);

} // namespace tile::codegen
