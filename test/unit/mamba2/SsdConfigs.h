// The @ct.autotune configurations that ssd.py declares, read from the source the library
// compiles, for the tests that run every one (forced through the autotuner's TILE_AUTOTUNE_FORCE
// rules, jit::TuneSettings::force).
#pragma once

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "kernels/mamba2/SsdPlan.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

namespace tile::mamba2::test {

// The @ct.autotune configurations of ssd.py's kernels, in SsdPlan::launches' order, read from
// the source the library compiles (so a configuration added there is tested here); only the
// block sizes (occupancy, num_ctas and num_threads do not change what a kernel computes).
inline std::array<std::vector<std::map<std::string, int64_t>>, 4> autotuneConfigs() {
  mlir::MLIRContext context;
  frontend::SourceManager sources;
  frontend::DiagnosticEngine diags(sources);
  auto module = frontend::parseModule(*sources.addBuffer("ssd.py", mamba2::ssdSource()), diags);
  REQUIRE(module);
  std::array<std::vector<std::map<std::string, int64_t>>, 4> configs;
  const char *kernels[4] = {"chunk_cumsum", "chunk_bmm", "fwd_pass_state", "compute_out"};
  for (unsigned k = 0; k < 4; ++k) {
    INFO("kernel " << kernels[k]);
    auto sig = frontend::inspectKernel(*module, kernels[k], context, diags);
    REQUIRE(sig);
    for (const auto &config : sig->autotuneConfigs) {
      std::map<std::string, int64_t> blocks;
      for (const auto &[name, value] : config)
        if (!frontend::isKernelOption(name))
          blocks[name] =
              std::holds_alternative<bool>(value) ? int64_t(std::get<bool>(value)) : std::get<int64_t>(value);
      configs[k].push_back(blocks);
    }
    REQUIRE(configs[k].size() >= 2);
  }
  return configs;
}

/// 2n runs (n: the most configurations a kernel has), each a TILE_AUTOTUNE_FORCE spec
/// ("chunk_cumsum:0;chunk_bmm:1;..."), in which every kernel runs each of its configurations:
/// run r < n gives kernel k its configuration r (mod its count); run n + r gives it (r + k)
/// mod its count, so the kernels that share data also meet other configurations of each other
/// (compute_out reads chunk_bmm's C.B^T at another BQ). The problem should be large enough that
/// no two configurations fit to the same block sizes (nheads >= 16, headdim and chunk >= 64,
/// dstate >= 128; compute_out's heads per block also need 8 heads per group), else the plan
/// merges them and the rule runs the configuration that stands for the merged ones.
inline std::vector<std::string> configRuns() {
  const auto configs = autotuneConfigs();
  const char *kernels[4] = {"chunk_cumsum", "chunk_bmm", "fwd_pass_state", "compute_out"};
  size_t n = 0;
  for (const auto &c : configs)
    n = std::max(n, c.size());
  std::vector<std::string> runs(2 * n);
  for (size_t r = 0; r < 2 * n; ++r)
    for (unsigned k = 0; k < 4; ++k)
      runs[r] += std::string(k ? ";" : "") + kernels[k] + ":" +
                 std::to_string(r < n ? r % configs[k].size() : (r + k) % configs[k].size());
  return runs;
}

} // namespace tile::mamba2::test
