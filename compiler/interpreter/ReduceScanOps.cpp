// tile.reduce and tile.scan. Both walk the axis in order (from the end for reverse scans),
// starting from the first element and rounding each step into the element dtype (integers
// wrap). max/min propagate NaN and order -0 below +0; argmax/argmin return the first position
// of the extreme value, and a NaN counts as the extreme for both.

#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include <cmath>
#include <limits>

using namespace mlir;
using mlir::tile::ReduceKind;
using mlir::tile::ScanKind;

namespace tile::interp {
namespace {

// The shape split around `axis`: outer * length * inner elements.
struct AxisSplit {
  int64_t outer = 1, length = 1, inner = 1;
  AxisSplit(const std::vector<int64_t> &shape, int64_t axis) {
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
      (d < axis ? outer : d == axis ? length : inner) *= shape[d];
  }
  int64_t at(int64_t o, int64_t j, int64_t in) const { return (o * length + j) * inner + in; }
};

double combineFloat(ReduceKind kind, double s, double x, DType dt) {
  switch (kind) {
  case ReduceKind::sum:
    return roundToFloat(s + x, dt);
  case ReduceKind::prod:
    return roundToFloat(s * x, dt);
  case ReduceKind::max:
    if (std::isnan(s) || std::isnan(x))
      return std::numeric_limits<double>::quiet_NaN();
    return (x > s || (x == s && std::signbit(s) && !std::signbit(x))) ? x : s;
  case ReduceKind::min:
    if (std::isnan(s) || std::isnan(x))
      return std::numeric_limits<double>::quiet_NaN();
    return (x < s || (x == s && !std::signbit(s) && std::signbit(x))) ? x : s;
  default:
    return s;
  }
}

int64_t combineInt(ReduceKind kind, int64_t s, int64_t x, DType dt) {
  uint64_t us = static_cast<uint64_t>(s), ux = static_cast<uint64_t>(x);
  switch (kind) {
  case ReduceKind::sum:
    return wrapInt(static_cast<int64_t>(us + ux), dt);
  case ReduceKind::prod:
    return wrapInt(static_cast<int64_t>(us * ux), dt);
  case ReduceKind::max:
    return signedValue(x, dt) > signedValue(s, dt) ? x : s;
  case ReduceKind::min:
    return signedValue(x, dt) < signedValue(s, dt) ? x : s;
  default:
    return s;
  }
}

// Whether element x replaces the current best b for argmax (or argmin): strictly better, or
// the first NaN.
bool argBetter(ReduceKind kind, const Tensor &t, int64_t x, int64_t b) {
  if (t.isFloat()) {
    double vx = t.f[x], vb = t.f[b];
    if (std::isnan(vb))
      return false;
    if (std::isnan(vx))
      return true;
    return kind == ReduceKind::argmax ? vx > vb : vx < vb;
  }
  int64_t vx = signedValue(t.i[x], t.dtype), vb = signedValue(t.i[b], t.dtype);
  return kind == ReduceKind::argmax ? vx > vb : vx < vb;
}

LogicalResult runReduce(ExecContext &ctx, Operation *op) {
  auto reduce = cast<mlir::tile::ReduceOp>(op);
  const Tensor &in = ctx.tensor(reduce.getInput());
  ReduceKind kind = reduce.getKind();
  Tensor r(elementDType(reduce), shapeOf(reduce.getType()));
  AxisSplit s(in.shape, reduce.getAxis());
  bool isArg = kind == ReduceKind::argmax || kind == ReduceKind::argmin;
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      int64_t out = o * s.inner + i, first = s.at(o, 0, i);
      if (isArg) {
        int64_t best = 0;
        for (int64_t j = 1; j < s.length; ++j)
          if (argBetter(kind, in, s.at(o, j, i), s.at(o, best, i)))
            best = j;
        r.i[out] = wrapInt(best, r.dtype);
      } else if (in.isFloat()) {
        double acc = in.f[first];
        for (int64_t j = 1; j < s.length; ++j)
          acc = combineFloat(kind, acc, in.f[s.at(o, j, i)], in.dtype);
        r.f[out] = acc;
      } else {
        int64_t acc = in.i[first];
        for (int64_t j = 1; j < s.length; ++j)
          acc = combineInt(kind, acc, in.i[s.at(o, j, i)], in.dtype);
        r.i[out] = acc;
      }
    }
  ctx.bind(reduce, std::move(r));
  return success();
}

LogicalResult runScan(ExecContext &ctx, Operation *op) {
  auto scan = cast<mlir::tile::ScanOp>(op);
  const Tensor &in = ctx.tensor(scan.getInput());
  ReduceKind kind = scan.getKind() == ScanKind::cumsum ? ReduceKind::sum : ReduceKind::prod;
  Tensor r = in;
  AxisSplit s(in.shape, scan.getAxis());
  bool reverse = scan.getReverse();
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i)
      for (int64_t step = 1; step < s.length; ++step) {
        int64_t j = reverse ? s.length - 1 - step : step;
        int64_t prev = s.at(o, reverse ? j + 1 : j - 1, i), cur = s.at(o, j, i);
        if (r.isFloat())
          r.f[cur] = combineFloat(kind, r.f[prev], r.f[cur], r.dtype);
        else
          r.i[cur] = combineInt(kind, r.i[prev], r.i[cur], r.dtype);
      }
  ctx.bind(scan, std::move(r));
  return success();
}

} // namespace

void registerReduceScanOps(OpTable &t) {
  t.add<mlir::tile::ReduceOp>(runReduce);
  t.add<mlir::tile::ScanOp>(runScan);
}

} // namespace tile::interp
