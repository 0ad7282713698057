"""``cuda.tile.tune``'s search, for programs that tune on the host: each configuration is
compiled, launched and timed, and the fastest returned."""

import time
import warnings
from types import SimpleNamespace

from ._launch import launch, synchronize


def _wait(args):
    if any(getattr(a, "__dlpack_device__", lambda: (1, 0))()[0] != 1 for a in args):
        synchronize()


def exhaustive_search(search_space, stream, grid_fn, kernel, args_fn, hints_fn=None, repeat=10):
    """Times `kernel` in every configuration of `search_space` (launched on ``grid_fn(cfg)``
    with ``args_fn(cfg)``) and returns ``result.best.config`` / ``.best.time`` (ms) and every
    ``result.trials``. Hints (``num_ctas``, ``occupancy``) are not applied: tile-cc reads them
    from the kernel's decorator and chooses the rest itself."""
    if hints_fn is not None:
        warnings.warn("tilecc: exhaustive_search ignores hints_fn (num_ctas, occupancy): tile-cc takes kernel "
                      "options from the kernel's decorator", stacklevel=2)
    trials = []
    for cfg in search_space:
        args = args_fn(cfg)
        grid = grid_fn(cfg)
        launch(stream, grid, kernel, args)  # compiles and warms up
        _wait(args)
        start = time.perf_counter()
        for _ in range(repeat):
            launch(stream, grid, kernel, args)
        _wait(args)
        trials.append(SimpleNamespace(config=cfg, time=(time.perf_counter() - start) * 1e3 / repeat))
    if not trials:
        raise ValueError("exhaustive_search: the search space is empty")
    best = min(trials, key=lambda t: t.time)
    return SimpleNamespace(best=best, trials=trials)
