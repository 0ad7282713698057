// The tuner's decisions with a scripted timer (no GPU): choosing, early discard, skipping what
// does not compile or launch, persistence across tuner objects ("processes"), corrupt files,
// concurrent writers, and the forced, disabled and table-only modes.
#include "runtime/Error.h"
#include "test/unit/autotune/AutotuneTestUtil.h"

#include <cstdio>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace tile;
using namespace tile::jit;
using namespace tile::jit::test;

TEST_CASE("the tuner times every candidate and keeps the fastest", "[autotune]") {
  LogLines log;
  Tuner tuner("", quiet(), log.sink());
  ScriptedTimer timer({2.0, 1.0, 1.2});
  TuneDecision d = tuner.choose(key("k"), candidates(3), timer);
  CHECK(d.winner == 1);
  CHECK(d.source == TuneSource::Tuned);
  REQUIRE(d.rows.size() == 3);
  CHECK(d.rows[0].status == TuneRow::Status::Timed);
  CHECK(d.rows[0].ms == Approx(2.0));
  CHECK(d.rows[2].status == TuneRow::Status::Timed); // 1.2 is within 1.5x of 1.0: timed in full
  CHECK(d.msOf(1) == Approx(1.0));
  // warm-up + probe + repeated launches (target 20 ms at 1 ms: 20 launches)
  CHECK(timer.launches[1] == 2 + 1 + 20);
  CHECK(timer.prepares == 1);
  // The second launch of the same key times nothing.
  TuneDecision again = tuner.choose(key("k"), candidates(3), timer);
  CHECK(again.winner == 1);
  CHECK(again.source == TuneSource::Cached);
  CHECK(timer.prepares == 1);
  CHECK(tuner.stats().tunings == 1);
  CHECK(tuner.stats().memoryHits == 1);
}

TEST_CASE("a candidate clearly slower than the best so far is discarded after one probe", "[autotune]") {
  Tuner tuner("", quiet());
  ScriptedTimer timer({1.0, 5.0, 0.5});
  TuneDecision d = tuner.choose(key("k"), candidates(3), timer);
  CHECK(d.winner == 2);
  CHECK(d.rows[1].status == TuneRow::Status::Discarded);
  CHECK(d.rows[1].reason.find("best so far") != std::string::npos);
  CHECK(timer.launches[1] == 2 + 1); // warm-up and probe only
  // The repeat count follows the target time, within the bounds.
  TuneSettings s = quiet();
  s.targetMs = 1000, s.maxLaunches = 7;
  Tuner capped("", s);
  ScriptedTimer t2({1.0, 2.0});
  capped.choose(key("k"), candidates(2), t2);
  CHECK(t2.launches[0] == 2 + 1 + 7);
}

TEST_CASE("candidates that do not compile or launch are skipped with the reason", "[autotune]") {
  LogLines log;
  TuneSettings s = quiet();
  s.print = true;
  Tuner tuner("", s, log.sink());
  ScriptedTimer timer({0.5, -1, 3.0});
  timer.compileErrors[0] = "ssd.py:3:5: error: BQ must divide Q\n  ct.static_assert(...)";
  TuneDecision d = tuner.choose(key("k"), candidates(3), timer);
  CHECK(d.winner == 2);
  CHECK(d.rows[0].status == TuneRow::Status::Failed);
  CHECK(d.rows[0].reason.find("does not compile: ssd.py:3:5: error: BQ must divide Q") == 0);
  CHECK(d.rows[0].reason.find('\n') == std::string::npos); // one line in the table
  CHECK(d.rows[1].status == TuneRow::Status::Failed);
  CHECK(d.rows[1].reason.find("OUT_OF_RESOURCES") != std::string::npos);
  CHECK(timer.launches.count(0) == 0); // never launched
  // TILE_AUTOTUNE_PRINT: the table names each candidate and the winner.
  CHECK(log.contains("k headdim=64: tuned, configuration 2 (BQ=64)"));
  CHECK(log.contains("does not launch"));
  for (const std::string &line : *log.lines)
    std::printf("%s\n", line.c_str()); // what TILE_AUTOTUNE_PRINT shows

  ScriptedTimer none({-1, -1});
  none.compileErrors[0] = "no";
  try {
    tuner.choose(key("other"), candidates(2), none);
    FAIL("expected an error");
  } catch (const rt::Error &e) {
    std::string m = e.what();
    CHECK(m.find("no configuration runs") != std::string::npos);
    CHECK(m.find("configuration 0 (BQ=16): does not compile: no") != std::string::npos);
    CHECK(m.find("configuration 1 (BQ=32): does not launch") != std::string::npos);
  }
}

