// tile.reduce and tile.scan along each axis, against sequential references computed here.

#include "InterpreterTestUtil.h"

#include <cmath>

using namespace tile::interp;
using namespace tile::interp::test;

namespace {

std::string typeName(DType t) {
  switch (t) {
  case DType::BFloat16:
    return "bf16";
  case DType::Int8:
    return "i8";
  case DType::Int32:
    return "i32";
  default:
    return "f32";
  }
}

// Reduces (or scans) an 8x16 tile loaded from x and stores the result into o.
Buffer run2D(const std::string &op, const std::string &kind, int axis, bool keepdims, DType dtype,
             const std::function<double(int64_t)> &init, bool reverse = false) {
  bool isScan = op == "scan";
  bool isArg = kind == "argmax" || kind == "argmin";
  std::string dt = typeName(dtype), rt = isArg ? "i32" : dt;
  std::vector<int64_t> outShape = {8, 16};
  if (!isScan) {
    if (keepdims)
      outShape[axis] = 1;
    else
      outShape.erase(outShape.begin() + axis);
  }
  std::string shape, arr = "?", idx = "%z", idxT = "i32";
  for (size_t d = 0; d < outShape.size(); ++d)
    shape += std::to_string(outShape[d]) + "x";
  if (outShape.size() == 2) {
    arr = "?x?";
    idx = "%z, %z";
    idxT = "i32, i32";
  }
  std::string in = "tensor<8x16x" + dt + ">", out = "tensor<" + shape + rt + ">";
  std::string body = isScan ? "  %r = tile.scan " + kind + " %t axis = " + std::to_string(axis) +
                                  (reverse ? " reverse" : "") + " : " + in + "\n"
                            : "  %r = tile.reduce " + kind + " %t axis = " + std::to_string(axis) +
                                  (keepdims ? " keepdims" : "") + " : " + in + " -> " + out + "\n";
  std::string text = "tile.kernel @r(%x: !tile.array<?x?x" + dt + ">, %o: !tile.array<" + arr + "x" + rt + ">) {\n" +
                     "  %z = arith.constant 0 : i32\n" + "  %t = tile.load %x[%z, %z] : !tile.array<?x?x" + dt +
                     ">[i32, i32] -> " + in + "\n" + body + "  tile.store %r, %o[" + idx + "] : " + out +
                     ", !tile.array<" + arr + "x" + rt + ">[" + idxT + "]\n  tile.return\n}\n";
  Program p(Program::Mlir{}, text);
  Buffer x(dtype, {8, 16}, init);
  Buffer o(isArg ? DType::Int32 : dtype, outShape);
  REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg()}) == "");
  return o;
}

double at2(const std::function<double(int64_t)> &f, DType dtype, int64_t i, int64_t j) {
  return rounded(f(i * 16 + j), dtype);
}

} // namespace

TEST_CASE("reduce sum/prod/max/min/argmax/argmin along each axis, with and without keepdims", "[interpreter][reduce]") {
  auto init = [](int64_t k) { return noise(60, k) * 2; };
  for (int axis : {0, 1})
    for (bool keep : {false, true})
      for (std::string kind : {"sum", "prod", "max", "min", "argmax", "argmin"}) {
        INFO(kind << " axis " << axis << (keep ? " keepdims" : ""));
        Buffer o = run2D("reduce", kind, axis, keep, DType::Float32, init);
        int64_t outer = axis == 0 ? 16 : 8, len = axis == 0 ? 8 : 16;
        for (int64_t r = 0; r < outer; ++r) {
          auto elem = [&](int64_t j) {
            return axis == 0 ? at2(init, DType::Float32, j, r) : at2(init, DType::Float32, r, j);
          };
          float acc = static_cast<float>(elem(0));
          int64_t best = 0;
          for (int64_t j = 1; j < len; ++j) {
            float v = static_cast<float>(elem(j));
            if (kind == "sum")
              acc = acc + v;
            if (kind == "prod")
              acc = acc * v;
            if (kind == "max")
              acc = std::max(acc, v);
            if (kind == "min")
              acc = std::min(acc, v);
            if (kind == "argmax" && v > elem(best))
              best = j;
            if (kind == "argmin" && v < elem(best))
              best = j;
          }
          double want = kind.rfind("arg", 0) == 0 ? static_cast<double>(best) : static_cast<double>(acc);
          REQUIRE(o.get(r) == want);
        }
      }
}

TEST_CASE("argmax/argmin pick the first of equal values; NaN propagates through max and wins argmax",
          "[interpreter][reduce]") {
  // Row r: values (j % 4), so the maximum 3 appears at j = 3, 7, 11, 15 and the minimum at 0, 4, ...
  auto ties = [](int64_t k) { return static_cast<double>((k % 16) % 4); };
  Buffer am = run2D("reduce", "argmax", 1, false, DType::Int32, ties);
  Buffer an = run2D("reduce", "argmin", 1, false, DType::Int32, ties);
  for (int r = 0; r < 8; ++r) {
    CHECK(am.get(r) == 3);
    CHECK(an.get(r) == 0);
  }
  auto withNan = [](int64_t k) { return k == 5 || k == 9 ? std::nan("") : static_cast<double>(k % 16); };
  Buffer mx = run2D("reduce", "max", 1, false, DType::Float32, withNan);
  Buffer amx = run2D("reduce", "argmax", 1, false, DType::Float32, withNan);
  Buffer amn = run2D("reduce", "argmin", 1, false, DType::Float32, withNan);
  CHECK(std::isnan(mx.get(0)));
  CHECK(mx.get(1) == 15);
  CHECK(amx.get(0) == 5);
  CHECK(amn.get(0) == 5);
  CHECK(amx.get(1) == 15);
  // max(-0, +0) is +0 and min is -0, whichever comes first.
  auto zeros = [](int64_t k) { return k % 2 ? 0.0 : -0.0; };
  Buffer zmax = run2D("reduce", "max", 1, false, DType::Float32, zeros);
  Buffer zmin = run2D("reduce", "min", 0, false, DType::Float32, zeros);
  CHECK_FALSE(std::signbit(zmax.get(0)));
  CHECK(std::signbit(zmin.get(0)));
}

