// What tile-bench's modes (ssd, ssd --decode, ssd --backward, gemm) share: the GPU check, the
// JSON file, the benchmark shapes and random inputs.
#pragma once

#include "runtime/jit/Backend.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tile::bench {

/// Whether GPU 0 can run kernels; prints "tile-bench: no GPU here (why)" when it cannot (the
/// mode then exits 77, the skip code).
bool haveGpu();

/// Writes `results` to `path` (nothing when it is empty); false, with an error on stderr, when
/// the file cannot be written (the mode then exits 3).
bool writeJson(const std::string &path, const nlohmann::json &results);

/// A Mamba-2 layer shape, and (from a peer file) the peer's figures for it.
struct Shape {
  std::string name;
  std::int64_t batch, seqlen, nheads, headdim, ngroups, dstate, chunk;
  double peerTotalMs = 0, peerCumsum = 0, peerState = 0, peerScan = 0;
  double compulsoryMB = 0, gflop = 0;
};

/// The five benchmark shapes (2.7B at batch 4 x 4096 and 1 x 16384, Codestral 7B, a small
/// model, 2.7B at batch 16 x 2048).
std::vector<Shape> defaultShapes();

/// `n` random values in [lo, hi) as `dtype` (bfloat16 or float32) in the backend's memory.
jit::Buffer randomBuffer(jit::Backend &backend, std::int64_t n, rt::DType dtype, std::mt19937 &rng, float lo, float hi);

/// The median (the upper one of an even count); `values` must not be empty.
double median(std::vector<double> values);

} // namespace tile::bench
