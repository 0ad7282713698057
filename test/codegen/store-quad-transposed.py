# A 16-bit Tensor Core accumulator gives each lane 4 bytes of a row per n-tile; stored as it
# is, every warp store writes half of each 32-byte sector. When the tile lies inside the array
# and the array allows 16-byte accesses, four n-tiles are transposed across each quad of lanes
# (two shfl.bfly rounds) and each lane writes 8 columns with one 16-byte store. The 4-byte
# fragment stores stay for tiles that are not aligned for 16 bytes, and the checked element
# stores for ragged ones. 32-bit outputs already fill their sectors: no shuffles.
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=256 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=bf16:2:aligned --num-threads 256 --emit=ptx | FileCheck %s
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=64 --const BN=64 --const BK=32 --arg a=f16:2 --arg b=f16:2 --arg c=f16:2 --arch sm_80 --emit=ptx | FileCheck %s
# RUN: tile-cc %S/../../kernels/examples/matmul.py --kernel matmul --const BM=128 --const BN=128 --const BK=64 --arg a=bf16:2:aligned --arg b=bf16:2:aligned --arg c=f32:2:aligned --emit=ptx | FileCheck %s --check-prefix=F32
# CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
# CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
# CHECK: st.global.v4.b32
# CHECK: st.global.v2.b16
# CHECK: st.global.b16
# F32-NOT: shfl.sync.bfly
# F32: st.global.v2.b32
