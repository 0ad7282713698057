// Kernels compiled into an application: what `tile-cc --emit=launcher` generates code for. A
// kernel ships as several images — cubins for some architectures and PTX for devices newer than
// all of them — each with its own tile-kernel/1 metadata; the image for a device is chosen when
// the kernel is first used on it.
#pragma once

#include "runtime/Args.h"
#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/KernelMetadata.h"
#include "runtime/LaunchPlan.h"
#include "runtime/Stream.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tile::rt {

/// One compiled image of a kernel, in static storage of the application.
struct EmbeddedImage {
  const char *arch;          // "sm_80", "sm_90a": what `data` was compiled for
  bool isPtx;                // PTX text (compiled by the driver's JIT), else a cubin
  const unsigned char *data; // the cubin's bytes or the PTX text
  std::size_t size;          // of data, in bytes
  const char *metadata;      // tile-kernel/1 JSON of this image
};

/// The image to load on a device of compute capability major.minor, or -1 when none can run
/// there; then `why` says why for each image ("sm_80 cubin: a cubin for sm_80 runs on compute
/// capability 8.x (x >= 0), the device has compute capability 7.5; ..."). A cubin wins over
/// PTX (no JIT at load time); among cubins, and among PTX, the newest architecture wins, an
/// arch-specific one ("sm_90a") over its portable twin.
int selectEmbeddedImage(const EmbeddedImage *images, std::size_t count, int major, int minor, std::string &why);

/// A kernel compiled into the application, loaded on each device on first use (thread-safe;
/// every copy of a Kernel it hands out keeps its module loaded).
class EmbeddedKernel {
public:
  /// `name` is the kernel's name in messages; images must outlive this object (static data).
  EmbeddedKernel(const char *name, const EmbeddedImage *images, std::size_t count);

  /// The metadata of the first image (the same parameters and constants in every image).
  const KernelMetadata &metadata() const { return metadata_; }
  /// The kernel on `device`: the image selectEmbeddedImage picks, loaded once. Throws
  /// Error(InvalidArgument) naming every image's mismatch when none can run on the device.
  Kernel load(const Device &device);
  /// Loads the kernel on the stream's device and launches it as rt::launch does, with the same
  /// checks (argument count, kinds, dtypes, ranks, alignment, grid and device limits).
  void launch(const Stream &stream, const Grid &grid, const std::vector<Arg> &args);

private:
  std::string name_;
  const EmbeddedImage *images_;
  std::size_t count_;
  KernelMetadata metadata_;
  std::mutex mutex_;
  std::map<int, Kernel> loaded_; // by device ordinal
};

/// A decision of the autotuner compiled into a launcher (`tile-cc --emit=launcher --config all
/// --tuning-table FILE`): on a device of this name, for a launch whose key= values and block
/// count round up (bucketPow2, as the tuner's keys do) to these, run this configuration.
struct EmbeddedTuning {
  const char *device;            // Device::name() of the device it was tuned on
  const std::int64_t *keyValues; // one per key= name, rounded up to a power of two
  std::int64_t blocks;           // the launch's block count, rounded the same way
  unsigned config;               // the @ct.autotune index that won
};

/// The configuration `table` (`count` decisions over `keyCount` key= names) holds for a launch
/// on `device` with these key= values and block count, which are rounded here; -1 when it
/// holds none. Throws Error(InvalidArgument) when `keyValues` does not have `keyCount` values.
int lookupEmbeddedTuning(const EmbeddedTuning *table, std::size_t count, std::size_t keyCount,
                         const std::string &device, const std::vector<std::int64_t> &keyValues, std::int64_t blocks,
                         const char *kernel);

} // namespace tile::rt
