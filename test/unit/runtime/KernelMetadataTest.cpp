// Kernel metadata ("tile-kernel/1"): parsing, defaults, round trip, and a clear message for
// each kind of malformed or unsupported file.
#include "runtime/KernelMetadata.h"
#include "runtime/Error.h"
#include "test/unit/runtime/TestKernels.h"

#include <catch2/catch.hpp>

#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace tile::rt;

namespace {

// A valid document as (key, JSON value) pairs; with(key, value) replaces or adds a field,
// without(key) drops it.
struct Doc {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"format", R"("tile-kernel/1")"},
      {"kernel", R"("k_sym")"},
      {"name", R"("k")"},
      {"arch", R"("sm_90a")"},
      {"threads_per_block", "128"},
      {"params", R"([{"name": "x", "kind": "array", "dtype": "float32", "rank": 2,
                      "alignment": 16, "unit_stride_last": true},
                     {"name": "n", "kind": "scalar", "dtype": "int32"}])"},
  };
  Doc with(const std::string &key, const std::string &value) const {
    Doc d = *this;
    for (auto &[k, v] : d.fields)
      if (k == key) {
        v = value;
        return d;
      }
    d.fields.emplace_back(key, value);
    return d;
  }
  Doc without(const std::string &key) const {
    Doc d = *this;
    for (size_t i = 0; i < d.fields.size(); ++i)
      if (d.fields[i].first == key)
        d.fields.erase(d.fields.begin() + long(i));
    return d;
  }
  std::string text() const {
    std::string s = "{";
    for (auto &[k, v] : fields)
      s += (s.size() > 1 ? ", \"" : "\"") + k + "\": " + v;
    return s + "}";
  }
};

// The message parseKernelMetadata throws for `text` (fails the test if it parses).
std::string errorOf(const std::string &text) {
  try {
    parseKernelMetadata(text, "k.json");
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::InvalidMetadata);
    return e.what();
  }
  FAIL("parsed without error: " << text);
  return "";
}

} // namespace

TEST_CASE("metadata: a complete file", "[runtime][metadata]") {
  KernelMetadata md = parseKernelMetadata(R"({
    "format": "tile-kernel/1", "kernel": "scale_rows_TM64", "name": "scale_rows",
    "arch": "sm_90a", "threads_per_block": 128, "dynamic_shared_memory": 65536,
    "cluster": [2, 1, 1], "preferred_cluster_size": 4, "occupancy": 3, "programmatic_dependent_launch": true,
    "constants": {"TM": 64, "EPS": 0.5, "FAST": true, "MODE": "a"},
    "params": [
      {"name": "x", "kind": "array", "dtype": "bfloat16", "rank": 2, "alignment": 16,
       "unit_stride_last": true},
      {"name": "eps", "kind": "scalar", "dtype": "float32"}],
    "tma": [{"param": "x", "box": [64, 64], "element_strides": [1, 1], "swizzle": "128B",
             "l2_promotion": "256B", "oob_fill": "nan"}]})");
  CHECK(md.kernel == "scale_rows_TM64");
  CHECK(md.name == "scale_rows");
  CHECK(md.arch == "sm_90a");
  CHECK(md.threadsPerBlock == 128);
  CHECK(md.dynamicSharedMemory == 65536);
  CHECK(md.cluster == std::array<int, 3>{2, 1, 1});
  CHECK(md.preferredClusterSize == 4);
  CHECK(md.occupancy == 3);
  CHECK(md.programmaticLaunch);
  CHECK(std::get<std::int64_t>(md.constants.at("TM")) == 64);
  CHECK(std::get<double>(md.constants.at("EPS")) == 0.5);
  CHECK(std::get<bool>(md.constants.at("FAST")));
  CHECK(std::get<std::string>(md.constants.at("MODE")) == "a");
  REQUIRE(md.params.size() == 2);
  CHECK(md.params[0].isArray());
  CHECK(md.params[0].dtype == DType::BFloat16);
  CHECK(md.params[0].rank == 2);
  CHECK(md.params[0].alignment == 16);
  CHECK(md.params[0].unitStrideLast);
  CHECK(!md.params[1].isArray());
  CHECK(md.params[1].dtype == DType::Float32);
  CHECK(md.param("eps") == &md.params[1]);
  CHECK(md.param("nope") == nullptr);
  REQUIRE(md.tma.size() == 1);
  CHECK(md.tma[0].paramIndex == 0);
  CHECK(md.tma[0].box == std::vector<std::int64_t>{64, 64});
  CHECK(md.tma[0].swizzle == TmaSwizzle::B128);
  CHECK(md.tma[0].l2Promotion == TmaL2Promotion::B256);
  CHECK(md.tma[0].oobFill == TmaOobFill::NaN);
}

