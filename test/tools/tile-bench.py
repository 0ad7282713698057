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
