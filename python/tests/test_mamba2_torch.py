"""tilecc.mamba2.mamba_chunk_scan_combined on torch CUDA tensors (the GPU machine; skipped where
torch or a GPU is missing): against the float64 reference and the interpreter, on a non-default
stream, captured in a CUDA graph, inside torch.compile, and its errors.
Runs under pytest, or as `python3 test_mamba2_torch.py` where pytest is not installed."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gpu_script import HAVE_GPU, raises, run_as_script, torch  # noqa: E402

if __name__ != "__main__":
    import pytest
    pytestmark = pytest.mark.skipif(not HAVE_GPU, reason="needs torch with a CUDA GPU")

import numpy as np  # noqa: E402

import tilecc  # noqa: E402
from ssd_reference import ssd_reference  # noqa: E402
from tilecc.mamba2 import mamba_chunk_scan_combined  # noqa: E402


def problem(batch=2, length=300, heads=8, headdim=64, groups=2, dstate=64, dtype=None, seed=0, device="cuda"):
    """bf16 data as Mamba-2 models have it (a length that is no multiple of the chunk)."""
    g = torch.Generator().manual_seed(seed)
    dtype = dtype or torch.bfloat16
    r = lambda *shape: torch.randn(*shape, generator=g)
    p = {
        "x": r(batch, length, heads, headdim).to(dtype),
        "dt": (torch.rand(batch, length, heads, generator=g) * 3 - 4),
        "A": -torch.exp(torch.rand(heads, generator=g) * 2 - 1),
        "B": r(batch, length, groups, dstate).to(dtype),
        "C": r(batch, length, groups, dstate).to(dtype),
        "D": torch.rand(heads, generator=g),
        "z": r(batch, length, heads, headdim).to(dtype),
        "dt_bias": torch.rand(heads, generator=g) - 0.5,
    }
    return {k: v.to(device) for k, v in p.items()}


def run(p, chunk_size=None, **kwargs):
    return mamba_chunk_scan_combined(p["x"], p["dt"], p["A"], p["B"], p["C"], chunk_size, D=p["D"], z=p["z"],
                                     dt_bias=p["dt_bias"], dt_softplus=True, **kwargs)


def reference(p):
    numpy = {k: v.float().cpu().numpy() for k, v in p.items()}
    return ssd_reference(**numpy, dt_softplus=True)


def relative_error(got, want):
    """(RMS, max) of the error over the RMS of the reference."""
    error = got.double().cpu().numpy() - want
    scale = np.sqrt(np.mean(want ** 2))
    return np.sqrt(np.mean(error ** 2)) / scale, np.max(np.abs(error)) / scale



def test_matches_the_reference_in_every_dtype_and_chunk():
    # Tolerances (RMS, max) of the error over the reference's RMS: bf16 stores the chunk-entry
    # states in bf16 (8 bits), as the inputs are.
    for dtype, chunk, tolerance in ((torch.bfloat16, None, (1e-2, 1.5e-1)), (torch.bfloat16, 256, (1e-2, 1.5e-1)),
                                    (torch.float16, 64, (2e-3, 3e-2)), (torch.float32, 128, (1e-4, 1e-3))):
        p = problem(dtype=dtype)
        y, final = run(p, chunk, return_final_states=True)
        want_y, want_final = reference(p)
        assert y.dtype == dtype and y.shape == p["x"].shape and final.dtype == torch.float32
        for name, got, want in (("y", y, want_y), ("final_states", final, want_final)):
            rms, worst = relative_error(got, want)
            print(f"  {dtype} chunk {chunk} {name}: error RMS {rms:.2e}, max {worst:.2e} of the reference's RMS")
            assert rms < tolerance[0] and worst < tolerance[1], (dtype, chunk, name, rms, worst)


def test_the_gpu_agrees_with_the_interpreter():
    p = problem(batch=1, length=130, heads=4, dstate=32)
    gpu = run(p, 64)
    cpu = run({k: v.cpu() for k, v in p.items()}, 64)  # CPU tensors: the interpreter, same kernels
    torch.testing.assert_close(gpu.cpu().float(), cpu.float(), atol=2e-2, rtol=2e-2)


def test_non_default_stream():
    p = problem()
    want = run(p)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        x = p["x"] * 1  # produced on the side stream, read there
        y = run({**p, "x": x})
    torch.cuda.current_stream().wait_stream(side)
    torch.testing.assert_close(y, want, atol=0, rtol=0)


def test_cuda_graph_capture_and_replay():
    p = problem(seed=1)
    static = {k: v.clone() for k, v in p.items()}
    warm = torch.cuda.Stream()
    warm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(warm):  # compiles and tunes before the capture
        run(static)
    torch.cuda.current_stream().wait_stream(warm)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = run(static)
    fresh = problem(seed=2)
    for k in static:
        static[k].copy_(fresh[k])
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(y, run(fresh), atol=0, rtol=0)


def test_repeated_calls_read_each_calls_tensors():
    # A second call of one signature reuses the prepared pass but reads its own tensors; a new
    # signature (a strided x) and a call through the registered operator (an input that requires
    # grad) compute the same.
    p1, p2 = problem(seed=4), problem(seed=5)
    y1, y2, again = run(p1), run(p2), run(p1)
    torch.testing.assert_close(again, y1, atol=0, rtol=0)
    assert not torch.equal(y1, y2)
    view = torch.repeat_interleave(p1["x"], 2, dim=3)[..., ::2]
    assert not view.is_contiguous()
    torch.testing.assert_close(run({**p1, "x": view}), y1, atol=0, rtol=0)
    through_op = run({**p1, "dt_bias": p1["dt_bias"].clone().requires_grad_()})
    torch.testing.assert_close(through_op, y1, atol=0, rtol=0)


class Block(torch.nn.Module if torch else object):
    """A Mamba-2 mixer's scan and what surrounds it: a module torch.compile traces whole."""

    def forward(self, x, dt, A, B, C, D, z, dt_bias):
        y = mamba_chunk_scan_combined(x * 1.5, dt, A, B, C, 128, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)
        return torch.nn.functional.layer_norm(y.float(), y.shape[-1:]) + 1


