#include "runtime/jit/Prebuilt.h"

#include "runtime/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>

namespace tile::jit {

// Layout: FORMAT '\n' <count> '\n', then per record <key> ' ' ('E' | 'F') ' ' <size> '\n'
// <size bytes>: a disk-cache entry file (E) or a compile's error message (F).
std::string writePrebuiltArchive(std::vector<PrebuiltRecord> records) {
  std::sort(records.begin(), records.end(), [](auto &a, auto &b) { return a.key < b.key; });
  std::string out = std::string(kPrebuiltFormat) + "\n" + std::to_string(records.size()) + "\n";
  for (const PrebuiltRecord &r : records) {
    std::string payload = r.entry ? DiskCache::serializeEntry(*r.entry) : r.error;
    out += r.key + (r.entry ? " E " : " F ") + std::to_string(payload.size()) + "\n" + payload;
  }
  return out;
}

namespace {

// Reads the header fields by hand, digits and key characters only, never past the end.
struct Reader {
  std::string_view bytes;
  std::size_t pos = 0;

  bool number(char end, std::size_t &out) {
    std::size_t start = pos;
    out = 0;
    while (pos < bytes.size() && bytes[pos] >= '0' && bytes[pos] <= '9' && pos - start < 18)
      out = out * 10 + std::size_t(bytes[pos++] - '0');
    return pos > start && pos < bytes.size() && bytes[pos++] == end;
  }
  bool word(char end, std::string &out) {
    std::size_t start = pos;
    while (pos < bytes.size() && std::isalnum(static_cast<unsigned char>(bytes[pos])) && pos - start < 128)
      ++pos;
    out = std::string(bytes.substr(start, pos - start));
    return pos > start && pos < bytes.size() && bytes[pos++] == end;
  }
};

} // namespace

PrebuiltArchive PrebuiltArchive::parse(std::string_view bytes, std::string origin) {
  PrebuiltArchive archive;
  archive.bytes_ = bytes;
  archive.origin_ = std::move(origin);
  auto fail = [&](const std::string &why) -> PrebuiltArchive {
    throw rt::Error(rt::Error::Kind::InvalidMetadata, archive.origin_ + ": " + why);
  };
  const std::string header = std::string(kPrebuiltFormat) + "\n";
  if (bytes.substr(0, header.size()) != header)
    return fail(std::string("not a ") + kPrebuiltFormat + " archive");
  Reader in{bytes, header.size()};
  std::size_t count = 0;
  if (!in.number('\n', count))
    return fail("bad record count");
  for (std::size_t i = 0; i < count; ++i) {
    std::string key, kind;
    std::size_t size = 0;
    if (!in.word(' ', key) || !in.word(' ', kind) || (kind != "E" && kind != "F") || !in.number('\n', size))
      return fail("record " + std::to_string(i) + ": bad header");
    if (size > bytes.size() - in.pos) // compared without adding: an absurd size cannot wrap
      return fail("record " + std::to_string(i) + ": truncated");
    if (!archive.index_.emplace(key, Span{kind == "F", in.pos, size}).second)
      return fail("record " + std::to_string(i) + ": key " + key + " appears twice");
    in.pos += size;
  }
  if (in.pos != bytes.size())
    return fail("bytes after the last record");
  return archive;
}

std::optional<PrebuiltRecord> PrebuiltArchive::find(const std::string &key,
                                                    const std::function<void(const std::string &)> &warn) const {
  auto it = index_.find(key);
  if (it == index_.end())
    return std::nullopt;
  const Span &span = it->second;
  PrebuiltRecord record;
  record.key = key;
  std::string payload(bytes_.substr(span.offset, span.size));
  if (span.failed) {
    record.error = std::move(payload);
    return record;
  }
  std::string why;
  record.entry = DiskCache::parseEntry(payload, why);
  if (!record.entry) {
    warn("tile-cc: ignoring the prebuilt kernel " + key + " of " + origin_ + " (" + why + "); compiling it");
    return std::nullopt;
  }
  return record;
}

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<PrebuiltArchive>> archives;
  std::vector<std::string> origins; // every origin offered, the malformed ones too
};

Registry &registry() {
  static Registry r;
  return r;
}

bool prebuiltEnabled() {
  const char *flag = std::getenv("TILE_PREBUILT");
  return !(flag && std::string(flag) == "0");
}

} // namespace

void addPrebuilt(std::string_view bytes, const std::string &origin) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (std::find(r.origins.begin(), r.origins.end(), origin) != r.origins.end())
    return;
  r.origins.push_back(origin);
  try {
    r.archives.push_back(std::make_unique<PrebuiltArchive>(PrebuiltArchive::parse(bytes, origin)));
  } catch (const rt::Error &e) {
    std::cerr << "tile-cc: ignoring prebuilt kernels: " << e.what() << "; kernels are compiled instead\n";
  }
}

std::optional<PrebuiltRecord> findPrebuilt(const std::string &key,
                                           const std::function<void(const std::string &)> &warn) {
  if (!prebuiltEnabled())
    return std::nullopt;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &archive : r.archives)
    if (auto record = archive->find(key, warn))
      return record;
  return std::nullopt;
}

std::size_t prebuiltKernelCount() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::size_t n = 0;
  for (const auto &archive : r.archives)
    n += archive->size();
  return n;
}

} // namespace tile::jit
