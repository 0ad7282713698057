# tile-cc --emit=launcher with ptxas: a cubin per --arch (ELF images) plus PTX for newer devices,
# by default the newest --arch without its 'a' (sm_90a -> sm_90 PTX); --ptx-arch none leaves
# the PTX out. The generated source compiles against the runtime's headers.
# REQUIRES: ptxas
# RUN: rm -rf %t && mkdir %t
# RUN: env TILE_PTXAS=%ptxas tile-cc %tile_src/kernels/examples/matmul.py --kernel matmul --const BM=64 --const BN=64 --const BK=32 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=launcher --arch sm_90a,sm_80 -o %t/mm.h
# RUN: FileCheck %s --check-prefix=HEADER < %t/mm.h
# RUN: FileCheck %s --check-prefix=SOURCE < %t/mm.cpp
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/mm.cpp
# RUN: env TILE_PTXAS=%ptxas tile-cc %tile_src/kernels/examples/matmul.py --kernel matmul --const BM=64 --const BN=64 --const BK=32 --arg a=bf16:2 --arg b=bf16:2 --arg c=f32:2 --emit=launcher --arch sm_80 --ptx-arch none -o %t/nopt.h
# RUN: FileCheck %s --check-prefix=NOPTX < %t/nopt.cpp
import cuda.tile as ct

# HEADER: //   128 threads per block; constants BK=32 BM=64 BN=64; images: sm_90a cubin, sm_80 cubin, sm_90 PTX
# HEADER: void launch_matmul(const ::tile::rt::Stream &stream, const ::tile::rt::Grid &grid, const ::tile::rt::Arg &a, const ::tile::rt::Arg &b, const ::tile::rt::Arg &c);

# An ELF image: 0x7f 'E' 'L' 'F'.
# SOURCE: // sm_90a cubin, {{[0-9]+}} bytes
# SOURCE-NEXT: const unsigned char kImage0_0[] = {
# SOURCE-NEXT: 127,69,76,70,
# SOURCE: // sm_80 cubin, {{[0-9]+}} bytes
# SOURCE-NEXT: const unsigned char kImage0_1[] = {
# SOURCE-NEXT: 127,69,76,70,
# SOURCE: // sm_90 PTX, {{[0-9]+}} bytes
# SOURCE: {"sm_90a", false, kImage0_0, sizeof kImage0_0, kMetadata0_0},
# SOURCE-NEXT: {"sm_80", false, kImage0_1, sizeof kImage0_1, kMetadata0_1},
# SOURCE-NEXT: {"sm_90", true, kImage0_2, sizeof kImage0_2, kMetadata0_2},
# SOURCE-NEXT: };

# NOPTX: {"sm_80", false, kImage0_0, sizeof kImage0_0, kMetadata0_0},
# NOPTX-NEXT: };
