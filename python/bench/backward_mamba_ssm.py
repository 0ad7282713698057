"""mamba_ssm's backward pass (mamba_chunk_scan_combined under autograd, its Triton kernels)
timed on the inputs `tile-bench ssd --backward` times ours on: tile-bench's five shapes, bf16 x,
B, C; fp32 dt, A, D and dt_bias; softplus; dy (and d final_states) random. Per shape: the
median time of the forward alone, of the forward and backward together, and their difference
(the backward), each over --iters samples of --repeats calls back to back between CUDA events.

    python3 backward_mamba_ssm.py --peers DIR [--chunk-size 256] [--shape NAME]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mamba2 import SHAPES, inputs, per_call_ms  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--peers", required=True, help="the folder holding mamba_ssm_min")
    parser.add_argument("--chunk-size", type=int, default=256)
    parser.add_argument("--shape", help="one of tile-bench's shape names (default: all five)")
    parser.add_argument("--iters", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.peers, "mamba_ssm_min"))
    from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined

    print(f"mamba_ssm backward on {torch.cuda.get_device_name()}, chunk {args.chunk_size}, "
          f"median of {args.iters} x {args.repeats} calls")
    print(f"{'shape':<24} {'fwd ms':>8} {'fwd+bwd ms':>11} {'bwd ms':>8}")
    for name, b, T, H, P, G, N in SHAPES:
        if args.shape and name != args.shape:
            continue
        x, dt, A, B, C, D, dt_bias = inputs(b, T, H, P, G, N)
        leaves = [t.requires_grad_() for t in (x, dt, A, B, C, D, dt_bias)]
        dy = torch.randn_like(x)
        dfinal = torch.randn(b, H, P, N, device="cuda")

        def forward():
            return mamba_chunk_scan_combined(x, dt, A, B, C, args.chunk_size, D=D, dt_bias=dt_bias,
                                             dt_softplus=True, return_final_states=True)

        def forward_backward():
            y, final = forward()
            torch.autograd.backward([y, final], [dy, dfinal])
            for t in leaves:
                t.grad = None

        def forward_only():
            with torch.no_grad():
                forward()

        for _ in range(2):  # Triton's compile and autotune happen here
            forward_backward()
        torch.cuda.synchronize()
        fwd = per_call_ms(forward_only, args.iters, args.repeats)
        both = per_call_ms(forward_backward, args.iters, args.repeats)
        print(f"{name:<24} {fwd:8.3f} {both:11.3f} {both - fwd:8.3f}", flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
