#include "compiler/frontend/Parser.h"

#include "compiler/frontend/Lexer.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <string>

namespace tile::frontend {

namespace {

bool isOpeningBracket(TokenKind k) {
  return k == TokenKind::LParen || k == TokenKind::LSquare || k == TokenKind::LBrace;
}
bool isClosingBracket(TokenKind k) {
  return k == TokenKind::RParen || k == TokenKind::RSquare || k == TokenKind::RBrace;
}

/// True if `tok` can begin an expression (used to give "expected expression" errors the
/// context of what came before, and to detect trailing commas).
bool canStartExpression(const Token &tok) {
  switch (tok.kind) {
  case TokenKind::Identifier:
  case TokenKind::Integer:
  case TokenKind::Float:
  case TokenKind::String:
  case TokenKind::LParen:
  case TokenKind::LSquare:
  case TokenKind::LBrace:
  case TokenKind::Minus:
  case TokenKind::Plus:
  case TokenKind::Tilde:
  case TokenKind::Star:
  case TokenKind::Ellipsis:
  case TokenKind::kw_not:
  case TokenKind::kw_lambda:
  case TokenKind::kw_await:
  case TokenKind::kw_yield:
  case TokenKind::kw_None:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
    return true;
  default:
    return false;
  }
}

/// Binary operators handled by precedence climbing, with their binding power (higher binds
/// tighter). `**` is handled separately because it is right-associative and binds tighter
/// than unary operators on its left.
struct BinaryOpInfo {
  BinOpKind op;
  int precedence; // 0: not a binary operator
};

BinaryOpInfo binaryOpInfo(TokenKind kind) {
  switch (kind) {
  case TokenKind::Pipe:
    return {BinOpKind::BitOr, 1};
  case TokenKind::Caret:
    return {BinOpKind::BitXor, 2};
  case TokenKind::Amp:
    return {BinOpKind::BitAnd, 3};
  case TokenKind::LessLess:
    return {BinOpKind::LShift, 4};
  case TokenKind::GreaterGreater:
    return {BinOpKind::RShift, 4};
  case TokenKind::Plus:
    return {BinOpKind::Add, 5};
  case TokenKind::Minus:
    return {BinOpKind::Sub, 5};
  case TokenKind::Star:
    return {BinOpKind::Mult, 6};
  case TokenKind::Slash:
    return {BinOpKind::Div, 6};
  case TokenKind::SlashSlash:
    return {BinOpKind::FloorDiv, 6};
  case TokenKind::Percent:
    return {BinOpKind::Mod, 6};
  case TokenKind::At:
    return {BinOpKind::MatMult, 6};
  default:
    return {BinOpKind::Add, 0};
  }
}
constexpr int kLowestBinaryPrecedence = 1;

std::optional<BinOpKind> augAssignOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::PlusEqual:
    return BinOpKind::Add;
  case TokenKind::MinusEqual:
    return BinOpKind::Sub;
  case TokenKind::StarEqual:
    return BinOpKind::Mult;
  case TokenKind::SlashEqual:
    return BinOpKind::Div;
  case TokenKind::SlashSlashEqual:
    return BinOpKind::FloorDiv;
  case TokenKind::PercentEqual:
    return BinOpKind::Mod;
  case TokenKind::StarStarEqual:
    return BinOpKind::Pow;
  case TokenKind::AtEqual:
    return BinOpKind::MatMult;
  case TokenKind::AmpEqual:
    return BinOpKind::BitAnd;
  case TokenKind::PipeEqual:
    return BinOpKind::BitOr;
  case TokenKind::CaretEqual:
    return BinOpKind::BitXor;
  case TokenKind::LessLessEqual:
    return BinOpKind::LShift;
  case TokenKind::GreaterGreaterEqual:
    return BinOpKind::RShift;
  default:
    return std::nullopt;
  }
}

/// How an expression is named in "cannot assign to ..." messages (Python's wording).
std::string describeExpr(const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Call:
    return "function call";
  case ExprKind::IntLit:
  case ExprKind::FloatLit:
  case ExprKind::StrLit:
  case ExprKind::Ellipsis:
    return "literal";
  case ExprKind::FString:
    return "f-string expression";
  case ExprKind::BoolLit:
    return e.as<BoolLitExpr>().value ? "True" : "False";
  case ExprKind::NoneLit:
    return "None";
  case ExprKind::BinOp:
  case ExprKind::UnaryOp:
  case ExprKind::BoolOp:
    return "expression";
  case ExprKind::Compare:
    return "comparison";
  case ExprKind::IfExp:
    return "conditional expression";
  case ExprKind::Dict:
    return "dict literal";
  case ExprKind::Slice:
    return "slice";
  case ExprKind::Tuple:
    return "tuple";
  case ExprKind::List:
    return "list";
  case ExprKind::Name:
    return "name";
  case ExprKind::Attribute:
    return "attribute";
  case ExprKind::Subscript:
    return "subscript";
  case ExprKind::Error:
    return "expression";
  }
  return "expression";
}

std::string quoted(TokenKind kind) { return std::string("'") + tokenSpelling(kind) + "'"; }

class Parser {
public:
  Parser(const SourceFile &file, DiagnosticEngine &diags, const ParseOptions &options)
      : file_(file), lexer_(file, diags), diags_(diags), options_(options) {
    eof_.kind = TokenKind::EndOfFile;
    eof_.range = SourceRange(file.endLoc());
  }
  /// A parser of the bytes [begin, end) of `file` (an f-string's field).
  Parser(const SourceFile &file, DiagnosticEngine &diags, const ParseOptions &options, uint32_t begin, uint32_t end)
      : file_(file), lexer_(file, diags, begin, end), diags_(diags), options_(options) {
    eof_.kind = TokenKind::EndOfFile;
    eof_.range = SourceRange(file.locForOffset(end));
  }

  std::unique_ptr<Module> parseModule();
  ExprPtr parseSingleExpression();

private:
  friend class NestGuard;
  friend class ChainGuard;

  //===--- Tokens ---------------------------------------------------------===//

  /// The token `n` ahead of the current one. Once the error limit is hit every token reads
  /// as end of file, so all loops wind down at once.
  const Token &peek(size_t n = 0) {
    if (diags_.stopped())
      return eof_;
    while (lookahead_.size() <= n) {
      if (!lookahead_.empty() && lookahead_.back().is(TokenKind::EndOfFile))
        return lookahead_.back();
      lookahead_.push_back(lexer_.next());
    }
    return lookahead_[n];
  }
  const Token &tok() { return peek(0); }
  bool at(TokenKind kind) { return tok().kind == kind; }

  /// What callers keep of a consumed token. Deliberately small: the recursive descent keeps
  /// one per frame, and frame size times nesting depth is the parser's stack use. Literal
  /// payloads are read from tok() before consuming.
  struct Lexeme {
    TokenKind kind;
    SourceRange range;
    std::string_view text;
    bool is(TokenKind k) const { return kind == k; }
  };

  Lexeme consume() {
    const Token &current = tok();
    Lexeme lexeme{current.kind, current.range, current.text};
    if (current.is(TokenKind::EndOfFile))
      return lexeme; // end of file is never consumed
    lookahead_.pop_front();
    ++consumed_;
    if (lexeme.kind != TokenKind::Newline && lexeme.kind != TokenKind::Indent && lexeme.kind != TokenKind::Dedent)
      prevEnd_ = lexeme.range.end;
    return lexeme;
  }
  bool accept(TokenKind kind) {
    if (!at(kind))
      return false;
    consume();
    return true;
  }

  //===--- Diagnostics ----------------------------------------------------===//

  DiagBuilder errorAt(SourceRange range, std::string message) {
    // One error per spot: the lexer may already have explained this position.
    if (diags_.hasErrorAt(range.begin))
      return {};
    return diags_.error(range, std::move(message));
  }

  /// "<what>, found <current token>". At the end of a line the error points just past the
  /// previous token, where the missing piece belongs. Messages are built only here, out of
  /// line, so that the recursive parse functions keep small stack frames.
  [[gnu::noinline]] DiagBuilder errorExpected(std::string_view what, const char *quotedSuffix = nullptr) {
    const Token &t = tok();
    if (t.recovered)
      return {};
    SourceRange range = t.range;
    if ((t.is(TokenKind::Newline) || t.is(TokenKind::EndOfFile) || t.is(TokenKind::Indent) ||
         t.is(TokenKind::Dedent)) &&
        prevEnd_.isValid())
      range = SourceRange(prevEnd_);
    std::string message(what);
    if (quotedSuffix)
      message += std::string(" '") + quotedSuffix + "'";
    return errorAt(range, message + ", found " + describeToken(t));
  }

  /// Checks that the current token can start an expression, else reports
  /// "<what> ['<quotedSuffix>'], found <token>".
  bool expectExpressionStart(std::string_view what, const char *quotedSuffix = nullptr) {
    if (canStartExpression(tok()))
      return true;
    errorExpected(what, quotedSuffix);
    return false;
  }

  /// Parses with `parse` after checking that an expression can start here (else the
  /// expectExpressionStart error); null on failure.
  ExprPtr requireExpr(ExprPtr (Parser::*parse)(), std::string_view what, const char *quotedSuffix = nullptr) {
    return expectExpressionStart(what, quotedSuffix) ? (this->*parse)() : nullptr;
  }

