// The --const / --arg spellings shared by tile-cc, the tests and the JIT.

#include "compiler/frontend/Specialization.h"

#include <catch2/catch.hpp>

using namespace tile::frontend;

TEST_CASE("constant specs parse ints, floats and booleans", "[frontend][spec]") {
  std::string name, error;
  ConstantValue value;
  REQUIRE(parseConstantSpec("CHUNK=256", name, value, error));
  CHECK(name == "CHUNK");
  CHECK(std::get<int64_t>(value) == 256);
  REQUIRE(parseConstantSpec("EPS=1e-5", name, value, error));
  CHECK(std::get<double>(value) == Approx(1e-5));
  REQUIRE(parseConstantSpec("FAST=True", name, value, error));
  CHECK(std::get<bool>(value));
  REQUIRE(parseConstantSpec("MASK=0x10", name, value, error));
  CHECK(std::get<int64_t>(value) == 16);
}

TEST_CASE("bad constant specs are refused with a reason", "[frontend][spec]") {
  std::string name, error;
  ConstantValue value;
  CHECK_FALSE(parseConstantSpec("CHUNK", name, value, error));
  CHECK(error == "expected NAME=VALUE, got 'CHUNK'");
  CHECK_FALSE(parseConstantSpec("CHUNK=big", name, value, error));
  CHECK(error == "constant 'CHUNK' has value 'big', which is not an integer, a float, True or False");
  CHECK_FALSE(parseConstantSpec("=3", name, value, error));
}

TEST_CASE("argument specs parse dtype and rank", "[frontend][spec]") {
  std::string name, error;
  ArgType type;
  REQUIRE(parseArgSpec("x=bf16:4", name, type, error));
  CHECK(name == "x");
  CHECK(type.dtype == "bfloat16");
  CHECK(type.rank == 4);
  CHECK(type.isArray());
  REQUIRE(parseArgSpec("eps=float32:0", name, type, error));
  CHECK(type.dtype == "float32");
  CHECK_FALSE(type.isArray());
  CHECK_FALSE(parseArgSpec("x=bf17:2", name, type, error));
  CHECK(error.find("unknown dtype 'bf17'") != std::string::npos);
  CHECK_FALSE(parseArgSpec("x=f32", name, type, error));
  CHECK(error == "argument 'x': expected DTYPE:RANK (rank 0 for a scalar), got 'f32'");
  CHECK_FALSE(parseArgSpec("x=f32:9", name, type, error));
  CHECK(error == "argument 'x': rank '9' is not an integer in [0, 8]");
}

TEST_CASE("argument specs carry an array's aligned facts", "[frontend][spec]") {
  std::string name, error;
  ArgType type;
  REQUIRE(parseArgSpec("x=bf16:4", name, type, error));
  CHECK_FALSE(type.aligned);
  CHECK(formatArgType(type) == "bfloat16:4");
  REQUIRE(parseArgSpec("x=bf16:4:aligned", name, type, error));
  CHECK(type.aligned);
  CHECK(type.rank == 4);
  CHECK(formatArgType(type) == "bfloat16:4:aligned");
  ArgType back;
  REQUIRE(parseArgSpec("x=" + formatArgType(type), name, back, error));
  CHECK(back.aligned);
  CHECK_FALSE(parseArgSpec("n=i32:0:aligned", name, type, error));
  CHECK(error == "argument 'n': ':aligned' states facts of an array; a scalar (rank 0) has none");
  CHECK_FALSE(parseArgSpec("x=f32:aligned", name, type, error));
  CHECK_FALSE(parseArgSpec("x=f32:2:align", name, type, error));
}
