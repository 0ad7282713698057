# The example of docs/language.md (kernels/examples/scale_rows.py) compiles unchanged (and is
# the main job's, scripts/main-job.sh).
# RUN: tile-cc %S/../../kernels/examples/scale_rows.py --kernel scale_rows --const TM=64 --const TN=32 --arg x=f32:2 --arg s=f32:1 --arg out=bf16:2 | FileCheck %s
# RUN: tile-cc %S/../../kernels/examples/scale_rows.py --kernel scale_rows --const TM=64 --const TN=32 --arg x=f32:2 --arg s=f32:1 --arg out=bf16:2 | tile-opt -canonicalize -cse | FileCheck %s

# CHECK-LABEL: tile.kernel @scale_rows(%arg0: !tile.array<?x?xf32>, %arg1: !tile.array<?xf32>, %arg2: !tile.array<?x?xbf16>)
# CHECK-SAME: constants = {TM = 64 : i64, TN = 32 : i64}
# CHECK-DAG: %[[I:.*]] = tile.bid 0
# CHECK-DAG: %[[J:.*]] = tile.bid 1
# CHECK: %[[T:.*]] = tile.load %arg0[%[[I]], %[[J]]] padding = zero : !tile.array<?x?xf32>[i32, i32] -> tensor<64x32xf32>
# CHECK: %[[K:.*]] = tile.load %arg1[%[[I]]] : !tile.array<?xf32>[i32] -> tensor<64xf32>
# CHECK: %[[K2:.*]] = tile.reshape %[[K]] : tensor<64xf32> -> tensor<64x1xf32>
# CHECK: %[[KB:.*]] = tile.broadcast %[[K2]] : tensor<64x1xf32> -> tensor<64x32xf32>
# CHECK: %[[P:.*]] = arith.mulf %[[T]], %[[KB]] : tensor<64x32xf32>
# CHECK: %[[O:.*]] = arith.truncf %[[P]] : tensor<64x32xf32> to tensor<64x32xbf16>
# CHECK: tile.store %[[O]], %arg2[%[[I]], %[[J]]] : tensor<64x32xbf16>, !tile.array<?x?xbf16>[i32, i32]
