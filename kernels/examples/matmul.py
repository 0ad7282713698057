# A bf16 GEMM, c = a @ b with f32 accumulation, output in c's dtype: the benchmark of the Tensor Core
# path (`tile-bench gemm`). Each block computes one BM x BN tile of c over a K loop of BK steps;
# ragged edges are zero-padded. On sm_90a the products run as wgmma when BM spans whole
# warpgroups (64 rows per warpgroup of 128 threads).
import cuda.tile as ct


@ct.kernel
def matmul(a, b, c, BM: ct.Constant[int], BN: ct.Constant[int], BK: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((BM, BN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, 1, (BM, BK))):
        ta = ct.load(a, (i, k), (BM, BK), padding_mode=ct.PaddingMode.ZERO)
        tb = ct.load(b, (k, j), (BK, BN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, (i, j), acc.astype(c.dtype))
