// tile-run's arguments: arrays built from "NAME=DTYPE:SHAPE[:FILL[:LAYOUT]]" (owning their
// memory), scalars from "NAME=DTYPE:VALUE", and printing arrays after a run.
#pragma once

#include "compiler/interpreter/HostArray.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tile::run {

struct ArrayArg {
  std::string name;
  std::string file; // NAME=@FILE.npy: the file the elements came from ("" for a fill)
  interp::DType dtype = interp::DType::Float32;
  std::vector<int64_t> shape;
  std::vector<char> bytes;
  interp::HostArray view; // over `bytes`; row-major, or column-major with LAYOUT colmajor
};

/// FILL: zeros (default), ones, iota (element k holds k, in row-major order), random[:SEED]
/// (floats uniform in [-1, 1), integers in [-100, 100), unsigned ones in [0, 200)), full=V. LAYOUT: rowmajor, colmajor.
/// NAME=@FILE.npy instead reads the array from a .npy file: dtype and shape from the file
/// (float16, bfloat16 as '<V2', float32, float64, int32, int64; Fortran order is transposed).
bool parseArrayArg(const std::string &text, ArrayArg &array, std::string &error);

/// The dtypes --save can write (those .npy files hold and runtime/npy writes), or why not:
/// "" when `array` can be saved.
std::string checkSavable(const ArrayArg &array);
/// The .npy bytes of `array` (its logical elements in row-major order, whatever its layout).
std::string npyBytes(const ArrayArg &array);
bool parseScalarArg(const std::string &text, std::string &name, interp::LaunchArg &arg, std::string &error);

/// Calls f(k, offset) for each element of `view` in row-major order: k counts elements, offset
/// is the element's position from view.data in elements (through the view's strides).
template <typename F> void forEachElement(const interp::HostArray &view, F f) {
  std::vector<int64_t> index(view.shape.size(), 0);
  for (int64_t k = 0, n = view.numElements(); k < n; ++k) {
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d)
      offset += index[d] * view.strides[d];
    f(k, offset);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < view.shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// "name: dtype (shape)" and the elements as nested rows, one innermost row per line.
void printArray(const ArrayArg &array, int precision, llvm::raw_ostream &os);

} // namespace tile::run
