// The interpreter backend's memory: host allocations it hands out as Buffers, and the registry
// of those alive, so a launch can tell which allocation an array argument points into (the
// interpreter then bounds every access by it) and refuse an address that is in none of them —
// a device pointer, or host memory the backend does not know the extent of.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace tile::jit {

class HostHeap {
public:
  /// Allocations are aligned like cudaMalloc's, so the same alignment assumptions hold.
  static constexpr std::size_t kAlignment = 256;

  HostHeap() = default;
  HostHeap(const HostHeap &) = delete;
  HostHeap &operator=(const HostHeap &) = delete;
  ~HostHeap();

  /// `bytes` of memory filled with 0xff bytes (NaN for every float dtype), so a kernel that
  /// reads what nobody wrote shows it. Zero bytes give a distinct, empty allocation.
  void *allocate(std::size_t bytes);
  /// Frees an allocation of this heap.
  void release(void *data);

  /// The live allocation holding the byte at `address`.
  struct Range {
    const unsigned char *begin = nullptr;
    std::size_t size = 0;
  };
  std::optional<Range> find(std::uint64_t address) const;

private:
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, std::size_t> live_; // start address -> size
};

} // namespace tile::jit
