// Tuning decisions as JSON: the file the tuner keeps per key next to the JIT's module cache
// (`<cache dir>/<digest>.tune`, format "tile-tune/1"), and the tables an application exports
// and imports ("tile-tune-table/1": a list of the same records), so it ships tuned choices.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tile::jit {

/// How one candidate fared in a tuning.
struct TuneRow {
  enum class Status { Timed, Discarded, Failed };
  unsigned config = 0;
  std::string label;
  Status status = Status::Timed;
  double ms = 0;         // median (Timed) or the probe (Discarded)
  unsigned launches = 0; // timed launches
  std::string reason;    // Failed, Discarded: why
};
/// "timed", "discarded", "failed".
const char *tuneRowStatusName(TuneRow::Status status);

struct TuneRecord {
  std::string kernel;
  std::string keyText; // TuneKey::text, compared in full
  std::string summary;
  unsigned winner = 0; // index into the candidates
  unsigned config = 0; // the winner's @ct.autotune index
  std::string label;   // the winner's TuneCandidate::label()
  std::vector<TuneRow> rows;
};

inline constexpr const char *kTuneRecordFormat = "tile-tune/1";
inline constexpr const char *kTuneTableFormat = "tile-tune-table/1";
/// Tuning files and tables larger than this are refused.
inline constexpr unsigned long long kMaxTuneFileBytes = 64ull << 20;

std::string toJson(const TuneRecord &record);
/// Parses a "tile-tune/1" record; throws rt::Error(InvalidMetadata) "ORIGIN: FIELD: problem".
TuneRecord parseTuneRecord(const std::string &text, const std::string &origin);

std::string tableToJson(const std::vector<TuneRecord> &records);
/// Parses a "tile-tune-table/1" table; throws rt::Error(InvalidMetadata) naming the entry and
/// field ("t.json: entries[2].winner: expected an integer").
std::vector<TuneRecord> parseTuneTable(const std::string &text, const std::string &origin);

/// A key's text (TuneRecord::keyText) as its fields, in order ("kernel" first), with the values
/// unescaped; fields that are not "name=value" lines are left out.
std::vector<std::pair<std::string, std::string>> tuneKeyFields(const std::string &text);

} // namespace tile::jit
