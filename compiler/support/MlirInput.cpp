#include "compiler/support/MlirInput.h"

#include "runtime/Error.h"
#include "runtime/File.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

namespace tile::support {

std::optional<std::size_t> findExcessiveNesting(llvm::StringRef text, unsigned maxDepth) {
  if (text.starts_with("ML\xef"
                       "R"))
    return std::nullopt;
  unsigned depth = 0;
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    char c = text[i];
    switch (c) {
    case '"': // a string: to its closing quote or the end of the line
      for (++i; i < n && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < n && text[i + 1] == '/') {
        if (text.substr(i).starts_with("// -----"))
          depth = 0;
        while (i < n && text[i] != '\n')
          ++i;
      }
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (c == '<' && i + 1 < n && text[i + 1] == '=')
        break;
      if (++depth > maxDepth)
        return i;
      break;
    case ')':
    case ']':
    case '}':
    case '>':
      if (c == '>' && ((i > 0 && text[i - 1] == '-') || (i + 1 < n && text[i + 1] == '=')))
        break;
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

bool checkMlirNesting(llvm::SourceMgr &sourceMgr, unsigned bufferId, unsigned maxDepth) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  std::optional<std::size_t> at = findExcessiveNesting(buffer->getBuffer(), maxDepth);
  if (!at)
    return true;
  // file:line:col only: the offending line of such input is usually the whole (huge) file.
  auto [line, column] =
      sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *at), bufferId);
  llvm::errs() << buffer->getBufferIdentifier() << ":" << line << ":" << column << ": error: input nested more than "
               << maxDepth << " levels deep (brackets, regions, types or attributes); refusing it rather than "
               << "overflowing the stack\n";
  return false;
}

void runWithLargeStack(llvm::function_ref<void()> fn, unsigned stackBytes) {
  llvm::thread worker(std::optional<unsigned>(stackBytes), [&fn] { fn(); });
  worker.join();
}

std::unique_ptr<llvm::MemoryBuffer> readMlirInput(const std::string &path, std::string &error) {
  try {
    std::string text = path == "-" ? tile::rt::readStandardInput("<stdin>", kMaxMlirInputBytes)
                                   : tile::rt::readRegularFile(path, kMaxMlirInputBytes);
    return llvm::MemoryBuffer::getMemBufferCopy(text, path == "-" ? "<stdin>" : path);
  } catch (const tile::rt::Error &e) {
    error = e.what();
    return nullptr;
  }
}

mlir::OwningOpRef<mlir::ModuleOp> parseMlirFile(const std::string &path, llvm::SourceMgr &sourceMgr,
                                                mlir::MLIRContext &context) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = readMlirInput(path, error);
  if (!file) {
    llvm::errs() << "error: " << error << "\n";
    return nullptr;
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (!checkMlirNesting(sourceMgr, id))
    return nullptr;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  runWithLargeStack([&] { module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context); });
  return module;
}

} // namespace tile::support