TEST_CASE("metadata: defaults of optional fields", "[runtime][metadata]") {
  KernelMetadata md = parseKernelMetadata(Doc()
                                              .with("params", R"([{"name": "x", "kind": "array",
                                                    "dtype": "float64", "rank": 1}])")
                                              .text());
  CHECK(md.dynamicSharedMemory == 0);
  CHECK(md.cluster == std::array<int, 3>{1, 1, 1});
  CHECK(md.preferredClusterSize == 1);
  CHECK(!md.programmaticLaunch);
  CHECK(md.constants.empty());
  CHECK(md.tma.empty());
  CHECK(md.params[0].alignment == 8); // the element size
  CHECK(!md.params[0].unitStrideLast);

  KernelMetadata t = parseKernelMetadata(Doc().with("tma", R"([{"param": "x", "box": [4, 8]}])").text());
  CHECK(t.tma[0].elementStrides == std::vector<std::int64_t>{1, 1});
  CHECK(t.tma[0].swizzle == TmaSwizzle::None);
  CHECK(t.tma[0].l2Promotion == TmaL2Promotion::None);
  CHECK(t.tma[0].oobFill == TmaOobFill::Zero);
}

TEST_CASE("metadata: toJson parses back to the same metadata", "[runtime][metadata]") {
  for (std::string_view text : {test::kAxpy2dMetadata, test::kTmaCopy2dMetadata}) {
    KernelMetadata md = parseKernelMetadata(text);
    md.constants = {{"TM", std::int64_t(64)}, {"S", 0.25}, {"B", false}, {"M", std::string("x")}};
    std::string json = toJson(md);
    CHECK(json.rfind("{\n  \"format\": \"tile-kernel/1\"", 0) == 0);
    KernelMetadata back = parseKernelMetadata(json);
    CHECK(toJson(back) == json);
    CHECK(back.constants == md.constants);
    md.programmaticLaunch = true;
    CHECK(parseKernelMetadata(toJson(md)).programmaticLaunch);
    md.preferredClusterSize = 8;
    CHECK(parseKernelMetadata(toJson(md)).preferredClusterSize == 8);
  }
}

