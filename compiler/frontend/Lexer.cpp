#include "compiler/frontend/Lexer.h"

#include <charconv>
#include <cstdio>
#include <limits>
#include <string_view>

namespace tile::frontend {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
char toLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Value of an alphanumeric digit in bases up to 36; 99 for anything else.
unsigned digitValue(char c) {
  if (isDigit(c))
    return static_cast<unsigned>(c - '0');
  char l = toLower(c);
  if (l >= 'a' && l <= 'z')
    return static_cast<unsigned>(l - 'a' + 10);
  return 99;
}

/// Decodes one UTF-8 sequence; returns {code point, length} or {-1, 1} if malformed.
std::pair<int32_t, size_t> decodeUtf8(const char *p, size_t avail) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(p[i]); };
  unsigned char c = byte(0);
  size_t len;
  int32_t cp;
  if (c < 0x80)
    return {c, 1};
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return {-1, 1};
  }
  if (avail < len)
    return {-1, 1};
  for (size_t i = 1; i < len; ++i) {
    if ((byte(i) & 0xC0) != 0x80)
      return {-1, 1};
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  static const int32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return {-1, 1};
  return {cp, len};
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string codePointName(int32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

/// True if the byte at `p` cannot start any token, whitespace or comment.
bool startsInvalidCharacter(const char *p, size_t avail) {
  unsigned char c = static_cast<unsigned char>(*p);
  if (c >= 0x80)
    return true;
  if (isIdentChar(static_cast<char>(c)))
    return false;
  switch (c) {
  case ' ':
  case '\t':
  case '\f':
  case '\n':
  case '\r':
  case '#':
  case '\\':
  case '\'':
  case '"':
  case '(':
  case ')':
  case '[':
  case ']':
  case '{':
  case '}':
  case ',':
  case ':':
  case ';':
  case '.':
  case '-':
  case '+':
  case '*':
  case '/':
  case '%':
  case '@':
  case '&':
  case '|':
  case '^':
  case '~':
  case '<':
  case '>':
  case '=':
    return false;
  case '!':
    return !(avail > 1 && p[1] == '=');
  default:
    return true;
  }
}

} // namespace

Lexer::Lexer(const SourceFile &file, DiagnosticEngine &diags)
    : file_(file), diags_(diags), buf_(file.text().data()), size_(file.text().size()) {
  indents_.push_back({0, 0});
  // A UTF-8 byte order mark is allowed at the very start, as in Python.
  if (size_ >= 3 && std::string_view(buf_, 3) == "\xEF\xBB\xBF")
    pos_ = 3;
}

Lexer::Lexer(const SourceFile &file, DiagnosticEngine &diags, uint32_t begin, uint32_t end)
    : file_(file), diags_(diags), buf_(file.text().data()), size_(std::min<size_t>(end, file.size())), pos_(begin),
      atLineStart_(false) {
  indents_.push_back({0, 0});
}

Token Lexer::makeToken(TokenKind kind, size_t begin, size_t end) const {
  Token tok;
  tok.kind = kind;
  tok.range = rangeOf(begin, end);
  tok.text = std::string_view(buf_ + begin, end - begin);
  return tok;
}

std::vector<Token> Lexer::lexAll() {
  std::vector<Token> tokens;
  do
    tokens.push_back(next());
  while (tokens.back().isNot(TokenKind::EndOfFile));
  return tokens;
}

bool Lexer::consumeNewline() {
  if (atEnd())
    return false;
  if (buf_[pos_] == '\n') {
    ++pos_;
    return true;
  }
  if (buf_[pos_] == '\r') {
    ++pos_;
    if (!atEnd() && buf_[pos_] == '\n')
      ++pos_;
    return true;
  }
  return false;
}

Token Lexer::lexNext() {
  for (;;) {
    if (!pending_.empty()) {
      Token tok = std::move(pending_.front());
      pending_.pop_front();
      return tok;
    }
    if (done_)
      return makeToken(TokenKind::EndOfFile, size_, size_);
    if (atLineStart_ && brackets_.empty()) {
      atLineStart_ = false;
      processIndentation();
      continue;
    }

    // Blanks and a trailing comment within the logical line.
    while (!atEnd() && (buf_[pos_] == ' ' || buf_[pos_] == '\t' || buf_[pos_] == '\f'))
      ++pos_;
    if (!atEnd() && buf_[pos_] == '#')
      while (!atEnd() && buf_[pos_] != '\n' && buf_[pos_] != '\r')
        ++pos_;
    if (atEnd())
      return finishAtEndOfFile();

    char c = buf_[pos_];
    if (c == '\n' || c == '\r') {
      size_t newlineBegin = pos_;
      consumeNewline();
      if (brackets_.empty()) {
        atLineStart_ = true;
        if (lineHasTokens_) {
          lineHasTokens_ = false;
          return makeToken(TokenKind::Newline, newlineBegin, pos_);
        }
        continue;
      }
      // Inside brackets the line continues implicitly, unless it obviously cannot.
      recoverFromUnclosedBracket(newlineBegin);
      continue;
    }
    if (c == '\\') {
      size_t begin = pos_++;
      if (consumeNewline())
        continue; // explicit line continuation
      if (atEnd())
        diags_.error(rangeOf(begin, pos_), "unexpected end of file after line continuation character");
      else
        diags_.error(rangeOf(begin, pos_), "unexpected character after line continuation character");
      markNextRecovered_ = true;
      continue;
    }
    if (std::optional<Token> tok = lexToken()) {
      lineHasTokens_ = true;
      return std::move(*tok);
    }
  }
}

void Lexer::processIndentation() {
  for (;;) {
    size_t lineStart = pos_;
    size_t column = 0, altColumn = 0;
    while (!atEnd()) {
      char c = buf_[pos_];
      if (c == ' ') {
        ++column;
        ++altColumn;
      } else if (c == '\t') {
        column = (column / 8 + 1) * 8;
        ++altColumn;
      } else if (c == '\f') {
        column = altColumn = 0; // Python resets the count at a form feed
      } else {
        break;
      }
      ++pos_;
    }
    if (!atEnd() && buf_[pos_] == '#')
      while (!atEnd() && buf_[pos_] != '\n' && buf_[pos_] != '\r')
        ++pos_;
    if (atEnd())
      return; // trailing blank lines: next() finishes the file
    if (consumeNewline())
      continue; // blank and comment-only lines do not affect indentation

    auto tabError = [&] {
      diags_.error(rangeOf(lineStart, pos_), "inconsistent use of tabs and spaces in indentation");
    };
    const IndentLevel top = indents_.back();
    if (column == top.column) {
      if (altColumn != top.altColumn)
        tabError();
    } else if (column > top.column) {
      if (altColumn <= top.altColumn)
        tabError();
      indents_.push_back({column, altColumn});
      pending_.push_back(makeToken(TokenKind::Indent, lineStart, pos_));
    } else {
      while (indents_.size() > 1 && column < indents_.back().column) {
        indents_.pop_back();
        pending_.push_back(makeToken(TokenKind::Dedent, pos_, pos_));
      }
      // A mismatched dedent leaves the line at the enclosing level it fell into.
      if (column != indents_.back().column)
        diags_.error(SourceRange(locAt(pos_)), "unindent does not match any outer indentation level");
      else if (altColumn != indents_.back().altColumn)
        tabError();
    }
    return;
  }
}

Token Lexer::finishAtEndOfFile() {
  const bool unclosed = !brackets_.empty();
  if (unclosed) {
    const OpenBracket &open = brackets_.back();
    diags_.error(rangeOf(open.offset, open.offset + 1), std::string("'") + open.ch + "' was never closed");
    brackets_.clear();
  }
  if (lineHasTokens_) {
    lineHasTokens_ = false;
    Token newline = makeToken(TokenKind::Newline, size_, size_);
    newline.recovered = unclosed;
    pending_.push_back(std::move(newline));
  }
  while (indents_.size() > 1) {
    indents_.pop_back();
    pending_.push_back(makeToken(TokenKind::Dedent, size_, size_));
  }
  pending_.push_back(makeToken(TokenKind::EndOfFile, size_, size_));
  done_ = true;
  Token tok = std::move(pending_.front());
  pending_.pop_front();
  return tok;
}

// An unclosed bracket would swallow the rest of the file into one logical line. A line that
// starts in column 1 with `def`, `class`, `import` or `from` cannot continue an expression, so
// we report the bracket there and resume with a fresh line.
bool Lexer::recoverFromUnclosedBracket(size_t newlineBegin) {
  static constexpr std::string_view kStatementStarts[] = {"def", "class", "import", "from"};
  for (std::string_view word : kStatementStarts) {
    if (size_ - pos_ < word.size() || std::string_view(buf_ + pos_, word.size()) != word ||
        isIdentChar(peekChar(word.size())))
      continue;
    const OpenBracket &open = brackets_.back();
    diags_.error(rangeOf(open.offset, open.offset + 1), std::string("'") + open.ch + "' was never closed");
    brackets_.clear();
    atLineStart_ = true;
    lineHasTokens_ = false;
    Token newline = makeToken(TokenKind::Newline, newlineBegin, newlineBegin + 1);
    newline.recovered = true;
    pending_.push_back(std::move(newline));
    return true;
  }
  return false;
}

std::optional<Token> Lexer::lexToken() {
  char c = buf_[pos_];
  if (isIdentStart(c))
    return lexIdentifierOrKeyword();
  if (isDigit(c) || (c == '.' && isDigit(peekChar(1))))
    return lexNumber();
  if (c == '"' || c == '\'')
    return lexString(pos_, StrPrefixNone);
  size_t begin = pos_;
  if (std::optional<Token> tok = lexPunctuation())
    return tok;
  // An unmatched closing bracket was reported and dropped; what follows it is not invalid.
  if (pos_ != begin)
    return std::nullopt;
  skipInvalidCharacters();
  return std::nullopt;
}

void Lexer::skipInvalidCharacters() {
  size_t begin = pos_;
  auto [cp, len] = decodeUtf8(buf_ + pos_, size_ - pos_);
  std::string message;
  if (cp < 0) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(buf_[pos_]));
    message = std::string("invalid UTF-8 byte ") + hex + " in source";
  } else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
    message = "invalid non-printable character " + codePointName(cp);
  } else {
    message = "invalid character '" + std::string(buf_ + pos_, len) + "' (" + codePointName(cp) + ")";
  }
  pos_ += len;
  // One error for a whole run of invalid characters.
  while (!atEnd() && startsInvalidCharacter(buf_ + pos_, size_ - pos_))
    pos_ += decodeUtf8(buf_ + pos_, size_ - pos_).second;
  diags_.error(rangeOf(begin, pos_), std::move(message));
  markNextRecovered_ = true;
}