  /// `if x = 1:` is a common slip; say what was probably meant.
  void expectedColonAfterCondition(const std::string &keyword) {
    std::string what = "expected ':' after " + keyword + " condition";
    if (at(TokenKind::Equal))
      errorAt(tok().range, what + ", found '='; use '==' to compare");
    else
      errorExpected(what);
  }

  void reportTooDeep(const char *message) {
    if (!tooDeepReported_)
      errorAt(tok().range, message);
    tooDeepReported_ = true;
  }

  //===--- Statements -----------------------------------------------------===//

  void parseStatementsUntilDedent(StmtList &out, bool inBlock);
  void parseStatement(StmtList &out);
  void parseUnexpectedIndent(StmtList &out);
  void parseSuite(StmtList &body, const std::string &construct, SourceRange keyword);
  void skipBlockRest();
  void synchronize();
  void skipSimpleStatementRest();

  void parseSimpleStatements(StmtList &out);
  bool parseSmallStatement(StmtList &out);
  bool parseExpressionStatement(StmtList &out);
  bool parseImport(StmtList &out);
  bool parseFromImport(StmtList &out);
  bool parseDottedName(std::string &name, SourceRange &range, const std::string &what);
  bool parseImportAlias(std::vector<ImportAlias> &names);
  bool parseFunctionDef(StmtList &out);
  bool parseParameters(FunctionDefStmt &fn, SourceRange lparen);
  bool parseIf(StmtList &out);
  bool parseFor(StmtList &out);
  bool parseWhile(StmtList &out);
  void parseTopLevelStatement(Module &module);
  void parseTry();
  void reportAsync();

  void checkAssignTarget(const Expr &target);

  //===--- Expressions ----------------------------------------------------===//

  ExprPtr parseTestListStar();
  ExprPtr parseTestOrStar();
  ExprPtr parseTargetList();
  // The hot path of each precedence level...
  ExprPtr parseTest();
  ExprPtr parseOrTest();
  ExprPtr parseAndTest();
  ExprPtr parseNotTest();
  ExprPtr parseBinary(int minPrecedence);
  ExprPtr parseUnary();
  ExprPtr parsePower();
  ExprPtr parsePrimary();
  ExprPtr parseAtom();
  // ... and the out-of-line code for the operators and brackets (see parseTest()).
  [[gnu::noinline]] ExprPtr parseTestRest(ExprPtr e);
  [[gnu::noinline]] ExprPtr parseBoolOpRest(ExprPtr first, BoolOpKind op);
  [[gnu::noinline]] ExprPtr parseNotRest();
  [[gnu::noinline]] ExprPtr parseComparisonRest(ExprPtr left);
  [[gnu::noinline]] ExprPtr parseBinaryRest(ExprPtr lhs, int minPrecedence);
  [[gnu::noinline]] ExprPtr parseUnaryRest();
  [[gnu::noinline]] ExprPtr parsePowerRest(ExprPtr base);
  [[gnu::noinline]] ExprPtr parseAwait();
  [[gnu::noinline]] ExprPtr parseTrailers(ExprPtr e);
  [[gnu::noinline]] ExprPtr parseStrings();
  /// Splits f-string token `s` into literal text (appended to text.back()) and fields, each
  /// expression parsed where it stands in the file. False after an error.
  bool parseFString(const Lexeme &s, uint8_t prefix, std::vector<std::string> &text,
                    std::vector<FStringExpr::Field> &fields);
  [[gnu::noinline]] ExprPtr parseParenthesized();
  [[gnu::noinline]] ExprPtr parseList();
  [[gnu::noinline]] ExprPtr parseDictOrSet();
  [[gnu::noinline]] ExprPtr parseCall(ExprPtr func);
  [[gnu::noinline]] ExprPtr parseSubscript(ExprPtr value);
  [[gnu::noinline]] ExprPtr parseLambda();
  [[gnu::noinline]] ExprPtr parseYield();
  [[gnu::noinline]] ExprPtr parseStarred();
  ExprPtr parseSliceItem();
  ExprPtr skipToClosing(SourceRange open);
  std::optional<CmpOpKind> peekComparisonOp();

  const SourceFile &file_;
  Lexer lexer_;
  DiagnosticEngine &diags_;
  ParseOptions options_;

  std::deque<Token> lookahead_;
  Token eof_;
  uint64_t consumed_ = 0;
  SourceLoc prevEnd_; // end of the last consumed token other than NEWLINE/INDENT/DEDENT

  unsigned nesting_ = 0;   // recursion through nested expressions
  unsigned exprDepth_ = 0; // nesting_ plus links of operator/trailer chains
  unsigned blockDepth_ = 0;
  bool tooDeepReported_ = false; // report the depth limit once per statement
};

/// Scope of one level of expression recursion.
class NestGuard {
public:
  explicit NestGuard(Parser &p) : p_(p) {
    ++p_.nesting_;
    ++p_.exprDepth_;
    ok_ = p_.nesting_ <= p_.options_.maxNestingDepth && p_.exprDepth_ <= p_.options_.maxExpressionDepth;
    if (!ok_)
      p_.reportTooDeep("expression nested too deeply");
  }
  ~NestGuard() {
    --p_.nesting_;
    --p_.exprDepth_;
  }
  bool ok() const { return ok_; }

private:
  Parser &p_;
  bool ok_;
};

/// Counts the links of a left-associative chain (`a+b+c`, `a.b(c)[d]`), each of which makes
/// the tree one level deeper.
class ChainGuard {
public:
  explicit ChainGuard(Parser &p) : p_(p) {}
  ~ChainGuard() { p_.exprDepth_ -= links_; }
  bool step() {
    ++links_;
    ++p_.exprDepth_;
    if (p_.exprDepth_ <= p_.options_.maxExpressionDepth)
      return true;
    p_.reportTooDeep("expression nested too deeply");
    return false;
  }

private:
  Parser &p_;
  unsigned links_ = 0;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  auto module = std::make_unique<Module>(&file_);
  module->range = SourceRange(file_.startLoc(), file_.endLoc());
  for (;;) {
    if (at(TokenKind::EndOfFile))
      break;
    if (at(TokenKind::Dedent)) {
      consume(); // cannot happen at top level, but never loop on it
      continue;
    }
    uint64_t before = consumed_;
    tooDeepReported_ = false;
    if (options_.setAsideHostCode)
      parseTopLevelStatement(*module);
    else
      parseStatement(module->body);
    if (consumed_ == before && !at(TokenKind::EndOfFile) && !at(TokenKind::Dedent))
      consume(); // guarantee progress whatever went wrong
  }
  return module;
}

static bool isKernelCode(const Stmt &s) {
  if (auto *fn = s.dynCast<FunctionDefStmt>())
    for (const ExprPtr &d : fn->decorators)
      if (isTileDecorator(*d))
        return true;
  return false;
}

// The names a top-level statement defines, from its nodes or, when it did not parse, from
// its first tokens (`class Name`, `def name`, `name = ...`).
static void boundNames(const Stmt &s, std::vector<std::string> &names) {
  if (auto *fn = s.dynCast<FunctionDefStmt>()) {
    names.push_back(fn->name);
  } else if (auto *a = s.dynCast<AssignStmt>()) {
    std::function<void(const Expr &)> add = [&](const Expr &t) {
      if (auto *n = t.dynCast<NameExpr>())
        names.push_back(n->id);
      else if (auto *tup = t.dynCast<TupleExpr>())
        for (const ExprPtr &x : tup->elts)
          add(*x);
    };
    for (const ExprPtr &t : a->targets)
      add(*t);
  } else if (auto *a = s.dynCast<AnnAssignStmt>()) {
    if (auto *n = a->target->dynCast<NameExpr>())
      names.push_back(n->id);
  }
}

