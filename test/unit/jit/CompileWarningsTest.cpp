// The JIT's compile warnings: a kernel compiled alone shows its own; configurations of one
// kernel compiled together for the autotuner get one line naming those that spill.
#include "runtime/jit/CompileWarnings.h"

#include <catch2/catch.hpp>

using namespace tile::jit;

namespace {

KernelRequest request(const std::string &kernel, std::optional<unsigned> config) {
  KernelRequest r;
  r.fileName = "ssd.py";
  r.kernel = kernel;
  r.config = config;
  return r;
}

} // namespace

TEST_CASE("compile warnings: one line per autotuning batch, a kernel's own when alone", "[jit]") {
  const std::string spill = "kernel 'k' spills registers to local memory at 128 threads per block: ...";
  std::vector<KernelRequest> requests = {request("compute_out", 0), request("compute_out", 3),
                                         request("compute_out", 6), request("chunk_cumsum", 1),
                                         request("fwd_pass_state", 2)};
  std::vector<std::vector<std::string>> warnings = {{}, {spill}, {spill}, {spill}, {}};

  auto lines = compileWarningLines(requests, {0, 1, 2, 3, 4}, warnings);
  REQUIRE(lines.size() == 2);
  // Lines come by file and kernel name.
  CHECK(lines[0] == "tile-cc: warning: ssd.py, configuration 1: " + spill);
  CHECK(lines[1] == "tile-cc: warning: ssd.py: kernel 'compute_out': 2 of the 3 configurations compiled for "
                    "autotuning spill registers to local memory (configurations 3, 6); the autotuner times them as "
                    "they are (`tile-cc ssd.py --kernel compute_out --config N` shows each)");

  // Only the requests actually compiled count (the others came from a cache).
  lines = compileWarningLines(requests, {2, 4}, warnings);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "tile-cc: warning: ssd.py, configuration 6: " + spill);

  // A batch without spills says nothing.
  CHECK(compileWarningLines(requests, {0, 4}, warnings).empty());
}
