// The [gpu] test kernels (kernels/*.ptx), embedded by test/unit/CMakeLists.txt, and their
// metadata as the compiler would write it.
#pragma once

#include <cstddef>
#include <string_view>

extern const unsigned char tile_test_axpy2d_ptx[];
extern const std::size_t tile_test_axpy2d_ptx_size;
extern const unsigned char tile_test_axpy2d_cubin[];
extern const std::size_t tile_test_axpy2d_cubin_size;
extern const unsigned char tile_test_tma_copy2d_ptx[];
extern const std::size_t tile_test_tma_copy2d_ptx_size;
extern const unsigned char tile_test_tma_copy2d_cubin[];
extern const std::size_t tile_test_tma_copy2d_cubin_size;
// kernels/examples/scale_rows.py compiled by tile-cc (TM=64, TN=32, x f32, s f32, out bf16).
extern const unsigned char tile_test_scale_rows_cubin[];
extern const std::size_t tile_test_scale_rows_cubin_size;
extern const unsigned char tile_test_scale_rows_json[];
extern const std::size_t tile_test_scale_rows_json_size;

namespace tile::rt::test {

inline std::string_view axpy2dPtx() {
  return {reinterpret_cast<const char *>(tile_test_axpy2d_ptx), tile_test_axpy2d_ptx_size};
}
inline std::string_view tmaCopy2dPtx() {
  return {reinterpret_cast<const char *>(tile_test_tma_copy2d_ptx), tile_test_tma_copy2d_ptx_size};
}

// out = x * alpha + y over 2-D float32 arrays, 256 threads per block, one element per thread.
inline constexpr std::string_view kAxpy2dMetadata = R"({
  "format": "tile-kernel/1",
  "kernel": "tile_test_axpy2d",
  "name": "axpy2d",
  "arch": "sm_90a",
  "threads_per_block": 256,
  "dynamic_shared_memory": 0,
  "cluster": [1, 1, 1],
  "constants": {},
  "params": [
    {"name": "x", "kind": "array", "dtype": "float32", "rank": 2, "alignment": 4},
    {"name": "y", "kind": "array", "dtype": "float32", "rank": 2, "alignment": 4},
    {"name": "out", "kind": "array", "dtype": "float32", "rank": 2, "alignment": 4},
    {"name": "alpha", "kind": "scalar", "dtype": "float32"}
  ],
  "tma": []
})";

// out = x, x read in 8x32 boxes through one TMA descriptor; grid (ceil(n1/32), ceil(n0/8)).
inline constexpr std::string_view kTmaCopy2dMetadata = R"({
  "format": "tile-kernel/1",
  "kernel": "tile_test_tma_copy2d",
  "name": "tma_copy2d",
  "arch": "sm_90a",
  "threads_per_block": 256,
  "params": [
    {"name": "x", "kind": "array", "dtype": "float32", "rank": 2, "alignment": 16,
     "unit_stride_last": true},
    {"name": "out", "kind": "array", "dtype": "float32", "rank": 2, "alignment": 4}
  ],
  "tma": [{"param": "x", "box": [8, 32], "swizzle": "none", "oob_fill": "zero"}]
})";

} // namespace tile::rt::test
