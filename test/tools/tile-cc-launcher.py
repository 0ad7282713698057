# tile-cc --emit=launcher writes NAME.h and NAME.cpp: a typed launch function over embedded
# images. Here PTX only (--ptx-only, no ptxas): every autotune configuration (--config all),
# several --arch, a nested namespace, parameter names that are C++ keywords or collide with the
# launch function's own parameters (renamed with a trailing '_'), scalars by C++ type or
# tile::rt::Scalar; the generated source compiles against the runtime's headers alone.
# RUN: rm -rf %t && mkdir %t
# RUN: tile-cc %s --kernel axpb --arg x=f32:1 --arg out=f32:1 --arg grid=f32:0 --arg h=bf16:0 --arg new=i64:0 --emit=launcher --config all --arch sm_80 --arch sm_90a --ptx-only --launcher-namespace a::b -o %t/axpb.h
# RUN: FileCheck %s --check-prefix=HEADER < %t/axpb.h
# RUN: FileCheck %s --check-prefix=SOURCE < %t/axpb.cpp
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/axpb.cpp
# One specialization, a name of its own, the global namespace, and --ptx-arch.
# RUN: tile-cc %s --kernel axpb --arg x=f32:1 --arg out=f32:1 --arg grid=f32:0 --arg h=bf16:0 --arg new=i64:0 --emit=launcher --config 1 --arch sm_80 --ptx-only --ptx-arch sm_75 --launcher-name axpb128 -o %t/one.h
# RUN: FileCheck %s --check-prefix=ONE < %t/one.h
# RUN: FileCheck %s --check-prefix=ONESRC < %t/one.cpp
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/one.cpp
#
# Errors: exit 2 for the command line, 1 for the kernel; nothing written then.
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher 2>&1 | FileCheck %s --check-prefix=NOOUT
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher -o %t/p.cpp 2>&1 | FileCheck %s --check-prefix=NOOUT
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=ptx --arch sm_80,sm_90a 2>&1 | FileCheck %s --check-prefix=ARCHS
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=ptx --config all 2>&1 | FileCheck %s --check-prefix=ALL
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --launcher-name p 2>&1 | FileCheck %s --check-prefix=ONLY
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --metadata %t/p.json -o %t/p.h 2>&1 | FileCheck %s --check-prefix=META
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --launcher-name 1p -o %t/p.h 2>&1 | FileCheck %s --check-prefix=NAME
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --launcher-namespace a:: -o %t/p.h 2>&1 | FileCheck %s --check-prefix=NS
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --config all -o %t/p.h 2>&1 | FileCheck %s --check-prefix=NOCONFIGS
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --arch sm_80,sm_80 -o %t/p.h 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --arch sm_99 -o %t/p.h 2>&1 | FileCheck %s --check-prefix=BADARCH
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --ptx-arch sm_1 -o %t/p.h 2>&1 | FileCheck %s --check-prefix=BADPTX
# RUN: tile-cc %s --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --launcher-name 1p -o %t/p.h; test $? -eq 2
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --emit=launcher --ptx-only -o %t/p.h 2>&1 | FileCheck %s --check-prefix=COMPILE
# RUN: tile-cc %s --kernel plain --arg x=f32:1 --emit=launcher --ptx-only -o %t/p.h; test $? -eq 1
# RUN: test ! -e %t/p.h && test ! -e %t/p.cpp
# The source file is never the input.
# RUN: cp %s %t/in.cpp
# RUN: not tile-cc %t/in.cpp --kernel plain --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only -o %t/in.h 2>&1 | FileCheck %s --check-prefix=SELF
# RUN: cmp %s %t/in.cpp
import cuda.tile as ct


