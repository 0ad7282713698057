# The docs/language.md example run by the interpreter on ragged shapes: 5x6 with 4x4 tiles (grid 2x2),
# out = x * s[:, None] rounded to bf16; x[i][j] = 6i + j, s[i] = i. Also after the tile-opt
# pipeline, which must not change the result.
# RUN: tile-run %S/../../kernels/examples/scale_rows.py --kernel scale_rows --const TM=4 --const TN=4 --grid 2,2 --array x=f32:5x6:iota --array s=f32:5:iota --array out=bf16:5x6 --print out | FileCheck %s
# RUN: tile-run %S/../../kernels/examples/scale_rows.py -O2 --kernel scale_rows --const TM=4 --const TN=4 --grid 2,2 --array x=f32:5x6:iota --array s=f32:5:iota --array out=bf16:5x6 --print out | FileCheck %s

# 100x70 with 64x32 tiles (grid 2x3), x stored column-major: row 99 is 99 * (99*70 + j);
# bf16 keeps 8 significant bits (a step of 4096 here): 686070 -> 684032, 686169 -> 688128,
# and the last, 692901 -> 692224.
# RUN: tile-run %S/../../kernels/examples/scale_rows.py --kernel scale_rows --const TM=64 --const TN=32 --grid 2,3 --array x=f32:100x70:iota:colmajor --array s=f32:100:iota --array out=bf16:100x70 --print out | FileCheck %s --check-prefix=BIG

# CHECK: out: bfloat16 (5, 6)
# CHECK-NEXT: {{\[\[}}0, 0, 0, 0, 0, 0],
# CHECK-NEXT:  [6, 7, 8, 9, 10, 11],
# CHECK-NEXT:  [24, 26, 28, 30, 32, 34],
# CHECK-NEXT:  [54, 57, 60, 63, 66, 69],
# CHECK-NEXT:  [96, 100, 104, 108, 112, 116]]

# BIG: out: bfloat16 (100, 70)
# BIG: [684032, 688128, {{.*}}, 692224]]