// Host code (the Python that launches kernels) shares the file with them. A top-level
// statement that does not parse and is not kernel code is set aside with its diagnostics;
// the front end reports them only if a kernel uses a name it defines.
void Parser::parseTopLevelStatement(Module &module) {
  std::vector<std::string> tokenNames;
  bool tokenKernel = false; // a decorator line names kernel, function or autotune
  size_t ahead = 0;
  while (peek(ahead).is(TokenKind::At) && ahead < 64) { // skip decorator lines
    while (!peek(ahead).is(TokenKind::Newline) && !peek(ahead).is(TokenKind::EndOfFile) && ahead < 64) {
      const Token &t = peek(ahead);
      if (t.is(TokenKind::Identifier) && (t.text == "kernel" || t.text == "function" || t.text == "autotune"))
        tokenKernel = true;
      ++ahead;
    }
    ++ahead;
  }
  if ((peek(ahead).is(TokenKind::kw_class) || peek(ahead).is(TokenKind::kw_def)) &&
      peek(ahead + 1).is(TokenKind::Identifier))
    tokenNames.push_back(std::string(peek(ahead + 1).text));
  else if (peek(0).is(TokenKind::Identifier) && peek(1).is(TokenKind::Equal))
    tokenNames.push_back(std::string(peek(0).text));
  SourceRange first = tok().range;

  DiagnosticEngine::Checkpoint cp = diags_.checkpoint();
  StmtList parsed;
  if (tokenKernel) {
    parseStatement(parsed);
  } else {
    // Errors in host code must not use up the error limit (and stop the parse) before the
    // kernels are reached.
    unsigned limit = diags_.errorLimit();
    diags_.setErrorLimit(0);
    parseStatement(parsed);
    diags_.setErrorLimit(limit);
  }
  if (diags_.numErrors() == cp.numErrors || tokenKernel) {
    for (StmtPtr &s : parsed)
      module.body.push_back(std::move(s));
    return;
  }
  for (const StmtPtr &s : parsed)
    if (isKernelCode(*s)) { // errors in kernels are reported as they are
      for (StmtPtr &p : parsed)
        module.body.push_back(std::move(p));
      return;
    }
  // A factory (a function whose body defines a kernel) keeps its kernels: errors inside their
  // definitions are reported, the rest of its body is host code, set aside.
  for (const StmtPtr &s : parsed) {
    const auto *factory = s->dynCast<FunctionDefStmt>();
    if (!factory)
      continue;
    std::vector<SourceRange> kernels;
    for (const StmtPtr &inner : factory->body)
      if (isKernelCode(*inner)) {
        SourceRange range = inner->range;
        for (const ExprPtr &d : inner->as<FunctionDefStmt>().decorators)
          range = SourceRange::cover(range, d->range);
        kernels.push_back(range);
      }
    if (kernels.empty())
      continue;
    for (const Diagnostic &d : diags_.takeSince(cp)) {
      bool inKernel = false;
      for (const SourceRange &k : kernels)
        inKernel |= d.range.isValid() && !(d.range.begin < k.begin) && !(k.end < d.range.begin);
      if (!inKernel)
        continue;
      DiagBuilder b = diags_.report(d.severity, d.range, d.message);
      for (const DiagnosticNote &n : d.notes)
        b.note(n.range, n.message);
    }
    for (StmtPtr &p : parsed)
      module.body.push_back(std::move(p));
    return;
  }
  HostCode host;
  host.range = first;
  for (const StmtPtr &s : parsed)
    boundNames(*s, host.names);
  if (host.names.empty())
    host.names = tokenNames;
  host.diagnostics = diags_.takeSince(cp);
  module.hostCode.push_back(std::move(host));
}

ExprPtr Parser::parseSingleExpression() {
  accept(TokenKind::Indent); // leading blanks in the buffer
  ExprPtr e = requireExpr(&Parser::parseTestListStar, "expected expression");
  if (!e)
    return nullptr;
  accept(TokenKind::Newline);
  while (accept(TokenKind::Dedent)) {
  }
  if (!at(TokenKind::EndOfFile)) {
    errorExpected("expected end of expression");
    return nullptr;
  }
  return e;
}

void Parser::parseStatementsUntilDedent(StmtList &out, bool inBlock) {
  for (;;) {
    if (at(TokenKind::EndOfFile))
      return;
    if (at(TokenKind::Dedent)) {
      if (inBlock)
        return;
      consume(); // cannot happen at top level, but never loop on it
      continue;
    }
    uint64_t before = consumed_;
    tooDeepReported_ = false;
    parseStatement(out);
    if (consumed_ == before && !at(TokenKind::EndOfFile) && !at(TokenKind::Dedent))
      consume(); // guarantee progress whatever went wrong
  }
}

void Parser::parseStatement(StmtList &out) {
  const Token &t = tok();
  bool ok = true;
  switch (t.kind) {
  case TokenKind::Newline:
    consume(); // an empty logical line (e.g. one that held only invalid characters)
    return;
  case TokenKind::Indent:
    parseUnexpectedIndent(out);
    return;
  case TokenKind::At:
  case TokenKind::kw_def:
    ok = parseFunctionDef(out);
    break;
  case TokenKind::kw_if:
    ok = parseIf(out);
    break;
  case TokenKind::kw_for:
    ok = parseFor(out);
    break;
  case TokenKind::kw_while:
    ok = parseWhile(out);
    break;
  case TokenKind::kw_try:
    parseTry();
    return;
  case TokenKind::kw_class:
    errorAt(t.range, "`class` definitions are not supported");
    ok = false;
    break;
  case TokenKind::kw_with:
    errorAt(t.range, "`with` statements are not supported");
    ok = false;
    break;
  case TokenKind::kw_async:
    reportAsync();
    ok = false;
    break;
  case TokenKind::kw_elif:
    errorAt(t.range, "'elif' without a matching 'if'");
    ok = false;
    break;
  case TokenKind::kw_else:
    errorAt(t.range, "'else' without a matching 'if' or 'for'");
    ok = false;
    break;
  case TokenKind::kw_except:
  case TokenKind::kw_finally:
    errorAt(t.range, describeToken(t) + " without a matching 'try'");
    ok = false;
    break;
  default:
    parseSimpleStatements(out);
    return;
  }
  if (!ok)
    synchronize();
}

void Parser::parseUnexpectedIndent(StmtList &out) {
  Lexeme indent = consume();
  errorAt(SourceRange(indent.range.end), "unexpected indent");
  // Parse the block anyway so errors inside it are found; its statements join the
  // enclosing block.
  if (++blockDepth_ > options_.maxBlockDepth) {
    errorAt(SourceRange(indent.range.end), "too many levels of indentation");
    skipBlockRest();
  } else {
    parseStatementsUntilDedent(out, /*inBlock=*/true);
    accept(TokenKind::Dedent);
  }
  --blockDepth_;
}

void Parser::parseSuite(StmtList &body, const std::string &construct, SourceRange keyword) {
  if (!at(TokenKind::Newline)) {
    parseSimpleStatements(body); // `if x: return y`
    return;
  }
  consume();
  if (!at(TokenKind::Indent)) {
    unsigned line = file_.lineColumn(keyword.begin).line;
    if (!tok().recovered)
      errorAt(SourceRange(tok().range.begin),
              "expected an indented block after " + construct + " on line " + std::to_string(line));
    return;
  }
  Lexeme indent = consume();
  if (++blockDepth_ > options_.maxBlockDepth) {
    errorAt(SourceRange(indent.range.end), "too many levels of indentation");
    skipBlockRest();
  } else {
    parseStatementsUntilDedent(body, /*inBlock=*/true);
    accept(TokenKind::Dedent);
  }
  --blockDepth_;
}

// After an INDENT was consumed: skip to just past its matching DEDENT.
void Parser::skipBlockRest() {
  unsigned depth = 1;
  while (depth > 0 && !at(TokenKind::EndOfFile)) {
    if (at(TokenKind::Indent))
      ++depth;
    else if (at(TokenKind::Dedent))
      --depth;
    consume();
  }
}

// Error recovery: skip the rest of the logical line, and the indented block that follows it
// (the body of a statement whose header was broken), without reporting anything.
void Parser::synchronize() {
  for (;;) {
    switch (tok().kind) {
    case TokenKind::EndOfFile:
    case TokenKind::Dedent:
      return;
    case TokenKind::Newline:
      consume();
      if (at(TokenKind::Indent)) {
        consume();
        skipBlockRest();
      }
      return;
    case TokenKind::Indent:
      consume();
      skipBlockRest();
      return;
    default:
      consume();
    }
  }
}

// Skips the rest of one simple statement (up to ';' or the end of the line).
void Parser::skipSimpleStatementRest() {
  unsigned depth = 0;
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile) && !at(TokenKind::Dedent) && !at(TokenKind::Indent)) {
    if (depth == 0 && at(TokenKind::Semicolon))
      return;
    if (isOpeningBracket(tok().kind))
      ++depth;
    else if (isClosingBracket(tok().kind) && depth > 0)
      --depth;
    consume();
  }
}

void Parser::parseSimpleStatements(StmtList &out) {
  for (;;) {
    if (!parseSmallStatement(out)) {
      synchronize();
      return;
    }
    if (!accept(TokenKind::Semicolon))
      break;
    if (at(TokenKind::Newline) || at(TokenKind::EndOfFile))
      break;
  }
  if (accept(TokenKind::Newline) || at(TokenKind::EndOfFile))
    return;
  errorExpected("expected end of line");
  synchronize();
}

bool Parser::parseSmallStatement(StmtList &out) {
  const Token &t = tok();
  const SourceRange kw = t.range;
  switch (t.kind) {
  case TokenKind::kw_pass:
    consume();
    out.push_back(std::make_unique<PassStmt>(kw));
    return true;
  case TokenKind::kw_break:
    consume();
    out.push_back(std::make_unique<BreakStmt>(kw));
    return true;
  case TokenKind::kw_continue:
    consume();
    out.push_back(std::make_unique<ContinueStmt>(kw));
    return true;
  case TokenKind::kw_return: {
    consume();
    ExprPtr value;
    if (!at(TokenKind::Newline) && !at(TokenKind::Semicolon) && !at(TokenKind::EndOfFile)) {
      value = requireExpr(&Parser::parseTestListStar, "expected expression after 'return'");
      if (!value)
        return false;
    }
    out.push_back(std::make_unique<ReturnStmt>(SourceRange(kw.begin, prevEnd_), std::move(value)));
    return true;
  }
  case TokenKind::kw_import:
    return parseImport(out);
  case TokenKind::kw_from:
    return parseFromImport(out);
  case TokenKind::kw_assert: {
    consume();
    ExprPtr test = requireExpr(&Parser::parseTest, "expected expression after 'assert'");
    if (!test)
      return false;
    ExprPtr msg;
    if (accept(TokenKind::Comma)) {
      msg = requireExpr(&Parser::parseTest, "expected message after ','");
      if (!msg)
        return false;
    }
    out.push_back(std::make_unique<AssertStmt>(SourceRange(kw.begin, prevEnd_), std::move(test), std::move(msg)));
    return true;
  }
  case TokenKind::kw_global:
  case TokenKind::kw_nonlocal:
  case TokenKind::kw_del:
  case TokenKind::kw_raise:
    errorAt(kw, "`" + std::string(t.text) + "` statements are not supported");
    consume();
    skipSimpleStatementRest();
    return true;
  default:
    return parseExpressionStatement(out);
  }
}

