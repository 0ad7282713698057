// .npy reading and writing (runtime/npy): round trips for every dtype, the bfloat16
// conventions, Fortran order, and a clear message naming the file for each malformed file.
#include "runtime/npy/Npy.h"
#include "runtime/Error.h"
#include "runtime/npy/SmallFloat.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include <unistd.h>

using namespace tile::rt;

namespace {

// A .npy file by hand: magic, version, little-endian header length, header text, data.
std::string makeNpy(const std::string &header, const std::string &data, int major = 1) {
  std::string s("\x93NUMPY", 6);
  s.push_back(char(major));
  s.push_back(0);
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i)
    s.push_back(char((header.size() >> (8 * i)) & 0xff));
  return s + header + data;
}

template <typename T> std::string bytesOf(std::initializer_list<T> values) {
  std::string s;
  for (T v : values)
    s.append(reinterpret_cast<const char *>(&v), sizeof v);
  return s;
}

std::string errorOf(const std::string &bytes, const NpyReadOptions &options = {}) {
  try {
    parseNpy(bytes, "t.npy", options);
  } catch (const Error &e) {
    CHECK(e.kind() == Error::Kind::Io);
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("small floats: rounding to float16 and bfloat16", "[runtime][npy]") {
  CHECK(float16Bits(1.0) == 0x3c00);
  CHECK(float16Bits(-2.0) == 0xc000);
  CHECK(float16Bits(65504.0) == 0x7bff);
  CHECK(float16Bits(65519.99) == 0x7bff);
  CHECK(float16Bits(65520.0) == 0x7c00);              // the tie above the max rounds to inf
  CHECK(float16Bits(std::ldexp(1.0, -24)) == 0x0001); // smallest subnormal
  CHECK(float16Bits(std::ldexp(1.0, -25)) == 0x0000); // tie to even: zero
  CHECK(float16Bits(std::ldexp(3.0, -26)) == 0x0001);
  CHECK(float16Bits(std::ldexp(1023.5, -24)) == 0x0400); // rounds up into the normals
  CHECK(float16Bits(-0.0) == 0x8000);
  CHECK(float16Bits(std::numeric_limits<double>::infinity()) == 0x7c00);
  CHECK(float16Bits(1e300) == 0x7c00);
  CHECK(float16Bits(1e-300) == 0x0000);
  CHECK((float16Bits(std::nan("")) & 0x7e00) == 0x7e00);
  CHECK(float16Bits(1.0 + std::ldexp(1.0, -11)) == 0x3c00); // tie to even
  CHECK(float16Bits(1.0 + std::ldexp(3.0, -11)) == 0x3c02); // tie to even, upwards
  CHECK(fromFloat16Bits(0x0001) == std::ldexp(1.0, -24));
  CHECK(fromFloat16Bits(0x7bff) == 65504.0);
  CHECK(std::isinf(fromFloat16Bits(0xfc00)));
  CHECK(std::isnan(fromFloat16Bits(0x7e00)));

  CHECK(bfloat16Bits(1.0) == 0x3f80);
  CHECK(bfloat16Bits(-1.5) == 0xbfc0);
  CHECK(bfloat16Bits(1.0 + std::ldexp(1.0, -8)) == 0x3f80); // tie to even
  CHECK(bfloat16Bits(1.0 + std::ldexp(3.0, -8)) == 0x3f82);
  // Rounded once from double: through float this would be a tie and round down to 0x3f80.
  CHECK(bfloat16Bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)) == 0x3f81);
  CHECK(bfloat16Bits(3.4e38) == 0x7f80);
  CHECK(bfloat16Bits(std::ldexp(1.0, -133)) == 0x0001);
  CHECK(fromBFloat16Bits(0x3f81) == 1.0 + std::ldexp(1.0, -7));

  // Every pattern survives bits -> double -> bits.
  for (unsigned bits = 0; bits < 0x10000; ++bits) {
    double h = fromFloat16Bits(std::uint16_t(bits)), b = fromBFloat16Bits(std::uint16_t(bits));
    if (!std::isnan(h))
      CHECK(float16Bits(h) == bits);
    if (!std::isnan(b))
      CHECK(bfloat16Bits(b) == bits);
  }

  CHECK(roundToDType(0.1, DType::Float32) == double(0.1f));
  CHECK(roundToDType(0.1, DType::Float64) == 0.1);
  CHECK(roundToDType(1.0 + std::ldexp(1.0, -12), DType::TFloat32) == 1.0);
  CHECK(roundToDType(1.0 + std::ldexp(3.0, -11), DType::TFloat32) == 1.0 + std::ldexp(1.0, -9));
  CHECK(roundToDType(0.1, DType::BFloat16) == fromBFloat16Bits(bfloat16Bits(0.1)));
  CHECK_THROWS_WITH(roundToDType(1.0, DType::Int32),
                    "roundToDType: cannot round to int32 (float16, bfloat16, float32, tfloat32 "
                    "or float64)");
}

