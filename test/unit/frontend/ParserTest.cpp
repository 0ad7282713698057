// Parser: every statement and expression kind, operator precedence, source ranges, the
// examples from docs/language.md, and the AST helpers (visitors, forEachChild, accessors).
#include "test/unit/frontend/FrontendTestUtil.h"

#include <catch2/catch.hpp>

using namespace tile::frontend;
using namespace tile::frontend::test;

namespace {

// The example kernel of docs/language.md.
const char *kScaleRows = R"(import cuda.tile as ct

@ct.kernel
def scale_rows(x, s, out, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,))
    ct.store(out, index=(i, j), tile=(t * k[:, None]).astype(out.dtype))
)";

// An @ct.autotune declaration as docs/language.md describes it, with a body.
const char *kAutotune = R"(import cuda.tile as ct

@ct.autotune(configs=[dict(BLOCK_N=64, occupancy=2), dict(BLOCK_N=128, occupancy=1)],
             key=["N", "x.dtype"])
@ct.kernel
def f(x, y, N: int, BLOCK_N: ct.Constant[int]): ...
)";

} // namespace

TEST_CASE("parser: operator precedence", "[frontend][parser]") {
  CHECK(sexpr("1 + 2 * 3") == "(+ 1 (* 2 3))");
  CHECK(sexpr("1 - 2 - 3") == "(- (- 1 2) 3)");
  CHECK(sexpr("(1 - 2) * 3") == "(* (- 1 2) 3)");
  CHECK(sexpr("a // b % c / d * e @ f") == "(@ (* (/ (% (// a b) c) d) e) f)");
  CHECK(sexpr("a @ b + c") == "(+ (@ a b) c)");
  CHECK(sexpr("a | b ^ c & d << e + f * g") == "(| a (^ b (& c (<< d (+ e (* f g))))))");
  CHECK(sexpr("a * b + c << d & e ^ f | g") == "(| (^ (& (<< (+ (* a b) c) d) e) f) g)");
  CHECK(sexpr("a << b >> c") == "(>> (<< a b) c)");
  // ** binds tighter than a unary operator on its left, and is right-associative.
  CHECK(sexpr("-2 ** 2") == "(- (** 2 2))");
  CHECK(sexpr("2 ** -1") == "(** 2 (- 1))");
  CHECK(sexpr("2 ** 3 ** 2") == "(** 2 (** 3 2))");
  CHECK(sexpr("2 * -3 ** 2") == "(* 2 (- (** 3 2)))");
  CHECK(sexpr("-x.y ** 2") == "(- (** (. x y) 2))");
  CHECK(sexpr("~a + b") == "(+ (~ a) b)");
  CHECK(sexpr("- - a") == "(- (- a))");
  CHECK(sexpr("+a - -b") == "(- (+ a) (- b))");
  // Comparisons sit below bitwise operators and above `not`.
  CHECK(sexpr("a | b == c") == "(== (| a b) c)");
  CHECK(sexpr("a + b < c * d") == "(< (+ a b) (* c d))");
  CHECK(sexpr("not a == b") == "(not (== a b))");
  CHECK(sexpr("not not a") == "(not (not a))");
  CHECK(sexpr("not a and b or c") == "(or (and (not a) b) c)");
  CHECK(sexpr("a or b and c") == "(or a (and b c))");
  CHECK(sexpr("a and b and c") == "(and a b c)");
  CHECK(sexpr("a or b or c and d") == "(or a b (and c d))");
  // Chained comparisons are one node.
  CHECK(sexpr("a < b <= c") == "(cmp a < b <= c)");
  CHECK(sexpr("a in b == c") == "(cmp a in b == c)");
  CHECK(sexpr("a is not b") == "(is not a b)");
  CHECK(sexpr("a not in b") == "(not in a b)");
  CHECK(sexpr("a is b") == "(is a b)");
  CHECK(sexpr("a != b > c >= d") == "(cmp a != b > c >= d)");
  // Conditional expressions are the loosest.
  CHECK(sexpr("x if c else y") == "(if c x y)");
  CHECK(sexpr("a if b else c if d else e") == "(if b a (if d c e))");
  CHECK(sexpr("x + 1 if a or b else y") == "(if (or a b) (+ x 1) y)");
  CHECK(sexpr("(x if c else y) + 1") == "(+ (if c x y) 1)");
}

