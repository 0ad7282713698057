#include "compiler/interpreter/Tensor.h"

namespace tile::interp {

Tensor::Tensor(DType dtype, std::vector<int64_t> shape) : dtype(dtype), shape(std::move(shape)) {
  int64_t n = numElements(this->shape);
  if (isFloat())
    f.assign(n, 0.0);
  else
    i.assign(n, 0);
}

Tensor Tensor::scalarFloat(DType dtype, double v) {
  Tensor t(dtype, {});
  t.f[0] = roundToFloat(v, dtype);
  return t;
}

Tensor Tensor::scalarInt(DType dtype, int64_t v) {
  Tensor t(dtype, {});
  t.i[0] = wrapInt(v, dtype);
  return t;
}

int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

std::vector<int64_t> unravelIndex(int64_t k, const std::vector<int64_t> &shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = k % shape[d];
    k /= shape[d];
  }
  return index;
}

bool nextIndex(std::vector<int64_t> &index, const std::vector<int64_t> &shape) {
  for (size_t d = shape.size(); d-- > 0;) {
    if (++index[d] < shape[d])
      return true;
    index[d] = 0;
  }
  return false;
}

} // namespace tile::interp
