#include "kernels/mamba2/HostTensor.h"

namespace tile::mamba2 {

std::string shapeString(const Shape &shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::int64_t numElements(const Shape &shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    n *= d;
  return n;
}

Shape contiguousStrides(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

TensorView::TensorView(const double *data, Shape shape, Shape strides)
    : data(data), shape(std::move(shape)), strides(std::move(strides)) {
  if (this->strides.empty())
    this->strides = contiguousStrides(this->shape);
}

double TensorView::operator()(std::initializer_list<std::int64_t> index) const {
  std::int64_t off = 0;
  const std::int64_t *stride = strides.data();
  for (std::int64_t i : index)
    off += i * *stride++;
  return data[off];
}

double TensorView::atLinear(std::int64_t linear) const {
  std::int64_t off = 0;
  for (std::size_t k = shape.size(); k-- > 0;) {
    off += (linear % shape[k]) * strides[k];
    linear /= shape[k];
  }
  return data[off];
}

Tensor::Tensor(Shape shape, double fill)
    : shape(std::move(shape)), data(std::size_t(mamba2::numElements(this->shape)), fill) {}

Tensor Tensor::copyOf(const TensorView &view) {
  Tensor t(view.shape);
  for (std::int64_t i = 0; i < t.numElements(); ++i)
    t.data[std::size_t(i)] = view.atLinear(i);
  return t;
}

std::int64_t Tensor::offset(std::initializer_list<std::int64_t> index) const {
  std::int64_t off = 0;
  std::size_t k = 0;
  for (std::int64_t i : index)
    off = off * shape[k++] + i;
  return off;
}

double &Tensor::operator()(std::initializer_list<std::int64_t> index) { return data[std::size_t(offset(index))]; }

double Tensor::operator()(std::initializer_list<std::int64_t> index) const { return data[std::size_t(offset(index))]; }

} // namespace tile::mamba2