bool Parser::parseExpressionStatement(StmtList &out) {
  if (!expectExpressionStart("expected expression"))
    return false;
  const SourceLoc begin = tok().range.begin;
  ExprPtr first = parseTestListStar();
  if (!first)
    return false;

  if (at(TokenKind::Equal)) {
    ExprList items;
    items.push_back(std::move(first));
    while (at(TokenKind::Equal)) {
      consume();
      ExprPtr next = requireExpr(&Parser::parseTestListStar, "expected expression after '='");
      if (!next)
        return false;
      items.push_back(std::move(next));
    }
    ExprPtr value = std::move(items.back());
    items.pop_back();
    for (const ExprPtr &target : items)
      checkAssignTarget(*target);
    out.push_back(std::make_unique<AssignStmt>(SourceRange(begin, prevEnd_), std::move(items), std::move(value)));
    return true;
  }

  if (at(TokenKind::Colon)) {
    consume();
    switch (first->kind()) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript:
    case ExprKind::Error:
      break;
    case ExprKind::Tuple:
      errorAt(first->range, "only a single target (not a tuple) can be annotated");
      break;
    case ExprKind::List:
      errorAt(first->range, "only a single target (not a list) can be annotated");
      break;
    default:
      errorAt(first->range, "illegal target for annotation");
      break;
    }
    ExprPtr annotation = requireExpr(&Parser::parseTest, "expected annotation after ':'");
    if (!annotation)
      return false;
    ExprPtr value;
    if (accept(TokenKind::Equal)) {
      value = requireExpr(&Parser::parseTestListStar, "expected expression after '='");
      if (!value)
        return false;
    }
    out.push_back(std::make_unique<AnnAssignStmt>(SourceRange(begin, prevEnd_), std::move(first), std::move(annotation),
                                                  std::move(value)));
    return true;
  }

  if (std::optional<BinOpKind> op = augAssignOp(tok().kind)) {
    Lexeme opTok = consume();
    if (!first->isa<NameExpr>() && !first->isa<AttributeExpr>() && !first->isa<SubscriptExpr>() &&
        !first->isa<ErrorExpr>())
      errorAt(first->range, "'" + describeExpr(*first) + "' is an illegal expression for augmented assignment");
    ExprPtr value = requireExpr(&Parser::parseTestListStar, "expected expression after", tokenSpelling(opTok.kind));
    if (!value)
      return false;
    out.push_back(std::make_unique<AugAssignStmt>(SourceRange(begin, prevEnd_), std::move(first), *op, opTok.range,
                                                  std::move(value)));
    return true;
  }

  out.push_back(std::make_unique<ExprStmt>(SourceRange(begin, prevEnd_), std::move(first)));
  return true;
}

void Parser::checkAssignTarget(const Expr &target) {
  switch (target.kind()) {
  case ExprKind::Name:
  case ExprKind::Attribute:
  case ExprKind::Subscript:
  case ExprKind::Error:
    return;
  case ExprKind::Tuple:
    for (const ExprPtr &e : target.as<TupleExpr>().elts)
      checkAssignTarget(*e);
    return;
  case ExprKind::List:
    for (const ExprPtr &e : target.as<ListExpr>().elts)
      checkAssignTarget(*e);
    return;
  default:
    errorAt(target.range, "cannot assign to " + describeExpr(target));
    return;
  }
}

bool Parser::parseDottedName(std::string &name, SourceRange &range, const std::string &what) {
  if (!at(TokenKind::Identifier)) {
    errorExpected(what);
    return false;
  }
  Lexeme first = consume();
  name = std::string(first.text);
  range = first.range;
  while (at(TokenKind::Dot)) {
    consume();
    if (!at(TokenKind::Identifier)) {
      errorExpected("expected a name after '.'");
      return false;
    }
    Lexeme part = consume();
    name += "." + std::string(part.text);
    range.end = part.range.end;
  }
  return true;
}

bool Parser::parseImport(StmtList &out) {
  Lexeme kw = consume();
  auto stmt = std::make_unique<ImportStmt>(kw.range);
  do {
    ImportAlias alias;
    if (!parseDottedName(alias.name, alias.range, "expected module name after 'import'"))
      return false;
    if (accept(TokenKind::kw_as)) {
      if (!at(TokenKind::Identifier)) {
        errorExpected("expected a name after 'as'");
        return false;
      }
      Lexeme asName = consume();
      alias.asName = std::string(asName.text);
      alias.range.end = asName.range.end;
    }
    stmt->names.push_back(std::move(alias));
  } while (accept(TokenKind::Comma));
  stmt->range = SourceRange(kw.range.begin, prevEnd_);
  out.push_back(std::move(stmt));
  return true;
}

bool Parser::parseImportAlias(std::vector<ImportAlias> &names) {
  if (!at(TokenKind::Identifier)) {
    errorExpected("expected a name to import");
    return false;
  }
  Lexeme name = consume();
  ImportAlias alias;
  alias.name = std::string(name.text);
  alias.range = name.range;
  if (accept(TokenKind::kw_as)) {
    if (!at(TokenKind::Identifier)) {
      errorExpected("expected a name after 'as'");
      return false;
    }
    Lexeme asName = consume();
    alias.asName = std::string(asName.text);
    alias.range.end = asName.range.end;
  }
  names.push_back(std::move(alias));
  return true;
}

bool Parser::parseFromImport(StmtList &out) {
  Lexeme kw = consume();
  unsigned level = 0;
  while (at(TokenKind::Dot) || at(TokenKind::Ellipsis))
    level += consume().is(TokenKind::Dot) ? 1 : 3;
  std::string module;
  SourceRange moduleRange;
  if (level == 0 || at(TokenKind::Identifier))
    if (!parseDottedName(module, moduleRange, "expected module name after 'from'"))
      return false;
  if (!at(TokenKind::kw_import)) {
    errorExpected("expected 'import' after module name");
    return false;
  }
  consume();
  auto stmt = std::make_unique<ImportFromStmt>(kw.range, std::move(module), level);
  if (at(TokenKind::Star)) {
    errorAt(tok().range, "wildcard imports (`from ... import *`) are not supported");
    consume();
    return true;
  }
  if (at(TokenKind::LParen)) {
    Lexeme lparen = consume();
    do {
      if (at(TokenKind::RParen))
        break; // trailing comma
      if (!parseImportAlias(stmt->names))
        return false;
    } while (accept(TokenKind::Comma));
    if (!at(TokenKind::RParen)) {
      errorExpected("expected ',' or ')' after imported name").note(lparen.range, "to match this '('");
      return false;
    }
    consume();
  } else {
    do {
      if (!parseImportAlias(stmt->names))
        return false;
    } while (accept(TokenKind::Comma));
  }
  stmt->range = SourceRange(kw.range.begin, prevEnd_);
  out.push_back(std::move(stmt));
  return true;
}

void Parser::reportAsync() {
  const Token &next = peek(1);
  const char *message = "`async` is not supported";
  if (next.is(TokenKind::kw_def))
    message = "`async` functions are not supported";
  else if (next.is(TokenKind::kw_for))
    message = "`async for` loops are not supported";
  else if (next.is(TokenKind::kw_with))
    message = "`async with` statements are not supported";
  errorAt(tok().range, message);
}

bool Parser::parseFunctionDef(StmtList &out) {
  ExprList decorators;
  while (at(TokenKind::At)) {
    consume();
    ExprPtr decorator = requireExpr(&Parser::parseTest, "expected decorator expression after '@'");
    if (!decorator)
      return false;
    if (!at(TokenKind::Newline)) {
      errorExpected("expected end of line after decorator");
      return false;
    }
    consume();
    decorators.push_back(std::move(decorator));
  }
  if (at(TokenKind::kw_async)) {
    reportAsync();
    return false;
  }
  if (at(TokenKind::kw_class)) {
    errorAt(tok().range, "`class` definitions are not supported");
    return false;
  }
  if (!at(TokenKind::kw_def)) {
    errorExpected("expected 'def' after decorator");
    return false;
  }
  Lexeme def = consume();
  if (!at(TokenKind::Identifier)) {
    errorExpected("expected function name after 'def'");
    return false;
  }
  Lexeme name = consume();
  auto fn = std::make_unique<FunctionDefStmt>(def.range, std::string(name.text), name.range);
  fn->decorators = std::move(decorators);
  if (!at(TokenKind::LParen)) {
    errorExpected("expected '(' after function name");
    return false;
  }
  Lexeme lparen = consume();
  if (!parseParameters(*fn, lparen.range))
    return false;
  if (accept(TokenKind::Arrow)) {
    if (!expectExpressionStart("expected return annotation after '->'"))
      return false;
    fn->returns = parseTest();
    if (!fn->returns)
      return false;
  }
  if (!at(TokenKind::Colon)) {
    errorExpected(fn->returns ? "expected ':' after return annotation" : "expected ':' after function parameters");
    return false;
  }
  consume();
  parseSuite(fn->body, "function definition", def.range);
  fn->range = SourceRange(def.range.begin, prevEnd_);
  out.push_back(std::move(fn));
  return true;
}

