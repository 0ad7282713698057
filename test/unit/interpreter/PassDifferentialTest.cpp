// The tile-level passes must not change what a kernel computes. Random small kernels from a
// generator (element-wise math, broadcasts, reductions, scans, shape round trips, Tensor Core
// products, loops carrying state) are interpreted as the front end emits them and again after
// the tile passes (canonicalize, CSE, layout assignment and conversion removal: everything
// before per-thread lowering); the outputs must agree bit for bit. A miscompiling fold or
// layout rewrite fails here, without a GPU.

#include "InterpreterTestUtil.h"

#include "compiler/pipeline/Pipeline.h"

#include "mlir/Pass/PassManager.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace tile::interp;
using namespace tile::interp::test;

namespace {

// Builds one random kernel: two (TM, TN) f32 input tiles, a (TN, TN) bf16 weight, a chain of
// statements over tile variables, one store.
class KernelGenerator {
public:
  explicit KernelGenerator(uint32_t seed) : rng_(seed) {}

  std::string source() {
    std::ostringstream s;
    s << "import cuda.tile as ct\n\n@ct.kernel\n"
         "def gen(x, y, w, out, n: int, TM: ct.Constant[int], TN: ct.Constant[int]):\n"
         "    i = ct.bid(0)\n"
         "    j = ct.bid(1)\n"
         "    v0 = ct.load(x, (i, j), (TM, TN), padding_mode=ct.PaddingMode.ZERO)\n"
         "    v1 = ct.load(y, (i, j), (TM, TN), padding_mode=ct.PaddingMode.ZERO)\n"
         "    wt = ct.load(w, (0, 0), (TN, TN), padding_mode=ct.PaddingMode.ZERO)\n";
    vars_ = 2;
    int statements = pick(3, 9);
    for (int k = 0; k < statements; ++k)
      s << "    v" << vars_ << " = " << expression() << "\n", ++vars_;
    s << "    ct.store(out, (i, j), " << var() << ")\n";
    return s.str();
  }

private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::string var() { return "v" + std::to_string(pick(0, vars_ - 1)); }

  // A (TM, TN) f32 expression over existing variables.
  std::string expression() {
    std::string a = var(), b = var();
    switch (pick(0, 21)) {
    case 0:
      return a + " + " + b;
    case 1:
      return a + " - " + b;
    case 2:
      return a + " * " + b;
    case 3:
      return "ct.maximum(" + a + ", " + b + ")";
    case 4:
      return "ct.minimum(" + a + ", " + b + ")";
    case 5:
      return "ct.where(" + a + " > " + b + ", " + a + ", " + b + " * 0.5)";
    case 6:
      return "ct.exp(" + a + " * 0.125)";
    case 7:
      return "ct.abs(" + a + ") + 1.0";
    case 8:
      return a + " + ct.sum(" + b + ", axis=1, keepdims=True)";
    case 9:
      return a + " * ct.max(" + b + ", axis=0, keepdims=True)";
    case 10:
      return "ct.cumsum(" + a + ", axis=" + std::to_string(pick(0, 1)) + ")";
    case 11:
      return "ct.mma(" + a + ".astype(ct.bfloat16), wt, ct.zeros((TM, TN), dtype=ct.float32))";
    case 12:
      return "ct.matmul(" + a + ".astype(ct.bfloat16), wt) + " + b;
    case 13:
      return "ct.transpose(ct.transpose(" + a + ")) * 1.0 + 0.0";
    case 14:
      return "ct.reshape(ct.reshape(" + a + ", (TM * TN,)), (TM, TN))";
    case 15:
      return a + ".astype(ct.bfloat16).astype(ct.float32)";
    case 16:
      return a + " * (2.0 * 0.25) + ct.full((TM, TN), 3.0, dtype=ct.float32) - 3.0";
    case 17:
      return "ct.where(ct.arange(TN)[None, :] < ct.arange(TM)[:, None], " + a + ", 0.0)";
    case 18:
      return "ct.cumsum(ct.exp(" + a + " * 0.0625), axis=1) / (ct.sum(ct.exp(" + a +
             " * 0.0625), axis=1, keepdims=True) + 1.0)";
    case 19:
      return "ct.sqrt(ct.abs(" + a + ")) - ct.min(" + b + ", axis=1, keepdims=True)";
    case 20:
      return "ct.where(" + a + " > 0.0, ct.tanh(" + a + "), ct.sigmoid(" + b + "))";
    default: {
      // A loop carrying an accumulator through Tensor Core products and a rescale.
      std::ostringstream s;
      std::string acc = "v" + std::to_string(vars_);
      s << a << "\n    for k in range(" << pick(0, 3) << "):\n"
        << "        " << acc << " = " << acc << " * 0.5 + ct.mma(" << b
        << ".astype(ct.bfloat16), wt, ct.zeros((TM, TN), dtype=ct.float32))";
      return s.str();
    }
    }
  }

