// Source buffers, line/column computation and the clang-style diagnostic rendering.
#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/Source.h"

#include <catch2/catch.hpp>

#include <sstream>

using namespace tile::frontend;

TEST_CASE("source: line and column of offsets", "[frontend][source]") {
  SourceManager sm;
  const SourceFile *f = sm.addBuffer("a.py", "ab\ncd\r\nef\rg");
  REQUIRE(f);
  CHECK(f->numLines() == 4);
  auto lc = [&](uint32_t offset) {
    LineColumn l = f->lineColumnOfOffset(offset);
    return std::to_string(l.line) + ":" + std::to_string(l.column);
  };
  CHECK(lc(0) == "1:1");
  CHECK(lc(1) == "1:2");
  CHECK(lc(2) == "1:3"); // the newline itself
  CHECK(lc(3) == "2:1");
  CHECK(lc(5) == "2:3"); // "\r\n" is one terminator
  CHECK(lc(7) == "3:1");
  CHECK(lc(10) == "4:1");
  CHECK(lc(11) == "4:2"); // end of file
  CHECK_FALSE(f->lineColumnOfOffset(12).isValid());
  CHECK(f->lineText(1) == "ab");
  CHECK(f->lineText(2) == "cd");
  CHECK(f->lineText(3) == "ef");
  CHECK(f->lineText(4) == "g");
  CHECK(f->lineText(5).empty());
  CHECK(f->lineStartOffset(3) == 7);
}

TEST_CASE("source: locations identify their file", "[frontend][source]") {
  SourceManager sm;
  const SourceFile *a = sm.addBuffer("a.py", "x = 1\n");
  const SourceFile *b = sm.addBuffer("b.py", "yy\nzz");
  const SourceFile *empty = sm.addBuffer("c.py", "");
  CHECK_FALSE(SourceLoc().isValid());
  CHECK(sm.fileFor(SourceLoc()) == nullptr);
  CHECK(sm.fileFor(a->startLoc()) == a);
  CHECK(sm.fileFor(a->endLoc()) == a);
  CHECK(sm.fileFor(b->startLoc()) == b);
  CHECK(sm.fileFor(b->locForOffset(4)) == b);
  CHECK(sm.fileFor(empty->startLoc()) == empty);
  CHECK(sm.fileFor(SourceLoc::fromRaw(empty->endLoc().raw() + 10)) == nullptr);
  FullLoc full = sm.decompose(b->locForOffset(4));
  CHECK(full.file == b);
  CHECK(full.line == 2);
  CHECK(full.column == 2);
}

TEST_CASE("source: addFile reports missing files", "[frontend][source]") {
  SourceManager sm;
  std::string error;
  CHECK(sm.addFile("/nonexistent/dir/kernel.py", &error) == nullptr);
  CHECK(error == "cannot open file '/nonexistent/dir/kernel.py': No such file or directory");
}

namespace {

struct Fixture {
  SourceManager sm;
  const SourceFile *file;
  DiagnosticEngine diags{sm};
  explicit Fixture(std::string text) : file(sm.addBuffer("k.py", std::move(text))) {}
  SourceRange range(uint32_t begin, uint32_t end) const {
    return SourceRange(file->locForOffset(begin), file->locForOffset(end));
  }
};

} // namespace

TEST_CASE("diagnostics: clang-style rendering", "[frontend][diagnostics]") {
  Fixture f("def f(x):\n    y = x + 1\n    return y\n");
  // `x + 1` is bytes 18..23 of the file.
  f.diags.error(f.range(18, 23), "unsupported operand types").note(f.range(6, 7), "'x' declared here");
  f.diags.warning(SourceRange(f.file->locForOffset(35)), "value unused");
  CHECK(f.diags.str() == "k.py:2:9: error: unsupported operand types\n"
                         "    y = x + 1\n"
                         "        ^~~~~\n"
                         "k.py:1:7: note: 'x' declared here\n"
                         "def f(x):\n"
                         "      ^\n"
                         "k.py:3:12: warning: value unused\n"
                         "    return y\n"
                         "           ^\n");
  CHECK(f.diags.numErrors() == 1);
  CHECK(f.diags.numWarnings() == 1);
  CHECK(f.diags.summary() == "1 warning and 1 error generated.");
}

