#include "runtime/Embedded.h"

#include "runtime/Error.h"
#include "runtime/GpuArch.h"
#include "runtime/Launch.h"
#include "runtime/Module.h"
#include "runtime/TuneBucket.h"

#include <fmt/format.h>

#include <string_view>
#include <tuple>

namespace tile::rt {

namespace {

// (major, minor, arch-specific) of an architecture archMismatch has already accepted.
std::tuple<int, int, bool> archOrder(std::string_view name) {
  GpuArch arch = GpuArch::parse(name).value_or(GpuArch{0, 0, false});
  return {arch.major, arch.minor, arch.archSpecific};
}

std::string imageName(const EmbeddedImage &image) {
  return fmt::format("{} {}", image.arch ? image.arch : "(null)", image.isPtx ? "PTX" : "cubin");
}

} // namespace

int selectEmbeddedImage(const EmbeddedImage *images, std::size_t count, int major, int minor, std::string &why) {
  int best = -1;
  why.clear();
  for (std::size_t i = 0; i < count; ++i) {
    const EmbeddedImage &image = images[i];
    std::string problem =
        image.arch ? archMismatch(image.arch, major, minor, image.isPtx) : std::string("no architecture");
    if (!problem.empty()) {
      why += fmt::format("{}{}: {}", why.empty() ? "" : "; ", imageName(image), problem);
      continue;
    }
    if (best < 0) {
      best = int(i);
      continue;
    }
    const EmbeddedImage &current = images[best];
    // Cubins first, then the newest architecture, then arch-specific over portable.
    if (std::make_tuple(!image.isPtx, archOrder(image.arch)) > std::make_tuple(!current.isPtx, archOrder(current.arch)))
      best = int(i);
  }
  if (count == 0)
    why = "no images";
  return best;
}

EmbeddedKernel::EmbeddedKernel(const char *name, const EmbeddedImage *images, std::size_t count)
    : name_(name ? name : "kernel"), images_(images), count_(count) {
  if (!images || count == 0)
    throw Error(Error::Kind::InvalidArgument, fmt::format("embedded kernel '{}': no images", name_));
  metadata_ = parseKernelMetadata(images[0].metadata ? images[0].metadata : "",
                                  fmt::format("embedded kernel '{}' ({})", name_, imageName(images[0])));
}

Kernel EmbeddedKernel::load(const Device &device) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = loaded_.find(device.ordinal());
  if (it != loaded_.end())
    return it->second;
  const int major = device.computeCapabilityMajor(), minor = device.computeCapabilityMinor();
  std::string why;
  const int index = selectEmbeddedImage(images_, count_, major, minor, why);
  if (index < 0)
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("kernel '{}' has no image for cuda:{} ({}, compute capability {}.{}): {}", name_,
                            device.ordinal(), device.name(), major, minor, why));
  const EmbeddedImage &image = images_[index];
  const KernelMetadata metadata = parseKernelMetadata(
      image.metadata ? image.metadata : "", fmt::format("embedded kernel '{}' ({})", name_, imageName(image)));
  const Module module =
      image.isPtx ? Module::fromPtx(device, std::string_view(reinterpret_cast<const char *>(image.data), image.size))
                  : Module::fromCubin(device, image.data, image.size);
  Kernel kernel = module.kernel(metadata);
  loaded_.emplace(device.ordinal(), kernel);
  return kernel;
}

void EmbeddedKernel::launch(const Stream &stream, const Grid &grid, const std::vector<Arg> &args) {
  rt::launch(load(stream.device()), grid, args, stream);
}

int lookupEmbeddedTuning(const EmbeddedTuning *table, std::size_t count, std::size_t keyCount,
                         const std::string &device, const std::vector<std::int64_t> &keyValues, std::int64_t blocks,
                         const char *kernel) {
  if (keyValues.size() != keyCount)
    throw Error(Error::Kind::InvalidArgument,
                fmt::format("{}: the tuning table's decisions depend on {} key= value(s), {} given", kernel, keyCount,
                            keyValues.size()));
  std::vector<std::int64_t> key;
  for (std::int64_t v : keyValues)
    key.push_back(bucketPow2(v));
  const std::int64_t bucket = bucketPow2(blocks);
  for (std::size_t i = 0; i < count; ++i) {
    const EmbeddedTuning &t = table[i];
    if (t.blocks != bucket || device != t.device)
      continue;
    bool same = true;
    for (std::size_t k = 0; k < keyCount && same; ++k)
      same = t.keyValues[k] == key[k];
    if (same)
      return int(t.config);
  }
  return -1;
}

} // namespace tile::rt
