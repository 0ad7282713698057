#!/usr/bin/env python3
"""The kernel suite's torch side (scripts/gpu-kernel-suite.sh), on the GPU machine: times
torch's implementation of each suite kernel on the same shapes as tile-run --bench (CUDA events
around each launch, median of N after warm-up, bytes counted once per array as tile-run counts
them), a device-to-device copy for the bandwidth reference, and checks our GPU results (the .npy
files tile-run --save wrote) against torch's.

usage: kernel_suite_torch.py time|check RESULTS_DIR
  time:  torch's timings (run first, so they come back even if our side runs out of time)
  check: our saved results against torch's
"""
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

N_LAUNCHES = 50


def median_ms(fn):
    for _ in range(3):
        fn()
    times = []
    for _ in range(N_LAUNCHES):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def report(name, ms, nbytes, flops=None):
    line = f"torch {name}: median {ms:.4f} ms; {nbytes / (ms * 1e-3) / 1e9:.1f} GB/s"
    if flops:
        line += f"; {flops / (ms * 1e-3) / 1e12:.1f} TFLOP/s"
    print(line, flush=True)


def size(*ts):
    return sum(t.numel() * t.element_size() for t in ts)


def bf16(shape, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(shape, generator=g, device="cuda") * 2 - 1).to(torch.bfloat16)


def check(results, name, ours_file, ref, atol, rtol=0.0):
    path = os.path.join(results, ours_file)
    if not os.path.exists(path):
        print(f"check {name}: no {ours_file}")
        return
    ours = np.load(path)
    if ours.dtype.kind == "V":  # bfloat16 as <V2
        ours = torch.from_numpy(ours.view(np.int16)).view(torch.bfloat16).float().numpy()
    theirs = ref.float().cpu().numpy() if ref.dtype != torch.int64 else ref.cpu().numpy()
    if theirs.dtype.kind in "iu":
        bad = int((ours != theirs).sum())
        print(f"check {name}: {bad} of {ours.size} differ from torch" + (" (ok)" if bad == 0 else " FAILED"))
        return
    err = np.abs(ours.astype(np.float64) - theirs)
    bound = atol + rtol * np.abs(theirs)
    bad = int((err > bound).sum())
    print(f"check {name}: max |ours - torch| {err.max():.3g}, {bad} of {ours.size} beyond {atol:g} + {rtol:g}|torch|"
          + (" (ok)" if bad == 0 else " FAILED"))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("time", "check"):
        sys.exit(__doc__)
    mode, results = sys.argv[1], sys.argv[2]
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    if mode == "time":
        time_torch()
    else:
        check_ours(results)


def time_torch():
    rows = 32768
    for n in (4096, 8192):
        x = bf16((rows, n), 1)
        w = torch.rand(n, device="cuda")
        b = torch.rand(n, device="cuda")
        y = torch.empty_like(x)
        report(f"copy {rows}x{n} bf16 (device to device)", median_ms(lambda: y.copy_(x)), size(x, y))
        report(f"layer_norm {rows}x{n}",
               median_ms(lambda: F.layer_norm(x, (n,), w.to(x.dtype), b.to(x.dtype))), size(x, w, b, y))
        report(f"rms_norm {rows}x{n}", median_ms(lambda: F.rms_norm(x, (n,), w.to(x.dtype))), size(x, w, y))
        report(f"softmax {rows}x{n}", median_ms(lambda: torch.softmax(x, dim=-1)), size(x, y))
    vocab_rows, vocab = 4096, 32000
    logits = bf16((vocab_rows, vocab), 5)
    report(f"argmax {vocab_rows}x{vocab}", median_ms(lambda: torch.argmax(logits, dim=-1)),
           size(logits) + vocab_rows * 8)
    for n in (4096, 8192):
        a = bf16((n, n), 1)
        bm = bf16((n, n), 2)
        report(f"matmul bf16 {n}^3", median_ms(lambda: a @ bm), 3 * n * n * 2, 2 * n ** 3)
    t = bf16((8192, 8192), 1)
    report("transpose 8192x8192 bf16", median_ms(lambda: t.t().contiguous()), 2 * size(t))
    # int8 weights, y = x @ (w * s): dequantize (to bf16, scaled), then matmul
    k = n = 4096
    g = torch.Generator(device="cuda").manual_seed(2)
    wq = torch.randint(-100, 100, (k, n), generator=g, device="cuda", dtype=torch.int8)
    sc = torch.rand(n, device="cuda")
    for m in (16, 4096):
        xq = bf16((m, k), 1)
        report(f"int8 weights, dequantize then matmul {m}x{k}x{n}",
               median_ms(lambda: xq @ (wq.to(torch.bfloat16) * sc.to(torch.bfloat16))),
               size(xq, wq, sc) + m * n * 2, 2 * m * k * n)


def load(path):
    a = np.load(path)
    if a.dtype.kind == "V":
        return torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).cuda()
    return torch.from_numpy(a).cuda()


def check_ours(results):
    # Our results (tile-run --save, the GPU's arrays) against torch on the same inputs; each
    # kernel whose inputs were saved.
    def saved(name, *arrays):
        d = os.path.join(results, name)
        paths = [os.path.join(d, a + ".npy") for a in arrays]
        return [load(p) for p in paths] if all(os.path.exists(p) for p in paths) else None

    if (t := saved("layer_norm", "x", "w", "b")):
        xin, w, b = t
        ref = F.layer_norm(xin.float(), (xin.shape[1],), w, b)
        check(results, "layer_norm", "layer_norm/y.npy", ref, atol=2 ** -7 * 4, rtol=2 ** -7)
    if (t := saved("rms_norm", "x", "w")):
        xin, w = t
        ref = F.rms_norm(xin.float(), (xin.shape[1],), w, eps=1e-5)
        check(results, "rms_norm", "rms_norm/y.npy", ref, atol=2 ** -7 * 4, rtol=2 ** -7)
    if (t := saved("softmax", "x")):
        check(results, "softmax", "softmax/y.npy", torch.softmax(t[0].float(), dim=-1), atol=1e-4, rtol=2 ** -7)
    if (t := saved("argmax", "x")):
        check(results, "argmax", "argmax/out.npy", torch.argmax(t[0].float(), dim=-1), atol=0)
    if (t := saved("transpose", "x")):
        check(results, "transpose", "transpose/y.npy", t[0].t().contiguous(), atol=0)
    if (t := saved("int8_gemm", "x", "w", "s")):
        xin, w, sc = t
        # the weights scaled and rounded to bf16 as the kernel does, the sums in float32
        ref = xin.float() @ (w.float() * sc[None, :]).to(torch.bfloat16).float()
        check(results, "int8_gemm", "int8_gemm/y.npy", ref, atol=1.0, rtol=2 ** -7)

if __name__ == "__main__":
    main()
