// Tokens of the kernel language (Python's lexical grammar).
#pragma once

#include "compiler/frontend/Source.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tile::frontend {

// Tokens without a fixed spelling: TOK(name, description used in messages).
// clang-format off
#define TILE_FOREACH_SPECIAL_TOKEN(TOK)                                                    \
  TOK(EndOfFile, "end of file")                                                            \
  TOK(Newline, "end of line")                                                              \
  TOK(Indent, "indent")                                                                    \
  TOK(Dedent, "dedent")                                                                    \
  TOK(Identifier, "identifier")                                                            \
  TOK(Integer, "integer literal")                                                          \
  TOK(Float, "floating-point literal")                                                     \
  TOK(String, "string literal")
// clang-format on

// Keywords: KW(name, spelling); the enumerator is kw_<name>.
// clang-format off
#define TILE_FOREACH_KEYWORD(KW)                                                           \
  KW(False, "False") KW(None, "None") KW(True, "True") KW(and, "and") KW(as, "as")         \
  KW(assert, "assert") KW(async, "async") KW(await, "await") KW(break, "break")            \
  KW(class, "class") KW(continue, "continue") KW(def, "def") KW(del, "del")                \
  KW(elif, "elif") KW(else, "else") KW(except, "except") KW(finally, "finally")            \
  KW(for, "for") KW(from, "from") KW(global, "global") KW(if, "if") KW(import, "import")   \
  KW(in, "in") KW(is, "is") KW(lambda, "lambda") KW(nonlocal, "nonlocal") KW(not, "not")   \
  KW(or, "or") KW(pass, "pass") KW(raise, "raise") KW(return, "return") KW(try, "try")     \
  KW(while, "while") KW(with, "with") KW(yield, "yield")
// clang-format on

// Operators and delimiters: PUNCT(name, spelling).
// clang-format off
#define TILE_FOREACH_PUNCT(PUNCT)                                                          \
  PUNCT(LParen, "(") PUNCT(RParen, ")") PUNCT(LSquare, "[") PUNCT(RSquare, "]")            \
  PUNCT(LBrace, "{") PUNCT(RBrace, "}") PUNCT(Comma, ",") PUNCT(Colon, ":")                \
  PUNCT(Semicolon, ";") PUNCT(Dot, ".") PUNCT(Ellipsis, "...") PUNCT(Arrow, "->")          \
  PUNCT(ColonEqual, ":=") PUNCT(Equal, "=") PUNCT(Plus, "+") PUNCT(Minus, "-")             \
  PUNCT(Star, "*") PUNCT(Slash, "/") PUNCT(SlashSlash, "//") PUNCT(Percent, "%")           \
  PUNCT(StarStar, "**") PUNCT(At, "@") PUNCT(Amp, "&") PUNCT(Pipe, "|") PUNCT(Caret, "^")  \
  PUNCT(Tilde, "~") PUNCT(LessLess, "<<") PUNCT(GreaterGreater, ">>") PUNCT(Less, "<")     \
  PUNCT(Greater, ">") PUNCT(LessEqual, "<=") PUNCT(GreaterEqual, ">=")                     \
  PUNCT(EqualEqual, "==") PUNCT(NotEqual, "!=") PUNCT(PlusEqual, "+=")                     \
  PUNCT(MinusEqual, "-=") PUNCT(StarEqual, "*=") PUNCT(SlashEqual, "/=")                   \
  PUNCT(SlashSlashEqual, "//=") PUNCT(PercentEqual, "%=") PUNCT(StarStarEqual, "**=")      \
  PUNCT(AtEqual, "@=") PUNCT(AmpEqual, "&=") PUNCT(PipeEqual, "|=") PUNCT(CaretEqual, "^=") \
  PUNCT(LessLessEqual, "<<=") PUNCT(GreaterGreaterEqual, ">>=")
// clang-format on

enum class TokenKind : uint8_t {
#define TILE_TOK(name, desc) name,
#define TILE_KW(name, spelling) kw_##name,
#define TILE_PUNCT(name, spelling) name,
  TILE_FOREACH_SPECIAL_TOKEN(TILE_TOK) TILE_FOREACH_KEYWORD(TILE_KW) TILE_FOREACH_PUNCT(TILE_PUNCT)
#undef TILE_TOK
#undef TILE_KW
#undef TILE_PUNCT
};

/// Prefix letters of a string literal (any case, in any order Python allows).
enum StringPrefix : uint8_t {
  StrPrefixNone = 0,
  StrPrefixRaw = 1,     // r
  StrPrefixBytes = 2,   // b
  StrPrefixFormat = 4,  // f
  StrPrefixUnicode = 8, // u
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  SourceRange range;
  /// The token's bytes in the source (empty for NEWLINE at end of file, INDENT, DEDENT, EOF).
  std::string_view text;

  // Literal payloads, filled for Integer / Float / String tokens.
  uint64_t intValue = 0;
  bool intOverflow = false; // the literal does not fit in 64 bits
  double floatValue = 0;
  std::string strValue; // the decoded contents (escapes processed unless raw)
  uint8_t strPrefix = StrPrefixNone;
  /// Set on the token that follows a lexical error (invalid characters, a dropped bracket)
  /// and on a NEWLINE the lexer invented to end an unclosed bracket: the parser does not pile
  /// an error of its own onto it, since the lexer already explained what went wrong there.
  bool recovered = false;

  bool is(TokenKind k) const { return kind == k; }
  bool isNot(TokenKind k) const { return kind != k; }
  bool isKeyword() const;
};

/// The fixed spelling of a keyword or punctuator ("def", "**="); nullptr for other kinds.
const char *tokenSpelling(TokenKind kind);
/// Enumerator name for dumps and tests ("Identifier", "kw_def", "StarStar").
const char *tokenKindName(TokenKind kind);
/// How a token is named in messages: "'def'", "')'", "identifier 'x'", "integer literal '12'",
/// "string literal", "end of line", "end of file", "indent", "dedent".
std::string describeToken(const Token &tok);
/// The keyword spelled `word`, if any.
std::optional<TokenKind> keywordKind(std::string_view word);

} // namespace tile::frontend