TEST_CASE("npy: write then read round trips", "[runtime][npy]") {
  const std::vector<double> values = {0.0, -1.5, 0.1, 3.0, 1e4, -2.75};
  for (DType dtype : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    INFO(dtypeName(dtype));
    std::string bytes = encodeNpy({2, 3}, values.data(), values.size(), dtype);
    // Header padded to 64 bytes and ending in a newline, version 1.0.
    std::size_t headerLength = std::uint8_t(bytes[8]) | (std::uint8_t(bytes[9]) << 8);
    CHECK((10 + headerLength) % 64 == 0);
    CHECK(bytes[6] == 1);
    CHECK(bytes[9 + headerLength] == '\n');
    NpyArray a = parseNpy(bytes, "mem.npy");
    CHECK(a.dtype == dtype);
    CHECK(a.shape == std::vector<std::int64_t>{2, 3});
    CHECK(a.raw.size() == 6 * dtypeSize(dtype));
    REQUIRE(a.values.size() == 6);
    for (std::size_t i = 0; i < 6; ++i)
      CHECK(a.values[i] == roundToDType(values[i], dtype));
  }
  NpyArray bf = parseNpy(encodeNpy({6}, values.data(), 6, DType::BFloat16), "m");
  CHECK(bf.descr == "<V2");
  CHECK(bf.raw[2] == 0xc0); // -1.5 = 0xbfc0, little-endian
  CHECK(bf.raw[3] == 0xbf);

  const std::vector<double> ints = {0, -1, 2147483647, -2147483648.0};
  for (DType dtype : {DType::Int32, DType::Int64}) {
    NpyArray a = parseNpy(encodeNpy({4}, ints.data(), 4, dtype), "ints.npy");
    CHECK(a.values == ints);
  }
  CHECK_THROWS_WITH(encodeNpy({1}, values.data() + 2, 1, DType::Int32),
                    "encodeNpy: value 0.100000 at index 0 is not representable as int32");
  const double big = 2147483648.0;
  CHECK_THROWS_WITH(encodeNpy({1}, &big, 1, DType::Int32), Catch::Contains("is not representable as int32"));
  CHECK_THROWS_WITH(encodeNpy({2, 2}, values.data(), 3, DType::Float32),
                    "encodeNpy: shape (2, 2) has 4 elements but 3 values were given");
  CHECK_THROWS_WITH(encodeNpy({1}, values.data(), 1, DType::Int16), Catch::StartsWith("encodeNpy: cannot write int16"));
  CHECK_THROWS_WITH(encodeNpy({1}, values.data(), 1, DType::Float8E4M3FN),
                    Catch::StartsWith("encodeNpy: cannot write float8_e4m3fn"));

  // The other integer widths and bool, at the ends of their ranges; one past them is refused.
  const std::vector<std::pair<DType, std::vector<double>>> widths = {
      {DType::Int8, {-128, 127, 0, -1}},
      {DType::UInt8, {0, 255, 1, 128}},
      {DType::Bool, {0, 1, 1, 0}},
      {DType::UInt32, {0, 4294967295.0, 7, 2147483648.0}},
      {DType::UInt64, {0, 9007199254740992.0, 18446744073709549568.0, 1}}};
  for (const auto &[dtype, range] : widths) {
    INFO(dtypeName(dtype));
    NpyArray a = parseNpy(encodeNpy({4}, range.data(), 4, dtype), "ints.npy");
    CHECK(a.dtype == dtype);
    CHECK(a.values == range);
  }
  for (const auto &[dtype, outside] : std::vector<std::pair<DType, double>>{{DType::Int8, 128},
                                                                            {DType::Int8, -129},
                                                                            {DType::UInt8, 256},
                                                                            {DType::UInt8, -1},
                                                                            {DType::Bool, 2},
                                                                            {DType::UInt32, 4294967296.0},
                                                                            {DType::UInt64, 18446744073709551616.0}})
    CHECK_THROWS_WITH(encodeNpy({1}, &outside, 1, dtype),
                      Catch::Contains(std::string("is not representable as ") + dtypeName(dtype)));
  // A bool byte other than 0 or 1 reads as True, as NumPy reads it.
  std::string flags = encodeNpy({2}, std::vector<double>{0, 1}.data(), 2, DType::Bool);
  flags.back() = char(0xff);
  CHECK(parseNpy(flags, "flags.npy").values == std::vector<double>{0, 1});
  const double minusOne = -1;
  CHECK(parseNpy(encodeNpy({1}, &minusOne, 1, DType::Int8), "b").descr == "|i1");

  // Scalars, zero-sized and 1-d shapes.
  const double one = 7.0;
  NpyArray scalar = parseNpy(encodeNpy({}, &one, 1, DType::Float32), "s.npy");
  CHECK(scalar.shape.empty());
  CHECK(scalar.values == std::vector<double>{7.0});
  NpyArray empty = parseNpy(encodeNpy({3, 0}, nullptr, 0, DType::Float16), "e.npy");
  CHECK(empty.shape == std::vector<std::int64_t>{3, 0});
  CHECK(empty.values.empty());
  std::string oneD = encodeNpy({5}, values.data(), 5, DType::Float32);
  CHECK(oneD.find("'shape': (5,)") != std::string::npos);
}

