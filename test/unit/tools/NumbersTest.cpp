// The tools' one number parser: the whole text is the number, or the message says why.
#include "tools/common/Numbers.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tile::tools;

TEST_CASE("tools: parseInt takes whole decimal integers in range", "[tools]") {
  std::string error;
  CHECK(parseInt("16", 1, 256, "--chunk-size", error) == 16);
  CHECK(parseInt("-3", -5, 5, "x", error) == -3);
  CHECK(parseInt("+7", 0, 9, "x", error) == 7);
  CHECK(parseInt("9223372036854775807", 0, INT64_MAX, "x", error) == INT64_MAX);

  CHECK_FALSE(parseInt("16abc", 1, 256, "--chunk-size", error));
  CHECK(error == "--chunk-size: '16abc' is not an integer");
  CHECK_FALSE(parseInt("abc", 1, 256, "--chunk-size", error));
  CHECK(error == "--chunk-size: 'abc' is not an integer");
  CHECK_FALSE(parseInt("", 1, 256, "--iters", error));
  CHECK(error == "--iters: '' is not an integer");
  for (const char *bad : {" 7", "7 ", "0x10", "1e3", "1.0", "-", "+", "--1"})
    CHECK_FALSE(parseInt(bad, INT64_MIN, INT64_MAX, "x", error));
  CHECK_FALSE(parseInt("0", 1, 1000000, "--iters", error));
  CHECK(error == "--iters: 0 is out of range [1, 1000000]");
  CHECK_FALSE(parseInt("99999999999999999999", 0, INT64_MAX, "--seed", error));
  CHECK(error == "--seed: 99999999999999999999 is out of range [0, 9223372036854775807]");
}

TEST_CASE("tools: parseDouble refuses garbage, NaN and infinities unless allowed", "[tools]") {
  std::string error;
  CHECK(parseDouble("0.5", "x", error) == 0.5);
  CHECK(parseDouble("-1e-3", "x", error) == -1e-3);
  CHECK(parseDouble("2", "x", error) == 2.0);
  for (const char *bad : {"", "2x", "1,2", " 1", "0x1p3", "e5"}) {
    CHECK_FALSE(parseDouble(bad, "--dt-limit", error));
    CHECK(error == "--dt-limit: '" + std::string(bad) + "' is not a number");
  }
  CHECK_FALSE(parseDouble("nan", "x", error));
  CHECK(error == "x: 'nan' is not a number (NaN is not allowed here)");
  CHECK_FALSE(parseDouble("inf", "x", error));
  CHECK(error == "x: 'inf' is not finite");
  CHECK_FALSE(parseDouble("1e999", "x", error));
  DoubleRange any;
  any.allowNaN = any.allowInfinity = true;
  CHECK(std::isnan(*parseDouble("nan", "x", error, any)));
  CHECK(std::isinf(*parseDouble("-inf", "x", error, any)));
  DoubleRange nonNegative;
  nonNegative.min = 0;
  CHECK_FALSE(parseDouble("-1", "x", error, nonNegative));
  CHECK(error == "x: -1 is out of range [0, inf]");
  CHECK(parseDouble("1e-320", "x", error) > 0); // underflow to a denormal is fine
}

TEST_CASE("tools: number lists", "[tools]") {
  std::string error;
  CHECK(*parseIntList("2,3,1", ',', 1, 3, 1, 100, "--grid", error) == std::vector<int64_t>{2, 3, 1});
  CHECK(*parseIntList("100x70", 'x', 1, 8, 0, INT64_MAX, "shape", error) == std::vector<int64_t>{100, 70});
  CHECK_FALSE(parseIntList("2,,3", ',', 1, 3, 1, 100, "--grid", error));
  CHECK(error == "--grid: empty field in '2,,3'");
  CHECK_FALSE(parseIntList("2,3,", ',', 1, 3, 1, 100, "--grid", error));
  CHECK_FALSE(parseIntList("1,2,3,4", ',', 1, 3, 1, 100, "--grid", error));
  CHECK(error == "--grid: expected 1 to 3 integers separated by ',', got '1,2,3,4'");
  CHECK_FALSE(parseIntList("2,0", ',', 1, 3, 1, 100, "--grid", error));
  CHECK(error == "--grid: 0 is out of range [1, 100] (in '2,0')");
  CHECK_FALSE(parseIntList("2x", ',', 1, 3, 1, 100, "--grid", error));
  CHECK(error == "--grid: '2x' is not an integer");

  CHECK(*parseDoubleList("0.01,0.05", ',', 2, 2, "--dt-limit", error) == std::vector<double>{0.01, 0.05});
  CHECK_FALSE(parseDoubleList("1,2x", ',', 2, 2, "--dt-limit", error));
  CHECK(error == "--dt-limit: '2x' is not a number (in '1,2x')");
  CHECK_FALSE(parseDoubleList("1", ',', 2, 2, "--dt-limit", error));
  CHECK(error == "--dt-limit: expected 2 numbers separated by ',', got '1'");
}
