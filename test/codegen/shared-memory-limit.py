# A tile too big for the target's shared memory is an error at the op that needs it, naming
# the tile, the amount and the target's limit.
# RUN: not tile-cc %s --kernel big --arg a=f32:2 --arg c=f32:2 --emit=ptx 2>&1 | FileCheck %s --check-prefix=SM90
# RUN: not tile-cc %s --kernel big --arg a=f32:2 --arg c=f32:2 --emit=ptx --arch sm_86 2>&1 | FileCheck %s --check-prefix=SM86
# RUN: tile-cc %s --kernel fits --arg a=f32:2 --arg c=f32:2 --emit=ptx --arch sm_86 -o /dev/null
import cuda.tile as ct


@ct.kernel
def big(a, c):
    t = ct.load(a, (0, 0), (256, 256))
    ct.store(c, (0, 0), ct.mma(t, t, t))


@ct.kernel
def fits(a, c):
    t = ct.load(a, (0, 0), (64, 64))
    ct.store(c, (0, 0), ct.mma(t, t, t))

# SM90: shared-memory-limit.py:12:25: error: tile 256x256xf32 needs 512 KiB of shared memory; the limit on sm_90 is 227 KiB
# SM86: error: tile 256x256xf32 needs 512 KiB of shared memory; the limit on sm_86 is 99 KiB
