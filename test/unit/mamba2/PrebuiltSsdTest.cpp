// The Mamba-2 kernels prebuilt into the library: every configuration of every shipped signature
// is in the archive under the key a Jit computes with its default options, compiled for the
// target it names, and a changed source or another signature misses (the JIT compiles those).

#include "kernels/mamba2/SsdPrebuilt.h"
#include "runtime/KernelMetadata.h"
#include "runtime/jit/Prebuilt.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tile;

#ifndef TILE_SSD_PREBUILT_SET
#error "test/unit/CMakeLists.txt passes the build's TILE_SSD_PREBUILT and TILE_SSD_PREBUILT_ARCHS"
#endif

namespace {

std::vector<std::string> builtArchs() { return mamba2::parseTargets(TILE_SSD_PREBUILT_ARCHS); }

} // namespace

TEST_CASE("the prebuilt archive holds every configuration of its signatures, keyed as the JIT keys them",
          "[mamba2][prebuilt]") {
  mamba2::registerPrebuiltSsdKernels();
  const std::string set = TILE_SSD_PREBUILT_SET;
  if (set == "off") {
    SUCCEED("configured with TILE_SSD_PREBUILT=off: nothing is prebuilt");
    return;
  }
  auto noWarnings = [](const std::string &w) { FAIL(w); };
  std::size_t built = 0, failed = 0;
  for (const std::string &arch : builtArchs())
    for (const mamba2::SsdSignature &s : mamba2::prebuiltSignatures(set)) {
      INFO(s.str() << " on " << arch);
      for (const jit::KernelRequest &request : mamba2::forwardRequests(s)) {
        INFO(request.kernel << " config " << *request.config);
        // What a Jit with nothing set in the environment computes (Jit.h).
        auto record = jit::findPrebuilt(jit::cacheKey(request, jit::JitOptions{}, arch), noWarnings);
        REQUIRE(record);
        if (!record->entry) {
          CHECK(record->error.find("'" + request.kernel + "'") != std::string::npos);
          ++failed;
          continue;
        }
        rt::KernelMetadata metadata = rt::parseKernelMetadata(record->entry->metadata, "prebuilt");
        CHECK(metadata.name == request.kernel);
        CHECK(metadata.arch == arch);
        ++built;
      }
    }
  CHECK(built > 0);
  CHECK(failed * 10 < built); // a few configurations may not fit a target; most do
}

TEST_CASE("a changed kernel source or an unshipped signature misses the prebuilt archive", "[mamba2][prebuilt]") {
  mamba2::registerPrebuiltSsdKernels();
  const std::string set = TILE_SSD_PREBUILT_SET;
  if (set == "off")
    return;
  auto ignore = [](const std::string &) {};
  const std::string arch = builtArchs().front();
  jit::KernelRequest request = mamba2::forwardRequests(mamba2::prebuiltSignatures(set).front()).front();
  REQUIRE(jit::findPrebuilt(jit::cacheKey(request, jit::JitOptions{}, arch), ignore));
  jit::KernelRequest edited = request;
  edited.source += "\n# an edited ssd.py (TILE_SSD_SOURCE)\n";
  CHECK(!jit::findPrebuilt(jit::cacheKey(edited, jit::JitOptions{}, arch), ignore));
  jit::JitOptions stages;
  stages.pipelineStages = 3;
  CHECK(!jit::findPrebuilt(jit::cacheKey(request, stages, arch), ignore));
  // dstate 16 is no shipped signature.
  mamba2::SsdSignature other{80, 64, 1, 16, rt::DType::BFloat16, rt::DType::Float32, 64};
  for (const jit::KernelRequest &r : mamba2::forwardRequests(other))
    if (r.kernel == "fwd_pass_state")
      CHECK(!jit::findPrebuilt(jit::cacheKey(r, jit::JitOptions{}, arch), ignore));
}

TEST_CASE("prebuilt targets and signature sets are checked", "[mamba2][prebuilt]") {
  CHECK(mamba2::parseTargets("sm_90a,sm_80") == std::vector<std::string>{"sm_90a", "sm_80"});
  CHECK(mamba2::parseTargets(",sm_80,") == std::vector<std::string>{"sm_80"});
  CHECK_THROWS_WITH(mamba2::parseTargets("sm_90a,sm_999x"), "unknown target 'sm_999x'");
  CHECK_THROWS_WITH(mamba2::parseTargets(""), "no target given");
  CHECK_THROWS_WITH(mamba2::prebuiltSignatures("most"), "prebuilt signature set 'most': expected core or full");
  CHECK(mamba2::prebuiltSignatures("core").size() == 14);
  CHECK(mamba2::prebuiltSignatures("full").size() == 63);
}
