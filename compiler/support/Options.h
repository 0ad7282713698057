// What the LLVM-based tools (tile-cc, tile-run, tile-opt) share at start-up: the command-line
// check and out-of-memory handling.
#pragma once

#include "llvm/Support/CommandLine.h"

#include <string>

namespace tile::support {

/// After parsing: the first option of `category` that takes one value (cl::opt) but was given
/// more than once — "--grid is given 2 times; give it once" — or "". llvm::cl lets the last one
/// win, so `--grid 2,2 --grid 1` or `-o a -o b` would silently drop a value.
std::string findRepeatedOption(const llvm::cl::OptionCategory &category);

/// Out of memory, in operator new or in LLVM's own allocations, ends the tool with one line and
/// exit code 3 (tools/common/OutOfMemory.h). Call after llvm::InitLLVM, which installs LLVM's
/// aborting handler.
void exitOnOutOfMemory(const char *tool);

} // namespace tile::support
