// Debug output of the code generation passes, in every build.
//
// LLVM_DEBUG is compiled out wherever NDEBUG is defined: in our Release build, and in Debian's
// LLVM 22 (built without assertions), whose tools then lack the -debug and -debug-only
// options. TILE_DEBUG(X) runs X when `-debug` or `-debug-only=DEBUG_TYPE` was given, in any
// build; it is LLVM_DEBUG's check (llvm::DebugFlag and the current debug types, which LLVM
// defines in every build) without the NDEBUG condition. Configuring with
// -DTILE_DEBUG_OUTPUT=OFF compiles it out.
//
//   #define DEBUG_TYPE "tile-assign-layouts"
//   TILE_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << op << ": Tensor Cores\n");
//
// A tool calls registerDebugOptions() before parsing its command line to have -debug and
// -debug-only even when LLVM did not register them.
#pragma once

#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

namespace tile::codegen {

/// Whether debug output of `type` is on: -debug, or -debug-only naming `type`.
bool isDebugEnabled(const char *type);

/// Registers -debug and -debug-only (comma-separated debug types) with llvm::cl unless LLVM
/// already has them (an LLVM built with assertions). Call once, before parsing options.
void registerDebugOptions();

} // namespace tile::codegen

#ifdef TILE_DEBUG_OUTPUT
#define TILE_DEBUG(...)                                                                                                \
  do {                                                                                                                 \
    if (::tile::codegen::isDebugEnabled(DEBUG_TYPE)) {                                                                 \
      __VA_ARGS__;                                                                                                     \
    }                                                                                                                  \
  } while (false)
#else
#define TILE_DEBUG(...)                                                                                                \
  do {                                                                                                                 \
  } while (false)
#endif
