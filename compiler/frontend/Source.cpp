#include "compiler/frontend/Source.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>

namespace tile::frontend {

SourceFile::SourceFile(std::string name, std::string text, uint32_t base)
    : name_(std::move(name)), text_(std::move(text)), base_(base) {
  lineStarts_.push_back(0);
  const size_t n = text_.size();
  for (size_t i = 0; i < n; ++i) {
    char c = text_[i];
    if (c == '\r' && i + 1 < n && text_[i + 1] == '\n')
      ++i;  // "\r\n" is one terminator
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
  files_.push_back(std::unique_ptr<SourceFile>(
      new SourceFile(std::move(name), std::move(text), base)));
  return files_.back().get();
}

const SourceFile *SourceManager::addFile(const std::string &path, std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error)
      *error = "cannot open file '" + path + "'";
    return nullptr;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) {
    if (error)
      *error = "cannot read file '" + path + "'";
    return nullptr;
  }
  const SourceFile *file = addBuffer(path, contents.str());
  if (!file && error)
    *error = "file '" + path + "' is too large";
  return file;
}

const SourceFile *SourceManager::fileFor(SourceLoc loc) const {
  if (!loc.isValid())
    return nullptr;
  // Buffers are sorted by base; find the last one starting at or before loc.
  auto it = std::upper_bound(files_.begin(), files_.end(), loc.raw(),
                             [](uint32_t raw, const std::unique_ptr<SourceFile> &f) {
                               return raw < f->base_;
                             });
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

}  // namespace tile::frontend
