// libFuzzer target over the kernel metadata reader (tile-kernel/1, runtime/KernelMetadata):
// any text gives metadata or an rt::Error(InvalidMetadata), never a crash or another exception
// (an uncaught one aborts, which libFuzzer reports). Metadata that parses must survive toJson
// and parse back to the same JSON.

#include "runtime/Error.h"
#include "runtime/KernelMetadata.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tile::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  KernelMetadata md;
  try {
    md = parseKernelMetadata(text, "fuzz.json");
  } catch (const Error &e) {
    if (e.kind() != Error::Kind::InvalidMetadata)
      std::abort();
    return 0;
  }
  std::string json = toJson(md);
  if (toJson(parseKernelMetadata(json, "again.json")) != json)
    std::abort();
  return 0;
}
