"""tilecc.mamba2.mamba_chunk_scan_combined on NumPy arrays (the interpreter runs tile-cc's
kernels), against the float64 step-by-step reference."""

import numpy as np
import pytest

import tilecc
from tilecc.mamba2 import mamba_chunk_scan_combined
from ssd_reference import ssd_reference


def problem(batch=1, length=50, heads=4, headdim=16, groups=2, dstate=16, dtype=np.float32, seed=0, D_per_dim=False,
            with_z=True, with_initial=False):
    rng = np.random.default_rng(seed)
    p = {
        "x": rng.standard_normal((batch, length, heads, headdim)).astype(dtype),
        # Raw dt before softplus: steps of about 0.01 to 0.2, as trained models have.
        "dt": rng.uniform(-4.0, -1.5, (batch, length, heads)).astype(dtype),
        "A": -np.exp(rng.uniform(-1.0, 1.0, heads)).astype(np.float32),
        "B": rng.standard_normal((batch, length, groups, dstate)).astype(dtype),
        "C": rng.standard_normal((batch, length, groups, dstate)).astype(dtype),
        "D": rng.standard_normal((heads, headdim) if D_per_dim else heads).astype(np.float32),
        "dt_bias": rng.uniform(-0.5, 0.5, heads).astype(np.float32),
    }
    if with_z:
        p["z"] = rng.standard_normal((batch, length, heads, headdim)).astype(dtype)
    if with_initial:
        p["initial_states"] = rng.standard_normal((batch, heads, headdim, dstate)).astype(np.float32)
    return p


def check_close(got, want, tolerance):
    scale = np.sqrt(np.mean(want ** 2))
    error = np.max(np.abs(got.astype(np.float64) - want)) / scale
    assert error < tolerance, f"max abs error {error:.3g} of RMS (tolerance {tolerance})"


@pytest.mark.parametrize("chunk_size", [16, 32, None])
def test_matches_the_reference(chunk_size):
    p = problem()
    y, final = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], chunk_size, D=p["D"], z=p["z"],
                                         dt_bias=p["dt_bias"], dt_softplus=True, return_final_states=True)
    want_y, want_final = ssd_reference(**p, dt_softplus=True)
    assert y.shape == p["x"].shape and y.dtype == np.float32
    assert final.shape == (1, 4, 16, 16) and final.dtype == np.float32
    check_close(y, want_y, 1e-4)
    check_close(final, want_final, 1e-4)


def test_initial_states_per_dim_D_no_z_and_a_dt_limit():
    p = problem(batch=2, length=37, heads=6, groups=3, D_per_dim=True, with_z=False, with_initial=True, seed=1)
    y, final = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], 16, D=p["D"],
                                         dt_bias=p["dt_bias"], initial_states=p["initial_states"], dt_softplus=True,
                                         dt_limit=(0.02, 0.1), return_final_states=True)
    want_y, want_final = ssd_reference(**p, dt_softplus=True, dt_limit=(0.02, 0.1))
    check_close(y, want_y, 1e-4)
    check_close(final, want_final, 1e-4)


def test_float16_data_gives_float16_y():
    p = problem(dtype=np.float16, seed=2)
    y = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], 32, D=p["D"], z=p["z"],
                                  dt_bias=p["dt_bias"], dt_softplus=True)
    assert y.dtype == np.float16
    check_close(y, ssd_reference(**p, dt_softplus=True)[0], 2e-2)


def test_strided_views():
    p = problem(seed=3)
    # x as a view into a wider array (every other head dimension), B with its last two axes swapped in memory.
    wide = np.repeat(p["x"], 2, axis=3)
    x = wide[..., ::2]
    B = np.ascontiguousarray(np.swapaxes(p["B"], 2, 3)).swapaxes(2, 3)
    assert not x.flags.c_contiguous and not B.flags.c_contiguous
    y = mamba_chunk_scan_combined(x, p["dt"], p["A"], B, p["C"], 16, D=p["D"], z=p["z"], dt_bias=p["dt_bias"],
                                  dt_softplus=True)
    check_close(y, ssd_reference(**p, dt_softplus=True)[0], 1e-4)


def test_without_softplus_negative_dt_is_clamped_to_the_limit():
    p = problem(seed=4, with_z=False)
    y = mamba_chunk_scan_combined(p["x"], np.abs(p["dt"]) * 0.02 - 0.01, p["A"], p["B"], p["C"], 16)
    want = ssd_reference(p["x"], np.abs(p["dt"]) * 0.02 - 0.01, p["A"], p["B"], p["C"])[0]
    check_close(y, want, 1e-4)


