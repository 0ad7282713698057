# Mamba-2 decode step: one new token per sequence, the equivalent of mamba_ssm's
# selective_state_update for Mamba-2 (heads, per-head A, groups), launched by SsdDecode.cpp.
#
# Shapes (any strides): state, new_state (b, H, P, N); x, z, y (b, H, P); dt (b, H) or
# (b, H, P); A (H,); dt_bias (H,) or (H, P); D (H,) or (H, P); B, C (b, G, N). Head h reads
# group h / (H / G). Per (b, h, p):
#
#   u = clamp(softplus?(dt + dt_bias))          (softplus(v) = v for v > 20, as mamba_ssm)
#   S = S * exp(u A) + (u B) x                  (the (P, N) state, written to new_state)
#   y = S . C + D x, y *= z sigmoid(z) when z is given
#
# y is computed from the float32 state before it is stored in the state's dtype, as
# mamba_ssm's kernel does. new_state may be state itself (the update in place): each block reads
# its (BP, N) tile of the state once, then writes it; no block reads another's. The executor
# tunes the block size with new_state in scratch memory, so timing never compounds the state.
#
# Bandwidth-bound: the state is read and written once (2 * b * H * P * N elements); x, B, C,
# z and y are small beside it. A block holds BP rows of the state with the whole of N (N is a
# power of two up to 256), so the sum over N stays in the block.
import cuda.tile as ct


@ct.autotune(configs=[dict(BP=16), dict(BP=8), dict(BP=32), dict(BP=4), dict(BP=64)],
             key=["batch", "nheads", "headdim", "dstate"])
@ct.kernel
def decode_step(state, new_state, x, dt, A, dt_bias, B, C, D, z, y, nheads: int, ngroups: int,
                N: ct.Constant[int], BP: ct.Constant[int],
                DT_PER_CHANNEL: ct.Constant[bool] = False,
                HAS_BIAS: ct.Constant[bool] = False, BIAS_PER_CHANNEL: ct.Constant[bool] = False,
                SOFTPLUS: ct.Constant[bool] = False, CLAMP: ct.Constant[bool] = False,
                DT_MIN: ct.Constant[float] = -3.0e38, DT_MAX: ct.Constant[float] = 3.0e38,
                HAS_D: ct.Constant[bool] = False, D_PER_CHANNEL: ct.Constant[bool] = False,
                HAS_Z: ct.Constant[bool] = False):
    pb = ct.bid(0)
    h = ct.bid(1)
    bi = ct.bid(2)
    g = h // (nheads // ngroups)
    # The step size: one per head (a (1, 1) tile) or one per channel (BP, 1).
    if DT_PER_CHANNEL:
        u = ct.reshape(ct.load(dt, (bi, h, pb), (1, 1, BP), padding_mode=ct.PaddingMode.ZERO), (BP, 1))
    else:
        u = ct.reshape(ct.load(dt, (bi, h), (1, 1)), (1, 1))
    u = u.astype(ct.float32)
    if HAS_BIAS:
        if BIAS_PER_CHANNEL:
            bias = ct.reshape(ct.load(dt_bias, (h, pb), (1, BP), padding_mode=ct.PaddingMode.ZERO), (BP, 1))
        else:
            bias = ct.reshape(ct.load(dt_bias, (h,), (1,)), (1, 1))
        u = u + bias.astype(ct.float32)
    if SOFTPLUS:
        u = ct.where(u > 20.0, u, ct.log(1.0 + ct.exp(u)))
    if CLAMP:
        u = ct.minimum(ct.maximum(u, DT_MIN), DT_MAX)
    a = ct.reshape(ct.load(A, (h,), (1,)), (1, 1)).astype(ct.float32)
    decay = ct.exp(u * a)

    xv = ct.reshape(ct.load(x, (bi, h, pb), (1, 1, BP), padding_mode=ct.PaddingMode.ZERO), (BP, 1))
    xv = xv.astype(ct.float32)
    bv = ct.reshape(ct.load(B, (bi, g, 0), (1, 1, N)), (1, N)).astype(ct.float32)
    cv = ct.reshape(ct.load(C, (bi, g, 0), (1, 1, N)), (1, N)).astype(ct.float32)
    s = ct.reshape(ct.load(state, (bi, h, pb, 0), (1, 1, BP, N), padding_mode=ct.PaddingMode.ZERO), (BP, N))
    s = s.astype(ct.float32) * decay + (bv * u) * xv
    ct.store(new_state, (bi, h, pb, 0), ct.reshape(s, (1, 1, BP, N)).astype(new_state.dtype))

    out = ct.sum(s * cv, axis=1)
    xr = ct.reshape(xv, (BP,))
    if HAS_D:
        if D_PER_CHANNEL:
            dv = ct.reshape(ct.load(D, (h, pb), (1, BP), padding_mode=ct.PaddingMode.ZERO), (BP,))
        else:
            dv = ct.load(D, (h,), (1,))
        out = out + dv.astype(ct.float32) * xr
    if HAS_Z:
        zr = ct.reshape(ct.load(z, (bi, h, pb), (1, 1, BP), padding_mode=ct.PaddingMode.ZERO), (BP,))
        zr = zr.astype(ct.float32)
        out = out * zr * ct.sigmoid(zr)
    ct.store(y, (bi, h, pb), ct.reshape(out, (1, 1, BP)).astype(y.dtype))
