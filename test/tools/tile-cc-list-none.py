# tile-cc --list-kernels on a file without kernels (here a kernel two functions deep, which is
# not found: only top-level kernels and those a top-level factory defines directly are) fails
# and says why, so a script does not take an empty list for success.
# RUN: not tile-cc %s --list-kernels 2>&1 | FileCheck %s -DFILE=%s
# RUN: tile-cc %s --list-kernels; test $? -eq 1
# CHECK: tile-cc: error: [[FILE]] has no kernel: no function at the module's top level, or defined directly in the body of one (a factory), is decorated with @ct.kernel
import cuda.tile as ct


def outer(factor):
    def make_scale():
        @ct.kernel
        def scale(x):
            ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) * factor)

        return scale

    return make_scale
