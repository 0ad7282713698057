// Out of memory in a command-line tool: a one-line error and exit code 3, like any other
// resource failure, instead of LLVM's "LLVM ERROR: out of memory ... PLEASE submit a bug report"
// abort or an uncaught std::bad_alloc (standard library only).
#pragma once

namespace tile::tools {

/// Makes every failed allocation (operator new) end the process with
/// "TOOL: error: out of memory (...)" on stderr and exit code 3. Call after llvm::InitLLVM,
/// which installs LLVM's aborting handler.
void exitOnOutOfMemory(const char *tool);

/// Writes that message and exits with code 3 (async-signal-safe: no allocation); for LLVM's
/// bad-alloc hook (llvm::install_bad_alloc_error_handler) in the tools that link LLVM.
[[noreturn]] void outOfMemoryExit();

} // namespace tile::tools
