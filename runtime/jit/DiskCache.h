// The on-disk cache of compiled kernels.
//
// One file per key, `<dir>/<key>.tkc`: a header line, the metadata JSON, the binary (cubin or
// PTX) and a 64-bit checksum of everything before it. Files are written to a temporary name
// and renamed into place, so concurrent processes never see half an entry. An entry that fails
// its checksum or does not parse is reported once, deleted and recompiled — never trusted.
//
// Directory: $TILE_CACHE_DIR, else $XDG_CACHE_HOME/tile-cc, else ~/.cache/tile-cc.
// TILE_CACHE=0 disables the disk cache.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace tile::jit {

struct CacheEntry {
  std::string metadata;  // tile-kernel/1 JSON
  std::string binary;    // cubin, or PTX text
};

class DiskCache {
public:
  /// The cache configured by the environment (disabled when TILE_CACHE=0 or no directory).
  static DiskCache fromEnvironment();
  explicit DiskCache(std::string directory) : dir_(std::move(directory)) {}

  bool enabled() const { return !dir_.empty(); }
  const std::string &directory() const { return dir_; }

  /// The entry for `key`, or nullopt when absent or corrupt (a corrupt one is reported
  /// through `warn` and removed).
  std::optional<CacheEntry> load(const std::string &key, const std::function<void(const std::string &)> &warn) const;
  /// Stores an entry atomically; false (with `error`) when the directory is not writable.
  bool store(const std::string &key, const CacheEntry &entry, std::string &error) const;
  /// Removes an entry (after it failed to load on the device, say).
  void remove(const std::string &key) const;

  /// The file holding `key`.
  std::string pathFor(const std::string &key) const;

private:
  std::string dir_;
};

/// FNV-1a, 64 bit: the entry checksum (detects truncation and bit rot, not tampering).
uint64_t checksum(const std::string &data);

}  // namespace tile::jit