TEST_CASE("diagnostics: ranges across lines, at end of line and end of file", "[frontend][diagnostics]") {
  Fixture f("abc(\n  d)\nxyz");
  f.diags.error(f.range(3, 9), "spans two lines");
  f.diags.error(SourceRange(f.file->locForOffset(4)), "at the newline");
  f.diags.error(SourceRange(f.file->endLoc()), "at end of file");
  CHECK(f.diags.str() == "k.py:1:4: error: spans two lines\n"
                         "abc(\n"
                         "   ^\n"
                         "k.py:1:5: error: at the newline\n"
                         "abc(\n"
                         "    ^\n"
                         "k.py:3:4: error: at end of file\n"
                         "xyz\n"
                         "   ^\n");
  Fixture g("ab(cd\n");
  g.diags.error(g.range(2, 6), "to end of line");
  CHECK(g.diags.str() == "k.py:1:3: error: to end of line\n"
                         "ab(cd\n"
                         "  ^~~\n");
}

TEST_CASE("diagnostics: tabs and UTF-8 keep the caret aligned", "[frontend][diagnostics]") {
  Fixture f("\tx = 'h\xC3\xA9' + y\n");
  // `y` is at byte 13: tab, "x = 'h", two bytes of é, "' + ".
  f.diags.error(f.range(13, 14), "undefined name 'y'");
  CHECK(f.diags.str() == "k.py:1:14: error: undefined name 'y'\n"
                         "\tx = 'h\xC3\xA9' + y\n"
                         "\t           ^\n");
}

TEST_CASE("diagnostics: control characters are shown as '?'", "[frontend][diagnostics]") {
  Fixture f(std::string("a\0b\x01", 4));
  f.diags.error(f.range(2, 3), "here");
  CHECK(f.diags.str() == "k.py:1:3: error: here\n"
                         "a?b?\n"
                         "  ^\n");
}

TEST_CASE("diagnostics: diagnostics without a location", "[frontend][diagnostics]") {
  Fixture f("x\n");
  f.diags.error(SourceRange(), "no kernel named 'foo'").note(SourceRange(), "kernels are: bar");
  CHECK(f.diags.str() == "error: no kernel named 'foo'\n"
                         "note: kernels are: bar\n");
}

TEST_CASE("diagnostics: very long lines are shown around the caret", "[frontend][diagnostics]") {
  std::string line(1000, 'a');
  line[700] = 'X';
  Fixture f(line + "\n");
  f.diags.error(f.range(700, 701), "here");
  std::string out = f.diags.str();
  std::istringstream lines(out);
  std::string header, shown, caret;
  std::getline(lines, header);
  std::getline(lines, shown);
  std::getline(lines, caret);
  CHECK(header == "k.py:1:701: error: here");
  CHECK(shown.size() == 400);
  CHECK(caret == std::string(100, ' ') + "^");
  CHECK(shown[100] == 'X');
}

TEST_CASE("diagnostics: the error limit stops reporting", "[frontend][diagnostics]") {
  Fixture f("a b c d e\n");
  f.diags.setErrorLimit(3);
  for (uint32_t i = 0; i < 5; ++i) {
    DiagBuilder b = f.diags.error(f.range(2 * i, 2 * i + 1), "error " + std::to_string(i));
    b.note(f.range(0, 1), "note " + std::to_string(i));
    CHECK(b.isActive() == (i < 3));
  }
  f.diags.warning(f.range(0, 1), "dropped too");
  CHECK(f.diags.stopped());
  CHECK(f.diags.numErrors() == 3);
  CHECK(f.diags.numWarnings() == 0);
  REQUIRE(f.diags.diagnostics().size() == 4);
  CHECK(f.diags.diagnostics()[2].notes.size() == 1);
  std::string out = f.diags.str();
  CHECK(out.substr(out.rfind("k.py:1:5")) == "k.py:1:5: error: error 2\n"
                                             "a b c d e\n"
                                             "    ^\n"
                                             "k.py:1:1: note: note 2\n"
                                             "a b c d e\n"
                                             "^\n"
                                             "fatal error: too many errors emitted, stopping now\n");
  CHECK(f.diags.summary() == "3 errors generated.");
  CHECK(f.diags.hasErrorAt(f.file->locForOffset(2)));
  CHECK_FALSE(f.diags.hasErrorAt(f.file->locForOffset(1)));

  f.diags.clear();
  CHECK_FALSE(f.diags.stopped());
  CHECK(f.diags.diagnostics().empty());
  CHECK(f.diags.summary().empty());
}

TEST_CASE("diagnostics: the default limit is 20", "[frontend][diagnostics]") {
  Fixture f("x\n");
  for (int i = 0; i < 50; ++i)
    f.diags.error(f.range(0, 1), "e");
  CHECK(f.diags.numErrors() == 20);
  CHECK(f.diags.diagnostics().size() == 21);
  CHECK(f.diags.diagnostics().back().severity == Severity::Fatal);
}
