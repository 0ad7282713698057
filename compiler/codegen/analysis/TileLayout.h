// The canonical distributed layout: how a tile's elements map to the threads of a block.
//
// Elements are numbered in row-major order (linear index e). With T threads and N elements:
//   N >= T: each thread holds P = N / T elements in runs of V consecutive elements;
//           register r of thread t holds e = ((r / V) * T + t) * V + r % V.
//           Neighbouring threads touch neighbouring runs, so global accesses coalesce.
//           V = min(P, 8, last dim): a run of 16-bit elements is one 16-byte vector access;
//           wider types split a run into several 16-byte accesses (f32: two). V depends on
//           the shape only, never the dtype, so casts keep the layout.
//   N <  T: each thread holds one element, e = t % N; the threads t < N own it (only owners
//           store, add atomically or print), the others hold replicas.
// Every canonical tile of a given shape has the same layout, so element-wise ops never move
// data; ops that do (broadcast, permute, cross-warp reductions, FMA products, ...) go through
// shared memory. A tile type with the #tile.mma encoding instead holds mma.sync accumulator
// fragments (mmaWarps, MmaLayout.h): tile-assign-layouts gives it to Tensor Core products, and
// tile.convert_layout moves tiles between the two; #tile.mma_rows holds one value per row of
// such an accumulator (its row reductions) in the threads that hold the row.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <tuple>
#include <utility>

namespace tile::codegen {

struct TileLayout {
  static constexpr int64_t kMaxVector = 8;

  llvm::SmallVector<int64_t> shape;
  int64_t numThreads = 128;
  int64_t numElements = 1;
  int64_t perThread = 1; // P
  int64_t vector = 1;    // V
  bool replicated = false;
  /// Set for tiles in the mma.sync accumulator layout (#tile.mma, see MmaLayout.h): the warp
  /// grid (batch, m, n). Such a tile has P = N / T registers per thread, never replicated.
  int64_t mmaWarps[3] = {0, 0, 0};
  bool isMma() const { return mmaWarps[0] != 0 && !mmaRows; }
  /// Set for `... x M x 1` tiles in the #tile.mma_rows layout: one register per row its
  /// accumulator fragments hold (2 per (batch, m-tile) pair), the same in the 4 lanes of a
  /// quad and in the warps along N (mmaWarps is the accumulator's grid).
  bool mmaRows = false;
  bool isMmaRows() const { return mmaRows; }

  /// How many consecutive registers hold consecutive elements of one row, starting at a
  /// multiple of that count: V for a canonical layout; 2 for the mma layout, whose fragments
  /// hold pairs of neighbouring columns (registers 2i and 2i + 1, at an even column).
  int64_t runLength() const { return isMma() ? 2 : mmaRows ? 1 : vector; }

  TileLayout() = default;
  TileLayout(llvm::ArrayRef<int64_t> tileShape, int64_t threads) : shape(tileShape), numThreads(threads) {
    for (int64_t d : shape)
      numElements *= d;
    if (numElements >= numThreads) {
      perThread = numElements / numThreads;
      int64_t last = shape.empty() ? 1 : shape.back();
      vector = std::min<int64_t>({perThread, kMaxVector, last});
    } else {
      replicated = true;
    }
  }

  /// The length of a row: the last dim that is not 1 (1 for a tile of one element). Unit dims
  /// leave the row-major order unchanged, so shapes that differ only in them have the same rows.
  int64_t rowLength() const {
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d)
      if (shape[d] != 1)
        return shape[d];
    return 1;
  }

  /// For the mma layout: the dims of the accumulator's rows (M) and columns (N), the last two
  /// dims that are not 1; the dims before M count the batch. (M and N of a product are at least
  /// 8, so unit dims added anywhere, as reshapes to an array's rank do, keep the fragments.)
  std::pair<int64_t, int64_t> mmaMatrixDims() const {
    int64_t n = -1, m = -1;
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0 && m < 0; --d)
      if (shape[d] != 1)
        (n < 0 ? n : m) = d;
    return {m, n};
  }

  /// For the mma layout: what its fragments depend on, (M, N, element count); two shapes with
  /// equal values (and equal warps) hold the same elements in the same registers. (0, 0, 0)
  /// for a shape without two dims other than 1.
  std::tuple<int64_t, int64_t, int64_t> mmaMatrices() const {
    auto [mDim, nDim] = mmaMatrixDims();
    if (mDim < 0)
      return {0, 0, 0};
    return {shape[mDim], shape[nDim], numElements};
  }

  /// Row-major strides of the tile shape, in elements.
  llvm::SmallVector<int64_t> strides() const {
    llvm::SmallVector<int64_t> s(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
      s[d] = s[d + 1] * shape[d + 1];
    return s;
  }
};

} // namespace tile::codegen
