// Exported tuning tables import into a fresh tuner (an application shipping its choices),
// bad tables fail with the file and field named, and TILE_AUTOTUNE=table never times.
#include "runtime/Error.h"
#include "test/unit/autotune/AutotuneTestUtil.h"

using namespace tile;
using namespace tile::jit;
using namespace tile::jit::test;

namespace {

std::string errorOf(const std::string &text) {
  try {
    parseTuneTable(text, "t.json");
  } catch (const rt::Error &e) {
    CHECK(e.kind() == rt::Error::Kind::InvalidMetadata);
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("an exported table imports into a fresh tuner, which times nothing", "[autotune]") {
  const std::string dir = tempDir(), table = dir + "/table.json";
  {
    Tuner tuner(dir + "/cache", quiet());
    ScriptedTimer a({3.0, 1.0, 2.0}), b({1.0, 2.0});
    tuner.choose(key("k"), candidates(3), a);
    tuner.choose(key("j", "128"), candidates(2), b);
    tuner.exportTable(table);
  }
  {
    // A second process with the same cache exports the decisions it finds on disk.
    Tuner reader(dir + "/cache", quiet());
    CHECK(reader.records().size() == 2);
  }
  std::string text = readFile(table);
  CHECK(text.find("\"format\": \"tile-tune-table/1\"") != std::string::npos);
  TuneSettings s = quiet();
  s.mode = TuneMode::TableOnly;
  s.table = table; // TILE_AUTOTUNE_TABLE
  LogLines log;
  Tuner production("", s, log.sink());
  ScriptedTimer never({1.0, 1.0, 1.0});
  TuneDecision d = production.choose(key("k"), candidates(3), never);
  CHECK(d.source == TuneSource::Imported);
  CHECK(d.winner == 1);
  CHECK(d.msOf(0) == Approx(3.0));
  CHECK(production.choose(key("j", "128"), candidates(2), never).winner == 0);
  // A key the table lacks: the first candidate, said once, never timed.
  CHECK(production.choose(key("k", "256"), candidates(3), never).source == TuneSource::NotInTable);
  production.choose(key("k", "256"), candidates(3), never);
  CHECK(log.lines->size() == 1);
  CHECK(log.contains("TILE_AUTOTUNE=table never times"));
  CHECK(never.prepares == 0);
  CHECK(production.stats().importHits == 2);
  // Round trip: the re-exported table is the same.
  production.exportTable(dir + "/again.json");
  CHECK(readFile(dir + "/again.json") == text);
}

TEST_CASE("bad tuning tables name the file and the field", "[autotune]") {
  Tuner t("", quiet());
  ScriptedTimer timer({1.0, 2.0});
  t.choose(key("k"), candidates(2), timer);
  const std::string good = tableToJson(t.records());
  REQUIRE(parseTuneTable(good, "t.json").size() == 1);
  auto with = [&](const std::string &from, const std::string &to) {
    std::string s = good;
    size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
  };
  CHECK(errorOf("{").find("t.json: not valid JSON") == 0);
  CHECK(errorOf("[]") == "t.json: (top level): expected an object");
  CHECK(errorOf("{}") == "t.json: format: missing");
  CHECK(errorOf(with("tile-tune-table/1", "tile-tune-table/2")) ==
        "t.json: format: 'tile-tune-table/2' is not supported (this build reads tile-tune-table/1)");
  CHECK(errorOf(with("\"entries\"", "\"entry\"")) == "t.json: entries: missing");
  CHECK(errorOf(with("\"winner\": 0", "\"winner\": -1")) ==
        "t.json: entries[0].winner: expected an integer from 0 to 1000000");
  CHECK(errorOf(with("\"winner\": 0", "\"winner\": \"0\"")) ==
        "t.json: entries[0].winner: expected an integer from 0 to 1000000");
  CHECK(errorOf(with("\"status\": \"timed\"", "\"status\": \"fast\"")) ==
        "t.json: entries[0].rows[0].status: 'fast' is not timed, discarded or failed");
  CHECK(errorOf(with("\"kernel\": \"k\"", "\"kernel\": \"q\"")) ==
        "t.json: entries[0].key: does not start with the line kernel=q");
  CHECK(errorOf(with("\"ms\": 1.0", "\"ms\": null")) == "t.json: entries[0].rows[0].ms: expected a finite number >= 0");
  // The JSON reader refuses a number past the double range (never an infinite time).
  CHECK(errorOf(with("\"ms\": 1.0", "\"ms\": 1e999")).find("t.json: not valid JSON") == 0);
  // A missing file is an Io error naming it.
  try {
    t.importTable("/nonexistent/table.json");
    FAIL("expected an error");
  } catch (const rt::Error &e) {
    CHECK(e.kind() == rt::Error::Kind::Io);
    CHECK(std::string(e.what()).find("cannot read tuning table /nonexistent/table.json") == 0);
  }
  // An imported winner that is not among this build's candidates is not trusted: re-tuned.
  std::vector<TuneRecord> records = parseTuneTable(good, "t.json");
  records[0].label = "BQ=99";
  LogLines log;
  Tuner other("", quiet(), log.sink());
  other.importRecords(records);
  ScriptedTimer t3({1.0, 2.0});
  CHECK(other.choose(key("k"), candidates(2), t3).source == TuneSource::Tuned);
  CHECK(log.contains("is not among the candidates"));
}

TEST_CASE("a key's text reads back as its fields", "[autotune]") {
  TuneKey key = TuneKey::make("k", {{"source", "abc"}, {"const.NAME", "a=b\nc\\d"}, {"blocks", "8"}}, "k");
  auto fields = tuneKeyFields(key.text);
  REQUIRE(fields.size() == 4);
  CHECK(fields[0] == std::pair<std::string, std::string>{"kernel", "k"});
  CHECK(fields[1] == std::pair<std::string, std::string>{"source", "abc"});
  // The first '=' splits; escaped newlines and backslashes come back.
  CHECK(fields[2] == std::pair<std::string, std::string>{"const.NAME", "a=b\nc\\d"});
  CHECK(fields[3] == std::pair<std::string, std::string>{"blocks", "8"});
  // Lines that are no fields are skipped.
  CHECK(tuneKeyFields("junk\n=x\nname=\n").size() == 1);
  CHECK(tuneSourceDigest("src") == tuneSourceDigest("src"));
  CHECK(tuneSourceDigest("src").size() == 32);
  CHECK(tuneSourceDigest("src") != tuneSourceDigest("src2"));
}

TEST_CASE("tuning keys bucket the key= values and name everything else", "[autotune]") {
  CHECK(bucketPow2(0) == 0);
  CHECK(bucketPow2(1) == 1);
  CHECK(bucketPow2(48) == 64);
  CHECK(bucketPow2(64) == 64);
  CHECK(bucketPow2(65) == 128);
  TuneKeyInputs in;
  in.request.kernel = "compute_out";
  in.request.source = "src";
  in.request.constants = {{"Q", int64_t(64)}, {"BQ", int64_t(32)}};
  in.request.args = {{"x", {"bfloat16", 4}}};
  in.keyNames = {"headdim"};
  in.values = {{"headdim", 48}, {"seqlen", 1000}};
  in.blocks = 1000;
  in.device = "NVIDIA H200";
  in.driver = "13000";
  in.target = "sm_90a/128/O2";
  std::vector<TuneCandidate> c = candidates(2);
  const TuneKey k = makeTuneKey(in, c);
  CHECK(k.summary == "compute_out headdim=48 blocks~2^10");
  CHECK(k.text.find("key.headdim=64\n") != std::string::npos);
  CHECK(k.text.find("const.Q=") != std::string::npos);
  CHECK(k.text.find("device=NVIDIA H200\n") != std::string::npos);
  CHECK(k.text.find("compiler=") != std::string::npos);
  CHECK(k.digest.size() == 32);
  auto changed = [&](auto edit) {
    TuneKeyInputs copy = in;
    edit(copy);
    return makeTuneKey(copy, c).digest != k.digest;
  };
  // The same bucket, a constant the candidates set and a name outside key= change nothing...
  CHECK_FALSE(changed([](TuneKeyInputs &i) { i.values["headdim"] = 64; }));
  CHECK_FALSE(changed([](TuneKeyInputs &i) { i.request.constants["BQ"] = int64_t(64); }));
  CHECK_FALSE(changed([](TuneKeyInputs &i) { i.values["seqlen"] = 2000; }));
  CHECK_FALSE(changed([](TuneKeyInputs &i) { i.blocks = 1024; }));
  // ...everything else does.
  CHECK(changed([](TuneKeyInputs &i) { i.values["headdim"] = 65; }));
  CHECK(changed([](TuneKeyInputs &i) { i.blocks = 1025; }));
  CHECK(changed([](TuneKeyInputs &i) { i.request.constants["Q"] = int64_t(128); }));
  CHECK(changed([](TuneKeyInputs &i) { i.request.args["x"].dtype = "float16"; }));
  CHECK(changed([](TuneKeyInputs &i) { i.request.source = "src2"; }));
  CHECK(changed([](TuneKeyInputs &i) { i.device = "NVIDIA A100"; }));
  CHECK(changed([](TuneKeyInputs &i) { i.driver = "12080"; }));
  CHECK(changed([](TuneKeyInputs &i) { i.target = "sm_80/128/O2"; }));
  CHECK(makeTuneKey(in, candidates(3)).digest != k.digest);
  TuneKeyInputs missing = in;
  missing.keyNames.push_back("dstate");
  CHECK_THROWS_WITH(makeTuneKey(missing, c), Catch::Contains("the key= name 'dstate' has no value"));
}
