// The part of tuning that touches the device, behind an interface so the tuner's logic
// (Tuner.h) is tested without a GPU by a scripted timer.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tile::jit {

class TuneTimer {
public:
  virtual ~TuneTimer() = default;
  /// Makes every candidate launchable (compiles them, concurrently where it can); returns one
  /// string per candidate: empty when it is ready, else why not (the compiler's diagnostics).
  virtual std::vector<std::string> prepare(std::size_t count) = 0;
  /// Launches candidate `index` `launches` times back to back and returns each launch's time in
  /// milliseconds. Throws (any std::exception) when it cannot launch: out of resources, say.
  virtual std::vector<double> time(std::size_t index, unsigned launches) = 0;
};

} // namespace tile::jit
