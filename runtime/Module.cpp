#include "runtime/Module.h"

#include "runtime/Error.h"
#include "runtime/File.h"
#include "runtime/Native.h"

#include <fmt/format.h>

#include <cstring>

namespace tile::rt {

using namespace cuda;

namespace detail {
ModuleState::~ModuleState() {
  if (module && driver().cuCtxSetCurrent(device->context) == CUDA_SUCCESS)
    driver().cuModuleUnload(module);
}
} // namespace detail

namespace {

// Loads an image through cuModuleLoadDataEx with JIT log buffers, so that a PTX error comes
// with the JIT's own explanation.
std::shared_ptr<detail::ModuleState> load(const Device &device, const void *image, bool isPtx) {
  const detail::Driver &d = detail::driver();
  auto state = std::make_shared<detail::ModuleState>();
  state->device = detail::Native::state(device);
  state->isPtx = isPtx;
  state->device->makeCurrent();
  char errorLog[16384] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog, reinterpret_cast<void *>(std::uintptr_t(sizeof errorLog - 1))};
  CUresult r = d.cuModuleLoadDataEx(&state->module, image, 2, options, values);
  if (r != CUDA_SUCCESS) {
    std::string log = errorLog;
    while (!log.empty() && (log.back() == '\n' || log.back() == '\0'))
      log.pop_back();
    throw Error(Error::Kind::Driver,
                fmt::format("loading a {} module on cuda:{}: cuModuleLoadDataEx: {}{}{}", isPtx ? "PTX" : "cubin",
                            device.ordinal(), d.describe(r), log.empty() ? "" : "\nJIT log:\n", log),
                r);
  }
  return state;
}

bool isBinaryImage(std::string_view bytes) {
  static const char elf[] = "\x7f"
                            "ELF";
  static const unsigned char fatbin[] = {0x50, 0xed, 0x55, 0xba}; // 0xBA55ED50, little-endian
  return (bytes.size() >= 4 && std::memcmp(bytes.data(), elf, 4) == 0) ||
         (bytes.size() >= 4 && std::memcmp(bytes.data(), fatbin, 4) == 0);
}

// A cubin or PTX file through the one reader (regular files only, at most 1 GiB).
std::string readFile(const std::string &path, const char *what) {
  try {
    return readRegularFile(path, std::uint64_t(1) << 30);
  } catch (const Error &e) {
    throw Error(Error::Kind::Io, fmt::format("cannot read {}: {}", what, e.what()));
  }
}

} // namespace

Module Module::fromCubin(const Device &device, const void *image, std::size_t size) {
  if (!isBinaryImage(std::string_view(static_cast<const char *>(image), size)))
    throw Error(Error::Kind::InvalidArgument, "Module::fromCubin: the image is not a cubin (no ELF or fatbin header)");
  Module m;
  m.state_ = load(device, image, false);
  return m;
}

Module Module::fromPtx(const Device &device, std::string_view ptx) {
  std::string text(ptx); // the driver wants it NUL-terminated
  Module m;
  m.state_ = load(device, text.c_str(), true);
  return m;
}

Module Module::fromFile(const Device &device, const std::string &path) {
  std::string bytes = readFile(path, "kernel binary");
  return isBinaryImage(bytes) ? fromCubin(device, bytes.data(), bytes.size()) : fromPtx(device, bytes);
}

bool Module::isPtx() const { return state_->isPtx; }

Kernel Module::kernel(const KernelMetadata &md) const {
  const detail::Driver &d = detail::driver();
  const detail::DeviceState &dev = *state_->device;
  std::string context = fmt::format("kernel '{}' ({})", md.name, md.kernel);
  if (std::string why = archMismatch(md.arch, dev.ccMajor, dev.ccMinor, state_->isPtx); !why.empty())
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("{} cannot run on cuda:{} ({}): {}", context, dev.ordinal, dev.name, why));
  dev.makeCurrent();
  auto k = std::make_shared<detail::KernelState>();
  k->module = state_;
  k->metadata = md;
  d.check(d.cuModuleGetFunction(&k->function, state_->module, md.kernel.c_str()), "cuModuleGetFunction",
          fmt::format("{}: the module has no such kernel", context));
  int maxThreads = 0;
  d.check(d.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k->function), "cuFuncGetAttribute",
          context);
  d.check(d.cuFuncGetAttribute(&k->staticSharedMemory, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->function),
          "cuFuncGetAttribute", context);
  d.check(d.cuFuncGetAttribute(&k->numRegisters, CU_FUNC_ATTRIBUTE_NUM_REGS, k->function), "cuFuncGetAttribute",
          context);
  // Registers and static shared memory narrow what the device allows for this function.
  k->limits = dev.limits;
  k->limits.maxThreadsPerBlock = std::min(k->limits.maxThreadsPerBlock, maxThreads);
  k->limits.maxDynamicSharedMemory -= k->staticSharedMemory;
  if (std::string why = kernelFitProblem(md, k->limits); !why.empty())
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("{} on cuda:{}: {} ({} registers, {} "
                            "bytes of static shared memory)",
                            context, dev.ordinal, why, k->numRegisters, k->staticSharedMemory));
  if (md.dynamicSharedMemory > 48 * 1024) // above 48 KiB a kernel must opt in
    d.check(d.cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, md.dynamicSharedMemory),
            "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", context);
  // More than the portable 8 blocks per cluster.
  if (md.cluster[0] * md.cluster[1] * md.cluster[2] > 8 || md.preferredClusterSize > 8)
    d.check(d.cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
            "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)", context);
  return detail::Native::makeKernel(std::move(k));
}

Kernel loadKernel(const Device &device, const std::string &binaryPath, const std::string &metadataPath) {
  std::string json = metadataPath;
  if (json.empty()) {
    size_t slash = binaryPath.find_last_of('/');
    size_t dot = binaryPath.find_last_of('.');
    bool hasExt = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    json = (hasExt ? binaryPath.substr(0, dot) : binaryPath) + ".json";
  }
  KernelMetadata md = readKernelMetadata(json);
  return Module::fromFile(device, binaryPath).kernel(md);
}

} // namespace tile::rt
