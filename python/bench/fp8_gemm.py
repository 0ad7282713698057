"""The fp8 GEMM of kernels/suite/fp8_gemm.py (x @ w^T with both operands float8_e4m3fn and
K-major, per-tensor scales, bf16 out) beside torch's `_scaled_mm` (cuBLASLt's fp8 GEMM) and a
bf16 `torch.matmul` of the same shape, in one process on the GPU: each result checked against
`_scaled_mm`'s, then timed with CUDA events over back-to-back launches (TFLOP/s).

    python3 python/bench/fp8_gemm.py [--sizes 4096 8192] [--iters 50]
"""
import argparse
import importlib.util
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

import tilecc  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CONFIGS = [(128, 256, 128), (256, 128, 128), (128, 128, 128)]


def load_kernel():
    tilecc.install_cuda_tile_alias()
    path = os.path.join(ROOT, "kernels", "suite", "fp8_gemm.py")
    spec = importlib.util.spec_from_file_location("fp8_gemm_suite", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fp8_gemm


def timed_ms(fn, iters):
    fn()  # compiled, loaded and warm
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = float("inf")
    for _ in range(3):
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / iters)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    parser.add_argument("--iters", type=int, default=50)
    args = parser.parse_args()
    kernel = load_kernel()
    stream = torch.cuda.current_stream()
    print(torch.cuda.get_device_name(), "torch", torch.__version__)
    status = 0
    for n in args.sizes:
        m = k = n
        torch.manual_seed(0)
        x = (torch.randn(m, k, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        w = (torch.randn(n, k, device="cuda") * 0.5).to(torch.float8_e4m3fn)
        sx, sw = 0.75, 1.25
        scale_x = torch.tensor(sx, device="cuda")
        scale_w = torch.tensor(sw, device="cuda")
        flop = 2.0 * m * n * k

        def cublas():
            return torch._scaled_mm(x, w.t(), scale_a=scale_x, scale_b=scale_w, out_dtype=torch.bfloat16)

        reference = cublas().float()
        rows = [("torch._scaled_mm (cuBLASLt fp8)", timed_ms(cublas, args.iters))]
        xb, wb = x.to(torch.bfloat16), w.to(torch.bfloat16)
        rows.append(("torch.matmul bf16", timed_ms(lambda: xb @ wb.t(), args.iters)))
        for tm, tn, tk in CONFIGS:
            y = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            grid = ((m + tm - 1) // tm, (n + tn - 1) // tn)

            def ours():
                tilecc.launch(stream, grid, kernel, (x, w, y, sx, sw, tm, tn, tk))

            ours()
            torch.cuda.synchronize()
            err = ((y.float() - reference).abs() / (reference.abs() + 1.0)).max().item()
            ok = err < 2e-2
            status |= 0 if ok else 1
            rows.append((f"tile-cc fp8 {tm}x{tn}x{tk} (max rel. diff to cuBLAS {err:.1e}{'' if ok else ' FAIL'})",
                         timed_ms(ours, args.iters)))
        print(f"M = N = K = {n}:")
        for name, ms in rows:
            print(f"  {name:70s} {ms:8.3f} ms  {flop / ms / 1e9:7.1f} TFLOP/s")
    sys.exit(status)


if __name__ == "__main__":
    main()
