// The !tile.array type: printing, parsing and its errors.
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: tile.kernel @types(%{{.*}}: !tile.array<f32>, %{{.*}}: !tile.array<?xbf16>, %{{.*}}: !tile.array<4x?x8xi8>, %{{.*}}: !tile.array<?x?x?x?x?x?x?x?xf64>, %{{.*}}: !tile.array<?xi1>, %{{.*}}: !tile.array<?xtf32>, %{{.*}}: !tile.array<?xf8E4M3FN>)
tile.kernel @types(%a: !tile.array<f32>, %b: !tile.array<?xbf16>, %c: !tile.array<4x?x8xi8>,
                   %d: !tile.array<?x?x?x?x?x?x?x?xf64>, %e: !tile.array<?xi1>, %f: !tile.array<?xtf32>,
                   %g: !tile.array<?xf8E4M3FN>) {
  tile.return
}

// -----

// expected-error @+1 {{expected 'x' in dimension list}}
tile.kernel @k(%x: !tile.array<?x?>) {
  tile.return
}

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
tile.kernel @k(%x: !tile.array<?xf32) {
  tile.return
}

// -----

// expected-error @+1 {{unsupported array element type 'tensor<4xf32>'}}
tile.kernel @k(%x: !tile.array<?xtensor<4xf32>>) {
  tile.return
}