TEST_CASE("parser: primary expressions and literals", "[frontend][parser]") {
  CHECK(sexpr("a.b(c)[d].e") == "(. ([] (call (. a b) c) d) e)");
  CHECK(sexpr("f()") == "(call f)");
  CHECK(sexpr("f(a, b=1, c=d + 1,)") == "(call f a (kw b 1) (kw c (+ d 1)))");
  CHECK(sexpr("f(a)(b)") == "(call (call f a) b)");
  CHECK(sexpr("t[i]") == "([] t i)");
  CHECK(sexpr("t[i,]") == "([] t (tuple i))");
  CHECK(sexpr("t[i, j]") == "([] t (tuple i j))");
  CHECK(sexpr("t[(i, j)]") == "([] t (tuple i j))");
  CHECK(sexpr("t[:, None]") == "([] t (tuple (: _ _ _) None))");
  CHECK(sexpr("t[None, :]") == "([] t (tuple None (: _ _ _)))");
  CHECK(sexpr("t[1:2:3]") == "([] t (: 1 2 3))");
  CHECK(sexpr("t[1:]") == "([] t (: 1 _ _))");
  CHECK(sexpr("t[:n + 1]") == "([] t (: _ (+ n 1) _))");
  CHECK(sexpr("t[::2, ...]") == "([] t (tuple (: _ _ 2) ...))");
  CHECK(sexpr("t[::]") == "([] t (: _ _ _))");
  CHECK(sexpr("a.shape[i]") == "([] (. a shape) i)");
  CHECK(sexpr("(1, 2)") == "(tuple 1 2)");
  CHECK(sexpr("(1,)") == "(tuple 1)");
  CHECK(sexpr("()") == "(tuple)");
  CHECK(sexpr("(1)") == "1");
  CHECK(sexpr("((a))") == "a");
  CHECK(sexpr("a, b") == "(tuple a b)");
  CHECK(sexpr("a,") == "(tuple a)");
  CHECK(sexpr("[1, 2,]") == "(list 1 2)");
  CHECK(sexpr("[]") == "(list)");
  CHECK(sexpr("[[1], (2,)]") == "(list (list 1) (tuple 2))");
  CHECK(sexpr("{'a': 1, 'b': x,}") == "(dict (\"a\" 1) (\"b\" x))");
  CHECK(sexpr("{}") == "(dict)");
  CHECK(sexpr("'a' \"b\" '''c'''") == "\"abc\"");
  CHECK(sexpr("'tab\\there'") == "\"tab\\there\"");
  CHECK(sexpr("None") == "None");
  CHECK(sexpr("True") == "True");
  CHECK(sexpr("False") == "False");
  CHECK(sexpr("...") == "...");
  CHECK(sexpr("1.5") == "1.5");
  CHECK(sexpr("1e-3") == "0.001");
  CHECK(sexpr("2.") == "2.0");
  CHECK(sexpr("0x10") == "16");
  CHECK(sexpr("9223372036854775807") == "9223372036854775807");
  CHECK(sexpr("ct.float32") == "(. ct float32)");
  CHECK(sexpr("  x") == "x");
}

TEST_CASE("parser: assignments", "[frontend][parser]") {
  Parsed p("x = 1\n"
           "a, b = f()\n"
           "(c, d) = 1, 2\n"
           "a = b = 3\n"
           "x[0] = t.y = 2\n"
           "[e, (f, g)] = h\n");
  CHECK(p.errors().empty());
  CHECK(p.ast() == R"(Module 't.py'
  Assign
    target: Name 'x'
    value: IntLit 1
  Assign
    target: Tuple
      Name 'a'
      Name 'b'
    value: Call
      func: Name 'f'
  Assign
    target: Tuple
      Name 'c'
      Name 'd'
    value: Tuple
      IntLit 1
      IntLit 2
  Assign
    target: Name 'a'
    target: Name 'b'
    value: IntLit 3
  Assign
    target: Subscript
      Name 'x'
      index: IntLit 0
    target: Attribute 'y'
      Name 't'
    value: IntLit 2
  Assign
    target: List
      Name 'e'
      Tuple
        Name 'f'
        Name 'g'
    value: Name 'h'
)");
}