def test_packed_sequences_equal_each_sequence_alone():
    # Three sequences packed into one row (boundaries inside a chunk and on a chunk's first
    # position), the initial state sequence 0's: each sequence's y is what it gives alone.
    p = problem(length=50, with_initial=True, seed=5)
    starts = [0, 13, 32, 50]
    seq_idx = np.zeros((1, 50), np.int32)
    for s in range(3):
        seq_idx[0, starts[s]:starts[s + 1]] = s
    kw = dict(D=p["D"], dt_bias=p["dt_bias"], dt_softplus=True)
    y, final = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], 16, z=p["z"],
                                         initial_states=p["initial_states"], seq_idx=seq_idx,
                                         return_final_states=True, **kw)
    for s in range(3):
        part = slice(starts[s], starts[s + 1])
        alone, alone_final = mamba_chunk_scan_combined(
            p["x"][:, part], p["dt"][:, part], p["A"], p["B"][:, part], p["C"][:, part], 16, z=p["z"][:, part],
            initial_states=p["initial_states"] if s == 0 else None, return_final_states=True, **kw)
        check_close(y[:, part], alone.astype(np.float64), 1e-4)
    check_close(final, alone_final.astype(np.float64), 1e-4)
    # Without seq_idx the sequences run into each other.
    whole = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], 16, z=p["z"],
                                      initial_states=p["initial_states"], **kw)
    assert np.max(np.abs(whole[:, 13:] - y[:, 13:])) > 1e-2


def test_seq_idx_must_be_int32_of_shape_b_t():
    p = problem()
    args = (p["x"], p["dt"], p["A"], p["B"], p["C"], 16)
    with pytest.raises(tilecc.TileError, match="seq_idx has dtype int64; expected int32"):
        mamba_chunk_scan_combined(*args, seq_idx=np.zeros((1, 50), np.int64))
    with pytest.raises(tilecc.TileError, match="seq_idx has shape"):
        mamba_chunk_scan_combined(*args, seq_idx=np.zeros((1, 49), np.int32))


def test_varlen_states_are_each_sequence_final_state():
    p = problem(length=50, with_initial=True, seed=6)
    cu_seqlens = np.array([0, 13, 13, 32, 50], np.int32)  # the second sequence is empty
    seq_idx = np.repeat(np.arange(4, dtype=np.int32), np.diff(cu_seqlens))[None, :]
    kw = dict(D=p["D"], z=p["z"], dt_bias=p["dt_bias"], dt_softplus=True)
    y, final, varlen = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], 16,
                                                 initial_states=p["initial_states"], seq_idx=seq_idx,
                                                 cu_seqlens=cu_seqlens, return_final_states=True,
                                                 return_varlen_states=True, **kw)
    assert varlen.shape == (4, 4, 16, 16) and varlen.dtype == np.float32
    for s in range(4):
        part = slice(cu_seqlens[s], cu_seqlens[s + 1])
        if cu_seqlens[s] == cu_seqlens[s + 1]:
            assert not varlen[s].any()
            continue
        sub = {k: (v[:, part] if k in ("x", "dt", "B", "C", "z") else v) for k, v in p.items()}
        if s:
            del sub["initial_states"]
        want = ssd_reference(**sub, dt_softplus=True)[1]
        check_close(varlen[s:s + 1], want, 1e-4)
    check_close(varlen[-1:], final.astype(np.float64), 1e-4)
    # Only y then.
    alone = mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], 16, initial_states=p["initial_states"],
                                      seq_idx=seq_idx, **kw)
    np.testing.assert_array_equal(alone, y)


def test_varlen_states_need_cu_seqlens_seq_idx_and_one_row():
    p = problem(batch=2)
    args = (p["x"], p["dt"], p["A"], p["B"], p["C"], 16)
    with pytest.raises(ValueError, match="return_varlen_states needs cu_seqlens"):
        mamba_chunk_scan_combined(*args, return_varlen_states=True)
    cu = np.array([0, 20, 50], np.int32)
    with pytest.raises(tilecc.TileError, match="seq_idx"):
        mamba_chunk_scan_combined(*args, cu_seqlens=cu, return_varlen_states=True)
    seq_idx = np.repeat(np.arange(2, dtype=np.int32), [20, 30])[None, :].repeat(2, axis=0)
    with pytest.raises(tilecc.TileError, match="batch is 2, expected 1"):
        mamba_chunk_scan_combined(*args, seq_idx=seq_idx, cu_seqlens=cu, return_varlen_states=True)
    q = problem(batch=1)
    args = (q["x"], q["dt"], q["A"], q["B"], q["C"], 16)
    with pytest.raises(ValueError, match="cu_seqlens must rise from 0 to T = 50"):
        mamba_chunk_scan_combined(*args, seq_idx=seq_idx[:1], cu_seqlens=np.array([0, 20, 49], np.int32),
                                  return_varlen_states=True)
    with pytest.raises(tilecc.TileError, match="cu_seqlens has dtype int64"):
        mamba_chunk_scan_combined(*args, seq_idx=seq_idx[:1], cu_seqlens=cu.astype(np.int64),
                                  return_varlen_states=True)


