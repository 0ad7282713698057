# 8-bit floats (float8_e4m3fn, float8_e5m2): products whose operands wgmma reads K-major (A
# loaded M x K, B the transpose of a tile loaded N x K) run as 8-bit wgmma (k32, twice bf16's
# rate); the others run on f16 operands, converted exactly, with a remark saying why.
# Conversions, padding and arithmetic run on the bits in integer code (Float8.h).
#
# RUN: tile-cc %s --kernel nt --const BM=128 --const BN=128 --const BK=128 --arg a=f8e4m3:2:aligned --arg b=f8e4m3:2:aligned --arg c=f32:2 --emit=ptx -o %t.nt.ptx --remarks 2>&1 | FileCheck %s --check-prefix=NT
# RUN: FileCheck %s --check-prefix=NT-PTX --input-file %t.nt.ptx
# NT: float8.py:[[# @LINE + 55]]:15: remark: product on wgmma.m64n128k32 (f8E4M3FN), A from its copy in shared memory, B from its copy in shared memory
# NT-PTX: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
# NT-PTX-NOT: wgmma.mma_async.sync.aligned.m64n128k16
#
# e5m2, copied with cp.async (the arrays are not known to be aligned):
# RUN: tile-cc %s --kernel nt --const BM=64 --const BN=64 --const BK=64 --arg a=f8e5m2:2 --arg b=f8e5m2:2 --arg c=f32:2 --emit=ptx -o - | FileCheck %s --check-prefix=E5M2
# E5M2: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2
#
# M = 16 (a decode step): f16 mma.sync, and the remark says how to keep 8-bit wgmma.
# RUN: tile-cc %s --kernel nt --const BM=16 --const BN=128 --const BK=64 --arg a=f8e4m3:2 --arg b=f8e4m3:2 --arg c=f32:2 --emit=ptx -o /dev/null --remarks 2>&1 | FileCheck %s --check-prefix=DECODE
# DECODE: remark: the 8-bit float product runs on f16 operands (converted exactly), not as an 8-bit wgmma: wgmma needs whole warpgroups along M (M a multiple of 64 per warpgroup); computing its transpose instead, ct.mma(B^T, A^T) with N = 128 as its M (TileGym's SWAP_AB), runs it as an 8-bit wgmma
#
# B loaded K x N (N-major, as NVIDIA's BatchMatMul sample loads it): f16 wgmma.
# RUN: tile-cc %s --kernel nn --const BM=128 --const BN=128 --const BK=64 --arg a=f8e4m3:2 --arg b=f8e4m3:2 --arg c=f32:2 --emit=ptx -o %t.nn.ptx --remarks 2>&1 | FileCheck %s --check-prefix=NN
# RUN: FileCheck %s --check-prefix=NN-PTX --input-file %t.nn.ptx
# NN: float8.py:[[# @LINE + 50]]:15: remark: the 8-bit float product runs on f16 operands (converted exactly), not as an 8-bit wgmma: wgmma reads 8-bit float operands K-major only: A as an M x K tile, B as the transpose of an N x K one (ct.transpose of a tile loaded N x K)
# NN: remark: product on wgmma.m64n128k16 (f16)
# NN-PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
#
# sm_80 has no 8-bit Tensor Core instruction here: mma.sync on f16.
# RUN: tile-cc %s --arch=sm_80 --kernel nt --const BM=64 --const BN=64 --const BK=64 --arg a=f8e4m3:2 --arg b=f8e4m3:2 --arg c=f32:2 --emit=ptx -o %t.80.ptx --remarks 2>&1 | FileCheck %s --check-prefix=SM80
# RUN: FileCheck %s --check-prefix=SM80-PTX --input-file %t.80.ptx
# SM80: remark: the 8-bit float product runs on f16 operands (converted exactly), not as an 8-bit wgmma: 8-bit float operands run on Tensor Cores through wgmma only (sm_90a)
# SM80-PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
#
# Conversions both ways, NEG_INF padding (e5m2's -inf: 0xFC), arithmetic rounded to e4m3:
# RUN: tile-cc %s --kernel convert --arg x4=f8e4m3:1 --arg x5=f8e5m2:1 --arg z=f32:1 --arg w4=f32:1 --arg w5=f16:1 --arg sq=f8e4m3:1 --arg n4=f8e4m3:1 --arg n5=f8e5m2:1 --emit=gpu -o - | FileCheck %s --check-prefix=CONVERT
# The padding is the bits of e5m2's -inf; the loads yield bytes.
# CONVERT: %[[NEGINF:.*]] = arith.constant -4 : i8
# CONVERT: scf.yield %[[NEGINF]] : i8
# RUN: tile-cc %s --kernel convert --arg x4=f8e4m3:1 --arg x5=f8e5m2:1 --arg z=f32:1 --arg w4=f32:1 --arg w5=f16:1 --arg sq=f8e4m3:1 --arg n4=f8e4m3:1 --arg n5=f8e5m2:1 --emit=ptx -o - | FileCheck %s --check-prefix=CONVERT-PTX
# CONVERT-PTX: .visible .entry convert__tile
# CONVERT-PTX: st.global.b8
#
# Block-scaled fp8 (TileGym's w8a8 GEMM): each block's product starts from zero and is scaled
# into a running sum the loop carries beside it, which the thread count counts too; operands
# gathered by index tiles are written to buffers, B's transpose read K-major.
# RUN: tile-cc %s --kernel block_scaled --const BM=128 --const BN=128 --const BK=128 --arg a=f8e4m3:2 --arg b=f8e4m3:2 --arg s=f32:1 --arg c=f32:2 --emit=ptx -o %t.bs.ptx --remarks 2>&1 | FileCheck %s --check-prefix=SCALED
# RUN: FileCheck %s --check-prefix=SCALED-PTX --input-file %t.bs.ptx
# SCALED: remark: 256 threads per block for kernel 'block_scaled': at 128 this accumulator and the tiles its loop carries beside it (32768 elements together) would take 256 registers per thread (at least 128)
# SCALED: remark: product on wgmma.m64n128k32 (f8E4M3FN), A from a shared-memory buffer, B from a shared-memory buffer
# SCALED-PTX: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
#
# Reductions combine registers of the element type: convert first.
# RUN: not tile-cc %s --kernel row_max --arg x=f8e4m3:2 --arg out=f32:1 --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=REDUCE
# REDUCE: float8.py:[[# @LINE + 54]]:33: error: code generation does not support element type 'f8E4M3FN' yet in tile.reduce (convert the tile with ct.astype first); the interpreter runs it (TILE_INTERPRET=1)
import cuda.tile as ct


