// Command-line checks the llvm::cl tools (tile-cc, tile-run) share.
#pragma once

#include "llvm/Support/CommandLine.h"

#include <string>

namespace tile::support {

/// After parsing: the first option of `category` that takes one value (cl::opt) but was given
/// more than once — "--grid is given 2 times; give it once" — or "". llvm::cl lets the last one
/// win, so `--grid 2,2 --grid 1` or `-o a -o b` would silently drop a value.
std::string findRepeatedOption(const llvm::cl::OptionCategory &category);

} // namespace tile::support
