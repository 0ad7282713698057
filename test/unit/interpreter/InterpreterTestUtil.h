// Helpers for the interpreter tests: kernels from MLIR or Python text, host buffers of any
// dtype, and a run() that returns the error text ("" on success).
#pragma once

#include "compiler/frontend/Frontend.h"
#include "compiler/interpreter/FloatFormat.h"
#include "compiler/interpreter/Interpreter.h"
#include "dialect/TileDialect.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"

#include <catch2/catch.hpp>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace tile::interp::test {

/// A host array of any dtype, row-major, with values read and written as doubles.
struct Buffer {
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<char> bytes;

  Buffer(DType dtype, std::vector<int64_t> shape, const std::function<double(int64_t)> &init = {})
      : dtype(dtype), shape(std::move(shape)) {
    bytes.assign(static_cast<size_t>(size()) * dtypeSize(dtype), 0);
    if (init)
      for (int64_t k = 0; k < size(); ++k)
        set(k, init(k));
  }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  double get(int64_t k) const {
    const char *p = bytes.data() + k * dtypeSize(dtype);
    return isFloat(dtype) ? readFloat(p, dtype) : static_cast<double>(readInt(p, dtype));
  }
  void set(int64_t k, double v) {
    char *p = bytes.data() + k * dtypeSize(dtype);
    if (isFloat(dtype))
      writeFloat(p, dtype, v);
    else
      writeInt(p, dtype, wrapInt(static_cast<int64_t>(v), dtype));
  }
  /// Row-major 2-D access.
  double at(int64_t i, int64_t j) const { return get(i * shape[1] + j); }
  HostArray array() { return HostArray::contiguous(bytes.data(), dtype, shape); }
  LaunchArg arg() { return LaunchArg::of(array()); }
};

/// A kernel module, parsed from MLIR text or compiled from Python source.
class Program {
public:
  struct Mlir {};
  struct Python {};

  Program(Mlir, const std::string &text) {
    frontend::loadFrontendDialects(context);
    module = mlir::parseSourceString<mlir::ModuleOp>(text, mlir::ParserConfig(&context), "k.mlir");
    REQUIRE(module);
  }
  Program(Python, const std::string &text, const frontend::Specialization &spec) {
    frontend::SourceManager sources;
    frontend::DiagnosticEngine diags(sources);
    const frontend::SourceFile *file = sources.addBuffer("k.py", text);
    module = frontend::compileToTileIR(*file, spec, context, diags);
    INFO(diags.str());
    REQUIRE(module);
  }

  /// Runs the module's only kernel (or `kernel`); returns the error, "" on success.
  std::string run(Dim3 grid, std::vector<LaunchArg> args, InterpreterOptions options = {},
                  const std::string &kernel = "") {
    std::ostringstream out;
    if (!options.printStream)
      options.printStream = &out;
    std::string error;
    bool ok = mlir::succeeded(interpret(*module, kernel, grid, args, options, error));
    printed = out.str();
    return ok ? std::string() : (error.empty() ? "<failed without a message>" : error);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string printed;
};

inline frontend::Specialization spec(const std::string &kernel, std::map<std::string, frontend::ArgType> args,
                                     std::map<std::string, frontend::ConstantValue> constants = {}) {
  frontend::Specialization s;
  s.kernel = kernel;
  s.args = std::move(args);
  s.constants = std::move(constants);
  return s;
}

/// LLVM's semantics of a float dtype: the tests' independent reference for rounding.
inline const llvm::fltSemantics &semanticsOf(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return llvm::APFloat::IEEEhalf();
  case DType::BFloat16:
    return llvm::APFloat::BFloat();
  case DType::Float32:
    return llvm::APFloat::IEEEsingle();
  case DType::TFloat32:
    return llvm::APFloat::FloatTF32();
  case DType::Float8E4M3FN:
    return llvm::APFloat::Float8E4M3FN();
  case DType::Float8E5M2:
    return llvm::APFloat::Float8E5M2();
  default:
    return llvm::APFloat::IEEEdouble();
  }
}

/// `v` rounded to nearest even into `dtype`, by APFloat.
inline double rounded(double v, DType dtype) {
  llvm::APFloat f(v);
  bool lost = false;
  f.convert(semanticsOf(dtype), llvm::APFloat::rmNearestTiesToEven, &lost);
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

/// Deterministic pseudo-random values in [-1, 1).
inline double noise(uint64_t seed, int64_t k) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(k) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

} // namespace tile::interp::test
