// A kernel's declaration as the front end reads it: its parameters in order (which are
// ct.Constant), and its @ct.autotune configurations (the constants each sets) and key= names.
// What a caller needs to pass a positional argument list, or to offer the tuner every
// configuration without hard-coding a copy of the list.
#pragma once

#include "compiler/frontend/Specialization.h"

#include <map>
#include <string>
#include <vector>

namespace tile::jit {

struct KernelDecl {
  std::vector<frontend::ParamDecl> params;
  std::vector<std::map<std::string, frontend::ConstantValue>> configs; // empty: not autotuned
  std::vector<std::string> key;
};

/// The declaration of `kernel` in `source` (parsed once per process and source); throws
/// rt::Error(InvalidArgument) with the diagnostics when the source does not parse or has no
/// such kernel.
KernelDecl kernelDecl(const std::string &source, const std::string &fileName, const std::string &kernel);

} // namespace tile::jit
