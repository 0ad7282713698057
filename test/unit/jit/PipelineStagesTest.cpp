// TILE_PIPELINE_STAGES: the JIT's default for JitOptions::pipelineStages, and its cache key.

#include "runtime/jit/Jit.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <string>

using namespace tile;

namespace {

// Sets (or unsets, for null) TILE_PIPELINE_STAGES for one scope.
class ScopedStages {
public:
  explicit ScopedStages(const char *value) {
    if (const char *old = std::getenv("TILE_PIPELINE_STAGES"))
      old_ = old;
    if (value)
      setenv("TILE_PIPELINE_STAGES", value, 1);
    else
      unsetenv("TILE_PIPELINE_STAGES");
  }
  ~ScopedStages() {
    if (old_)
      setenv("TILE_PIPELINE_STAGES", old_->c_str(), 1);
    else
      unsetenv("TILE_PIPELINE_STAGES");
  }

private:
  std::optional<std::string> old_;
};

} // namespace

TEST_CASE("jit: TILE_PIPELINE_STAGES is 0 to 8, and anything else is refused naming it", "[jit][pipeline]") {
  {
    ScopedStages unset(nullptr);
    CHECK(jit::pipelineStagesFromEnvironment() == 0);
  }
  {
    ScopedStages empty("");
    CHECK(jit::pipelineStagesFromEnvironment() == 0);
  }
  for (const char *v : {"0", "1", "4", "8"}) {
    ScopedStages set(v);
    CHECK(jit::pipelineStagesFromEnvironment() == std::stoi(v));
  }
  for (const char *v : {"9", "-1", "two", "3 ", "03"}) {
    INFO(v);
    ScopedStages set(v);
    try {
      jit::pipelineStagesFromEnvironment();
      FAIL("accepted");
    } catch (const rt::Error &e) {
      CHECK(e.kind() == rt::Error::Kind::InvalidArgument);
      CHECK(std::string(e.what()).find("TILE_PIPELINE_STAGES='" + std::string(v) + "'") != std::string::npos);
    }
  }
}

TEST_CASE("jit: a forced number of pipeline stages is part of the cache key", "[jit][pipeline]") {
  jit::KernelRequest request;
  request.source = "import cuda.tile as ct\n";
  request.kernel = "k";
  jit::JitOptions hints, off, four;
  hints.pipelineStages = 0;
  off.pipelineStages = 1;
  four.pipelineStages = 4;
  const std::string a = jit::cacheKey(request, hints, "sm_90a");
  CHECK(a != jit::cacheKey(request, off, "sm_90a"));
  CHECK(a != jit::cacheKey(request, four, "sm_90a"));
  CHECK(jit::cacheKey(request, off, "sm_90a") != jit::cacheKey(request, four, "sm_90a"));
}
