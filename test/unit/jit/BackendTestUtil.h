// Kernels and test bodies written once against jit::Backend, run on the interpreter in CI
// (BackendTest.cpp) and on both backends side by side on a GPU machine (BackendGpuTest.cpp).
#pragma once

#include "runtime/jit/Backend.h"

#include <cstdint>
#include <vector>

namespace tile::jit::test {

inline const char *kSaxpySource = R"py(import cuda.tile as ct

@ct.kernel
def saxpy(x, y, out, a, BLOCK: ct.Constant[int]):
    i = ct.bid(0)
    tx = ct.load(x, (i,), (BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    ty = ct.load(y, (i,), (BLOCK,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, (i,), a * tx + ty)
)py";

inline KernelRequest saxpyRequest(int64_t block = 128) {
  KernelRequest r;
  r.source = kSaxpySource;
  r.fileName = "saxpy.py";
  r.kernel = "saxpy";
  r.constants["BLOCK"] = block;
  r.args = {{"x", {"float32", 1}}, {"y", {"float32", 1}}, {"out", {"float32", 1}}, {"a", {"float32", 0}}};
  return r;
}

/// out = 2 * x + y over `n` elements (a ragged last block when n is not a multiple of 128),
/// x = i % 1000 and y = 1: every value is exact in float32 on both backends.
inline std::vector<float> runSaxpy(Backend &backend, int64_t n) {
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n), 1.0f);
  for (int64_t i = 0; i < n; ++i)
    x[size_t(i)] = float(i % 1000);
  KernelHandle k = backend.compile(saxpyRequest());
  Buffer dx = backend.upload(x), dy = backend.upload(y), out = backend.allocate(size_t(n) * sizeof(float));
  backend.launch(
      k, rt::Grid((n + 127) / 128),
      {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n}), out.array(rt::DType::Float32, {n}), 2.0f});
  backend.synchronize();
  return out.toHost<float>();
}

inline KernelRequest scaleRowsRequest() {
  KernelRequest r;
  r.source = R"py(import cuda.tile as ct

@ct.kernel
def scale_rows(x, s, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,))
    ct.store(out, index=(i, j), tile=(t * k[:, None]).astype(out.dtype))
)py";
  r.fileName = "scale_rows.py";
  r.kernel = "scale_rows";
  r.constants = {{"TM", int64_t(16)}, {"TN", int64_t(32)}};
  r.args = {{"x", {"float32", 2}}, {"s", {"float32", 1}}, {"out", {"bfloat16", 2}}};
  return r;
}

/// out = x * s[:, None] in bf16 (raw bits), x a (m, n) view of a wider (m, n + 5) buffer:
/// strided input, ragged edges in both dimensions, a rounding output dtype.
inline std::vector<uint16_t> runScaleRows(Backend &backend, int64_t m, int64_t n) {
  const int64_t ld = n + 5;
  std::vector<float> x(static_cast<size_t>(m * ld), -1.0f), s(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    s[size_t(i)] = 0.25f * float(i + 1);
    for (int64_t j = 0; j < n; ++j)
      x[size_t(i * ld + j)] = float(i * 7 + j) / 3.0f;
  }
  KernelHandle k = backend.compile(scaleRowsRequest());
  Buffer dx = backend.upload(x), ds = backend.upload(s), out = backend.allocate(size_t(m * n) * 2);
  backend.launch(k, rt::Grid((m + 15) / 16, (n + 31) / 32),
                 {dx.array(rt::DType::Float32, {m, n}, {ld, 1}), ds.array(rt::DType::Float32, {m}),
                  out.array(rt::DType::BFloat16, {m, n})});
  return out.toHost<uint16_t>();
}

} // namespace tile::jit::test
