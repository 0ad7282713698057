// What the JIT shows of the compiler's warnings (a kernel that spills registers): each
// compiled kernel's own, except for the configurations of one kernel compiled together for
// the autotuner, most of which it never picks: one line names those that spill.
#pragma once

#include "runtime/jit/Jit.h"

#include <string>
#include <vector>

namespace tile::jit {

/// The lines to print ("tile-cc: warning: ...") for the requests at `compiled` (indices into
/// `requests`), whose compiles warned `warnings[i]`.
std::vector<std::string> compileWarningLines(const std::vector<KernelRequest> &requests,
                                             const std::vector<size_t> &compiled,
                                             const std::vector<std::vector<std::string>> &warnings);

} // namespace tile::jit