@ct.autotune(configs=[dict(B=64), dict(B=128, occupancy=2)], key=["new"])
@ct.kernel
def axpb(x, out, grid, h, new, B: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, (i,), (B,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, (i,), t * grid + h.astype(ct.float32))


@ct.kernel
def plain(x, out):
    ct.store(out, (0,), ct.load(x, (0,), (16,)))

# HEADER: // Kernel 'axpb'; per configuration:
# HEADER-NEXT: //   config 0: 128 threads per block; constants B=64; images: sm_80 PTX, sm_90a PTX, sm_90 PTX
# HEADER-NEXT: //   config 1: 128 threads per block; constants B=128; images: sm_80 PTX, sm_90a PTX, sm_90 PTX
# HEADER: #include "runtime/Stream.h"
# HEADER: namespace a::b {
# HEADER: inline constexpr unsigned axpb_num_configs = 2;
# HEADER: const ::tile::rt::KernelMetadata &axpb_metadata(unsigned config);
# HEADER: ::tile::rt::Kernel axpb_kernel(const ::tile::rt::Device &device, unsigned config);
# HEADER: ///   grid_: float32 scalar
# HEADER-NEXT: ///   h: bfloat16 scalar
# HEADER-NEXT: ///   new_: int64 scalar
# HEADER-NEXT: void launch_axpb(unsigned config, const ::tile::rt::Stream &stream, const ::tile::rt::Grid &grid, const ::tile::rt::Arg &x, const ::tile::rt::Arg &out, float grid_, const ::tile::rt::Scalar &h, ::std::int64_t new_);
# HEADER: } // namespace a::b

# SOURCE: #include "axpb.h"
# SOURCE: #include "runtime/Embedded.h"
# SOURCE: // sm_80 PTX, {{[0-9]+}} bytes
# SOURCE: "  \"arch\": \"sm_80\",\n"
# SOURCE: "  \"constants\": {\n"
# SOURCE-NEXT: "    \"B\": 64\n"
# SOURCE: const ::tile::rt::EmbeddedImage kImages0[] = {
# SOURCE-NEXT: {"sm_80", true, kImage0_0, sizeof kImage0_0, kMetadata0_0},
# SOURCE-NEXT: {"sm_90a", true, kImage0_1, sizeof kImage0_1, kMetadata0_1},
# SOURCE-NEXT: {"sm_90", true, kImage0_2, sizeof kImage0_2, kMetadata0_2},
# SOURCE: "    \"B\": 128\n"
# SOURCE: const ::tile::rt::EmbeddedImage kImages1[] = {
# SOURCE: case 1: {
# SOURCE-NEXT: static ::tile::rt::EmbeddedKernel kernel("axpb", kImages1, sizeof kImages1 / sizeof kImages1[0]);
# SOURCE: "axpb: config " + ::std::to_string(config) + " is out of range (" +
# SOURCE: embedded(config).launch(stream, grid, {x, out, grid_, h, new_});

# ONE: //   config 1: 128 threads per block; constants B=128; images: sm_80 PTX, sm_75 PTX
# ONE-NOT: namespace
# ONE: const ::tile::rt::KernelMetadata &axpb128_metadata();
# ONE: void launch_axpb128(const ::tile::rt::Stream &stream, const ::tile::rt::Grid &grid, const ::tile::rt::Arg &x,
# ONESRC: {"sm_80", true, kImage0_0, sizeof kImage0_0, kMetadata0_0},
# ONESRC-NEXT: {"sm_75", true, kImage0_1, sizeof kImage0_1, kMetadata0_1},
# ONESRC-NEXT: };
# ONESRC: static ::tile::rt::EmbeddedKernel kernel("axpb", kImages0, sizeof kImages0 / sizeof kImages0[0]);

# NOOUT: tile-cc: error: --emit=launcher needs -o NAME.h (it writes NAME.h and NAME.cpp)
# ARCHS: tile-cc: error: several --arch are only for --emit=launcher
# ALL: tile-cc: error: --config all is only for --emit=launcher
# ONLY: tile-cc: error: --launcher-name is only for --emit=launcher
# META: tile-cc: error: --metadata is not for --emit=launcher (the metadata is embedded in the source)
# NAME: tile-cc: error: --launcher-name '1p' is not a C++ identifier
# NS: tile-cc: error: --launcher-namespace 'a::' is not a C++ identifier (or names joined by '::')
# NOCONFIGS: tile-cc: error: --config all: kernel 'plain' has no @ct.autotune configurations
# TWICE: tile-cc: error: --arch sm_80 is given twice
# BADARCH: tile-cc: error: --arch: unsupported target 'sm_99'
# BADPTX: tile-cc: error: --ptx-arch: unsupported target 'sm_1'
# COMPILE: tile-cc-launcher.py:{{[0-9]+}}:5: error: kernel 'plain' needs types for arguments: out
# SELF: tile-cc: error: the launcher source (from -o) '{{.*}}in.cpp' is the input file; refusing to overwrite it
