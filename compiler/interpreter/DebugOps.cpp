// tile.print and tile.assert.
//
// print: the printf format is applied per block; a tile argument prints as a bracketed,
// nested list ("[[1, 2], [3, 4]]") with the conversion applied to each element. Values are
// converted to the conversion's kind (%d of a float truncates, %f of an int converts), and
// length modifiers are ignored: every integer prints at its full value.

#include "compiler/interpreter/HostArray.h"
#include "compiler/interpreter/OpTable.h"

#include "dialect/TileDialect.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir;

namespace tile::interp {
namespace {

template <typename T> std::string cformat(const std::string &spec, T value) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), value);
  std::string s(n > 0 ? n : 0, '\0');
  if (n > 0)
    std::snprintf(s.data(), s.size() + 1, spec.c_str(), value);
  return s;
}

// One element with the conversion `conv` and its flags/width/precision `fw`.
std::string formatElement(const std::string &fw, char conv, const Tensor &t, int64_t k) {
  bool isBool = t.dtype == DType::Bool;
  // %d of a float truncates; NaN and out-of-range values saturate like fptosi.
  double clamped =
      t.isFloat() ? (std::isnan(t.f[k]) ? 0.0 : std::clamp(std::trunc(t.f[k]), -0x1p63, 0x1p63 - 1024)) : 0.0;
  long long sv = t.isFloat() ? static_cast<long long>(clamped) : isBool ? t.i[k] : signedValue(t.i[k], t.dtype);
  unsigned long long uv = t.isFloat() ? static_cast<unsigned long long>(sv) : unsignedValue(t.i[k], t.dtype);
  double fv = t.isFloat() ? t.f[k] : static_cast<double>(sv);
  switch (conv) {
  case 'd':
  case 'i':
    return cformat("%" + fw + "lld", sv);
  case 'o':
  case 'u':
  case 'x':
  case 'X':
    return cformat("%" + fw + "ll" + conv, uv);
  case 'c':
    return cformat("%" + fw + "c", static_cast<int>(sv));
  case 'p':
    return cformat("%#" + fw + "llx", uv);
  case 's':
    return t.isFloat() ? cformat("%" + fw + "g", fv) : cformat("%" + fw + "lld", sv);
  default:
    return cformat("%" + fw + conv, fv); // e E f F g G a A
  }
}

void formatTile(std::string &out, const std::string &fw, char conv, const Tensor &t, size_t dim, int64_t &k) {
  if (dim == t.shape.size()) {
    out += formatElement(fw, conv, t, k++);
    return;
  }
  out += "[";
  for (int64_t j = 0; j < t.shape[dim]; ++j) {
    if (j)
      out += ", ";
    formatTile(out, fw, conv, t, dim + 1, k);
  }
  out += "]";
}

LogicalResult runPrint(ExecContext &ctx, Operation *op) {
  auto print = cast<mlir::tile::PrintOp>(op);
  StringRef format = print.getFormat();
  std::string out;
  size_t arg = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    std::string fw;
    while (++i < format.size() && StringRef("-+ #0123456789.").contains(format[i]))
      fw += format[i];
    while (i < format.size() && StringRef("hlLzjt").contains(format[i]))
      ++i;
    if (i >= format.size() || arg >= print.getArgs().size())
      return ctx.fail(op, "malformed print format \"" + format + "\"");
    Value v = print.getArgs()[arg++];
    const Tensor &t = ctx.tensor(v);
    int64_t k = 0;
    if (isa<RankedTensorType>(v.getType()))
      formatTile(out, fw, format[i], t, 0, k);
    else
      out += formatElement(fw, format[i], t, 0);
  }
  ctx.out << out;
  ctx.out.flush();
  return success();
}

LogicalResult runAssert(ExecContext &ctx, Operation *op) {
  auto assertOp = cast<mlir::tile::AssertOp>(op);
  const Tensor &c = ctx.tensor(assertOp.getCondition());
  for (int64_t k = 0; k < c.size(); ++k) {
    if (c.i[k])
      continue;
    std::string message = assertOp.getMessage().str();
    std::string text =
        message.empty() || message == "assertion failed" ? "assertion failed" : "assertion failed: " + message;
    if (c.rank())
      text += " (element " + shapeString(unravelIndex(k, c.shape)) + " is false)";
    return ctx.fail(op, text);
  }
  return success();
}

} // namespace

void registerDebugOps(OpTable &t) {
  t.add<mlir::tile::PrintOp>(runPrint);
  t.add<mlir::tile::AssertOp>(runAssert);
}

} // namespace tile::interp