TEST_CASE("metadata: malformed files are refused with the field and the reason", "[runtime][metadata]") {
  const Doc d;
  const std::string tmaParams = R"([{"name": "x", "kind": "array", "dtype": "float32",
      "rank": 2, "alignment": 16, "unit_stride_last": true},
      {"name": "i", "kind": "array", "dtype": "int32", "rank": 1, "alignment": 16,
       "unit_stride_last": true},
      {"name": "n", "kind": "scalar", "dtype": "int32"}])";
  const Doc t = d.with("params", tmaParams);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "kernel metadata k.json: not valid JSON ("},
      {"[]", "kernel metadata k.json: expected a JSON object, got array"},
      {d.without("format").text(), "missing required field 'format'"},
      {d.with("format", R"("tile-kernel/2")").text(),
       "format: unsupported format 'tile-kernel/2' (this runtime reads tile-kernel/1)"},
      {d.with("format", "1").text(), "format: expected a string, got an integer"},
      {d.with("threads", "128").text(), "k.json: threads: unknown field (expected one of: "},
      {d.without("kernel").text(), "missing required field 'kernel'"},
      {d.with("kernel", R"("")").text(), "kernel: must not be empty"},
      {d.without("name").text(), "missing required field 'name'"},
      {d.with("arch", R"("sm90")").text(), "arch: 'sm90' is not an architecture like sm_90a"},
      {d.with("arch", R"("compute_90")").text(), "arch: 'compute_90' is not an architecture"},
      {d.without("threads_per_block").text(), "missing required field 'threads_per_block'"},
      {d.with("threads_per_block", "0").text(), "threads_per_block: 0 is out of range [1, 1024]"},
      {d.with("threads_per_block", "2048").text(), "threads_per_block: 2048 is out of range"},
      {d.with("threads_per_block", R"("128")").text(), "threads_per_block: expected an integer, got string"},
      {d.with("threads_per_block", "1.5").text(), "threads_per_block: expected an integer, got a number"},
      {d.with("threads_per_block", "18446744073709551615").text(),
       "threads_per_block: 18446744073709551615 is out of range"},
      {d.with("dynamic_shared_memory", "-1").text(), "dynamic_shared_memory: -1 is out of range"},
      {d.with("cluster", "[1, 1]").text(), "cluster: expected 3 entries, got 2"},
      {d.with("cluster", "{}").text(), "cluster: expected an array, got object"},
      {d.with("cluster", "[1, 0, 1]").text(), "cluster[1]: 0 is out of range [1, 16]"},
      {d.with("cluster", "[4, 4, 2]").text(), "cluster: 32 blocks per cluster; at most 16"},
      {d.with("preferred_cluster_size", "3").text(), "preferred_cluster_size: 3 is not a power of two"},
      {d.with("preferred_cluster_size", "32").text(), "preferred_cluster_size: 32 is out of range [1, 16]"},
      {d.with("occupancy", "0").text(), "occupancy: 0 is out of range [1, 32]"},
      {d.with("occupancy", "\"2\"").text(), "occupancy: expected an integer, got string"},
      {d.with("programmatic_dependent_launch", "1").text(), "programmatic_dependent_launch: expected"},
      {d.with("constants", "[]").text(), "constants: expected an object, got array"},
      {d.with("constants", R"({"A": null})").text(), "constants.A: expected a number, bool or string, got null"},
      {d.without("params").text(), "missing required field 'params'"},
      {d.with("params", "{}").text(), "params: expected an array, got object"},
      {d.with("params", "[3]").text(), "params[0]: expected an object, got an integer"},
      {d.with("params", R"([{"kind": "scalar", "dtype": "int32"}])").text(),
       "params[0]: missing required field 'name'"},
      {d.with("params", R"([{"name": "", "kind": "scalar", "dtype": "int32"}])").text(),
       "params[0].name: must not be empty"},
      {d.with("params", R"([{"name": "a", "kind": "tensor", "dtype": "int32"}])").text(),
       "params[0].kind: unknown value 'tensor' (expected one of: array, scalar)"},
      {d.with("params", R"([{"name": "a", "kind": "scalar", "dtype": "f32"}])").text(),
       "params[0].dtype: unknown dtype 'f32' (expected one of: bool_, int8, int16, int32, "
       "int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, tfloat32, float8_e4m3fn, "
       "float8_e5m2)"},
      {d.with("params", R"([{"name": "a", "kind": "scalar"}])").text(), "params[0]: missing required field 'dtype'"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8"}])").text(),
       "params[0]: missing required field 'rank'"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 0}])").text(),
       "params[0].rank: 0 is out of range [1, 8]"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 9}])").text(),
       "params[0].rank: 9 is out of range [1, 8]"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 1,
                             "alignment": 12}])")
           .text(),
       "params[0].alignment: 12 is not a power of two"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 1,
                             "unit_stride_last": "yes"}])")
           .text(),
       "params[0].unit_stride_last: expected true or false, got string"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 1,
                             "shape": [4]}])")
           .text(),
       "params[0].shape: unknown field (expected one of: name, kind, dtype, rank, alignment, "
       "unit_stride_last)"},
      {d.with("params", R"([{"name": "a", "kind": "scalar", "dtype": "int8", "rank": 0}])").text(),
       "params[0].rank: unknown field (expected one of: name, kind, dtype)"},
      {d.with("params", R"([{"name": "a", "kind": "scalar", "dtype": "int8"},
                             {"name": "a", "kind": "scalar", "dtype": "int8"}])")
           .text(),
       "params[1].name: duplicate parameter 'a'"},
      {t.with("tma", "{}").text(), "tma: expected an array, got object"},
      {t.with("tma", R"([{"box": [8, 8]}])").text(), "tma[0]: missing required field 'param'"},
      {t.with("tma", R"([{"param": "z", "box": [8, 8]}])").text(), "tma[0].param: no parameter 'z'"},
      {t.with("tma", R"([{"param": "n", "box": [8]}])").text(), "tma[0].param: 'n' is not an array"},
      {d.with("params", R"([{"name": "x", "kind": "array", "dtype": "float32", "rank": 2}])")
           .with("tma", R"([{"param": "x", "box": [8, 8]}])")
           .text(),
       "tma[0].param: 'x' must declare \"unit_stride_last\": true and \"alignment\" >= 16"},
      {d.with("params", R"([{"name": "x", "kind": "array", "dtype": "float32", "rank": 6,
                             "alignment": 16, "unit_stride_last": true}])")
           .with("tma", R"([{"param": "x", "box": [1, 1, 1, 1, 1, 4]}])")
           .text(),
       "tma[0].param: 'x' has rank 6; TMA supports at most 5"},
      {t.with("tma", R"([{"param": "x"}])").text(), "tma[0]: missing required field 'box'"},
      {t.with("tma", R"([{"param": "x", "box": [8]}])").text(), "tma[0].box: expected 2 entries, got 1"},
      {t.with("tma", R"([{"param": "x", "box": [300, 8]}])").text(), "tma[0].box[0]: 300 is out of range [1, 256]"},
      {t.with("tma", R"([{"param": "x", "box": [8, 3]}])").text(),
       "tma[0].box: the innermost box dimension is 12 bytes; TMA needs a multiple of 16"},
      {t.with("tma", R"([{"param": "x", "box": [8, 8], "element_strides": [1, 9]}])").text(),
       "tma[0].element_strides[1]: 9 is out of range [1, 8]"},
      {t.with("tma", R"([{"param": "x", "box": [8, 8], "swizzle": "16B"}])").text(),
       "tma[0].swizzle: unknown value '16B' (expected one of: none, 32B, 64B, 128B)"},
      {t.with("tma", R"([{"param": "x", "box": [8, 32], "swizzle": "32B"}])").text(),
       "tma[0].box: the innermost box dimension is 128 bytes, more than the 32-byte swizzle "
       "span"},
      {t.with("tma", R"([{"param": "x", "box": [8, 8], "l2_promotion": "512B"}])").text(),
       "tma[0].l2_promotion: unknown value '512B'"},
      {t.with("tma", R"([{"param": "i", "box": [8], "oob_fill": "nan"}])").text(),
       "tma[0].oob_fill: \"nan\" needs a float array, 'i' is int32"},
      {t.with("tma", R"([{"param": "x", "box": [8, 8], "mode": "tile"}])").text(), "tma[0].mode: unknown field"},
  };
  for (auto &[text, expected] : cases) {
    INFO("document: " << text);
    std::string message = errorOf(text);
    CHECK_THAT(message, Catch::Contains(expected));
    CHECK_THAT(message, Catch::StartsWith("kernel metadata k.json: "));
  }
}

