#include "runtime/Stream.h"

#include "runtime/Native.h"

#include <utility>

namespace tile::rt {

using namespace cuda;

Stream::Stream(const Device &device, Flags flags) : device_(device), owned_(true) {
  const detail::Driver &d = detail::driver();
  detail::Native::state(device_)->makeCurrent();
  CUstream s = nullptr;
  d.check(d.cuStreamCreate(&s, flags == Flags::NonBlocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT),
          "cuStreamCreate");
  handle_ = s;
}

Stream::Stream(const Device &device, void *handle, bool owned) : device_(device), handle_(handle), owned_(owned) {}

Stream Stream::defaultStream(const Device &device) { return Stream(device, nullptr, false); }
Stream Stream::borrow(const Device &device, void *cuStream) { return Stream(device, cuStream, false); }

Stream::Stream(Stream &&o) noexcept
    : device_(o.device_), handle_(std::exchange(o.handle_, nullptr)), owned_(std::exchange(o.owned_, false)) {}

Stream &Stream::operator=(Stream &&o) noexcept {
  std::swap(device_, o.device_);
  std::swap(handle_, o.handle_);
  std::swap(owned_, o.owned_);
  return *this;
}

Stream::~Stream() {
  if (owned_ && handle_)
    detail::driver().cuStreamDestroy(static_cast<CUstream>(handle_));
}

void Stream::synchronize() const {
  detail::Native::state(device_)->makeCurrent();
  detail::driver().check(detail::driver().cuStreamSynchronize(static_cast<CUstream>(handle_)), "cuStreamSynchronize");
}

} // namespace tile::rt
