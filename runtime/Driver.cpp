#include "runtime/Driver.h"

#include "runtime/Error.h"

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdlib>
#include <optional>

namespace tile::rt::detail {

namespace {

// Resolves `symbol` into `fn`; a missing required entry point makes the driver unusable.
template <typename F> void resolve(Driver &d, F &fn, const char *symbol, bool required = true) {
  fn = reinterpret_cast<F>(dlsym(d.library, symbol));
  if (!fn && required)
    throw Error(Error::Kind::NoDriver,
                fmt::format("no usable CUDA driver ({} lacks the entry point {})", d.libraryName, symbol));
}

struct Loaded {
  Driver driver;
  std::optional<Error> error;
};

Loaded load() {
  Loaded l;
  try {
    const char *env = std::getenv("TILE_CUDA_DRIVER");
    l.driver = openDriver(env && *env ? env : "libcuda.so.1");
    Driver &d = l.driver;
    if (cuda::CUresult r = d.cuInit(0); r != cuda::CUDA_SUCCESS) {
      if (r == cuda::CUDA_ERROR_STUB_LIBRARY)
        throw Error(Error::Kind::NoDriver,
                    fmt::format("no CUDA driver ({} is the CUDA toolkit's stub library)", d.libraryName), r);
      throw Error(Error::Kind::NoDevice, fmt::format("no CUDA device (cuInit: {})", d.describe(r)), r);
    }
    d.check(d.cuDriverGetVersion(&d.version), "cuDriverGetVersion");
  } catch (const Error &e) {
    l.error = e;
  }
  return l;
}

} // namespace

Driver openDriver(const std::string &library) {
  Driver d;
  d.libraryName = library;
  d.library = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!d.library) {
    const char *error = dlerror();
    std::string why = error ? error : "dlopen failed";
    if (why.rfind(library + ": ", 0) == 0)
      why.erase(0, library.size() + 2); // dlerror repeats it
    throw Error(Error::Kind::NoDriver, fmt::format("no CUDA driver ({} not found: {})", library, why));
  }
  // Versioned names: cuda.h maps e.g. cuMemAlloc to cuMemAlloc_v2.
  resolve(d, d.cuGetErrorName, "cuGetErrorName");
  resolve(d, d.cuGetErrorString, "cuGetErrorString");
  resolve(d, d.cuInit, "cuInit");
  resolve(d, d.cuDriverGetVersion, "cuDriverGetVersion");
  resolve(d, d.cuDeviceGetCount, "cuDeviceGetCount");
  resolve(d, d.cuDeviceGet, "cuDeviceGet");
  resolve(d, d.cuDeviceGetName, "cuDeviceGetName");
  resolve(d, d.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  resolve(d, d.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  resolve(d, d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  resolve(d, d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  resolve(d, d.cuCtxSetCurrent, "cuCtxSetCurrent");
  resolve(d, d.cuCtxSynchronize, "cuCtxSynchronize");
  resolve(d, d.cuMemGetInfo, "cuMemGetInfo_v2");
  resolve(d, d.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  resolve(d, d.cuModuleUnload, "cuModuleUnload");
  resolve(d, d.cuModuleGetFunction, "cuModuleGetFunction");
  resolve(d, d.cuFuncGetAttribute, "cuFuncGetAttribute");
  resolve(d, d.cuFuncSetAttribute, "cuFuncSetAttribute");
  resolve(d, d.cuLaunchKernel, "cuLaunchKernel");
  resolve(d, d.cuMemAlloc, "cuMemAlloc_v2");
  resolve(d, d.cuMemFree, "cuMemFree_v2");
  resolve(d, d.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  resolve(d, d.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  resolve(d, d.cuMemsetD8, "cuMemsetD8_v2");
  resolve(d, d.cuMemsetD32, "cuMemsetD32_v2");
  resolve(d, d.cuStreamCreate, "cuStreamCreate");
  resolve(d, d.cuStreamDestroy, "cuStreamDestroy_v2");
  resolve(d, d.cuStreamSynchronize, "cuStreamSynchronize");
  resolve(d, d.cuEventCreate, "cuEventCreate");
  resolve(d, d.cuEventDestroy, "cuEventDestroy_v2");
  resolve(d, d.cuEventRecord, "cuEventRecord");
  resolve(d, d.cuEventSynchronize, "cuEventSynchronize");
  resolve(d, d.cuEventElapsedTime, "cuEventElapsedTime_v2", false); // CUDA 12.8+
  if (!d.cuEventElapsedTime)
    resolve(d, d.cuEventElapsedTime, "cuEventElapsedTime");
  resolve(d, d.cuLaunchKernelEx, "cuLaunchKernelEx", false);
  resolve(d, d.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", false);
  return d;
}

std::string Driver::describe(R result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(result, &name) != cuda::CUDA_SUCCESS || !name)
    name = nullptr;
  if (cuGetErrorString(result, &text) != cuda::CUDA_SUCCESS || !text)
    text = nullptr;
  if (!name)
    return fmt::format("CUDA error {}", result);
  return text ? fmt::format("{}: {}", name, text) : std::string(name);
}

void Driver::check(R result, const char *call, const std::string &context) const {
  if (result == cuda::CUDA_SUCCESS)
    return;
  throw Error(Error::Kind::Driver,
              fmt::format("{}{}{}: {}", context, context.empty() ? "" : ": ", call, describe(result)), result);
}

const Driver &driver() {
  static const Loaded loaded = load(); // thread-safe, once per process; never dlclose'd
  if (loaded.error)
    throw *loaded.error;
  return loaded.driver;
}

} // namespace tile::rt::detail
