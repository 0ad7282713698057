// DLPack: dtype mapping both ways and zero-copy conversion of DLTensors.
#include "runtime/DLPack.h"
#include "runtime/Error.h"

#include <catch2/catch.hpp>

using namespace tile::rt;

namespace {
DLDataType type(std::uint8_t code, std::uint8_t bits, std::uint16_t lanes = 1) { return DLDataType{code, bits, lanes}; }
} // namespace

TEST_CASE("dlpack: dtype mapping", "[runtime][dlpack]") {
  CHECK(dtypeFromDLPack(type(kDLInt, 8)) == DType::Int8);
  CHECK(dtypeFromDLPack(type(kDLInt, 16)) == DType::Int16);
  CHECK(dtypeFromDLPack(type(kDLInt, 32)) == DType::Int32);
  CHECK(dtypeFromDLPack(type(kDLInt, 64)) == DType::Int64);
  CHECK(dtypeFromDLPack(type(kDLFloat, 16)) == DType::Float16);
  CHECK(dtypeFromDLPack(type(kDLFloat, 32)) == DType::Float32);
  CHECK(dtypeFromDLPack(type(kDLFloat, 64)) == DType::Float64);
  CHECK(dtypeFromDLPack(type(kDLBfloat, 16)) == DType::BFloat16);
  CHECK(dtypeFromDLPack(type(6, 8)) == DType::Bool);          // kDLBool
  CHECK(dtypeFromDLPack(type(10, 8)) == DType::Float8E4M3FN); // kDLFloat8_e4m3fn
  CHECK(dtypeFromDLPack(type(12, 8)) == DType::Float8E5M2);   // kDLFloat8_e5m2
  CHECK(dtypeFromDLPack(type(kDLUInt, 8)) == DType::UInt8);
  CHECK(dtypeFromDLPack(type(kDLUInt, 16)) == DType::UInt16);
  CHECK(dtypeFromDLPack(type(kDLUInt, 32)) == DType::UInt32);
  CHECK(dtypeFromDLPack(type(kDLUInt, 64)) == DType::UInt64);
  // Not cuTile dtypes: vectors, complex, odd widths, other float8 flavours.
  CHECK(!dtypeFromDLPack(type(kDLUInt, 4)));
  CHECK(!dtypeFromDLPack(type(kDLFloat, 32, 4)));
  CHECK(!dtypeFromDLPack(type(kDLComplex, 64)));
  CHECK(!dtypeFromDLPack(type(kDLInt, 4)));
  CHECK(!dtypeFromDLPack(type(kDLBfloat, 32)));
  CHECK(!dtypeFromDLPack(type(8, 8))); // kDLFloat8_e4m3 (with infinities)
  for (int d = 0; d <= int(DType::UInt64); ++d) {
    auto dtype = DType(d);
    INFO(dtypeName(dtype));
    DLDataType t = dtypeToDLPack(dtype);
    CHECK(t.lanes == 1);
    CHECK(t.bits == 8 * dtypeSize(dtype));
    CHECK(dtypeFromDLPack(t) == (dtype == DType::TFloat32 ? DType::Float32 : dtype));
  }
  CHECK(describeDLPackType(type(kDLUInt, 16)) == "uint16");
  CHECK(describeDLPackType(type(kDLFloat, 32, 4)) == "float32x4");
  CHECK(describeDLPackType(type(6, 8)) == "bool8");
  CHECK(describeDLPackType(type(9, 8)) == "DLPack type code 9 with 8 bits");
}

TEST_CASE("dlpack: tensors become array views without copying", "[runtime][dlpack]") {
  std::int64_t shape[3] = {2, 3, 4}, strides[3] = {1, 2, 6};
  DLTensor t{};
  t.data = reinterpret_cast<void *>(0x7f0000000000);
  t.device = {kDLCUDA, 1};
  t.ndim = 3;
  t.dtype = type(kDLBfloat, 16);
  t.shape = shape;
  t.byte_offset = 256;

  ArrayArg a = arrayFromDLPack(t);
  CHECK(a.data == 0x7f0000000100);
  CHECK(a.dtype == DType::BFloat16);
  CHECK(a.shape == std::vector<std::int64_t>{2, 3, 4});
  CHECK(a.strides.empty()); // NULL strides: row-major contiguous
  CHECK(a.stridesOrContiguous() == std::vector<std::int64_t>{12, 4, 1});
  CHECK(a.numElements() == 24);

  t.strides = strides;
  CHECK(arrayFromDLPack(t, 1).strides == std::vector<std::int64_t>{1, 2, 6});

  DLTensor scalar = t; // a 0-d tensor is a rank-0 array
  scalar.ndim = 0;
  scalar.shape = nullptr;
  CHECK(arrayFromDLPack(scalar).shape.empty());

  DLTensor managed = t; // managed memory: any device id
  managed.device = {kDLCUDAManaged, 0};
  CHECK_NOTHROW(arrayFromDLPack(managed, 1));
}

TEST_CASE("dlpack: tensors that cannot be passed", "[runtime][dlpack]") {
  std::int64_t shape[1] = {8};
  DLTensor t{};
  t.data = reinterpret_cast<void *>(0x1000);
  t.device = {kDLCUDA, 0};
  t.ndim = 1;
  t.dtype = type(kDLFloat, 32);
  t.shape = shape;
  auto errorOf = [](const DLTensor &x, int ordinal) -> std::string {
    try {
      arrayFromDLPack(x, ordinal);
    } catch (const Error &e) {
      CHECK(e.kind() == Error::Kind::InvalidArgument);
      return e.what();
    }
    return "no error";
  };
  DLTensor cpu = t;
  cpu.device = {kDLCPU, 0};
  CHECK(errorOf(cpu, 0) == "DLPack tensor is not in CUDA device memory (device type 1, CPU)");
  DLTensor host = t;
  host.device = {kDLCUDAHost, 0};
  CHECK(errorOf(host, 0) == "DLPack tensor is not in CUDA device memory (device type 3, CUDA host)");
  CHECK(errorOf(t, 2) == "DLPack tensor is on cuda:0, the kernel is loaded on cuda:2");
  DLTensor vec = t;
  vec.dtype = type(kDLFloat, 32, 2);
  CHECK(errorOf(vec, 0) == "DLPack tensor has type float32x2, which is not a cuTile dtype");
  DLTensor noShape = t;
  noShape.shape = nullptr;
  CHECK(errorOf(noShape, 0) == "DLPack tensor has ndim 1 but no shape");
}