TEST_CASE("parser: augmented and annotated assignments", "[frontend][parser]") {
  Parsed p("x += 1\nx -= 1\nx *= 1\nx /= 1\nx //= 1\nx %= 1\nx **= 1\nx @= 1\n"
           "x &= 1\nx |= 1\nx ^= 1\nx <<= 1\nx >>= 1\nt.a[0] += y\n"
           "n: int = 3\nm: ct.Constant[int]\n");
  CHECK(p.errors().empty());
  std::string ops;
  for (const StmtPtr &s : p.module->body)
    if (const auto *aug = s->dynCast<AugAssignStmt>())
      ops += std::string(spelling(aug->op)) + " ";
  CHECK(ops == "+ - * / // % ** @ & | ^ << >> + ");
  const auto &last = p.module->body.back()->as<AnnAssignStmt>();
  CHECK(last.value == nullptr);
  CHECK(toSExpr(*last.annotation) == "([] (. ct Constant) int)");
  std::string dump = p.ast();
  CHECK(dump.find(R"(  AugAssign '+='
    target: Subscript
      Attribute 'a'
        Name 't'
      index: IntLit 0
    value: Name 'y'
  AnnAssign
    target: Name 'n'
    annotation: Name 'int'
    value: IntLit 3
  AnnAssign
    target: Name 'm'
    annotation: Subscript
)") != std::string::npos);
}

TEST_CASE("parser: control flow statements", "[frontend][parser]") {
  Parsed p("def f(n):\n"
           "    for i in range(0, n, 2):\n"
           "        if i == 0:\n"
           "            continue\n"
           "        elif i > 10: break\n"
           "        elif i < 0:\n"
           "            pass\n"
           "        else:\n"
           "            assert i, 'msg'\n"
           "    for a, b in pairs:\n"
           "        pass\n"
           "    if x: return\n"
           "    return a, b\n");
  CHECK(p.errors().empty());
  CHECK(p.ast() == R"(Module 't.py'
  FunctionDef 'f'
    param 'n'
    body:
      For
        target: Name 'i'
        iter: Call
          func: Name 'range'
          IntLit 0
          Name 'n'
          IntLit 2
        body:
          If
            if
              test: Compare '=='
                Name 'i'
                IntLit 0
              body:
                Continue
            elif
              test: Compare '>'
                Name 'i'
                IntLit 10
              body:
                Break
            elif
              test: Compare '<'
                Name 'i'
                IntLit 0
              body:
                Pass
            else
              Assert
                test: Name 'i'
                msg: StrLit "msg"
      For
        target: Tuple
          Name 'a'
          Name 'b'
        iter: Name 'pairs'
        body:
          Pass
      If
        if
          test: Name 'x'
          body:
            Return
      Return
        Tuple
          Name 'a'
          Name 'b'
)");
}

TEST_CASE("parser: imports", "[frontend][parser]") {
  Parsed p("import cuda.tile as ct\n"
           "import math, os.path\n"
           "from cuda.tile import load, store as st\n"
           "from . import helpers\n"
           "from ..a.b import (c, d,)\n");
  CHECK(p.errors().empty());
  CHECK(p.ast(true) == R"(Module 't.py'
  Import <1:1>
    alias 'cuda.tile' as 'ct' <1:8>
  Import <2:1>
    alias 'math' <2:8>
    alias 'os.path' <2:14>
  ImportFrom 'cuda.tile' <3:1>
    alias 'load' <3:23>
    alias 'store' as 'st' <3:29>
  ImportFrom '.' <4:1>
    alias 'helpers' <4:15>
  ImportFrom '..a.b' <5:1>
    alias 'c' <5:20>
    alias 'd' <5:23>
)");
  const auto &imp = p.module->body[1]->as<ImportStmt>();
  CHECK(imp.names[1].boundName() == "os");
  CHECK(p.module->body[0]->as<ImportStmt>().names[0].boundName() == "ct");
  const auto &from = p.module->body[4]->as<ImportFromStmt>();
  CHECK(from.level == 2);
  CHECK(from.module == "a.b");
}

TEST_CASE("parser: function definitions and decorators", "[frontend][parser]") {
  Parsed p("@ct.kernel\n"
           "@ct.kernel(occupancy=2, num_ctas=1)\n"
           "@ct.function\n"
           "def g(a, b: ct.Array, c: int = 4, *, ) -> ct.Tile:\n"
           "    return a\n"
           "def h(): pass\n");
  // The bare `*` is reported; everything else is accepted.
  CHECK(p.headlines() == "t.py:4:35: error: keyword-only parameter marker `*` is not supported\n");
  const FunctionDefStmt *g = p.module->findFunction("g");
  REQUIRE(g);
  REQUIRE(g->decorators.size() == 3);
  CHECK(toSExpr(*g->decorators[0]) == "(. ct kernel)");
  CHECK(toSExpr(*g->decorators[1]) == "(call (. ct kernel) (kw occupancy 2) (kw num_ctas 1))");
  CHECK(toSExpr(*g->decorators[2]) == "(. ct function)");
  REQUIRE(g->params.size() == 3);
  CHECK(g->params[0].annotation == nullptr);
  CHECK(toSExpr(*g->params[1].annotation) == "(. ct Array)");
  CHECK(toSExpr(*g->params[2].defaultValue) == "4");
  CHECK(toSExpr(*g->returns) == "(. ct Tile)");
  CHECK(g->findParam("c") == &g->params[2]);
  CHECK(g->findParam("z") == nullptr);
  const FunctionDefStmt *h = p.module->findFunction("h");
  REQUIRE(h);
  CHECK(h->body.size() == 1);
  CHECK(p.module->functions().size() == 2);
}

TEST_CASE("parser: simple statements on one line", "[frontend][parser]") {
  Parsed p("x = 1; y = 2;\nif x: y = 3; z = 4\nelse: pass\n");
  CHECK(p.errors().empty());
  REQUIRE(p.module->body.size() == 3);
  const auto &ifs = p.module->body[2]->as<IfStmt>();
  CHECK(ifs.branches[0].body.size() == 2);
  CHECK(ifs.orelse.size() == 1);
}

TEST_CASE("parser: the language example kernel", "[frontend][parser]") {
  Parsed p(kScaleRows);
  CHECK(p.errors().empty());
  const FunctionDefStmt *fn = p.module->findFunction("scale_rows");
  REQUIRE(fn);
  REQUIRE(fn->params.size() == 5);
  CHECK(toSExpr(*fn->params[3].annotation) == "([] (. ct Constant) int)");
  REQUIRE(fn->body.size() == 5);
  const auto &load = fn->body[2]->as<AssignStmt>().value->as<CallExpr>();
  CHECK(toSExpr(load) == "(call (. ct load) x (kw index (tuple i j)) (kw shape (tuple TM TN)) "
                         "(kw padding_mode (. (. ct PaddingMode) ZERO)))");
  REQUIRE(load.findKeyword("shape"));
  CHECK(load.findKeyword("shape")->value->as<TupleExpr>().parenthesized);
  CHECK(load.findKeyword("order") == nullptr);
  const auto &store = fn->body[4]->as<ExprStmt>().value->as<CallExpr>();
  CHECK(toSExpr(*store.findKeyword("tile")->value) ==
        "(call (. (* t ([] k (tuple (: _ _ _) None))) astype) (. out dtype))");

  // Locations of the last statement.
  ASTPrintOptions options;
  options.ranges = true;
  CHECK(dumpAST(*fn->body[3], &p.sources, options) == R"(Assign <8:5-8:44>
  target: Name 'k' <8:5-8:6>
  value: Call <8:9-8:44>
    func: Attribute 'load' <8:9-8:16>
      Name 'ct' <8:9-8:11>
    Name 's' <8:17-8:18>
    keyword 'index' <8:20-8:30>
      Tuple <8:26-8:30>
        Name 'i' <8:27-8:28>
    keyword 'shape' <8:32-8:43>
      Tuple <8:38-8:43>
        Name 'TM' <8:39-8:41>
)");
}

TEST_CASE("parser: an autotune declaration", "[frontend][parser]") {
  Parsed p(kAutotune);
  CHECK(p.errors().empty());
  const FunctionDefStmt *fn = p.module->findFunction("f");
  REQUIRE(fn);
  REQUIRE(fn->decorators.size() == 2);
  const auto &autotune = fn->decorators[0]->as<CallExpr>();
  CHECK(toSExpr(*autotune.func) == "(. ct autotune)");
  const auto &configs = autotune.findKeyword("configs")->value->as<ListExpr>();
  REQUIRE(configs.elts.size() == 2);
  CHECK(toSExpr(*configs.elts[1]) == "(call dict (kw BLOCK_N 128) (kw occupancy 1))");
  CHECK(toSExpr(*autotune.findKeyword("key")->value) == "(list \"N\" \"x.dtype\")");
  REQUIRE(fn->body.size() == 1);
  CHECK(fn->body[0]->as<ExprStmt>().value->isa<EllipsisExpr>());
  CHECK(p.ast(true).find("  FunctionDef 'f' <6:1>\n    decorator: Call <3:2>\n") != std::string::npos);
}

TEST_CASE("parser: expression ranges", "[frontend][parser]") {
  Parsed p("y = (a + b) * c[1:2]\n");
  REQUIRE(p.errors().empty());
  const auto &mul = p.module->body[0]->as<AssignStmt>().value->as<BinOpExpr>();
  auto cols = [&](SourceRange r) {
    return std::to_string(p.file->lineColumn(r.begin).column) + "-" + std::to_string(p.file->lineColumn(r.end).column);
  };
  CHECK(cols(mul.range) == "5-21");
  CHECK(cols(mul.opRange) == "13-14");
  CHECK(cols(mul.lhs->range) == "5-12"); // includes the parentheses
  CHECK(cols(mul.lhs->as<BinOpExpr>().lhs->range) == "6-7");
  const auto &sub = mul.rhs->as<SubscriptExpr>();
  CHECK(cols(sub.range) == "15-21");
  CHECK(cols(sub.index->range) == "17-20");
  CHECK(cols(p.module->body[0]->range) == "1-21");
}

TEST_CASE("parser: parseExpression reports trailing tokens", "[frontend][parser]") {
  CHECK(sexpr("x.dtype") == "(. x dtype)");
  CHECK(sexpr("x y") == "ERROR: e.py:1:3: error: expected end of expression, found identifier 'y'\nx y\n  ^\n");
  CHECK(sexpr("") == "ERROR: e.py:1:1: error: expected expression, found end of file\n\n^\n");
}

TEST_CASE("ast: visitors and walking", "[frontend][ast]") {
  Parsed p("def f(a: int = 1):\n"
           "    for i in range(a):\n"
           "        x = -a[i:] + g(b=2) if c else None\n");
  REQUIRE(p.errors().empty());

  // Count every node with forEachChild.
  struct Counter {
    int exprs = 0, stmts = 0;
    void expr(const Expr &e) {
      ++exprs;
      forEachChild(e, [&](const Expr &c) { expr(c); });
    }
    void stmt(const Stmt &s) {
      ++stmts;
      forEachChild(
          s, [&](const Expr &e) { expr(e); }, [&](const Stmt &c) { stmt(c); });
    }
  } counter;
  for (const StmtPtr &s : p.module->body)
    counter.stmt(*s);
  CHECK(counter.stmts == 3);
  // int, 1, i, range(a): 3, x, IfExp, BinOp, UnaryOp, Subscript, a, Slice, i, Call, g, 2, c, None
  CHECK(counter.exprs == 19);

  // A visitor that names what it sees, with a fallback.
  struct Namer : ExprVisitor<Namer, std::string>, StmtVisitor<Namer, std::string> {
    std::string visitNameExpr(const NameExpr &e) { return "name " + e.id; }
    std::string visitCallExpr(const CallExpr &) { return "call"; }
    std::string unhandledExpr(const Expr &e) { return exprKindName(e.kind()); }
    std::string visitForStmt(const ForStmt &s) { return "for " + visitExpr(*s.target); }
    std::string unhandledStmt(const Stmt &s) { return stmtKindName(s.kind()); }
  } namer;
  const auto &fn = p.module->body[0]->as<FunctionDefStmt>();
  CHECK(namer.visitStmt(fn) == "FunctionDef");
  CHECK(namer.visitStmt(*fn.body[0]) == "for name i");
  const auto &forStmt = fn.body[0]->as<ForStmt>();
  CHECK(namer.visitExpr(*forStmt.iter) == "call");
  const Expr &value = *forStmt.body[0]->as<AssignStmt>().value;
  CHECK(namer.visitExpr(value) == "IfExp");

  // Casts.
  CHECK(value.isa<IfExpExpr>());
  CHECK(value.dynCast<CallExpr>() == nullptr);
  CHECK(IfExpExpr::classof(&value));
  const auto &sub = value.as<IfExpExpr>().body->as<BinOpExpr>().lhs->as<UnaryOpExpr>().operand->as<SubscriptExpr>();
  REQUIRE(sub.indices().size() == 1);
  CHECK(sub.indices()[0]->isa<SliceExpr>());
}

TEST_CASE("ast: subscript indices", "[frontend][ast]") {
  Parsed p("a = t[i, :, None]\nb = t[(i, j)]\n");
  REQUIRE(p.errors().empty());
  const auto &s1 = p.module->body[0]->as<AssignStmt>().value->as<SubscriptExpr>();
  CHECK(s1.indices().size() == 3);
  CHECK(s1.indices()[2]->isa<NoneLitExpr>());
  // A parenthesized tuple is one index, as in Python's ast (sema may treat it alike).
  const auto &s2 = p.module->body[1]->as<AssignStmt>().value->as<SubscriptExpr>();
  CHECK(s2.indices().size() == 1);
}
