# tile-cc --emit=launcher --config all --tuning-table FILE compiles the autotuner's decisions
# (a tile-tune-table/1 table, as the tuner exports it) into the launcher: NAME_tuned_config
# picks the configuration for a device, the key= values and the block count. Decisions tuned
# for another source, constant or configuration list are left out with a warning naming the
# reason, as is a repeat for the same device and key under another driver (the first is kept).
# RUN: rm -rf %t && mkdir %t
# RUN: python3 %S/Inputs/tuning-table.py %s > %t/table.json
# RUN: tile-cc %s --kernel k --const SCALE=4 --arg x=f32:1 --arg out=f32:1 --emit=launcher --config all --ptx-only --tuning-table %t/table.json -o %t/k.h 2> %t/warnings.txt
# RUN: FileCheck %s --check-prefix=WARN < %t/warnings.txt
# RUN: FileCheck %s --check-prefix=HEADER < %t/k.h
# RUN: FileCheck %s --check-prefix=SOURCE < %t/k.cpp
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/k.cpp
#
# A table with no decision for this specialization still gives the function (the fallback).
# RUN: tile-cc %s --kernel k --const SCALE=7 --arg x=f32:1 --arg out=f32:1 --emit=launcher --config all --ptx-only --tuning-table %t/table.json -o %t/none.h 2>&1 | FileCheck %s --check-prefix=NONE
# RUN: FileCheck %s --check-prefix=NONESRC < %t/none.cpp
# RUN: c++ -std=c++17 -fsyntax-only -I %tile_src -I %t %t/none.cpp
#
# Errors: the option needs --emit=launcher and --config all; a table that does not parse is
# named with its field; nothing is written then.
# RUN: not tile-cc %s --kernel k --const SCALE=4 --arg x=f32:1 --arg out=f32:1 --emit=ptx --tuning-table %t/table.json 2>&1 | FileCheck %s --check-prefix=ONLY
# RUN: not tile-cc %s --kernel k --const SCALE=4 --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --config 1 --tuning-table %t/table.json -o %t/e.h 2>&1 | FileCheck %s --check-prefix=ALL
# RUN: echo '{"format": "tile-tune-table/1", "entries": [{"kernel": "k"}]}' > %t/bad.json
# RUN: not tile-cc %s --kernel k --const SCALE=4 --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --config all --tuning-table %t/bad.json -o %t/e.h 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not tile-cc %s --kernel k --const SCALE=4 --arg x=f32:1 --arg out=f32:1 --emit=launcher --ptx-only --config all --tuning-table %t/missing.json -o %t/e.h 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: test ! -e %t/e.h && test ! -e %t/e.cpp
import cuda.tile as ct


@ct.autotune(configs=[dict(BS=64), dict(BS=128)], key=["n"])
@ct.kernel
def k(x, out, SCALE: ct.Constant[int], BS: ct.Constant[int]):
    t = ct.load(x, (ct.bid(0),), (BS,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, (ct.bid(0),), t * SCALE)

# WARN: tile-cc: warning: --tuning-table {{.*}}table.json: decision for k n=1024 blocks~8 left out: an earlier decision of the table for the same device, key= values and block count (another driver or compiler version) is kept: configuration 1
# WARN: tile-cc: warning: --tuning-table {{.*}}table.json: decision for k n=2048 blocks~16 left out: it was tuned for another version of the kernel's source
# WARN: tile-cc: warning: --tuning-table {{.*}}table.json: decision for k n=4096 blocks~32 left out: its winner 'BS=256' is configuration 1 there, which is 'BS=128' here
# WARN: tile-cc: warning: --tuning-table {{.*}}table.json: decision for k n=8192 blocks~64 left out: it was tuned with another value of constant SCALE
# WARN: tile-cc: warning: --tuning-table {{.*}}table.json: decision for k n=9999999999999999999 blocks~8 left out: its value of key= name 'n', '9999999999999999999', is not an integer in [0, 2^63)
# WARN: tile-cc: warning: --tuning-table {{.*}}table.json: decision for k n=1024 blocks~99999999999999999999 left out: its block count '99999999999999999999' is not an integer in [0, 2^63)
# WARN-NOT: other
#
# HEADER: #include <vector>
# HEADER: inline constexpr unsigned k_num_configs = 2;
# HEADER: /// The autotuner's decisions compiled in (tile-cc --tuning-table): 3 decision(s), by device name, the
# HEADER-NEXT: /// key= values (n) and the launch's block count.
# HEADER-NEXT: inline constexpr unsigned k_tuning_key_count = 1;
# HEADER: unsigned k_tuned_config(const ::tile::rt::Device &device, const ::std::vector<::std::int64_t> &key_values,
# HEADER-NEXT: ::std::int64_t blocks, unsigned fallback = 0);
#
# SOURCE: const ::std::int64_t kTuningKeys[] = {1024, 65536, 65536};
# SOURCE-NEXT: const ::tile::rt::EmbeddedTuning kTuning[] = {
# SOURCE-NEXT: {"NVIDIA H200", kTuningKeys + 0, 8, 1},
# SOURCE-NEXT: {"NVIDIA H200", kTuningKeys + 1, 512, 0},
# SOURCE-NEXT: {"NVIDIA A100-SXM4-80GB", kTuningKeys + 2, 512, 0},
# SOURCE-NEXT: };
# SOURCE: unsigned k_tuned_config(const ::tile::rt::Device &device, const ::std::vector<::std::int64_t> &key_values,
# SOURCE-NEXT: ::std::int64_t blocks, unsigned fallback) {
# SOURCE-NEXT: int config = ::tile::rt::lookupEmbeddedTuning(kTuning, sizeof kTuning / sizeof kTuning[0], 1, device.name(), key_values, blocks, "k");
# SOURCE-NEXT: return config < 0 ? fallback : unsigned(config);
#
# NONE: warning: --tuning-table {{.*}}table.json holds no decision for kernel 'k' as specialized here; k_tuned_config returns its fallback
# NONESRC-NOT: kTuning
# NONESRC: int config = ::tile::rt::lookupEmbeddedTuning(nullptr, 0, 1, device.name(), key_values, blocks, "k");
#
# ONLY: tile-cc: error: --tuning-table is only for --emit=launcher
# ALL: tile-cc: error: --tuning-table picks among configurations: it needs --config all
# BAD: tile-cc: error: --tuning-table {{.*}}bad.json: entries[0].summary: missing
# MISSING: tile-cc: error: --tuning-table {{.*}}missing.json: cannot be read
