#include "runtime/npy/Npy.h"

#include "runtime/Error.h"
#include "runtime/File.h"
#include "runtime/npy/SmallFloat.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tile::rt {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;

[[noreturn]] void fail(const std::string &name, const std::string &what) {
  throw Error(Error::Kind::Io, name + ": " + what);
}

std::string shapeString(const std::vector<std::int64_t> &shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

// The header is a Python dict literal written by NumPy's repr: {'descr': '<f4',
// 'fortran_order': False, 'shape': (2, 3), }. This parses exactly that grammar (either quote
// style, any key order, optional trailing commas) and nothing more: no eval, no surprises.
class HeaderParser {
public:
  HeaderParser(const std::string &text, const std::string &name) : s_(text), name_(name) {}

  void parse(std::string &descr, bool &fortran, std::vector<std::int64_t> &shape) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}')
        break;
      std::string key = parseString();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (peek() == '[')
          fail(name_, "unsupported dtype: structured arrays are not supported");
        descr = parseString();
        haveDescr = true;
      } else if (key == "fortran_order") {
        fortran = parseBool();
        haveFortran = true;
      } else if (key == "shape") {
        shape = parseShape();
        haveShape = true;
      } else {
        fail(name_, "malformed header: unknown key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',')
        ++pos_;
      else if (peek() != '}')
        error("',' or '}'");
    }
    ++pos_;
    skipSpace();
    if (pos_ != s_.size())
      error("the end of the header");
    if (!haveDescr || !haveFortran || !haveShape)
      fail(name_, std::string("malformed header: missing key '") +
                      (!haveDescr     ? "descr"
                       : !haveFortran ? "fortran_order"
                                      : "shape") +
                      "'");
  }

private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
  }
  [[noreturn]] void error(const std::string &expected) {
    // A header may be 4 GiB (version 2): quote only its start.
    const std::size_t kQuote = 200;
    std::string quoted = s_.size() > kQuote ? s_.substr(0, kQuote) + "..." : s_;
    fail(name_,
         "malformed header: expected " + expected + " at offset " + std::to_string(pos_) + " of \"" + quoted + "\"");
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c)
      error(std::string("'") + c + "'");
    ++pos_;
  }
  std::string parseString() {
    skipSpace();
    char quote = peek();
    if (quote != '\'' && quote != '"')
      error("a string");
    std::size_t end = s_.find(quote, pos_ + 1);
    if (end == std::string::npos)
      error("a closing quote");
    std::string value = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return value;
  }
  bool parseBool() {
    if (s_.compare(pos_, 4, "True") == 0)
      return pos_ += 4, true;
    if (s_.compare(pos_, 5, "False") == 0)
      return pos_ += 5, false;
    error("True or False");
  }
  std::vector<std::int64_t> parseShape() {
    std::vector<std::int64_t> shape;
    expect('(');
    while (true) {
      skipSpace();
      if (peek() == ')')
        break;
      if (peek() < '0' || peek() > '9')
        error("a dimension");
      std::int64_t d = 0;
      while (peek() >= '0' && peek() <= '9') {
        int digit = s_[pos_++] - '0';
        if (d > (std::numeric_limits<std::int64_t>::max() - digit) / 10)
          fail(name_, "malformed header: dimension too large");
        d = d * 10 + digit;
      }
      shape.push_back(d);
      skipSpace();
      if (peek() == ',')
        ++pos_;
      else if (peek() != ')')
        error("',' or ')'");
    }
    ++pos_;
    return shape;
  }

  const std::string &s_;
  const std::string &name_;
  std::size_t pos_ = 0;
};

// The descr each dtype is written with; read back from it too, and from the same descr with the
// other byte-order mark for one-byte types ('<i1' as '|i1'). Little-endian only: every machine
// we target is.
struct DescrOf {
  DType dtype;
  const char *descr;
};
constexpr DescrOf kDescrs[] = {{DType::Float16, "<f2"}, {DType::BFloat16, "<V2"}, {DType::Float32, "<f4"},
                               {DType::Float64, "<f8"}, {DType::Bool, "|b1"},     {DType::Int8, "|i1"},
                               {DType::Int32, "<i4"},   {DType::Int64, "<i8"},    {DType::UInt8, "|u1"},
                               {DType::UInt32, "<u4"},  {DType::UInt64, "<u8"}};