bool Parser::parseParameters(FunctionDefStmt &fn, SourceRange lparen) {
  bool sawDefault = false;
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::Star) || at(TokenKind::StarStar) || at(TokenKind::Slash)) {
      Lexeme marker = consume();
      SourceRange range = marker.range;
      bool named = at(TokenKind::Identifier);
      if (named)
        range.end = consume().range.end;
      const char *message = marker.is(TokenKind::Slash)      ? "positional-only parameter marker `/` is not supported"
                            : marker.is(TokenKind::StarStar) ? "variadic keyword parameters (`**kwargs`) are not "
                                                               "supported"
                            : named                          ? "variadic parameters (`*args`) are not supported"
                                                             : "keyword-only parameter marker `*` is not supported";
      errorAt(range, message);
      if (named && accept(TokenKind::Colon)) {
        if (!expectExpressionStart("expected annotation after ':'") || !parseTest())
          return false;
      }
    } else {
      if (!at(TokenKind::Identifier)) {
        errorExpected("expected parameter name");
        return false;
      }
      Lexeme name = consume();
      Param param;
      param.name = std::string(name.text);
      param.nameRange = name.range;
      if (accept(TokenKind::Colon)) {
        if (!expectExpressionStart("expected annotation after ':'"))
          return false;
        param.annotation = parseTest();
        if (!param.annotation)
          return false;
      }
      if (accept(TokenKind::Equal)) {
        if (!expectExpressionStart("expected default value after '='"))
          return false;
        param.defaultValue = parseTest();
        if (!param.defaultValue)
          return false;
        sawDefault = true;
      } else if (sawDefault) {
        errorAt(name.range, "parameter without a default follows parameter with a default");
      }
      if (fn.findParam(param.name))
        errorAt(name.range, "duplicate parameter '" + param.name + "' in function definition");
      param.range = SourceRange(name.range.begin, prevEnd_);
      fn.params.push_back(std::move(param));
    }
    if (!accept(TokenKind::Comma))
      break;
  }
  if (!at(TokenKind::RParen)) {
    errorExpected("expected ',' or ')' after parameter").note(lparen, "to match this '('");
    return false;
  }
  consume();
  return true;
}

bool Parser::parseIf(StmtList &out) {
  auto stmt = std::make_unique<IfStmt>(tok().range);
  const SourceLoc begin = tok().range.begin;
  do {
    Lexeme kw = consume(); // `if` or `elif`
    const std::string name = quoted(kw.kind);
    IfBranch branch;
    branch.keywordRange = kw.range;
    if (!expectExpressionStart("expected condition after", tokenSpelling(kw.kind)))
      return false;
    branch.test = parseTest();
    if (!branch.test)
      return false;
    if (!at(TokenKind::Colon)) {
      expectedColonAfterCondition(name);
      return false;
    }
    consume();
    parseSuite(branch.body, name + " statement", kw.range);
    stmt->branches.push_back(std::move(branch));
  } while (at(TokenKind::kw_elif));
  if (at(TokenKind::kw_else)) {
    Lexeme kw = consume();
    stmt->elseRange = kw.range;
    if (!at(TokenKind::Colon)) {
      errorExpected("expected ':' after 'else'");
      return false;
    }
    consume();
    parseSuite(stmt->orelse, "'else' statement", kw.range);
  }
  stmt->range = SourceRange(begin, prevEnd_);
  out.push_back(std::move(stmt));
  return true;
}

bool Parser::parseFor(StmtList &out) {
  Lexeme kw = consume();
  ExprPtr target = requireExpr(&Parser::parseTargetList, "expected loop variable after 'for'");
  if (!target)
    return false;
  checkAssignTarget(*target);
  if (!at(TokenKind::kw_in)) {
    errorExpected("expected 'in' after 'for' loop variable");
    return false;
  }
  consume();
  ExprPtr iter = requireExpr(&Parser::parseTestListStar, "expected expression after 'in'");
  if (!iter)
    return false;
  if (!at(TokenKind::Colon)) {
    errorExpected("expected ':' after 'for' loop header");
    return false;
  }
  consume();
  auto stmt = std::make_unique<ForStmt>(kw.range, std::move(target), std::move(iter));
  parseSuite(stmt->body, "'for' statement", kw.range);
  stmt->range = SourceRange(kw.range.begin, prevEnd_);
  if (at(TokenKind::kw_else)) {
    Lexeme elseKw = consume();
    errorAt(elseKw.range, "`else` clauses on `for` loops are not supported");
    if (!at(TokenKind::Colon)) {
      errorExpected("expected ':' after 'else'");
      return false;
    }
    consume();
    StmtList dropped;
    parseSuite(dropped, "'else' statement", elseKw.range);
  }
  out.push_back(std::move(stmt));
  return true;
}

bool Parser::parseWhile(StmtList &out) {
  Lexeme kw = consume();
  if (!expectExpressionStart("expected condition after 'while'"))
    return false;
  ExprPtr test = parseTest();
  if (!test)
    return false;
  if (!at(TokenKind::Colon)) {
    expectedColonAfterCondition("'while'");
    return false;
  }
  consume();
  auto stmt = std::make_unique<WhileStmt>(kw.range, std::move(test));
  parseSuite(stmt->body, "'while' statement", kw.range);
  stmt->range = SourceRange(kw.range.begin, prevEnd_);
  if (at(TokenKind::kw_else)) {
    Lexeme elseKw = consume();
    errorAt(elseKw.range, "`else` clauses on `while` loops are not supported");
    if (!at(TokenKind::Colon)) {
      errorExpected("expected ':' after 'else'");
      return false;
    }
    consume();
    StmtList dropped;
    parseSuite(dropped, "'else' statement", elseKw.range);
  }
  out.push_back(std::move(stmt));
  return true;
}

void Parser::parseTry() {
  errorAt(tok().range, "`try` statements are not supported");
  consume();
  synchronize(); // the header and its block
  while (at(TokenKind::kw_except) || at(TokenKind::kw_finally) || at(TokenKind::kw_else)) {
    consume();
    synchronize();
  }
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

// test (',' test)* [','] -- a TupleExpr as soon as there is a comma.
ExprPtr Parser::parseTestListStar() {
  ExprPtr first = parseTestOrStar();
  if (!first || !at(TokenKind::Comma))
    return first;
  const SourceLoc begin = first->range.begin;
  ExprList elts;
  elts.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (!canStartExpression(tok()))
      break; // trailing comma
    ExprPtr e = parseTestOrStar();
    if (!e)
      return nullptr;
    elts.push_back(std::move(e));
  }
  return std::make_unique<TupleExpr>(SourceRange(begin, prevEnd_), std::move(elts), false);
}

ExprPtr Parser::parseStarred() {
  Lexeme star = consume();
  errorAt(star.range, "starred expressions are not supported");
  if (!expectExpressionStart("expected expression after '*'"))
    return nullptr;
  ExprPtr e = parseBinary(kLowestBinaryPrecedence);
  if (!e)
    return nullptr;
  return std::make_unique<ErrorExpr>(SourceRange(star.range.begin, e->range.end));
}

ExprPtr Parser::parseTestOrStar() {
  if (at(TokenKind::Star))
    return parseStarred();
  return parseTest();
}

// The target of a `for`: like an expression list, but stopping before comparisons so that
// `in` is left for the loop.
ExprPtr Parser::parseTargetList() {
  auto item = [&]() -> ExprPtr {
    if (at(TokenKind::Star))
      return parseStarred();
    return parseBinary(kLowestBinaryPrecedence);
  };
  ExprPtr first = item();
  if (!first || !at(TokenKind::Comma))
    return first;
  const SourceLoc begin = first->range.begin;
  ExprList elts;
  elts.push_back(std::move(first));
  while (accept(TokenKind::Comma)) {
    if (!canStartExpression(tok()))
      break;
    ExprPtr e = item();
    if (!e)
      return nullptr;
    elts.push_back(std::move(e));
  }
  return std::make_unique<TupleExpr>(SourceRange(begin, prevEnd_), std::move(elts), false);
}

// The expression grammar, one function per precedence level. Each level's common path
// (no operator of that level follows) stays in a small function; the code that handles the
// operator lives in a *Rest function that is never inlined. So the frames that stay on the
// stack for every level of nesting are small, which keeps deep but legal nesting cheap.

// test: or_test ['if' or_test 'else' test] | lambda; also catches `:=`.
ExprPtr Parser::parseTest() {
  NestGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  if (at(TokenKind::kw_lambda))
    return parseLambda();
  ExprPtr e = parseOrTest();
  if (e && (at(TokenKind::kw_if) || at(TokenKind::ColonEqual)))
    return parseTestRest(std::move(e));
  return e;
}

