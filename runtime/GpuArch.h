// A GPU architecture as NVIDIA names it, sm_<major><minor>[a] ("sm_90a", "sm_80", "sm_100a"):
// the one parser of these names for every layer (the runtime's metadata and device checks, the
// compiler's target attribute and passes, the tools' options). Header-only and free of the
// compiler, so the runtime core and the dialect can both use it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tile::rt {

struct GpuArch {
  int major = 9, minor = 0;
  /// The architecture-specific feature set (the "a" suffix): wgmma and setmaxnreg on sm_90a.
  bool archSpecific = false;

  /// The compute capability x 10 (90 for sm_90a).
  int sm() const { return major * 10 + minor; }

  /// "sm_90a"
  std::string name() const { return "sm_" + std::to_string(sm()) + (archSpecific ? "a" : ""); }

  /// sm_ followed by 2 or 3 decimal digits (the last is the minor version) and an optional
  /// "a"; nullopt for anything else.
  static std::optional<GpuArch> parse(std::string_view text) {
    if (text.substr(0, 3) != "sm_")
      return std::nullopt;
    text.remove_prefix(3);
    GpuArch arch;
    arch.archSpecific = !text.empty() && text.back() == 'a';
    if (arch.archSpecific)
      text.remove_suffix(1);
    if (text.size() < 2 || text.size() > 3 || text.front() == '0' ||
        text.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    int code = 0; // at most three digits: no overflow
    for (char c : text)
      code = code * 10 + (c - '0');
    arch.major = code / 10;
    arch.minor = code % 10;
    return arch;
  }

  bool operator==(const GpuArch &o) const {
    return major == o.major && minor == o.minor && archSpecific == o.archSpecific;
  }
};

} // namespace tile::rt
