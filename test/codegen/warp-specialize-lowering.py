# The lowering of a warp-specialized loop (attention's, with @ct.kernel(warp_specialize=True):
# two wgmma products and only TMA copies): the block launches 128 threads more than the
# kernel's 256; thread 0 initializes the loop's full barriers (one arrival) and empty ones (the
# 256 consumer threads), every thread passes barrier 0; the extra warpgroup gives up registers
# and its first thread loops over the iterations, waiting for each stage's release and
# issuing its TMA copies; the consumers raise their registers, release every stage once at the
# loop's start, wait for each iteration's copies, release the previous stage, and
# synchronize among themselves with named barrier 1 only. Without the option (the kernel as
# written) nothing changes, and a remark says how to ask.
# RUN: sed 's/^@ct.kernel$/@ct.kernel(warp_specialize=True)/' %S/../../kernels/examples/attention.py > %t.py
# RUN: tile-cc %t.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=64 --const H=8 --const TILE_M=128 --const TILE_N=64 --emit=ptx | FileCheck %s
# RUN: tile-cc %t.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=64 --const H=8 --const TILE_M=128 --const TILE_N=64 --emit=ptx --remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
# RUN: tile-cc %t.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=64 --const H=8 --const TILE_M=128 --const TILE_N=64 --emit=cubin -o %t.cubin --metadata %t.json && FileCheck %s --check-prefix=META < %t.json
# RUN: tile-cc %t.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=64 --const H=8 --const TILE_M=128 --const TILE_N=64 --emit=ptx --arch sm_80 | FileCheck %s --check-prefix=SM80
# CHECK: .maxntid 384, 1, 1
# CHECK-COUNT-2: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}], 1;
# CHECK: fence.mbarrier_init.release.cluster;
# CHECK-COUNT-2: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}], 256;
# CHECK: fence.mbarrier_init.release.cluster;
# CHECK: bar.sync 0;
# CHECK: setp.{{[a-z]+}}.u32 %p{{[0-9]+}}, %r{{[0-9]+}}, 25{{[56]}};
# The producer: wait for the stage's release, arm its full barrier, copy K and V.
# CHECK: setmaxnreg.dec.sync.aligned.u32 24;
# CHECK: mbarrier.try_wait.parity.shared::cta.b64
# CHECK: mbarrier.arrive.expect_tx.shared::cta.b64
# CHECK: cp.async.bulk.tensor.4d
# CHECK: cp.async.bulk.tensor.4d
# The consumers: no block-wide barrier after this point.
# CHECK: setmaxnreg.inc.sync.aligned.u32 240;
# CHECK-NOT: bar.sync 0;
# CHECK: bar.sync 1, 256;
# CHECK-NOT: bar.sync 0;
# CHECK: mbarrier.arrive.shared::cta.b64
# Ping-pong: warpgroup 1 hands the first turn to warpgroup 0; each product waits for its turn
# (named barrier 2 + warpgroup) and passes it once committed; warpgroup 0 takes the last turn.
# CHECK: bar.arrive 2, 256;
# CHECK-NOT: bar.sync 0;
# CHECK: bar.sync [[OWN:%r[0-9]+]], 256;
# CHECK-NOT: wgmma.mma_async
# CHECK: wgmma.fence.sync.aligned;
# CHECK: wgmma.commit_group.sync.aligned;
# CHECK-NOT: wgmma.wait_group
# CHECK: bar.arrive [[OTHER:%r[0-9]+]], 256;
# CHECK: bar.sync [[OWN]], 256;
# CHECK-NOT: wgmma.mma_async
# CHECK: wgmma.fence.sync.aligned;
# CHECK: wgmma.commit_group.sync.aligned;
# CHECK-NOT: wgmma.wait_group
# CHECK: bar.arrive [[OTHER]], 256;
# CHECK-NOT: bar.sync 0;
# CHECK: bar.sync 2, 256;
# CHECK-NOT: bar.sync 0;
# CHECK: ret;
# REMARK: remark: loop warp-specialized: a producer warpgroup (128 threads more) issues its TMA copies, the kernel's 256 threads wait for them and release each stage (setmaxnreg: 240 registers per consumer thread, 24 per producer thread); its two consumer warpgroups take turns issuing its products (ping-pong)
# RUN: tile-cc %S/../../kernels/examples/attention.py --kernel attention --arg Q=bf16:4:aligned --arg K=bf16:4:aligned --arg V=bf16:4:aligned --arg Out=bf16:4:aligned --arg qk_scale=f32:0 --const TILE_D=64 --const H=8 --const TILE_M=128 --const TILE_N=64 --emit=ptx --remarks -o %t.plain.ptx 2>&1 | FileCheck %s --check-prefix=ASWRITTEN
# RUN: FileCheck %s --check-prefix=PLAIN --input-file %t.plain.ptx
# META: "threads_per_block": 384
# ASWRITTEN: remark: loop not warp-specialized: it admits a producer warpgroup for its copies; @ct.kernel(warp_specialize=True) asks for one
# PLAIN: .maxntid 256, 1, 1
# PLAIN-NOT: setmaxnreg
# PLAIN-NOT: bar.sync 1,
# PLAIN-NOT: bar.arrive
# SM80-NOT: setmaxnreg
# SM80-NOT: mbarrier
# SM80: .maxntid 256, 1, 1
