// Every kernel the front-end tests compile also compiles to a cubin, through ptxas, for
// sm_80 and sm_90a.
// REQUIRES: ptxas
// RUN: %tile_src/scripts/compile-kernels.sh tile-cc %tile_src sm_80 sm_90a | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: {{[0-9]+}} compiled, 0 failed
