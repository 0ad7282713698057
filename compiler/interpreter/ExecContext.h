// The interpreter's state while a kernel runs: SSA values bound to tiles or arrays, the
// current block of the grid, and the error that stopped it.
#pragma once

#include "compiler/interpreter/Interpreter.h"
#include "compiler/interpreter/Tensor.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <memory>
#include <optional>
#include <ostream>

namespace tile::interp {

/// An array argument as the running kernel sees it.
struct BoundArray {
  HostArray host;
  std::string name; // "'x'" or "#2", for messages
};

class ExecContext {
public:
  ExecContext(const InterpreterOptions &options, Dim3 grid, std::ostream &out)
      : options(options), grid(grid), out(out) {}

  const InterpreterOptions &options;
  Dim3 grid;
  Dim3 block;
  std::ostream &out;
  std::string error;

  void bind(mlir::Value v, Tensor t) { tensors_[v] = std::make_shared<const Tensor>(std::move(t)); }
  void bind(mlir::Value v, std::shared_ptr<const Tensor> t) { tensors_[v] = std::move(t); }
  void bindArray(mlir::Value v, const BoundArray *a) { arrays_[v] = a; }
  const Tensor &tensor(mlir::Value v) const { return *tensors_.find(v)->second; }
  std::shared_ptr<const Tensor> shared(mlir::Value v) const { return tensors_.find(v)->second; }
  const BoundArray &array(mlir::Value v) const { return *arrays_.find(v)->second; }
  /// A scalar operand (i1/int/index/float) as a signed integer or a number.
  int64_t intScalar(mlir::Value v) const;
  double floatScalar(mlir::Value v) const { return tensor(v).number(0); }
  void clearTensors() { tensors_.clear(); }

  /// Records "file:line:col: error: message (block (x, y, z))" and returns failure.
  mlir::LogicalResult fail(mlir::Operation *op, const llvm::Twine &message);
  mlir::LogicalResult fail(mlir::Location loc, const llvm::Twine &message);

private:
  llvm::DenseMap<mlir::Value, std::shared_ptr<const Tensor>> tensors_;
  llvm::DenseMap<mlir::Value, const BoundArray *> arrays_;
};

/// "file:line:col" of the first file location inside `loc`, or "" when there is none.
std::string locationString(mlir::Location loc);
/// The interpreter's dtype for an MLIR element (or scalar) type; index counts as int64.
std::optional<DType> dtypeOf(mlir::Type type);
/// The dtype of a tile's elements or of a scalar (the IR is verified, so this always exists
/// for the types the interpreter accepts; callers check unsupported ones up front).
DType elementDType(mlir::Value v);
/// The static shape of a tile type ({} for scalars).
std::vector<int64_t> shapeOf(mlir::Type type);

} // namespace tile::interp
