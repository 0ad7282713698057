#include "tools/tile-run/ArraySpec.h"

#include "runtime/Error.h"
#include "runtime/npy/Npy.h"
#include "tools/common/Numbers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cinttypes>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

using namespace llvm;
using namespace tile::interp;

namespace tile::run {

namespace {

// Deterministic uniform value in [0, 1) for element k (splitmix64).
double hashUniform(uint64_t seed, uint64_t k) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + k + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

} // namespace

// NAME=@FILE.npy: the array as the file holds it, row-major (readNpy transposes Fortran order).
static bool readArrayFile(StringRef name, StringRef path, ArrayArg &a, std::string &error) {
  a.name = name.str();
  a.file = path.str();
  rt::NpyArray npy;
  try {
    npy = rt::readNpy(a.file);
  } catch (const rt::Error &e) {
    error = "--array " + a.name + ": " + e.what();
    return false;
  }
  a.dtype = npy.dtype;
  a.shape = npy.shape;
  a.bytes.assign(npy.raw.begin(), npy.raw.end());
  a.view = HostArray::contiguous(a.bytes.data(), a.dtype, a.shape);
  return true;
}

// NAME=DTYPE:SHAPE[:FILL[:LAYOUT]] or NAME=@FILE.npy
bool parseArrayArg(const std::string &text, ArrayArg &a, std::string &error) {
  StringRef rest(text);
  auto [name, spec] = rest.split('=');
  if (!name.empty() && spec.starts_with("@")) {
    if (spec.size() == 1) {
      error = "--array " + name.str() + "=@ needs a file name (NAME=@FILE.npy)";
      return false;
    }
    return readArrayFile(name, spec.drop_front(), a, error);
  }
  SmallVector<StringRef> fields;
  spec.split(fields, ':');
  if (name.empty() || fields.size() < 2) {
    error = "--array expects NAME=DTYPE:SHAPE[:FILL[:LAYOUT]] or NAME=@FILE.npy, got '" + text + "'";
    return false;
  }
  a.name = name.str();
  auto dtype = parseDType(fields[0].str());
  if (!dtype) {
    error = "--array " + a.name + ": unknown dtype '" + fields[0].str() + "'";
    return false;
  }
  a.dtype = *dtype;
  // An empty SHAPE is a rank-0 array; extents may be 0 (an empty array).
  if (!fields[1].empty()) {
    std::string inner;
    auto shape = tools::parseIntList(fields[1], 'x', 1, 8, 0, std::numeric_limits<int64_t>::max(), "", inner);
    if (!shape) {
      error = "--array " + a.name + ": bad shape '" + fields[1].str() + "': " + inner + " (expected e.g. 100x70)";
      return false;
    }
    a.shape = *shape;
  }
  // The array lives in this process: refuse what cannot be allocated instead of aborting.
  constexpr uint64_t kMaxBytes = uint64_t(16) << 30;
  unsigned size = dtypeSize(a.dtype);
  uint64_t bytes = size;
  for (int64_t d : a.shape)
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes) || bytes > kMaxBytes) {
      error = "--array " + a.name + ": shape '" + fields[1].str() + "' of " + dtypeName(a.dtype) +
              " needs more than the 16 GiB tile-run allows";
      return false;
    }
  const int64_t n = static_cast<int64_t>(bytes / size);
  a.bytes.assign(static_cast<size_t>(bytes), 0);
  StringRef fill = fields.size() > 2 ? fields[2] : "zeros";
  size_t next = 3;
  uint64_t seed = 0;
  double fullValue = 0;
  // random's optional SEED comes before the LAYOUT: a field that is not a layout is a seed.
  if (fill == "random" && fields.size() > next && fields[next] != "rowmajor" && fields[next] != "colmajor") {
    auto v =
        tools::parseInt(fields[next], 0, std::numeric_limits<int64_t>::max(), "--array " + a.name + " seed", error);
    if (!v)
      return false;
    seed = static_cast<uint64_t>(*v);
    ++next;
  }
  if (fill.starts_with("full=")) {
    // NaN and infinities are meaningful fills for float arrays (integers refuse them below).
    tools::DoubleRange any;
    any.allowNaN = any.allowInfinity = true;
    auto v = tools::parseDouble(fill.drop_front(5), "--array " + a.name + " fill", error, any);
    if (!v)
      return false;
    fullValue = *v;
  }
  if (fill != "zeros" && fill != "ones" && fill != "iota" && fill != "random" && !fill.starts_with("full=")) {
    error = "--array " + a.name + ": unknown fill '" + fill.str() + "' (zeros, ones, iota, random[:SEED], full=V)";
    return false;
  }
  // The fill chosen once (a gigabyte of elements is read per test): zeros are already there.
  const bool random = fill == "random", iota = fill == "iota";
  if (fill == "ones")
    fullValue = 1;
  const bool zeros = !random && !iota && fullValue == 0 && !std::signbit(fullValue);
  for (int64_t k = 0; k < n && !zeros; ++k) {
    double v = iota ? static_cast<double>(k) : fullValue;
    if (random)
      v = isFloat(a.dtype)          ? 2 * hashUniform(seed, k) - 1
          : rt::isUnsigned(a.dtype) ? std::floor(200 * hashUniform(seed, k))
                                    : std::floor(200 * hashUniform(seed, k)) - 100;
    char *p = a.bytes.data() + k * size;
    if (!isFloat(a.dtype) && !(std::fabs(v) < 0x1p63)) {
      error = "--array " + a.name + ": fill value " + std::to_string(v) + " does not fit an integer";
      return false;
    }
    if (isFloat(a.dtype))
      writeFloat(p, a.dtype, v);
    else
      writeInt(p, a.dtype, wrapInt(static_cast<int64_t>(v), a.dtype));
  }
  if (fields.size() > next + 1) {
    error = "--array " + a.name + ": unexpected '" + fields[next + 1].str() + "' after the layout in '" + text + "'";
    return false;
  }
  StringRef layout = fields.size() > next ? fields[next] : "";
  a.view = HostArray::contiguous(a.bytes.data(), a.dtype, a.shape);
  if (layout == "colmajor") {
    // The same logical array stored with the first dimension fastest.
    int64_t stride = 1;
    for (size_t d = 0; d < a.shape.size(); ++d) {
      a.view.strides[d] = stride;
      stride *= a.shape[d];
    }
    std::vector<char> logical = a.bytes;
    std::vector<int64_t> index(a.shape.size(), 0);
    for (int64_t k = 0; k < n; ++k) {
      int64_t off = 0;
      for (size_t d = 0; d < index.size(); ++d)
        off += index[d] * a.view.strides[d];
      std::memcpy(a.bytes.data() + off * size, logical.data() + k * size, size);
      for (size_t d = index.size(); d-- > 0;)
        if (++index[d] < a.shape[d])
          break;
        else
          index[d] = 0;
    }
  } else if (!layout.empty() && layout != "rowmajor") {
    error = "--array " + a.name + ": unknown layout '" + layout.str() + "' (rowmajor, colmajor)";
    return false;
  }
  return true;
}

