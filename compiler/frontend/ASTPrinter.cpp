#include "compiler/frontend/ASTPrinter.h"

#include <charconv>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace tile::frontend {

std::string quoteString(const std::string &value) {
  std::string out = "\"";
  for (char ch : value) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '"':
      out += "\\\"";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20 || c == 0x7F) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += ch; // printable ASCII and UTF-8 bytes as they are
      }
    }
  }
  return out + "\"";
}

std::string formatFloat(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  if (ec != std::errc())
    return "?";
  std::string text(buf, end);
  if (text.find_first_of(".eEn") == std::string::npos) // "n": inf, nan
    text += ".0";
  return text;
}

namespace {

class TreePrinter {
public:
  TreePrinter(std::ostream &os, const SourceManager *sources, const SourceFile *file, ASTPrintOptions options)
      : os_(os), sources_(sources), file_(file), options_(options) {}

  void printModule(const Module &m) {
    os_ << "Module";
    if (m.file)
      os_ << " '" << m.file->name() << "'";
    os_ << '\n';
    for (const StmtPtr &s : m.body)
      printStmt(*s, 1, "");
  }

  void printStmt(const Stmt &s, int depth, const std::string &label) {
    header(depth, label, s.kind() == StmtKind::Expr ? std::string("ExprStmt") : stmtKindName(s.kind()), stmtDetail(s),
           s.range);
    switch (s.kind()) {
    case StmtKind::FunctionDef: {
      const auto &fn = s.as<FunctionDefStmt>();
      for (const ExprPtr &d : fn.decorators)
        printExpr(*d, depth + 1, "decorator: ");
      for (const Param &p : fn.params) {
        header(depth + 1, "", "param", "'" + p.name + "'", p.range);
        child(p.annotation, depth + 2, "annotation: ");
        child(p.defaultValue, depth + 2, "default: ");
      }
      child(fn.returns, depth + 1, "returns: ");
      body(fn.body, depth + 1, "body:");
      return;
    }
    case StmtKind::Import:
      aliases(s.as<ImportStmt>().names, depth + 1);
      return;
    case StmtKind::ImportFrom:
      aliases(s.as<ImportFromStmt>().names, depth + 1);
      return;
    case StmtKind::Assign:
      for (const ExprPtr &t : s.as<AssignStmt>().targets)
        child(t, depth + 1, "target: ");
      child(s.as<AssignStmt>().value, depth + 1, "value: ");
      return;
    case StmtKind::AugAssign:
      child(s.as<AugAssignStmt>().target, depth + 1, "target: ");
      child(s.as<AugAssignStmt>().value, depth + 1, "value: ");
      return;
    case StmtKind::AnnAssign:
      child(s.as<AnnAssignStmt>().target, depth + 1, "target: ");
      child(s.as<AnnAssignStmt>().annotation, depth + 1, "annotation: ");
      child(s.as<AnnAssignStmt>().value, depth + 1, "value: ");
      return;
    case StmtKind::Expr:
      child(s.as<ExprStmt>().value, depth + 1, "");
      return;
    case StmtKind::For:
      child(s.as<ForStmt>().target, depth + 1, "target: ");
      child(s.as<ForStmt>().iter, depth + 1, "iter: ");
      body(s.as<ForStmt>().body, depth + 1, "body:");
      return;
    case StmtKind::If: {
      const auto &ifs = s.as<IfStmt>();
      for (size_t i = 0; i < ifs.branches.size(); ++i) {
        const IfBranch &b = ifs.branches[i];
        header(depth + 1, "", i == 0 ? "if" : "elif", "", b.keywordRange);
        child(b.test, depth + 2, "test: ");
        body(b.body, depth + 2, "body:");
      }
      if (ifs.elseRange.isValid() || !ifs.orelse.empty()) {
        header(depth + 1, "", "else", "", ifs.elseRange);
        for (const StmtPtr &st : ifs.orelse)
          printStmt(*st, depth + 2, "");
      }
      return;
    }
    case StmtKind::While:
      child(s.as<WhileStmt>().test, depth + 1, "test: ");
      body(s.as<WhileStmt>().body, depth + 1, "body:");
      return;
    case StmtKind::Return:
      child(s.as<ReturnStmt>().value, depth + 1, "");
      return;
    case StmtKind::Assert:
      child(s.as<AssertStmt>().test, depth + 1, "test: ");
      child(s.as<AssertStmt>().msg, depth + 1, "msg: ");
      return;
    case StmtKind::Pass:
    case StmtKind::Break:
    case StmtKind::Continue:
      return;
    }
  }

