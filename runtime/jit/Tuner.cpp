#include "runtime/jit/Tuner.h"

#include "runtime/Error.h"
#include "runtime/File.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace tile::jit {

const char *tuneSourceName(TuneSource source) {
  switch (source) {
  case TuneSource::Tuned:
    return "tuned";
  case TuneSource::Cached:
    return "cached";
  case TuneSource::Imported:
    return "imported";
  case TuneSource::Forced:
    return "forced";
  case TuneSource::Disabled:
    return "disabled";
  case TuneSource::NotInTable:
    return "not in table";
  case TuneSource::Only:
    return "only one";
  }
  return "?";
}

double TuneDecision::msOf(unsigned config) const {
  for (const TuneRow &row : rows)
    if (row.config == config && row.status == TuneRow::Status::Timed)
      return row.ms;
  return 0;
}

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string labels(const std::vector<TuneCandidate> &candidates) {
  std::string s;
  for (const TuneCandidate &c : candidates)
    s += (s.empty() ? "" : "; ") + std::to_string(c.config) + ": " + c.label();
  return s;
}

std::string oneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  if (s.size() > 300)
    s = s.substr(0, 297) + "...";
  return s;
}

std::mutex &stderrMutex() {
  static std::mutex m;
  return m;
}

} // namespace

Tuner::Tuner(std::string cacheDir, TuneSettings settings, Log log)
    : dir_(std::move(cacheDir)), settings_(std::move(settings)), log_(std::move(log)) {
  if (!log_)
    log_ = [](const std::string &line) {
      std::lock_guard<std::mutex> lock(stderrMutex());
      std::cerr << line << "\n";
    };
  if (!settings_.table.empty())
    importTable(settings_.table);
}

void Tuner::warn(const std::string &message) const { log_(message); }

Tuner::Stats Tuner::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

std::string Tuner::pathFor(const TuneKey &key) const { return dir_ + "/" + key.digest + ".tune"; }

std::optional<TuneDecision> Tuner::forced(const TuneKey &key, const std::vector<TuneCandidate> &candidates) const {
  // Rules naming this kernel win over rules for every kernel.
  std::vector<const ForceRule *> rules;
  for (const ForceRule &r : settings_.force)
    if (r.kernel == key.kernel)
      rules.push_back(&r);
  if (rules.empty())
    for (const ForceRule &r : settings_.force)
      if (r.kernel.empty())
        rules.push_back(&r);
  if (rules.empty())
    return std::nullopt;
  const ForceRule &rule = *rules.front();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const TuneCandidate &c = candidates[i];
    bool match = !rule.index || c.config == *rule.index ||
                 std::find(c.merged.begin(), c.merged.end(), *rule.index) != c.merged.end();
    for (auto &[name, value] : rule.constants) {
      auto it = c.constants.find(name);
      match = match && it != c.constants.end() && it->second == value;
    }
    if (match) {
      TuneDecision d;
      d.winner = i;
      d.source = TuneSource::Forced;
      return d;
    }
  }
  throw rt::Error(rt::Error::Kind::InvalidArgument, "TILE_AUTOTUNE_FORCE rule '" + rule.text + "' matches no " +
                                                        "configuration of " + key.summary +
                                                        " (its configurations: " + labels(candidates) + ")");
}

std::optional<TuneDecision> Tuner::fromRecord(const TuneRecord &record, const TuneKey &key,
                                              const std::vector<TuneCandidate> &candidates, TuneSource source,
                                              const std::string &origin) {
  if (record.keyText != key.text) {
    warn("tile-cc autotune: ignoring " + origin + " (it was written for another key); re-tuning " + key.summary);
    return std::nullopt;
  }
  if (record.winner >= candidates.size() || candidates[record.winner].config != record.config ||
      candidates[record.winner].label() != record.label) {
    warn("tile-cc autotune: ignoring " + origin + " (its winner, configuration " + std::to_string(record.config) +
         " '" + record.label + "', is not among the candidates); re-tuning " + key.summary);
    return std::nullopt;
  }
  TuneDecision d;
  d.winner = record.winner;
  d.source = source;
  d.rows = record.rows;
  return d;
}

std::optional<TuneRecord> Tuner::loadFile(const TuneKey &key) {
  if (dir_.empty())
    return std::nullopt;
  const std::string path = pathFor(key);
  auto bad = [&](const std::string &why, bool removeIt) -> std::optional<TuneRecord> {
    warn("tile-cc autotune: ignoring " + std::string(removeIt ? "corrupt" : "unreadable") + " tuning file " + path +
         " (" + why + "); re-tuning");
    if (removeIt)
      ::unlink(path.c_str());
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.badFiles;
    return std::nullopt;
  };
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return errno == ENOENT ? std::nullopt : bad(std::strerror(errno), false);
  if (S_ISLNK(st.st_mode))
    return bad("a symbolic link; the tuner writes only regular files", true);
  if (!S_ISREG(st.st_mode))
    return bad("not a regular file; it is left alone", false);
  try {
    return parseTuneRecord(rt::readRegularFile(path, kMaxTuneFileBytes), path);
  } catch (const rt::Error &e) {
    std::string why = e.what();
    if (why.compare(0, path.size() + 2, path + ": ") == 0)
      why = why.substr(path.size() + 2);
    return bad(why, e.kind() == rt::Error::Kind::InvalidMetadata || uint64_t(st.st_size) > kMaxTuneFileBytes);
  } catch (const std::exception &e) { // bad_alloc and the like: as good as corrupt
    return bad(e.what(), true);
  }
}

