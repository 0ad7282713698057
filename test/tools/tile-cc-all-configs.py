# tile-cc --all-configs builds every @ct.autotune configuration of a kernel into one package
# directory: a manifest naming each configuration's constants and files, PTX (here, so no
# ptxas is needed) and metadata per configuration. A configuration the kernel's static_assert
# refuses at these constants is listed with its reason instead of failing the package.
# RUN: rm -rf %t && tile-cc %s --kernel k --arg x=f32:1 --arg y=f32:1 --const N=64 --all-configs --emit=ptx -j 2 -o %t 2> %t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=ERR < %t.err
# RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
# RUN: FileCheck %s --check-prefix=PTX1 < %t/k.config1.ptx
# RUN: FileCheck %s --check-prefix=META1 < %t/k.config1.json
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg y=f32:1 --const N=64 --all-configs --config 1 -o %t 2>&1 | FileCheck %s --check-prefix=BOTH
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg y=f32:1 --const N=64 --all-configs 2>&1 | FileCheck %s --check-prefix=NODIR
# RUN: not tile-cc %s --kernel plain --arg x=f32:1 --all-configs -o %t 2>&1 | FileCheck %s --check-prefix=PLAIN
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg y=f32:1 --const N=64 --all-configs -j 0 -o %t 2>&1 | FileCheck %s --check-prefix=JOBS
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --arg y=f32:1 --const N=64 --all-configs --emit=llvm -o %t 2>&1 | FileCheck %s --check-prefix=EMIT
# CHECK: tile-cc: k config 0: k.config0.ptx
# CHECK: tile-cc: k config 1: k.config1.ptx
# CHECK: tile-cc: k config 2: not built
# CHECK: tile-cc: 2 of 3 configurations of 'k' in {{.*}} on 2 threads)
# ERR: tile-cc: configuration 2 of 'k' is not built:
# ERR: error: static assertion failed: B must divide N
# MANIFEST: "format": "tile-package/1",
# MANIFEST: "kernel": "k",
# MANIFEST: "config": 0,
# MANIFEST: "B": "16"
# MANIFEST: "binary": "k.config0.ptx",
# MANIFEST: "metadata": "k.config0.json"
# MANIFEST: "config": 1,
# MANIFEST: "B": "32"
# MANIFEST: "config": 2,
# MANIFEST: "B": "48"
# MANIFEST: "error": "{{.*}}B must divide N
# PTX1: .entry k__tile(
# META1: "B": 32
# BOTH: tile-cc: error: --all-configs builds every configuration; --config picks one
# NODIR: tile-cc: error: --all-configs needs -o DIR, the package directory
# PLAIN: tile-cc: error: --all-configs: 'plain' has no @ct.autotune configurations
# JOBS: tile-cc: error: -j: 0 is out of range [1, 1024]
# EMIT: tile-cc: error: --all-configs builds --emit=cubin (the default for it) or --emit=ptx
import cuda.tile as ct


@ct.autotune(configs=[dict(B=16), dict(B=32), dict(B=48)], key=["N"])
@ct.kernel
def k(x, y, N: ct.Constant[int], B: ct.Constant[int]):
    ct.static_assert(N % B == 0, "B must divide N")
    i = ct.bid(0)
    ct.store(y, (i,), ct.load(x, (i,), (B,)) * 2.0)


@ct.kernel
def plain(x):
    ct.store(x, (ct.bid(0),), ct.load(x, (ct.bid(0),), (16,)))
