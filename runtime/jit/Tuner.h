// The autotuner: which of a kernel's configurations to launch for a key (TuneKey.h).
//
// On the first launch of a new key it times every candidate through a TuneTimer (warm-up,
// a probe that drops candidates clearly slower than the best so far, then repeated timed
// launches whose median counts), skips the ones that do not compile or launch (saying why),
// and keeps the winner in memory and in `<cache dir>/<digest>.tune` (written to a temporary
// file and renamed into place), where later processes find it. A tuning file that is corrupt,
// truncated or written for another key is reported once and re-tuned, never trusted.
// TuneSettings.h has the knobs (off, forced, table-only, printing); tables of decisions are
// exported and imported as JSON (TuneRecord.h).
//
// The tuner never launches anything itself: the caller launches the winner afterwards, which
// is what it sees (the timed launches wrote the same outputs before it). A kernel that reads
// what it writes (accumulates into an output) must be given a timer that restores the output
// before each launch, or must not be tuned.
#pragma once

#include "runtime/jit/TuneKey.h"
#include "runtime/jit/TuneRecord.h"
#include "runtime/jit/TuneSettings.h"
#include "runtime/jit/TuneTimer.h"

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tile::jit {

/// Where a decision came from.
enum class TuneSource {
  Tuned,      // timed now
  Cached,     // this process's memory, or the tuning file of an earlier process
  Imported,   // an imported table
  Forced,     // TILE_AUTOTUNE_FORCE / TuneSettings::force
  Disabled,   // TILE_AUTOTUNE=0: the first candidate
  NotInTable, // TILE_AUTOTUNE=table and no decision known: the first candidate
  Only,       // a single candidate: nothing to time
};
/// "tuned", "cached", "imported", "forced", "disabled", "not in table", "only one".
const char *tuneSourceName(TuneSource source);

struct TuneDecision {
  std::size_t winner = 0; // index into the candidates
  TuneSource source = TuneSource::Only;
  std::vector<TuneRow> rows; // the tuning's table, when there was one (also for cached ones)
  double tuneMs = 0;         // wall-clock time of the tuning (Tuned only)
  /// The median of the row of `config` (0 when it was not timed).
  double msOf(unsigned config) const;
};

class Tuner {
public:
  using Log = std::function<void(const std::string &)>;
  /// `cacheDir` empty: decisions live in memory only. `log` (default: a line on stderr) gets
  /// warnings, progress and the printed tables. Imports settings.table when set (throws
  /// rt::Error for a bad table).
  explicit Tuner(std::string cacheDir = "", TuneSettings settings = {}, Log log = {});

  const TuneSettings &settings() const { return settings_; }
  const std::string &cacheDir() const { return dir_; }

  /// The decision for `key` that needs no timing (forced, disabled, one candidate, in memory,
  /// imported or in the tuning file), or nullopt when choose() would time. Throws
  /// rt::Error(InvalidArgument) when a forcing rule matches no candidate.
  std::optional<TuneDecision> known(const TuneKey &key, const std::vector<TuneCandidate> &candidates);
  /// known(), else times the candidates with `timer` and keeps the winner. Throws
  /// rt::Error(InvalidArgument) listing every candidate's reason when none runs.
  TuneDecision choose(const TuneKey &key, const std::vector<TuneCandidate> &candidates, TuneTimer &timer);

  /// Adds a table's decisions (they take precedence over tuning files); throws rt::Error
  /// (Io or InvalidMetadata) naming the file and the bad field.
  void importTable(const std::string &path);
  void importRecords(const std::vector<TuneRecord> &records);
  /// Every decision known: this process's and those of the tuning files in the cache folder.
  std::vector<TuneRecord> records() const;
  /// records() as a table, written atomically; throws rt::Error(Io).
  void exportTable(const std::string &path) const;

  struct Stats {
    unsigned tunings = 0, memoryHits = 0, fileHits = 0, importHits = 0, badFiles = 0;
  };
  Stats stats() const;
  /// The tuning file of `key`.
  std::string pathFor(const TuneKey &key) const;

private:
  std::optional<TuneDecision> forced(const TuneKey &key, const std::vector<TuneCandidate> &candidates) const;
  std::optional<TuneDecision> fromRecord(const TuneRecord &record, const TuneKey &key,
                                         const std::vector<TuneCandidate> &candidates, TuneSource source,
                                         const std::string &origin);
  std::optional<TuneRecord> loadFile(const TuneKey &key);
  void storeFile(const TuneKey &key, const TuneRecord &record);
  TuneDecision tune(const TuneKey &key, const std::vector<TuneCandidate> &candidates, TuneTimer &timer);
  void warn(const std::string &message) const;

  std::string dir_;
  TuneSettings settings_;
  Log log_;
  mutable std::mutex mutex_;
  std::map<std::string, TuneRecord> memory_;   // by digest: tuned or read in this process
  std::map<std::string, TuneRecord> imported_; // by digest
  std::set<std::string> notedMisses_;          // TableOnly keys already reported
  bool storeFailed_ = false;                   // reported once
  Stats stats_;
};

/// A tuning's table for TILE_AUTOTUNE_PRINT and tools: one line per candidate.
std::string formatTuneTable(const TuneKey &key, const std::vector<TuneCandidate> &candidates,
                            const TuneDecision &decision);

} // namespace tile::jit
