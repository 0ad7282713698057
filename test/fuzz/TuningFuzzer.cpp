// libFuzzer target over the autotuner's files and the kernel package manifest: any text read
// as a tuning record (tile-tune/1), a tuning table (tile-tune-table/1) or a package manifest
// (tile-package/1) gives a value or an rt::Error(InvalidMetadata), never a crash or another
// exception. What parses must survive its writer and parse back to the same JSON.

#include "runtime/Error.h"
#include "runtime/KernelPackage.h"
#include "runtime/jit/TuneRecord.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tile;

namespace {

template <typename Parse, typename Write> void check(const std::string &text, Parse parse, Write write) {
  try {
    auto value = parse(text, "fuzz.json");
    std::string json = write(value);
    if (write(parse(json, "again.json")) != json)
      std::abort();
  } catch (const rt::Error &e) {
    if (e.kind() != rt::Error::Kind::InvalidMetadata)
      std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  check(text, jit::parseTuneRecord, [](const jit::TuneRecord &r) { return jit::toJson(r); });
  check(text, jit::parseTuneTable, [](const std::vector<jit::TuneRecord> &t) { return jit::tableToJson(t); });
  check(text, rt::parsePackageManifest, [](const rt::PackageManifest &m) { return rt::toJson(m); });
  return 0;
}
