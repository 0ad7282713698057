// tile-run --backend gpu: the kernel compiled by the JIT and launched on the GPU with the same
// inputs the interpreter had, every array compared with the interpreter's result, and
// optionally timed (--bench).
#pragma once

#include "tools/tile-run/ArraySpec.h"

#include "compiler/interpreter/HostArray.h"
#include "runtime/jit/Jit.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tile::run {

struct GpuRunOptions {
  interp::Dim3 grid;
  std::vector<std::string> paramNames;              // kernel-argument order
  std::map<std::string, interp::LaunchArg> scalars; // by name
  /// Tolerances of the comparison (|gpu - interpreter| <= atol + rtol |interpreter|); unset:
  /// the dtype's defaults (defaultTolerance).
  std::optional<double> rtol, atol;
  int64_t numThreads = 0;      // --num-threads; 0: the compiler chooses
  bool compare = true;         // false (--no-compare): the interpreter did not run
  int benchLaunches = 0;       // --bench N: timed launches after the comparison
  std::optional<double> flops; // --flops: work of one launch, for TFLOP/s
};

/// Runs `request` on the GPU over copies of `initial` (each array's bytes before the
/// interpreter ran), compares every array with `arrays` (the interpreter's results) and writes
/// a line per array to `os`; then, with benchLaunches, the median time. On return `arrays`
/// hold the GPU's results. Returns tile-run's exit code: 0 when every array matches, 1 when
/// one differs or the GPU cannot run the kernel (the reason on `errs`).
int runOnGpu(const jit::KernelRequest &request, const GpuRunOptions &options, std::map<std::string, ArrayArg> &arrays,
             const std::map<std::string, std::vector<char>> &initial, llvm::raw_ostream &os, llvm::raw_ostream &errs);

} // namespace tile::run