ExprPtr Parser::parseTestRest(ExprPtr e) {
  if (at(TokenKind::kw_if)) {
    consume();
    ExprPtr test = requireExpr(&Parser::parseOrTest, "expected condition after 'if'");
    if (!test)
      return nullptr;
    if (!at(TokenKind::kw_else)) {
      errorExpected("expected 'else' after condition in conditional expression");
      return nullptr;
    }
    consume();
    ExprPtr orelse = requireExpr(&Parser::parseTest, "expected expression after 'else'");
    if (!orelse)
      return nullptr;
    SourceRange range(e->range.begin, orelse->range.end);
    e = std::make_unique<IfExpExpr>(range, std::move(test), std::move(e), std::move(orelse));
  }
  if (at(TokenKind::ColonEqual)) {
    Lexeme op = consume();
    errorAt(op.range, "walrus operator `:=` is not supported");
    ExprPtr value = requireExpr(&Parser::parseTest, "expected expression after ':='");
    if (!value)
      return nullptr;
    return std::make_unique<ErrorExpr>(SourceRange(e->range.begin, value->range.end));
  }
  return e;
}

ExprPtr Parser::parseOrTest() {
  ExprPtr first = parseAndTest();
  if (first && at(TokenKind::kw_or))
    return parseBoolOpRest(std::move(first), BoolOpKind::Or);
  return first;
}

ExprPtr Parser::parseAndTest() {
  ExprPtr first = parseNotTest();
  if (first && at(TokenKind::kw_and))
    return parseBoolOpRest(std::move(first), BoolOpKind::And);
  return first;
}

// A run of the same boolean operator becomes one node: `a or b or c`.
ExprPtr Parser::parseBoolOpRest(ExprPtr first, BoolOpKind op) {
  const TokenKind keyword = op == BoolOpKind::Or ? TokenKind::kw_or : TokenKind::kw_and;
  ExprList values;
  values.push_back(std::move(first));
  while (accept(keyword)) {
    if (!expectExpressionStart("expected expression after", tokenSpelling(keyword)))
      return nullptr;
    ExprPtr e = op == BoolOpKind::Or ? parseAndTest() : parseNotTest();
    if (!e)
      return nullptr;
    values.push_back(std::move(e));
  }
  SourceRange range(values.front()->range.begin, values.back()->range.end);
  return std::make_unique<BoolOpExpr>(range, op, std::move(values));
}

// not_test: 'not' not_test | comparison
ExprPtr Parser::parseNotTest() {
  if (at(TokenKind::kw_not))
    return parseNotRest();
  ExprPtr left = parseBinary(kLowestBinaryPrecedence);
  if (left && peekComparisonOp())
    return parseComparisonRest(std::move(left));
  return left;
}

ExprPtr Parser::parseNotRest() {
  NestGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  Lexeme op = consume();
  ExprPtr operand = requireExpr(&Parser::parseNotTest, "expected expression after 'not'");
  if (!operand)
    return nullptr;
  SourceRange range(op.range.begin, operand->range.end);
  return std::make_unique<UnaryOpExpr>(range, UnaryOpKind::Not, op.range, std::move(operand));
}

