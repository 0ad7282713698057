// A loaded cubin or PTX module; kernels are taken from it by their metadata.
#pragma once

#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/KernelMetadata.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tile::rt {

namespace detail {
struct ModuleState;
}

class Module {
public:
  /// A cubin (or fatbin) image; the bytes are copied by the driver.
  static Module fromCubin(const Device &device, const void *image, std::size_t size);
  /// PTX text, compiled by the driver's JIT for the device; a JIT failure throws
  /// Error(Driver) whose message carries the JIT's error log.
  static Module fromPtx(const Device &device, std::string_view ptx);
  /// A cubin or PTX file, told apart by its content (ELF/fatbin magic, else PTX).
  static Module fromFile(const Device &device, const std::string &path);

  bool isPtx() const;
  /// The kernel named by `metadata.kernel`, checked against the device: architecture, threads
  /// per block and shared memory (Error(InvalidArgument) when it cannot run). Sets the
  /// function's dynamic shared memory limit (> 48 KiB) and non-portable cluster attributes.
  Kernel kernel(const KernelMetadata &metadata) const;

private:
  Module() = default;
  std::shared_ptr<detail::ModuleState> state_;
};

/// Loads a compiled kernel: `binaryPath` (.cubin or .ptx) and its metadata, by default the
/// same path with the extension replaced by ".json".
Kernel loadKernel(const Device &device, const std::string &binaryPath, const std::string &metadataPath = "");

} // namespace tile::rt
