// What code generation needs to know about the target GPU: which instructions exist and how
// much shared memory one block may use. tile-choose-threads records the target on the module
// (#tile.target, from its `arch` option) and the later passes read it there (passTarget);
// names are parsed by the one parser, rt::GpuArch, and checked here against what code
// generation supports, so every pass accepts the same values and reports the same errors.
#pragma once

#include "runtime/GpuArch.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace tile::codegen {

struct GpuTarget {
  int sm = 90; // compute capability x 10
  /// The architecture-specific feature set ("sm_90a"): wgmma and setmaxnreg.
  bool archSpecific = false;

  /// A target code generation supports, sm_70 ... sm_90a; nullopt for anything else, with the
  /// message in `error`.
  static std::optional<GpuTarget> of(const rt::GpuArch &arch, std::string &error) {
    if (arch.sm() >= 70 && arch.sm() <= 90 && (!arch.archSpecific || arch.sm() == 90))
      return GpuTarget{arch.sm(), arch.archSpecific};
    error = "unsupported target '" + arch.name() + "' (expected sm_70 ... sm_90a)";
    return std::nullopt;
  }

  /// "sm_80", "sm_90a", ... (rt::GpuArch::parse, then `of`).
  static std::optional<GpuTarget> parse(llvm::StringRef arch, std::string &error) {
    if (std::optional<rt::GpuArch> parsed = rt::GpuArch::parse(std::string_view(arch.data(), arch.size())))
      return of(*parsed, error);
    error = "unknown target '" + arch.str() + "' (expected sm_70 ... sm_90a)";
    return std::nullopt;
  }

  rt::GpuArch arch() const { return rt::GpuArch{sm / 10, sm % 10, archSpecific}; }

  /// Checks a threads-per-block option: a power of two from 32 to 1024.
  static bool checkNumThreads(int64_t numThreads, std::string &error) {
    if (numThreads >= 32 && numThreads <= 1024 && (numThreads & (numThreads - 1)) == 0)
      return true;
    error = "num-threads " + std::to_string(numThreads) + " must be a power of two from 32 to 1024";
    return false;
  }

  /// wgmma.mma_async (Hopper's warpgroup products; only in the sm_90a feature set).
  bool hasWgmma() const { return sm == 90 && archSpecific; }

  /// mma.sync.m16n8k16 (bf16/f16) and m16n8k8 (tf32) with ldmatrix (Ampere and later).
  bool hasMmaM16N8K16() const { return sm >= 80; }

  /// The most dynamic shared memory one block may opt into (CUDA programming guide, table
  /// "Technical Specifications per Compute Capability").
  int64_t maxSharedBytesPerBlock() const {
    switch (sm) {
    case 75:
      return 64 * 1024;
    case 80:
    case 87:
      return 163 * 1024;
    case 86:
    case 89:
      return 99 * 1024;
    default:
      return sm >= 90 ? 227 * 1024 : 96 * 1024;
    }
  }

  /// The shared memory a block may use so that `occupancy` blocks fit on a multiprocessor
  /// (228 KiB on Hopper and the A100, less the driver's 1 KiB per block), at most the above.
  int64_t sharedBytesPerBlockAt(int64_t occupancy) const {
    constexpr int64_t kSharedPerSM = 228 * 1024;
    constexpr int64_t kReservedPerBlock = 1024;
    return std::min(maxSharedBytesPerBlock(), kSharedPerSM / std::max<int64_t>(1, occupancy) - kReservedPerBlock);
  }
};

} // namespace tile::codegen
