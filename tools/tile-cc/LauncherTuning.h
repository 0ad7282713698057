// The autotuner's decisions that `tile-cc --emit=launcher --config all --tuning-table FILE`
// compiles into a launcher: the records of a tile-tune-table/1 file (what the tuner exports,
// TuneRecord.h) that were tuned for this kernel specialization, reduced to what a launch can
// tell at run time — the device's name, the key= values and the block count.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tile::tools {

struct LauncherTuningEntry {
  std::string device;
  std::vector<std::int64_t> keyValues; // per LauncherTuning::keyNames, rounded as the tuner does
  std::int64_t blocks = 0;             // rounded likewise
  unsigned config = 0;                 // the @ct.autotune index that won
};

struct LauncherTuning {
  std::vector<std::string> keyNames; // the kernel's key= names, in its order
  std::vector<LauncherTuningEntry> entries;
};

/// What a record must have been tuned for to fit the launcher, as the tuner's keys spell it
/// (TuneKey.h): the kernel, its source's digest, the constants no configuration sets ("I:V",
/// the value's kind and formatConstant), the arguments ("dtype:rank"), each configuration's
/// label (TuneCandidate::label) and the key= names.
struct LauncherTuningSpec {
  std::string kernel;
  std::string sourceDigest;
  std::map<std::string, std::string> constants;
  std::map<std::string, std::string> args;
  std::vector<std::string> configLabels;
  std::vector<std::string> keyNames;
};

/// Reads the table at `path` and keeps the decisions that fit `spec`; every decision for the
/// kernel that does not fit, or repeats one already kept (another driver or compiler version),
/// adds a note saying why. False with `error` when the file cannot be read or parsed (the
/// message names the file and the field).
bool readLauncherTuning(const std::string &path, const LauncherTuningSpec &spec, LauncherTuning &tuning,
                        std::vector<std::string> &notes, std::string &error);

} // namespace tile::tools
