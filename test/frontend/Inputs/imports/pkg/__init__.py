# A package: `from .Inputs.imports.pkg import scale2` takes this name, `... import act` the
# submodule pkg/act.py.
import cuda.tile as ct


def scale2(x):
    return x * 2.0