void Tuner::storeFile(const TuneKey &key, const TuneRecord &record) {
  if (dir_.empty())
    return;
  const std::string path = pathFor(key);
  std::string error;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  std::string tmp = ec ? "" : rt::writeTempFileNextTo(path, toJson(record), error);
  if (ec)
    error = "cannot create " + dir_ + ": " + ec.message();
  if (!tmp.empty() && std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot rename " + tmp + " into place: " + std::strerror(errno);
    std::remove(tmp.c_str());
    tmp.clear();
  }
  if (tmp.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (storeFailed_)
      return;
    storeFailed_ = true;
    // Only the next process pays: it tunes again.
    log_("tile-cc autotune: " + error + " (decisions are not kept on disk)");
  }
}

std::optional<TuneDecision> Tuner::known(const TuneKey &key, const std::vector<TuneCandidate> &candidates) {
  if (candidates.empty())
    throw rt::Error(rt::Error::Kind::InvalidArgument, "autotune of " + key.summary + ": no configurations");
  if (std::optional<TuneDecision> d = forced(key, candidates))
    return d;
  if (settings_.mode == TuneMode::Off)
    return TuneDecision{0, TuneSource::Disabled, {}, 0};
  if (candidates.size() == 1)
    return TuneDecision{0, TuneSource::Only, {}, 0};
  std::optional<TuneRecord> record;
  TuneSource source = TuneSource::Cached;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = imported_.find(key.digest); it != imported_.end())
      record = it->second, source = TuneSource::Imported;
    else if (auto it = memory_.find(key.digest); it != memory_.end())
      record = it->second;
  }
  bool fromFile = false;
  if (!record && (record = loadFile(key)))
    fromFile = true;
  if (record) {
    std::string origin = source == TuneSource::Imported
                             ? "the imported decision for " + key.summary
                             : (fromFile ? "tuning file " + pathFor(key) : "the decision in memory for " + key.summary);
    if (std::optional<TuneDecision> d = fromRecord(*record, key, candidates, source, origin)) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (source == TuneSource::Imported)
        ++stats_.importHits;
      else if (fromFile)
        ++stats_.fileHits, memory_[key.digest] = *record;
      else
        ++stats_.memoryHits;
      return d;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (fromFile)
      ++stats_.badFiles;
  }
  if (settings_.mode == TuneMode::TableOnly) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (notedMisses_.insert(key.digest).second)
      log_("tile-cc autotune: no decision for " + key.summary + " in the table or the cache; running configuration " +
           std::to_string(candidates[0].config) + " (TILE_AUTOTUNE=table never times)");
    return TuneDecision{0, TuneSource::NotInTable, {}, 0};
  }
  return std::nullopt;
}

TuneDecision Tuner::choose(const TuneKey &key, const std::vector<TuneCandidate> &candidates, TuneTimer &timer) {
  if (std::optional<TuneDecision> d = known(key, candidates))
    return *d;
  TuneDecision d = tune(key, candidates, timer);
  TuneRecord record{
      key.kernel, key.text, key.summary, unsigned(d.winner), candidates[d.winner].config, candidates[d.winner].label(),
      d.rows};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.tunings;
    memory_[key.digest] = record;
  }
  storeFile(key, record);
  if (settings_.print)
    log_(formatTuneTable(key, candidates, d));
  return d;
}

