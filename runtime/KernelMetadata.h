// What the compiler writes next to each cubin/PTX ("tile-kernel/1" JSON, see
// runtime/README.md) so the runtime can launch a kernel without its source.
#pragma once

#include "runtime/DType.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tile::rt {

inline constexpr std::string_view kMetadataFormat = "tile-kernel/1";
/// Metadata is a few KiB; anything past this is refused before it is parsed.
inline constexpr std::size_t kMaxMetadataBytes = 16u << 20;

/// One source-level kernel parameter. An array expands in the kernel's parameter list to
/// (u64 pointer, i64 shape[rank], i64 strides[rank]), strides in elements; a scalar is passed
/// as its dtype (bool as one byte, 16-bit floats as 16 bits, tfloat32 as a float32).
struct ParamInfo {
  enum class Kind { Array, Scalar };
  std::string name;
  Kind kind = Kind::Scalar;
  DType dtype = DType::Float32;
  int rank = 0;                // arrays: 1..kMaxRank
  int alignment = 0;           // arrays: bytes (power of two); see README for what it covers
  bool unitStrideLast = false; // arrays: the last dimension's stride must be 1

  bool isArray() const { return kind == Kind::Array; }
};

enum class TmaSwizzle { None, B32, B64, B128 };
enum class TmaL2Promotion { None, B64, B128, B256 };
enum class TmaOobFill { Zero, NaN };

/// A TMA descriptor (CUtensorMap) the runtime encodes at launch over an array parameter;
/// descriptors follow all expanded parameters, in this order, as 128-byte byval parameters.
struct TmaInfo {
  std::string param;                        // an array parameter's name
  int paramIndex = -1;                      // its index in KernelMetadata::params
  std::vector<std::int64_t> box;            // per dimension, outermost first (like shape)
  std::vector<std::int64_t> elementStrides; // per dimension, outermost first; default all 1
  TmaSwizzle swizzle = TmaSwizzle::None;
  TmaL2Promotion l2Promotion = TmaL2Promotion::None;
  TmaOobFill oobFill = TmaOobFill::Zero;
};

using ConstantValue = std::variant<bool, std::int64_t, double, std::string>;

struct KernelMetadata {
  static constexpr int kMaxRank = 8;
  static constexpr int kMaxTmaRank = 5;

  std::string kernel; // the symbol in the cubin/PTX
  std::string name;   // the kernel's name in the source
  std::string arch;   // "sm_90a", "sm_80", ...
  int threadsPerBlock = 0;
  int dynamicSharedMemory = 0; // bytes
  std::array<int, 3> cluster{1, 1, 1};
  /// Blocks per cluster the kernel asks for as a hint (`num_ctas=`, sm_90+): the launch forms
  /// clusters of this many blocks along the first grid axis it divides, and none where it
  /// divides no axis (the kernel's results do not depend on it). 1: no clusters. Ignored when
  /// `cluster` is set (a shape the kernel requires).
  int preferredClusterSize = 1;
  /// Resident blocks per SM the kernel was compiled for (`.minnctapersm`, `occupancy=`).
  int occupancy = 1;
  /// The kernel waits for its predecessors (grid_dependency_control_wait, sm_90+): it is
  /// launched with programmatic dependent launch, so it may start before they finish.
  bool programmaticLaunch = false;
  std::map<std::string, ConstantValue> constants; // the specialization (informational)
  std::vector<ParamInfo> params;
  std::vector<TmaInfo> tma;

  /// The parameter called `name`, or null.
  const ParamInfo *param(std::string_view name) const;
};

/// The metadata's spelling of a swizzle mode: "none", "32B", "64B" or "128B".
const char *tmaSwizzleName(TmaSwizzle swizzle);

/// Parses and checks metadata text; throws Error(InvalidMetadata) naming `origin` (a file
/// name, for messages) and the offending field, e.g. "params[1].dtype: unknown dtype 'f32'".
KernelMetadata parseKernelMetadata(std::string_view json, std::string_view origin = "<memory>");
/// The same parse for code built without exceptions (the compiler): false with `error` set to
/// the message parseKernelMetadata would throw.
bool parseKernelMetadata(std::string_view json, std::string_view origin, KernelMetadata &metadata,
                         std::string &error) noexcept;
/// Reads and parses a metadata file (Error(Io) when missing, unreadable, not a regular file or
/// larger than kMaxMetadataBytes).
KernelMetadata readKernelMetadata(const std::string &path);
/// The metadata as "tile-kernel/1" JSON (what the compiler writes; parses back equal).
std::string toJson(const KernelMetadata &metadata);

/// Why code built for `arch` (sm_XY or sm_XYa) cannot run on a device of compute capability
/// major.minor, or "" when it can. A cubin needs the same major and minor <= the device's; PTX
/// any newer device; the "a" (arch-specific) variants exactly that device.
std::string archMismatch(std::string_view arch, int major, int minor, bool isPtx);

} // namespace tile::rt
