// The C++ that `tile-cc --emit=launcher` writes: a header declaring a typed launch function per
// kernel specialization and a source file embedding its images (cubins per architecture, PTX
// for newer devices) and calling tile::rt::EmbeddedKernel. The generated code depends on the
// runtime core alone (TileCC::runtime): no MLIR, no compiler, no files at run time.
#pragma once

#include "runtime/KernelMetadata.h"
#include "tools/tile-cc/LauncherTuning.h"

#include <string>
#include <vector>

namespace tile::tools {

/// One compiled image of a specialization.
struct LauncherImage {
  std::string arch;
  bool isPtx = false;
  std::string bytes;    // cubin or PTX
  std::string metadata; // tile-kernel/1 JSON
};

/// One specialization: an autotune configuration (or the kernel's only one) and its images.
struct LauncherVariant {
  int config = -1; // the @ct.autotune index; -1 when the kernel has no configurations
  std::vector<LauncherImage> images;
  rt::KernelMetadata metadata; // parsed from images[0] (parameters, constants)
};

struct LauncherOptions {
  std::string name;       // the function names: launch_<name>, <name>_kernel ...
  std::string nameSpace;  // "" for the global namespace; may be nested (a::b)
  std::string headerName; // how the source includes the header ("matmul_launcher.h")
  std::string command;    // the command line, for the comment at the top
  /// The autotuner's decisions to compile in (--tuning-table; several variants only), or null:
  /// NAME_tuned_config then picks a configuration for a launch.
  const LauncherTuning *tuning = nullptr;
};

/// Parses images[0]'s metadata into `metadata` and checks that every image has the same
/// parameters; false with `error` otherwise.
bool parseLauncherMetadata(LauncherVariant &variant, std::string &error);

/// A valid C++ identifier (letters, digits, '_', not starting with a digit) or a namespace of
/// them separated by "::"; otherwise an error message naming `what`.
std::string checkIdentifier(const std::string &text, const std::string &what, bool allowNested);

/// The kernel parameters' names in the generated C++: each Python name, with trailing '_'s
/// where it is a C++ keyword or standard macro or one of the generated code's own names
/// (config, embedded, grid, stream), until it differs from every other parameter's.
std::vector<std::string> launcherParameterNames(const rt::KernelMetadata &md);

/// Whether `name` is a C++ keyword, alternative token or standard macro (NULL, errno ...).
bool isCppReservedWord(const std::string &name);

/// The header and the source. Array parameters take a tile::rt::Arg (an ArrayArg or a DLPack
/// tensor), scalars their C++ type (float, double, int8_t ... int64_t, bool) or a tile::rt::Scalar
/// for float16, bfloat16, tfloat32 and the float8 types.
void writeLauncher(const std::vector<LauncherVariant> &variants, const LauncherOptions &options, std::string &header,
                   std::string &source);

} // namespace tile::tools