// Values the JSON parser itself refuses (1e400 overflows a double) or that are absurd for the
// field: each is an Error naming the field and the file, never an abort or another exception.
TEST_CASE("metadata: out-of-range, wrong-typed and absurd values", "[runtime][metadata]") {
  const Doc d;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {d.with("dynamic_shared_memory", "1e400").text(), "k.json: dynamic_shared_memory: not a valid value ("},
      {d.with("dynamic_shared_memory", "-1e400").text(), "dynamic_shared_memory: not a valid"},
      {d.with("cluster", "[1, 1e999, 1]").text(), "cluster: not a valid value"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 1e400}])").text(),
       "params[].rank: not a valid value"},
      {d.with("constants", R"({"A": 1e400})").text(), "constants.A: not a valid value"},
      {d.with("dynamic_shared_memory", "1e10").text(), "dynamic_shared_memory: expected an integer, got a number"},
      {d.with("dynamic_shared_memory", "2147483648").text(),
       "dynamic_shared_memory: 2147483648 is out of range [0, 1073741824]"},
      {d.with("dynamic_shared_memory", "-9223372036854775808").text(),
       "dynamic_shared_memory: -9223372036854775808 is out of range"},
      {d.with("dynamic_shared_memory", "99999999999999999999999").text(),
       "dynamic_shared_memory: expected an integer, got a number"},
      {d.with("threads_per_block", "true").text(), "threads_per_block: expected an integer, got boolean"},
      {d.with("threads_per_block", "-0.0").text(), "threads_per_block: expected an integer"},
      {d.with("cluster", R"(["1", 1, 1])").text(), "cluster[0]: expected an integer, got string"},
      {d.with("cluster", "[1, 1, 1, 1]").text(), "cluster: expected 3 entries, got 4"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": 1,
                             "alignment": 4294967296}])")
           .text(),
       "params[0].alignment: 4294967296 is out of range"},
      {d.with("params", R"([{"name": "a", "kind": "array", "dtype": "int8", "rank": -1}])").text(),
       "params[0].rank: -1 is out of range"},
      {d.with("params", R"([[1, 2]])").text(), "params[0]: expected an object, got array"},
      {d.with("params", R"([{"name": 7, "kind": "scalar", "dtype": "int8"}])").text(),
       "params[0].name: expected a string, got an integer"},
      {d.with("arch", R"("sm_99999")").text(), "arch: 'sm_99999' is not an architecture"},
      {d.with("arch", R"("sm_")").text(), "arch: 'sm_' is not an architecture"},
      {d.with("arch", R"("sm_-90")").text(), "arch: 'sm_-90' is not an architecture"},
      {d.with("name", "\"\xff\"").text(), "not valid JSON"},
      {std::string(100000, '[') + std::string(100000, ']'), "expected a JSON object, got array"},
  };
  for (auto &[text, expected] : cases) {
    INFO("document: " << text.substr(0, 200));
    std::string message = errorOf(text);
    CHECK_THAT(message, Catch::Contains(expected));
    CHECK_THAT(message, Catch::StartsWith("kernel metadata k.json: "));
  }
  // Larger than any metadata: refused before parsing.
  std::string huge = d.with("name", "\"" + std::string(kMaxMetadataBytes, 'n') + "\"").text();
  CHECK_THAT(errorOf(huge), Catch::Contains("the limit is 16.0 MiB"));
}

