// Memory a Backend hands out: device memory on the GPU backend, host memory on the interpreter
// backend. Either way array() gives the rt::ArrayArg that Backend::launch takes (as
// DeviceBuffer::array does for rt::launch), and copies to and from the host are synchronous.
#pragma once

#include "runtime/Args.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace tile::jit {

namespace detail {
/// One backend's allocation.
class BufferStorage {
public:
  virtual ~BufferStorage() = default;
  virtual rt::DevicePtr address() const = 0;
  virtual std::size_t size() const = 0;
  virtual void copyFromHost(const void *src, std::size_t bytes, std::size_t offset) = 0;
  virtual void copyToHost(void *dst, std::size_t bytes, std::size_t offset) const = 0;
  virtual void fillBytes(std::uint8_t value) = 0;
};
} // namespace detail

class Buffer {
public:
  Buffer() = default;
  explicit Buffer(std::unique_ptr<detail::BufferStorage> storage) : storage_(std::move(storage)) {}

  /// The address arrays in this buffer start from (a device address, or a host one).
  rt::DevicePtr data() const { return storage_ ? storage_->address() : 0; }
  std::size_t size() const { return storage_ ? storage_->size() : 0; }

  /// Copies between host memory and [offset, offset + bytes) of the buffer; out-of-range
  /// requests throw rt::Error(InvalidArgument). Both wait for earlier launches on the default
  /// stream (and on blocking streams).
  void copyFromHost(const void *src, std::size_t bytes, std::size_t offset = 0);
  void copyToHost(void *dst, std::size_t bytes, std::size_t offset = 0) const;
  void fillBytes(std::uint8_t value);

  /// `count` elements of type T starting at element `first`; every element by default.
  template <typename T> std::vector<T> toHost(std::size_t count, std::size_t first = 0) const {
    std::vector<T> out(count);
    copyToHost(out.data(), count * sizeof(T), first * sizeof(T));
    return out;
  }
  template <typename T> std::vector<T> toHost() const { return toHost<T>(size() / sizeof(T)); }

  /// An array view of this buffer (strides in elements, empty = contiguous), for launches.
  rt::ArrayArg array(rt::DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides = {},
                     std::size_t byteOffset = 0) const;

private:
  detail::BufferStorage &storage() const;
  std::unique_ptr<detail::BufferStorage> storage_;
};

} // namespace tile::jit
