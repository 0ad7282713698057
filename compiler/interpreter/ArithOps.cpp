// arith: constants, float and integer arithmetic, comparisons, select.
//
// Floats are computed in double and rounded once into the result dtype; for +, -, *, / of
// float32 and narrower that is the correctly rounded result (double has more than twice the
// bits). Integers wrap to their width. Where LLVM says "poison", the GPU's behaviour is taken:
// shifts by >= the width give 0 (or the sign for shrsi), INT_MIN / -1 wraps.

#include "compiler/interpreter/Elementwise.h"
#include "compiler/interpreter/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace tile::interp {
namespace {

double toDouble(APFloat v) {
  bool lost = false;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble();
}

LogicalResult runConstant(ExecContext &ctx, Operation *op) {
  auto constant = cast<arith::ConstantOp>(op);
  Type type = constant.getType();
  DType dtype = elementDType(constant);
  Tensor r(dtype, shapeOf(type));
  Attribute attr = constant.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (r.isFloat()) {
      int64_t k = 0;
      if (dense.isSplat())
        std::fill(r.f.begin(), r.f.end(), toDouble(dense.getSplatValue<APFloat>()));
      else
        for (APFloat v : dense.getValues<APFloat>())
          r.f[k++] = toDouble(v);
    } else {
      int64_t k = 0;
      if (dense.isSplat())
        std::fill(r.i.begin(), r.i.end(), wrapInt(dense.getSplatValue<APInt>().getSExtValue(), dtype));
      else
        for (APInt v : dense.getValues<APInt>())
          r.i[k++] = wrapInt(v.getSExtValue(), dtype);
    }
  } else if (auto i = dyn_cast<IntegerAttr>(attr)) {
    r.i[0] = wrapInt(i.getValue().getSExtValue(), dtype);
  } else if (auto f = dyn_cast<FloatAttr>(attr)) {
    r.f[0] = toDouble(f.getValue());
  } else {
    return ctx.fail(op, "unsupported constant attribute (only integer, float and dense constants)");
  }
  ctx.bind(constant, std::move(r));
  return success();
}

// IEEE maximum/minimum: NaN propagates, -0 < +0.
double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
// maxnum/minnum: a NaN operand is ignored.
double maxNumF(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : maximumF(a, b); }
double minNumF(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : minimumF(a, b); }

using Opt = std::optional<int64_t>;
uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
int64_t s64(uint64_t v) { return static_cast<int64_t>(v); }

// Signed division helpers on signed readings; b == -1 avoids INT64_MIN / -1.
Opt divS(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  return b == -1 ? s64(0 - u(a)) : a / b;
}
Opt remS(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  return b == -1 ? 0 : a % b;
}
Opt floorDivS(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return s64(0 - u(a));
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
Opt ceilDivS(int64_t a, int64_t b) {
  if (b == 0)
    return std::nullopt;
  if (b == -1)
    return s64(0 - u(a));
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

// Integer ops take canonical values and the dtype; signed/unsigned readings come from DType.h.
#define INT_BINARY(OP, EXPR)                                                                                           \
  t.add<OP>([](ExecContext &ctx, Operation *op) {                                                                      \
    return mapInt2(ctx, op, [](int64_t a, int64_t b, DType dt) -> Opt {                                                \
      (void)dt;                                                                                                        \
      return EXPR;                                                                                                     \
    });                                                                                                                \
  })
#define FLOAT_BINARY(OP, EXPR)                                                                                         \
  t.add<OP>([](ExecContext &ctx, Operation *op) {                                                                      \
    return mapFloat2(ctx, op, [](double a, double b) -> double { return EXPR; });                                      \
  })

LogicalResult runCmpI(ExecContext &ctx, Operation *op) {
  auto cmp = cast<arith::CmpIOp>(op);
  const Tensor &a = ctx.tensor(cmp.getLhs()), &b = ctx.tensor(cmp.getRhs());
  Tensor r(DType::Bool, a.shape);
  for (size_t k = 0; k < a.i.size(); ++k) {
    int64_t sa = signedValue(a.i[k], a.dtype), sb = signedValue(b.i[k], a.dtype);
    uint64_t ua = unsignedValue(a.i[k], a.dtype), ub = unsignedValue(b.i[k], a.dtype);
    bool v = false;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      v = ua == ub;
      break;
    case arith::CmpIPredicate::ne:
      v = ua != ub;
      break;
    case arith::CmpIPredicate::slt:
      v = sa < sb;
      break;
    case arith::CmpIPredicate::sle:
      v = sa <= sb;
      break;
    case arith::CmpIPredicate::sgt:
      v = sa > sb;
      break;
    case arith::CmpIPredicate::sge:
      v = sa >= sb;
      break;
    case arith::CmpIPredicate::ult:
      v = ua < ub;
      break;
    case arith::CmpIPredicate::ule:
      v = ua <= ub;
      break;
    case arith::CmpIPredicate::ugt:
      v = ua > ub;
      break;
    case arith::CmpIPredicate::uge:
      v = ua >= ub;
      break;
    }
    r.i[k] = v;
  }
  ctx.bind(cmp, std::move(r));
  return success();
}

LogicalResult runCmpF(ExecContext &ctx, Operation *op) {
  auto cmp = cast<arith::CmpFOp>(op);
  const Tensor &a = ctx.tensor(cmp.getLhs()), &b = ctx.tensor(cmp.getRhs());
  Tensor r(DType::Bool, a.shape);
  using P = arith::CmpFPredicate;
  for (size_t k = 0; k < a.f.size(); ++k) {
    double x = a.f[k], y = b.f[k];
    bool unordered = std::isnan(x) || std::isnan(y);
    bool v = false;
    switch (cmp.getPredicate()) {
    case P::AlwaysFalse:
      v = false;
      break;
    case P::OEQ:
      v = !unordered && x == y;
      break;
    case P::OGT:
      v = !unordered && x > y;
      break;
    case P::OGE:
      v = !unordered && x >= y;
      break;
    case P::OLT:
      v = !unordered && x < y;
      break;
    case P::OLE:
      v = !unordered && x <= y;
      break;
    case P::ONE:
      v = !unordered && x != y;
      break;
    case P::ORD:
      v = !unordered;
      break;
    case P::UEQ:
      v = unordered || x == y;
      break;
    case P::UGT:
      v = unordered || x > y;
      break;
    case P::UGE:
      v = unordered || x >= y;
      break;
    case P::ULT:
      v = unordered || x < y;
      break;
    case P::ULE:
      v = unordered || x <= y;
      break;
    case P::UNE:
      v = unordered || x != y;
      break;
    case P::UNO:
      v = unordered;
      break;
    case P::AlwaysTrue:
      v = true;
      break;
    }
    r.i[k] = v;
  }
  ctx.bind(cmp, std::move(r));
  return success();
}

LogicalResult runSelect(ExecContext &ctx, Operation *op) {
  auto select = cast<arith::SelectOp>(op);
  const Tensor &c = ctx.tensor(select.getCondition());
  if (!isa<RankedTensorType>(select.getCondition().getType())) {
    ctx.bind(select, ctx.shared(c.i[0] ? select.getTrueValue() : select.getFalseValue()));
    return success();
  }
  const Tensor &a = ctx.tensor(select.getTrueValue()), &b = ctx.tensor(select.getFalseValue());
  Tensor r(a.dtype, a.shape);
  for (int64_t k = 0; k < r.size(); ++k)
    r.copyElement(k, c.i[k] ? a : b, k);
  ctx.bind(select, std::move(r));
  return success();
}

} // namespace

