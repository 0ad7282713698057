// A CUDA event, for timing work on a stream (the autotuner's clock).
#pragma once

#include "runtime/Stream.h"

namespace tile::rt {

class Event {
public:
  explicit Event(const Device &device);
  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  void record(const Stream &stream);
  void synchronize() const;
  /// Milliseconds from `start` to `end`, both recorded (waits for `end`).
  static float elapsedMs(const Event &start, const Event &end);

private:
  Device device_;
  void *handle_ = nullptr; // CUevent
};

} // namespace tile::rt
