#!/usr/bin/env python3
"""Attention's torch side (scripts/gpu-attention.sh), on the GPU machine: times
torch.nn.functional.scaled_dot_product_attention with each back end that runs (flash, cuDNN,
memory-efficient) on the benchmark's shapes, and checks our GPU results (the .npy files tile-run
--save wrote: Q, K, V and Out) against torch's attention in float32.

usage: attention_torch.py time | check DIR CAUSAL
"""
import sys

import numpy as np
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from kernel_suite_torch import median_ms  # CUDA events around each launch, median after warm-up

BH = (16, 8)  # batch x heads = 128
SHAPES = [(s, d) for d in (64, 128) for s in (1024, 4096, 16384)]
BACKENDS = [("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION)]


def flops(s, d, causal):
    f = 4 * BH[0] * BH[1] * s * s * d
    return f // 2 if causal else f


def time_all():
    for s, d in SHAPES:
        q, k, v = (torch.randn(*BH, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        for causal in (False, True):
            for name, backend in BACKENDS:
                try:
                    with sdpa_kernel([backend]):
                        ms = median_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                except RuntimeError as e:
                    print(f"torch sdpa {name} S={s} D={d} causal={int(causal)}: not run ({str(e).splitlines()[0]})")
                    continue
                print(f"torch sdpa {name} S={s} D={d} causal={int(causal)}: median {ms:.4f} ms; "
                      f"{flops(s, d, causal) / (ms * 1e-3) / 1e12:.1f} TFLOP/s", flush=True)
        del q, k, v
        torch.cuda.empty_cache()


def load(path):
    a = np.load(path)
    if a.dtype.kind == "V":  # bfloat16, stored as <V2
        a = (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return torch.from_numpy(a.astype(np.float32)).cuda()


def check(results, causal):
    q, k, v, out = (load(f"{results}/{n}.npy") for n in ("Q", "K", "V", "Out"))
    if k.shape[1] != q.shape[1]:  # grouped-query attention: each K/V head serves several query heads
        k = k.repeat_interleave(q.shape[1] // k.shape[1], dim=1)
        v = v.repeat_interleave(q.shape[1] // v.shape[1], dim=1)
    with sdpa_kernel([SDPBackend.MATH]):
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    err = (out - ref).abs().max().item()
    ok = err <= 2e-2
    print(f"check attention {tuple(q.shape)} causal={int(causal)}: max abs error {err:.2e} against torch "
          f"(float32) {'ok' if ok else 'FAILED'}")
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "time":
        time_all()
    else:
        sys.exit(0 if check(sys.argv[2], sys.argv[3] == "1") else 1)
