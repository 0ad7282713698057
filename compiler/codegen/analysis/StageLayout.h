// The shared-memory layout of a Tensor Core operand's stage buffer (tile.pipeline_core_matrices):
// which swizzle it uses and where its buffers must start.
//
// The loaded tile is `rows` x `cols` (the last dim is `cols`, the others count as rows). With
// rows of at least 32 bytes it is stored the way wgmma's swizzled modes (and TMA's swizzled
// boxes) read it: column blocks of S bytes (S = 128, 64 or 32, the row's bytes up to 128)
// stacked one after the other, rows x S bytes each, row r of a block at r * S, and the 16-byte
// chunk c of that row at chunk c ^ ((r * S / 128) % (S / 16)) — the XOR of address bits 4..6
// with bits 7..9 (Swizzle<log2(S/16), 4, 3> in CUTLASS's terms). A warp's 16-byte copies of
// consecutive chunks of a row then land in distinct banks, so each copy request covers whole
// 32-byte sectors of global memory (the unswizzled core-matrix order put the two halves of a
// sector in different requests and read every sector twice from L2), and ldmatrix's eight
// row reads of a core matrix hit eight distinct bank groups. The pattern repeats every 8 rows
// (8 * S bytes), so a buffer starts on a multiple of kSwizzleAlign.
//
// 16-byte rows (8 16-bit columns) keep the interleaved core-matrix order (8 x 16-byte core
// matrices, 128 bytes each, row-major): there is nothing to swizzle in a row of one chunk.
#pragma once

#include <cstdint>

namespace tile::codegen {

/// The alignment of a swizzled stage buffer (the 128-byte mode's 8-row period; the 64- and
/// 32-byte modes need 512 and 256).
inline constexpr int64_t kSwizzleAlign = 1024;

/// S for a stage whose rows are `rowBytes` long: 128 for rows of 128 bytes or more (a multiple
/// of 128), 64 or 32 for rows of that length, 0 (interleaved core matrices) otherwise.
inline int64_t stageSwizzleBytes(int64_t rowBytes) {
  if (rowBytes >= 128)
    return rowBytes % 128 == 0 ? 128 : 0;
  return rowBytes == 64 || rowBytes == 32 ? rowBytes : 0;
}

/// A Tensor Core operand tile in shared memory in the layout above: `rows` x `cols` elements of
/// `elementBytes` bytes (the dims before the last stacked into rows), in column blocks of
/// `swizzleBytes` (0: interleaved core matrices), read by wgmma K-major (rows along M or N, cols
/// along K) or MN-major (rows along K; 16-bit types only).
struct OperandTile {
  int64_t rows, cols, elementBytes, swizzleBytes;
  bool mnMajor;
};

/// The wgmma descriptor's swizzle mode field (bits 62-63) for S: 1 (128 bytes), 2 (64), 3 (32),
/// 0 (none).
inline uint64_t wgmmaSwizzleMode(int64_t swizzleBytes) {
  return swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : swizzleBytes == 32 ? 3 : 0;
}

} // namespace tile::codegen
