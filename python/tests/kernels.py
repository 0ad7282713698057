# Kernels the Python tests launch. They are compiled by tile-cc from this file's source; Python
# never runs their bodies.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def add(a, b, c, TILE: ConstInt):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(b, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i,), tile=x + y)


@ct.kernel
def axpy(x, y, out, alpha, TILE: ConstInt):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    u = ct.load(y, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=(t * alpha + u).astype(out.dtype))


@ct.kernel
def scale_rows(x, s, out, TM: ConstInt, TN: ConstInt = 16):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    k = ct.load(s, index=(i,), shape=(TM,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i, j), tile=(t * k[:, None]).astype(out.dtype))


@ct.kernel
def row_sum(x, out, TN: ConstInt):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(i,), tile=ct.sum(t, axis=1))


@ct.autotune(configs=[dict(TILE=32), dict(TILE=64)], key=["n"])
@ct.kernel
def tuned_copy(x, out, n, TILE: ConstInt):
    i = ct.bid(0)
    ct.store(out, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO))


def checked_launch(stream, kernel, a, b, c, tile):
    """Host code beside the kernels, in constructs kernels cannot use (raise, with, f-strings,
    try), as NVIDIA's samples have: the compiler sets it aside."""
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} and {b.shape}")
    try:
        with open(__file__) as source:
            source.readline()
    except OSError:
        pass
    ct.launch(stream, (ct.cdiv(a.shape[0], tile),), kernel, (a, b, c, tile))


def make_scale(factor, BLOCK):
    """A factory (as NVIDIA's nvfp4 sample has): the kernel it defines is specialized on its
    arguments, which tile-cc takes as constants from the kernel's closure."""
    offset = BLOCK // 4

    @ct.kernel
    def scale(x, y):
        i = ct.bid(0)
        t = ct.load(x, index=(i,), shape=(BLOCK,), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, index=(i,), tile=t * factor + offset)

    return scale


@ct.kernel
def group_gemm(As, Bs, Cs, TILE_M: ConstInt, TILE_N: ConstInt, TILE_K: ConstInt, num_blocks: ConstInt):
    """TileGym's persistent group GEMM (lists of arrays, one problem after the other): C[g] =
    A[g] @ B[g]^T, the blocks striding over every problem's output tiles."""
    tile_idx = ct.bid(0)
    last_problem_end = 0
    for g in range(len(As)):
        Ai, Bi, Ci = As[g], Bs[g], Cs[g]
        num_m_tiles = ct.num_tiles(Ai, 0, (TILE_M, TILE_K))
        num_k_tiles = ct.num_tiles(Ai, 1, (TILE_M, TILE_K))
        num_n_tiles = ct.num_tiles(Bi, 0, (TILE_N, TILE_K))
        num_tiles = num_m_tiles * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            idx = tile_idx - last_problem_end
            tile_m_idx, tile_n_idx = idx // num_n_tiles, idx % num_n_tiles
            acc = ct.zeros((TILE_M, TILE_N), dtype=ct.float32)
            for kk in range(num_k_tiles):
                ta = ct.load(Ai, (tile_m_idx, kk), shape=(TILE_M, TILE_K), padding_mode=ct.PaddingMode.ZERO)
                tb = ct.load(Bi, (tile_n_idx, kk), shape=(TILE_N, TILE_K), padding_mode=ct.PaddingMode.ZERO)
                acc = ct.mma(ta, ct.transpose(tb), acc)
            ct.store(Ci, (tile_m_idx, tile_n_idx), tile=ct.astype(acc, Ci.dtype))
            tile_idx += num_blocks
        last_problem_end += num_tiles


@ct.kernel
def pick(xs, out, i: int, TILE: ConstInt):
    """Indexes a list by a run-time scalar: a located compile error."""
    ct.store(out, (0,), ct.load(xs[i], (0,), (TILE,)))


@ct.kernel(warp_specialize=True)
def row_sums(x, out, TILE: ConstInt):
    # tile-cc's kernel option: on sm_90a a producer warpgroup would issue the loop's copies;
    # the interpreter runs the body as written.
    i = ct.bid(0)
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    for j in range(ct.cdiv(x.shape[1], TILE)):
        acc += ct.load(x, index=(i, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ct.store(out, index=(i,), tile=ct.sum(acc, axis=1))
