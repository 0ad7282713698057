// Source buffers and locations for the kernel-language front end.
//
// Every byte of every buffer known to a SourceManager has one 32-bit SourceLoc: buffers are
// laid out one after another in a single virtual address space (as clang does), so a location
// alone identifies its file, AST nodes stay small, and 0 is free to mean "no location".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tile::frontend {

/// A position in the sources of a SourceManager (see the file comment). Cheap to copy.
class SourceLoc {
public:
  SourceLoc() = default;
  static SourceLoc fromRaw(uint32_t raw) {
    SourceLoc loc;
    loc.raw_ = raw;
    return loc;
  }
  uint32_t raw() const { return raw_; }
  bool isValid() const { return raw_ != 0; }
  /// The location `delta` bytes further on (same buffer; the caller keeps it in range).
  SourceLoc offsetBy(int64_t delta) const { return fromRaw(static_cast<uint32_t>(static_cast<int64_t>(raw_) + delta)); }

  friend bool operator==(SourceLoc a, SourceLoc b) { return a.raw_ == b.raw_; }
  friend bool operator!=(SourceLoc a, SourceLoc b) { return a.raw_ != b.raw_; }
  friend bool operator<(SourceLoc a, SourceLoc b) { return a.raw_ < b.raw_; }
  friend bool operator<=(SourceLoc a, SourceLoc b) { return a.raw_ <= b.raw_; }

private:
  uint32_t raw_ = 0;
};

/// A half-open byte range [begin, end). An empty range (begin == end) marks a point; the
/// diagnostic renderer draws a lone caret for it.
struct SourceRange {
  SourceLoc begin, end;

  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e < b ? b : e) {}
  explicit SourceRange(SourceLoc point) : begin(point), end(point) {}

  bool isValid() const { return begin.isValid(); }
  uint32_t size() const { return end.raw() - begin.raw(); }
  /// The smallest range covering both (an invalid side is ignored).
  static SourceRange cover(SourceRange a, SourceRange b) {
    if (!a.isValid())
      return b;
    if (!b.isValid())
      return a;
    return SourceRange(a.begin < b.begin ? a.begin : b.begin, a.end < b.end ? b.end : a.end);
  }
};

/// 1-based line and column; the column counts bytes (like clang and gcc), tabs count one.
struct LineColumn {
  unsigned line = 0;
  unsigned column = 0;
  bool isValid() const { return line != 0; }
};

/// One named source buffer. Lines end at "\n", "\r\n" or a lone "\r", as in the lexer.
class SourceFile {
public:
  const std::string &name() const { return name_; }
  std::string_view text() const { return text_; }
  uint32_t size() const { return static_cast<uint32_t>(text_.size()); }

  /// Location of byte `offset` (offset == size() is the end-of-file position).
  SourceLoc locForOffset(uint32_t offset) const { return SourceLoc::fromRaw(base_ + offset); }
  SourceLoc startLoc() const { return locForOffset(0); }
  SourceLoc endLoc() const { return locForOffset(size()); }
  /// True if `loc` is a byte of this buffer or its end-of-file position.
  bool contains(SourceLoc loc) const { return loc.raw() >= base_ && loc.raw() <= base_ + size(); }
  /// Byte offset of a location this buffer contains().
  uint32_t offsetOf(SourceLoc loc) const { return loc.raw() - base_; }

  LineColumn lineColumn(SourceLoc loc) const;
  LineColumn lineColumnOfOffset(uint32_t offset) const;
  unsigned numLines() const { return static_cast<unsigned>(lineStarts_.size()); }
  /// Text of a 1-based line without its line terminator (empty for out-of-range lines).
  std::string_view lineText(unsigned line) const;
  /// Byte offset where a 1-based line starts.
  uint32_t lineStartOffset(unsigned line) const;

private:
  friend class SourceManager;
  SourceFile(std::string name, std::string text, uint32_t base);

  std::string name_;
  std::string text_;
  uint32_t base_;
  std::vector<uint32_t> lineStarts_; // offset of the first byte of every line
};

/// A source location resolved to file, line and column.
struct FullLoc {
  const SourceFile *file = nullptr;
  unsigned line = 0;
  unsigned column = 0;
  bool isValid() const { return file != nullptr; }
};

/// Owns the source buffers; buffers never move, so string_views into them stay valid for the
/// manager's lifetime.
class SourceManager {
public:
  SourceManager() = default;
  SourceManager(const SourceManager &) = delete;
  SourceManager &operator=(const SourceManager &) = delete;

  /// Adds an in-memory buffer. Returns nullptr only if the 32-bit location space (4 GiB of
  /// source in total) is exhausted.
  const SourceFile *addBuffer(std::string name, std::string text);
  /// Reads a file from disk; on failure returns nullptr and, if `error` is given, a message.
  /// Only regular files of at most kMaxSourceFileBytes are read: a directory, a device
  /// (/dev/zero never ends) or a FIFO is refused by name.
  const SourceFile *addFile(const std::string &path, std::string *error = nullptr);
  static constexpr uint64_t kMaxSourceFileBytes = uint64_t(64) << 20;

  /// The buffer holding `loc`, or nullptr for an invalid or unknown location.
  const SourceFile *fileFor(SourceLoc loc) const;
  FullLoc decompose(SourceLoc loc) const;
  const std::vector<std::unique_ptr<SourceFile>> &files() const { return files_; }

private:
  std::vector<std::unique_ptr<SourceFile>> files_;
  uint64_t nextBase_ = 1; // 0 is the invalid location
};

} // namespace tile::frontend