// The dtype a descr denotes, or nullopt.
std::optional<DType> dtypeOfDescr(const std::string &descr, const NpyReadOptions &options) {
  if ((descr == "<u2" || descr == "<i2") && options.int16AsBFloat16)
    return DType::BFloat16;
  for (const DescrOf &d : kDescrs) {
    // Byte order does not apply to one-byte elements nor to raw bytes: '|' or '<' alike.
    bool orderless = d.descr[0] == '|' || d.dtype == DType::BFloat16;
    bool mark = descr[0] == d.descr[0] || (orderless && (descr[0] == '<' || descr[0] == '|'));
    if (descr.size() == 3 && mark && descr.compare(1, 2, d.descr + 1) == 0)
      return d.dtype;
  }
  return std::nullopt;
}

std::uint64_t loadLE(const std::uint8_t *p, unsigned size) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i)
    v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

void storeLE(std::string &out, std::uint64_t v, unsigned size) {
  for (unsigned i = 0; i < size; ++i)
    out.push_back(char((v >> (8 * i)) & 0xff));
}

double decode(const std::uint8_t *p, DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return fromFloat16Bits(std::uint16_t(loadLE(p, 2)));
  case DType::BFloat16:
    return fromBFloat16Bits(std::uint16_t(loadLE(p, 2)));
  case DType::Float32: {
    std::uint32_t bits = std::uint32_t(loadLE(p, 4));
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case DType::Float64: {
    std::uint64_t bits = loadLE(p, 8);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  case DType::Int8:
    return double(std::int8_t(std::uint8_t(p[0])));
  case DType::Int32:
    return double(std::int32_t(std::uint32_t(loadLE(p, 4))));
  case DType::Bool:
    return p[0] != 0 ? 1.0 : 0.0; // NumPy reads any nonzero byte as True
  case DType::UInt8:
  case DType::UInt32:
  case DType::UInt64:
    return double(loadLE(p, dtypeSize(dtype))); // beyond 2^53 it rounds
  default:
    return double(std::int64_t(loadLE(p, 8))); // Int64 (beyond 2^53 it rounds)
  }
}

std::string errnoText() { return std::strerror(errno); }

} // namespace

std::int64_t NpyArray::numElements() const {
  // Unsigned: a zero-sized array may have other dimensions whose product overflows.
  std::uint64_t n = 1;
  for (std::int64_t d : shape) {
    if (d == 0)
      return 0;
    n *= std::uint64_t(d);
  }
  return std::int64_t(n);
}