  void printExpr(const Expr &e, int depth, const std::string &label) {
    header(depth, label, exprKindName(e.kind()), exprDetail(e), e.range);
    switch (e.kind()) {
    case ExprKind::Dict: {
      const auto &d = e.as<DictExpr>();
      for (size_t i = 0; i < d.keys.size(); ++i) {
        child(d.keys[i], depth + 1, "key: ");
        if (i < d.values.size())
          child(d.values[i], depth + 1, "value: ");
      }
      return;
    }
    case ExprKind::IfExp:
      child(e.as<IfExpExpr>().test, depth + 1, "test: ");
      child(e.as<IfExpExpr>().body, depth + 1, "body: ");
      child(e.as<IfExpExpr>().orelse, depth + 1, "orelse: ");
      return;
    case ExprKind::Call: {
      const auto &call = e.as<CallExpr>();
      child(call.func, depth + 1, "func: ");
      for (const ExprPtr &a : call.args)
        child(a, depth + 1, "");
      for (const Keyword &kw : call.keywords) {
        header(depth + 1, "", "keyword", "'" + kw.name + "'", kw.range);
        child(kw.value, depth + 2, "");
      }
      return;
    }
    case ExprKind::Subscript:
      child(e.as<SubscriptExpr>().value, depth + 1, "");
      child(e.as<SubscriptExpr>().index, depth + 1, "index: ");
      return;
    case ExprKind::Slice:
      child(e.as<SliceExpr>().lower, depth + 1, "lower: ");
      child(e.as<SliceExpr>().upper, depth + 1, "upper: ");
      child(e.as<SliceExpr>().step, depth + 1, "step: ");
      return;
    default:
      forEachChild(e, [&](const Expr &c) { printExpr(c, depth + 1, ""); });
      return;
    }
  }

private:
  void child(const ExprPtr &e, int depth, const std::string &label) {
    if (e)
      printExpr(*e, depth, label);
  }

  void body(const StmtList &list, int depth, const char *label) {
    os_ << std::string(2 * depth, ' ') << label << '\n';
    for (const StmtPtr &s : list)
      printStmt(*s, depth + 1, "");
  }

  void aliases(const std::vector<ImportAlias> &names, int depth) {
    for (const ImportAlias &a : names)
      header(depth, "", "alias", "'" + a.name + "'" + (a.asName.empty() ? "" : " as '" + a.asName + "'"), a.range);
  }

  static std::string stmtDetail(const Stmt &s) {
    switch (s.kind()) {
    case StmtKind::FunctionDef:
      return "'" + s.as<FunctionDefStmt>().name + "'";
    case StmtKind::ImportFrom: {
      const auto &imp = s.as<ImportFromStmt>();
      std::string text = "'" + std::string(imp.level, '.') + imp.module + "'";
      return text;
    }
    case StmtKind::AugAssign:
      return std::string("'") + spelling(s.as<AugAssignStmt>().op) + "='";
    default:
      return "";
    }
  }

  static std::string exprDetail(const Expr &e) {
    switch (e.kind()) {
    case ExprKind::Name:
      return "'" + e.as<NameExpr>().id + "'";
    case ExprKind::IntLit:
      return std::to_string(e.as<IntLitExpr>().value);
    case ExprKind::FloatLit:
      return formatFloat(e.as<FloatLitExpr>().value);
    case ExprKind::StrLit:
      return quoteString(e.as<StrLitExpr>().value);
    case ExprKind::BoolLit:
      return e.as<BoolLitExpr>().value ? "True" : "False";
    case ExprKind::BinOp:
      return std::string("'") + spelling(e.as<BinOpExpr>().op) + "'";
    case ExprKind::UnaryOp:
      return std::string("'") + spelling(e.as<UnaryOpExpr>().op) + "'";
    case ExprKind::BoolOp:
      return std::string("'") + spelling(e.as<BoolOpExpr>().op) + "'";
    case ExprKind::Compare: {
      std::string text;
      for (CmpOpKind op : e.as<CompareExpr>().ops)
        text += std::string(text.empty() ? "" : " ") + "'" + spelling(op) + "'";
      return text;
    }
    case ExprKind::Attribute:
      return "'" + e.as<AttributeExpr>().attr + "'";
    default:
      return "";
    }
  }

