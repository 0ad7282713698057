// An owned allocation of device memory, with synchronous copies to and from the host.
#pragma once

#include "runtime/Args.h"
#include "runtime/Device.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tile::rt {

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  /// `bytes` of uninitialised device memory (Error(Driver) with CUDA_ERROR_OUT_OF_MEMORY
  /// when it does not fit).
  DeviceBuffer(const Device &device, std::size_t bytes);
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  DevicePtr data() const { return ptr_; }
  std::size_t size() const { return size_; }

  /// Copies between host memory and [offset, offset + bytes) of the buffer; out-of-range
  /// requests throw Error(InvalidArgument).
  void copyFromHost(const void *src, std::size_t bytes, std::size_t offset = 0);
  void copyToHost(void *dst, std::size_t bytes, std::size_t offset = 0) const;
  /// Sets every byte, or every 32-bit word (size must be a multiple of 4).
  void fillBytes(std::uint8_t value);
  void fill32(std::uint32_t value);

  template <typename T> static DeviceBuffer fromHost(const Device &device, const std::vector<T> &values) {
    DeviceBuffer b(device, values.size() * sizeof(T));
    b.copyFromHost(values.data(), b.size());
    return b;
  }
  /// `count` elements of type T starting at element `first`.
  template <typename T> std::vector<T> toHost(std::size_t count, std::size_t first = 0) const {
    std::vector<T> out(count);
    copyToHost(out.data(), count * sizeof(T), first * sizeof(T));
    return out;
  }
  template <typename T> std::vector<T> toHost() const { return toHost<T>(size_ / sizeof(T)); }

  /// An array view of this buffer (strides in elements, empty = contiguous).
  ArrayArg array(DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides = {},
                 std::size_t byteOffset = 0) const;

private:
  void checkRange(std::size_t bytes, std::size_t offset, const char *what) const;
  std::shared_ptr<detail::DeviceState> device_; // null for an empty buffer
  DevicePtr ptr_ = 0;
  std::size_t size_ = 0;
};

} // namespace tile::rt
