// The per-kernel work model behind tile-bench's floors (SsdWork.h), against sums worked out by
// hand for a shape small enough to count.

#include "kernels/mamba2/SsdWork.h"

#include <catch2/catch.hpp>

using namespace tile::mamba2;

TEST_CASE("mamba2: each kernel's compulsory bytes and product FLOPs", "[mamba2][work]") {
  // b 2, T 100 (ragged: 2 chunks of 64), H 4, P 8, G 2, N 16; bf16 data and states.
  SsdDims d{2, 100, 4, 8, 2, 16};
  auto w = ssdKernelWork(d, 64, 2, 2);
  const double nc = 2, Q = 64, causal = 64.0 * 65 / 2;
  const double x = 2 * 100 * 4 * 8 * 2.0, bc = 2 * 100 * 2 * 16 * 2.0, perHead = 2 * 4 * nc * Q * 4.0;
  const double cb = 2 * nc * 2 * causal * 4.0, states = 2 * nc * 4 * 8 * 16 * 2.0, final = 2 * 4 * 8 * 16 * 4.0;
  // chunk_cumsum: dt, A and dt_bias in; dt_out and dA_cumsum out; no products.
  CHECK(w[0].bytes == Approx(2 * 100 * 4 * 4.0 + 2 * 4 * 4.0 + 2 * perHead));
  CHECK(w[0].flops == 0);
  // chunk_bmm: B and C in, the causal half of C.B^T out; N multiply-adds per element.
  CHECK(w[1].bytes == Approx(2 * bc + cb));
  CHECK(w[1].flops == Approx(2 * 2 * nc * 2 * causal * 16));
  // fwd_pass_state: x, B, dt_out, dA_cumsum in; the chunk-entry and final states out.
  CHECK(w[2].bytes == Approx(x + bc + 2 * perHead + states + final));
  CHECK(w[2].flops == Approx(2.0 * 2 * 4 * nc * Q * 8 * 16));
  // compute_out: x, C, C.B^T, dt_out, dA_cumsum, states, D in; y out.
  CHECK(w[3].bytes == Approx(x + bc + cb + 2 * perHead + states + 4 * 4.0 + x));
  CHECK(w[3].flops == Approx(2.0 * 2 * 4 * nc * Q * 8 * 16 + 2.0 * 2 * 4 * nc * causal * 8));
  // fp32 data and states: the data and states terms double.
  auto w32 = ssdKernelWork(d, 64, 4, 4);
  CHECK(w32[2].bytes == Approx(2 * x + 2 * bc + 2 * perHead + 2 * states + final));
}

TEST_CASE("mamba2: a kernel's floor is the larger of its bandwidth and its compute time", "[mamba2][work]") {
  KernelWork bandwidthBound{4.8e9, 1e9}; // 4.8 GB at 4.8 TB/s: 1 ms; 1 GFLOP at 790: 0.0013 ms
  CHECK(bandwidthBound.floorMs(kH200TBs, kH200Tflops) == Approx(1.0));
  KernelWork computeBound{1e6, 790e9}; // 790 GFLOP at 790 TFLOP/s: 1 ms
  CHECK(computeBound.floorMs(kH200TBs, kH200Tflops) == Approx(1.0));
  // The 2.7B shape at chunk 64 (bf16): fwd_pass_state and compute_out are bound by their
  // traffic, the chunk-entry states dominating it (335 MB each way).
  auto w = ssdKernelWork(SsdDims{4, 4096, 80, 64, 1, 128}, 64, 2, 2);
  CHECK(w[2].bytes / (kH200TBs * 1e9) > w[2].flops / (kH200Tflops * 1e9));
  CHECK(w[3].bytes / (kH200TBs * 1e9) > w[3].flops / (kH200Tflops * 1e9));
  // x 167.8 MB + B 4.2 + dt_out and dA_cumsum 10.5 + states 335.5 + final states 10.5.
  CHECK(w[2].bytes == Approx(528.48e6).epsilon(1e-4));
}
