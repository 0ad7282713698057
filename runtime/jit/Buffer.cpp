#include "runtime/jit/Buffer.h"

#include "runtime/Error.h"

#include <string>

namespace tile::jit {

detail::BufferStorage &Buffer::storage() const {
  if (!storage_)
    throw rt::Error(rt::Error::Kind::InvalidArgument, "use of an empty Buffer (default-constructed or moved from)");
  return *storage_;
}

void Buffer::copyFromHost(const void *src, std::size_t bytes, std::size_t offset) {
  storage().copyFromHost(src, bytes, offset);
}

void Buffer::copyToHost(void *dst, std::size_t bytes, std::size_t offset) const {
  storage().copyToHost(dst, bytes, offset);
}

void Buffer::fillBytes(std::uint8_t value) { storage().fillBytes(value); }

rt::ArrayArg Buffer::array(rt::DType dtype, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                           std::size_t byteOffset) const {
  if (byteOffset > storage().size())
    throw rt::Error(rt::Error::Kind::InvalidArgument, "Buffer::array: byte offset " + std::to_string(byteOffset) +
                                                          " is past the end of the " + std::to_string(size()) +
                                                          "-byte buffer");
  rt::ArrayArg a;
  a.data = data() + byteOffset;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.strides = std::move(strides);
  return a;
}

} // namespace tile::jit