  void header(int depth, const std::string &label, const std::string &name, const std::string &detail,
              SourceRange range) {
    os_ << std::string(2 * depth, ' ') << label << name;
    if (!detail.empty())
      os_ << ' ' << detail;
    os_ << location(range) << '\n';
  }

  LineColumn lineColumn(SourceLoc loc) const {
    if (sources_)
      if (const SourceFile *f = sources_->fileFor(loc))
        return f->lineColumn(loc);
    if (file_ && file_->contains(loc))
      return file_->lineColumn(loc);
    return {};
  }

  std::string location(SourceRange range) const {
    if (!options_.locations && !options_.ranges)
      return "";
    LineColumn b = lineColumn(range.begin);
    if (!b.isValid())
      return "";
    std::string text = " <" + std::to_string(b.line) + ":" + std::to_string(b.column);
    if (options_.ranges) {
      LineColumn e = lineColumn(range.end);
      if (e.isValid())
        text += "-" + std::to_string(e.line) + ":" + std::to_string(e.column);
    }
    return text + ">";
  }

  std::ostream &os_;
  const SourceManager *sources_;
  const SourceFile *file_;
  ASTPrintOptions options_;
};

void sexpr(std::ostream &os, const Expr &e);

void sexprList(std::ostream &os, const char *head, const ExprList &list) {
  os << '(' << head;
  for (const ExprPtr &x : list) {
    os << ' ';
    sexpr(os, *x);
  }
  os << ')';
}

void sexprOpt(std::ostream &os, const ExprPtr &e) {
  if (e)
    sexpr(os, *e);
  else
    os << '_';
}

void sexpr(std::ostream &os, const Expr &e) {
  switch (e.kind()) {
  case ExprKind::Name:
    os << e.as<NameExpr>().id;
    return;
  case ExprKind::IntLit:
    os << e.as<IntLitExpr>().value;
    return;
  case ExprKind::FloatLit:
    os << formatFloat(e.as<FloatLitExpr>().value);
    return;
  case ExprKind::StrLit:
    os << quoteString(e.as<StrLitExpr>().value);
    return;
  case ExprKind::BoolLit:
    os << (e.as<BoolLitExpr>().value ? "True" : "False");
    return;
  case ExprKind::NoneLit:
    os << "None";
    return;
  case ExprKind::Ellipsis:
    os << "...";
    return;
  case ExprKind::FString: {
    const auto &f = e.as<FStringExpr>();
    os << "(fstring " << quoteString(f.text[0]);
    for (size_t i = 0; i < f.fields.size(); ++i) {
      os << " ";
      sexpr(os, *f.fields[i].value);
      if (f.fields[i].conversion)
        os << " !" << f.fields[i].conversion;
      if (!f.fields[i].spec.empty())
        os << " :" << quoteString(f.fields[i].spec);
      os << " " << quoteString(f.text[i + 1]);
    }
    os << ")";
    return;
  }
  case ExprKind::Error:
    os << "<error>";
    return;
  case ExprKind::Tuple:
    sexprList(os, "tuple", e.as<TupleExpr>().elts);
    return;
  case ExprKind::List:
    sexprList(os, "list", e.as<ListExpr>().elts);
    return;
  case ExprKind::Dict: {
    const auto &d = e.as<DictExpr>();
    os << "(dict";
    for (size_t i = 0; i < d.keys.size() && i < d.values.size(); ++i) {
      os << " (";
      sexpr(os, *d.keys[i]);
      os << ' ';
      sexpr(os, *d.values[i]);
      os << ')';
    }
    os << ')';
    return;
  }
  case ExprKind::BinOp: {
    const auto &b = e.as<BinOpExpr>();
    os << '(' << spelling(b.op) << ' ';
    sexpr(os, *b.lhs);
    os << ' ';
    sexpr(os, *b.rhs);
    os << ')';
    return;
  }
  case ExprKind::UnaryOp: {
    const auto &u = e.as<UnaryOpExpr>();
    os << '(' << spelling(u.op) << ' ';
    sexpr(os, *u.operand);
    os << ')';
    return;
  }
  case ExprKind::BoolOp:
    sexprList(os, spelling(e.as<BoolOpExpr>().op), e.as<BoolOpExpr>().values);
    return;
  case ExprKind::Compare: {
    const auto &c = e.as<CompareExpr>();
    if (c.ops.size() == 1) {
      os << '(' << spelling(c.ops[0]) << ' ';
      sexpr(os, *c.left);
      os << ' ';
      sexpr(os, *c.comparators[0]);
      os << ')';
      return;
    }
    os << "(cmp ";
    sexpr(os, *c.left);
    for (size_t i = 0; i < c.ops.size(); ++i) {
      os << ' ' << spelling(c.ops[i]) << ' ';
      sexpr(os, *c.comparators[i]);
    }
    os << ')';
    return;
  }
  case ExprKind::IfExp: {
    const auto &ie = e.as<IfExpExpr>();
    os << "(if ";
    sexpr(os, *ie.test);
    os << ' ';
    sexpr(os, *ie.body);
    os << ' ';
    sexpr(os, *ie.orelse);
    os << ')';
    return;
  }
  case ExprKind::Call: {
    const auto &call = e.as<CallExpr>();
    os << "(call ";
    sexpr(os, *call.func);
    for (const ExprPtr &a : call.args) {
      os << ' ';
      sexpr(os, *a);
    }
    for (const Keyword &kw : call.keywords) {
      os << " (kw " << kw.name << ' ';
      sexpr(os, *kw.value);
      os << ')';
    }
    os << ')';
    return;
  }
  case ExprKind::Attribute:
    os << "(. ";
    sexpr(os, *e.as<AttributeExpr>().value);
    os << ' ' << e.as<AttributeExpr>().attr << ')';
    return;
  case ExprKind::Subscript:
    os << "([] ";
    sexpr(os, *e.as<SubscriptExpr>().value);
    os << ' ';
    sexpr(os, *e.as<SubscriptExpr>().index);
    os << ')';
    return;
  case ExprKind::Slice: {
    const auto &s = e.as<SliceExpr>();
    os << "(: ";
    sexprOpt(os, s.lower);
    os << ' ';
    sexprOpt(os, s.upper);
    os << ' ';
    sexprOpt(os, s.step);
    os << ')';
    return;
  }
  }
}

} // namespace