bool parseScalarArg(const std::string &text, std::string &name, LaunchArg &arg, std::string &error) {
  StringRef rest(text);
  auto [n, spec] = rest.split('=');
  auto [dt, value] = spec.split(':');
  auto dtype = parseDType(dt.str());
  name = n.str();
  if (name.empty() || !dtype || value.empty()) {
    error = "--scalar expects NAME=DTYPE:VALUE with a known dtype, got '" + text + "'";
    return false;
  }
  if (isFloat(*dtype)) {
    tools::DoubleRange any;
    any.allowNaN = any.allowInfinity = true;
    auto v = tools::parseDouble(value, "--scalar " + name, error, any);
    if (!v)
      return false;
    arg = LaunchArg::floating(*dtype, *v);
  } else {
    int64_t v;
    if (value == "True" || value == "true")
      v = 1;
    else if (value == "False" || value == "false")
      v = 0;
    else {
      // The dtype's range (bool: 0 or 1): a value that does not fit would silently wrap.
      // Unsigned: [0, 2^bits - 1] (uint64 up to 2^63 - 1).
      const unsigned bits = intWidth(*dtype);
      const bool isUnsigned = rt::isUnsigned(*dtype);
      const int64_t max = bits == 1    ? 1
                          : bits >= 64 ? std::numeric_limits<int64_t>::max()
                                       : (int64_t(1) << (isUnsigned ? bits : bits - 1)) - 1;
      const int64_t min = bits == 1 || isUnsigned ? 0
                          : bits >= 64            ? std::numeric_limits<int64_t>::min()
                                                  : -(int64_t(1) << (bits - 1));
      auto parsed = tools::parseInt(value, min, max, "--scalar " + name + " (" + dtypeName(*dtype) + ")", error);
      if (!parsed)
        return false;
      v = *parsed;
    }
    arg = LaunchArg::integer(*dtype, v);
  }
  return true;
}

