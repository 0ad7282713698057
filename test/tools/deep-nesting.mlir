// Input nested deeper than the tools accept (1000 brackets) is a located error, never a stack
// overflow: 10000 nested regions, types, attributes and affine parentheses crashed tile-opt and
// tile-run's MLIR parser with SIGSEGV. Input just under the limit is parsed, transformed and
// printed (the work runs on a large stack).
// RUN: python3 -c "n=10000; print('func.func @f() {' + ' scf.execute_region {'*n + ' scf.yield }'*n + ' return }')" > %t.regions.mlir
// RUN: not tile-opt %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: python3 -c "n=100000; print('func.func private @f(%%a: ' + 'tuple<'*n + 'i32' + '>'*n + ')')" > %t.types.mlir
// RUN: not tile-opt %t.types.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: python3 -c "n=10000; print('func.func private @f() attributes {a = ' + '['*n + ']'*n + ', b = ' + '{a = '*n + '1' + '}'*n + '}')" > %t.attrs.mlir
// RUN: not tile-opt %t.attrs.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: python3 -c "n=10000; print('#m = affine_map<(d0) -> (' + '('*n + 'd0' + ')'*n + ')>')" > %t.affine.mlir
// RUN: not tile-opt %t.affine.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: .mlir:{{[0-9]+}}:{{[0-9]+}}: error: input nested more than 1000 levels deep (brackets, regions, types or attributes)
// DEEP-NOT: Stack dump

// 990 nested scf.if around a store: tile-opt runs the whole GPU pipeline, tile-run interprets it.
// RUN: python3 -c "n=990; print('tile.kernel @k(%%x: !tile.array<?xi32>) {\n %%c0 = arith.constant 0 : i32\n %%t = arith.constant 1 : i1\n %%v = arith.constant dense<7> : tensor<8xi32>\n' + ' scf.if %%t {'*n + '\n tile.store %%v, %%x[%%c0] : tensor<8xi32>, !tile.array<?xi32>[i32]\n' + ' }'*n + '\n tile.return\n}')" > %t.kernel.mlir
// RUN: tile-opt %t.kernel.mlir --tile-opt-pipeline | FileCheck %s --check-prefix=OPT
// RUN: tile-run %t.kernel.mlir --array arg0=i32:8 | FileCheck %s --check-prefix=INTERP
// The 990 ifs on a constant true fold away: the store is all that is left.
// OPT: tile.kernel @k
// OPT-NOT: scf.if
// OPT: tile.store
// OPT-NOT: scf.if
// INTERP: [7, 7, 7, 7, 7, 7, 7, 7]

// The same kernel 10000 deep: tile-run refuses it too.
// RUN: python3 -c "n=10000; print('tile.kernel @k(%%x: !tile.array<?xi32>) {\n' + ' scf.if %%t {'*n + ' }'*n + '\n tile.return\n}')" > %t.deep-kernel.mlir
// RUN: not tile-run %t.deep-kernel.mlir --array arg0=i32:8 2>&1 | FileCheck %s --check-prefix=DEEP
