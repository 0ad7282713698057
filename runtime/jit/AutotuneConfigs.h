// A kernel's @ct.autotune declaration as the front end reads it: the configurations (the
// constants each sets) and the key= names. What a caller needs to offer the tuner every
// configuration without hard-coding a copy of the list.
#pragma once

#include "compiler/frontend/Specialization.h"

#include <map>
#include <string>
#include <vector>

namespace tile::jit {

struct AutotuneDecl {
  std::vector<std::map<std::string, frontend::ConstantValue>> configs; // empty: not autotuned
  std::vector<std::string> key;
};

/// The declaration of `kernel` in `source` (parsed once per process and source); throws
/// rt::Error(InvalidArgument) with the diagnostics when the source does not parse or has no
/// such kernel.
AutotuneDecl autotuneDecl(const std::string &source, const std::string &fileName, const std::string &kernel);

} // namespace tile::jit
