# tile-bench's command line is checked before it looks for a GPU: strict counts, a known
# --shape, a readable --peer file.
# RUN: not tile-bench ssd --iters 5x 2>&1 | FileCheck %s --check-prefix=ITERS
# RUN: tile-bench ssd --iters 5x; test $? -eq 2
# RUN: not tile-bench ssd --iters 0 2>&1 | FileCheck %s --check-prefix=ITERS0
# RUN: not tile-bench ssd --warmup -1 2>&1 | FileCheck %s --check-prefix=WARMUP
# RUN: not tile-bench ssd --shape nope 2>&1 | FileCheck %s --check-prefix=SHAPE
# RUN: not tile-bench ssd --export-tuning 2>&1 | FileCheck %s --check-prefix=EXPORT
# RUN: tile-bench ssd --shape nope; test $? -eq 2
# RUN: tile-bench ssd --peer %S/does-not-exist.json; test $? -eq 3
# ITERS: tile-bench: error: --iters: '5x' is not an integer
# ITERS0: tile-bench: error: --iters: 0 is out of range [1, 1000000]
# WARMUP: tile-bench: error: --warmup: -1 is out of range [0, 1000000]
# EXPORT: tile-bench: error: --export-tuning needs a value
# SHAPE: tile-bench: error: --shape: no shape 'nope' (shapes: mamba2-2.7b_b4_L4096, {{.*}})
#
# ssd --decode (the decode step) checks its own options the same way, before the GPU: the
# forward's options are refused, and without a GPU it exits 77 (skipped).
# RUN: not tile-bench ssd --decode --batch 1,x 2>&1 | FileCheck %s --check-prefix=DBATCH
# RUN: not tile-bench ssd --decode --batch 0 2>&1 | FileCheck %s --check-prefix=DBATCH0
# RUN: not tile-bench ssd --decode --state-dtype fp8 2>&1 | FileCheck %s --check-prefix=DSTATE
# RUN: not tile-bench ssd --decode --repeats 20000 2>&1 | FileCheck %s --check-prefix=DREPEATS
# RUN: not tile-bench ssd --decode --chunk-size 64 2>&1 | FileCheck %s --check-prefix=DCHUNK
# RUN: not tile-bench ssd --batch 1 --decode --batch 2 2>&1 | FileCheck %s --check-prefix=DTWICE
# RUN: not tile-bench ssd --decode --json 2>&1 | FileCheck %s --check-prefix=DJSON
# RUN: tile-bench ssd --decode --batch 1x; test $? -eq 2
# RUN: bash -c 'tile-bench ssd --decode --batch 1,16,256 --state-dtype bfloat16 --iters 2 --warmup 0 --repeats 1 > %t.decode.out; rc=$?; test $rc -eq 77 -o $rc -eq 0'
# DBATCH: tile-bench: error: --batch: 'x' is not an integer (in '1,x')
# DBATCH0: tile-bench: error: --batch: 0 is out of range [1, 65535]
# DSTATE: tile-bench: error: --state-dtype must be float32 or bfloat16, got 'fp8'
# DREPEATS: tile-bench: error: --repeats: 20000 is out of range [1, 10000]
# DCHUNK: tile-bench: error: unknown option --chunk-size (with --decode: --batch, --state-dtype, --iters, --warmup, --repeats, --json)
# DTWICE: tile-bench: error: --batch is given twice; give it once
# DJSON: tile-bench: error: --json needs a value
