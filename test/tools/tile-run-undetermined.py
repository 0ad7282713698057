# tile-run: loads with UNDETERMINED padding (the default) read zero outside the array, as the
# generated code does; --undetermined-nan fills them with a poison value to show a kernel that
# reads them.
# RUN: tile-run %s --kernel k --array x=f32:6:full=2 --array y=f32:8 --print y | FileCheck %s --check-prefix=ZERO
# RUN: tile-run %s --kernel k --array x=f32:6:full=2 --array y=f32:8 --undetermined-zero --print y | FileCheck %s --check-prefix=ZERO
# RUN: tile-run %s --kernel k --array x=f32:6:full=2 --array y=f32:8 --undetermined-nan --print y | FileCheck %s --check-prefix=NAN
# ZERO: y: float32 (8,)
# ZERO-NEXT: [2, 2, 2, 2, 2, 2, 0, 0]
# NAN: y: float32 (8,)
# NAN-NEXT: [2, 2, 2, 2, 2, 2, nan, nan]
import cuda.tile as ct


@ct.kernel
def k(x, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(8,)))
