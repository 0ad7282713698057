#include "runtime/Device.h"

#include "runtime/Error.h"
#include "runtime/Native.h"

#include <fmt/format.h>

namespace tile::rt {

using namespace cuda;

namespace detail {

DeviceState::~DeviceState() {
  if (context)
    driver().cuDevicePrimaryCtxRelease(device); // errors at exit are moot
}

void DeviceState::makeCurrent() const { driver().check(driver().cuCtxSetCurrent(context), "cuCtxSetCurrent"); }

} // namespace detail

int Device::count() {
  const detail::Driver &d = detail::driver();
  int n = 0;
  d.check(d.cuDeviceGetCount(&n), "cuDeviceGetCount");
  return n;
}

bool Device::available(int ordinal, std::string *why) {
  try {
    Device device(ordinal);
    return true;
  } catch (const Error &e) {
    if (why)
      *why = e.what();
    return false;
  }
}

Device::Device(int ordinal) {
  const detail::Driver &d = detail::driver();
  int n = count();
  if (n == 0)
    throw Error(Error::Kind::NoDevice, "no CUDA device (the driver reports none)");
  if (ordinal < 0 || ordinal >= n)
    throw Error(Error::Kind::NoDevice,
                fmt::format("no CUDA device {} (there {} {})", ordinal, n == 1 ? "is" : "are", n));
  auto s = std::make_shared<detail::DeviceState>();
  s->ordinal = ordinal;
  d.check(d.cuDeviceGet(&s->device, ordinal), "cuDeviceGet");
  char name[256] = {};
  d.check(d.cuDeviceGetName(name, sizeof name - 1, s->device), "cuDeviceGetName");
  s->name = name;
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    d.check(d.cuDeviceGetAttribute(&v, a, s->device), "cuDeviceGetAttribute");
    return v;
  };
  s->ccMajor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  s->ccMinor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  s->smCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  d.check(d.cuDeviceTotalMem(&s->totalMemory, s->device), "cuDeviceTotalMem");
  s->limits.ordinal = ordinal;
  s->limits.maxGrid = {attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                       attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
  s->limits.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  s->limits.maxDynamicSharedMemory = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  d.check(d.cuDevicePrimaryCtxRetain(&s->context, s->device), "cuDevicePrimaryCtxRetain");
  s->makeCurrent();
  state_ = std::move(s);
}

int Device::ordinal() const { return state_->ordinal; }
const std::string &Device::name() const { return state_->name; }
int Device::computeCapabilityMajor() const { return state_->ccMajor; }
int Device::computeCapabilityMinor() const { return state_->ccMinor; }
int Device::smCount() const { return state_->smCount; }
std::size_t Device::totalMemory() const { return state_->totalMemory; }
const DeviceLimits &Device::limits() const { return state_->limits; }
int Device::driverVersion() const { return detail::driver().version; }

std::size_t Device::freeMemory() const {
  state_->makeCurrent();
  std::size_t free = 0, total = 0;
  detail::driver().check(detail::driver().cuMemGetInfo(&free, &total), "cuMemGetInfo");
  return free;
}

void Device::synchronize() const {
  state_->makeCurrent();
  detail::driver().check(detail::driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

} // namespace tile::rt
