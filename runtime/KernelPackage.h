// A kernel package: every @ct.autotune configuration of one kernel, built ahead of time
// (`tile-cc --all-configs -o DIR`), so an application loads them all without the compiler
// and picks one (by its tuner, a shipped table or a fixed choice).
//
// A package is a directory: `manifest.json` ("tile-package/1") lists each configuration with
// its constants and its files (`<kernel>.config<N>.cubin` or `.ptx`, and the tile-kernel/1
// metadata `<kernel>.config<N>.json`), or the reason it was not built (a configuration the
// kernel's static_asserts refuse at these constants, say).
#pragma once

#include "runtime/Device.h"
#include "runtime/Kernel.h"

#include <map>
#include <string>
#include <vector>

namespace tile::rt {

struct PackageEntry {
  unsigned config = 0;
  std::map<std::string, std::string> constants; // the configuration's constants as written
  std::string binary, metadata;                 // file names inside the package; empty when not built
  std::string error;                            // why it was not built
  bool built() const { return error.empty(); }
};

struct PackageManifest {
  std::string kernel, arch;
  std::vector<PackageEntry> entries;
};

inline constexpr const char *kPackageFormat = "tile-package/1";

/// The manifest as JSON (what tile-cc writes; parses back equal).
std::string toJson(const PackageManifest &manifest);
/// Parses and checks a manifest; throws Error(InvalidMetadata) "ORIGIN: FIELD: problem". File
/// names must be plain names inside the package (no '/', not '.' or '..').
PackageManifest parsePackageManifest(const std::string &text, const std::string &origin);

/// A loaded configuration.
struct PackagedKernel {
  unsigned config = 0;
  std::map<std::string, std::string> constants;
  Kernel kernel;
};

/// Loads every built configuration of the package in `dir` onto `device` (Error(Io) for a
/// missing file, InvalidMetadata for a bad manifest or metadata, InvalidArgument for a kernel
/// the device cannot run).
std::vector<PackagedKernel> loadKernelPackage(const Device &device, const std::string &dir);

} // namespace tile::rt
