// LaunchTimer, the timer of real launches, on the interpreter backend: it compiles every
// variant at once, reports the one that does not compile, times the others with the
// backend's clock, and the winner's final launch gives the caller the right results.
#include "runtime/jit/LaunchTimer.h"
#include "test/unit/autotune/AutotuneTestUtil.h"
#include "test/unit/jit/BackendTestUtil.h"

using namespace tile;
using namespace tile::jit;
using namespace tile::jit::test;

TEST_CASE("LaunchTimer compiles, skips and times launches on the interpreter", "[autotune]") {
  BackendOptions options;
  options.choice = BackendOptions::Choice::Interpreter;
  Backend backend(options);
  const int64_t n = 300;
  std::vector<float> x(n), y(n, 1.0f);
  for (int64_t i = 0; i < n; ++i)
    x[size_t(i)] = float(i);
  Buffer dx = backend.upload(x), dy = backend.upload(y), out = backend.allocate(n * sizeof(float));
  std::vector<rt::Arg> args = {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n}),
                               out.array(rt::DType::Float32, {n}), 3.0f};
  std::vector<LaunchTimer::Variant> variants;
  for (int64_t block : {int64_t(128), int64_t(48), int64_t(64)}) // 48: not a power of two
    variants.push_back({saxpyRequest(block), rt::Grid((n + block - 1) / block)});
  LaunchTimer timer(backend, variants, args);
  std::vector<std::string> errors = timer.prepare(3);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].empty());
  CHECK_FALSE(errors[1].empty());
  CHECK(errors[2].empty());
  CHECK_THROWS_AS(timer.kernel(1), rt::Error);

  Tuner tuner("", quiet());
  std::vector<TuneCandidate> cands = {{0, {{"BLOCK", "128"}}}, {1, {{"BLOCK", "48"}}}, {2, {{"BLOCK", "64"}}}};
  TuneDecision d = tuner.choose(key("saxpy"), cands, timer);
  CHECK(d.winner != 1);
  CHECK(d.rows[1].status == TuneRow::Status::Failed);
  CHECK(d.rows[1].reason.find("does not compile") == 0);
  for (size_t i : {size_t(0), size_t(2)}) {
    CHECK(d.rows[i].status != TuneRow::Status::Failed);
    CHECK(d.rows[i].ms > 0);
  }
  // What the caller sees: the winner's own launch over the outputs the timing wrote.
  out.fillBytes(0xff);
  backend.launch(timer.kernel(d.winner), variants[d.winner].grid, args);
  std::vector<float> got = out.toHost<float>();
  for (int64_t i = 0; i < n; ++i)
    REQUIRE(got[size_t(i)] == 3.0f * float(i) + 1.0f);
  CHECK_THROWS_AS(timer.prepare(2), rt::Error);
}

TEST_CASE("a kernel that accumulates into its output is tuned without compounding it", "[autotune]") {
  BackendOptions options;
  options.choice = BackendOptions::Choice::Interpreter;
  Backend backend(options);
  KernelRequest r;
  r.source = R"py(import cuda.tile as ct

@ct.autotune(configs=[dict(B=64), dict(B=128)], key=["n"])
@ct.kernel
def accumulate(x, y, B: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, (i,), ct.load(y, (i,), (B,)) + ct.load(x, (i,), (B,)))
)py";
  r.fileName = "accumulate.py";
  r.kernel = "accumulate";
  r.args = {{"x", {"float32", 1}}, {"y", {"float32", 1}}};
  const int64_t n = 256;
  std::vector<float> x(n), y0(n);
  for (int64_t i = 0; i < n; ++i)
    x[size_t(i)] = float(i), y0[size_t(i)] = 1000.0f + float(i);
  Buffer dx = backend.upload(x), dy = backend.upload(y0);
  std::vector<rt::Arg> args = {dx.array(rt::DType::Float32, {n}), dy.array(rt::DType::Float32, {n})};
  std::vector<LaunchTimer::Variant> variants;
  for (unsigned config : {0u, 1u}) {
    KernelRequest v = r;
    v.config = config;
    variants.push_back({v, rt::Grid(n / (config ? 128 : 64))});
  }
  LaunchTimer timer(backend, variants, args);
  timer.preserve({&dy});
  Tuner tuner("", quiet());
  std::vector<TuneCandidate> cands = {{0, {{"B", "64"}}}, {1, {{"B", "128"}}}};
  TuneDecision d = tuner.choose(key("accumulate"), cands, timer);
  // Every timed launch started from y0: y holds y0 + x once, not once per launch.
  std::vector<float> afterTiming = dy.toHost<float>();
  for (int64_t i = 0; i < n; ++i)
    REQUIRE(afterTiming[size_t(i)] == y0[size_t(i)] + x[size_t(i)]);
  timer.restore();
  CHECK(dy.toHost<float>() == y0);
  backend.launch(timer.kernel(d.winner), variants[d.winner].grid, args);
  std::vector<float> got = dy.toHost<float>();
  for (int64_t i = 0; i < n; ++i)
    REQUIRE(got[size_t(i)] == y0[size_t(i)] + x[size_t(i)]);
}
