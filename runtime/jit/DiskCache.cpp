#include "runtime/jit/DiskCache.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
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

std::optional<CacheEntry> DiskCache::load(const std::string &key,
                                          const std::function<void(const std::string &)> &warn) const {
  if (!enabled())
    return std::nullopt;
  std::ifstream in(pathFor(key), std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto corrupt = [&](const std::string &why) -> std::optional<CacheEntry> {
    warn("tile-cc cache: ignoring corrupt entry " + pathFor(key) + " (" + why + "); recompiling");
    remove(key);
    return std::nullopt;
  };
  // Layout: MAGIC '\n' <metadata bytes> '\n' <binary bytes> '\n' <body> <8-byte checksum>
  if (data.size() < 8)
    return corrupt("truncated");
  std::string body = data.substr(0, data.size() - 8);
  uint64_t stored = 0;
  for (int i = 0; i < 8; ++i)
    stored |= uint64_t(static_cast<unsigned char>(data[data.size() - 8 + i])) << (8 * i);
  if (stored != checksum(body))
    return corrupt("checksum mismatch");
  std::istringstream header(body);
  std::string magic;
  size_t metaSize = 0, binSize = 0;
  if (!std::getline(header, magic) || magic != kMagic || !(header >> metaSize >> binSize) || header.get() != '\n')
    return corrupt("bad header");
  size_t start = static_cast<size_t>(header.tellg());
  if (start + metaSize + binSize != body.size())
    return corrupt("sizes do not match");
  CacheEntry entry;
  entry.metadata = body.substr(start, metaSize);
  entry.binary = body.substr(start + metaSize, binSize);
  return entry;
}

bool DiskCache::store(const std::string &key, const CacheEntry &entry, std::string &error) const {
  if (!enabled())
    return true;
  if (!makeDirectories(dir_)) {
    error = "cannot create cache directory " + dir_;
    return false;
  }
  std::string body = std::string(kMagic) + "\n" + std::to_string(entry.metadata.size()) + " " +
                     std::to_string(entry.binary.size()) + "\n" + entry.metadata + entry.binary;
  uint64_t sum = checksum(body);
  std::string data = body;
  for (int i = 0; i < 8; ++i)
    data.push_back(static_cast<char>((sum >> (8 * i)) & 0xff));
  std::random_device rd;
  std::string tmp = pathFor(key) + ".tmp." + std::to_string(getpid()) + "." + std::to_string(rd());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out.good()) {
      error = "cannot write " + tmp;
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), pathFor(key).c_str()) != 0) {
    error = "cannot rename " + tmp + " into place";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

void DiskCache::remove(const std::string &key) const {
  if (enabled())
    std::remove(pathFor(key).c_str());
}

}  // namespace tile::jit
