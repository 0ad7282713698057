#include "runtime/jit/HostHeap.h"

#include "runtime/Error.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace tile::jit {

HostHeap::~HostHeap() {
  // Buffers keep their heap alive, so none is left here; free defensively all the same.
  for (auto &[address, size] : live_)
    std::free(reinterpret_cast<void *>(address));
}

void *HostHeap::allocate(std::size_t bytes) {
  // aligned_alloc wants a multiple of the alignment, and at least one byte for an address of
  // its own.
  std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded < bytes)
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "host buffer of " + std::to_string(bytes) + " bytes is too large");
  void *data = std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
  if (!data)
    throw rt::Error(rt::Error::Kind::InvalidArgument,
                    "out of host memory allocating a buffer of " + std::to_string(bytes) + " bytes");
  std::memset(data, 0xff, bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  live_.emplace(reinterpret_cast<std::uintptr_t>(data), bytes);
  return data;
}

void HostHeap::release(void *data) {
  if (!data)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    live_.erase(reinterpret_cast<std::uintptr_t>(data));
  }
  std::free(data);
}

std::optional<HostHeap::Range> HostHeap::find(std::uint64_t address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.upper_bound(static_cast<std::uintptr_t>(address));
  if (it == live_.begin())
    return std::nullopt;
  --it;
  if (address - it->first >= it->second)
    return std::nullopt;
  return Range{reinterpret_cast<const unsigned char *>(it->first), it->second};
}

} // namespace tile::jit