NpyArray parseNpy(const std::string &bytes, const std::string &name, const NpyReadOptions &options) {
  if (bytes.size() < kMagicSize || bytes.compare(0, kMagicSize, kMagic, kMagicSize) != 0)
    fail(name, "not a .npy file (bad magic: expected \\x93NUMPY)");
  if (bytes.size() < kMagicSize + 2)
    fail(name, "truncated header (no version)");
  const unsigned major = std::uint8_t(bytes[6]), minor = std::uint8_t(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                   " (1.0, 2.0 and 3.0 are supported)");
  const unsigned lengthSize = major == 1 ? 2 : 4;
  const std::size_t headerStart = kMagicSize + 2 + lengthSize;
  if (bytes.size() < headerStart)
    fail(name, "truncated header (no header length)");
  const std::uint64_t headerLength = loadLE(reinterpret_cast<const std::uint8_t *>(bytes.data()) + 8, lengthSize);
  if (bytes.size() - headerStart < headerLength)
    fail(name, "truncated header: " + std::to_string(headerLength) + " bytes announced, " +
                   std::to_string(bytes.size() - headerStart) + " present");

  NpyArray array;
  bool fortran = false;
  HeaderParser(bytes.substr(headerStart, headerLength), name).parse(array.descr, fortran, array.shape);
  std::optional<DType> dtype = dtypeOfDescr(array.descr, options);
  if (!dtype) {
    std::string hint;
    if (array.descr == "<u2" || array.descr == "<i2")
      hint = "; if it holds bfloat16 bit patterns, read it with int16AsBFloat16";
    else if (!array.descr.empty() && array.descr[0] == '>')
      hint = "; big-endian data is not supported";
    fail(name, "unsupported dtype '" + array.descr +
                   "' (supported: <f2, <f4, <f8, |i1, <i4, <i8, |u1, <u4, <u8, |b1, and bfloat16 as <V2)" + hint);
  }
  array.dtype = *dtype;

  const unsigned itemSize = dtypeSize(array.dtype);
  std::uint64_t count = 1;
  for (std::int64_t d : array.shape) {
    if (d != 0 && count > std::uint64_t(std::numeric_limits<std::int64_t>::max()) / itemSize / std::uint64_t(d))
      fail(name, "shape " + shapeString(array.shape) + " is too large");
    count *= std::uint64_t(d);
  }
  const std::size_t dataStart = headerStart + headerLength;
  const std::uint64_t dataBytes = count * itemSize, present = bytes.size() - dataStart;
  if (present < dataBytes)
    fail(name, "truncated data: shape " + shapeString(array.shape) + " of " + array.descr + " needs " +
                   std::to_string(dataBytes) + " bytes, the file has " + std::to_string(present));
  if (present > dataBytes)
    fail(name, std::to_string(present - dataBytes) + " unexpected bytes after the data of shape " +
                   shapeString(array.shape) + " of " + array.descr);

  // C order out; a Fortran-order file is read by walking the C-order multi-index and
  // computing each element's column-major offset.
  const auto *data = reinterpret_cast<const std::uint8_t *>(bytes.data()) + dataStart;
  array.raw.resize(dataBytes);
  array.values.resize(count);
  const std::size_t rank = array.shape.size();
  std::vector<std::int64_t> index(rank, 0);
  // Column-major strides; only with elements, when every product is at most `count` (a
  // zero-sized file may declare dimensions whose product overflows).
  std::vector<std::uint64_t> fstride(rank, 1);
  if (count > 0)
    for (std::size_t k = 1; k < rank; ++k)
      fstride[k] = fstride[k - 1] * std::uint64_t(array.shape[k - 1]);
  for (std::uint64_t n = 0; n < count; ++n) {
    std::uint64_t src = n;
    if (fortran) {
      src = 0;
      for (std::size_t k = 0; k < rank; ++k)
        src += std::uint64_t(index[k]) * fstride[k];
      for (std::size_t k = rank; k-- > 0;) { // odometer, last index fastest
        if (++index[k] < array.shape[k])
          break;
        index[k] = 0;
      }
    }
    std::memcpy(&array.raw[n * itemSize], data + src * itemSize, itemSize);
    array.values[n] = decode(&array.raw[n * itemSize], array.dtype);
  }
  return array;
}

NpyArray readNpy(const std::string &path, const NpyReadOptions &options) {
  // A regular file of bounded size, read in one allocation of its real size: a header cannot
  // make the reader allocate what the file does not hold.
  return parseNpy(readRegularFile(path, kMaxNpyBytes), path, options);
}

