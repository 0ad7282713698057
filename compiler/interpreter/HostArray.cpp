#include "compiler/interpreter/HostArray.h"

#include "compiler/interpreter/FloatFormat.h"

namespace tile::interp {

HostArray HostArray::contiguous(void *data, DType dtype, std::vector<int64_t> shape) {
  HostArray a;
  a.data = data;
  a.dtype = dtype;
  a.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    a.strides[d - 1] = a.strides[d] * shape[d];
  a.shape = std::move(shape);
  a.allocBegin = data;
  a.allocEnd = static_cast<char *>(data) + a.numElements() * dtypeSize(dtype);
  return a;
}

HostArray HostArray::strided(void *data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                             const void *allocBegin, const void *allocEnd) {
  HostArray a;
  a.data = data;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.strides = std::move(strides);
  a.allocBegin = allocBegin;
  a.allocEnd = allocEnd;
  return a;
}

int64_t HostArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

LaunchArg LaunchArg::of(HostArray a) {
  LaunchArg arg;
  arg.isArray = true;
  arg.dtype = a.dtype;
  arg.array = std::move(a);
  return arg;
}

LaunchArg LaunchArg::floating(DType dtype, double v) {
  LaunchArg arg;
  arg.dtype = dtype;
  if (isFloat(dtype))
    arg.floatValue = roundToFloat(v, dtype);
  else
    arg.intValue = wrapInt(static_cast<int64_t>(v), dtype);
  return arg;
}

LaunchArg LaunchArg::integer(DType dtype, int64_t v) {
  LaunchArg arg;
  arg.dtype = dtype;
  if (isFloat(dtype))
    arg.floatValue = roundToFloat(static_cast<long double>(v), dtype);
  else
    arg.intValue = wrapInt(v, dtype);
  return arg;
}

LaunchArg LaunchArg::fromBits(DType dtype, uint64_t bits) {
  if (isFloat(dtype))
    return floating(dtype, bitsToFloat(bits, dtype));
  return integer(dtype, wrapInt(static_cast<int64_t>(bits), dtype));
}

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

} // namespace tile::interp
