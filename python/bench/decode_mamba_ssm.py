"""mamba_ssm's decode step (selective_state_update, the Triton kernel) timed on the inputs
`tile-bench ssd --decode` times ours on: the 2.7B layer (H 80, P 64, G 1, N 128), bf16 x, z, B,
C; fp32 dt (b, H) broadcast over P, A, D and dt_bias as Mamba2.step passes them; softplus; the
state updated in place. Per batch: the median time per step of --repeats steps back to back
between CUDA events (eager, so its Python wrapper's host time counts when it exceeds the
GPU's), and the same steps replayed from a CUDA graph (the GPU's time alone).

    python3 decode_mamba_ssm.py --peers DIR [--batch 1,16,256] [--state-dtype float32|bfloat16]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mamba2 import per_call_ms  # noqa: E402

H, P, G, N = 80, 64, 1, 128


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--peers", required=True, help="the folder holding mamba_ssm_min")
    parser.add_argument("--batch", default="1,16,256")
    parser.add_argument("--state-dtype", default="float32", choices=["float32", "bfloat16"])
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=100)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.peers, "mamba_ssm_min"))
    from mamba_ssm.ops.triton.selective_state_update import selective_state_update

    state_dtype = getattr(torch, args.state_dtype)
    print(f"mamba_ssm selective_state_update on {torch.cuda.get_device_name()}: (H, P, G, N) = ({H}, {P}, {G}, {N}), "
          f"{args.state_dtype} state, median of {args.iters} x {args.repeats} steps")
    print(f"{'batch':>6} {'eager us':>9} {'graph us':>9} {'graph GB/s':>11}")
    for b in (int(v) for v in args.batch.split(",")):
        u = lambda lo, hi, *shape: torch.empty(*shape, device="cuda").uniform_(lo, hi)
        state = u(-1, 1, b, H, P, N).to(state_dtype)
        x, z = u(-1, 1, b, H, P).bfloat16(), u(-1, 1, b, H, P).bfloat16()
        B, C = u(-1, 1, b, G, N).bfloat16(), u(-1, 1, b, G, N).bfloat16()
        # As Mamba2.step: per-head values broadcast with stride 0.
        dt = u(-4, 0, b, H)[:, :, None].expand(b, H, P)
        A = u(-2, -0.5, H)[:, None, None].expand(H, P, N)
        D = u(0, 1, H)[:, None].expand(H, P)
        dt_bias = u(-1, 1, H)[:, None].expand(H, P)

        def step():
            return selective_state_update(state, x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)

        for _ in range(3):
            step()
        torch.cuda.synchronize()
        eager = per_call_ms(step, args.iters, args.repeats) * 1e3
        graph = torch.cuda.CUDAGraph()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            step()
        torch.cuda.current_stream().wait_stream(side)
        with torch.cuda.graph(graph):
            for _ in range(args.repeats):
                step()
        graphed = per_call_ms(graph.replay, args.iters, 1) * 1e3 / args.repeats
        moved = 2.0 * b * H * P * N * state.element_size() + 3.0 * b * H * P * 2 + 2.0 * b * G * N * 2 + b * H * 4
        print(f"{b:6d} {eager:9.2f} {graphed:9.2f} {moved / (graphed * 1e-6) / 1e9:11.0f}")
        del graph


if __name__ == "__main__":
    main()
