# tile-ssd-prebuild (the build's compiler of the prebuilt Mamba-2 kernels) checks its command
# line, names the signatures of each set, and writes nothing on a bad target.
# RUN: tile-ssd-prebuild --set core --list | FileCheck %s --check-prefix=CORE
# RUN: tile-ssd-prebuild --set full --list | count 63
# RUN: not tile-ssd-prebuild --set most --list 2>&1 | FileCheck %s --check-prefix=SET
# RUN: tile-ssd-prebuild --set most --list; test $? -eq 2
# RUN: rm -f %t.tkp
# RUN: not tile-ssd-prebuild --set core --arch sm_90a,sm_99z -o %t.tkp 2>&1 | FileCheck %s --check-prefix=ARCH
# RUN: test ! -e %t.tkp
# RUN: not tile-ssd-prebuild --set core --arch sm_90a 2>&1 | FileCheck %s --check-prefix=NEEDS
# RUN: not tile-ssd-prebuild --set core --arch sm_90a -j 0 -o %t.tkp 2>&1 | FileCheck %s --check-prefix=JOBS
# RUN: not tile-ssd-prebuild --set core --frobnicate 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# CORE: H=80 P=64 G=1 N=128 data=bfloat16 dt=float32 params=float32 chunk=auto: 42 requests
# CORE-NEXT: H=80 P=64 G=1 N=128 data=bfloat16 dt=bfloat16 params=float32 chunk=auto: 42 requests
# CORE-NEXT: H=80 P=64 G=1 N=128 data=bfloat16 dt=float32 params=float32 chunk=256: 42 requests
# CORE-NEXT: H=80 P=64 G=1 N=128 data=bfloat16 dt=bfloat16 params=float32 chunk=256: 42 requests
# CORE-NEXT: H=128 P=64 G=8 N=128 data=bfloat16 dt=float32 params=float32 chunk=auto: {{[0-9]+}} requests
# CORE-NEXT: H=128 P=64 G=8 N=128 data=bfloat16 dt=bfloat16 params=float32 chunk=auto: {{[0-9]+}} requests
# CORE-NEXT: H=128 P=64 G=8 N=128 data=bfloat16 dt=float32 params=float32 chunk=256: {{[0-9]+}} requests
# CORE-NEXT: H=128 P=64 G=8 N=128 data=bfloat16 dt=bfloat16 params=float32 chunk=256: {{[0-9]+}} requests
# CORE-NEXT: H=32 P=64 G=1 N=64 data=bfloat16 dt=float32 params=float32 chunk=auto: {{[0-9]+}} requests
# CORE-NEXT: H=32 P=64 G=1 N=64 data=bfloat16 dt=bfloat16 params=float32 chunk=auto: {{[0-9]+}} requests
# CORE-NEXT: H=32 P=64 G=1 N=64 data=bfloat16 dt=float32 params=float32 chunk=256: {{[0-9]+}} requests
# CORE-NEXT: H=32 P=64 G=1 N=64 data=bfloat16 dt=bfloat16 params=float32 chunk=256: {{[0-9]+}} requests
# CORE-NEXT: H=80 P=64 G=1 N=128 data=float32 dt=float32 params=float32 chunk=auto: {{[0-9]+}} requests
# CORE-NEXT: H=80 P=64 G=1 N=128 data=float32 dt=float32 params=float32 chunk=256: {{[0-9]+}} requests
# SET: tile-ssd-prebuild: error: prebuilt signature set 'most': expected core or full
# ARCH: tile-ssd-prebuild: error: unknown target 'sm_99z'
# NEEDS: tile-ssd-prebuild: error: --set, and --arch with -o (or --list), are required
# JOBS: tile-ssd-prebuild: error: -j takes a thread count from 1 to 256
# UNKNOWN: tile-ssd-prebuild: error: unknown argument '--frobnicate'
