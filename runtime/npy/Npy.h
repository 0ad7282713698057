// Reading and writing NumPy .npy files, for tools and tests that exchange tensors with Python
// (tile-ssd's --inputs/--out, reference data). Independent of the driver and of MLIR.
//
// What is accepted on read:
//   - format versions 1.0, 2.0 and 3.0 (header length 2 or 4 bytes; v3's header is UTF-8,
//     which only matters for structured-dtype field names, and those are refused anyway);
//   - dtypes '<f2' (float16), '<f4', '<f8', '|i1', '<i4', '<i8', '|u1', '<u4', '<u8', '|b1'
//     (bool), and bfloat16, which NumPy lacks:
//       * '<V2' / '|V2' (2-byte raw void) is always read as bfloat16: that is what np.save
//         writes for an ml_dtypes.bfloat16 array (load it back with
//         np.load(f).view(ml_dtypes.bfloat16));
//       * '<u2' / '<i2' (the other common convention, e.g. torch's
//         t.view(torch.int16).numpy()) is read as bfloat16 only with
//         NpyReadOptions::int16AsBFloat16; otherwise it is refused, with a hint;
//     other descrs, big-endian ('>') data and structured dtypes are refused;
//   - fortran_order True: the data is transposed on read, so an NpyArray is always in C order
//     (row-major) whatever the file held;
//   - shape () (a scalar, one element) and zero-sized dimensions.
// Errors are tile::rt::Error(Kind::Io) whose message starts with the file name: bad magic,
// unsupported version, malformed header, unsupported dtype, truncated data, trailing bytes.
//
// On write: version 1.0 (2.0 when the header would not fit), header padded to 64 bytes, C order,
// dtypes float16, bfloat16 ('<V2' by default, '<u2' with NpyWriteOptions), float32, float64,
// and the integers but 16-bit ones (values must then be integers in range; bool 0 or 1). 16-bit
// integers are neither read nor written: '<i2'/'<u2' is also a common spelling of bfloat16.
#pragma once

#include "runtime/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile::rt {

/// An array read from a .npy file, in C order.
struct NpyArray {
  DType dtype = DType::Float32; // a float dtype but tf32/fp8, or an integer dtype but 16-bit
  std::string descr;            // the file's descr, e.g. "<f4", "<V2"
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> raw; // the elements' little-endian bytes, C order
  std::vector<double> values;    // the elements converted to double (exact), C order

  std::int64_t numElements() const;
};

struct NpyReadOptions {
  /// Read '<u2' and '<i2' data as bfloat16 bit patterns.
  bool int16AsBFloat16 = false;
};

struct NpyWriteOptions {
  /// Write bfloat16 as '<u2' (bit patterns in uint16) instead of '<V2'.
  bool bfloat16AsUInt16 = false;
};

/// The dtypes encodeNpy writes, for messages.
inline constexpr const char *kNpyWritableDTypes =
    "float16, bfloat16, float32, float64, bool_, int8, int32, int64, uint8, uint32, uint64";

/// The largest .npy file readNpy reads (it holds the file, the raw bytes and the doubles).
inline constexpr std::uint64_t kMaxNpyBytes = std::uint64_t(16) << 30;

/// Reads `path`; throws Error(Kind::Io) naming the file (also for a directory or another
/// non-regular file, and for a file over kMaxNpyBytes).
NpyArray readNpy(const std::string &path, const NpyReadOptions &options = {});
/// Parses the bytes of a .npy file; `name` stands for the file in messages.
NpyArray parseNpy(const std::string &bytes, const std::string &name, const NpyReadOptions &options = {});

/// The bytes of a .npy file holding `values` (row-major, shape's product of them) rounded to
/// `dtype`. Throws Error(InvalidArgument) for an unsupported dtype, a count that does not match
/// the shape, or (int dtypes) a value that is not an integer in range.
std::string encodeNpy(const std::vector<std::int64_t> &shape, const double *values, std::size_t count, DType dtype,
                      const NpyWriteOptions &options = {});
/// Writes encodeNpy(...) to `path` atomically (a temporary file in the same folder, renamed into
/// place): on failure an existing file is left as it was. An I/O failure throws Error(Kind::Io)
/// naming the file.
void writeNpy(const std::string &path, const std::vector<std::int64_t> &shape, const std::vector<double> &values,
              DType dtype, const NpyWriteOptions &options = {});

} // namespace tile::rt
