// libFuzzer target over the .npy reader (runtime/npy): any bytes give an NpyArray or an
// rt::Error, never a crash, a sanitizer report, another exception or an allocation beyond the
// input's size. An array that parses is written back and must read back with the same shape.
// The first byte picks the reader options.

#include "runtime/Error.h"
#include "runtime/npy/Npy.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tile::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  NpyReadOptions options;
  options.int16AsBFloat16 = data[0] & 1;
  std::string bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  NpyArray a;
  try {
    a = parseNpy(bytes, "fuzz.npy", options);
  } catch (const Error &) {
    return 0;
  }
  if (a.values.size() != size_t(a.numElements()) || a.raw.size() != a.values.size() * dtypeSize(a.dtype))
    std::abort();
  std::string again;
  try {
    again = encodeNpy(a.shape, a.values.data(), a.values.size(), a.dtype);
  } catch (const Error &) {
    // int64 and uint64 travel through double and may round to 2^63 or 2^64, which the writer
    // refuses.
    if (a.dtype != DType::Int64 && a.dtype != DType::UInt64)
      std::abort();
    return 0;
  }
  NpyArray b = parseNpy(again, "again.npy");
  if (b.shape != a.shape || b.dtype != a.dtype)
    std::abort();
  return 0;
}
