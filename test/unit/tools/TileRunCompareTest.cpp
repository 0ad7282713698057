// tile-run --backend gpu's judgement of an array (tools/tile-run/Compare.h): a correct bf16
// GEMM with K = 777 and f32 output, summed in another order than the interpreter's, passes; the
// same GEMM with one term dropped fails.
#include "compiler/interpreter/DType.h"
#include "compiler/interpreter/FloatFormat.h"
#include "tools/tile-run/Compare.h"

#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>

using namespace tile;
using namespace tile::run;

namespace {

// An f32 array named c of the given values (row-major), as tile-run holds it.
ArrayArg floatArray(const std::vector<float> &values, std::vector<int64_t> shape) {
  ArrayArg a;
  a.name = "c";
  a.dtype = interp::DType::Float32;
  a.shape = std::move(shape);
  a.bytes.resize(values.size() * sizeof(float));
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.view = interp::HostArray::contiguous(a.bytes.data(), a.dtype, a.shape);
  return a;
}

} // namespace

TEST_CASE("tile-run: tolerances follow the array's scale", "[tools][tile-run]") {
  const int M = 128, N = 128, K = 777;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> a(M * K), b(K * N);
  for (double &v : a)
    v = interp::roundToFloat(uniform(rng), interp::DType::BFloat16);
  for (double &v : b)
    v = interp::roundToFloat(uniform(rng), interp::DType::BFloat16);
  // The interpreter's result: exact products, summed in double, rounded once to f32. The GPU's:
  // f32 partial sums of 16 terms (one k-step of mma each), added in order, rounded toward zero
  // as Tensor Cores' accumulation does (errors of the size the first round measured: up to
  // 5.7e-5 on values of magnitude 10).
  std::vector<float> interpreted(M * N), gpu(M * N), wrong(M * N);
  const int mode = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      volatile float acc = 0;
      for (int k0 = 0; k0 < K; k0 += 16) {
        volatile float part = 0;
        for (int k = k0; k < std::min(K, k0 + 16); ++k) {
          part += float(a[i * K + k]) * float(b[k * N + j]);
        }
        acc += part;
      }
      gpu[i * N + j] = acc;
      wrong[i * N + j] = i == 5 && j == 7 ? acc - float(a[i * K + 500] * b[500 * N + j]) : acc;
    }
  std::fesetround(mode);
  for (int i = 0; i < M; ++i) // the interpreter's single rounding, to nearest
    for (int j = 0; j < N; ++j) {
      double exact = 0;
      for (int k = 0; k < K; ++k)
        exact += a[i * K + k] * b[k * N + j];
      interpreted[i * N + j] = float(exact);
    }
  ArrayArg reference = floatArray(interpreted, {M, N});
  auto [rtol, atol] = toleranceFor(reference);
  CHECK(rtol == 1e-5);
  CHECK(atol > 1e-5); // the RMS of a K = 777 product of [-1, 1) values is about 9

  Comparison ok = compare(reference, reinterpret_cast<const char *>(gpu.data()), rtol, atol);
  CHECK(ok.compared == M * N);
  CHECK(ok.mismatches == 0);
  Comparison bad = compare(reference, reinterpret_cast<const char *>(wrong.data()), rtol, atol);
  CHECK(bad.mismatches == 1);
  CHECK(bad.firstBad == 5 * N + 7);

  // The correct result's largest error (about 5e-5 here, as the GPU showed) sits well inside.
  INFO("max abs " << ok.maxAbs << ", atol " << atol);
  CHECK(ok.maxAbs < atol / 1.5);
}

TEST_CASE("tile-run: integers compare exactly, NaN only against NaN", "[tools][tile-run]") {
  ArrayArg ref = floatArray({1.0f, NAN, 3.0f}, {3});
  std::vector<float> same = {1.0f, NAN, 3.0f}, nanBad = {1.0f, 2.0f, NAN};
  auto [rtol, atol] = toleranceFor(ref); // the RMS over finite elements: NaN is left out
  CHECK(atol == Approx(1e-5 * std::sqrt(5.0)).epsilon(1e-6));
  CHECK(compare(ref, reinterpret_cast<const char *>(same.data()), rtol, atol).mismatches == 0);
  CHECK(compare(ref, reinterpret_cast<const char *>(nanBad.data()), rtol, atol).mismatches == 2);
  CHECK(defaultTolerance(interp::DType::Int32) == std::pair<double, double>{0, 0});
}
