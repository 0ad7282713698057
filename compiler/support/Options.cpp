#include "compiler/support/Options.h"
#include "tools/common/OutOfMemory.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

namespace tile::support {

std::string findRepeatedOption(const llvm::cl::OptionCategory &category) {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    // Lists (--const, --arg, --array ...) take several; an alias counts through its target.
    if (option->getNumOccurrencesFlag() != llvm::cl::Optional || option->getNumOccurrences() < 2 ||
        !llvm::is_contained(option->Categories, &category) || entry.first != option->ArgStr)
      continue;
    const std::string name = option->ArgStr.empty()       ? "the input file"
                             : option->ArgStr.size() == 1 ? "-" + option->ArgStr.str()
                                                          : "--" + option->ArgStr.str();
    return name + " is given " + std::to_string(option->getNumOccurrences()) +
           " times; give it once (the last would silently replace the others)";
  }
  return "";
}

void exitOnOutOfMemory(const char *tool) {
  tools::exitOnOutOfMemory(tool);
  llvm::install_bad_alloc_error_handler([](void *, const char *, bool) { tools::outOfMemoryExit(); });
}

} // namespace tile::support
