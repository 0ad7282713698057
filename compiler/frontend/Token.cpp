#include "compiler/frontend/Token.h"

namespace tile::frontend {

const char *tokenSpelling(TokenKind kind) {
  switch (kind) {
#define TILE_TOK(name, desc)                                                                                           \
  case TokenKind::name:                                                                                                \
    return nullptr;
#define TILE_KW(name, spelling)                                                                                        \
  case TokenKind::kw_##name:                                                                                           \
    return spelling;
#define TILE_PUNCT(name, spelling)                                                                                     \
  case TokenKind::name:                                                                                                \
    return spelling;
    TILE_FOREACH_SPECIAL_TOKEN(TILE_TOK)
    TILE_FOREACH_KEYWORD(TILE_KW)
    TILE_FOREACH_PUNCT(TILE_PUNCT)
#undef TILE_TOK
#undef TILE_KW
#undef TILE_PUNCT
  }
  return nullptr;
}

const char *tokenKindName(TokenKind kind) {
  switch (kind) {
#define TILE_TOK(name, desc)                                                                                           \
  case TokenKind::name:                                                                                                \
    return #name;
#define TILE_KW(name, spelling)                                                                                        \
  case TokenKind::kw_##name:                                                                                           \
    return "kw_" #name;
#define TILE_PUNCT(name, spelling)                                                                                     \
  case TokenKind::name:                                                                                                \
    return #name;
    TILE_FOREACH_SPECIAL_TOKEN(TILE_TOK)
    TILE_FOREACH_KEYWORD(TILE_KW)
    TILE_FOREACH_PUNCT(TILE_PUNCT)
#undef TILE_TOK
#undef TILE_KW
#undef TILE_PUNCT
  }
  return "?";
}

static const char *specialDescription(TokenKind kind) {
  switch (kind) {
#define TILE_TOK(name, desc)                                                                                           \
  case TokenKind::name:                                                                                                \
    return desc;
    TILE_FOREACH_SPECIAL_TOKEN(TILE_TOK)
#undef TILE_TOK
  default:
    return nullptr;
  }
}

bool Token::isKeyword() const {
  switch (kind) {
#define TILE_KW(name, spelling) case TokenKind::kw_##name:
    TILE_FOREACH_KEYWORD(TILE_KW)
#undef TILE_KW
    return true;
  default:
    return false;
  }
}

std::string describeToken(const Token &tok) {
  if (const char *spelling = tokenSpelling(tok.kind))
    return std::string("'") + spelling + "'";
  std::string desc = specialDescription(tok.kind);
  switch (tok.kind) {
  case TokenKind::Identifier:
  case TokenKind::Integer:
  case TokenKind::Float: {
    // Quote the spelling, shortened so garbage input cannot make huge messages.
    constexpr size_t kMax = 32;
    std::string_view text = tok.text;
    std::string shown(text.substr(0, kMax));
    if (text.size() > kMax)
      shown += "...";
    return desc + " '" + shown + "'";
  }
  default:
    return desc;
  }
}

std::optional<TokenKind> keywordKind(std::string_view word) {
#define TILE_KW(name, spelling)                                                                                        \
  if (word == spelling)                                                                                                \
    return TokenKind::kw_##name;
  TILE_FOREACH_KEYWORD(TILE_KW)
#undef TILE_KW
  return std::nullopt;
}

} // namespace tile::frontend