std::optional<CmpOpKind> Parser::peekComparisonOp() {
  switch (tok().kind) {
  case TokenKind::EqualEqual:
    return CmpOpKind::Eq;
  case TokenKind::NotEqual:
    return CmpOpKind::NotEq;
  case TokenKind::Less:
    return CmpOpKind::Lt;
  case TokenKind::LessEqual:
    return CmpOpKind::LtE;
  case TokenKind::Greater:
    return CmpOpKind::Gt;
  case TokenKind::GreaterEqual:
    return CmpOpKind::GtE;
  case TokenKind::kw_in:
    return CmpOpKind::In;
  case TokenKind::kw_is:
    return peek(1).is(TokenKind::kw_not) ? CmpOpKind::IsNot : CmpOpKind::Is;
  case TokenKind::kw_not:
    if (peek(1).is(TokenKind::kw_in))
      return CmpOpKind::NotIn;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

// A chain `a < b <= c` stays one node.
ExprPtr Parser::parseComparisonRest(ExprPtr left) {
  auto cmp = std::make_unique<CompareExpr>(left->range, std::move(left));
  for (std::optional<CmpOpKind> op = peekComparisonOp(); op; op = peekComparisonOp()) {
    SourceRange opRange = consume().range;
    if (*op == CmpOpKind::IsNot || *op == CmpOpKind::NotIn)
      opRange.end = consume().range.end;
    if (!expectExpressionStart("expected expression after", spelling(*op)))
      return nullptr;
    ExprPtr rhs = parseBinary(kLowestBinaryPrecedence);
    if (!rhs)
      return nullptr;
    cmp->ops.push_back(*op);
    cmp->opRanges.push_back(opRange);
    cmp->comparators.push_back(std::move(rhs));
  }
  cmp->range.end = cmp->comparators.back()->range.end;
  return cmp;
}

// Precedence climbing over | ^ & << >> + - * / // % @ (all left-associative).
ExprPtr Parser::parseBinary(int minPrecedence) {
  ExprPtr lhs = parseUnary();
  if (!lhs)
    return nullptr;
  int precedence = binaryOpInfo(tok().kind).precedence;
  if (precedence != 0 && precedence >= minPrecedence)
    return parseBinaryRest(std::move(lhs), minPrecedence);
  return lhs;
}

ExprPtr Parser::parseBinaryRest(ExprPtr lhs, int minPrecedence) {
  ChainGuard chain(*this);
  for (;;) {
    BinaryOpInfo info = binaryOpInfo(tok().kind);
    if (info.precedence == 0 || info.precedence < minPrecedence)
      return lhs;
    Lexeme op = consume();
    if (!chain.step())
      return nullptr;
    if (!expectExpressionStart("expected expression after", tokenSpelling(op.kind)))
      return nullptr;
    ExprPtr rhs = parseBinary(info.precedence + 1);
    if (!rhs)
      return nullptr;
    SourceRange range(lhs->range.begin, rhs->range.end);
    lhs = std::make_unique<BinOpExpr>(range, info.op, op.range, std::move(lhs), std::move(rhs));
  }
}

// factor: ('-' | '+' | '~') factor | power
ExprPtr Parser::parseUnary() {
  switch (tok().kind) {
  case TokenKind::Minus:
  case TokenKind::Plus:
  case TokenKind::Tilde:
    return parseUnaryRest();
  default:
    return parsePower();
  }
}

ExprPtr Parser::parseUnaryRest() {
  NestGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  Lexeme opTok = consume();
  const UnaryOpKind op = opTok.is(TokenKind::Minus)  ? UnaryOpKind::Neg
                         : opTok.is(TokenKind::Plus) ? UnaryOpKind::Pos
                                                     : UnaryOpKind::Invert;
  ExprPtr operand = requireExpr(&Parser::parseUnary, "expected expression after", tokenSpelling(opTok.kind));
  if (!operand)
    return nullptr;
  SourceRange range(opTok.range.begin, operand->range.end);
  return std::make_unique<UnaryOpExpr>(range, op, opTok.range, std::move(operand));
}

// power: ['await'] primary ['**' factor]. The right operand is a unary expression, so `**`
// is right-associative and `-2**2` is `-(2**2)` while `2**-1` is `2**(-1)`.
ExprPtr Parser::parsePower() {
  if (at(TokenKind::kw_await))
    return parseAwait();
  ExprPtr base = parsePrimary();
  if (base && at(TokenKind::StarStar))
    return parsePowerRest(std::move(base));
  return base;
}

ExprPtr Parser::parsePowerRest(ExprPtr base) {
  NestGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  Lexeme op = consume();
  ExprPtr exponent = requireExpr(&Parser::parseUnary, "expected expression after '**'");
  if (!exponent)
    return nullptr;
  SourceRange range(base->range.begin, exponent->range.end);
  return std::make_unique<BinOpExpr>(range, BinOpKind::Pow, op.range, std::move(base), std::move(exponent));
}

ExprPtr Parser::parseAwait() {
  NestGuard guard(*this);
  if (!guard.ok())
    return nullptr;
  Lexeme kw = consume();
  errorAt(kw.range, "`await` expressions are not supported");
  ExprPtr operand = requireExpr(&Parser::parsePower, "expected expression after 'await'");
  if (!operand)
    return nullptr;
  return std::make_unique<ErrorExpr>(SourceRange(kw.range.begin, operand->range.end));
}

// primary: atom ('.' NAME | '(' args ')' | '[' subscript ']')*
ExprPtr Parser::parsePrimary() {
  ExprPtr e = parseAtom();
  if (e && (at(TokenKind::Dot) || at(TokenKind::LParen) || at(TokenKind::LSquare)))
    return parseTrailers(std::move(e));
  return e;
}

ExprPtr Parser::parseTrailers(ExprPtr e) {
  ChainGuard chain(*this);
  for (;;) {
    if (at(TokenKind::Dot)) {
      if (!chain.step())
        return nullptr;
      consume();
      if (!at(TokenKind::Identifier)) {
        errorExpected("expected attribute name after '.'");
        return nullptr;
      }
      Lexeme name = consume();
      SourceRange range(e->range.begin, name.range.end);
      e = std::make_unique<AttributeExpr>(range, std::move(e), std::string(name.text), name.range);
    } else if (at(TokenKind::LParen)) {
      if (!chain.step())
        return nullptr;
      e = parseCall(std::move(e));
      if (!e)
        return nullptr;
    } else if (at(TokenKind::LSquare)) {
      if (!chain.step())
        return nullptr;
      e = parseSubscript(std::move(e));
      if (!e)
        return nullptr;
    } else {
      return e;
    }
  }
}

ExprPtr Parser::parseAtom() {
  const Token &t = tok();
  switch (t.kind) {
  case TokenKind::Identifier: {
    Lexeme name = consume();
    return std::make_unique<NameExpr>(name.range, std::string(name.text));
  }
  case TokenKind::Integer: {
    const bool tooLarge = t.intOverflow || t.intValue > static_cast<uint64_t>(INT64_MAX);
    const auto value = static_cast<int64_t>(t.intValue);
    Lexeme lit = consume();
    if (tooLarge) {
      errorAt(lit.range, "integer literal is too large for a 64-bit signed integer");
      return std::make_unique<ErrorExpr>(lit.range);
    }
    return std::make_unique<IntLitExpr>(lit.range, value);
  }
  case TokenKind::Float: {
    const double value = t.floatValue;
    return std::make_unique<FloatLitExpr>(consume().range, value);
  }
  case TokenKind::String:
    return parseStrings();
  case TokenKind::kw_True:
  case TokenKind::kw_False: {
    Lexeme lit = consume();
    return std::make_unique<BoolLitExpr>(lit.range, lit.is(TokenKind::kw_True));
  }
  case TokenKind::kw_None:
    return std::make_unique<NoneLitExpr>(consume().range);
  case TokenKind::Ellipsis:
    return std::make_unique<EllipsisExpr>(consume().range);
  case TokenKind::LParen:
    return parseParenthesized();
  case TokenKind::LSquare:
    return parseList();
  case TokenKind::LBrace:
    return parseDictOrSet();
  case TokenKind::kw_lambda:
    return parseLambda();
  case TokenKind::kw_yield:
    return parseYield();
  default:
    errorExpected("expected expression");
    return nullptr;
  }
}

// Adjacent string literals concatenate ("a" "b" == "ab"); with an f-string among them, into
// one FStringExpr.
ExprPtr Parser::parseStrings() {
  SourceRange range = tok().range;
  std::vector<std::string> text{""};
  std::vector<FStringExpr::Field> fields;
  bool bad = false, format = false;
  while (at(TokenKind::String)) {
    const uint8_t prefix = tok().strPrefix;
    std::string value = tok().strValue;
    Lexeme s = consume();
    if (prefix & StrPrefixFormat) {
      format = true;
      bad |= !parseFString(s, prefix, text, fields);
    } else if (prefix & StrPrefixBytes) {
      errorAt(s.range, "bytes literals are not supported");
      bad = true;
    } else {
      text.back() += value;
    }
    range.end = s.range.end;
  }
  if (bad)
    return std::make_unique<ErrorExpr>(range);
  if (format)
    return std::make_unique<FStringExpr>(range, std::move(text), std::move(fields));
  return std::make_unique<StrLitExpr>(range, std::move(text.back()));
}

bool Parser::parseFString(const Lexeme &s, uint8_t prefix, std::vector<std::string> &text,
                          std::vector<FStringExpr::Field> &fields) {
  std::string_view raw = s.text;
  const uint32_t base = file_.offsetOf(s.range.begin);
  size_t i = 0;
  while (i < raw.size() && std::isalpha(static_cast<unsigned char>(raw[i])))
    ++i;
  const bool isRaw = prefix & StrPrefixRaw;
  const size_t quote = i + 2 < raw.size() && raw[i + 1] == raw[i] && raw[i + 2] == raw[i] ? 3 : 1;
  const size_t end = raw.size() >= i + 2 * quote ? raw.size() - quote : i + quote;
  auto at = [&](size_t from, size_t to) {
    return SourceRange(file_.locForOffset(base + uint32_t(from)), file_.locForOffset(base + uint32_t(to)));
  };
  for (size_t p = i + quote; p < end;) {
    char c = raw[p];
    if ((c == '{' || c == '}') && p + 1 < end && raw[p + 1] == c) {
      text.back() += c; // {{ and }}
      p += 2;
      continue;
    }
    if (c == '}') {
      errorAt(at(p, p + 1), "f-string: single '}' is not allowed");
      return false;
    }
    if (c == '\\' && !isRaw) {
      static const std::string_view kFrom = "ntr0\\'\"", kTo = std::string_view("\n\t\r\0\\'\"", 7);
      size_t k = p + 1 < end ? kFrom.find(raw[p + 1]) : std::string_view::npos;
      if (k == std::string_view::npos) {
        errorAt(at(p, std::min(p + 2, end)), "f-string: this escape is not supported (use \\n, \\t, \\r, \\0, \\\\ "
                                             "or a quote)");
        return false;
      }
      text.back() += kTo[k];
      p += 2;
      continue;
    }
    if (c != '{') {
      text.back() += c;
      ++p;
      continue;
    }
    // A field: the expression up to a top-level '!', ':' or '}'.
    const size_t open = p++;
    const size_t exprBegin = p;
    int depth = 0;
    char inQuote = 0;
    for (; p < end; ++p) {
      char d = raw[p];
      if (inQuote) {
        inQuote = d == inQuote ? 0 : inQuote;
        continue;
      }
      if (d == '\'' || d == '"')
        inQuote = d;
      else if (d == '(' || d == '[' || d == '{')
        ++depth;
      else if ((d == ')' || d == ']' || d == '}') && depth > 0)
        --depth;
      else if (depth == 0 && (d == '}' || d == ':' || (d == '!' && p + 1 < end && raw[p + 1] != '=')))
        break;
    }
    const size_t exprEnd = p;
    FStringExpr::Field field;
    if (p < end && raw[p] == '!') {
      if (p + 1 >= end || std::string_view("rsa").find(raw[p + 1]) == std::string_view::npos) {
        errorAt(at(p, std::min(p + 2, end)), "f-string: expected 'r', 's' or 'a' after '!'");
        return false;
      }
      field.conversion = raw[p + 1];
      p += 2;
    }
    if (p < end && raw[p] == ':') {
      for (++p; p < end && raw[p] != '}'; ++p) {
        if (raw[p] == '{') {
          errorAt(at(p, p + 1), "f-string: fields inside a format spec are not supported");
          return false;
        }
        field.spec += raw[p];
      }
    }
    if (p >= end || raw[p] != '}') {
      errorAt(at(open, std::min(p, end)), "f-string: expecting '}'");
      return false;
    }
    ++p;
    std::string_view expr = raw.substr(exprBegin, exprEnd - exprBegin);
    if (expr.find_first_not_of(" \t") == std::string_view::npos) {
      errorAt(at(open, p), "f-string: empty expression not allowed");
      return false;
    }
    if (expr.find_last_not_of(" \t") != std::string_view::npos && expr[expr.find_last_not_of(" \t")] == '=') {
      errorAt(at(open, p), "f-string: '=' (self-documenting fields) is not supported");
      return false;
    }
    field.value =
        Parser(file_, diags_, options_, base + uint32_t(exprBegin), base + uint32_t(exprEnd)).parseSingleExpression();
    if (!field.value)
      return false;
    fields.push_back(std::move(field));
    text.emplace_back();
  }
  return true;
}

// After an unsupported construct inside brackets: skip to the matching closing bracket.
ExprPtr Parser::skipToClosing(SourceRange open) {
  unsigned depth = 1;
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile)) {
    TokenKind k = tok().kind;
    consume();
    if (isOpeningBracket(k))
      ++depth;
    else if (isClosingBracket(k) && --depth == 0)
      break;
  }
  return std::make_unique<ErrorExpr>(SourceRange(open.begin, prevEnd_));
}

ExprPtr Parser::parseParenthesized() {
  Lexeme lparen = consume();
  if (at(TokenKind::RParen)) {
    Lexeme rparen = consume();
    return std::make_unique<TupleExpr>(SourceRange(lparen.range.begin, rparen.range.end), ExprList(), true);
  }
  ExprPtr first = requireExpr(&Parser::parseTestOrStar, "expected expression after '('");
  if (!first)
    return nullptr;
  if (at(TokenKind::kw_for) || at(TokenKind::kw_async)) {
    errorAt(tok().range, "generator expressions are not supported");
    return skipToClosing(lparen.range);
  }
  bool isTuple = false;
  ExprList elts;
  if (at(TokenKind::Comma)) {
    isTuple = true;
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
      if (!canStartExpression(tok()))
        break;
      ExprPtr e = parseTestOrStar();
      if (!e)
        return nullptr;
      elts.push_back(std::move(e));
    }
  }
  if (!at(TokenKind::RParen)) {
    errorExpected("expected ',' or ')'").note(lparen.range, "to match this '('");
    return nullptr;
  }
  Lexeme rparen = consume();
  SourceRange range(lparen.range.begin, rparen.range.end);
  if (isTuple)
    return std::make_unique<TupleExpr>(range, std::move(elts), true);
  first->range = range; // parenthesized expressions cover their parentheses
  return first;
}

