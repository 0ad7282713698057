#include "compiler/frontend/Source.h"

#include "runtime/File.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace tile::frontend {

SourceFile::SourceFile(std::string name, std::string text, uint32_t base)
    : name_(std::move(name)), text_(std::move(text)), base_(base) {
  lineStarts_.push_back(0);
  const size_t n = text_.size();
  for (size_t i = 0; i < n; ++i) {
    char c = text_[i];
    if (c == '\r' && i + 1 < n && text_[i + 1] == '\n')
      ++i; // "\r\n" is one terminator
    if (c == '\n' || c == '\r')
      lineStarts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

LineColumn SourceFile::lineColumnOfOffset(uint32_t offset) const {
  if (offset > size())
    return {};
  // The last line start <= offset.
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  unsigned line = static_cast<unsigned>(it - lineStarts_.begin());
  return {line, offset - lineStarts_[line - 1] + 1};
}

LineColumn SourceFile::lineColumn(SourceLoc loc) const {
  if (!contains(loc))
    return {};
  return lineColumnOfOffset(offsetOf(loc));
}

uint32_t SourceFile::lineStartOffset(unsigned line) const {
  if (line == 0 || line > lineStarts_.size())
    return size();
  return lineStarts_[line - 1];
}

std::string_view SourceFile::lineText(unsigned line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  uint32_t begin = lineStarts_[line - 1];
  uint32_t end = line < lineStarts_.size() ? lineStarts_[line] : size();
  std::string_view text(text_.data() + begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

const SourceFile *SourceManager::addBuffer(std::string name, std::string text) {
  // Each buffer owns [base, base + size] (the end-of-file position included).
  uint64_t needed = nextBase_ + text.size() + 1;
  if (needed > std::numeric_limits<uint32_t>::max())
    return nullptr;
  auto base = static_cast<uint32_t>(nextBase_);
  nextBase_ = needed;
  files_.push_back(std::unique_ptr<SourceFile>(new SourceFile(std::move(name), std::move(text), base)));
  return files_.back().get();
}

const SourceFile *SourceManager::addFile(const std::string &path, std::string *error) {
  auto fail = [&](const std::string &message) -> const SourceFile * {
    if (error)
      *error = message;
    return nullptr;
  };
  // The project's one reader (runtime/File.h); the messages are the front end's.
  using K = rt::ReadFailure::Kind;
  std::string contents;
  const rt::ReadFailure why = rt::readRegularFileInto(path, kMaxSourceFileBytes, contents);
  switch (why.kind) {
  case K::None:
    break;
  case K::CannotOpen:
    return fail("cannot open file '" + path + "': " + std::strerror(why.error));
  case K::Directory:
    return fail("'" + path + "' is a directory, not a kernel source file");
  case K::NotRegular:
    return fail("'" + path + "' is not a regular file (a device, FIFO or socket), not a kernel source file");
  case K::TooLarge:
  case K::Grew:
    return fail("file '" + path + "' is larger than the " + std::to_string(kMaxSourceFileBytes >> 20) +
                " MiB limit on kernel source files");
  case K::OutOfMemory:
    return fail("file '" + path + "': out of memory reading it");
  case K::ReadError:
    return fail("cannot read file '" + path + "': " + std::strerror(why.error));
  case K::Shrank:
    return fail("cannot read file '" + path + "': it shrank while being read");
  }
  const SourceFile *file = addBuffer(path, std::move(contents));
  if (!file)
    return fail("file '" + path + "' is too large");
  return file;
}

const SourceFile *SourceManager::fileFor(SourceLoc loc) const {
  if (!loc.isValid())
    return nullptr;
  // Buffers are sorted by base; find the last one starting at or before loc.
  auto it = std::upper_bound(files_.begin(), files_.end(), loc.raw(),
                             [](uint32_t raw, const std::unique_ptr<SourceFile> &f) { return raw < f->base_; });
  if (it == files_.begin())
    return nullptr;
  const SourceFile *file = std::prev(it)->get();
  return file->contains(loc) ? file : nullptr;
}

FullLoc SourceManager::decompose(SourceLoc loc) const {
  const SourceFile *file = fileFor(loc);
  if (!file)
    return {};
  LineColumn lc = file->lineColumn(loc);
  return {file, lc.line, lc.column};
}

} // namespace tile::frontend