TuneDecision Tuner::tune(const TuneKey &key, const std::vector<TuneCandidate> &candidates, TuneTimer &timer) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  auto elapsedMs = [&] { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); };
  std::vector<std::string> errors = timer.prepare(candidates.size());
  errors.resize(candidates.size());
  TuneDecision d;
  d.source = TuneSource::Tuned;
  std::optional<size_t> best;
  double bestMs = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    TuneRow row;
    row.config = candidates[i].config;
    row.label = candidates[i].label();
    if (settings_.progress && elapsedMs() > settings_.progressAfterMs)
      log_("tile-cc autotune: " + key.summary + ": configuration " + std::to_string(i + 1) + "/" +
           std::to_string(candidates.size()) + " (" + row.label + "), " + std::to_string(int(elapsedMs())) +
           " ms so far");
    if (!errors[i].empty()) {
      row.status = TuneRow::Status::Failed;
      row.reason = "does not compile: " + oneLine(errors[i]);
      d.rows.push_back(std::move(row));
      continue;
    }
    try {
      if (settings_.warmup)
        timer.time(i, settings_.warmup);
      std::vector<double> probe = timer.time(i, 1);
      double probeMs = probe.empty() ? 0 : probe[0];
      if (best && probeMs > settings_.discardFactor * bestMs) {
        row.status = TuneRow::Status::Discarded;
        row.ms = probeMs;
        row.launches = 1;
        char why[96];
        std::snprintf(why, sizeof why, "probe %.4g ms > %.3gx the best so far", probeMs, settings_.discardFactor);
        row.reason = why;
      } else {
        double perLaunch = std::max(probeMs, 1e-3);
        unsigned n = unsigned(std::clamp(settings_.targetMs / perLaunch, double(settings_.minLaunches),
                                         double(std::max(settings_.minLaunches, settings_.maxLaunches))));
        std::vector<double> times = timer.time(i, n);
        row.ms = median(times);
        row.launches = unsigned(times.size());
        if (!best || row.ms < bestMs)
          best = i, bestMs = row.ms;
      }
    } catch (const std::exception &e) {
      row.status = TuneRow::Status::Failed;
      row.reason = "does not launch: " + oneLine(e.what());
    }
    d.rows.push_back(std::move(row));
  }
  d.tuneMs = elapsedMs();
  if (!best) {
    std::string why;
    for (const TuneRow &row : d.rows)
      why += "\n  configuration " + std::to_string(row.config) + " (" + row.label + "): " + row.reason;
    throw rt::Error(rt::Error::Kind::InvalidArgument, "autotune of " + key.summary + ": no configuration runs:" + why);
  }
  d.winner = *best;
  return d;
}

void Tuner::importTable(const std::string &path) {
  std::string text;
  try {
    text = rt::readRegularFile(path, kMaxTuneFileBytes);
  } catch (const rt::Error &e) {
    throw rt::Error(rt::Error::Kind::Io, std::string("cannot read tuning table ") + e.what());
  }
  importRecords(parseTuneTable(text, path));
}

void Tuner::importRecords(const std::vector<TuneRecord> &records) {
  std::lock_guard<std::mutex> lock(mutex_);
  // The digest is recomputed from the key text: a table cannot name one key and mean another.
  for (const TuneRecord &r : records)
    imported_[tuneDigest(r.keyText)] = r;
}

std::vector<TuneRecord> Tuner::records() const {
  std::map<std::string, TuneRecord> all;
  if (!dir_.empty()) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
      const std::filesystem::path &p = it->path();
      if (p.extension() != ".tune" || !it->is_regular_file(ec))
        continue;
      try {
        TuneRecord r = parseTuneRecord(rt::readRegularFile(p.string(), kMaxTuneFileBytes), p.string());
        // A file under another key's name is not exported (load would not trust it either).
        if (p.stem().string() == tuneDigest(r.keyText))
          all[p.stem().string()] = std::move(r);
      } catch (const rt::Error &) {
        // Corrupt files are the tuner's to report when it needs them; a table leaves them out.
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto &[digest, r] : memory_)
    all[digest] = r;
  for (auto &[digest, r] : imported_)
    all[digest] = r;
  std::vector<TuneRecord> out;
  for (auto &[digest, r] : all)
    out.push_back(std::move(r));
  return out;
}

void Tuner::exportTable(const std::string &path) const {
  std::string error;
  std::string tmp = rt::writeTempFileNextTo(path, tableToJson(records()), error);
  if (tmp.empty())
    throw rt::Error(rt::Error::Kind::Io, "cannot write tuning table " + path + ": " + error);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw rt::Error(rt::Error::Kind::Io, "cannot write tuning table " + path + ": " + why);
  }
}

std::string formatTuneTable(const TuneKey &key, const std::vector<TuneCandidate> &candidates,
                            const TuneDecision &decision) {
  std::string out = "tile-cc autotune: " + key.summary + ": " + tuneSourceName(decision.source) + ", configuration " +
                    std::to_string(candidates[decision.winner].config) + " (" + candidates[decision.winner].label() +
                    ")";
  if (decision.source == TuneSource::Tuned) {
    char took[48];
    std::snprintf(took, sizeof took, " in %.0f ms", decision.tuneMs);
    out += took;
  }
  const double best = decision.msOf(candidates[decision.winner].config);
  for (const TuneRow &row : decision.rows) {
    char line[160];
    std::snprintf(line, sizeof line, "\n  %s config %-3u %-24s %-9s ",
                  row.config == candidates[decision.winner].config ? "*" : " ", row.config, row.label.c_str(),
                  tuneRowStatusName(row.status));
    out += line;
    if (row.status != TuneRow::Status::Failed) {
      std::snprintf(line, sizeof line, "%9.4f ms x%-3u", row.ms, row.launches);
      out += line;
      if (best > 0 && row.status == TuneRow::Status::Timed) {
        std::snprintf(line, sizeof line, " %6.2fx the best", row.ms / best);
        out += line;
      }
    }
    if (!row.reason.empty())
      out += "  " + row.reason;
  }
  return out;
}

} // namespace tile::jit
