// The front end's C++ API: source text in, verified tile IR (or diagnostics) out.

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Parser.h"
#include "dialect/TileDialect.h"

#include "mlir/IR/Verifier.h"

#include <catch2/catch.hpp>

using namespace tile::frontend;

namespace {

struct Compiled {
  mlir::MLIRContext context;
  SourceManager sources;
  DiagnosticEngine diags{sources};
  mlir::OwningOpRef<mlir::ModuleOp> module;

  Compiled(const std::string &text, const Specialization &spec) {
    const SourceFile *file = sources.addBuffer("k.py", text);
    module = compileToTileIR(*file, spec, context, diags);
  }
  std::string ir() {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (module)
      module->print(os);
    return s;
  }
};

const char *kScale = R"py(import cuda.tile as ct

@ct.kernel
def scale(x, y, alpha, B: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (ct.bid(0),), (t * alpha).astype(y.dtype))
)py";

Specialization scaleSpec(int64_t block) {
  Specialization spec;
  spec.kernel = "scale";
  spec.constants["B"] = block;
  spec.args["x"] = {"float32", 1};
  spec.args["y"] = {"bfloat16", 1};
  spec.args["alpha"] = {"float32", 0};
  return spec;
}

} // namespace

TEST_CASE("a kernel compiles to verified tile IR for its specialization", "[frontend][irgen]") {
  Compiled c(kScale, scaleSpec(256));
  REQUIRE(c.module);
  CHECK_FALSE(c.diags.hasErrors());
  CHECK(mlir::succeeded(mlir::verify(*c.module)));
  std::string ir = c.ir();
  CHECK_THAT(ir, Catch::Contains("-> tensor<256xf32>"));
  CHECK_THAT(ir, Catch::Contains("arith.truncf"));
  auto kernel = *c.module->getOps<mlir::tile::KernelOp>().begin();
  CHECK(kernel.getSymName() == "scale");
  CHECK(kernel.getNumArguments() == 3);
}

TEST_CASE("the same source specializes differently per constant", "[frontend][irgen]") {
  Compiled a(kScale, scaleSpec(64)), b(kScale, scaleSpec(128));
  CHECK_THAT(a.ir(), Catch::Contains("tensor<64xf32>"));
  CHECK_THAT(b.ir(), Catch::Contains("tensor<128xf32>"));
}

TEST_CASE("errors come back as located diagnostics, not IR", "[frontend][irgen]") {
  Compiled c(kScale, scaleSpec(96));
  CHECK_FALSE(c.module);
  REQUIRE(c.diags.numErrors() == 1);
  CHECK(c.diags.str() == "k.py:5:34: error: the tile shape has dimension 96, which is not a power of two (tile "
                         "dimensions must be powers of two)\n"
                         "    t = ct.load(x, (ct.bid(0),), (B,), padding_mode=ct.PaddingMode.ZERO)\n"
                         "                                 ^~~~\n");
}

TEST_CASE("kernel signatures and autotune configs can be inspected", "[frontend][irgen]") {
  const char *text = R"py(import cuda.tile as ct

@ct.autotune(configs=[dict(B=64, occupancy=2), dict(B=128)], key=["n"])
@ct.kernel
def k(x, n, B: ct.Constant[int]):
    pass
)py";
  mlir::MLIRContext context;
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto module = parseModule(*sources.addBuffer("k.py", text), diags);
  auto sig = inspectKernel(*module, "k", context, diags);
  REQUIRE(sig);
  CHECK(sig->isKernel);
  CHECK(sig->constantParams == std::vector<std::string>{"B"});
  CHECK(sig->runtimeParams == std::vector<std::string>{"x", "n"});
  REQUIRE(sig->autotuneConfigs.size() == 2);
  CHECK(std::get<int64_t>(sig->autotuneConfigs[0].at("B")) == 64);
  CHECK(std::get<int64_t>(sig->autotuneConfigs[0].at("occupancy")) == 2);
  CHECK(sig->autotuneKey == std::vector<std::string>{"n"});
}
