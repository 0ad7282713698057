# The formulas and constants of device math on --emit=gpu output: which PTX approximation each
# function calls and what surrounds it (log is pinned in lowering-constants.py). 16-bit inputs
# compute in f32 and round once. No ptxas needed.
# RUN: tile-cc %s --kernel math --arg x=f32:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=MATH
# RUN: tile-cc %s --kernel math16 --arg x=bf16:1 --arg y=bf16:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=BF16
import cuda.tile as ct


# MATH-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
# MATH-DAG: %[[TWOLOG2E:.*]] = arith.constant 2.885390e+00 : f32
# MATH-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
# MATH-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
# MATH: %[[T:[0-9]+]] = scf.if
# exp(t) = 2^(t log2 e)
# MATH: %[[E:[0-9]+]] = arith.mulf %[[T]], %[[LOG2E]] : f32
# MATH-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[E]])
# exp2(t)
# MATH: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[T]])
# log2(t)
# MATH: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[T]])
# sqrt(t): math.sqrt, not an approximation intrinsic
# MATH: math.sqrt %[[T]] : f32
# rsqrt, sin, cos
# MATH: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%[[T]])
# MATH: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%[[T]])
# MATH: llvm.call_intrinsic "llvm.nvvm.cos.approx.f"(%[[T]])
# tanh(t) = 1 - 2 / (2^(2 t log2 e) + 1)
# MATH: %[[T2:[0-9]+]] = arith.mulf %[[T]], %[[TWOLOG2E]] : f32
# MATH-NEXT: %[[E2:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[T2]])
# MATH-NEXT: %[[D:[0-9]+]] = arith.addf %[[E2]], %[[ONE]] : f32
# MATH-NEXT: %[[Q:[0-9]+]] = arith.divf %[[TWO]], %[[D]] : f32
# MATH-NEXT: arith.subf %[[ONE]], %[[Q]] : f32
# sigmoid(t) = 1 / (2^(-t log2 e) + 1)
# MATH: %[[N:[0-9]+]] = arith.negf %[[T]] : f32
# MATH-NEXT: %[[NE:[0-9]+]] = arith.mulf %[[N]], %[[LOG2E]] : f32
# MATH-NEXT: %[[S:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[NE]])
# MATH-NEXT: %[[SD:[0-9]+]] = arith.addf %[[S]], %[[ONE]] : f32
# MATH-NEXT: arith.divf %[[ONE]], %[[SD]] : f32
# pow(t, t) = 2^(t log2 t)
# MATH: %[[L:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[T]])
# MATH-NEXT: %[[P:[0-9]+]] = arith.mulf %[[T]], %[[L]] : f32
# MATH-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[P]])
@ct.kernel
def math(x, y):
    t = ct.load(x, (0,), (32,))
    ct.store(y, (0,), ct.exp(t))
    ct.store(y, (1,), ct.exp2(t))
    ct.store(y, (2,), ct.log2(t))
    ct.store(y, (3,), ct.sqrt(t))
    ct.store(y, (4,), ct.rsqrt(t))
    ct.store(y, (5,), ct.sin(t))
    ct.store(y, (6,), ct.cos(t))
    ct.store(y, (7,), ct.tanh(t))
    ct.store(y, (8,), ct.sigmoid(t))
    ct.store(y, (9,), ct.pow(t, t))


# BF16: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
# BF16: %[[T:[0-9]+]] = scf.if
# BF16: %[[W:[0-9]+]] = arith.extf %[[T]] : bf16 to f32
# BF16-NEXT: %[[E:[0-9]+]] = arith.mulf %[[W]], %[[LOG2E]] : f32
# BF16-NEXT: %[[R:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[E]])
# BF16-NEXT: arith.truncf %[[R]] : f32 to bf16
@ct.kernel
def math16(x, y):
    t = ct.load(x, (0,), (32,))
    ct.store(y, (0,), ct.exp(t))

# tan, sinh, cosh (HYP): tan = sin / cos of the approximations; cosh = (e + 1/e) / 2 with
# e = 2^(t log2 e); sinh = (e - 1/e) / 2, replaced near 0 (|t| < 0.5) by its series
# t (1 + t^2/6 + t^4/120 + t^6/5040), evaluated with fma, where the difference would cancel.
# RUN: tile-cc %s --kernel hyperbolic --arg x=f32:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=HYP
# HYP-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
# HYP-DAG: %[[C7:.*]] = arith.constant 1.98412701E-4 : f32
# HYP: %[[T:[0-9]+]] = scf.if
# HYP: %[[S:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%[[T]])
# HYP-NEXT: %[[C:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.cos.approx.f"(%[[T]])
# HYP-NEXT: arith.divf %[[S]], %[[C]] : f32
# HYP: %[[E:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
# HYP-NEXT: %[[INV:[0-9]+]] = arith.divf %{{.*}}, %[[E]] : f32
# HYP-NEXT: %[[SUM:[0-9]+]] = arith.addf %[[E]], %[[INV]] : f32
# HYP-NEXT: arith.mulf %[[SUM]], %[[HALF]] : f32
# HYP: %[[E2:[0-9]+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
# HYP-NEXT: %[[INV2:[0-9]+]] = arith.divf %{{.*}}, %[[E2]] : f32
# HYP-NEXT: %[[DIFF:[0-9]+]] = arith.subf %[[E2]], %[[INV2]] : f32
# HYP-NEXT: %[[BIG:[0-9]+]] = arith.mulf %[[DIFF]], %[[HALF]] : f32
# HYP: math.fma %[[C7]], %{{.*}}, %{{.*}} : f32
# HYP: %[[SMALL:[0-9]+]] = arith.cmpf olt, %{{.*}}, %[[HALF]] : f32
# HYP-NEXT: arith.select %[[SMALL]], %{{.*}}, %[[BIG]] : f32
@ct.kernel
def hyperbolic(x, y):
    t = ct.load(x, (0,), (32,))
    ct.store(y, (0,), ct.tan(t))
    ct.store(y, (1,), ct.cosh(t))
    ct.store(y, (2,), ct.sinh(t))


