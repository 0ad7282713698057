// The wgmma matrix descriptor (PTX ISA "Matrix Descriptor Format"): start address,
// leading and stride byte offsets, each in 16-byte units in a 14-bit field, and the swizzle mode.
#include "compiler/codegen/analysis/MmaLayout.h"
#include "compiler/codegen/analysis/StageLayout.h"

#include <catch2/catch.hpp>

using tile::codegen::wgmmaDescriptor;

TEST_CASE("wgmma descriptors pack the address and the byte offsets in 16-byte units", "[codegen][wgmma]") {
  // 0x400 bytes in, cores 128 bytes apart along K, 1024 bytes apart along M (K = 64 bf16).
  CHECK(wgmmaDescriptor(0x400, 128, 1024) == (0x40ull | 8ull << 16 | 64ull << 32));
  CHECK(wgmmaDescriptor(0, 0, 0) == 0);
  // The top of the 227 KiB window still fits the 14-bit field; the swizzle bits stay 0.
  const uint64_t d = wgmmaDescriptor(227 * 1024 - 16, 128, 4096);
  CHECK((d & 0x3FFF) == (227 * 1024 - 16) >> 4);
  CHECK((d >> 16 & 0x3FFF) == 8);
  CHECK((d >> 32 & 0x3FFF) == 256);
  CHECK((d >> 62) == 0);
  // Addresses are masked to their field rather than spilling into the next one.
  CHECK((wgmmaDescriptor(1u << 18, 0, 0) >> 14) == 0);
}

TEST_CASE("wgmma descriptors carry the swizzle mode of swizzled stage buffers", "[codegen][wgmma]") {
  using tile::codegen::stageSwizzleBytes;
  // Rows of 128 bytes or more take the 128-byte swizzle, rows of 64 and 32 their own, 16-byte
  // rows (and lengths that are not a multiple of 128) none.
  CHECK(stageSwizzleBytes(256) == 128);
  CHECK(stageSwizzleBytes(128) == 128);
  CHECK(stageSwizzleBytes(64) == 64);
  CHECK(stageSwizzleBytes(32) == 32);
  CHECK(stageSwizzleBytes(16) == 0);
  CHECK(stageSwizzleBytes(192) == 0);
  // Mode field (bits 62-63): 1 for 128 bytes, 2 for 64, 3 for 32; the other fields unchanged.
  CHECK(wgmmaDescriptor(0x400, 16, 1024, 128) == (0x40ull | 1ull << 16 | 64ull << 32 | 1ull << 62));
  CHECK((wgmmaDescriptor(0, 16, 512, 64) >> 62) == 2);
  CHECK((wgmmaDescriptor(0, 16, 256, 32) >> 62) == 3);
  CHECK((wgmmaDescriptor(0, 16, 256, 0) >> 62) == 0);
}
