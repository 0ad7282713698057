// libFuzzer target over tile-opt's input: MLIR text parsed and verified with the tile dialect
// and the upstream dialects the compiler emits, after the nesting check the tools run
// (compiler/support/MlirInput.h), then printed. Any input gives a module or diagnostics, never
// a crash or a sanitizer report in our dialect's parsers, printers or verifiers. The work runs
// on its own stack, as in the tools (sanitizers triple the frames).

#include "compiler/support/MlirInput.h"
#include "dialect/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

// LLVM's BumpPtrAllocator poisons its slabs for ASan when the header is compiled with ASan (our
// code) but not when it is not (libMLIR.so): memory that our inline code poisoned and MLIR then
// hands out would be false use-after-poison reports. Turn manual poisoning off.
extern "C" const char *__asan_default_options() { return "allow_user_poisoning=0"; }

static std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::arith::ArithDialect, mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::func::FuncDialect, mlir::tensor::TensorDialect>();
  auto context = std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  context->printOpOnDiagnostic(false);
  return context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  // A fresh context now and then: uniqued types and attributes would otherwise only grow.
  if (!context || ++uses % 2000 == 0)
    context = makeContext();
  // A copy: MLIR's lexer reads the terminating NUL that libFuzzer's buffer lacks (files and
  // tile-opt's buffers always have one).
  std::string copy(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(copy);
  if (tile::support::findExcessiveNesting(text))
    return 0;
  mlir::ScopedDiagnosticHandler quiet(context.get(), [](mlir::Diagnostic &d) {
    std::string s;
    llvm::raw_string_ostream os(s);
    d.print(os); // rendering must not crash either
    return mlir::success();
  });
  tile::support::runWithLargeStack(
      [&] {
        mlir::ParserConfig config(context.get());
        mlir::OwningOpRef<mlir::Operation *> op = mlir::parseSourceString(text, config, "fuzz.mlir");
        if (!op)
          return;
        std::string printed;
        llvm::raw_string_ostream os(printed);
        op->print(os);
        op->print(os, mlir::OpPrintingFlags().printGenericOpForm());
      },
      64u << 20);
  return 0;
}
