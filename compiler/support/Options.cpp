#include "compiler/support/Options.h"

#include "llvm/ADT/STLExtras.h"

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

} // namespace tile::support
