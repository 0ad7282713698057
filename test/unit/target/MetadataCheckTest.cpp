// The launch metadata read back and checked against the lowered kernel (MetadataCheck.h):
// what the writer produces passes, and each field a launch depends on, changed alone, is
// reported by name.
#include "compiler/target/MetadataCheck.h"
#include "compiler/target/NVPTX.h"
#include "runtime/KernelMetadata.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

#include <functional>

namespace {

// A kernel over one bf16 matrix (pointer, 2 sizes, 2 strides) and an i32, with one TMA
// descriptor (a trailing byval parameter) over the matrix: 128x64 boxes, 128-byte swizzle.
constexpr const char *kKernel = R"mlir(
llvm.func @k__tile(%a: !llvm.ptr<1>, %s0: i64, %s1: i64, %t0: i64, %t1: i64, %n: i32, %d: !llvm.ptr)
    attributes {tile.name = "k", tile.num_threads = 128 : i64, tile.shared_bytes = 33792 : i64,
                tile.params = [{dtype = "bfloat16", kind = "array", name = "a", rank = 2 : i64, aligned},
                               {dtype = "int32", kind = "scalar", name = "n"}],
                tile.tma = [{param = "a", box = array<i64: 128, 64>, swizzle = 128 : i64, nan_fill = false}]} {
  llvm.return
}
)mlir";

struct Lowered {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string json;

  Lowered() {
    context.loadDialect<mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(kKernel, &context);
    REQUIRE(module);
    std::string error;
    REQUIRE(tile::target::kernelMetadata(*module, "sm_90a", json, error));
  }
  mlir::LLVM::LLVMFuncOp fn() { return *module->getOps<mlir::LLVM::LLVMFuncOp>().begin(); }
  // The metadata with one change, written back by the runtime's own writer.
  std::string changed(const std::function<void(tile::rt::KernelMetadata &)> &change) {
    tile::rt::KernelMetadata md = tile::rt::parseKernelMetadata(json);
    change(md);
    return tile::rt::toJson(md);
  }
};

} // namespace

TEST_CASE("the metadata the compiler writes describes its kernel", "[target]") {
  Lowered k;
  CHECK(tile::target::metadataMismatch(k.fn(), k.json) == "");
}

TEST_CASE("each launch-relevant field of the metadata is checked against the kernel", "[target]") {
  Lowered k;
  using tile::rt::KernelMetadata;
  auto mismatch = [&](const std::function<void(KernelMetadata &)> &change) {
    return tile::target::metadataMismatch(k.fn(), k.changed(change));
  };
  CHECK(mismatch([](KernelMetadata &md) {
          md.tma[0].box = {64, 64};
        }) == "tma[0].box is [64, 64] where the code copies [128, 64]");
  CHECK(mismatch([](KernelMetadata &md) { md.tma[0].swizzle = tile::rt::TmaSwizzle::None; }) ==
        "tma[0].swizzle is none where the code assumes 128B");
  CHECK(mismatch([](KernelMetadata &md) { md.tma[0].oobFill = tile::rt::TmaOobFill::NaN; }) ==
        "tma[0].oob_fill is nan where the code assumes zero");
  CHECK(mismatch([](KernelMetadata &md) {
          md.tma[0].elementStrides = {1, 2};
        }) == "tma[0].element_strides are not all 1, which the code's copies assume");
  CHECK(mismatch([](KernelMetadata &md) { md.tma.clear(); }) ==
        "tma has 0 descriptors where the code issues copies through 1");
  CHECK(mismatch([](KernelMetadata &md) { md.params[0].dtype = tile::rt::DType::Float16; }) ==
        "params[0].dtype is float16 where the code reads bfloat16");
  CHECK(mismatch([](KernelMetadata &md) { md.params[1].name = "m"; }) ==
        "params[1].name is 'm' where the kernel's parameter is 'n'");
  CHECK(mismatch([](KernelMetadata &md) { md.threadsPerBlock = 256; }) ==
        "threads_per_block is 256 where the code is built for 128");
  CHECK(mismatch([](KernelMetadata &md) { md.dynamicSharedMemory = 1024; }) ==
        "dynamic_shared_memory is 1024 where the code uses 33792 bytes");
  CHECK(mismatch([](KernelMetadata &md) { md.kernel = "other"; }) ==
        "kernel is 'other' where the code's symbol is 'k__tile'");
}

TEST_CASE("metadata that does not account for the function's parameters is an internal error", "[target]") {
  // The scalar's parameter missing from the code: the metadata's expansion is 5 + 1 + 1
  // descriptor. The writer checks what it wrote and refuses.
  std::string text = kKernel;
  text.replace(text.find(", %n: i32"), 9, "");
  mlir::MLIRContext context;
  context.loadDialect<mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  REQUIRE(module);
  std::string json, error;
  CHECK_FALSE(tile::target::kernelMetadata(*module, "sm_90a", json, error));
  CHECK(error == "internal error: the launch metadata of kernel 'k' does not describe its code: the metadata "
                 "passes 7 parameters (1 descriptors) to a function of 6");
}