TEST_CASE("npy: files on disk", "[runtime][npy]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("tile-npy-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "y.npy").string();
  std::vector<double> values(2 * 3 * 4);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = double(i) - 5.5;
  writeNpy(path, {2, 3, 4}, values, DType::Float32);
  NpyArray a = readNpy(path);
  CHECK(a.shape == std::vector<std::int64_t>{2, 3, 4});
  CHECK(a.values == values);
  CHECK(a.descr == "<f4");

  const std::string missing = (dir / "missing.npy").string();
  CHECK_THROWS_WITH(readNpy(missing), missing + ": cannot open: No such file or directory");
  CHECK_THROWS_WITH(writeNpy((dir / "no" / "such" / "dir.npy").string(), {1}, {1.0}, DType::Float32),
                    Catch::Contains("dir.npy: cannot open for writing"));
  fs::remove_all(dir);
}

TEST_CASE("npy: bfloat16 conventions", "[runtime][npy]") {
  const std::string data = bytesOf<std::uint16_t>({0x3f80, 0xbfc0});
  // '<V2' and '|V2' are bfloat16 (what np.save writes for ml_dtypes.bfloat16).
  for (const char *descr : {"<V2", "|V2"}) {
    NpyArray a = parseNpy(
        makeNpy(std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (2,), }\n", data), "bf.npy");
    CHECK(a.dtype == DType::BFloat16);
    CHECK(a.values == std::vector<double>{1.0, -1.5});
  }
  // '<u2' / '<i2' only on request.
  const std::string u2 = makeNpy("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }\n", data);
  CHECK(errorOf(u2) == "t.npy: unsupported dtype '<u2' (supported: <f2, <f4, <f8, |i1, <i4, <i8, |u1, "
                       "<u4, <u8, |b1, and bfloat16 as <V2); if it holds bfloat16 bit patterns, read it with "
                       "int16AsBFloat16");
  NpyReadOptions asBf16;
  asBf16.int16AsBFloat16 = true;
  CHECK(parseNpy(u2, "u2.npy", asBf16).values == std::vector<double>{1.0, -1.5});
  const std::string i2 = makeNpy("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }\n", data);
  CHECK(parseNpy(i2, "i2.npy", asBf16).dtype == DType::BFloat16);

  NpyWriteOptions asU2;
  asU2.bfloat16AsUInt16 = true;
  const double v[2] = {1.0, -1.5};
  std::string written = encodeNpy({2}, v, 2, DType::BFloat16, asU2);
  CHECK(written.find("'descr': '<u2'") != std::string::npos);
  CHECK(parseNpy(written, "w.npy", asBf16).values == std::vector<double>{1.0, -1.5});
}

TEST_CASE("npy: hand-made headers (versions, quoting, key order, Fortran order)", "[runtime][npy]") {
  const std::string f4 = bytesOf<float>({1, 2, 3, 4, 5, 6});
  // Version 2.0 and 3.0 headers, double quotes, keys in another order, no trailing comma.
  for (int major : {2, 3}) {
    NpyArray a =
        parseNpy(makeNpy("{\"shape\": (2, 3), \"fortran_order\": False, \"descr\": \"<f4\"}  \n", f4, major), "v.npy");
    CHECK(a.shape == std::vector<std::int64_t>{2, 3});
    CHECK(a.values == std::vector<double>{1, 2, 3, 4, 5, 6});
  }
  // Fortran order: the file holds columns; the array comes back in C order.
  NpyArray f = parseNpy(makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n", f4), "f.npy");
  CHECK(f.values == std::vector<double>{1, 3, 5, 2, 4, 6});
  CHECK(f.raw.size() == 24);
  float second;
  std::memcpy(&second, f.raw.data() + 4, 4);
  CHECK(second == 3.0f);
  NpyArray f3 = parseNpy(makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2, 3), }\n", f4), "f3.npy");
  CHECK(f3.values == std::vector<double>{1, 3, 5, 2, 4, 6});

  // Integers and float64/float16 by hand.
  NpyArray i4 = parseNpy(makeNpy("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n",
                                 bytesOf<std::int32_t>({-7, 0, 2147483647})),
                         "i4.npy");
  CHECK(i4.values == std::vector<double>{-7, 0, 2147483647});
  NpyArray i8 = parseNpy(makeNpy("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }\n",
                                 bytesOf<std::int64_t>({-(std::int64_t(1) << 40), 3})),
                         "i8.npy");
  CHECK(i8.values == std::vector<double>{-std::ldexp(1.0, 40), 3});
  NpyArray f8 =
      parseNpy(makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n", bytesOf<double>({0.1})), "f8.npy");
  CHECK(f8.values == std::vector<double>{0.1});
  NpyArray f2 =
      parseNpy(makeNpy("{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }\n", bytesOf<std::uint16_t>({0x3555})),
               "f2.npy");
  CHECK(f2.dtype == DType::Float16);
  CHECK(f2.values[0] == fromFloat16Bits(0x3555));
}

TEST_CASE("npy: malformed files name the file and the problem", "[runtime][npy]") {
  const std::string hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n";
  const std::string data = bytesOf<float>({1, 2});
  CHECK(errorOf(makeNpy(hdr, data)).empty());

  CHECK(errorOf("PK\x03\x04 a zip file") == "t.npy: not a .npy file (bad magic: expected \\x93NUMPY)");
  CHECK(errorOf("") == "t.npy: not a .npy file (bad magic: expected \\x93NUMPY)");
  CHECK(errorOf(std::string("\x93NUMPY", 6)) == "t.npy: truncated header (no version)");
  CHECK(errorOf(makeNpy(hdr, data, 4)) ==
        "t.npy: unsupported .npy format version 4.0 (1.0, 2.0 and 3.0 are supported)");
  CHECK(errorOf(std::string("\x93NUMPY\x01\x00\x50", 9)) == "t.npy: truncated header (no header length)");
  CHECK(errorOf(makeNpy(hdr, data).substr(0, 30)) == "t.npy: truncated header: 58 bytes announced, 20 present");
  CHECK(errorOf(makeNpy(hdr, data.substr(0, 5))) ==
        "t.npy: truncated data: shape (2,) of <f4 needs 8 bytes, the file has 5");
  CHECK(errorOf(makeNpy(hdr, data + "xyz")) == "t.npy: 3 unexpected bytes after the data of shape (2,) of <f4");

  auto withHeader = [&](const std::string &h) { return errorOf(makeNpy(h, data)); };
  // Byte order marks: '|' and '<' alike for one-byte and raw elements, '<' only for the others.
  CHECK(withHeader("{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }") != "");
  CHECK(parseNpy(makeNpy("{'descr': '<i1', 'fortran_order': False, 'shape': (2,), }\n", "\x01\xff"), "t").values ==
        std::vector<double>{1, -1});
  CHECK(withHeader("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }") ==
        "t.npy: unsupported dtype '<c8' (supported: <f2, <f4, <f8, |i1, <i4, <i8, |u1, <u4, <u8, |b1, and "
        "bfloat16 as <V2)");
  CHECK(withHeader("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }") ==
        "t.npy: unsupported dtype '>f4' (supported: <f2, <f4, <f8, |i1, <i4, <i8, |u1, <u4, <u8, |b1, and "
        "bfloat16 as "
        "<V2); big-endian data is not supported");
  CHECK(withHeader("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }") ==
        "t.npy: unsupported dtype: structured arrays are not supported");
  CHECK(withHeader("{'descr': '<f4', 'shape': (2,), }") == "t.npy: malformed header: missing key 'fortran_order'");
  CHECK(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}") ==
        "t.npy: malformed header: unknown key 'x'");
  CHECK_THAT(withHeader("{'descr': '<f4', 'fortran_order': false, 'shape': (2,), }"),
             Catch::StartsWith("t.npy: malformed header: expected True or False at offset 34"));
  CHECK_THAT(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2;), }"),
             Catch::StartsWith("t.npy: malformed header: expected ',' or ')'"));
  CHECK_THAT(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }"),
             Catch::StartsWith("t.npy: malformed header: expected a dimension"));
  CHECK_THAT(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } junk"),
             Catch::StartsWith("t.npy: malformed header: expected the end of the header"));
  CHECK_THAT(withHeader("{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}"),
             Catch::StartsWith("t.npy: malformed header: expected ',' or '}' at offset 17"));
  CHECK(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }") ==
        "t.npy: malformed header: dimension too large");
  CHECK(withHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }") ==
        "t.npy: shape (4294967296, 4294967296) is too large");
}

