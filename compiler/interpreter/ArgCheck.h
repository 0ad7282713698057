// Naming kernel parameters in messages (checkLaunchArgs itself is in Interpreter.h).
#pragma once

#include "compiler/interpreter/Interpreter.h"

#include <string>

namespace tile::interp {

/// "'x'" from the options' names or a `tile.name` argument attribute, else "#2".
std::string argumentLabel(mlir::tile::KernelOp kernel, unsigned index, const InterpreterOptions &options);

} // namespace tile::interp
