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

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace tile::jit {

struct CacheEntry {
  std::string metadata; // tile-kernel/1 JSON
  std::string binary;   // cubin, or PTX text
};

class DiskCache {
public:
  /// The cache configured by the environment (disabled when TILE_CACHE=0 or no directory).
  static DiskCache fromEnvironment();
  explicit DiskCache(std::string directory) : dir_(std::move(directory)) {}

  /// No cubin comes near this; a larger file at a key is corrupt.
  static constexpr uint64_t kMaxEntryBytes = uint64_t(1) << 30;

  /// False when configured off, or after storeOrWarn found the directory unwritable.
  bool enabled() const { return !dir_.empty() && !*disabled_; }
  const std::string &directory() const { return dir_; }

  /// The entry for `key`, or nullopt when absent, corrupt or unreadable; never throws. Anything
  /// but a valid entry or nothing at the key is reported once through `warn`: a corrupt file
  /// (truncated, bad checksum or header, over kMaxEntryBytes) or a symbolic link is removed; a
  /// directory, another non-regular file or a file it may not read is left alone.
  std::optional<CacheEntry> load(const std::string &key, const std::function<void(const std::string &)> &warn) const;
  /// Stores an entry atomically; false (with `error`) when the directory is not writable.
  bool store(const std::string &key, const CacheEntry &entry, std::string &error) const;
  /// store() as the JIT wants it: a failure is a warning, never an error; an unwritable
  /// directory is reported once and turns the disk cache off (in every copy of this cache).
  void storeOrWarn(const std::string &key, const CacheEntry &entry,
                   const std::function<void(const std::string &)> &warn);

  /// The bytes of an entry file (what store() writes and parseEntry() reads back).
  static std::string serializeEntry(const CacheEntry &entry);
  /// Parses the bytes of an entry file; nullopt with `why` when they are not a valid entry.
  static std::optional<CacheEntry> parseEntry(const std::string &data, std::string &why);
  /// Removes an entry (after it failed to load on the device, say).
  void remove(const std::string &key) const;

  /// The file holding `key`.
  std::string pathFor(const std::string &key) const;

private:
  enum class StoreResult { Stored, EntryUnusable, DirectoryUnusable };
  StoreResult storeEntry(const std::string &key, const CacheEntry &entry, std::string &error) const;

  std::string dir_;
  std::shared_ptr<std::atomic<bool>> disabled_ = std::make_shared<std::atomic<bool>>(false);
};

/// FNV-1a, 64 bit: the entry checksum (detects truncation and bit rot, not tampering).
uint64_t checksum(const std::string &data);

} // namespace tile::jit
