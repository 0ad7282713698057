# The tile-cc driver: stages, pass printing, exit codes and command-line errors.
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=tile | FileCheck %s --check-prefix=TILE
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=tile-opt | FileCheck %s --check-prefix=OPT
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=tile-opt -O0 | FileCheck %s --check-prefix=TILE
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=tile-opt --print-ir-after=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=tile-opt --timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
# --timing covers every stage: the front end, the passes, LLVM and PTX (ptxas where it is found).
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=ptx --timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=ast | FileCheck %s --check-prefix=AST
# RUN: tile-cc %s --kernel k --arg x=f32:1 -o %t.mlir && tile-opt %t.mlir | FileCheck %s --check-prefix=TILE
# RUN: tile-cc --version | FileCheck %s --check-prefix=VERSION
# RUN: not tile-cc %s --kernel k --arg x=f32:1 --emit=ptx --arch sm_42 2>&1 | FileCheck %s --check-prefix=BADARCH
# RUN: not tile-cc %s --kernel k --arg x=f32 2>&1 | FileCheck %s --check-prefix=BADARG
# RUN: not tile-cc %s --kernel k --const 3 2>&1 | FileCheck %s --check-prefix=BADCONST
# A file with one kernel needs no --kernel; one with several does.
# RUN: tile-cc %s --arg x=f32:1 --emit=tile | FileCheck %s --check-prefix=TILE
# RUN: not tile-cc %S/../frontend/list_args.py --const TILE=4 --arg xs=f32:1:list=1 --arg out=f32:1 2>&1 | FileCheck %s --check-prefix=NOKERNEL
# RUN: not tile-cc %S/does-not-exist.py --kernel k 2>&1 | FileCheck %s --check-prefix=NOFILE
# RUN: tile-cc %s --kernel k --arg x=f32:1 --emit=ptx --arch sm_42; test $? -eq 2
# RUN: tile-cc %S/does-not-exist.py --kernel k; test $? -eq 3
# RUN: tile-cc %s --kernel k; test $? -eq 1
import cuda.tile as ct


@ct.kernel
def k(x):
    a = ct.load(x, (0,), (16,))
    b = ct.load(x, (0,), (16,))
    ct.store(x, (0,), a + b * 1.0)

# TILE: tile.load
# TILE: tile.load
# TILE: arith.mulf
# OPT: %[[A:.*]] = tile.load
# OPT-NOT: tile.load
# OPT-NOT: arith.mulf
# OPT: arith.addf %[[A]], %[[A]]
# AFTER: IR Dump After CSE (cse)
# AFTER-NOT: IR Dump After
# TIMING: Execution time report
# TIMING: Canonicalizer
# STAGES: Execution time report
# STAGES-DAG: front end: read and parse
# STAGES-DAG: front end: tile IR generation
# STAGES-DAG: pass pipeline
# STAGES-DAG: Canonicalizer
# STAGES-DAG: LLVM: IR and PTX
# AST: FunctionDef 'k'
# VERSION: tile-cc 0.1.0
# BADARCH: tile-cc: error: --arch: unsupported target 'sm_42' (expected sm_70, sm_75, sm_80, sm_86, sm_89, sm_90 or sm_90a)
# BADARG: tile-cc: error: --arg argument 'x': expected DTYPE:RANK (rank 0 for a scalar), got 'f32'
# BADCONST: tile-cc: error: --const expected NAME=VALUE, got '3'
# NOKERNEL: tile-cc: error: no kernel selected; pass --kernel NAME (functions: total, pick)
# NOFILE: tile-cc: error: {{.*}}does-not-exist.py
