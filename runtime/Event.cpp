#include "runtime/Event.h"

#include "runtime/Error.h"
#include "runtime/Native.h"

#include <utility>

namespace tile::rt {

using namespace cuda;

Event::Event(const Device &device) : device_(device) {
  const detail::Driver &d = detail::driver();
  detail::Native::state(device_)->makeCurrent();
  CUevent e = nullptr;
  d.check(d.cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
  handle_ = e;
}

Event::Event(Event &&o) noexcept : device_(o.device_), handle_(std::exchange(o.handle_, nullptr)) {}

Event &Event::operator=(Event &&o) noexcept {
  std::swap(device_, o.device_);
  std::swap(handle_, o.handle_);
  return *this;
}

Event::~Event() {
  if (handle_)
    detail::driver().cuEventDestroy(static_cast<CUevent>(handle_));
}

void Event::record(const Stream &stream) {
  detail::Native::state(device_)->makeCurrent();
  detail::driver().check(detail::driver().cuEventRecord(static_cast<CUevent>(handle_), detail::Native::stream(stream)),
                         "cuEventRecord");
}

void Event::synchronize() const {
  detail::driver().check(detail::driver().cuEventSynchronize(static_cast<CUevent>(handle_)), "cuEventSynchronize");
}

float Event::elapsedMs(const Event &start, const Event &end) {
  end.synchronize();
  float ms = 0;
  detail::driver().check(
      detail::driver().cuEventElapsedTime(&ms, static_cast<CUevent>(start.handle_), static_cast<CUevent>(end.handle_)),
      "cuEventElapsedTime");
  return ms;
}

} // namespace tile::rt