# atan2(x, y) = angle of the point (y, x): the ratio of the smaller to the larger magnitude,
# reduced around pi/4 above tan(pi/8), Cephes' atanf polynomial, then the quadrant (pi/2 - r;
# pi - r for a negative y's sign bit) and x's sign. Integer operands are refused. The
# interpreter gives atan2(t - 3, 4 - t) for t = 0, 1, ...: -0.6435, -0.588, -0.4636, 0, 1.571, 2.034, ...
# RUN: tile-cc %s --kernel angles --arg x=f32:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=ATAN2
# RUN: not tile-cc %s --kernel int_angles --arg x=i32:1 --arg y=f32:1 2>&1 | FileCheck %s --check-prefix=ATAN2-INT
# RUN: tile-run %s --kernel angles --array x=f32:32:iota --array y=f32:32 --print y --precision 4 | FileCheck %s --check-prefix=ATAN2-VALUES
# ATAN2-DAG: arith.constant 0.414213568 : f32
# ATAN2-DAG: arith.constant 0.0805374458 : f32
# ATAN2-DAG: arith.constant 1.57079637 : f32
# ATAN2-DAG: arith.constant 3.14159274 : f32
# ATAN2: math.fma
# ATAN2: math.copysign
# ATAN2-INT: error: atan2() needs floating-point operands
# ATAN2-VALUES: y: float32 (32,)
# ATAN2-VALUES-NEXT: [-0.6435, -0.588, -0.4636, 0, 1.571, 2.034, {{.*}}]
@ct.kernel
def angles(x, y):
    t = ct.load(x, (0,), (32,))
    ct.store(y, (0,), ct.atan2(t - 3.0, 4.0 - t))


@ct.kernel
def int_angles(x, y):
    ct.store(y, (0,), ct.atan2(ct.load(x, (0,), (32,)), 2))


# flush_to_zero=True (FTZ): the front end marks the math op (tile.flush_to_zero, --emit=tile)
# and the lowering takes the .ftz approximations (ex2.approx.ftz.f32 is one MUFU.EX2; the IEEE
# form adds a range check and two multiplications for subnormal results). It reaches the exp
# inside sigmoid; flush_to_zero=False and no option keep the IEEE forms.
# RUN: tile-cc %s --kernel flushed --arg x=f32:1 --arg y=f32:1 --num-threads 32 --emit=tile | FileCheck %s --check-prefix=FTZ-IR
# RUN: tile-cc %s --kernel flushed --arg x=f32:1 --arg y=f32:1 --num-threads 32 --emit=gpu | FileCheck %s --check-prefix=FTZ
# RUN: tile-run %s --kernel flushed --array x=f32:32:iota --array y=f32:32 --print y --precision 4 | FileCheck %s --check-prefix=FTZ-VALUES
# FTZ-IR: math.exp2 %{{[0-9]+}} {tile.flush_to_zero} : tensor<32xf32>
# FTZ-IR: math.exp2 %{{[0-9]+}} : tensor<32xf32>
# FTZ-IR: math.exp %{{[0-9]+}} {tile.flush_to_zero} : tensor<32xf32>
# FTZ: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
# FTZ: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
# FTZ: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
# FTZ: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
# FTZ: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"
# FTZ: llvm.call_intrinsic "llvm.nvvm.sin.approx.ftz.f"
# FTZ: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
# The interpreter computes the IEEE result, which the option allows (y holds the first store).
# FTZ-VALUES: y: float32 (32,)
# FTZ-VALUES-NEXT: [1, 2, 4, 8, {{.*}}]
@ct.kernel
def flushed(x, y):
    t = ct.load(x, (0,), (32,))
    ct.store(y, (0,), ct.exp2(t, flush_to_zero=True))
    ct.store(y, (1,), ct.exp2(t, flush_to_zero=False))
    ct.store(y, (2,), ct.exp(t, flush_to_zero=True))
    ct.store(y, (3,), ct.log2(t, flush_to_zero=True))
    ct.store(y, (4,), ct.rsqrt(t, flush_to_zero=True))
    ct.store(y, (5,), ct.sin(t, flush_to_zero=True))
    ct.store(y, (6,), ct.sigmoid(t, flush_to_zero=True))