void registerArithOps(OpTable &t) {
  t.add<arith::ConstantOp>(runConstant);
  t.add<arith::CmpIOp>(runCmpI);
  t.add<arith::CmpFOp>(runCmpF);
  t.add<arith::SelectOp>(runSelect);

  FLOAT_BINARY(arith::AddFOp, a + b);
  FLOAT_BINARY(arith::SubFOp, a - b);
  FLOAT_BINARY(arith::MulFOp, a * b);
  FLOAT_BINARY(arith::DivFOp, a / b);
  FLOAT_BINARY(arith::RemFOp, std::fmod(a, b));
  FLOAT_BINARY(arith::MaximumFOp, maximumF(a, b));
  FLOAT_BINARY(arith::MinimumFOp, minimumF(a, b));
  FLOAT_BINARY(arith::MaxNumFOp, maxNumF(a, b));
  FLOAT_BINARY(arith::MinNumFOp, minNumF(a, b));
  t.add<arith::NegFOp>([](ExecContext &ctx, Operation *op) { return mapFloat(ctx, op, [](double a) { return -a; }); });

  INT_BINARY(arith::AddIOp, s64(u(a) + u(b)));
  INT_BINARY(arith::SubIOp, s64(u(a) - u(b)));
  INT_BINARY(arith::MulIOp, s64(u(a) * u(b)));
  INT_BINARY(arith::AndIOp, a & b);
  INT_BINARY(arith::OrIOp, a | b);
  INT_BINARY(arith::XOrIOp, a ^ b);
  INT_BINARY(arith::DivSIOp, divS(signedValue(a, dt), signedValue(b, dt)));
  INT_BINARY(arith::RemSIOp, remS(signedValue(a, dt), signedValue(b, dt)));
  INT_BINARY(arith::FloorDivSIOp, floorDivS(signedValue(a, dt), signedValue(b, dt)));
  INT_BINARY(arith::CeilDivSIOp, ceilDivS(signedValue(a, dt), signedValue(b, dt)));
  INT_BINARY(arith::DivUIOp, unsignedValue(b, dt) == 0 ? Opt() : Opt(s64(unsignedValue(a, dt) / unsignedValue(b, dt))));
  INT_BINARY(arith::RemUIOp, unsignedValue(b, dt) == 0 ? Opt() : Opt(s64(unsignedValue(a, dt) % unsignedValue(b, dt))));
  INT_BINARY(arith::CeilDivUIOp, unsignedValue(b, dt) == 0
                                     ? Opt()
                                     : Opt(s64(unsignedValue(a, dt) / unsignedValue(b, dt) +
                                               (unsignedValue(a, dt) % unsignedValue(b, dt) != 0))));
  INT_BINARY(arith::MaxSIOp, signedValue(a, dt) >= signedValue(b, dt) ? a : b);
  INT_BINARY(arith::MinSIOp, signedValue(a, dt) <= signedValue(b, dt) ? a : b);
  INT_BINARY(arith::MaxUIOp, unsignedValue(a, dt) >= unsignedValue(b, dt) ? a : b);
  INT_BINARY(arith::MinUIOp, unsignedValue(a, dt) <= unsignedValue(b, dt) ? a : b);
  INT_BINARY(arith::ShLIOp, unsignedValue(b, dt) >= intWidth(dt) ? 0 : s64(u(a) << unsignedValue(b, dt)));
  INT_BINARY(arith::ShRUIOp,
             unsignedValue(b, dt) >= intWidth(dt) ? 0 : s64(unsignedValue(a, dt) >> unsignedValue(b, dt)));
  INT_BINARY(arith::ShRSIOp, unsignedValue(b, dt) >= intWidth(dt) ? (signedValue(a, dt) < 0 ? -1 : 0)
                                                                  : signedValue(a, dt) >> unsignedValue(b, dt));
}

} // namespace tile::interp
