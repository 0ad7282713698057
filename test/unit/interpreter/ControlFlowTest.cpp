// The grid, scf control flow, tile.print and tile.assert, and what the interpreter refuses.

#include "InterpreterTestUtil.h"

using namespace tile::interp;
using namespace tile::interp::test;
using Catch::Matchers::Contains;

TEST_CASE("every block runs once, x fastest, and sees its bid and the grid", "[interpreter][grid]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @grid(%o: !tile.array<?x?x?x?xi32>, %counter: !tile.array<?xi32>) {
  %c0 = arith.constant 0 : i32
  %i0 = arith.constant 0 : index
  %x = tile.bid 0
  %y = tile.bid 1
  %z = tile.bid 2
  %nx = tile.num_blocks 0
  %ny = tile.num_blocks 1
  %nz = tile.num_blocks 2
  %zero = arith.constant dense<0> : tensor<1xi32>
  %one = arith.constant dense<1> : tensor<1xi32>
  %old = tile.atomic_add %one, %counter[%zero] : tensor<1xi32>, !tile.array<?xi32>[tensor<1xi32>]
  %seq = tensor.extract %old[%i0] : tensor<1xi32>
  %t = tensor.from_elements %x, %y, %z, %nx, %ny, %nz, %seq, %c0 : tensor<8xi32>
  %t4 = tile.reshape %t : tensor<8xi32> -> tensor<1x1x1x8xi32>
  tile.store %t4, %o[%z, %y, %x, %c0] : tensor<1x1x1x8xi32>, !tile.array<?x?x?x?xi32>[i32, i32, i32, i32]
  tile.return
}
)mlir");
  Buffer o(DType::Int32, {4, 3, 2, 8}, [](int64_t) { return -1; }), counter(DType::Int32, {1});
  REQUIRE(p.run({2, 3, 4}, {o.arg(), counter.arg()}) == "");
  CHECK(counter.get(0) == 24);
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 2; ++x) {
        int64_t base = ((z * 3 + y) * 2 + x) * 8;
        const int want[7] = {x, y, z, 2, 3, 4, (z * 3 + y) * 2 + x};
        for (int k = 0; k < 7; ++k)
          REQUIRE(o.get(base + k) == want[k]);
      }

  // onlyBlock runs one block of the same grid.
  Buffer o2(DType::Int32, {4, 3, 2, 8}, [](int64_t) { return -1; }), c2(DType::Int32, {1});
  InterpreterOptions options;
  options.onlyBlock = Dim3{1, 2, 3};
  REQUIRE(p.run({2, 3, 4}, {o2.arg(), c2.arg()}, options) == "");
  CHECK(c2.get(0) == 1);
  CHECK(o2.get(((3 * 3 + 2) * 2 + 1) * 8) == 1);
  CHECK(o2.get(0) == -1);

  CHECK_THAT(p.run({0, 1, 1}, {o.arg(), counter.arg()}), Contains("error: grid (0, 1, 1) must have"));
}

TEST_CASE("scf.for carries values, including negative-step Python ranges; scf.if yields results",
          "[interpreter][scf]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def loops(x, out, n):
    acc = ct.zeros((16,), dtype=ct.float32)
    k = 0
    for i in range(1, n):
        t = ct.load(x, (i,), (16,), padding_mode=ct.PaddingMode.ZERO)
        if i % 2 == 0:
            acc = acc + t
        else:
            acc = acc - t * 0.5
        k += 1
    total = 0
    for j in range(10, 0, -3):
        total += j
    ct.store(out, (0,), acc + k + total)
)py",
            spec("loops", {{"x", {"float32", 1}}, {"out", {"float32", 1}}, {"n", {"int32", 0}}}));
  Buffer x(DType::Float32, {100}, [](int64_t k) { return noise(120, k); });
  Buffer out(DType::Float32, {16});
  for (int n : {0, 1, 5, 8}) {
    INFO("n = " << n);
    REQUIRE(p.run({1, 1, 1}, {x.arg(), out.arg(), LaunchArg::i32(n)}) == "");
    for (int e = 0; e < 16; ++e) {
      float acc = 0;
      int k = 0;
      for (int i = 1; i < n; ++i, ++k) {
        float t = i * 16 + e < 100 ? static_cast<float>(x.get(i * 16 + e)) : 0.0f;
        acc = i % 2 == 0 ? acc + t : acc - t * 0.5f;
      }
      REQUIRE(out.get(e) == acc + static_cast<float>(k) + 22.0f); // 10 + 7 + 4 + 1
    }
  }
}