TEST_CASE("reductions round each step into the element dtype; integers wrap", "[interpreter][reduce]") {
  // bf16: 256 then fifteen 1s; each 256 + 1 ties back to 256.
  auto big = [](int64_t k) { return k % 16 == 0 ? 256.0 : 1.0; };
  Buffer s = run2D("reduce", "sum", 1, false, DType::BFloat16, big);
  CHECK(s.get(0) == 256);
  // The same 1s first: 15, then + 256 = 271 -> 272 in bf16.
  auto small = [](int64_t k) { return k % 16 == 15 ? 256.0 : 1.0; };
  Buffer t = run2D("reduce", "sum", 1, false, DType::BFloat16, small);
  CHECK(t.get(0) == rounded(15 + 256.0, DType::BFloat16));
  CHECK(t.get(0) == 272);
  // i8: 16 * 100 wraps.
  Buffer w = run2D("reduce", "sum", 1, false, DType::Int8, [](int64_t) { return 100; });
  CHECK(w.get(0) == static_cast<int8_t>(1600 & 0xff));
  Buffer mn = run2D("reduce", "min", 0, true, DType::Int8, [](int64_t k) { return (k * 37) % 256 - 128; });
  for (int c = 0; c < 16; ++c) {
    double want = 1000;
    for (int r = 0; r < 8; ++r)
      want = std::min(want, static_cast<double>(((r * 16 + c) * 37) % 256 - 128));
    CHECK(mn.get(c) == want);
  }
}

TEST_CASE("scans: cumsum and cumprod along each axis, forwards and reversed", "[interpreter][scan]") {
  auto init = [](int64_t k) { return 1 + noise(70, k) * 0.5; };
  for (int axis : {0, 1})
    for (bool reverse : {false, true})
      for (std::string kind : {"cumsum", "cumprod"}) {
        INFO(kind << " axis " << axis << (reverse ? " reverse" : ""));
        Buffer o = run2D("scan", kind, axis, false, DType::Float32, init, reverse);
        int64_t outer = axis == 0 ? 16 : 8, len = axis == 0 ? 8 : 16;
        for (int64_t r = 0; r < outer; ++r) {
          float acc = 0;
          for (int64_t step = 0; step < len; ++step) {
            int64_t j = reverse ? len - 1 - step : step;
            int64_t i = axis == 0 ? j : r, c = axis == 0 ? r : j;
            float v = static_cast<float>(at2(init, DType::Float32, i, c));
            acc = step == 0 ? v : kind == "cumsum" ? acc + v : acc * v;
            REQUIRE(o.at(i, c) == acc);
          }
        }
      }
  // bf16 cumsum rounds each partial sum; i32 cumsum wraps.
  Buffer b = run2D("scan", "cumsum", 1, false, DType::BFloat16, [](int64_t k) { return k % 16 == 0 ? 256.0 : 1.0; });
  CHECK(b.at(0, 15) == 256);
  Buffer w = run2D("scan", "cumsum", 0, false, DType::Int32, [](int64_t) { return INT32_MAX / 4; });
  CHECK(w.at(4, 0) == static_cast<double>(static_cast<int32_t>(5u * static_cast<uint32_t>(INT32_MAX / 4))));
}

TEST_CASE("reduce a 3-D tile along its middle axis and a 1-D tile to 0-D", "[interpreter][reduce]") {
  Program p(Program::Mlir{}, R"mlir(
tile.kernel @r3(%x: !tile.array<?x?x?xf32>, %o: !tile.array<?x?xf32>, %s: !tile.array<?xf32>) {
  %z = arith.constant 0 : i32
  %t = tile.load %x[%z, %z, %z] : !tile.array<?x?x?xf32>[i32, i32, i32] -> tensor<2x4x8xf32>
  %r = tile.reduce sum %t axis = 1 : tensor<2x4x8xf32> -> tensor<2x8xf32>
  tile.store %r, %o[%z, %z] : tensor<2x8xf32>, !tile.array<?x?xf32>[i32, i32]
  %flat = tile.reshape %r : tensor<2x8xf32> -> tensor<16xf32>
  %total = tile.reduce max %flat axis = 0 : tensor<16xf32> -> tensor<f32>
  %v = tensor.extract %total[] : tensor<f32>
  %one = tile.broadcast %v : f32 -> tensor<1xf32>
  tile.store %one, %s[%z] : tensor<1xf32>, !tile.array<?xf32>[i32]
  tile.return
}
)mlir");
  Buffer x(DType::Float32, {2, 4, 8}, [](int64_t k) { return noise(80, k); });
  Buffer o(DType::Float32, {2, 8}), s(DType::Float32, {1});
  REQUIRE(p.run({1, 1, 1}, {x.arg(), o.arg(), s.arg()}) == "");
  float best = -INFINITY;
  for (int b = 0; b < 2; ++b)
    for (int c = 0; c < 8; ++c) {
      float acc = static_cast<float>(x.get((b * 4) * 8 + c));
      for (int m = 1; m < 4; ++m)
        acc += static_cast<float>(x.get((b * 4 + m) * 8 + c));
      REQUIRE(o.at(b, c) == acc);
      best = std::max(best, acc);
    }
  CHECK(s.get(0) == best);
}
