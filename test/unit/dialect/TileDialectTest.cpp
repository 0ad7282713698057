// Unit tests of the tile dialect's C++ API: types, builders, verifiers, folders.

#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace mlir;

namespace {

struct DialectFixture {
  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
  std::string diagnostics;
  ScopedDiagnosticHandler handler{&context, [this](Diagnostic &diag) {
                                    diagnostics += diag.str() + "\n";
                                    return success();
                                  }};

  DialectFixture() { context.loadDialect<tile::TileDialect, arith::ArithDialect>(); }

  // A kernel with the given argument types; the builder points into its body.
  tile::KernelOp makeKernel(ModuleOp module, ArrayRef<Type> args) {
    builder.setInsertionPointToEnd(module.getBody());
    auto kernel = tile::KernelOp::create(builder, loc, "k", builder.getFunctionType(args, {}));
    Block *body = kernel.addEntryBlock();
    builder.setInsertionPointToEnd(body);
    tile::ReturnOp::create(builder, loc);
    builder.setInsertionPointToStart(body);
    return kernel;
  }
};

} // namespace

TEST_CASE_METHOD(DialectFixture, "array type accessors and printing", "[dialect]") {
  auto f32 = Float32Type::get(&context);
  auto array = tile::ArrayType::get(&context, {ShapedType::kDynamic, 64}, f32);
  CHECK(array.getRank() == 2);
  CHECK(array.isDynamicDim(0));
  CHECK_FALSE(array.isDynamicDim(1));
  CHECK(array.getElementType() == f32);

  std::string text;
  llvm::raw_string_ostream os(text);
  os << array;
  CHECK(text == "!tile.array<?x64xf32>");

  auto dynamic = tile::ArrayType::getDynamic(f32, 3);
  CHECK(dynamic.getRank() == 3);
  CHECK(dynamic.isDynamicDim(2));
  CHECK(tile::ArrayType::get(&context, {}, f32).getRank() == 0);
}

TEST_CASE_METHOD(DialectFixture, "array type verification rejects bad element types", "[dialect]") {
  auto bad = tile::ArrayType::getChecked([&] { return emitError(loc); }, &context, ArrayRef<int64_t>{4},
                                         Type(IndexType::get(&context)));
  CHECK_FALSE(bad);
  CHECK_THAT(diagnostics, Catch::Contains("unsupported array element type 'index'"));
}

TEST_CASE_METHOD(DialectFixture, "a built kernel verifies and prints", "[dialect]") {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  auto f32 = builder.getF32Type();
  auto array = tile::ArrayType::getDynamic(f32, 2);
  auto kernel = makeKernel(*module, {array});
  Value x = kernel.getArgument(0);
  Value i = tile::BlockIdOp::create(builder, loc, builder.getI32Type(), 0);
  auto tileType = RankedTensorType::get({64, 32}, f32);
  auto load = tile::LoadOp::create(builder, loc, tileType, x, ValueRange{i, i}, tile::PaddingMode::zero, nullptr,
                                   nullptr, nullptr);
  auto sumType = RankedTensorType::get({64}, f32);
  auto sum = tile::ReduceOp::create(builder, loc, sumType, tile::ReduceKind::sum, load, 1, false);
  (void)sum;
  tile::StoreOp::create(builder, loc, load, x, ValueRange{i, i}, nullptr, nullptr, nullptr);

  REQUIRE(succeeded(verify(*module)));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  CHECK_THAT(text, Catch::Contains("tile.load %arg0[%0, %0] padding = zero"));
  CHECK_THAT(text, Catch::Contains("tile.reduce sum %1 axis = 1"));
}

TEST_CASE_METHOD(DialectFixture, "verifiers report non-power-of-two tiles", "[dialect]") {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  makeKernel(*module, {});
  tile::IotaOp::create(builder, loc, RankedTensorType::get({48}, builder.getI32Type()));
  CHECK(failed(verify(*module)));
  CHECK_THAT(diagnostics, Catch::Contains("dimension 0 of size 48; tile dimensions must be powers of two"));
}

TEST_CASE_METHOD(DialectFixture, "dim of a static dimension folds to a constant", "[dialect]") {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  auto array = tile::ArrayType::get(&context, {ShapedType::kDynamic, 64}, builder.getF32Type());
  auto kernel = makeKernel(*module, {array});
  auto dynamicDim = tile::DimOp::create(builder, loc, builder.getI64Type(), kernel.getArgument(0), 0);
  auto staticDim = tile::DimOp::create(builder, loc, builder.getI64Type(), kernel.getArgument(0), 1);

  SmallVector<OpFoldResult> folded;
  CHECK(failed(dynamicDim->fold(folded)));
  folded.clear();
  REQUIRE(succeeded(staticDim->fold(folded)));
  REQUIRE(folded.size() == 1);
  auto attr = dyn_cast_if_present<IntegerAttr>(dyn_cast<Attribute>(folded[0]));
  REQUIRE(attr);
  CHECK(attr.getInt() == 64);
}

TEST_CASE_METHOD(DialectFixture, "textual IR round-trips through the parser", "[dialect]") {
  const char *source = R"mlir(
    tile.kernel @k(%x: !tile.array<?xf32>) attributes {occupancy = 2 : i32} {
      %i = tile.bid 0
      %t = tile.load %x[%i] padding = neg_inf : !tile.array<?xf32>[i32] -> tensor<128xf32>
      %m = tile.reduce max %t axis = 0 keepdims : tensor<128xf32> -> tensor<1xf32>
      %b = tile.broadcast %m : tensor<1xf32> -> tensor<128xf32>
      tile.store %b, %x[%i] : tensor<128xf32>, !tile.array<?xf32>[i32]
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  REQUIRE(module);
  REQUIRE(succeeded(verify(*module)));
  auto kernel = *module->getOps<tile::KernelOp>().begin();
  CHECK(kernel.getOccupancy() == 2u);
  CHECK(kernel.getSymName() == "k");
}
