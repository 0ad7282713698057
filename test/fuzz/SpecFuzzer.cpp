// libFuzzer target over the command-line spec parsers of tile-cc and tile-run
// (compiler/frontend/Specialization.h): --const NAME=VALUE and --arg NAME=DTYPE:RANK. Any text
// is accepted or refused with a message, never a crash; an accepted constant formats and parses
// back to the same value.

#include "compiler/frontend/Specialization.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tile::frontend;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string name, error;
  ConstantValue value;
  if (parseConstantSpec(text, name, value, error)) {
    if (!error.empty())
      std::abort();
    std::string again = name + "=" + formatConstant(value);
    std::string name2, error2;
    ConstantValue value2;
    if (!parseConstantSpec(again, name2, value2, error2) || name2 != name)
      std::abort();
    // Integers and bools come back exactly (formatConstant rounds floats to 6 digits).
    if (!std::holds_alternative<double>(value) && value2 != value)
      std::abort();
  } else if (error.empty()) {
    std::abort();
  }
  ArgType type;
  error.clear();
  if (parseArgSpec(text, name, type, error)) {
    if (type.rank < 0 || type.rank > 8 || !canonicalDTypeName(type.dtype))
      std::abort();
  } else if (error.empty()) {
    std::abort();
  }
  return 0;
}
