// How the autotuner rounds what a decision depends on (key= values, block counts): up to a
// power of two, so a decision serves a range of shapes. Shared by the tuner's keys (TuneKey.h)
// and the decisions compiled into launchers (Embedded.h), which must round alike.
#pragma once

#include <cstdint>

namespace tile::rt {

/// The smallest power of two >= v (0 for v <= 0; 2^62 for anything above it).
inline std::int64_t bucketPow2(std::int64_t v) {
  if (v <= 0)
    return 0;
  std::int64_t p = 1;
  while (p < v && p < (std::int64_t(1) << 62))
    p *= 2;
  return p;
}

} // namespace tile::rt
