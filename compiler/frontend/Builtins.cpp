#include "compiler/frontend/Builtins.h"

namespace tile::frontend {

const BuiltinTable &builtinTable() {
  static const BuiltinTable table = [] {
    BuiltinTable t;
    KernelIRGen::registerNamedBuiltins(t);
    KernelIRGen::registerMiscBuiltins(t);
    KernelIRGen::registerMemoryBuiltins(t);
    KernelIRGen::registerMathBuiltins(t);
    KernelIRGen::registerReduceBuiltins(t);
    KernelIRGen::registerShapeBuiltins(t);
    return t;
  }();
  return table;
}

} // namespace tile::frontend