// Hostile files: sizes and shapes chosen to overflow or to make the reader allocate what the
// file does not hold. Each is an Error naming the file, found before any large allocation.
TEST_CASE("npy: hostile headers and non-regular files", "[runtime][npy]") {
  // A zero-sized Fortran-order array with dimensions whose product overflows int64 (the column
  // strides used to be computed anyway: signed overflow).
  NpyArray z = parseNpy(
      makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (0, 4611686018427387904, 8, 8), }\n", ""), "z.npy");
  CHECK(z.values.empty());
  CHECK(z.numElements() == 0);
  // Shapes whose element count times the item size overflows, or that the file cannot hold.
  CHECK(errorOf(makeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846976, 8), }\n", "")) ==
        "t.npy: shape (1152921504606846976, 8) is too large");
  CHECK(errorOf(makeNpy("{'descr': '<f2', 'fortran_order': False, 'shape': (9223372036854775807,), }\n", "")) ==
        "t.npy: shape (9223372036854775807,) is too large");
  CHECK(errorOf(makeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000, 1000), }\n", "abcd")) ==
        "t.npy: truncated data: shape (1000000000, 1000) of <f4 needs 4000000000000 bytes, the file has 4");
  // A version-2 header length of 4 GiB - 1 in a tiny file.
  std::string v2("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14);
  CHECK(errorOf(v2) == "t.npy: truncated header: 4294967295 bytes announced, 2 present");
  // A long malformed header is quoted only in part.
  std::string longHeader = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), " + std::string(5000, 'x') + "}";
  std::string message = errorOf(makeNpy(longHeader, ""));
  CHECK(message.size() < 400);
  CHECK_THAT(message, Catch::EndsWith("...\""));
  // Not regular files: a directory and a character device (which would never end).
  CHECK_THROWS_WITH(readNpy("/tmp"), "/tmp: is a directory, not a file");
  CHECK_THROWS_WITH(readNpy("/dev/zero"), "/dev/zero: is not a regular file");
}
