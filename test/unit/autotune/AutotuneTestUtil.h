// A scripted TuneTimer and temporary folders: the tuner's logic tested without a GPU.
#pragma once

#include "runtime/jit/Tuner.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tile::jit::test {

/// Times each candidate from a script: `ms[i]` per launch (a negative value: time() throws
/// "out of resources"), `compileErrors[i]` non-empty: prepare() reports it. Counts the calls.
class ScriptedTimer : public TuneTimer {
public:
  std::vector<double> ms;
  std::map<size_t, std::string> compileErrors;
  std::atomic<unsigned> prepares{0};
  std::map<size_t, unsigned> launches; // per candidate, every launch asked for

  explicit ScriptedTimer(std::vector<double> perLaunch) : ms(std::move(perLaunch)) {}

  std::vector<std::string> prepare(size_t count) override {
    ++prepares;
    REQUIRE(count == ms.size());
    std::vector<std::string> errors(count);
    for (auto &[i, e] : compileErrors)
      errors[i] = e;
    return errors;
  }
  std::vector<double> time(size_t index, unsigned n) override {
    REQUIRE(index < ms.size());
    launches[index] += n;
    if (ms[index] < 0)
      throw std::runtime_error("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: too many resources requested for launch");
    return std::vector<double>(n, ms[index]);
  }
  unsigned totalLaunches() const {
    unsigned n = 0;
    for (auto &[i, c] : launches)
      n += c;
    return n;
  }
};

/// Candidates 0..n-1 with a constant BQ = 16 << i.
inline std::vector<TuneCandidate> candidates(size_t n) {
  std::vector<TuneCandidate> c;
  for (size_t i = 0; i < n; ++i)
    c.push_back({unsigned(i), {{"BQ", std::to_string(16 << i)}}});
  return c;
}

inline TuneKey key(const std::string &kernel, const std::string &shape = "64", const std::string &device = "H200") {
  return TuneKey::make(kernel, {{"key.headdim", shape}, {"device", device}}, kernel + " headdim=" + shape);
}

inline std::string tempDir() {
  char dir[] = "/tmp/tile-tune-test-XXXXXX";
  REQUIRE(mkdtemp(dir));
  return dir;
}

inline std::vector<std::string> filesIn(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void writeFile(const std::string &path, const std::string &data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

/// Collects what a tuner logs.
struct LogLines {
  std::shared_ptr<std::vector<std::string>> lines = std::make_shared<std::vector<std::string>>();
  Tuner::Log sink() {
    auto l = lines;
    return [l](const std::string &s) { l->push_back(s); };
  }
  bool contains(const std::string &text) const {
    for (const std::string &s : *lines)
      if (s.find(text) != std::string::npos)
        return true;
    return false;
  }
};

/// Settings that time quickly and print no progress.
inline TuneSettings quiet() {
  TuneSettings s;
  s.progress = false;
  return s;
}

} // namespace tile::jit::test