def test_bad_arguments_name_what_is_wrong():
    p = problem()
    x, dt, A, B, C = p["x"], p["dt"], p["A"], p["B"], p["C"]
    with pytest.raises(tilecc.TileArgumentError, match=r"C has shape \(1, 50, 2, 8\)"):
        mamba_chunk_scan_combined(x, dt, A, B, C[:, :, :, :8], 16)
    with pytest.raises(tilecc.TileArgumentError, match="B has dtype float64"):
        mamba_chunk_scan_combined(x, dt, A, B.astype(np.float64), C, 16)
    with pytest.raises(tilecc.TileArgumentError, match="x"):
        mamba_chunk_scan_combined(x.astype(np.int32), dt, A, B, C, 16)
    with pytest.raises(tilecc.TileArgumentError, match="dt_bias"):
        mamba_chunk_scan_combined(x, dt, A, B, C, 16, dt_bias=np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="chunk_size 48"):
        mamba_chunk_scan_combined(x, dt, A, B, C, 48)
    with pytest.raises(TypeError, match="chunk_size"):
        mamba_chunk_scan_combined(x, dt, A, B, C, 16.0)
    with pytest.raises(ValueError, match="dt_limit"):
        mamba_chunk_scan_combined(x, dt, A, B, C, 16, dt_limit=(1.0, 0.5))
    with pytest.raises(TypeError, match="C must be an array"):
        mamba_chunk_scan_combined(x, dt, A, B, C.tolist(), 16)
    with pytest.raises(TypeError, match="A is required"):
        mamba_chunk_scan_combined(x, dt, None, B, C, 16)


def test_backward_matches_finite_differences_of_the_reference():
    # Every input's gradient from the library's backward kernels (the interpreter) against
    # central differences of the float64 reference, with D, z, dt_bias, softplus, initial states.
    from tilecc.mamba2 import mamba_chunk_scan_combined_backward
    p = problem(length=20, heads=2, headdim=4, groups=1, dstate=4, with_initial=True, seed=7)
    rng = np.random.default_rng(8)
    dy = rng.standard_normal(p["x"].shape).astype(np.float32)
    dfinal = rng.standard_normal(p["initial_states"].shape).astype(np.float32)
    names = ["x", "dt", "A", "B", "C", "D", "z", "dt_bias", "initial_states"]
    grads = mamba_chunk_scan_combined_backward(dy, p["x"], p["dt"], p["A"], p["B"], p["C"], 16, D=p["D"], z=p["z"],
                                               dt_bias=p["dt_bias"], initial_states=p["initial_states"],
                                               dfinal_states=dfinal, dt_softplus=True)
    assert grads[-1] is not None and len(grads) == len(names)
    base = {k: v.astype(np.float64) for k, v in p.items()}

    def loss(values):
        y, final = ssd_reference(**values, dt_softplus=True)
        return float(np.sum(dy * y) + np.sum(dfinal * final))

    for name, grad in zip(names, grads):
        assert grad.dtype == np.float32 and grad.shape == p[name].shape
        fd = np.zeros(grad.shape)
        for index in np.ndindex(grad.shape):
            values = {k: v.copy() for k, v in base.items()}
            e = 1e-6 * max(1.0, abs(values[name][index]))
            values[name][index] += e
            up = loss(values)
            values[name][index] -= 2 * e
            fd[index] = (up - loss(values)) / (2 * e)
        scale = np.sqrt(np.mean(fd ** 2))
        assert np.max(np.abs(grad - fd)) < 1e-3 * scale, f"d{name}: {np.max(np.abs(grad - fd)) / scale:.3g} of RMS"


def test_backward_without_the_optional_inputs_and_its_errors():
    from tilecc.mamba2 import mamba_chunk_scan_combined_backward
    p = problem(length=20, heads=2, headdim=4, groups=1, dstate=4, with_z=False, seed=9)
    dy = np.ones(p["x"].shape, np.float32)
    grads = mamba_chunk_scan_combined_backward(dy, p["x"], p["dt"], p["A"], p["B"], p["C"], 16)
    assert all(g is not None for g in grads[:5]) and all(g is None for g in grads[5:])
    with pytest.raises(tilecc.TileError, match="dy has shape"):
        mamba_chunk_scan_combined_backward(dy[:, :10], p["x"], p["dt"], p["A"], p["B"], p["C"], 16)
