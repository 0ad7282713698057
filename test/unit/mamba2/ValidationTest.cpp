// Shape and option validation: every message names the tensor and the expected shape.
#include "kernels/mamba2/Reference.h"
#include "kernels/mamba2/SsdPlan.h"
#include "runtime/Error.h"
#include "test/unit/mamba2/Mamba2TestUtil.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace tile::mamba2;
using tile::mamba2::test::Problem;
using tile::mamba2::test::ProblemSpec;

namespace {

// The message of the InvalidArgument error that `inputs` raise ("" when none).
std::string errorOf(const SsdInputs &inputs, const SsdOptions &options = {}) {
  try {
    reference(inputs, options);
  } catch (const tile::rt::Error &e) {
    CHECK(e.kind() == tile::rt::Error::Kind::InvalidArgument);
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("mamba2 validation: shapes name the tensor and the expectation", "[mamba2][reference]") {
  // b = 2, T = 100, H = 4, P = 3, G = 2, N = 16.
  Problem p({2, 100, 4, 3, 2, 16, 1, true, true, true, {}});
  const SsdInputs good = p.inputs();
  CHECK(errorOf(good).empty());
  std::vector<double> junk(2 * 100 * 6 * 16);

  SsdInputs in = good;
  in.C = TensorView(junk.data(), {2, 100, 3, 16});
  CHECK(errorOf(in) == "C has shape (2, 100, 3, 16) but expected (b, T, G, N) = (2, 100, 2, 16)");

  in = good;
  in.B = TensorView(junk.data(), {2, 99, 2, 16});
  CHECK(errorOf(in) == "B has shape (2, 99, 2, 16) but expected (b, T, G, N) = (2, 100, 2, 16)");

  in = good;
  in.B = TensorView(junk.data(), {2, 100, 3, 16});
  in.C = in.B;
  CHECK(errorOf(in) == "nheads 4 is not divisible by ngroups 3");

  in = good;
  in.x = TensorView(junk.data(), {2, 100, 12});
  CHECK(errorOf(in) == "x has rank 3 (shape (2, 100, 12)) but expected rank 4: (b, T, H, P)");

  in = good;
  in.dt = TensorView(junk.data(), {2, 100, 5});
  CHECK(errorOf(in) == "dt has shape (2, 100, 5) but expected (b, T, H) = (2, 100, 4)");

  in = good;
  in.A = TensorView(junk.data(), {4, 1});
  CHECK(errorOf(in) == "A has rank 2 (shape (4, 1)) but expected rank 1: (H,) = (4,)");

  in = good;
  in.D = TensorView(junk.data(), {4, 4});
  CHECK(errorOf(in) == "D has shape (4, 4) but expected (H, P) = (4, 3)");
  in.D = TensorView(junk.data(), {3});
  CHECK(errorOf(in) == "D has shape (3,) but expected (H,) = (4,)");
  in.D = TensorView(junk.data(), {4, 3, 1});
  CHECK(errorOf(in) == "D has shape (4, 3, 1) but expected (H,) = (4,) or (H, P) = (4, 3)");

  in = good;
  in.z = TensorView(junk.data(), {2, 100, 4, 2});
  CHECK(errorOf(in) == "z has shape (2, 100, 4, 2) but expected (b, T, H, P) = (2, 100, 4, 3)");

  in = good;
  in.dtBias = TensorView(junk.data(), {2});
  CHECK(errorOf(in) == "dt_bias has shape (2,) but expected (H,) = (4,)");

  in = good;
  in.initialStates = TensorView(junk.data(), {2, 4, 16, 3});
  CHECK(errorOf(in) == "initial_states has shape (2, 4, 16, 3) but expected (b, H, P, N) = "
                       "(2, 4, 3, 16)");

  in = good;
  in.B = TensorView(junk.data(), {2, 100, 0, 16});
  in.C = in.B;
  CHECK(errorOf(in) == "ngroups (B's dimension 2) is 0; it must be at least 1");

  // Every model dimension must be at least 1 (a zero used to reach the kernels, which divide
  // by it); the tensors that carry it are zero-sized, so any data pointer does.
  SsdShapes zero{{2, 100, 4, 3}, {2, 100, 4}, {4}, {2, 100, 2, 0}, {2, 100, 2, 0}, {}, {}, {}, {}};
  CHECK_THROWS_WITH(validateShapes(zero), "dstate (B's dimension 3) is 0; it must be at least 1");
  zero = {{2, 100, 0, 3}, {2, 100, 0}, {0}, {2, 100, 2, 16}, {2, 100, 2, 16}, {}, {}, {}, {}};
  CHECK_THROWS_WITH(validateShapes(zero), "nheads (x's dimension 2) is 0; it must be at least 1");
  zero = {{2, 100, 4, 0}, {2, 100, 4}, {4}, {2, 100, 2, 16}, {2, 100, 2, 16}, {}, {}, {}, {}};
  CHECK_THROWS_WITH(validateShapes(zero), "headdim (x's dimension 3) is 0; it must be at least 1");
  // An empty batch or sequence is valid (nothing to compute).
  zero = {{0, 100, 4, 3}, {0, 100, 4}, {4}, {0, 100, 2, 16}, {0, 100, 2, 16}, {}, {}, {}, {}};
  CHECK(validateShapes(zero).batch == 0);
  zero = {{2, 0, 4, 3}, {2, 0, 4}, {4}, {2, 0, 2, 16}, {2, 0, 2, 16}, {}, {}, {}, {}};
  CHECK(validateShapes(zero).seqlen == 0);

  in = good;
  in.x = TensorView(junk.data(), {2, -1, 4, 3});
  CHECK(errorOf(in) == "x has a negative extent: (2, -1, 4, 3)");
}

TEST_CASE("mamba2 validation: the shared shape check reports dimensions", "[mamba2][reference]") {
  SsdShapes s{{2, 100, 8, 64}, {2, 100, 8}, {8}, {2, 100, 2, 128}, {2, 100, 2, 128}, Shape{8, 64}, {}, Shape{8}, {}};
  SsdDims d = validateShapes(s);
  CHECK(d.batch == 2);
  CHECK(d.seqlen == 100);
  CHECK(d.nheads == 8);
  CHECK(d.headdim == 64);
  CHECK(d.ngroups == 2);
  CHECK(d.dstate == 128);
  CHECK(d.headsPerGroup() == 4);
  s.x = {2, 100, 6, 64};
  s.dt = {2, 100, 6};
  s.B = s.C = {2, 100, 4, 128};
  CHECK_THROWS_WITH(validateShapes(s), "nheads 6 is not divisible by ngroups 4");
}

TEST_CASE("mamba2 validation: strides, data, options and chunk size", "[mamba2][reference]") {
  Problem p({1, 5, 2, 2, 1, 2, 0, false, false, false, {}});
  SsdInputs in = p.inputs();
  in.x.strides = {1, 2, 3};
  CHECK(errorOf(in) == "x has 3 strides for shape (1, 5, 2, 2) (expected 4, or none for "
                       "contiguous)");
  in = p.inputs();
  in.B.data = nullptr;
  CHECK(errorOf(in) == "B has no data");
  in = p.inputs();
  in.dt.strides.clear(); // none = contiguous: accepted
  CHECK(errorOf(in).empty());

  SsdOptions bad;
  bad.dtMin = 0.5;
  bad.dtMax = 0.1;
  CHECK_THROWS_WITH(reference(p.inputs(), bad), Catch::StartsWith("dt_limit (0.500000, 0.100000) is not an interval"));
  CHECK_THROWS_WITH(referenceChunked(p.inputs(), 0), "chunk_size 0 must be at least 1");
}

TEST_CASE("mamba2 validation: TILE_SSD_SOURCE replaces the kernels' source, or names the file it cannot read",
          "[mamba2][reference]") {
  struct Env {
    explicit Env(const char *value) { setenv("TILE_SSD_SOURCE", value, 1); }
    ~Env() { unsetenv("TILE_SSD_SOURCE"); }
  };
  const std::string builtIn = ssdSource();
  CHECK(builtIn.find("def compute_out(") != std::string::npos);
  const std::string path = "/tmp/tile-ssd-source-test.py";
  {
    std::ofstream(path) << "# a changed ssd.py\n" << builtIn;
    Env env(path.c_str());
    CHECK(ssdSource() == "# a changed ssd.py\n" + builtIn);
  }
  std::remove(path.c_str());
  Env env(path.c_str());
  try {
    (void)ssdSource();
    FAIL("an unreadable TILE_SSD_SOURCE was accepted");
  } catch (const tile::rt::Error &e) {
    CHECK(std::string(e.what()).find("TILE_SSD_SOURCE=" + path) != std::string::npos);
  }
}
