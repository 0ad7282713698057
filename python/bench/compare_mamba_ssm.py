"""tilecc.mamba2.mamba_chunk_scan_combined beside mamba_ssm's (the Triton original) on the GPU
machine, called the same way: (1) agreement — y and the final states of both against a float64
step-by-step reference, on problems with every optional input; (2) speed — both timed on
tile-bench's five shapes in this process (median of --iters samples of --repeats calls back to
back between CUDA events).

    python3 compare_mamba_ssm.py --peers DIR   # DIR holds mamba_ssm_min (mamba_ssm's SSD, pure Python)
"""
import argparse
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
sys.path.insert(0, os.path.join(here, "..", "tests"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from bench_mamba2 import SHAPES, inputs, per_call_ms  # noqa: E402
from ssd_reference import ssd_reference  # noqa: E402
from tilecc.mamba2 import mamba_chunk_scan_combined as ours  # noqa: E402


def agreement(theirs):
    g = torch.Generator().manual_seed(0)
    print("agreement with the float64 reference: error RMS / max, over the reference's RMS")
    print(f"{'problem':44} {'tile-cc y':>19} {'mamba_ssm y':>19} {'tile-cc final':>19} {'mamba_ssm final':>19}")
    problems = [  # b, T, H, P, G, N, chunk, D per dim, z, initial states
        (2, 1000, 8, 64, 2, 64, 256, False, True, True),
        (1, 300, 4, 32, 1, 128, 64, True, True, False),
        (4, 512, 16, 64, 4, 64, 128, False, False, True),
    ]
    worst = 0.0
    for b, T, H, P, G, N, chunk, d_per_dim, with_z, with_init in problems:
        r = lambda *s: torch.randn(*s, generator=g)
        p = {"x": r(b, T, H, P).bfloat16(), "dt": torch.rand(b, T, H, generator=g) * 3 - 4,
             "A": -torch.exp(torch.rand(H, generator=g) * 2 - 1), "B": r(b, T, G, N).bfloat16(),
             "C": r(b, T, G, N).bfloat16(), "D": torch.rand((H, P) if d_per_dim else (H,), generator=g),
             "dt_bias": torch.rand(H, generator=g) - 0.5}
        if with_z:
            p["z"] = r(b, T, H, P).bfloat16()
        if with_init:
            p["initial_states"] = r(b, H, P, N)
        p = {k: v.cuda() for k, v in p.items()}
        want_y, want_final = ssd_reference(**{k: v.float().cpu().numpy() for k, v in p.items()}, dt_softplus=True)
        args = (p["x"], p["dt"], p["A"], p["B"], p["C"], chunk)
        kw = dict(D=p["D"], z=p.get("z"), dt_bias=p["dt_bias"], initial_states=p.get("initial_states"),
                  dt_softplus=True, return_final_states=True)
        errors = []
        for f in (ours, theirs):
            y, final = f(*args, **kw)
            pair = []
            for t, w in ((y, want_y), (final, want_final)):
                e, s = t.double().cpu().numpy() - w, np.sqrt(np.mean(w ** 2))
                pair.append((np.sqrt(np.mean(e ** 2)) / s, np.max(np.abs(e)) / s))
            errors.append(pair)
        name = f"b{b} T{T} H{H} P{P} G{G} N{N} chunk {chunk}{' D(H,P)' if d_per_dim else ''}" \
               f"{' z' if with_z else ''}{' init' if with_init else ''}"
        cell = lambda e: f"{e[0]:9.2e}/{e[1]:9.2e}"
        print(f"{name:44} {cell(errors[0][0])} {cell(errors[1][0])} {cell(errors[0][1])} {cell(errors[1][1])}")
        worst = max(worst, errors[0][0][0], errors[0][1][0])
    return worst


def speed(theirs, iters, repeats):
    print(f"\nspeed, ms per call (median of {iters} x {repeats}): tile-cc eager at its own chunk size; "
          "mamba_ssm eager at chunk 256 (its models' setting) and at its best of 64/128/256")
    print(f"{'shape':24} {'tile-cc':>8} {'mamba_ssm 256':>14} {'mamba_ssm best':>15} {'speed-up':>9}")
    for name, *dims in SHAPES:
        x, dt, A, B, C, D, dt_bias = inputs(*dims)
        kw = dict(D=D, dt_bias=dt_bias, dt_softplus=True)
        ms_ours = None
        for _ in range(3):
            ours(x, dt, A, B, C, None, **kw)
        ms_ours = per_call_ms(lambda: ours(x, dt, A, B, C, None, **kw), iters, repeats)
        theirs_ms = {}
        for chunk in (256, 128, 64):
            for _ in range(3):
                theirs(x, dt, A, B, C, chunk, **kw)
            theirs_ms[chunk] = per_call_ms(lambda: theirs(x, dt, A, B, C, chunk, **kw), iters, repeats)
        best = min(theirs_ms.values())
        print(f"{name:24} {ms_ours:8.3f} {theirs_ms[256]:14.3f} {best:15.3f} {best / ms_ours:8.2f}x")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--peers", required=True, help="a folder holding mamba_ssm_min")
    parser.add_argument("--iters", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, args.peers)
    import mamba_ssm_min
    theirs = mamba_ssm_min.mamba_chunk_scan_combined
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    worst = agreement(theirs)
    speed(theirs, args.iters, args.repeats)
    sys.exit(0 if worst < 1e-2 else 1)  # RMS of the error, bf16 data


if __name__ == "__main__":
    main()
