// tile-lower-to-llvm's bulk tensor stores (a tile.store marked tile.tma by tile-place-tma,
// written by hand here): one staging buffer by default, whose store first waits for the
// previous bulk store's read and takes a barrier before anyone writes (here, in a loop without
// pipeline stages; a pipelined loop's barrier at the top of the iteration does that work when
// the store is its only bulk store: tma-store.py); with
// tma-store-buffers=2 two buffers that the stores alternate by the parity of a counter, one
// barrier per store (the wait before it covers the other buffer).
// RUN: tile-opt %s -tile-lower-to-llvm -canonicalize | FileCheck %s --check-prefix=ONE
// RUN: tile-opt %s -tile-lower-to-llvm="tma-store-buffers=2" -canonicalize | FileCheck %s --check-prefix=TWO
// RUN: not tile-opt %s -tile-lower-to-llvm="tma-store-buffers=3" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: tile-opt %s -tile-lower-to-llvm="tma-store-buffers=2" -debug-only=tile-lower-to-llvm 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// ONE: llvm.func @store_loop__tile(
// ONE-SAME: tile.shared_bytes = 1024 : i64
// ONE: scf.for
// ONE: cp.async.bulk.wait_group.read 0;
// ONE: nvvm.barrier0
// ONE: llvm.store
// ONE: nvvm.fence.proxy
// ONE: cp.async.bulk.wait_group.read 0;
// ONE: nvvm.barrier0
// ONE: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$0, {$2, $3}], [$1];
// ONE: cp.async.bulk.commit_group;
// ONE: cp.async.bulk.wait_group 0;

// The counter (an alloca), its parity picking the buffer 1024 bytes on, one wait and one
// barrier per store.
// TWO: llvm.func @store_loop__tile(
// TWO-SAME: tile.shared_bytes = 2048 : i64
// TWO: llvm.alloca
// TWO: scf.for
// TWO: llvm.load
// TWO: arith.andi
// TWO: llvm.store
// TWO: nvvm.fence.proxy
// TWO-NOT: nvvm.barrier0
// TWO: cp.async.bulk.wait_group.read 0;
// TWO-NOT: cp.async.bulk.wait_group.read
// TWO: nvvm.barrier0
// TWO: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
// TWO: cp.async.bulk.wait_group 0;
// BAD: error: tma-store-buffers 3 must be 1 or 2
// DEBUG: kernel 'store_loop': 2 staging buffer(s) of 1024 bytes for TMA stores at offset 0
tile.kernel @store_loop(%y: !tile.array<?x?xf32> {tile.aligned}, %n: i32)
    attributes {tile.tma_maps = [{arg = 0 : i64, box = array<i64: 16, 16>, nan_fill = false, swizzle = 64 : i64}],
                tile.tma_store_bytes = 1024 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = arith.constant dense<1.0> : tensor<16x16xf32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    tile.store %t, %y[%i, %c0] {tile.tma = 0 : i64} : tensor<16x16xf32>, !tile.array<?x?xf32>[i32, i32]
  }
  tile.return
}
