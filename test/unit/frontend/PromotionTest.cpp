// The promotion table of docs/language.md ("Types and promotion"), checked on the tile IR the
// front end emits: for every pair of run-time dtypes, and for Python int and float constants
// with each dtype, the element type of the arith op of `x + y` and the conversion op (if any)
// inserted on each operand.
#include "compiler/frontend/Frontend.h"
#include "dialect/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <catch2/catch.hpp>

#include <array>
#include <string>

using namespace tile::frontend;

namespace {

const std::array<const char *, 8> kTypes = {"int8",    "int16",    "int32",   "int64",
                                            "float16", "bfloat16", "float32", "float64"};

// The result dtype of a run-time `row + column`, written out by hand from the documented
// rules: the wider integer; an integer with a float gives the float; two floats give the
// wider one, and two different 16-bit floats meet in float32.
const char *const kTable[8][8] = {
    //          int8       int16      int32      int64      float16    bfloat16   float32    float64
    /*int8*/ {"int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"},
    /*int16*/ {"int16", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"},
    /*int32*/ {"int32", "int32", "int32", "int64", "float16", "bfloat16", "float32", "float64"},
    /*int64*/ {"int64", "int64", "int64", "int64", "float16", "bfloat16", "float32", "float64"},
    /*float16*/ {"float16", "float16", "float16", "float16", "float16", "float32", "float32", "float64"},
    /*bfloat16*/ {"bfloat16", "bfloat16", "bfloat16", "bfloat16", "float32", "bfloat16", "float32", "float64"},
    /*float32*/ {"float32", "float32", "float32", "float32", "float32", "float32", "float32", "float64"},
    /*float64*/ {"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64"},
};

bool isFloatName(const std::string &t) { return t.rfind("float", 0) == 0 || t == "bfloat16"; }

std::string mlirName(const std::string &t) {
  if (t == "bfloat16")
    return "bf16";
  if (isFloatName(t))
    return "f" + t.substr(5);
  return "i" + t.substr(3);
}

// The conversion the front end must insert to bring an operand of dtype `from` to `to`
// ("" when none).
std::string conversion(const std::string &from, const std::string &to) {
  if (from == to)
    return "";
  if (!isFloatName(from))
    return isFloatName(to) ? "arith.sitofp" : "arith.extsi";
  return "arith.extf";
}

std::string typeName(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  mlir::getElementTypeOrSelf(t).print(os);
  return s;
}

// `expr` (over tiles x of dtype `ta` and z of dtype `tb`, when given) compiled to tile IR.
struct Kernel {
  mlir::MLIRContext context;
  SourceManager sources;
  DiagnosticEngine diags{sources};
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::Operation *arith = nullptr;
  int ariths = 0;

  Kernel(const std::string &expr, const std::string &ta, const std::string &tb = "") {
    std::string text = "import cuda.tile as ct\n\n@ct.kernel\ndef k(a, b):\n"
                       "    x = ct.load(a, (0,), (16,))\n"
                       "    z = ct.load(b, (0,), (16,))\n"
                       "    w = " +
                       expr + "\n";
    Specialization spec;
    spec.kernel = "k";
    spec.args["a"] = ArgType{ta, 1};
    spec.args["b"] = ArgType{tb.empty() ? ta : tb, 1};
    module = compileToTileIR(*sources.addBuffer("k.py", text), spec, context, diags);
    if (!module)
      return;
    module->walk([&](mlir::Operation *op) {
      std::string name = op->getName().getStringRef().str();
      if (name == "arith.addf" || name == "arith.addi") {
        arith = op;
        ++ariths;
      }
    });
  }

  // "load" when operand `i` of the add is the loaded tile of dtype `loaded` itself, else the
  // name of the op producing it, followed by "(<input element type>)" for a conversion.
  std::string operandSource(unsigned i) const {
    mlir::Operation *def = arith->getOperand(i).getDefiningOp();
    if (!def)
      return "<block argument>";
    std::string name = def->getName().getStringRef().str();
    if (name == "tile.load")
      return "load";
    if (def->getNumOperands() == 1) {
      mlir::Operation *in = def->getOperand(0).getDefiningOp();
      return name + "(" + typeName(def->getOperand(0).getType()) +
             (in ? " " + in->getName().getStringRef().str() : "") + ")";
    }
    return name;
  }
};

// What operandSource should say for an operand of dtype `from` promoted to `to`.
std::string expectedSource(const std::string &from, const std::string &to) {
  std::string c = conversion(from, to);
  return c.empty() ? "load" : c + "(" + mlirName(from) + " tile.load)";
}

} // namespace

TEST_CASE("run-time dtypes promote by the documented table", "[frontend][promotion]") {
  for (size_t i = 0; i < kTypes.size(); ++i) {
    for (size_t j = 0; j < kTypes.size(); ++j) {
      const std::string ta = kTypes[i], tb = kTypes[j], want = kTable[i][j];
      INFO(ta << " + " << tb << ", expected " << want);
      Kernel k("x + z", ta, tb);
      INFO(k.diags.str());
      REQUIRE(k.module);
      REQUIRE(k.ariths == 1);
      CHECK(k.arith->getName().getStringRef().str() == (isFloatName(want) ? "arith.addf" : "arith.addi"));
      CHECK(typeName(k.arith->getResult(0).getType()) == mlirName(want));
      CHECK(k.operandSource(0) == expectedSource(ta, want));
      CHECK(k.operandSource(1) == expectedSource(tb, want));
    }
  }
}

TEST_CASE("the promotion table is symmetric, each dtype with itself on the diagonal", "[frontend][promotion]") {
  // Guards the hand-written table itself: a typo in one half shows here.
  for (size_t i = 0; i < kTypes.size(); ++i)
    for (size_t j = 0; j < kTypes.size(); ++j) {
      INFO(kTypes[i] << ", " << kTypes[j]);
      CHECK(std::string(kTable[i][j]) == kTable[j][i]);
      if (i == j)
        CHECK(std::string(kTable[i][j]) == kTypes[i]);
    }
}

TEST_CASE("Python constants adapt to the run-time dtype", "[frontend][promotion]") {
  for (const char *t : kTypes) {
    const std::string ty = t;
    // An int constant takes the tile's dtype; a float constant the tile's float dtype, else
    // float32 (the integer tile converted).
    for (bool constantLeft : {false, true}) {
      for (bool floatConstant : {false, true}) {
        std::string c = floatConstant ? "0.5" : "3";
        std::string expr = constantLeft ? c + " + x" : "x + " + c;
        std::string want = floatConstant && !isFloatName(ty) ? "float32" : ty;
        INFO(expr << " with x: " << ty << ", expected " << want);
        Kernel k(expr, ty);
        INFO(k.diags.str());
        REQUIRE(k.module);
        REQUIRE(k.ariths == 1);
        CHECK(typeName(k.arith->getResult(0).getType()) == mlirName(want));
        unsigned tileOperand = constantLeft ? 1 : 0;
        CHECK(k.operandSource(tileOperand) == expectedSource(ty, want));
        CHECK(k.operandSource(1 - tileOperand) == "arith.constant");
        CHECK(typeName(k.arith->getOperand(1 - tileOperand).getType()) == mlirName(want));
      }
    }
  }
}

TEST_CASE("a large Python int widens a narrow integer tile to int64", "[frontend][promotion]") {
  for (const char *t : {"int8", "int16", "int32"}) {
    INFO(t);
    Kernel k("x + 5000000000", t);
    INFO(k.diags.str());
    REQUIRE(k.module);
    REQUIRE(k.ariths == 1);
    CHECK(typeName(k.arith->getResult(0).getType()) == "i64");
    CHECK(k.operandSource(0) == "arith.extsi(" + mlirName(t) + " tile.load)");
  }
}