ExprPtr Parser::parseList() {
  Lexeme lsquare = consume();
  ExprList elts;
  if (!at(TokenKind::RSquare)) {
    ExprPtr first = requireExpr(&Parser::parseTestOrStar, "expected expression or ']'");
    if (!first)
      return nullptr;
    if (at(TokenKind::kw_for) || at(TokenKind::kw_async)) {
      errorAt(tok().range, "list comprehensions are not supported");
      return skipToClosing(lsquare.range);
    }
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
      if (!canStartExpression(tok()))
        break;
      ExprPtr e = parseTestOrStar();
      if (!e)
        return nullptr;
      elts.push_back(std::move(e));
    }
  }
  if (!at(TokenKind::RSquare)) {
    errorExpected("expected ',' or ']' in list").note(lsquare.range, "to match this '['");
    return nullptr;
  }
  Lexeme rsquare = consume();
  return std::make_unique<ListExpr>(SourceRange(lsquare.range.begin, rsquare.range.end), std::move(elts));
}

ExprPtr Parser::parseDictOrSet() {
  Lexeme lbrace = consume();
  if (at(TokenKind::RBrace)) {
    Lexeme rbrace = consume();
    return std::make_unique<DictExpr>(SourceRange(lbrace.range.begin, rbrace.range.end), ExprList(), ExprList());
  }
  auto unpacking = [&] {
    errorAt(tok().range, "dictionary unpacking (`**`) is not supported");
    return skipToClosing(lbrace.range);
  };
  if (at(TokenKind::StarStar))
    return unpacking();
  ExprPtr first = requireExpr(&Parser::parseTestOrStar, "expected expression or '}'");
  if (!first)
    return nullptr;

  if (!at(TokenKind::Colon)) { // a set, or a dict missing its ':'
    if (at(TokenKind::kw_for) || at(TokenKind::kw_async)) {
      errorAt(tok().range, "set comprehensions are not supported");
    } else if (at(TokenKind::Comma) || at(TokenKind::RBrace)) {
      errorAt(lbrace.range, "set literals are not supported");
    } else {
      errorExpected("expected ':' after dict key");
      return nullptr;
    }
    return skipToClosing(lbrace.range);
  }

  ExprList keys, values;
  consume(); // ':'
  ExprPtr value = requireExpr(&Parser::parseTest, "expected value after ':' in dict literal");
  if (!value)
    return nullptr;
  if (at(TokenKind::kw_for) || at(TokenKind::kw_async)) {
    errorAt(tok().range, "dict comprehensions are not supported");
    return skipToClosing(lbrace.range);
  }
  keys.push_back(std::move(first));
  values.push_back(std::move(value));
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RBrace))
      break;
    if (at(TokenKind::StarStar))
      return unpacking();
    ExprPtr key = requireExpr(&Parser::parseTest, "expected key or '}' in dict literal");
    if (!key)
      return nullptr;
    if (!at(TokenKind::Colon)) {
      errorExpected("expected ':' after dict key");
      return nullptr;
    }
    consume();
    ExprPtr v = requireExpr(&Parser::parseTest, "expected value after ':' in dict literal");
    if (!v)
      return nullptr;
    keys.push_back(std::move(key));
    values.push_back(std::move(v));
  }
  if (!at(TokenKind::RBrace)) {
    errorExpected("expected ',' or '}' in dict literal").note(lbrace.range, "to match this '{'");
    return nullptr;
  }
  Lexeme rbrace = consume();
  return std::make_unique<DictExpr>(SourceRange(lbrace.range.begin, rbrace.range.end), std::move(keys),
                                    std::move(values));
}

ExprPtr Parser::parseCall(ExprPtr func) {
  Lexeme lparen = consume();
  const SourceLoc begin = func->range.begin;
  auto call = std::make_unique<CallExpr>(SourceRange(begin, lparen.range.end), std::move(func));
  bool sawKeyword = false;
  bool bad = false;
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::Star) || at(TokenKind::StarStar)) {
      Lexeme star = consume();
      errorAt(star.range, star.is(TokenKind::Star) ? "starred arguments are not supported"
                                                   : "keyword argument unpacking (`**`) is not supported");
      bad = true;
      if (!expectExpressionStart("expected expression after", tokenSpelling(star.kind)) || !parseTest())
        return nullptr;
    } else if (at(TokenKind::Identifier) && peek(1).is(TokenKind::Equal)) {
      Lexeme name = consume();
      consume(); // '='
      ExprPtr value = requireExpr(&Parser::parseTest, "expected expression after '='");
      if (!value)
        return nullptr;
      std::string keyword(name.text);
      if (call->findKeyword(keyword))
        errorAt(name.range, "keyword argument repeated: '" + keyword + "'");
      Keyword kw;
      kw.name = std::move(keyword);
      kw.nameRange = name.range;
      kw.range = SourceRange(name.range.begin, value->range.end);
      kw.value = std::move(value);
      call->keywords.push_back(std::move(kw));
      sawKeyword = true;
    } else {
      ExprPtr arg = requireExpr(&Parser::parseTest, "expected an argument or ')'");
      if (!arg)
        return nullptr;
      if (at(TokenKind::kw_for) || at(TokenKind::kw_async)) {
        errorAt(tok().range, "generator expressions are not supported");
        skipToClosing(lparen.range);
        return std::make_unique<ErrorExpr>(SourceRange(begin, prevEnd_));
      }
      if (at(TokenKind::Equal)) {
        errorAt(tok().range, "invalid keyword argument: expected a name before '='");
        return nullptr;
      }
      if (sawKeyword)
        errorAt(arg->range, "positional argument follows keyword argument");
      call->args.push_back(std::move(arg));
    }
    if (!accept(TokenKind::Comma))
      break;
  }
  if (!at(TokenKind::RParen)) {
    errorExpected("expected ',' or ')' after argument").note(lparen.range, "to match this '('");
    return nullptr;
  }
  Lexeme rparen = consume();
  call->range = SourceRange(begin, rparen.range.end);
  if (bad)
    return std::make_unique<ErrorExpr>(call->range);
  return call;
}

ExprPtr Parser::parseSliceItem() {
  if (at(TokenKind::Star))
    return parseStarred();
  const SourceLoc begin = tok().range.begin;
  ExprPtr lower;
  if (!at(TokenKind::Colon)) {
    if (!expectExpressionStart("expected index expression"))
      return nullptr;
    lower = parseTest();
    if (!lower || !at(TokenKind::Colon))
      return lower;
  }
  consume(); // ':'
  ExprPtr upper, step;
  if (canStartExpression(tok())) {
    upper = parseTest();
    if (!upper)
      return nullptr;
  }
  if (accept(TokenKind::Colon) && canStartExpression(tok())) {
    step = parseTest();
    if (!step)
      return nullptr;
  }
  return std::make_unique<SliceExpr>(SourceRange(begin, prevEnd_), std::move(lower), std::move(upper), std::move(step));
}

ExprPtr Parser::parseSubscript(ExprPtr value) {
  Lexeme lsquare = consume();
  const SourceLoc indexBegin = tok().range.begin;
  ExprList items;
  bool trailingComma = false;
  for (;;) {
    ExprPtr item = parseSliceItem();
    if (!item)
      return nullptr;
    items.push_back(std::move(item));
    if (!accept(TokenKind::Comma))
      break;
    if (at(TokenKind::RSquare)) {
      trailingComma = true;
      break;
    }
  }
  if (!at(TokenKind::RSquare)) {
    errorExpected("expected ',' or ']' in subscript").note(lsquare.range, "to match this '['");
    return nullptr;
  }
  SourceRange indexRange(indexBegin, prevEnd_);
  Lexeme rsquare = consume();
  ExprPtr index;
  if (items.size() == 1 && !trailingComma)
    index = std::move(items.front());
  else
    index = std::make_unique<TupleExpr>(indexRange, std::move(items), false);
  SourceRange range(value->range.begin, rsquare.range.end);
  return std::make_unique<SubscriptExpr>(range, std::move(value), std::move(index));
}

ExprPtr Parser::parseLambda() {
  Lexeme kw = consume();
  errorAt(kw.range, "`lambda` expressions are not supported");
  // Skip the parameters up to the ':' that starts the body, then parse the body so that
  // parsing resumes after it.
  unsigned depth = 0;
  while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile)) {
    if (depth == 0 && (at(TokenKind::Colon) || isClosingBracket(tok().kind)))
      break;
    if (isOpeningBracket(tok().kind))
      ++depth;
    else if (isClosingBracket(tok().kind))
      --depth;
    consume();
  }
  if (!accept(TokenKind::Colon) || !canStartExpression(tok()))
    return std::make_unique<ErrorExpr>(SourceRange(kw.range.begin, prevEnd_));
  ExprPtr body = parseTest();
  if (!body)
    return nullptr;
  return std::make_unique<ErrorExpr>(SourceRange(kw.range.begin, body->range.end));
}

ExprPtr Parser::parseYield() {
  Lexeme kw = consume();
  errorAt(kw.range, "`yield` expressions are not supported");
  accept(TokenKind::kw_from);
  if (!canStartExpression(tok()))
    return std::make_unique<ErrorExpr>(SourceRange(kw.range.begin, prevEnd_));
  ExprPtr value = parseTestListStar();
  if (!value)
    return nullptr;
  return std::make_unique<ErrorExpr>(SourceRange(kw.range.begin, value->range.end));
}

} // namespace

std::unique_ptr<Module> parseModule(const SourceFile &file, DiagnosticEngine &diags, const ParseOptions &options) {
  return Parser(file, diags, options).parseModule();
}

ExprPtr parseExpression(const SourceFile &file, DiagnosticEngine &diags, const ParseOptions &options) {
  return Parser(file, diags, options).parseSingleExpression();
}

} // namespace tile::frontend