TEST_CASE("decisions persist across tuners on the same folder", "[autotune]") {
  std::string dir = tempDir();
  {
    Tuner first(dir, quiet());
    ScriptedTimer timer({3.0, 1.0, 2.0});
    CHECK(first.choose(key("k"), candidates(3), timer).winner == 1);
  }
  std::vector<std::string> files = filesIn(dir);
  REQUIRE(files.size() == 1);
  CHECK(files[0] == key("k").digest + ".tune");
  // A new tuner (a later process) reads the decision and times nothing.
  Tuner second(dir, quiet());
  std::optional<TuneDecision> known = second.known(key("k"), candidates(3));
  REQUIRE(known);
  CHECK(known->winner == 1);
  CHECK(known->source == TuneSource::Cached);
  CHECK(known->msOf(0) == Approx(3.0)); // the table travels with the decision
  CHECK(second.stats().fileHits == 1);
  // Another shape bucket, another device or other candidates are other keys.
  CHECK_FALSE(second.known(key("k", "128"), candidates(3)));
  CHECK_FALSE(second.known(key("k", "64", "A100"), candidates(3)));
  CHECK_FALSE(second.known(key("j"), candidates(3)));
}

TEST_CASE("a stored winner that is not among the candidates is re-tuned", "[autotune]") {
  std::string dir = tempDir();
  LogLines log;
  {
    Tuner first(dir, quiet());
    ScriptedTimer timer({3.0, 2.0, 1.0});
    CHECK(first.choose(key("k"), candidates(3), timer).winner == 2);
  }
  // The same key text with only two candidates: winner 2 is out of range.
  Tuner second(dir, quiet(), log.sink());
  ScriptedTimer timer({1.0, 2.0});
  TuneDecision d = second.choose(key("k"), candidates(2), timer);
  CHECK(d.source == TuneSource::Tuned);
  CHECK(d.winner == 0);
  CHECK(log.contains("is not among the candidates"));
}

TEST_CASE("corrupt, truncated and foreign tuning files are reported and re-tuned", "[autotune]") {
  const std::string dir = tempDir();
  const TuneKey k = key("k");
  std::string good;
  {
    Tuner t(dir, quiet());
    ScriptedTimer timer({2.0, 1.0});
    t.choose(k, candidates(2), timer);
    good = readFile(t.pathFor(k));
  }
  REQUIRE(good.find("\"format\": \"tile-tune/1\"") != std::string::npos);
  TuneRecord foreign = parseTuneRecord(good, "good");
  foreign.keyText = "kernel=k\nkey.headdim=999\n";
  struct Bad {
    const char *name;
    std::string bytes;
    const char *why;
  };
  std::string wrongWinner = good;
  wrongWinner.replace(wrongWinner.find("\"winner\": 1"), 11, "\"winner\": 9");
  std::vector<Bad> bad = {
      {"empty", "", "not valid JSON"},
      {"truncated", good.substr(0, good.size() / 2), "not valid JSON"},
      {"garbage",
       std::string("\x7f"
                   "ELF\0\1\2",
                   7),
       "not valid JSON"},
      {"other format", "{\"format\": \"tile-tune/2\"}", "format: 'tile-tune/2' is not supported"},
      {"a list", "[1, 2]", "expected an object"},
      {"missing rows", "{\"format\": \"tile-tune/1\", \"kernel\": \"k\"}", "summary: missing"},
      {"foreign key", toJson(foreign), "written for another key"},
      {"winner out of range", wrongWinner, "is not among the candidates"},
  };
  for (const Bad &b : bad) {
    INFO(b.name);
    LogLines log;
    Tuner t(dir, quiet(), log.sink());
    writeFile(t.pathFor(k), b.bytes);
    ScriptedTimer timer({1.0, 2.0});
    TuneDecision d = t.choose(k, candidates(2), timer); // never throws
    CHECK(d.source == TuneSource::Tuned);
    CHECK(d.winner == 0);
    CHECK(log.contains(b.why));
    // Re-tuned and rewritten: the next tuner trusts the file again.
    Tuner next(dir, quiet());
    std::optional<TuneDecision> again = next.known(k, candidates(2));
    REQUIRE(again);
    CHECK(again->winner == 0);
  }
  // A symbolic link is removed, a directory left alone; neither is trusted.
  {
    LogLines log;
    Tuner t(dir, quiet(), log.sink());
    ::unlink(t.pathFor(k).c_str());
    REQUIRE(::symlink("/etc/passwd", t.pathFor(k).c_str()) == 0);
    CHECK_FALSE(t.known(k, candidates(2)));
    CHECK(log.contains("symbolic link"));
    CHECK(::access(t.pathFor(k).c_str(), F_OK) != 0);
    REQUIRE(::mkdir(t.pathFor(k).c_str(), 0755) == 0);
    ScriptedTimer timer({1.0, 2.0});
    CHECK(t.choose(k, candidates(2), timer).source == TuneSource::Tuned);
    CHECK(log.contains("not a regular file"));
    CHECK(log.contains("decisions are not kept on disk"));
  }
}