@ct.kernel
def nt(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], BK)):
        x = ct.load(a, (ct.bid(0), k), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, (ct.bid(1), k), (BN, BK), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.transpose(y), acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)


@ct.kernel
def nn(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], BK)):
        x = ct.load(a, (ct.bid(0), k), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(b, (k, ct.bid(1)), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, y, acc)
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)


@ct.kernel
def convert(x4, x5, z, w4, w5, sq, n4, n5):
    i = ct.bid(0)
    a = ct.load(x4, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(x5, (i,), (128,), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(w4, (i,), ct.astype(a, ct.float32))
    ct.store(w5, (i,), ct.astype(b, ct.float16))
    ct.store(sq, (i,), a * a)
    f = ct.load(z, (i,), (128,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(n4, (i,), ct.astype(f, ct.float8_e4m3fn))
    ct.store(n5, (i,), ct.astype(f, ct.float8_e5m2))


@ct.kernel
def block_scaled(a, b, s, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    rows = ct.bid(0) * BM + ct.arange(BM, dtype=ct.int32)
    cols = ct.bid(1) * BN + ct.arange(BN, dtype=ct.int32)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.cdiv(a.shape[1], BK)):
        ks = k * BK + ct.arange(BK, dtype=ct.int32)
        x = ct.gather(a, (rows[:, None], ks[None, :]), padding_value=ct.float8_e4m3fn(0.0))
        y = ct.gather(b, (cols[:, None], ks[None, :]), padding_value=ct.float8_e4m3fn(0.0))
        scale = ct.gather(s, k, padding_value=0.0)
        acc = acc + ct.mma(x, ct.permute(y, (1, 0)), ct.zeros((BM, BN), dtype=ct.float32)) * scale
    ct.store(c, (ct.bid(0), ct.bid(1)), acc)


@ct.kernel
def row_max(x, out):
    t = ct.load(x, (ct.bid(0), 0), (4, 64))
    ct.store(out, (ct.bid(0),), ct.max(t, axis=1))
