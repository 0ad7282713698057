# tile-cc --list-kernels on a file without kernels at its top level (here only a factory that
# defines one inside itself) fails and says why, so a script does not take an empty list for
# success.
# RUN: not tile-cc %s --list-kernels 2>&1 | FileCheck %s -DFILE=%s
# RUN: tile-cc %s --list-kernels; test $? -eq 1
# CHECK: tile-cc: error: [[FILE]] has no kernel: no function at the module's top level is decorated with @ct.kernel (kernels defined inside other functions are not found)
import cuda.tile as ct


def make_scale(factor):
    @ct.kernel
    def scale(x):
        ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) * factor)

    return scale
