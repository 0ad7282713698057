# tile-ssd: strict options, --check that fails on outputs outside tolerance (NaN inputs),
# outputs written both-or-neither and never onto an input, --out/--inputs errors before the run.
# Inputs are written by Inputs/ssd_inputs.py (no NumPy needed); the interpreter runs them.
# RUN: rm -rf %t && mkdir %t
# RUN: %python %S/Inputs/ssd_inputs.py %t/in 1,40,2,16,1,16
# RUN: %python %S/Inputs/ssd_inputs.py %t/nan 1,40,2,16,1,16 --nan
# RUN: %python %S/Inputs/ssd_inputs.py %t/n0 1,40,2,16,1,0
# Packed sequences (seq_idx.npy): checked against the recurrence that restarts at 13 and 32.
# RUN: %python %S/Inputs/ssd_inputs.py %t/packed 2,40,2,16,1,16 --seq-starts 13,32
# RUN: tile-ssd --interpret --inputs %t/packed --out %t/packed-out --chunk-size 16 --check | FileCheck %s --check-prefix=PACKED
# PACKED: tile-ssd: packed sequences (seq_idx.npy)
# PACKED: tile-ssd: y {{.*}} 0 of 2560 outside
# PACKED: tile-ssd: check passed
# The backward pass (--backward): every gradient against the float64 reference, written all or none.
# RUN: %python %S/Inputs/ssd_inputs.py %t/grad 1,40,2,16,1,16 --gradients --seq-starts 21
# RUN: tile-ssd --backward --interpret --inputs %t/grad --out %t/grad-out --chunk-size 16 --dt-softplus --check | FileCheck %s --check-prefix=BACKWARD
# RUN: ls %t/grad-out | FileCheck %s --check-prefix=BACKWARD-FILES
# RUN: not tile-ssd --backward --interpret --inputs %t/in 2>&1 | FileCheck %s --check-prefix=BACKWARD-NODY
# RUN: not tile-ssd --backward --decode 2>&1 | FileCheck %s --check-prefix=BACKWARD-DECODE
# RUN: not tile-ssd --backward --output-dtype float32 2>&1 | FileCheck %s --check-prefix=BACKWARD-DTYPE
# BACKWARD: tile-ssd: backward {{.*}} ms
# BACKWARD: tile-ssd: wrote 5 gradients to
# BACKWARD: tile-ssd: dx {{.*}} 0 of 1280 outside
# BACKWARD: tile-ssd: dA {{.*}} 0 of 2 outside
# BACKWARD: tile-ssd: check passed
# BACKWARD-FILES: dA.npy
# BACKWARD-FILES: dB.npy
# BACKWARD-FILES: dC.npy
# BACKWARD-FILES: ddt.npy
# BACKWARD-FILES: dx.npy
# BACKWARD-NODY: tile-ssd: error: missing required input {{.*}}/dy.npy
# BACKWARD-DECODE: --decode and --backward are two different runs
# BACKWARD-DTYPE: --output-dtype does not apply to --backward
#
# RUN: not tile-ssd --interpret --chunk-size 16abc 2>&1 | FileCheck %s --check-prefix=CHUNK
# RUN: tile-ssd --interpret --chunk-size 16abc; test $? -eq 2
# RUN: tile-ssd --interpret --chunk-size abc; test $? -eq 2
# RUN: not tile-ssd --interpret --chunk-size 48 2>&1 | FileCheck %s --check-prefix=CHUNK48
# RUN: not tile-ssd --interpret --dt-limit 1,2x 2>&1 | FileCheck %s --check-prefix=LIMITX
# RUN: tile-ssd --interpret --dt-limit 1,2x; test $? -eq 2
# RUN: not tile-ssd --interpret --dt-limit 2,1 2>&1 | FileCheck %s --check-prefix=LIMITORDER
# RUN: not tile-ssd --interpret --dt-limit -1,2 2>&1 | FileCheck %s --check-prefix=LIMITNEG
# RUN: not tile-ssd --interpret --dt-limit nan,1 2>&1 | FileCheck %s --check-prefix=LIMITNAN
#
# The autotuner's knobs: a forced configuration runs (and says so); a rule that matches none
# is an error listing the configurations.
# RUN: env TILE_AUTOTUNE_FORCE="chunk_cumsum:BH=2" tile-ssd --interpret --inputs %t/in --chunk-size 16 | FileCheck %s --check-prefix=FORCED
# RUN: env TILE_AUTOTUNE_FORCE="chunk_cumsum:7" not tile-ssd --interpret --inputs %t/in --chunk-size 16 2>&1 | FileCheck %s --check-prefix=NOMATCH
# RUN: env TILE_AUTOTUNE=maybe not tile-ssd --interpret --inputs %t/in --chunk-size 16 2>&1 | FileCheck %s --check-prefix=BADMODE
# FORCED: tile-ssd: chunk_cumsum   ran BH=2 (config 0, forced)
# NOMATCH: tile-ssd: error: TILE_AUTOTUNE_FORCE rule 'chunk_cumsum:7' matches no configuration of chunk_cumsum nheads=2 Q=16 blocks~2^2 (its configurations: 0: BH=2)
# BADMODE: tile-ssd: error: TILE_AUTOTUNE='maybe': expected 1 (tune), 0 (first configuration) or table
#
# Without --chunk-size the library chooses, and the output says which (64 for float32 data).
# RUN: tile-ssd --interpret --inputs %t/in | FileCheck %s --check-prefix=DEFAULTCHUNK
# DEFAULTCHUNK: tile-ssd: chunk 64 (the library's choice)
#
# A good run passes its check and writes both outputs.
# RUN: tile-ssd --interpret --inputs %t/in --chunk-size 16 --check --out %t/out | FileCheck %s --check-prefix=PASS
# RUN: test -f %t/out/y.npy && test -f %t/out/final_states.npy
# NaN inputs: the check prints the count outside tolerance and exits 1.
# RUN: not tile-ssd --interpret --inputs %t/nan --chunk-size 16 --check | FileCheck %s --check-prefix=NANCHECK
# RUN: tile-ssd --interpret --inputs %t/nan --chunk-size 16 --check; test $? -eq 1
# N = 0 is a shape error naming the dimension, not a division by zero in a kernel.
# RUN: not tile-ssd --interpret --inputs %t/n0 --chunk-size 16 2>&1 | FileCheck %s --check-prefix=N0
#
# An output that is (a symlink to) an input is refused before the run; the input is unchanged.
# RUN: mkdir %t/o1 && ln -s %t/in/x.npy %t/o1/y.npy && cp %t/in/x.npy %t/x.orig
# RUN: not tile-ssd --interpret --inputs %t/in --chunk-size 16 --out %t/o1 2>&1 | FileCheck %s --check-prefix=ONTOINPUT -DT=%t
# RUN: cmp %t/in/x.npy %t/x.orig
# A write that fails (file size limit) leaves both old outputs, and no temporary files (exit 3).
# RUN: mkdir %t/o2 && echo old > %t/o2/y.npy && echo old > %t/o2/final_states.npy
# RUN: bash -c 'ulimit -f 2; tile-ssd --interpret --inputs %t/in --chunk-size 16 --out %t/o2; test $? -eq 3' 2>&1 | FileCheck %s --check-prefix=FSIZE
# RUN: echo old | cmp - %t/o2/y.npy && echo old | cmp - %t/o2/final_states.npy
# RUN: ls -A %t/o2 | FileCheck %s --check-prefix=NOTEMP
# --out problems are reported before the run, with the real cause.
# RUN: touch %t/file
# RUN: not tile-ssd --interpret --inputs %t/in --out %t/file 2>&1 | FileCheck %s --check-prefix=OUTFILE -DT=%t
# RUN: not tile-ssd --interpret --inputs %t/in --out %t/file/sub 2>&1 | FileCheck %s --check-prefix=OUTSUB -DT=%t
# RUN: tile-ssd --interpret --inputs %t/in --out %t/file/sub; test $? -eq 3
# --inputs problems: missing, not a directory, a directory where a file belongs.
# RUN: not tile-ssd --interpret --inputs %t/none 2>&1 | FileCheck %s --check-prefix=INNONE -DT=%t
# RUN: not tile-ssd --interpret --inputs %t/file 2>&1 | FileCheck %s --check-prefix=INFILE -DT=%t
# RUN: mkdir -p %t/dirs/x.npy
# RUN: not tile-ssd --interpret --inputs %t/dirs 2>&1 | FileCheck %s --check-prefix=INDIR -DT=%t
# RUN: tile-ssd --interpret --inputs %t/dirs; test $? -eq 3