Token Lexer::lexIdentifierOrKeyword() {
  size_t begin = pos_;
  while (!atEnd() && isIdentChar(buf_[pos_]))
    ++pos_;
  std::string_view word(buf_ + begin, pos_ - begin);

  // A string prefix: r, b, f, u and the combinations Python accepts (rb, br, fr, rf).
  char quote = peekChar();
  if ((quote == '"' || quote == '\'') && word.size() <= 2) {
    uint8_t prefix = StrPrefixNone;
    bool valid = true;
    for (char ch : word) {
      uint8_t bit = 0;
      switch (toLower(ch)) {
      case 'r':
        bit = StrPrefixRaw;
        break;
      case 'b':
        bit = StrPrefixBytes;
        break;
      case 'f':
        bit = StrPrefixFormat;
        break;
      case 'u':
        bit = StrPrefixUnicode;
        break;
      default:
        valid = false;
        break;
      }
      if (prefix & bit)
        valid = false;
      prefix |= bit;
    }
    if ((prefix & StrPrefixUnicode) && word.size() > 1)
      valid = false;
    if ((prefix & StrPrefixBytes) && (prefix & StrPrefixFormat))
      valid = false;
    if (valid)
      return lexString(begin, prefix);
  }

  if (std::optional<TokenKind> kw = keywordKind(word))
    return makeToken(*kw, begin, pos_);
  return makeToken(TokenKind::Identifier, begin, pos_);
}

