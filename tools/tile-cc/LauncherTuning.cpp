#include "tools/tile-cc/LauncherTuning.h"

#include "runtime/Error.h"
#include "runtime/File.h"
#include "runtime/jit/TuneKey.h"
#include "runtime/jit/TuneRecord.h"

#include "tools/common/Numbers.h"

#include <limits>
#include <optional>
#include <set>

namespace tile::tools {

namespace {

// A block count or key= value as the tuner writes it: decimal digits within int64 (a longer
// number is refused, not wrapped to a negative one).
bool parseInt64(const std::string &text, std::int64_t &value) {
  std::string error;
  std::optional<std::int64_t> v = parseInt(text, 0, std::numeric_limits<std::int64_t>::max(), "", error);
  if (!v || text[0] == '+' || text[0] == '-')
    return false;
  value = *v;
  return true;
}

// Why `record` does not fit `spec` ("" when it does); its dynamic part goes to `entry`.
std::string misfit(const jit::TuneRecord &record, const LauncherTuningSpec &spec, LauncherTuningEntry &entry) {
  std::map<std::string, std::string> constants, args, keys;
  std::string source, blocks;
  bool hasDevice = false;
  for (auto &[name, value] : jit::tuneKeyFields(record.keyText)) {
    if (name.rfind("const.", 0) == 0)
      constants[name.substr(6)] = value;
    else if (name.rfind("arg.", 0) == 0)
      args[name.substr(4)] = value;
    else if (name.rfind("key.", 0) == 0)
      keys[name.substr(4)] = value;
    else if (name == "source")
      source = value;
    else if (name == "blocks")
      blocks = value;
    else if (name == "device")
      entry.device = value, hasDevice = true;
  }
  if (source != spec.sourceDigest)
    return "it was tuned for another version of the kernel's source";
  if (args != spec.args)
    return "it was tuned for other argument types than the --arg ones";
  for (auto &[name, value] : spec.constants)
    if (!constants.count(name) || constants[name] != value)
      return std::string("it was tuned with ") + (constants.count(name) ? "another value of" : "no value for") +
             " constant " + name;
  for (auto &[name, value] : constants)
    if (!spec.constants.count(name))
      return "it was tuned with constant " + name + ", which the command line does not set";
  if (!hasDevice || blocks.empty())
    return "its key has no device or block count";
  if (!parseInt64(blocks, entry.blocks))
    return "its block count '" + blocks + "' is not an integer in [0, 2^63)";
  std::set<std::string> names(spec.keyNames.begin(), spec.keyNames.end());
  if (keys.size() != names.size())
    return "its key= names differ from the kernel's";
  for (const std::string &name : spec.keyNames) {
    std::int64_t v = 0;
    if (!keys.count(name))
      return "its key has no value for key= name '" + name + "'";
    if (!parseInt64(keys[name], v))
      return "its value of key= name '" + name + "', '" + keys[name] + "', is not an integer in [0, 2^63)";
    entry.keyValues.push_back(v);
  }
  if (record.config >= spec.configLabels.size())
    return "its winner, configuration " + std::to_string(record.config) + ", is not one of the kernel's " +
           std::to_string(spec.configLabels.size());
  if (record.label != spec.configLabels[record.config])
    return "its winner '" + record.label + "' is configuration " + std::to_string(record.config) +
           " there, which is '" + spec.configLabels[record.config] + "' here";
  entry.config = record.config;
  return "";
}

} // namespace

bool readLauncherTuning(const std::string &path, const LauncherTuningSpec &spec, LauncherTuning &tuning,
                        std::vector<std::string> &notes, std::string &error) {
  tuning = LauncherTuning{spec.keyNames, {}};
  std::string text;
  try {
    text = rt::readRegularFile(path, jit::kMaxTuneFileBytes);
  } catch (const rt::Error &e) {
    // readRegularFile names the file first ("PATH: cannot open: ..."; directories, FIFOs and
    // oversized files refused alike).
    std::string why = e.what();
    if (why.rfind(path + ": ", 0) == 0)
      why = why.substr(path.size() + 2);
    error = path + ": cannot be read: " + why;
    return false;
  }
  std::vector<jit::TuneRecord> records;
  try {
    records = jit::parseTuneTable(text, path);
  } catch (const rt::Error &e) {
    error = e.what();
    return false;
  }
  for (const jit::TuneRecord &record : records) {
    if (record.kernel != spec.kernel)
      continue;
    LauncherTuningEntry entry;
    std::string why = misfit(record, spec, entry);
    bool repeated = false;
    for (const LauncherTuningEntry &kept : tuning.entries)
      if (why.empty() && kept.device == entry.device && kept.keyValues == entry.keyValues &&
          kept.blocks == entry.blocks) {
        repeated = true; // tuned again under another driver or compiler version
        if (kept.config != entry.config)
          why = "an earlier decision of the table for the same device, key= values and block count (another "
                "driver or compiler version) is kept: configuration " +
                std::to_string(kept.config);
      }
    if (!why.empty())
      notes.push_back("decision for " + record.summary + " left out: " + why);
    else if (!repeated)
      tuning.entries.push_back(std::move(entry));
  }
  return true;
}

} // namespace tile::tools