  std::mt19937 rng_;
  int vars_ = 0;
};

// The tile passes the GPU pipeline runs before lowering to per-thread code.
void runTilePasses(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  tile::pipeline::buildTileLayoutPipeline(pm, tile::pipeline::PipelineOptions{});
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  INFO(diagnostics);
  REQUIRE(mlir::succeeded(pm.run(module)));
}

bool sameBits(const Buffer &a, const Buffer &b) {
  for (int64_t k = 0; k < a.size(); ++k) {
    double x = a.get(k), y = b.get(k);
    if (!(x == y || (std::isnan(x) && std::isnan(y))) || std::signbit(x) != std::signbit(y))
      return false;
  }
  return true;
}

} // namespace

TEST_CASE("tile passes preserve what random kernels compute (interpreted before and after)", "[interpreter][passes]") {
  const std::pair<int64_t, int64_t> tiles[] = {{16, 16}, {32, 16}, {64, 32}, {16, 64}};
  int changed = 0, mmaLayouts = 0; // the passes must have had work to do
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    KernelGenerator generator(seed);
    std::string source = generator.source();
    auto [tm, tn] = tiles[seed % 4];
    INFO("seed " << seed << ", TM=" << tm << ", TN=" << tn << "\n" << source);
    auto specialization = spec("gen",
                               {{"x", {"float32", 2}},
                                {"y", {"float32", 2}},
                                {"w", {"bfloat16", 2}},
                                {"out", {"float32", 2}},
                                {"n", {"int32", 0}}},
                               {{"TM", tm}, {"TN", tn}});
    Program before(Program::Python{}, source, specialization);
    Program after(Program::Python{}, source, specialization);
    runTilePasses(*after.module);
    std::string textBefore, textAfter;
    llvm::raw_string_ostream(textBefore) << *before.module;
    llvm::raw_string_ostream(textAfter) << *after.module;
    changed += textBefore != textAfter;
    mmaLayouts += textAfter.find("#tile.mma") != std::string::npos;

    // Ragged in both dimensions: the last tiles are partial.
    const int64_t rows = 2 * tm - 3, cols = 2 * tn - 5;
    Buffer x(DType::Float32, {rows, cols}, [&](int64_t k) { return noise(seed, k) * 4; });
    Buffer y(DType::Float32, {rows, cols}, [&](int64_t k) { return noise(seed + 1000, k) * 4; });
    Buffer w(DType::BFloat16, {tn, tn}, [&](int64_t k) { return noise(seed + 2000, k); });
    Buffer outBefore(DType::Float32, {rows, cols}), outAfter(DType::Float32, {rows, cols});
    Dim3 grid{2, 2, 1};
    REQUIRE(before.run(grid, {x.arg(), y.arg(), w.arg(), outBefore.arg(), LaunchArg::i32(int32_t(rows))}) == "");
    REQUIRE(after.run(grid, {x.arg(), y.arg(), w.arg(), outAfter.arg(), LaunchArg::i32(int32_t(rows))}) == "");
    REQUIRE(sameBits(outBefore, outAfter));
  }
  CHECK(changed >= 150);
  CHECK(mmaLayouts >= 20);
}

TEST_CASE("the pass differential check fails when a pass changes a result", "[interpreter][passes]") {
  // The check itself must be able to fail: a result that differs in one bit is caught.
  Buffer a(DType::Float32, {4}, [](int64_t k) { return 1.0 + k; });
  Buffer b = a;
  REQUIRE(sameBits(a, b));
  b.set(2, std::nextafterf(static_cast<float>(b.get(2)), 10.0f));
  REQUIRE_FALSE(sameBits(a, b));
  b = a;
  b.set(0, -0.0);
  a.set(0, 0.0);
  REQUIRE_FALSE(sameBits(a, b));
}
