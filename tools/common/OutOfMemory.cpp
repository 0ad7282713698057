#include "tools/common/OutOfMemory.h"

#include <cstring>
#include <new>
#include <unistd.h>

namespace tile::tools {

namespace {
const char *toolName = "tile";
} // namespace

void outOfMemoryExit() {
  // No allocation from here on: the heap is what failed.
  const char *parts[] = {toolName, ": error: out of memory (this machine cannot hold what the run needs: use "
                                   "smaller arrays or shapes, or a machine with more memory)\n"};
  for (const char *p : parts) {
    ssize_t ignored = ::write(2, p, std::strlen(p));
    (void)ignored;
  }
  ::_exit(3);
}

void exitOnOutOfMemory(const char *tool) {
  toolName = tool;
  std::set_new_handler([] { outOfMemoryExit(); });
}

} // namespace tile::tools