TEST_CASE("tile.print formats scalars and tiles once per block", "[interpreter][print]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @p(%s: f32, %n: i64) {
  %b = tile.bid 0
  %nb = tile.num_blocks 0
  tile.print "block %d of %d: %5.2f %llx 100%%\n", %b, %nb, %s, %n : i32, i32, f32, i64
  %i = tile.iota : tensor<4xi32>
  %f = arith.sitofp %i : tensor<4xi32> to tensor<4xbf16>
  %m = tile.reshape %f : tensor<4xbf16> -> tensor<2x2xbf16>
  %c = arith.constant dense<[true, false]> : tensor<2xi1>
  tile.print "%03d|%.1e|%d\n", %i, %m, %c : tensor<4xi32>, tensor<2x2xbf16>, tensor<2xi1>
  tile.print "plain\n"
  tile.return
}
)mlir");
  REQUIRE(p.run({2, 1, 1}, {LaunchArg::f32(3.14159f), LaunchArg::i64(255)}) == "");
  CHECK(p.printed == "block 0 of 2:  3.14 ff 100%\n"
                     "[000, 001, 002, 003]|[[0.0e+00, 1.0e+00], [2.0e+00, 3.0e+00]]|[1, 0]\n"
                     "plain\n"
                     "block 1 of 2:  3.14 ff 100%\n"
                     "[000, 001, 002, 003]|[[0.0e+00, 1.0e+00], [2.0e+00, 3.0e+00]]|[1, 0]\n"
                     "plain\n");
}

TEST_CASE("a failing assert names its message, location and block", "[interpreter][assert][errors]") {
  Program p(Program::Python{}, R"py(import cuda.tile as ct

@ct.kernel
def checked(x, eps):
    assert eps > 0.0, "eps must be positive"
    t = ct.load(x, (ct.bid(0),), (8,))
    assert t < 100.0, "values stay small"
    ct.store(x, (ct.bid(0),), t + 1.0)
)py",
            spec("checked", {{"x", {"float32", 1}}, {"eps", {"float32", 0}}}));
  Buffer x(DType::Float32, {16}, [](int64_t k) { return k == 10 ? 500 : k; });
  CHECK_THAT(p.run({2, 1, 1}, {x.arg(), LaunchArg::f32(-1.0f)}),
             Contains("k.py:5:5: error: assertion failed: eps must be positive (block (0, 0, 0))"));
  CHECK_THAT(p.run({2, 1, 1}, {x.arg(), LaunchArg::f32(1.0f)}),
             Contains("k.py:7:5: error: assertion failed: values stay small (element (2,) is false) "
                      "(block (1, 0, 0))"));
  CHECK(x.get(0) == 1); // block 0 ran to the end
  CHECK(x.get(8) == 8); // block 1 stopped before its store
}

TEST_CASE("unsupported ops and types are refused before anything runs", "[interpreter][errors]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @k(%x: !tile.array<?xi32>, %a: i32) {
  %c0 = arith.constant 0 : i32
  %t = arith.constant dense<7> : tensor<4xi32>
  tile.store %t, %x[%c0] : tensor<4xi32>, !tile.array<?xi32>[i32]
  %lo, %hi = arith.mulsi_extended %a, %a : i32
  tile.return
}
)mlir");
  Buffer x(DType::Int32, {4});
  CHECK(p.run({1, 1, 1}, {x.arg(), LaunchArg::i32(3)}) ==
        "k.mlir:6:14: error: the interpreter does not support 'arith.mulsi_extended'");
  CHECK(x.get(0) == 0); // the store before it did not run

  Program q(Program::Mlir{}, R"mlir(
tile.kernel @k() {
  %c = arith.constant dense<1> : tensor<4xi4>
  tile.return
}
)mlir");
  CHECK_THAT(q.run({1, 1, 1}, {}), Contains("k.mlir:3:8: error: the interpreter does not support results of type "
                                            "tensor<4xi4> (in 'arith.constant')"));
}

TEST_CASE("IR that does not verify is refused with the verifier's message", "[interpreter][errors]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @k(%x: !tile.array<?xf32>) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %x[%c0] : !tile.array<?xf32>[i32] -> tensor<8xf32>
  tile.store %t, %x[%c0] : tensor<8xf32>, !tile.array<?xf32>[i32]
  tile.return
}
)mlir");
  // Break it after parsing: a load whose result rank no longer matches the array.
  p.module->walk([](mlir::tile::LoadOp load) {
    load.getResult().setType(mlir::RankedTensorType::get({8, 1}, load.getType().getElementType()));
  });
  Buffer x(DType::Float32, {8});
  CHECK_THAT(p.run({1, 1, 1}, {x.arg()}), Contains("k.mlir:4:8: error: the kernel does not verify: "));
}