TEST_CASE("concurrent tuners writing the same folder leave only valid files", "[autotune]") {
  const std::string dir = tempDir();
  constexpr int kThreads = 8, kKeys = 12;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      try {
        Tuner tuner(dir, quiet(), [](const std::string &) {});
        for (int i = 0; i < kKeys; ++i) {
          // Every thread tunes every key; the winner depends on the key only.
          ScriptedTimer timer({1.0 + (i % 3), 1.5, 2.0 + (i % 2)});
          size_t w = tuner.choose(key("k" + std::to_string(i)), candidates(3), timer).winner;
          if (w != (i % 3 == 0 ? 0u : 1u))
            ++failures;
        }
      } catch (...) {
        ++failures;
      }
      (void)t;
    });
  for (std::thread &t : threads)
    t.join();
  CHECK(failures == 0);
  CHECK(filesIn(dir).size() == size_t(kKeys)); // no temporary file left behind
  Tuner reader(dir, quiet());
  for (int i = 0; i < kKeys; ++i) {
    std::optional<TuneDecision> d = reader.known(key("k" + std::to_string(i)), candidates(3));
    REQUIRE(d);
    CHECK(d->winner == (i % 3 == 0 ? 0u : 1u));
  }
  CHECK(reader.stats().badFiles == 0);
}

TEST_CASE("forced and disabled modes time nothing", "[autotune]") {
  ScriptedTimer timer({1.0, 2.0, 3.0});
  {
    TuneSettings s = quiet();
    s.mode = TuneMode::Off;
    Tuner t("", s);
    TuneDecision d = t.choose(key("k"), candidates(3), timer);
    CHECK(d.winner == 0);
    CHECK(d.source == TuneSource::Disabled);
  }
  {
    TuneSettings s = quiet();
    s.force = parseForceRules("2");
    Tuner t("", s);
    TuneDecision d = t.choose(key("k"), candidates(3), timer);
    CHECK(d.winner == 2);
    CHECK(d.source == TuneSource::Forced);
  }
  {
    // Per kernel, by constants; a kernel without a rule of its own is tuned.
    TuneSettings s = quiet();
    s.force = parseForceRules("k:BQ=32;j:0");
    Tuner t("", s);
    CHECK(t.choose(key("k"), candidates(3), timer).winner == 1);
    CHECK(t.choose(key("j"), candidates(3), timer).winner == 0);
    CHECK(t.choose(key("i"), candidates(3), timer).source == TuneSource::Tuned);
  }
  CHECK(timer.prepares == 1); // only kernel i
  {
    // An index names a declared configuration: one that the shape merged into another
    // candidate (the same fitted constants) picks that candidate; an index nothing stands for
    // is an error.
    TuneSettings s = quiet();
    s.force = parseForceRules("k:3;j:5");
    Tuner t("", s);
    std::vector<TuneCandidate> merged = candidates(3);
    merged[1].merged = {3, 4};
    CHECK(t.choose(key("k"), merged, timer).winner == 1);
    CHECK_THROWS_WITH(t.choose(key("j"), merged, timer), Catch::Contains("rule 'j:5' matches no configuration"));
  }
  {
    TuneSettings s = quiet();
    s.force = parseForceRules("BQ=48");
    Tuner t("", s);
    try {
      t.choose(key("k"), candidates(3), timer);
      FAIL("expected an error");
    } catch (const rt::Error &e) {
      CHECK(std::string(e.what()).find("rule 'BQ=48' matches no configuration of k headdim=64 (its configurations: "
                                       "0: BQ=16; 1: BQ=32; 2: BQ=64)") != std::string::npos);
    }
  }
  // One candidate: nothing to time.
  Tuner t("", quiet());
  CHECK(t.choose(key("k"), candidates(1), timer).source == TuneSource::Only);
}