Token Lexer::lexNumber() {
  size_t begin = pos_;
  std::string problem; // the first thing wrong with the literal, reported once
  uint64_t value = 0;
  bool overflow = false;
  auto addDigit = [&](unsigned digit, unsigned base) {
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / base)
      overflow = true;
    else
      value = value * base + digit;
  };

  char radix = toLower(peekChar(1));
  if (buf_[pos_] == '0' && (radix == 'x' || radix == 'o' || radix == 'b')) {
    unsigned base = radix == 'x' ? 16 : radix == 'o' ? 8 : 2;
    const char *name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    pos_ += 2;
    bool anyDigit = false;
    for (;;) {
      char c = peekChar();
      if (c == '_' && !atEnd() && digitValue(peekChar(1)) < base) {
        ++pos_; // one underscore between digits (or right after the prefix)
        continue;
      }
      if (atEnd() || digitValue(c) >= base)
        break;
      addDigit(digitValue(c), base);
      anyDigit = true;
      ++pos_;
    }
    if (!atEnd() && isIdentChar(buf_[pos_])) {
      if (base < 10 && isDigit(buf_[pos_]))
        problem = std::string("invalid digit '") + buf_[pos_] + "' in " + name + " literal";
      else
        problem = std::string("invalid ") + name + " literal";
      while (!atEnd() && isIdentChar(buf_[pos_]))
        ++pos_;
    } else if (!anyDigit) {
      problem = std::string("invalid ") + name + " literal";
    }
    if (!problem.empty())
      diags_.error(rangeOf(begin, pos_), problem);
    Token tok = makeToken(TokenKind::Integer, begin, pos_);
    tok.intValue = value;
    tok.intOverflow = overflow;
    return tok;
  }

  // Decimal integer or float. `cleaned` collects the literal without underscores.
  std::string cleaned;
  auto scanDigits = [&] {
    bool afterDigit = false;
    for (;;) {
      char c = peekChar();
      if (!atEnd() && isDigit(c)) {
        cleaned += c;
        ++pos_;
        afterDigit = true;
      } else if (c == '_' && afterDigit && isDigit(peekChar(1))) {
        ++pos_;
        afterDigit = false;
      } else {
        break;
      }
    }
  };
  scanDigits();
  std::string intPart = cleaned;
  bool isFloat = false;
  if (peekChar() == '.') {
    isFloat = true;
    cleaned += '.';
    ++pos_;
    scanDigits();
  }
  if (toLower(peekChar()) == 'e') {
    size_t signLen = (peekChar(1) == '+' || peekChar(1) == '-') ? 1 : 0;
    if (isDigit(peekChar(1 + signLen))) {
      isFloat = true;
      cleaned += 'e';
      if (signLen)
        cleaned += peekChar(1);
      pos_ += 1 + signLen;
      scanDigits();
    }
  }
  bool imaginary = false;
  if (toLower(peekChar()) == 'j') {
    imaginary = true;
    ++pos_;
  }
  if (!atEnd() && isIdentChar(buf_[pos_])) {
    while (!atEnd() && isIdentChar(buf_[pos_]))
      ++pos_;
    problem = "invalid decimal literal";
  } else if (imaginary) {
    problem = "complex literals are not supported";
  } else if (!isFloat && intPart.size() > 1 && intPart[0] == '0' &&
             intPart.find_first_not_of('0') != std::string::npos) {
    problem = "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
              "for octal integers";
  }

  Token tok;
  if (isFloat || imaginary) {
    tok = makeToken(TokenKind::Float, begin, pos_);
    double d = 0;
    auto [ptr, ec] = std::from_chars(cleaned.data(), cleaned.data() + cleaned.size(), d);
    (void)ptr;
    if (ec == std::errc::result_out_of_range && problem.empty())
      problem = "floating-point literal is out of range";
    tok.floatValue = ec == std::errc() ? d : 0.0;
  } else {
    tok = makeToken(TokenKind::Integer, begin, pos_);
    for (char c : intPart)
      addDigit(static_cast<unsigned>(c - '0'), 10);
    tok.intValue = value;
    tok.intOverflow = overflow;
  }
  if (!problem.empty())
    diags_.error(rangeOf(begin, pos_), problem);
  return tok;
}

