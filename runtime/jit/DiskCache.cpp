#include "runtime/jit/DiskCache.h"

#include "runtime/Error.h"
#include "runtime/File.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace tile::jit {

static constexpr const char *kMagic = "TILE-CACHE/1";

uint64_t checksum(const std::string &data) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

static bool makeDirectories(const std::string &path) {
  std::string partial;
  std::stringstream ss(path);
  std::string part;
  if (!path.empty() && path[0] == '/')
    partial = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty())
      continue;
    partial += part + "/";
    if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

DiskCache DiskCache::fromEnvironment() {
  if (const char *flag = std::getenv("TILE_CACHE"); flag && std::string(flag) == "0")
    return DiskCache("");
  if (const char *dir = std::getenv("TILE_CACHE_DIR"); dir && *dir)
    return DiskCache(dir);
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return DiskCache(std::string(xdg) + "/tile-cc");
  if (const char *home = std::getenv("HOME"); home && *home)
    return DiskCache(std::string(home) + "/.cache/tile-cc");
  return DiskCache("");
}

std::string DiskCache::pathFor(const std::string &key) const { return dir_ + "/" + key + ".tkc"; }

std::string DiskCache::serializeEntry(const CacheEntry &entry) {
  std::string data = std::string(kMagic) + "\n" + std::to_string(entry.metadata.size()) + " " +
                     std::to_string(entry.binary.size()) + "\n" + entry.metadata + entry.binary;
  uint64_t sum = checksum(data);
  for (int i = 0; i < 8; ++i)
    data.push_back(static_cast<char>((sum >> (8 * i)) & 0xff));
  return data;
}

std::optional<CacheEntry> DiskCache::parseEntry(const std::string &data, std::string &why) {
  // Layout: MAGIC '\n' <metadata size> ' ' <binary size> '\n' <metadata> <binary> <8-byte checksum>
  if (data.size() < 8) {
    why = "truncated";
    return std::nullopt;
  }
  std::string body = data.substr(0, data.size() - 8);
  uint64_t stored = 0;
  for (int i = 0; i < 8; ++i)
    stored |= uint64_t(static_cast<unsigned char>(data[data.size() - 8 + i])) << (8 * i);
  if (stored != checksum(body)) {
    why = "checksum mismatch";
    return std::nullopt;
  }
  // The header by hand, digits only: istream's >> would take "-1" as SIZE_MAX.
  size_t pos = 0;
  auto number = [&](char end, size_t &out) {
    size_t start = pos;
    out = 0;
    while (pos < body.size() && body[pos] >= '0' && body[pos] <= '9' && pos - start < 19)
      out = out * 10 + size_t(body[pos++] - '0');
    return pos > start && pos < body.size() && body[pos++] == end;
  };
  size_t magicSize = std::char_traits<char>::length(kMagic), metaSize = 0, binSize = 0;
  if (body.compare(0, magicSize, kMagic) != 0 || body.size() <= magicSize || body[magicSize] != '\n') {
    why = "bad header";
    return std::nullopt;
  }
  pos = magicSize + 1;
  if (!number(' ', metaSize) || !number('\n', binSize)) {
    why = "bad header";
    return std::nullopt;
  }
  // Compared without adding, so absurd sizes cannot wrap around.
  if (metaSize > body.size() - pos || binSize != body.size() - pos - metaSize) {
    why = "sizes do not match";
    return std::nullopt;
  }
  CacheEntry entry;
  entry.metadata = body.substr(pos, metaSize);
  entry.binary = body.substr(pos + metaSize, binSize);
  return entry;
}

std::optional<CacheEntry> DiskCache::load(const std::string &key,
                                          const std::function<void(const std::string &)> &warn) const {
  if (!enabled())
    return std::nullopt;
  const std::string path = pathFor(key);
  // Whatever sits at the key, the answer is an entry or a miss: never an exception.
  auto ignore = [&](const std::string &why, bool removeIt) -> std::optional<CacheEntry> {
    warn("tile-cc cache: ignoring " + std::string(removeIt ? "corrupt" : "unreadable") + " entry " + path + " (" + why +
         "); recompiling");
    if (removeIt)
      ::unlink(path.c_str()); // a file or a link, never what a link points to
    return std::nullopt;
  };
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT)
      return std::nullopt; // a plain miss
    return ignore(std::strerror(errno), false);
  }
  if (S_ISLNK(st.st_mode))
    return ignore("a symbolic link; the cache writes only regular files", true);
  if (S_ISDIR(st.st_mode))
    return ignore("a directory, not a cache file; it is left alone", false);
  if (!S_ISREG(st.st_mode))
    return ignore("not a regular file; it is left alone", false);
  std::string data;
  try {
    data = rt::readRegularFile(path, kMaxEntryBytes);
  } catch (const rt::Error &e) {
    // Too large is corrupt (the cache never writes such files); unreadable is left alone.
    bool tooLarge = uint64_t(st.st_size) > kMaxEntryBytes;
    std::string why = e.what();
    why = why.compare(0, path.size() + 2, path + ": ") == 0 ? why.substr(path.size() + 2) : why;
    return ignore(why, tooLarge);
  }
  std::string why;
  if (auto entry = parseEntry(data, why))
    return entry;
  return ignore(why, true);
}

bool DiskCache::store(const std::string &key, const CacheEntry &entry, std::string &error) const {
  return storeEntry(key, entry, error) == StoreResult::Stored;
}

DiskCache::StoreResult DiskCache::storeEntry(const std::string &key, const CacheEntry &entry,
                                             std::string &error) const {
  if (!enabled())
    return StoreResult::Stored;
  if (!makeDirectories(dir_)) {
    error = "cannot create cache directory " + dir_ + ": " + std::strerror(errno);
    return StoreResult::DirectoryUnusable;
  }
  std::string data = serializeEntry(entry);
  // The one writer (runtime/File.h): flushed, checked, and a file size limit is an error here
  // rather than SIGXFSZ killing the application.
  std::string why;
  std::string tmp = rt::writeTempFileNextTo(pathFor(key), data, why);
  if (tmp.empty()) {
    error = "cannot write a cache entry in " + dir_ + ": " + why;
    return StoreResult::DirectoryUnusable;
  }
  if (std::rename(tmp.c_str(), pathFor(key).c_str()) != 0) {
    error = "cannot rename " + tmp + " into place: " + std::strerror(errno);
    std::remove(tmp.c_str());
    return StoreResult::EntryUnusable;
  }
  return StoreResult::Stored;
}

void DiskCache::storeOrWarn(const std::string &key, const CacheEntry &entry,
                            const std::function<void(const std::string &)> &warn) {
  if (!enabled())
    return;
  struct stat st;
  if (::lstat(pathFor(key).c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return; // load() reported it; a rename onto it could only fail
  std::string error;
  switch (storeEntry(key, entry, error)) {
  case StoreResult::Stored:
    return;
  case StoreResult::EntryUnusable:
    warn("tile-cc cache: " + error + " (the kernel is not cached on disk)");
    return;
  case StoreResult::DirectoryUnusable:
    // One warning, then no more disk cache in this process: every later store would fail alike.
    if (!disabled_->exchange(true))
      warn("tile-cc cache: " + error + " (continuing without the disk cache)");
    return;
  }
}

void DiskCache::remove(const std::string &key) const {
  if (enabled())
    std::remove(pathFor(key).c_str());
}

} // namespace tile::jit
