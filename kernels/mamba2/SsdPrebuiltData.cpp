// The archive tile-ssd-prebuild wrote when the library was built, linked in by
// kernels/mamba2/CMakeLists.txt (empty when the build was configured without it).
#include "kernels/mamba2/SsdPrebuilt.h"

#include "runtime/jit/Prebuilt.h"

#include <mutex>
#include <string_view>

extern "C" const unsigned char tile_ssd_prebuilt[];
extern "C" const unsigned char tile_ssd_prebuilt_end[];

namespace tile::mamba2 {

void registerPrebuiltSsdKernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::size_t size = static_cast<std::size_t>(tile_ssd_prebuilt_end - tile_ssd_prebuilt);
    if (size)
      jit::addPrebuilt(std::string_view(reinterpret_cast<const char *>(tile_ssd_prebuilt), size),
                       "the Mamba-2 kernels prebuilt into the library");
  });
}

} // namespace tile::mamba2
