"""``import cuda.tile`` resolved to tilecc: an import hook, so cuTile programs run unchanged
(``python -m tilecc program.py``, or ``tilecc.install_cuda_tile_alias()`` in a process)."""

import importlib
import importlib.abc
import importlib.util
import sys
import types

_ALIASES = {"cuda.tile": "tilecc", "cuda.tile.tune": "tilecc.tune"}


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if name in _ALIASES:
            return importlib.util.spec_from_loader(name, self)
        if name == "cuda" and importlib.machinery.PathFinder.find_spec("cuda") is None:
            # No `cuda` package installed (cuda-python): an empty one to hold `tile`.
            return importlib.util.spec_from_loader(name, self, is_package=True)
        return None

    def create_module(self, spec):
        if spec.name in _ALIASES:
            return importlib.import_module(_ALIASES[spec.name])
        module = types.ModuleType(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def install():
    """Makes ``import cuda.tile`` (and ``cuda.tile.tune``) give tilecc."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
