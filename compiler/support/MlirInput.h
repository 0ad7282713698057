// Reading .mlir input that anyone may have written: MLIR's parser, verifier and printer recurse
// once per nesting level (regions, types, attributes, parentheses), so input nested thousands
// deep overflows the stack. The tools refuse text nested deeper than kMaxMlirNesting with a
// located error, and do their MLIR work on a thread with a large stack so that every accepted
// depth fits with a wide margin.
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tile::support {

/// The deepest bracket nesting accepted in .mlir text. Real kernels nest a few dozen levels.
inline constexpr unsigned kMaxMlirNesting = 1000;
/// The stack of the thread runWithLargeStack starts: far more than kMaxMlirNesting levels
/// take in the parser, the verifier and the printer (sanitizer builds included).
inline constexpr unsigned kLargeStackBytes = 512u << 20;

/// Where the text nests deeper than `maxDepth`: the offset of the first bracket too deep, or
/// nullopt. Counts ( [ { < against ) ] } > outside strings and // comments (not the > of ->,
/// >= or <=); a `// -----` line (tile-opt's -split-input-file) starts afresh. Bytecode (it
/// starts with "ML\xefR") is not text and is not checked.
std::optional<std::size_t> findExcessiveNesting(llvm::StringRef text, unsigned maxDepth = kMaxMlirNesting);

/// Checks `buffer` of `sourceMgr` and, when it nests too deep, reports it there
/// ("file:line:col: error: ...", the line and a caret) and returns false.
bool checkMlirNesting(llvm::SourceMgr &sourceMgr, unsigned bufferId, unsigned maxDepth = kMaxMlirNesting);

/// Runs `fn` to completion on a new thread with a `stackBytes` stack.
void runWithLargeStack(llvm::function_ref<void()> fn, unsigned stackBytes = kLargeStackBytes);

/// The largest .mlir input the tools read (real kernels are kilobytes; MLIR's own IR of a
/// large model a few megabytes).
inline constexpr std::uint64_t kMaxMlirInputBytes = std::uint64_t(256) << 20;

/// `path` ("-" for standard input) read through the project's one reader (runtime/File.h):
/// at most kMaxMlirInputBytes, and only a regular file when named (a FIFO, /dev/zero or a
/// directory is refused at once). Null with the reason in `error` ("PATH: is not a regular
/// file") otherwise.
std::unique_ptr<llvm::MemoryBuffer> readMlirInput(const std::string &path, std::string &error);

/// Parses a .mlir file for a tool: unreadable files, nesting deeper than kMaxMlirNesting and
/// parse or verification errors are reported through `sourceMgr`'s diagnostics (or, for a
/// missing file, on stderr) and give null. The parse runs on a large stack.
mlir::OwningOpRef<mlir::ModuleOp> parseMlirFile(const std::string &path, llvm::SourceMgr &sourceMgr,
                                                mlir::MLIRContext &context);

} // namespace tile::support
