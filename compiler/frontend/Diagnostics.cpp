#include "compiler/frontend/Diagnostics.h"

#include <algorithm>
#include <ostream>
#include <sstream>

namespace tile::frontend {

const char *severityName(Severity severity) {
  switch (severity) {
  case Severity::Remark:
    return "remark";
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  case Severity::Fatal:
    return "fatal error";
  }
  return "error";
}

DiagBuilder &DiagBuilder::note(SourceRange range, std::string message) {
  if (engine_)
    engine_->diags_[index_].notes.push_back({range, std::move(message)});
  return *this;
}

DiagBuilder DiagnosticEngine::report(Severity severity, SourceRange range, std::string message) {
  if (stopped_)
    return {};
  if (severity == Severity::Error || severity == Severity::Fatal) {
    if (errorLimit_ != 0 && numErrors_ >= errorLimit_) {
      // Replace the error that goes over the limit by one final notice.
      stopped_ = true;
      diags_.push_back({Severity::Fatal, SourceRange(), "too many errors emitted, stopping now", {}});
      return {};
    }
    ++numErrors_;
    errorStarts_.insert(range.begin.raw());
    if (severity == Severity::Fatal)
      stopped_ = true;
  } else if (severity == Severity::Warning) {
    ++numWarnings_;
  }
  diags_.push_back({severity, range, std::move(message), {}});
  return DiagBuilder(this, diags_.size() - 1);
}

void DiagnosticEngine::clear() {
  diags_.clear();
  errorStarts_.clear();
  numErrors_ = numWarnings_ = 0;
  stopped_ = false;
}

namespace {

// Lines longer than this are shown as a window around the caret, so one huge line (minified
// or garbage input) cannot flood the output.
constexpr size_t kMaxShownLine = 400;
constexpr size_t kContextBeforeCaret = 100;

bool isUtf8Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

void printSnippet(std::ostream &os, const SourceManager &sources, SourceRange range) {
  FullLoc loc = sources.decompose(range.begin);
  if (!loc.isValid())
    return;
  const SourceFile &file = *loc.file;
  std::string_view line = file.lineText(loc.line);
  size_t start = loc.column - 1; // byte index of the caret within the line
  size_t end = start;            // one past the last underlined byte
  if (range.end != range.begin && file.contains(range.end)) {
    LineColumn endLc = file.lineColumn(range.end);
    end = endLc.line == loc.line ? endLc.column - 1 : line.size();
    if (end < start + 1)
      end = start + 1; // a range over the line terminator still gets its caret
  }

  // Window for very long lines.
  size_t shownBegin = 0, shownEnd = line.size();
  if (line.size() > kMaxShownLine) {
    shownBegin = start > kContextBeforeCaret ? start - kContextBeforeCaret : 0;
    while (shownBegin < line.size() && isUtf8Continuation(line[shownBegin]))
      ++shownBegin;
    shownEnd = std::min(line.size(), shownBegin + kMaxShownLine);
    if (start > shownEnd)
      start = shownEnd;
  }
  if (end > shownEnd && end > start + 1)
    end = std::max(start + 1, shownEnd);

  std::string shown;
  for (size_t i = shownBegin; i < shownEnd; ++i) {
    unsigned char c = line[i];
    // Control characters would corrupt the terminal and the alignment; show them as '?'.
    shown += (c < 0x20 && c != '\t') || c == 0x7f ? '?' : static_cast<char>(c);
  }
  os << shown << '\n';

  std::string caret;
  for (size_t i = shownBegin; i < start; ++i) {
    unsigned char c = i < line.size() ? line[i] : ' ';
    if (c == '\t')
      caret += '\t'; // keep tabs so the caret lines up however the terminal expands them
    else if (!isUtf8Continuation(c))
      caret += ' '; // one column per code point
  }
  caret += '^';
  for (size_t i = start + 1; i < end; ++i) {
    unsigned char c = i < line.size() ? line[i] : ' ';
    if (!isUtf8Continuation(c))
      caret += '~';
  }
  os << caret << '\n';
}

void printHeader(std::ostream &os, const SourceManager &sources, Severity severity, SourceRange range,
                 const std::string &message) {
  FullLoc loc = sources.decompose(range.begin);
  if (loc.isValid())
    os << loc.file->name() << ':' << loc.line << ':' << loc.column << ": ";
  os << severityName(severity) << ": " << message << '\n';
}

} // namespace

void printDiagnostic(std::ostream &os, const SourceManager &sources, const Diagnostic &diag) {
  printHeader(os, sources, diag.severity, diag.range, diag.message);
  printSnippet(os, sources, diag.range);
  for (const DiagnosticNote &note : diag.notes) {
    printHeader(os, sources, Severity::Note, note.range, note.message);
    printSnippet(os, sources, note.range);
  }
}

void DiagnosticEngine::print(std::ostream &os) const {
  for (const Diagnostic &diag : diags_)
    printDiagnostic(os, sources_, diag);
}

std::string DiagnosticEngine::str() const {
  std::ostringstream os;
  print(os);
  return os.str();
}

std::string DiagnosticEngine::summary() const {
  auto count = [](unsigned n, const char *what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  if (numErrors_ == 0 && numWarnings_ == 0)
    return "";
  std::string text;
  if (numWarnings_ != 0)
    text = count(numWarnings_, "warning");
  if (numErrors_ != 0)
    text += (text.empty() ? "" : " and ") + count(numErrors_, "error");
  return text + " generated.";
}

} // namespace tile::frontend