Token Lexer::lexString(size_t begin, uint8_t prefix) {
  const char quote = buf_[pos_];
  const bool triple = peekChar(1) == quote && peekChar(2) == quote;
  const bool raw = prefix & StrPrefixRaw;
  const bool bytes = prefix & StrPrefixBytes;
  pos_ += triple ? 3 : 1;

  std::string value;
  bool terminated = false;
  while (!atEnd()) {
    char c = buf_[pos_];
    if (c == quote) {
      if (!triple) {
        ++pos_;
        terminated = true;
        break;
      }
      if (peekChar(1) == quote && peekChar(2) == quote) {
        pos_ += 3;
        terminated = true;
        break;
      }
      value += c;
      ++pos_;
      continue;
    }
    if ((c == '\n' || c == '\r') && !triple)
      break;
    if (c == '\\') {
      if (!raw) {
        lexEscape(value, bytes);
        continue;
      }
      // In raw strings a backslash stays, and still keeps the next character (a quote or a
      // newline) from ending the string.
      value += c;
      ++pos_;
      if (!atEnd()) {
        char n = buf_[pos_++];
        value += n == '\r' ? '\n' : n;
        if (n == '\r' && !atEnd() && buf_[pos_] == '\n')
          ++pos_;
      }
      continue;
    }
    if (c == '\r') { // newlines inside triple-quoted strings read as "\n"
      value += '\n';
      ++pos_;
      if (!atEnd() && buf_[pos_] == '\n')
        ++pos_;
      continue;
    }
    value += c;
    ++pos_;
  }
  if (!terminated)
    diags_.error(rangeOf(begin, pos_),
                 triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
  Token tok = makeToken(TokenKind::String, begin, pos_);
  tok.strValue = std::move(value);
  tok.strPrefix = prefix;
  return tok;
}

void Lexer::lexEscape(std::string &out, bool isBytes) {
  size_t begin = pos_++; // the backslash
  if (atEnd()) {
    out += '\\';
    return; // the unterminated string is reported by the caller
  }
  char c = buf_[pos_++];
  auto readHex = [&](unsigned count, uint32_t &result) {
    result = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (atEnd() || digitValue(buf_[pos_]) >= 16)
        return false;
      result = result * 16 + digitValue(buf_[pos_++]);
    }
    return true;
  };
  switch (c) {
  case '\n':
    return; // backslash-newline continues the string
  case '\r':
    if (!atEnd() && buf_[pos_] == '\n')
      ++pos_;
    return;
  case '\\':
    out += '\\';
    return;
  case '\'':
    out += '\'';
    return;
  case '"':
    out += '"';
    return;
  case 'a':
    out += '\a';
    return;
  case 'b':
    out += '\b';
    return;
  case 'f':
    out += '\f';
    return;
  case 'n':
    out += '\n';
    return;
  case 'r':
    out += '\r';
    return;
  case 't':
    out += '\t';
    return;
  case 'v':
    out += '\v';
    return;
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7': {
    uint32_t v = static_cast<uint32_t>(c - '0');
    for (int i = 0; i < 2 && !atEnd() && buf_[pos_] >= '0' && buf_[pos_] <= '7'; ++i)
      v = v * 8 + static_cast<uint32_t>(buf_[pos_++] - '0');
    if (isBytes)
      out += static_cast<char>(v & 0xFF);
    else
      appendUtf8(out, v);
    return;
  }
  case 'x': {
    uint32_t v;
    if (!readHex(2, v)) {
      diags_.error(rangeOf(begin, pos_), "invalid '\\x' escape: expected 2 hex digits");
      return;
    }
    if (isBytes)
      out += static_cast<char>(v);
    else
      appendUtf8(out, v);
    return;
  }
  case 'u':
  case 'U':
    if (!isBytes) {
      unsigned count = c == 'u' ? 4 : 8;
      uint32_t v;
      if (!readHex(count, v)) {
        diags_.error(rangeOf(begin, pos_),
                     std::string("invalid '\\") + c + "' escape: expected " + std::to_string(count) + " hex digits");
        return;
      }
      if (v > 0x10FFFF) {
        diags_.error(rangeOf(begin, pos_), "escape sequence is not a valid Unicode code point");
        return;
      }
      appendUtf8(out, v);
      return;
    }
    break;
  case 'N':
    if (!isBytes) {
      if (!atEnd() && buf_[pos_] == '{')
        while (!atEnd() && buf_[pos_] != '}' && buf_[pos_] != '\n' && buf_[pos_] != '\r' && buf_[pos_] != '"' &&
               buf_[pos_] != '\'')
          ++pos_;
      if (!atEnd() && buf_[pos_] == '}')
        ++pos_;
      diags_.error(rangeOf(begin, pos_), "'\\N{...}' escapes are not supported");
      return;
    }
    break;
  default:
    break;
  }
  // Unknown escape: Python keeps the backslash and warns. Re-read the character normally.
  --pos_;
  bool printable = static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F;
  diags_.warning(rangeOf(begin, pos_ + (printable ? 1 : 0)), printable
                                                                 ? std::string("invalid escape sequence '\\") + c + "'"
                                                                 : std::string("invalid escape sequence"));
  out += '\\';
}