TEST_CASE("metadata: an unreadable file", "[runtime][metadata]") {
  auto ioError = [](const std::string &path) -> std::string {
    try {
      readKernelMetadata(path);
    } catch (const Error &e) {
      CHECK(e.kind() == Error::Kind::Io);
      return e.what();
    }
    FAIL("no error reading " << path);
    return "";
  };
  CHECK(ioError("/nonexistent/k.json") ==
        "cannot read kernel metadata /nonexistent/k.json: cannot open: No such file or directory");
  // A directory, a character device, and a file over the size limit (sparse: no disk used).
  CHECK(ioError("/tmp") == "cannot read kernel metadata /tmp: is a directory, not a file");
  CHECK(ioError("/dev/null") == "cannot read kernel metadata /dev/null: is not a regular file");
  char path[] = "/tmp/tile-metadata-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(ftruncate(fd, off_t(kMaxMetadataBytes) + 1) == 0);
  close(fd);
  CHECK_THAT(ioError(path), Catch::Contains("is 16.0 MiB; the limit for this kind of file is 16.0 MiB"));
  unlink(path);
}

TEST_CASE("metadata: which architectures run on which device", "[runtime][metadata]") {
  CHECK(archMismatch("sm_90a", 9, 0, false) == "");
  CHECK(archMismatch("sm_90a", 9, 0, true) == "");
  CHECK(archMismatch("sm_90a", 10, 0, true) ==
        "code for sm_90a runs only on compute capability 9.0, the device has compute "
        "capability 10.0");
  CHECK(archMismatch("sm_80", 8, 6, false) == "");
  CHECK(archMismatch("sm_86", 8, 0, false) ==
        "a cubin for sm_86 runs on compute capability 8.x (x >= 6), the device has compute "
        "capability 8.0");
  CHECK(archMismatch("sm_80", 9, 0, false) != "");
  CHECK(archMismatch("sm_80", 9, 0, true) == "");
  CHECK(archMismatch("sm_90", 8, 9, true) ==
        "PTX for sm_90 needs compute capability 9.0 or newer, the device has compute "
        "capability 8.9");
  CHECK(archMismatch("sm_100a", 10, 0, false) == "");
  CHECK(archMismatch("gfx90a", 9, 0, false) == "invalid architecture 'gfx90a'");
}
