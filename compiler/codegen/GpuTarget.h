// What code generation needs to know about the target GPU: which instructions exist and how
// much shared memory one block may use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tile::codegen {

struct GpuTarget {
  int sm = 90;  // compute capability x 10
  /// The architecture-specific feature set ("sm_90a"): wgmma and setmaxnreg.
  bool archSpecific = false;

  /// "sm_80", "sm_90a", ...; nullopt for anything else.
  static std::optional<GpuTarget> parse(const std::string &arch) {
    if (arch.rfind("sm_", 0) != 0)
      return std::nullopt;
    std::string digits = arch.substr(3);
    bool specific = !digits.empty() && digits.back() == 'a';
    if (specific)
      digits.pop_back();
    if (digits.size() != 2 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    // Two checked digits: no std::stoi, which throws (through -fno-exceptions code) on junk.
    return GpuTarget{(digits[0] - '0') * 10 + (digits[1] - '0'), specific};
  }

  /// wgmma.mma_async (Hopper's warpgroup products; only in the sm_90a feature set).
  bool hasWgmma() const { return sm == 90 && archSpecific; }

  /// mma.sync.m16n8k16 (bf16/f16) and m16n8k8 (tf32) with ldmatrix (Ampere and later).
  bool hasMmaM16N8K16() const { return sm >= 80; }

  /// The most dynamic shared memory one block may opt into (CUDA programming guide, table
  /// "Technical Specifications per Compute Capability").
  int64_t maxSharedBytesPerBlock() const {
    switch (sm) {
    case 75: return 64 * 1024;
    case 80: case 87: return 163 * 1024;
    case 86: case 89: return 99 * 1024;
    default: return sm >= 90 ? 227 * 1024 : 96 * 1024;
    }
  }
};

}  // namespace tile::codegen