# CHUNK: tile-ssd: error: --chunk-size: '16abc' is not an integer
# CHUNK48: tile-ssd: error: --chunk-size: 48 is not a power of two (16, 32, 64, 128 or 256)
# LIMITX: tile-ssd: error: --dt-limit: '2x' is not a number (in '1,2x')
# LIMITORDER: tile-ssd: error: --dt-limit: MIN must not exceed MAX, got '2,1'
# LIMITNEG: tile-ssd: error: --dt-limit: -1 is out of range [0, inf] (in '-1,2')
# LIMITNAN: tile-ssd: error: --dt-limit: 'nan' is not a number (NaN is not allowed here)
# PASS: tile-ssd: chunk 16{{$}}
# PASS: tile-ssd: chunk_cumsum   ran BH=2 (config 0, disabled)
# PASS: tile-ssd: compute_out    ran BN=16 BP=16 BQ=16 HB=1 (config 0, disabled)
# PASS: tile-ssd: wrote
# PASS: tile-ssd: check passed
# NANCHECK: tile-ssd: y {{.*}} 40 of 1280 outside
# NANCHECK: tile-ssd: check FAILED: {{[0-9]+}} of 1792 elements outside tolerance
# N0: tile-ssd: error: dstate (B's dimension 3) is 0; it must be at least 1
# ONTOINPUT: tile-ssd: error: --out '[[T]]/o1/y.npy' is the input '[[T]]/in/x.npy'; refusing to overwrite it
# FSIZE: tile-ssd: error: cannot write '{{.*}}/o2/y.npy': File too large (neither y.npy nor final_states.npy was written)
# NOTEMP-NOT: tmp
# OUTFILE: tile-ssd: error: --out: '[[T]]/file' exists and is not a directory
# OUTSUB: tile-ssd: error: --out: cannot use directory '[[T]]/file/sub': Not a directory
# INNONE: tile-ssd: error: --inputs: cannot open '[[T]]/none': No such file or directory
# INFILE: tile-ssd: error: --inputs: '[[T]]/file' is not a directory
# INDIR: tile-ssd: error: '[[T]]/dirs/x.npy' is a directory, not a .npy input