TEST_CASE("forcing rules are parsed strictly", "[autotune]") {
  std::vector<ForceRule> rules = parseForceRules("3;compute_out:BQ=32,BP=64");
  REQUIRE(rules.size() == 2);
  CHECK(rules[0].index == 3u);
  CHECK(rules[0].kernel.empty());
  CHECK(rules[1].kernel == "compute_out");
  CHECK(rules[1].constants == std::map<std::string, std::string>{{"BP", "64"}, {"BQ", "32"}});
  for (const char *bad : {"", "1;;2", "BQ", "BQ=", "=3", "k:", "9k:1", "BQ=1,BQ=2", "-1"}) {
    INFO(bad);
    CHECK_THROWS_AS(parseForceRules(bad), rt::Error);
  }
}

TEST_CASE("the environment sets the knobs and refuses values it does not take", "[autotune]") {
  struct Env {
    const char *name;
    explicit Env(const char *n, const char *v) : name(n) { setenv(n, v, 1); }
    ~Env() { unsetenv(name); }
  };
  {
    Env a("TILE_AUTOTUNE", "0"), b("TILE_AUTOTUNE_PRINT", "1"), c("TILE_AUTOTUNE_FORCE", "out:1");
    TuneSettings s = TuneSettings::fromEnvironment();
    CHECK(s.mode == TuneMode::Off);
    CHECK(s.print);
    REQUIRE(s.force.size() == 1);
    CHECK(s.force[0].kernel == "out");
  }
  {
    Env a("TILE_AUTOTUNE", "table");
    CHECK(TuneSettings::fromEnvironment().mode == TuneMode::TableOnly);
  }
  CHECK(TuneSettings::fromEnvironment().mode == TuneMode::Tune);
  for (auto [name, value] : std::vector<std::pair<const char *, const char *>>{
           {"TILE_AUTOTUNE", "2"}, {"TILE_AUTOTUNE_PRINT", "loud"}, {"TILE_AUTOTUNE_FORCE", "x="}}) {
    Env e(name, value);
    try {
      TuneSettings::fromEnvironment();
      FAIL("expected an error for " << name);
    } catch (const rt::Error &err) {
      CHECK(std::string(err.what()).find(name) != std::string::npos);
    }
  }
}

TEST_CASE("a tuning that takes long says which configuration it is timing", "[autotune]") {
  LogLines log;
  TuneSettings s = quiet();
  s.progress = true;
  s.progressAfterMs = 0; // every candidate "after a second"
  Tuner tuner("", s, log.sink());
  ScriptedTimer timer({1.0, 2.0, 1.1});
  tuner.choose(key("k"), candidates(3), timer);
  CHECK(log.contains("tile-cc autotune: k headdim=64: configuration 1/3 (BQ=16)"));
  CHECK(log.contains("configuration 3/3 (BQ=64)"));
  // The default waits a second: a quick tuning prints nothing.
  LogLines quietLog;
  TuneSettings d;
  Tuner fast("", d, quietLog.sink());
  ScriptedTimer t2({1.0, 2.0});
  fast.choose(key("k"), candidates(2), t2);
  CHECK(quietLog.lines->empty());
}
