// libcuda.so.1, opened with dlopen and resolved at run time: nothing links against libcuda,
// so every binary starts on a machine without a GPU and says so clearly. Internal.
#pragma once

#include "runtime/CudaApi.h"

#include <cstddef>
#include <string>

namespace tile::rt::detail {

struct Driver {
  using R = cuda::CUresult;
  void *library = nullptr;
  std::string libraryName;
  int version = 0; // cuDriverGetVersion, e.g. 13000

  R (*cuGetErrorName)(R, const char **) = nullptr;
  R (*cuGetErrorString)(R, const char **) = nullptr;
  R (*cuInit)(unsigned) = nullptr;
  R (*cuDriverGetVersion)(int *) = nullptr;
  R (*cuDeviceGetCount)(int *) = nullptr;
  R (*cuDeviceGet)(cuda::CUdevice *, int) = nullptr;
  R (*cuDeviceGetName)(char *, int, cuda::CUdevice) = nullptr;
  R (*cuDeviceGetAttribute)(int *, cuda::CUdevice_attribute, cuda::CUdevice) = nullptr;
  R (*cuDeviceTotalMem)(std::size_t *, cuda::CUdevice) = nullptr;
  R (*cuDevicePrimaryCtxRetain)(cuda::CUcontext *, cuda::CUdevice) = nullptr;
  R (*cuDevicePrimaryCtxRelease)(cuda::CUdevice) = nullptr;
  R (*cuCtxSetCurrent)(cuda::CUcontext) = nullptr;
  R (*cuCtxSynchronize)() = nullptr;
  R (*cuMemGetInfo)(std::size_t *, std::size_t *) = nullptr;
  R (*cuModuleLoadDataEx)(cuda::CUmodule *, const void *, unsigned, cuda::CUjit_option *, void **) = nullptr;
  R (*cuModuleUnload)(cuda::CUmodule) = nullptr;
  R (*cuModuleGetFunction)(cuda::CUfunction *, cuda::CUmodule, const char *) = nullptr;
  R (*cuFuncGetAttribute)(int *, cuda::CUfunction_attribute, cuda::CUfunction) = nullptr;
  R (*cuFuncSetAttribute)(cuda::CUfunction, cuda::CUfunction_attribute, int) = nullptr;
  // clang-format off (clang-format 14 splits long function-pointer members differently each run)
  R(*cuLaunchKernel)
  (cuda::CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, cuda::CUstream, void **,
   void **) = nullptr;
  // clang-format on
  R (*cuMemAlloc)(cuda::CUdeviceptr *, std::size_t) = nullptr;
  R (*cuMemFree)(cuda::CUdeviceptr) = nullptr;
  R (*cuMemcpyHtoD)(cuda::CUdeviceptr, const void *, std::size_t) = nullptr;
  R (*cuMemcpyDtoH)(void *, cuda::CUdeviceptr, std::size_t) = nullptr;
  R (*cuMemsetD8)(cuda::CUdeviceptr, unsigned char, std::size_t) = nullptr;
  R (*cuMemsetD32)(cuda::CUdeviceptr, unsigned, std::size_t) = nullptr;
  R (*cuStreamCreate)(cuda::CUstream *, unsigned) = nullptr;
  R (*cuStreamDestroy)(cuda::CUstream) = nullptr;
  R (*cuStreamSynchronize)(cuda::CUstream) = nullptr;
  R (*cuEventCreate)(cuda::CUevent *, unsigned) = nullptr;
  R (*cuEventDestroy)(cuda::CUevent) = nullptr;
  R (*cuEventRecord)(cuda::CUevent, cuda::CUstream) = nullptr;
  R (*cuEventSynchronize)(cuda::CUevent) = nullptr;
  R (*cuEventElapsedTime)(float *, cuda::CUevent, cuda::CUevent) = nullptr;
  // Optional (CUDA 12.0+): null when the driver lacks them; checked where used.
  R (*cuLaunchKernelEx)(const cuda::CUlaunchConfig *, cuda::CUfunction, void **, void **) = nullptr;
  // clang-format off
  R (*cuTensorMapEncodeTiled)(cuda::CUtensorMap *, cuda::CUtensorMapDataType, std::uint32_t, void *,
                              const std::uint64_t *, const std::uint64_t *, const std::uint32_t *,
                              const std::uint32_t *, cuda::CUtensorMapInterleave, cuda::CUtensorMapSwizzle,
                              cuda::CUtensorMapL2promotion, cuda::CUtensorMapFloatOOBfill) = nullptr;
  // clang-format on

  /// "CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed".
  std::string describe(R result) const;
  /// Throws Error(Driver) "[context: ]call: NAME: string" unless `result` is success.
  void check(R result, const char *call, const std::string &context = "") const;
};

/// The process's driver, opened and cuInit'ed on first use (library from TILE_CUDA_DRIVER,
/// default libcuda.so.1). When unusable it throws Error(NoDriver or NoDevice), every time.
const Driver &driver();

/// Opens `library` and resolves the entry points, without cuInit (tests the failure paths).
Driver openDriver(const std::string &library);

} // namespace tile::rt::detail