void printAST(std::ostream &os, const Module &module, const SourceManager *sources, ASTPrintOptions options) {
  TreePrinter(os, sources, module.file, options).printModule(module);
}

void printAST(std::ostream &os, const Stmt &stmt, const SourceManager *sources, ASTPrintOptions options) {
  TreePrinter(os, sources, nullptr, options).printStmt(stmt, 0, "");
}

void printAST(std::ostream &os, const Expr &expr, const SourceManager *sources, ASTPrintOptions options) {
  TreePrinter(os, sources, nullptr, options).printExpr(expr, 0, "");
}

std::string dumpAST(const Module &module, const SourceManager *sources, ASTPrintOptions options) {
  std::ostringstream os;
  printAST(os, module, sources, options);
  return os.str();
}

std::string dumpAST(const Stmt &stmt, const SourceManager *sources, ASTPrintOptions options) {
  std::ostringstream os;
  printAST(os, stmt, sources, options);
  return os.str();
}

std::string dumpAST(const Expr &expr, const SourceManager *sources, ASTPrintOptions options) {
  std::ostringstream os;
  printAST(os, expr, sources, options);
  return os.str();
}

std::string toSExpr(const Expr &expr) {
  std::ostringstream os;
  sexpr(os, expr);
  return os.str();
}

} // namespace tile::frontend