std::string encodeNpy(const std::vector<std::int64_t> &shape, const double *values, std::size_t count, DType dtype,
                      const NpyWriteOptions &options) {
  const DescrOf *found =
      std::find_if(std::begin(kDescrs), std::end(kDescrs), [&](const DescrOf &d) { return d.dtype == dtype; });
  if (found == std::end(kDescrs))
    throw Error(Error::Kind::InvalidArgument,
                std::string("encodeNpy: cannot write ") + dtypeName(dtype) + " (" + kNpyWritableDTypes + ")");
  const std::string descr = dtype == DType::BFloat16 && options.bfloat16AsUInt16 ? "<u2" : found->descr;
  std::uint64_t expected = 1;
  for (std::int64_t d : shape) {
    if (d < 0)
      throw Error(Error::Kind::InvalidArgument, "encodeNpy: negative dimension in shape " + shapeString(shape));
    expected *= std::uint64_t(d);
  }
  if (expected != count)
    throw Error(Error::Kind::InvalidArgument, "encodeNpy: shape " + shapeString(shape) + " has " +
                                                  std::to_string(expected) + " elements but " + std::to_string(count) +
                                                  " values were given");

  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeString(shape) + ", }";
  // Pad with spaces to a 64-byte boundary (NumPy's alignment), ending in '\n'.
  auto paddedEnd = [&](std::size_t prefix) { return (prefix + header.size() + 1 + 63) / 64 * 64; };
  unsigned major = paddedEnd(kMagicSize + 4) - (kMagicSize + 4) > 65535 ? 2 : 1;
  std::size_t prefix = kMagicSize + 2 + (major == 1 ? 2 : 4);
  std::size_t total = paddedEnd(prefix);
  header.append(total - prefix - header.size() - 1, ' ');
  header.push_back('\n');

  std::string out(kMagic, kMagicSize);
  out.push_back(char(major));
  out.push_back(0);
  storeLE(out, header.size(), major == 1 ? 2 : 4);
  out += header;
  out.reserve(out.size() + count * dtypeSize(dtype));
  for (std::size_t i = 0; i < count; ++i) {
    const double v = values[i];
    switch (dtype) {
    case DType::Float16:
      storeLE(out, float16Bits(v), 2);
      break;
    case DType::BFloat16:
      storeLE(out, bfloat16Bits(v), 2);
      break;
    case DType::Float32: {
      float f = float(v);
      std::uint32_t bits;
      std::memcpy(&bits, &f, 4);
      storeLE(out, bits, 4);
      break;
    }
    case DType::Float64: {
      std::uint64_t bits;
      std::memcpy(&bits, &v, 8);
      storeLE(out, bits, 8);
      break;
    }
    default: { // the integers and bool: refuse what would not survive the conversion
      const unsigned size = dtypeSize(dtype);
      const bool unsignedInt = dtype == DType::Bool || isUnsigned(dtype);
      const double span = std::ldexp(1.0, dtype == DType::Bool ? 1 : int(8 * size));
      const double lo = unsignedInt ? 0.0 : -span / 2, hi = unsignedInt ? span : span / 2;
      if (!(v == std::trunc(v) && v >= lo && v < hi))
        throw Error(Error::Kind::InvalidArgument, "encodeNpy: value " + std::to_string(v) + " at index " +
                                                      std::to_string(i) + " is not representable as " +
                                                      dtypeName(dtype));
      storeLE(out, v >= 0x1p63 ? std::uint64_t(v) : std::uint64_t(std::int64_t(v)), size);
    }
    }
  }
  return out;
}

void writeNpy(const std::string &path, const std::vector<std::int64_t> &shape, const std::vector<double> &values,
              DType dtype, const NpyWriteOptions &options) {
  std::string bytes = encodeNpy(shape, values.data(), values.size(), dtype, options);
  // Atomic: a temporary file in the same folder, renamed over `path` once every byte is
  // written, so a failure (disk full, file size limit) leaves an existing file as it was and
  // never a truncated .npy. The rename replaces a symlink rather than writing through it. An
  // existing non-regular file (/dev/null, a FIFO) is written in place.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode))
      fail(path, "cannot open for writing: it is a directory");
    std::ofstream out(path, std::ios::binary);
    if (!out)
      fail(path, "cannot open for writing: " + errnoText());
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.close();
    if (!out)
      fail(path, "write error: " + errnoText());
    return;
  }
  std::string why;
  bool created = false;
  std::string temp = writeTempFileNextTo(path, bytes, why, &created);
  if (temp.empty())
    fail(path, (created ? "write error: " : "cannot open for writing: ") + why);
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    why = errnoText();
    ::unlink(temp.c_str());
    fail(path, "write error: " + why);
  }
}

} // namespace tile::rt
