// Which ops the interpreter runs, by name. Each group of ops registers its handlers here; the
// table also answers "is this op supported?" before a launch touches any memory.
#pragma once

#include "compiler/interpreter/ExecContext.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/StringMap.h"

namespace tile::interp {

/// Runs one op: reads its operands from the context, binds its results.
using OpHandler = mlir::LogicalResult (*)(ExecContext &, mlir::Operation *);

class OpTable {
public:
  template <typename OpTy> void add(OpHandler handler) { handlers_[OpTy::getOperationName()] = handler; }
  OpHandler lookup(llvm::StringRef name) const {
    auto it = handlers_.find(name);
    return it == handlers_.end() ? nullptr : it->second;
  }

private:
  llvm::StringMap<OpHandler> handlers_;
};

/// Every registered op (built once).
const OpTable &opTable();

void registerArithOps(OpTable &table);         // ArithOps.cpp
void registerCastOps(OpTable &table);          // CastOps.cpp
void registerMathOps(OpTable &table);          // MathOps.cpp
void registerControlFlowOps(OpTable &table);   // ControlFlow.cpp: scf, tile.return
void registerGridOps(OpTable &table);          // GridOps.cpp
void registerMemoryOps(OpTable &table);        // MemoryOps.cpp: load, store
void registerElementAccessOps(OpTable &table); // ElementAccessOps.cpp: gather, scatter, atomic_add
void registerMmaOps(OpTable &table);           // MmaOp.cpp
void registerReduceScanOps(OpTable &table);    // ReduceScanOps.cpp
void registerShapeOps(OpTable &table);         // ShapeOps.cpp (and tensor.extract & co.)
void registerDebugOps(OpTable &table);         // DebugOps.cpp: print, assert

/// Runs the ops of `block` in order. At its terminator, the terminator's operands are appended
/// to `results` (when given).
mlir::LogicalResult runBlock(ExecContext &ctx, mlir::Block &block, std::vector<std::shared_ptr<const Tensor>> *results);

} // namespace tile::interp
