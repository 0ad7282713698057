// The lexer: Python's lexical rules, including the layout tokens NEWLINE, INDENT and DEDENT.
//
// Tokens are produced on demand so lexer and parser diagnostics come out interleaved in source
// order. Errors (invalid characters, unterminated strings, bad indentation, malformed numbers)
// are reported to the DiagnosticEngine and lexing goes on; the token stream stays well formed
// (every INDENT is matched by a DEDENT, a NEWLINE precedes the DEDENTs and EOF ends it).
#pragma once

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Token.h"

#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

namespace tile::frontend {

class Lexer {
public:
  Lexer(const SourceFile &file, DiagnosticEngine &diags);
  /// The bytes [begin, end) of `file` as one logical line (an f-string's field).
  Lexer(const SourceFile &file, DiagnosticEngine &diags, uint32_t begin, uint32_t end);

  /// The next token; after EndOfFile, EndOfFile again.
  Token next() {
    Token tok = lexNext();
    if (markNextRecovered_) {
      tok.recovered = true;
      markNextRecovered_ = false;
    }
    return tok;
  }
  /// Every token up to and including EndOfFile (for tests and tools).
  std::vector<Token> lexAll();

  const SourceFile &file() const { return file_; }

private:
  struct IndentLevel {
    size_t column;    // tabs advance to the next multiple of 8 (Python's rule)
    size_t altColumn; // tabs count 1; used to detect ambiguous tab/space mixes
  };
  struct OpenBracket {
    char ch;
    size_t offset;
  };

  bool atEnd() const { return pos_ >= size_; }
  char peekChar(size_t ahead = 0) const { return pos_ + ahead < size_ ? buf_[pos_ + ahead] : '\0'; }
  SourceLoc locAt(size_t offset) const { return file_.locForOffset(static_cast<uint32_t>(offset)); }
  SourceRange rangeOf(size_t begin, size_t end) const { return SourceRange(locAt(begin), locAt(end)); }
  Token makeToken(TokenKind kind, size_t begin, size_t end) const;
  Token lexNext();

  void processIndentation();
  Token finishAtEndOfFile();
  bool consumeNewline();
  bool recoverFromUnclosedBracket(size_t newlineBegin);
  void skipInvalidCharacters();

  std::optional<Token> lexToken();
  Token lexIdentifierOrKeyword();
  Token lexNumber();
  Token lexString(size_t begin, uint8_t prefix);
  std::optional<Token> lexPunctuation();
  void lexEscape(std::string &out, bool isBytes);

  const SourceFile &file_;
  DiagnosticEngine &diags_;
  const char *buf_;
  size_t size_;
  size_t pos_ = 0;

  std::vector<IndentLevel> indents_;
  std::vector<OpenBracket> brackets_;
  std::deque<Token> pending_; // layout tokens waiting to be returned
  bool atLineStart_ = true;
  bool lineHasTokens_ = false;
  bool done_ = false;
  bool markNextRecovered_ = false; // a lexical error was just reported (see Token::recovered)
};

} // namespace tile::frontend
