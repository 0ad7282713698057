# Imports between kernel modules: helpers and constants of sibling .py files (Inputs/imports/)
# are used as the file's own. Relative imports are looked up from this file's directory,
# absolute ones beside it and then on the search path (-I); host modules stay host modules.
# RUN: tile-cc %s --kernel uses_imports -I %S/Inputs/imports/path --const T=16 --arg x=f32:1 --arg out=f32:1 | FileCheck %s
# RUN: tile-cc %s -I %S/Inputs/imports/path --list-kernels | FileCheck %s --check-prefix=LIST
# RUN: tile-run %s --kernel uses_imports -I %S/Inputs/imports/path --const T=16 --array x=f32:16:iota --array out=f32:16 --print out | FileCheck %s --check-prefix=OUT
import math

import cuda.tile as ct
import numpy as np
import torch

from .Inputs.imports.gelu import gelu_tanh
from .Inputs.imports.gelu import gelu_tanh as gt, SQRT_2_OVER_PI
from .Inputs.imports import consts
from .Inputs.imports.pkg import scale2
from .Inputs.imports.pkg import act
import onpath
import onpath as op
from onpath import twice

from .Inputs.imports.gelu import host_only  # host code there: fine unless a kernel uses it


# CHECK-LABEL: tile.kernel @uses_imports
# The helpers are inlined with their modules' constants: gelu_tanh twice (SQRT_2_OVER_PI,
# consts.HALF, tanh), pkg's scale2, act.relu's maximum and sub/deep.py's clamp (LIMIT), SCALE
# of consts.py, onpath's twice and OFFSET (found with -I).
# CHECK: arith.constant dense<0.797884583>
# CHECK: arith.constant dense<5.000000e-01>
# CHECK: math.tanh
# CHECK: math.tanh
# CHECK: arith.constant dense<2.000000e+00>
# CHECK: arith.maximumf
# CHECK: arith.constant dense<6.000000e+00>
# CHECK: arith.minimumf
# CHECK: arith.constant dense<3.000000e+00>
# CHECK: arith.addf %0, %0
# CHECK: arith.constant dense<1.000000e+00>
# CHECK: tile.store
# LIST: uses_imports: T(const) x out
# The interpreter runs it: min(2 x, 6) * 3.
# OUT: [0, 6, 12, 18, 18, 18,
@ct.kernel
def uses_imports(x, out, T: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(T,))
    a = gelu_tanh(t) + gt(t) * SQRT_2_OVER_PI
    b = act.relu(scale2(t)) * consts.SCALE
    c = onpath.twice(t) + op.OFFSET + twice(t) + math.pi * np.float32(0.0)
    ct.store(out, index=(0,), tile=a * 0.0 + b + c * 0.0)
