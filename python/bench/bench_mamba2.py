"""Times tilecc.mamba2.mamba_chunk_scan_combined from torch on tile-bench's five Mamba-2 shapes
and its inputs (bf16 x, B, C; float32 dt, A, D, dt_bias; softplus): called eagerly, inside
torch.compile, and replayed from a CUDA graph. Each figure is the median over `--iters` samples
of `--repeats` calls back to back between two CUDA events, per call, as tile-bench times
ssdForward. With --tile-bench FILE (tile-bench ssd --json FILE, same shapes and chunk size) it
prints the ratio to ssdForward's time.

    python3 bench_mamba2.py [--chunk-size 0] [--iters 20] [--repeats 10] [--tile-bench tb.json]
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from tilecc.mamba2 import mamba_chunk_scan_combined  # noqa: E402

SHAPES = [  # name, batch, seqlen, nheads, headdim, ngroups, dstate (tile-bench's defaultShapes)
    ("mamba2-2.7b_b4_L4096", 4, 4096, 80, 64, 1, 128),
    ("mamba2-2.7b_b1_L16384", 1, 16384, 80, 64, 1, 128),
    ("codestral7b_b2_L4096", 2, 4096, 128, 64, 8, 128),
    ("small_b8_L2048", 8, 2048, 32, 64, 1, 64),
    ("mamba2-2.7b_b16_L2048", 16, 2048, 80, 64, 1, 128),
]


def inputs(b, T, H, P, G, N):
    u = lambda lo, hi, *shape: torch.empty(*shape, device="cuda").uniform_(lo, hi)
    return (u(-1, 1, b, T, H, P).bfloat16(), u(-4, 0, b, T, H), u(-2, -0.5, H), u(-1, 1, b, T, G, N).bfloat16(),
            u(-1, 1, b, T, G, N).bfloat16(), u(0, 1, H), u(-1, 1, H))


def per_call_ms(call, iters, repeats):
    samples = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(repeats):
            call()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / repeats)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk-size", type=int, default=0)
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--tile-bench", help="tile-bench ssd --json output to compare with")
    args = parser.parse_args()
    reference = {}
    if args.tile_bench:
        with open(args.tile_bench) as f:
            reference = {r["shape"]: r.get("total_ms") for r in json.load(f)}
    chunk = args.chunk_size or None
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}; chunk {chunk or 'tile-cc choice'}; "
          f"median of {args.iters} x {args.repeats} calls")
    print(f"{'shape':24} {'tile-bench':>10} {'eager':>8} {'compiled':>9} {'graph':>8} {'eager/tb':>9} "
          f"{'graph/tb':>9} {'host us':>8}")
    for name, *dims in SHAPES:
        x, dt, A, B, C, D, dt_bias = inputs(*dims)

        def eager():
            return mamba_chunk_scan_combined(x, dt, A, B, C, chunk, D=D, dt_bias=dt_bias, dt_softplus=True)

        compiled = torch.compile(eager, fullgraph=True)
        for _ in range(3):  # compiles and tunes (the first call), then warm
            eager()
            compiled()
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            eager()
        # Host time of one eager call, when the GPU is not the bottleneck (after a sync).
        torch.cuda.synchronize()
        host = []
        for _ in range(20):
            torch.cuda.synchronize()
            s = time.perf_counter()
            eager()
            host.append((time.perf_counter() - s) * 1e6)
        ms_eager = per_call_ms(eager, args.iters, args.repeats)
        ms_compiled = per_call_ms(compiled, args.iters, args.repeats)
        ms_graph = per_call_ms(graph.replay, args.iters, args.repeats)
        tb = reference.get(name)
        ratio = lambda ms: f"{ms / tb:9.3f}" if tb else f"{'':9}"
        print(f"{name:24} {tb or 0:10.3f} {ms_eager:8.3f} {ms_compiled:9.3f} {ms_graph:8.3f} {ratio(ms_eager)} "
              f"{ratio(ms_graph)} {statistics.median(host):8.0f}")
        del graph


if __name__ == "__main__":
    main()
