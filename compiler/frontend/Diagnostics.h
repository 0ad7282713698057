// Compiler diagnostics: collected while compiling, rendered like clang.
//
//   kernel.py:3:9: error: expected ':' after 'if' condition, found end of line
//       if x
//           ^
//   kernel.py:1:5: note: to match this '('
//
// Diagnostics are stored, not printed as they arrive, so a driver decides where they go and
// tests can compare the rendering exactly. Output depends only on the inputs (no colours, no
// terminal width).
#pragma once

#include "compiler/frontend/Source.h"

#include <cstddef>
#include <iosfwd>
#include <string>
#include <unordered_set>
#include <vector>

namespace tile::frontend {

enum class Severity { Remark, Note, Warning, Error, Fatal };

/// "remark", "note", "warning", "error", "fatal error". A remark reports a compiler decision
/// (`tile-cc --remarks`), e.g. why a product does not use wgmma.
const char *severityName(Severity severity);

/// A note attached to a diagnostic, usually pointing at a related location.
struct DiagnosticNote {
  SourceRange range; // may be invalid: the note then has no location line
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceRange range; // may be invalid for diagnostics without a location
  std::string message;
  std::vector<DiagnosticNote> notes;
};

class DiagnosticEngine;

/// Returned by DiagnosticEngine::error()/warning() to attach notes:
///   diags.error(range, "shape mismatch").note(other, "shape defined here");
/// If the diagnostic was dropped (past the error limit) notes are dropped too.
class DiagBuilder {
public:
  DiagBuilder() = default;
  DiagBuilder &note(SourceRange range, std::string message);
  DiagBuilder &note(SourceLoc loc, std::string message) { return note(SourceRange(loc), std::move(message)); }
  /// False if the engine dropped the diagnostic.
  bool isActive() const { return engine_ != nullptr; }

private:
  friend class DiagnosticEngine;
  DiagBuilder(DiagnosticEngine *engine, size_t index) : engine_(engine), index_(index) {}
  DiagnosticEngine *engine_ = nullptr;
  size_t index_ = 0;
};

class DiagnosticEngine {
public:
  static constexpr unsigned kDefaultErrorLimit = 20;

  explicit DiagnosticEngine(const SourceManager &sources, unsigned errorLimit = kDefaultErrorLimit)
      : sources_(sources), errorLimit_(errorLimit) {}

  DiagBuilder error(SourceRange range, std::string message) {
    return report(Severity::Error, range, std::move(message));
  }
  DiagBuilder error(SourceLoc loc, std::string message) {
    return report(Severity::Error, SourceRange(loc), std::move(message));
  }
  DiagBuilder warning(SourceRange range, std::string message) {
    return report(Severity::Warning, range, std::move(message));
  }
  DiagBuilder warning(SourceLoc loc, std::string message) {
    return report(Severity::Warning, SourceRange(loc), std::move(message));
  }
  /// Records a diagnostic. Once `errorLimit` errors were recorded, the next error is replaced
  /// by a single fatal "too many errors emitted, stopping now" and everything after it is
  /// dropped; stopped() then tells the caller to give up.
  DiagBuilder report(Severity severity, SourceRange range, std::string message);

  /// 0 means no limit.
  void setErrorLimit(unsigned limit) { errorLimit_ = limit; }
  unsigned errorLimit() const { return errorLimit_; }

  unsigned numErrors() const { return numErrors_; }
  unsigned numWarnings() const { return numWarnings_; }
  bool hasErrors() const { return numErrors_ != 0; }
  /// True once the error limit was hit; callers should stop producing diagnostics.
  bool stopped() const { return stopped_; }
  /// True if an error was recorded whose range starts at `loc` (the parser uses it to avoid
  /// piling a second error onto a spot the lexer already reported).
  bool hasErrorAt(SourceLoc loc) const { return errorStarts_.count(loc.raw()) != 0; }

  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  const SourceManager &sources() const { return sources_; }
  void clear();

  /// Renders every diagnostic in the order reported.
  void print(std::ostream &os) const;
  std::string str() const;
  /// "1 error generated.", "2 warnings and 1 error generated.", or "" if nothing was reported.
  std::string summary() const;

private:
  friend class DiagBuilder;

  const SourceManager &sources_;
  unsigned errorLimit_;
  unsigned numErrors_ = 0;
  unsigned numWarnings_ = 0;
  bool stopped_ = false;
  std::vector<Diagnostic> diags_;
  std::unordered_set<uint32_t> errorStarts_;
};

/// Renders one diagnostic with its notes: the "file:line:col: severity: message" line, then
/// the source line and a caret line ("^~~~" under the range; a range spanning several lines
/// is underlined to the end of its first line).
void printDiagnostic(std::ostream &os, const SourceManager &sources, const Diagnostic &diag);

} // namespace tile::frontend