std::optional<Token> Lexer::lexPunctuation() {
  size_t begin = pos_;
  char c = buf_[pos_], c1 = peekChar(1), c2 = peekChar(2);
  TokenKind kind;
  size_t len = 1;
  auto withEqual = [&](TokenKind plain, TokenKind assign) {
    if (c1 == '=') {
      len = 2;
      return assign;
    }
    return plain;
  };
  switch (c) {
  case '(':
  case '[':
  case '{':
    brackets_.push_back({c, begin});
    kind = c == '(' ? TokenKind::LParen : c == '[' ? TokenKind::LSquare : TokenKind::LBrace;
    break;
  case ')':
  case ']':
  case '}': {
    char open = c == ')' ? '(' : c == ']' ? '[' : '{';
    if (brackets_.empty()) {
      // Dropped: the parser then sees a well-formed line.
      ++pos_;
      diags_.error(rangeOf(begin, pos_), std::string("unmatched '") + c + "'");
      markNextRecovered_ = true;
      return std::nullopt;
    }
    if (brackets_.back().ch != open) {
      const OpenBracket &other = brackets_.back();
      diags_
          .error(rangeOf(begin, begin + 1),
                 std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" + other.ch + "'")
          .note(rangeOf(other.offset, other.offset + 1), "opening parenthesis is here");
    }
    brackets_.pop_back();
    kind = c == ')' ? TokenKind::RParen : c == ']' ? TokenKind::RSquare : TokenKind::RBrace;
    break;
  }
  case ',':
    kind = TokenKind::Comma;
    break;
  case ';':
    kind = TokenKind::Semicolon;
    break;
  case '~':
    kind = TokenKind::Tilde;
    break;
  case ':':
    kind = withEqual(TokenKind::Colon, TokenKind::ColonEqual);
    break;
  case '.':
    if (c1 == '.' && c2 == '.') {
      kind = TokenKind::Ellipsis;
      len = 3;
    } else {
      kind = TokenKind::Dot;
    }
    break;
  case '-':
    if (c1 == '>') {
      kind = TokenKind::Arrow;
      len = 2;
    } else {
      kind = withEqual(TokenKind::Minus, TokenKind::MinusEqual);
    }
    break;
  case '+':
    kind = withEqual(TokenKind::Plus, TokenKind::PlusEqual);
    break;
  case '%':
    kind = withEqual(TokenKind::Percent, TokenKind::PercentEqual);
    break;
  case '@':
    kind = withEqual(TokenKind::At, TokenKind::AtEqual);
    break;
  case '&':
    kind = withEqual(TokenKind::Amp, TokenKind::AmpEqual);
    break;
  case '|':
    kind = withEqual(TokenKind::Pipe, TokenKind::PipeEqual);
    break;
  case '^':
    kind = withEqual(TokenKind::Caret, TokenKind::CaretEqual);
    break;
  case '=':
    kind = withEqual(TokenKind::Equal, TokenKind::EqualEqual);
    break;
  case '*':
    if (c1 == '*') {
      kind = c2 == '=' ? TokenKind::StarStarEqual : TokenKind::StarStar;
      len = c2 == '=' ? 3 : 2;
    } else {
      kind = withEqual(TokenKind::Star, TokenKind::StarEqual);
    }
    break;
  case '/':
    if (c1 == '/') {
      kind = c2 == '=' ? TokenKind::SlashSlashEqual : TokenKind::SlashSlash;
      len = c2 == '=' ? 3 : 2;
    } else {
      kind = withEqual(TokenKind::Slash, TokenKind::SlashEqual);
    }
    break;
  case '<':
    if (c1 == '<') {
      kind = c2 == '=' ? TokenKind::LessLessEqual : TokenKind::LessLess;
      len = c2 == '=' ? 3 : 2;
    } else {
      kind = withEqual(TokenKind::Less, TokenKind::LessEqual);
    }
    break;
  case '>':
    if (c1 == '>') {
      kind = c2 == '=' ? TokenKind::GreaterGreaterEqual : TokenKind::GreaterGreater;
      len = c2 == '=' ? 3 : 2;
    } else {
      kind = withEqual(TokenKind::Greater, TokenKind::GreaterEqual);
    }
    break;
  case '!':
    if (c1 != '=')
      return std::nullopt;
    kind = TokenKind::NotEqual;
    len = 2;
    break;
  default:
    return std::nullopt;
  }
  pos_ += len;
  return makeToken(kind, begin, pos_);
}

} // namespace tile::frontend
