// Kernels compiled when a library was built: the JIT finds them by its cache key before it
// looks at the disk cache or compiles, so a first call loads instead of compiling.
//
// An archive ("tile-prebuilt/1") holds, per cache key, either a disk-cache entry (metadata and
// cubin or PTX, with its checksum) or the message of a compile that failed, so that a
// configuration the compiler refuses is skipped without trying again. A key names everything
// that changes the code (compiler build, source, constants, argument types, target, options):
// another compiler, a changed kernel source or another target simply misses.
//
// Libraries register their archives (addPrebuilt); TILE_PREBUILT=0 in the environment turns
// the lookup off (to time compiles, or to rule the archive out).
#pragma once

#include "runtime/jit/DiskCache.h"

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tile::jit {

/// One key of an archive: its entry, or why it does not compile.
struct PrebuiltRecord {
  std::string key;
  std::optional<CacheEntry> entry;
  std::string error; // set when entry is empty
};

inline constexpr const char *kPrebuiltFormat = "tile-prebuilt/1";

/// The archive's bytes, records in order of their keys.
std::string writePrebuiltArchive(std::vector<PrebuiltRecord> records);

/// An archive's index over bytes it does not own (a library's own data, or a string the caller
/// keeps alive).
class PrebuiltArchive {
public:
  /// Throws rt::Error(InvalidMetadata) "ORIGIN: problem" for bytes that are not an archive.
  static PrebuiltArchive parse(std::string_view bytes, std::string origin);

  /// The record of `key`, or nothing. An entry that fails its checksum is a miss, reported
  /// through `warn` (the caller compiles instead).
  std::optional<PrebuiltRecord> find(const std::string &key,
                                     const std::function<void(const std::string &)> &warn) const;
  std::size_t size() const { return index_.size(); }
  const std::string &origin() const { return origin_; }

private:
  struct Span {
    bool failed;
    std::size_t offset, size;
  };
  std::string_view bytes_;
  std::string origin_;
  std::map<std::string, Span, std::less<>> index_;
};

/// Registers an archive for every Jit of the process (once per origin; a malformed one is
/// reported on stderr once and ignored). `bytes` must outlive the process's JITs.
void addPrebuilt(std::string_view bytes, const std::string &origin);

/// The record of `key` in the registered archives, unless TILE_PREBUILT=0.
std::optional<PrebuiltRecord> findPrebuilt(const std::string &key,
                                           const std::function<void(const std::string &)> &warn);

/// How many records the registered archives hold.
std::size_t prebuiltKernelCount();

} // namespace tile::jit
