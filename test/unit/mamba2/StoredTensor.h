// The interpreter backend of the Mamba-2 interpreted tests, and a float64 tensor stored in a
// kernel dtype in one of its buffers (with the values that dtype holds, for the references).
#pragma once

#include "compiler/interpreter/DType.h"
#include "kernels/mamba2/HostTensor.h"
#include "runtime/jit/Backend.h"

#include "runtime/jit/TuneSettings.h"

#include <string>
#include <vector>

namespace tile::mamba2::test {

// The backend of the interpreted tests: the interpreter, through the same API the GPU uses.
inline jit::Backend &interpreter() {
  static jit::Backend backend([] {
    jit::BackendOptions options;
    options.choice = jit::BackendOptions::Choice::Interpreter;
    return options;
  }());
  return backend;
}

// The interpreter with TILE_AUTOTUNE_FORCE's `rules` ("compute_out:1;bwd_chunk:2"): each named
// kernel runs in that configuration.
inline jit::BackendOptions interpreterForcing(const std::string &rules) {
  jit::BackendOptions options;
  options.choice = jit::BackendOptions::Choice::Interpreter;
  jit::TuneSettings tuning;
  tuning.force = jit::parseForceRules(rules);
  options.tuning = tuning;
  return options;
}

// A tensor stored in a kernel dtype in a buffer of the backend (optionally as a view whose last
// dimension is padded by 3 elements, like a slice of a wider projection), and the float64
// values it holds.
struct Stored {
  jit::Buffer buffer;
  rt::ArrayArg array;
  Tensor rounded;

  Stored(const Tensor &values, interp::DType dtype, bool strided, jit::Backend &backend = interpreter())
      : rounded(values.shape) {
    Shape storage = values.shape;
    if (strided)
      storage.back() += 3;
    const Shape strides = contiguousStrides(storage);
    const unsigned size = interp::dtypeSize(dtype);
    std::vector<unsigned char> bytes(size_t(numElements(storage)) * size, 0);
    for (int64_t i = 0; i < values.numElements(); ++i) {
      int64_t rest = i, off = 0;
      for (size_t d = values.shape.size(); d-- > 0;) {
        off += rest % values.shape[d] * strides[d];
        rest /= values.shape[d];
      }
      unsigned char *p = bytes.data() + off * size;
      if (interp::isInteger(dtype)) { // seq_idx: whole numbers
        interp::writeInt(p, dtype, static_cast<int64_t>(values.data[size_t(i)]));
        rounded.data[size_t(i)] = static_cast<double>(interp::readInt(p, dtype));
        continue;
      }
      interp::writeFloat(p, dtype, values.data[size_t(i)]);
      rounded.data[size_t(i)] = interp::readFloat(p, dtype);
    }
    buffer = backend.upload(bytes);
    array = buffer.array(dtype, values.shape, strides);
  }
};

} // namespace tile::mamba2::test
