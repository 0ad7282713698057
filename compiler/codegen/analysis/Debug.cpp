#include "compiler/codegen/analysis/Debug.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

// Where NDEBUG is defined, llvm/Support/Debug.h replaces these functions by macros, but LLVM
// defines them in every build (llvm/lib/Support/Debug.cpp): declare them as they are.
#ifdef NDEBUG
#undef isCurrentDebugType
#undef setCurrentDebugTypes
namespace llvm {
bool isCurrentDebugType(const char *type, int level);
void setCurrentDebugTypes(const char **types, unsigned count);
} // namespace llvm
#endif

namespace tile::codegen {

bool isDebugEnabled(const char *type) { return llvm::DebugFlag && llvm::isCurrentDebugType(type, 1); }

namespace {
// -debug-only=a,b: turns debug output on for those types, as LLVM's own option does.
struct DebugOnly {
  void operator=(const std::string &value) const {
    if (value.empty())
      return;
    static std::vector<std::string> names;
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(value).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef p : parts)
      names.push_back(p.str());
    std::vector<const char *> types;
    for (const std::string &n : names)
      types.push_back(n.c_str());
    llvm::setCurrentDebugTypes(types.data(), static_cast<unsigned>(types.size()));
    llvm::DebugFlag = true;
  }
};
} // namespace

void registerDebugOptions() {
  if (llvm::cl::getRegisteredOptions().count("debug-only"))
    return;
  static DebugOnly debugOnlyStorage;
  static llvm::cl::opt<bool, /*ExternalStorage=*/true> debug(
      "debug", llvm::cl::desc("Print all debug output (of tile-cc's passes: TILE_DEBUG)"), llvm::cl::Hidden,
      llvm::cl::location(llvm::DebugFlag));
  static llvm::cl::opt<DebugOnly, /*ExternalStorage=*/true, llvm::cl::parser<std::string>> debugOnly(
      "debug-only", llvm::cl::desc("Print the debug output of these debug types only (comma-separated)"),
      llvm::cl::Hidden, llvm::cl::value_desc("debug string"), llvm::cl::location(debugOnlyStorage),
      llvm::cl::ValueRequired);
}

} // namespace tile::codegen
