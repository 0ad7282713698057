// tile.mma: result = a * b + acc, 2-D or batched 3-D. Each output element starts from acc and
// adds the products a[m][k] * b[k][n] for k = 0, 1, ... in turn; each product is exact and each
// step rounds once into the accumulator's dtype (i32 accumulators wrap). Inputs are used
// exactly as given: bf16/f16/tf32/f8 tiles already hold values of their dtype.

#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include <cmath>

using namespace mlir;

namespace tile::interp {
namespace {

// The common case, f32 accumulation of f32-or-narrower operands, is most of the interpreter's
// time on real kernels (Mamba-2's compute_out), so it has its own path giving the same bits:
// every operand is a float, and fmaf(a, b, s) is a * b + s rounded once into f32, which is
// what fmaRound computes. Loop order i, q, j keeps each output's k order while reading rows of
// b contiguously, so the j loop vectorizes into FMA instructions where the CPU has them.
bool fitsInFloat(DType dtype) { return isFloat(dtype) && dtype != DType::Float64; }

inline __attribute__((always_inline)) void mmaF32Rows(const float *a, const float *b, float *d, int64_t m, int64_t k,
                                                      int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t q = 0; q < k; ++q) {
      float aiq = a[i * k + q];
      for (int64_t j = 0; j < n; ++j)
        d[i * n + j] = std::fma(aiq, b[q * n + j], d[i * n + j]);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) void mmaF32Fma(const float *a, const float *b, float *d, int64_t m, int64_t k,
                                              int64_t n) {
  mmaF32Rows(a, b, d, m, k, n);
}
#endif

void mmaF32(const float *a, const float *b, float *d, int64_t m, int64_t k, int64_t n) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool hasFma = __builtin_cpu_supports("fma");
  if (hasFma)
    return mmaF32Fma(a, b, d, m, k, n);
#endif
  mmaF32Rows(a, b, d, m, k, n); // std::fma calls: the C library's correctly rounded fmaf
}

void runMmaF32(const Tensor &a, const Tensor &b, Tensor &d) {
  std::vector<float> fa(a.f.begin(), a.f.end()), fb(b.f.begin(), b.f.end()), fd(d.f.begin(), d.f.end());
  int64_t rank = a.rank();
  int64_t batches = rank == 3 ? a.shape[0] : 1;
  int64_t m = a.shape[rank - 2], k = a.shape[rank - 1], n = b.shape[rank - 1];
  for (int64_t p = 0; p < batches; ++p)
    mmaF32(fa.data() + p * m * k, fb.data() + p * k * n, fd.data() + p * m * n, m, k, n);
  d.f.assign(fd.begin(), fd.end());
}

LogicalResult runMma(ExecContext &ctx, Operation *op) {
  auto mma = cast<mlir::tile::MmaOp>(op);
  const Tensor &a = ctx.tensor(mma.getA()), &b = ctx.tensor(mma.getB());
  Tensor d = ctx.tensor(mma.getAcc());
  if (d.dtype == DType::Float32 && fitsInFloat(a.dtype) && fitsInFloat(b.dtype)) {
    runMmaF32(a, b, d);
    ctx.bind(mma, std::move(d));
    return success();
  }
  int64_t rank = a.rank();
  int64_t batches = rank == 3 ? a.shape[0] : 1;
  int64_t m = a.shape[rank - 2], k = a.shape[rank - 1], n = b.shape[rank - 1];
  for (int64_t p = 0; p < batches; ++p) {
    int64_t aBase = p * m * k, bBase = p * k * n, dBase = p * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t out = dBase + i * n + j;
        if (d.isFloat()) {
          double s = d.f[out];
          for (int64_t q = 0; q < k; ++q)
            s = fmaRound(a.f[aBase + i * k + q], b.f[bBase + q * n + j], s, d.dtype);
          d.f[out] = s;
        } else {
          uint64_t s = static_cast<uint64_t>(d.i[out]);
          for (int64_t q = 0; q < k; ++q)
            s += static_cast<uint64_t>(signedValue(a.i[aBase + i * k + q], a.dtype) *
                                       signedValue(b.i[bBase + q * n + j], b.dtype));
          d.i[out] = wrapInt(static_cast<int64_t>(s), d.dtype);
        }
      }
  }
  ctx.bind(mma, std::move(d));
  return success();
}

} // namespace

void registerMmaOps(OpTable &t) { t.add<mlir::tile::MmaOp>(runMma); }

} // namespace tile::interp