static std::string formatValue(const ArrayArg &a, int64_t offset, int precision) {
  const char *p = a.bytes.data() + offset * dtypeSize(a.dtype);
  char buf[64];
  if (isFloat(a.dtype))
    std::snprintf(buf, sizeof buf, "%.*g", static_cast<int>(precision), readFloat(p, a.dtype));
  else if (rt::isUnsigned(a.dtype)) // uint64 beyond 2^63 reads back as a negative int64
    std::snprintf(buf, sizeof buf, "%" PRIu64, static_cast<uint64_t>(readInt(p, a.dtype)));
  else
    std::snprintf(buf, sizeof buf, "%" PRId64, readInt(p, a.dtype));
  return buf;
}

// Nested rows, one innermost row per line, like NumPy.
void printArray(const ArrayArg &a, int precision, raw_ostream &os) {
  os << a.name << ": " << dtypeName(a.dtype) << " " << shapeString(a.shape) << "\n";
  std::function<void(size_t, int64_t)> rec = [&](size_t dim, int64_t offset) {
    if (dim == a.shape.size()) {
      os << formatValue(a, offset, precision);
      return;
    }
    os << "[";
    for (int64_t j = 0; j < a.shape[dim]; ++j) {
      if (j) {
        os << (dim + 1 == a.shape.size() ? ", " : ",\n");
        if (dim + 1 < a.shape.size())
          os.indent(dim + 1);
      }
      rec(dim + 1, offset + j * a.view.strides[dim]);
    }
    os << "]";
  };
  rec(0, 0);
  os << "\n";
}

std::string checkSavable(const ArrayArg &a) {
  switch (a.dtype) {
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float32:
  case DType::Float64:
  case DType::Int32:
  case DType::Int64:
  case DType::Bool:
  case DType::Int8:
  case DType::UInt8:
  case DType::UInt32:
  case DType::UInt64:
    return "";
  default:
    return "--save: array '" + a.name + "' is " + dtypeName(a.dtype) + ", which tile-run does not write to .npy (" +
           rt::kNpyWritableDTypes + ")";
  }
}

std::string npyBytes(const ArrayArg &a) {
  // The logical elements' bytes in row-major order (a colmajor view read through its strides),
  // copied exactly: through doubles an int64 past 2^53 would lose bits.
  const size_t size = dtypeSize(a.dtype);
  const int64_t n = a.view.numElements();
  std::string raw;
  raw.reserve(static_cast<size_t>(n) * size);
  forEachElement(a.view, [&](int64_t, int64_t offset) {
    raw.append(static_cast<const char *>(a.view.data) + offset * size, size);
  });
  // The header for this dtype and shape, then the data in the file's little-endian layout,
  // which is the array's own for every savable dtype.
  std::vector<double> zeros(static_cast<size_t>(n), 0.0);
  std::string file = rt::encodeNpy(a.shape, zeros.data(), zeros.size(), a.dtype);
  file.replace(file.size() - raw.size(), raw.size(), raw);
  return file;
}

} // namespace tile::run
