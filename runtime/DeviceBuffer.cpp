#include "runtime/DeviceBuffer.h"

#include "runtime/Error.h"
#include "runtime/Native.h"

#include <fmt/format.h>

#include <utility>

namespace tile::rt {

using namespace cuda;

DeviceBuffer::DeviceBuffer(const Device &device, std::size_t bytes)
    : device_(detail::Native::state(device)), size_(bytes) {
  const detail::Driver &d = detail::driver();
  device_->makeCurrent();
  CUdeviceptr p = 0;
  if (bytes)
    d.check(d.cuMemAlloc(&p, bytes), "cuMemAlloc",
            fmt::format("allocating {} bytes on cuda:{}", bytes, device_->ordinal));
  ptr_ = p;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept
    : device_(std::move(o.device_)), ptr_(std::exchange(o.ptr_, 0)), size_(std::exchange(o.size_, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  std::swap(device_, o.device_);
  std::swap(ptr_, o.ptr_);
  std::swap(size_, o.size_);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (!ptr_)
    return;
  const detail::Driver &d = detail::driver();
  if (d.cuCtxSetCurrent(device_->context) == CUDA_SUCCESS)
    d.cuMemFree(ptr_);
}

void DeviceBuffer::checkRange(std::size_t bytes, std::size_t offset, const char *what) const {
  if (offset > size_ || bytes > size_ - offset)
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("{}: bytes [{}, {}) are outside the {}-byte buffer", what, offset, offset + bytes, size_));
}

void DeviceBuffer::copyFromHost(const void *src, std::size_t bytes, std::size_t offset) {
  checkRange(bytes, offset, "DeviceBuffer::copyFromHost");
  if (!bytes)
    return;
  device_->makeCurrent();
  detail::driver().check(detail::driver().cuMemcpyHtoD(ptr_ + offset, src, bytes), "cuMemcpyHtoD");
}

void DeviceBuffer::copyToHost(void *dst, std::size_t bytes, std::size_t offset) const {
  checkRange(bytes, offset, "DeviceBuffer::copyToHost");
  if (!bytes)
    return;
  device_->makeCurrent();
  detail::driver().check(detail::driver().cuMemcpyDtoH(dst, ptr_ + offset, bytes), "cuMemcpyDtoH");
}

void DeviceBuffer::fillBytes(std::uint8_t value) {
  if (!size_)
    return;
  device_->makeCurrent();
  detail::driver().check(detail::driver().cuMemsetD8(ptr_, value, size_), "cuMemsetD8");
}

void DeviceBuffer::fill32(std::uint32_t value) {
  if (size_ % 4)
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("DeviceBuffer::fill32: size {} is not a multiple of 4", size_));
  if (!size_)
    return;
  device_->makeCurrent();
  detail::driver().check(detail::driver().cuMemsetD32(ptr_, value, size_ / 4), "cuMemsetD32");
}

ArrayArg DeviceBuffer::array(DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                             std::size_t byteOffset) const {
  ArrayArg a;
  a.data = ptr_ + byteOffset;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.strides = std::move(strides);
  return a;
}

} // namespace tile::rt
