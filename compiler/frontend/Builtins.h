// The kernel language's built-in functions by name (ct.load, ct.sum, the astype() method,
// print, ...). Each family registers its handlers next to its code (KernelIRGen::register…
// Builtins); callBuiltin looks a name up once, as the interpreter's OpTable does for ops.
#pragma once

#include "compiler/frontend/IRGen.h"

#include "llvm/ADT/StringMap.h"

#include <functional>

namespace tile::frontend {

/// Whether elements of `t` are whole bytes of bits that ct.bitcast and the byte built-ins can
/// move: not bool (1 bit) nor tfloat32 (19 bits in 32) (IRGenBytes.cpp).
bool hasWholeBytes(mlir::Type t);

/// Emits one call of a built-in; `name` is the name it was registered under ("ct.sum").
using BuiltinHandler = std::function<KValue(KernelIRGen &, const std::string &name, const KernelIRGen::CallArgs &args)>;

class BuiltinTable {
public:
  /// A method shared by a group of built-ins, told by `kind` which one it emits.
  template <typename Kind>
  using KindMethod = KValue (KernelIRGen::*)(const std::string &, const KernelIRGen::CallArgs &, Kind);

  /// A handler: a function, or a KernelIRGen method taking (name, args).
  void add(llvm::StringRef name, BuiltinHandler handler) { handlers_[name] = std::move(handler); }
  template <typename Kind> void add(llvm::StringRef name, KindMethod<Kind> method, Kind kind) {
    add(name, [method, kind](KernelIRGen &irgen, const std::string &n, const KernelIRGen::CallArgs &args) {
      return (irgen.*method)(n, args, kind);
    });
  }
  /// The handler of `name`; null for a name that is not a built-in.
  const BuiltinHandler *lookup(llvm::StringRef name) const {
    auto it = handlers_.find(name);
    return it == handlers_.end() ? nullptr : &it->second;
  }

private:
  llvm::StringMap<BuiltinHandler> handlers_;
};

/// Every built-in (built once).
const BuiltinTable &builtinTable();

} // namespace tile::frontend
