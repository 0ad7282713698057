"""Launches on torch CUDA tensors (the GPU machine; skipped where torch or a GPU is missing):
streams, CUDA graphs, bf16, strided views, autotuning with timing, and errors.
Runs under pytest, or as `python3 test_torch.py` where pytest is not installed."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gpu_script import HAVE_GPU, raises, run_as_script, torch  # noqa: E402

if __name__ != "__main__":
    import pytest
    pytestmark = pytest.mark.skipif(not HAVE_GPU, reason="needs torch with a CUDA GPU")

import tilecc

tilecc.install_cuda_tile_alias()
import kernels as k  # noqa: E402



def test_add_on_the_current_stream():
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        n = 1_000_001
        a = torch.randn(n, device="cuda", dtype=dtype)
        b = torch.randn(n, device="cuda", dtype=dtype)
        c = torch.empty_like(a)
        tilecc.launch(torch.cuda.current_stream(), (math.ceil(n / 1024),), k.add, (a, b, c, 1024))
        torch.testing.assert_close(c, a + b)


def test_non_default_stream_is_ordered_after_the_producer():
    side = torch.cuda.Stream()
    n = 1 << 20
    with torch.cuda.stream(side):
        a = torch.full((n,), 3.0, device="cuda")
        b = torch.full((n,), 4.0, device="cuda")
        c = torch.zeros(n, device="cuda")
        tilecc.launch(side, (n // 1024,), k.add, (a, b, c, 1024))
    side.synchronize()
    assert bool((c == 7.0).all())


def test_cuda_graph_capture_and_replay():
    n = 4096
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty(n, device="cuda")
    warm = torch.cuda.Stream()
    warm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(warm):  # compiled and loaded before capture
        tilecc.launch(warm, (n // 256,), k.axpy, (x, y, out, 2.0, 256))
    torch.cuda.current_stream().wait_stream(warm)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        tilecc.launch(torch.cuda.current_stream(), (n // 256,), k.axpy, (x, y, out, 2.0, 256))
    x.copy_(torch.arange(n, device="cuda", dtype=torch.float32))
    y.fill_(1.0)
    graph.replay()
    torch.cuda.synchronize()
    torch.testing.assert_close(out, x * 2.0 + y)


def test_tensors_that_require_grad():
    # As torch.autograd.Function.forward passes them (NVIDIA's LayerNorm sample): read as they are.
    a = torch.randn(1000, device="cuda", requires_grad=True)
    c = torch.empty(1000, device="cuda")
    tilecc.launch(torch.cuda.current_stream(), (8,), k.add, (a, a, c, 128))
    torch.testing.assert_close(c, (a + a).detach())


def test_strided_views():
    base = torch.randn(300, 700, device="cuda")
    x = base[::3, 5:505]
    s = torch.randn(100, device="cuda")
    out = torch.empty(100, 500, device="cuda", dtype=torch.bfloat16)
    tilecc.launch(None, (tilecc.cdiv(100, 32), tilecc.cdiv(500, 64)), k.scale_rows, (x, s, out, 32, 64))
    torch.cuda.synchronize()
    torch.testing.assert_close(out, (x * s[:, None]).to(torch.bfloat16))
    xt = torch.randn(64, 40, device="cuda").t()  # last stride 40
    sums = torch.empty(40, device="cuda")
    tilecc.launch(None, (40,), k.row_sum, (xt, sums, 64))
    torch.cuda.synchronize()
    torch.testing.assert_close(sums, xt.sum(dim=1), rtol=1e-5, atol=1e-5)


def test_autotuned_on_the_gpu():
    n = 100_000
    x = torch.arange(n, device="cuda", dtype=torch.int64)
    out = torch.zeros_like(x)
    tilecc.launch(torch.cuda.current_stream(), lambda cfg: (tilecc.cdiv(n, cfg.TILE),), k.tuned_copy, (x, out, n))
    torch.cuda.synchronize()
    assert bool((out == x).all())


def test_errors():
    a = torch.zeros(16, device="cuda")
    raises(ValueError, "every array must be on one device", tilecc.launch, None, (1,), k.add,
           (a, torch.zeros(16), a, 16))
    raises(tilecc.TileArgumentError, "argument 4 ('TILE') of add", tilecc.launch, None, (1,), k.add, (a, a, a))
    raises(TypeError, "argument 2 is a list", tilecc.launch, None, (1,), k.add, (a, [1.0], a, 16))


if __name__ == "__main__":
    run_as_script(globals())
