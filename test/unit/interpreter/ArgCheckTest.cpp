// Launch arguments checked against the kernel signature, with messages naming the parameter.

#include "InterpreterTestUtil.h"

using namespace tile::interp;
using namespace tile::interp::test;

namespace {

const char *kScaleRows = R"py(import cuda.tile as ct

@ct.kernel
def scale_rows(x, s, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,))
    ct.store(out, index=(i, j), tile=(t * k[:, None]).astype(out.dtype))
)py";

tile::frontend::Specialization scaleSpec() {
  return spec("scale_rows", {{"x", {"float32", 2}}, {"s", {"float32", 1}}, {"out", {"bfloat16", 2}}},
              {{"TM", int64_t(64)}, {"TN", int64_t(32)}});
}

InterpreterOptions named() {
  InterpreterOptions o;
  o.argNames = {"x", "s", "out"};
  return o;
}

} // namespace

TEST_CASE("argument count, kind, dtype and rank errors name the parameter", "[interpreter][args][errors]") {
  Program p(Program::Python{}, kScaleRows, scaleSpec());
  Buffer x(DType::Float32, {100, 70}), s(DType::Float32, {100}), out(DType::BFloat16, {100, 70});
  Buffer wrongDtype(DType::Float32, {100, 70}), wrongRank(DType::Float32, {5});

  CHECK(p.run({2, 3, 1}, {x.arg(), s.arg()}, named()) ==
        "error: kernel 'scale_rows' takes 3 argument(s) ('x', 's', 'out'), got 2");
  CHECK(p.run({2, 3, 1}, {x.arg(), LaunchArg::f32(1), out.arg()}, named()) ==
        "error: argument 's': the kernel expects an array of float32 with rank 1, got a scalar of float32");
  CHECK(p.run({2, 3, 1}, {x.arg(), s.arg(), wrongDtype.arg()}, named()) ==
        "error: argument 'out': expected an array of bfloat16, got float32");
  CHECK(p.run({2, 3, 1}, {wrongRank.arg(), s.arg(), out.arg()}, named()) ==
        "error: argument 'x': expected rank 2, got rank 1 (shape (5,))");
  // Without names the position is given.
  CHECK(p.run({2, 3, 1}, {x.arg(), s.arg(), wrongDtype.arg()}) ==
        "error: argument 'out': expected an array of bfloat16, got float32");

  HostArray badStrides = x.array();
  badStrides.strides = {70};
  CHECK(p.run({2, 3, 1}, {LaunchArg::of(badStrides), s.arg(), out.arg()}, named()) ==
        "error: argument 'x': has 1 strides for shape (100, 70)");
  HostArray negative = x.array();
  negative.shape = {-1, 70};
  CHECK(p.run({2, 3, 1}, {LaunchArg::of(negative), s.arg(), out.arg()}, named()) ==
        "error: argument 'x': shape (-1, 70) has a negative dimension");
  HostArray null = x.array();
  null.data = nullptr;
  null.allocBegin = null.allocEnd = nullptr;
  CHECK(p.run({2, 3, 1}, {LaunchArg::of(null), s.arg(), out.arg()}, named()) ==
        "error: argument 'x': data is null but the array has 7000 elements");

  CHECK(p.run({2, 3, 1}, {x.arg(), s.arg(), out.arg()}, named(), "nope") ==
        "error: no kernel named 'nope' in the module (kernels: scale_rows)");
  CHECK(p.run({2, 3, 1}, {x.arg(), s.arg(), out.arg()}, named()) == "");
}

TEST_CASE("scalar dtypes must match, static dimensions must agree, tile.name names parameters",
          "[interpreter][args][errors]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @k(%x: !tile.array<?x64xf32> {tile.name = "rows"}, %n: i32 {tile.name = "n"}, %f: f16) {
  tile.return
}
)mlir");
  Buffer good(DType::Float32, {3, 64}), bad(DType::Float32, {3, 60});
  CHECK(p.run({1, 1, 1}, {good.arg(), LaunchArg::i32(1), LaunchArg::floating(DType::Float16, 1)}) == "");
  CHECK(p.run({1, 1, 1}, {bad.arg(), LaunchArg::i32(1), LaunchArg::floating(DType::Float16, 1)}) ==
        "error: argument 'rows': dimension 1 must be 64 (static in the kernel), got 60 (shape (3, 60))");
  CHECK(p.run({1, 1, 1}, {good.arg(), LaunchArg::i64(1), LaunchArg::floating(DType::Float16, 1)}) ==
        "error: argument 'n': the kernel expects a scalar of int32, got a scalar of int64");
  CHECK(p.run({1, 1, 1}, {good.arg(), LaunchArg::i32(1), good.arg()}) ==
        "error: argument 'arg2': the kernel expects a scalar of float16, got an array of float32 with rank 2");
}
