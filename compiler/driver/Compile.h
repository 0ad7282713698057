// Kernel source to cubin in one call: the front end, the pass pipeline, LLVM's NVPTX back
// end, ptxas and the launch metadata. This is what the JIT layer and the tests call; tile-cc
// drives the same stages one by one so it can stop and print at each.
#pragma once

#include "compiler/frontend/Specialization.h"

#include <string>
#include <vector>

namespace tile::driver {

struct CompileOptions {
  std::string arch = "sm_90a";
  int64_t numThreads = 0; // 0: chosen per kernel (tile-choose-threads)
  unsigned optLevel = 2;
  /// Stages of pipelined loops (tile-pipeline-loops): 0 from latency hints, 1 off, 2-8 forced.
  int64_t pipelineStages = 0;
  /// Keep the PTX in the result (the driver can JIT it when ptxas is absent).
  bool keepPtx = true;
  /// Skip ptxas: the result holds PTX only (for machines without the CUDA toolkit).
  bool ptxOnly = false;
  /// Directories searched for imported kernel modules after the source's own directory
  /// (frontend/Imports.h; tile-cc -I, JitOptions::importPath).
  std::vector<std::string> importPath;
};

struct CompiledKernel {
  std::string cubin; // empty with ptxOnly
  std::string ptx;
  std::string metadata; // JSON, format "tile-kernel/1"
  /// What the caller should show though the compile succeeded: a kernel that spills registers
  /// (target::kernelSpillWarning). One line each, without a "warning:" prefix.
  std::vector<std::string> warnings;
};

/// Compiles kernel `spec.kernel` of `source` (named `fileName` in diagnostics; the kernel
/// modules it imports are read beside `fileName` and on options.importPath). On failure
/// returns false and `diagnostics` holds the rendered errors (file:line:col, source, caret).
bool compileKernel(const std::string &source, const std::string &fileName, const frontend::Specialization &spec,
                   const CompileOptions &options, CompiledKernel &result, std::string &diagnostics);

} // namespace tile::driver