def test_torch_compile_traces_the_operator():
    p = problem(seed=3)
    args = [p[k] for k in ("x", "dt", "A", "B", "C", "D", "z", "dt_bias")]
    eager = Block()(*args)
    compiled = torch.compile(Block(), fullgraph=True)(*args)
    torch.testing.assert_close(compiled, eager, atol=1e-3, rtol=1e-3)


def test_packed_sequences_equal_each_sequence_alone():
    # seq_idx as mamba_ssm takes it (int32, on the GPU): boundaries inside chunks and on one.
    p = problem(batch=1, length=300, dtype=torch.float32, seed=4)
    starts = [0, 77, 128, 229, 300]
    seq_idx = torch.zeros(1, 300, dtype=torch.int32, device="cuda")
    for s in range(4):
        seq_idx[0, starts[s]:starts[s + 1]] = s
    cu_seqlens = torch.tensor(starts, dtype=torch.int32, device="cuda")
    y, final, varlen = run(p, 64, seq_idx=seq_idx, cu_seqlens=cu_seqlens, return_final_states=True,
                           return_varlen_states=True)
    assert varlen.shape == (4, 8, 64, 64) and varlen.dtype == torch.float32
    for s in range(4):
        part = {k: (v[:, starts[s]:starts[s + 1]] if v.dim() > 1 else v) for k, v in p.items()}
        alone, alone_final = run(part, 64, return_final_states=True)
        torch.testing.assert_close(y[:, starts[s]:starts[s + 1]], alone, atol=1e-4, rtol=1e-4)
        torch.testing.assert_close(varlen[s:s + 1], alone_final, atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(final, alone_final, atol=1e-4, rtol=1e-4)
    compiled = torch.compile(lambda q, i, c: run(q, 64, seq_idx=i, cu_seqlens=c, return_varlen_states=True),
                             fullgraph=True)
    compiled_y, compiled_varlen = compiled(p, seq_idx, cu_seqlens)
    torch.testing.assert_close(compiled_y, y, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(compiled_varlen, varlen, atol=1e-5, rtol=1e-5)


def torch_reference(x, dt, A, B, C, D, z, dt_bias, initial_states, seq_idx=None):
    """The recurrence in float64 torch ops (autograd differentiates it): y and the final states."""
    x, dt, A, B, C, D, z, dt_bias, initial_states = (None if t is None else t.double() for t in
                                                      (x, dt, A, B, C, D, z, dt_bias, initial_states))
    batch, length, heads, headdim = x.shape
    groups = B.shape[2]
    u = torch.nn.functional.softplus(dt + dt_bias)
    S = initial_states if initial_states is not None else x.new_zeros(batch, heads, headdim, B.shape[-1])
    ys = []
    for t in range(length):
        if seq_idx is not None:
            previous = seq_idx[:, t - 1] if t else torch.zeros_like(seq_idx[:, 0])
            S = S * (seq_idx[:, t] == previous).double()[:, None, None, None]
        Bt = B[:, t].repeat_interleave(heads // groups, dim=1)
        Ct = C[:, t].repeat_interleave(heads // groups, dim=1)
        S = torch.exp(u[:, t] * A)[:, :, None, None] * S + (u[:, t, :, None] * x[:, t])[..., None] * Bt[:, :, None, :]
        ys.append((S * Ct[:, :, None, :]).sum(-1) + D[:, None] * x[:, t])
    y = torch.stack(ys, dim=1)
    return y * z * torch.sigmoid(z), S


def test_autograd_gives_the_reference_gradients():
    # Gradients through torch's autograd (the op's registered backward: tile-cc's backward
    # kernels) against autograd of the float64 recurrence, with packed sequences.
    p = problem(batch=1, length=100, heads=4, headdim=16, groups=2, dstate=16, dtype=torch.float32, seed=6)
    p["initial_states"] = torch.randn(1, 4, 16, 16, device="cuda")
    seq_idx = torch.zeros(1, 100, dtype=torch.int32, device="cuda")
    seq_idx[0, 60:] = 1
    leaves = {k: v.clone().requires_grad_(True) for k, v in p.items()}
    y, final = mamba_chunk_scan_combined(leaves["x"], leaves["dt"], leaves["A"], leaves["B"], leaves["C"], 32,
                                         D=leaves["D"], z=leaves["z"], dt_bias=leaves["dt_bias"],
                                         initial_states=leaves["initial_states"], seq_idx=seq_idx, dt_softplus=True,
                                         return_final_states=True)
    dy, dfinal = torch.randn_like(y), torch.randn_like(final)
    torch.autograd.backward((y, final), (dy, dfinal))
    reference = {k: v.clone().requires_grad_(True) for k, v in p.items()}
    ry, rfinal = torch_reference(**reference, seq_idx=seq_idx)
    torch.autograd.backward((ry, rfinal), (dy.double(), dfinal.double()))
    for name in p:
        got, want = leaves[name].grad, reference[name].grad
        assert got is not None and got.dtype == p[name].dtype, name
        scale = want.pow(2).mean().sqrt()
        error = (got.double() - want).abs().max() / scale
        assert error < 1e-3, f"d{name}: {error:.3g} of RMS"


def test_errors_name_the_argument():
    p = problem(batch=1, length=64, heads=4)
    raises(ValueError, "B is on cpu but x is on cuda:0", run, {**p, "B": p["B"].cpu()})
    raises(tilecc.TileArgumentError, "x has dtype float64", run, {**p, "x": p["x"].double()})
    raises(tilecc.TileArgumentError, "C has shape", run, {**p, "C": p["C"][:, :32]})
    raises(ValueError, "chunk_size 100", run, p, 100)


if __name__ == "__main__":
    run_as_script(globals())
