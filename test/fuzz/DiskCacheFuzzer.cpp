// libFuzzer target over the JIT's disk-cache entry reader (runtime/jit/DiskCache): any bytes at
// a key give an entry or a miss with one warning, never an exception or a crash. When the first
// byte is odd the rest gets a valid checksum appended, so the header and size checks behind the
// checksum are reached. Each input is also written to a cache directory and loaded from there.

#include "runtime/jit/DiskCache.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace tile::jit;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/tile-cache-fuzz-XXXXXX";
    const char *d = mkdtemp(tmpl);
    return std::string(d ? d : "/tmp");
  }();
  if (size < 1)
    return 0;
  std::string bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  if (data[0] & 1) {
    uint64_t sum = checksum(bytes);
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<char>((sum >> (8 * i)) & 0xff));
  }
  std::string why;
  std::optional<CacheEntry> parsed = DiskCache::parseEntry(bytes, why);
  if (parsed.has_value() == !why.empty())
    std::abort();

  DiskCache cache(dir);
  {
    std::ofstream out(cache.pathFor("k"), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }
  int warnings = 0;
  std::optional<CacheEntry> loaded = cache.load("k", [&](const std::string &) { ++warnings; });
  // The same verdict from the file; a corrupt entry is reported exactly once and removed.
  if (loaded.has_value() != parsed.has_value() || warnings != (parsed ? 0 : 1) ||
      (!parsed && access(cache.pathFor("k").c_str(), F_OK) == 0))
    std::abort();
  if (parsed && (loaded->metadata != parsed->metadata || loaded->binary != parsed->binary))
    std::abort();
  // An entry that loads stores and loads back unchanged.
  if (parsed) {
    cache.storeOrWarn("k", *parsed, [](const std::string &) { std::abort(); });
    auto again = cache.load("k", [](const std::string &) { std::abort(); });
    if (!again || again->metadata != parsed->metadata || again->binary != parsed->binary)
      std::abort();
  }
  return 0;
}
