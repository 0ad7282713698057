// tile-cc --all-configs: every @ct.autotune configuration of one kernel, compiled on N
// threads (each with its own MLIR context; ptxas runs in parallel) into a package directory
// that rt::loadKernelPackage loads (runtime/KernelPackage.h).
#pragma once

#include "compiler/driver/Compile.h"

#include <map>
#include <string>
#include <vector>

namespace tile::tools {

struct AllConfigsRequest {
  std::string source, fileName;
  frontend::Specialization spec; // kernel, constants, argument types (config unset)
  /// The kernel's @ct.autotune configurations (their constants), in order.
  std::vector<std::map<std::string, frontend::ConstantValue>> configs;
  driver::CompileOptions options;
  unsigned jobs = 1;
  std::string outDir;
};

/// Builds the package; prints each configuration's diagnostics to stderr and a summary to
/// stdout. Exit code: 0 when at least one configuration was built (those that fail are listed
/// in the manifest with their reason), 1 when none was, 3 when the package cannot be written.
int buildAllConfigs(const AllConfigsRequest &request);

} // namespace tile::tools
