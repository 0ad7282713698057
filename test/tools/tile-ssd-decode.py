# tile-ssd --decode: one Mamba-2 decode step on .npy inputs (or the demo), checked against
# referenceDecodeStep; y.npy and state.npy written together and never onto an input; a missing
# input, a wrong shape and options of the forward pass only are errors with the tool's exit codes.
# Inputs are written by Inputs/ssd_inputs.py --decode (no NumPy needed); the interpreter runs them.
# RUN: rm -rf %t && mkdir %t
# RUN: %python %S/Inputs/ssd_inputs.py %t/in 2,4,16,2,16 --decode
# RUN: %python %S/Inputs/ssd_inputs.py %t/fwd 1,40,2,16,1,16
#
# The demo: random inputs of a small shape, checked.
# RUN: tile-ssd --interpret --decode | FileCheck %s --check-prefix=DEMO
# DEMO: tile-ssd: decode demo shape (b, H, P, G, N) = (2, 8, 64, 2, 64), bf16 x, z, B, C, fp32 state
# DEMO: tile-ssd: decode_step    ran BP=16 (config 0, disabled)
# DEMO: tile-ssd: y {{.*}} 0 of 1024 outside
# DEMO: tile-ssd: state {{.*}} 0 of 65536 outside
# DEMO: tile-ssd: check passed
#
# A run from the .npy files (every optional input given) passes its check and writes both
# outputs; the new state (float32 as the input's) and bf16 y have the expected headers.
# RUN: tile-ssd --interpret --decode --inputs %t/in --out %t/out --dt-softplus --dt-limit 0,0.5 --output-dtype bfloat16 --check | FileCheck %s --check-prefix=PASS -DT=%t
# RUN: %python -c "import sys; h = open(sys.argv[1], 'rb').read(128); print(h[10:].decode('latin1'))" %t/out/state.npy | FileCheck %s --check-prefix=STATEHDR
# RUN: %python -c "import sys; h = open(sys.argv[1], 'rb').read(128); print(h[10:].decode('latin1'))" %t/out/y.npy | FileCheck %s --check-prefix=YHDR
# PASS: tile-ssd: wrote [[T]]/out/y.npy and [[T]]/out/state.npy
# PASS: tile-ssd: y {{.*}} 0 of 128 outside
# PASS: tile-ssd: state {{.*}} 0 of 2048 outside
# PASS: tile-ssd: check passed
# STATEHDR: 'descr': '<f4', 'fortran_order': False, 'shape': (2, 4, 16, 16)
# YHDR: 'shape': (2, 4, 16)
#
# The written state feeds the next step (the token's inputs from %t/in).
# RUN: cp -r %t/in %t/next && cp %t/out/state.npy %t/next/state.npy
# RUN: tile-ssd --interpret --decode --inputs %t/next --check | FileCheck %s --check-prefix=NEXT
# NEXT: tile-ssd: check passed
#
# NaN inputs: the check prints the count outside tolerance and exits 1.
# RUN: %python %S/Inputs/ssd_inputs.py %t/nan 2,4,16,2,16 --decode --nan
# RUN: not tile-ssd --interpret --decode --inputs %t/nan --check | FileCheck %s --check-prefix=NANCHECK
# RUN: tile-ssd --interpret --decode --inputs %t/nan --check; test $? -eq 1
# NANCHECK: tile-ssd: y {{.*}} 1 of 128 outside
# NANCHECK: tile-ssd: check FAILED: {{[0-9]+}} of 2176 elements outside tolerance
#
# Errors: a missing input (exit 3), a wrong shape naming the input (exit 1), options of the
# forward pass only (exit 2), an output onto an input (exit 2, refused before the run).
# RUN: cp -r %t/in %t/miss && rm %t/miss/state.npy
# RUN: not tile-ssd --interpret --decode --inputs %t/miss 2>&1 | FileCheck %s --check-prefix=MISSING -DT=%t
# RUN: tile-ssd --interpret --decode --inputs %t/miss; test $? -eq 3
# RUN: cp -r %t/in %t/shape && cp %t/fwd/C.npy %t/shape/C.npy
# RUN: not tile-ssd --interpret --decode --inputs %t/shape 2>&1 | FileCheck %s --check-prefix=SHAPE
# RUN: tile-ssd --interpret --decode --inputs %t/shape; test $? -eq 1
# RUN: not tile-ssd --interpret --decode --chunk-size 16 2>&1 | FileCheck %s --check-prefix=CHUNK
# RUN: tile-ssd --interpret --decode --precision tf32; test $? -eq 2
# RUN: tile-ssd --interpret --decode --decode; test $? -eq 2
# RUN: cp %t/in/state.npy %t/state.orig
# RUN: not tile-ssd --interpret --decode --inputs %t/in --out %t/in 2>&1 | FileCheck %s --check-prefix=ONTOINPUT -DT=%t
# RUN: cmp %t/in/state.npy %t/state.orig
# The forward's inputs are not the decode step's: the first missing one is named.
# RUN: not tile-ssd --interpret --decode --inputs %t/fwd 2>&1 | FileCheck %s --check-prefix=FWD -DT=%t

# MISSING: tile-ssd: error: missing required input [[T]]/miss/state.npy
# SHAPE: tile-ssd: error: ssd_decode_step: C has rank 4 (shape (1, 40, 1, 16)) but expected rank 3: (b, G, N) = (2, 2, 16)
# CHUNK: tile-ssd: error: --chunk-size does not apply to --decode (the decode step has no chunks and no matrix products)
# ONTOINPUT: tile-ssd: error: --out '[[T]]/in/state.npy' is the input '[[T]]/in/state.npy'; refusing to overwrite it
# FWD: tile-ssd: error: missing required input [[T]]/fwd/state.npy
