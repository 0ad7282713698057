"""Launches on NumPy arrays, which run on tile-cc's interpreter (what CI checks without a GPU)."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import tilecc
import kernels as k


def test_add_ragged():
    n = 1000
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    tilecc.launch(None, (math.ceil(n / 128),), k.add, (a, b, c, 128))
    np.testing.assert_array_equal(c, a + b)


def test_host_code_beside_the_kernels_is_set_aside():
    # kernels.py has host code with raise, with, try and f-strings (as NVIDIA's samples do).
    a = np.arange(300, dtype=np.float32)
    c = np.zeros_like(a)
    k.checked_launch(None, k.add, a, a, c, 64)
    np.testing.assert_array_equal(c, a + a)


def test_replace_hints_warns_and_keeps_the_kernel():
    with pytest.warns(UserWarning, match="replace_hints\\(num_ctas, occupancy\\) on 'add' is not applied"):
        assert k.add.replace_hints(num_ctas=2, occupancy=1) is k.add


def test_warp_specialize_option_compiles_and_runs():
    # @ct.kernel(warp_specialize=True) is tile-cc's own option; the interpreter runs the loop.
    x = np.arange(5 * 300, dtype=np.float32).reshape(5, 300) % 7
    out = np.zeros(5, dtype=np.float32)
    tilecc.launch(None, (5,), k.row_sums, (x, out, 64))
    np.testing.assert_allclose(out, x.sum(axis=1), rtol=1e-6)


def test_add_other_dtype_and_tile_specialize():
    for dtype, tile in ((np.float64, 64), (np.int32, 256), (np.float16, 32)):
        n = 300
        a = (np.arange(n) % 17).astype(dtype)
        b = (np.arange(n) % 5).astype(dtype)
        c = np.zeros(n, dtype=dtype)
        tilecc.launch(None, tilecc.cdiv(n, tile), k.add, [a, b, c, tile])
        np.testing.assert_array_equal(c, a + b)


def test_scalars_keep_their_dtype():
    n = 257
    x = np.linspace(-1, 1, n).astype(np.float32)
    y = np.ones(n, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    tilecc.launch(None, (3,), k.axpy, (x, y, out, 2.5, 128))
    np.testing.assert_allclose(out, x * 2.5 + y, rtol=1e-6)
    out64 = np.zeros(n, dtype=np.float64)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    tilecc.launch(None, (3,), k.axpy, (x64, y64, out64, np.float64(1.0 / 3.0), 128))
    np.testing.assert_allclose(out64, x64 / 3.0 + y64, rtol=1e-15)


def test_strided_views_and_defaults():
    base = np.arange(40 * 70, dtype=np.float32).reshape(40, 70)
    x = base[::2, 3:53]                     # rows 2 apart, an offset into each row
    s = np.arange(20, dtype=np.float32)
    out = np.zeros((20, 50), dtype=np.float32)
    tilecc.launch(None, (tilecc.cdiv(20, 8), tilecc.cdiv(50, 16)), k.scale_rows, (x, s, out, 8))  # TN = 16
    np.testing.assert_array_equal(out, x * s[:, None])


def test_transposed_view():
    x = np.arange(12 * 33, dtype=np.float32).reshape(33, 12).T  # last stride is not 1
    out = np.zeros(12, dtype=np.float32)
    tilecc.launch(None, (12,), k.row_sum, (x, out, 64))
    np.testing.assert_array_equal(out, x.sum(axis=1))


def test_autotuned_kernel_with_a_grid_per_configuration():
    n = 200
    x = np.arange(n, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    seen = []

    def grid(cfg):
        seen.append(cfg.TILE)
        return (tilecc.cdiv(n, cfg.TILE),)

    tilecc.launch(None, grid, k.tuned_copy, (x, out, n))
    np.testing.assert_array_equal(out, x)
    assert seen == [32, 64]


def test_declaration():
    d = k.scale_rows.declaration()
    assert [(p["name"], p["constant"], p["has_default"]) for p in d["params"]] == [
        ("x", False, False), ("s", False, False), ("out", False, False), ("TM", True, False), ("TN", True, True)]
    assert k.tuned_copy.declaration()["autotune_configs"] == [{"TILE": 32}, {"TILE": 64}]
    assert k.tuned_copy.declaration()["autotune_key"] == ["n"]


def test_a_kernel_is_not_called_from_the_host():
    with pytest.raises(TypeError, match="tilecc.launch"):
        k.add(1, 2, 3, 4)


def test_tile_operations_are_not_called_from_the_host():
    with pytest.raises(TypeError, match="ct.load is a tile operation"):
        tilecc.load(None)


def test_missing_argument_names_it():
    a = np.zeros(8, dtype=np.float32)
    with pytest.raises(tilecc.TileArgumentError, match=r"argument 4 \('TILE'\) of add"):
        tilecc.launch(None, (1,), k.add, (a, a, a))


def test_tensor_for_a_constant():
    a = np.zeros(8, dtype=np.float32)
    with pytest.raises(tilecc.TileArgumentError, match=r"'TILE'.*ct.Constant"):
        tilecc.launch(None, (1,), k.add, (a, a, a, a))


def test_too_many_arguments():
    a = np.zeros(8, dtype=np.float32)
    with pytest.raises(tilecc.TileArgumentError, match="takes 4 arguments, 5 were given"):
        tilecc.launch(None, (1,), k.add, (a, a, a, 8, 9))


def test_not_an_array():
    a = np.zeros(8, dtype=np.float32)
    with pytest.raises(TypeError, match="argument 2 is a str"):
        tilecc.launch(None, (1,), k.add, (a, "b", a, 8))


def test_unsupported_dtype():
    a = np.zeros(8, dtype=np.complex64)
    with pytest.raises((tilecc.TileArgumentError, BufferError, TypeError)):
        tilecc.launch(None, (1,), k.add, (a, a, a, 8))


def test_bad_grids():
    a = np.zeros(8, dtype=np.float32)
    with pytest.raises(ValueError, match=r"grid\[0\] = 0"):
        tilecc.launch(None, (0,), k.add, (a, a, a, 8))
    with pytest.raises(ValueError, match="4 dimensions"):
        tilecc.launch(None, (1, 1, 1, 1), k.add, (a, a, a, 8))
    with pytest.raises(TypeError, match="no @ct.autotune"):
        tilecc.launch(None, lambda cfg: (1,), k.add, (a, a, a, 8))


def test_compile_error_has_the_location(tmp_path):
    bad = tmp_path / "bad_kernel.py"
    bad.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef bad(a, T: ct.Constant[int]):\n"
                   "    t = ct.load(a, index=(0,), shape=(T,))\n    ct.store(a, index=(0,), tile=t + undefined_name)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import bad_kernel
    finally:
        sys.path.pop(0)
    a = np.zeros(8, dtype=np.float32)
    with pytest.raises(tilecc.TileArgumentError, match=r"bad_kernel.py:6:\d+: error: .*undefined_name"):
        tilecc.launch(None, (1,), bad_kernel.bad, (a, 8))


def test_version():
    assert tilecc.version().count(".") == 2


def test_python_m_tilecc_runs_a_cutile_program(tmp_path):
    program = tmp_path / "program.py"
    program.write_text(
        "import sys\nimport numpy as np\nimport cuda.tile as ct\n\n"
        "@ct.kernel\ndef twice(x, y, TILE: ct.Constant[int]):\n"
        "    i = ct.bid(0)\n    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(TILE,)) * 2)\n\n"
        "if __name__ == '__main__':\n"
        "    x = np.arange(64, dtype=np.float32)\n    y = np.zeros_like(x)\n"
        "    ct.launch(None, (ct.cdiv(64, 16),), twice, (x, y, 16))\n"
        "    assert (y == 2 * x).all()\n    print('ok', sys.argv[1:], ct.__name__)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    result = subprocess.run([sys.executable, "-m", "tilecc", str(program), "--flag"], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok ['--flag'] tilecc"


def test_factory_kernels_specialize_on_their_closure():
    # make_scale(factor, BLOCK) defines a kernel that uses factor, BLOCK and a local of the
    # factory; each call gives a kernel specialized on its own values.
    x = np.arange(64, dtype=np.float32)
    double, triple = k.make_scale(2.0, 16), k.make_scale(3, 32)
    assert (double.name, triple.name) == ("make_scale.scale", "make_scale.scale")
    assert [p["name"] for p in double.declaration()["params"]] == ["factor", "BLOCK", "offset", "x", "y"]
    y2, y3 = np.zeros_like(x), np.zeros_like(x)
    tilecc.launch(None, (4,), double, (x, y2))
    tilecc.launch(None, (2,), triple, (x, y3))
    np.testing.assert_array_equal(y2, x * 2 + 4)
    np.testing.assert_array_equal(y3, x * 3 + 8)


def test_factory_kernel_with_a_non_scalar_closure_value():
    kern = k.make_scale(np.ones(2), 16)
    x = np.zeros(16, dtype=np.float32)
    with pytest.raises(TypeError, match="'factor', a variable of its factory that it uses, is a ndarray"):
        tilecc.launch(None, (1,), kern, (x, x))


def test_list_of_arrays_group_gemm():
    # Problems of different shapes (ragged against the tiles), as TileGym's group GEMM runs them.
    rng = np.random.default_rng(7)
    shapes = [(40, 20, 30), (70, 50, 20), (16, 16, 16)]
    As = [rng.standard_normal((m, kk)).astype(np.float32) for m, kk, n in shapes]
    Bs = [rng.standard_normal((n, kk)).astype(np.float32) for m, kk, n in shapes]
    Cs = [np.zeros((m, n), dtype=np.float32) for m, kk, n in shapes]
    tilecc.launch(None, (3,), k.group_gemm, (As, Bs, Cs, 32, 32, 16, 3))
    for a, b, c in zip(As, Bs, Cs):
        np.testing.assert_allclose(c, a @ b.T, rtol=1e-5, atol=1e-5)
    # Another length is another specialization.
    Cs2 = [np.zeros_like(c) for c in Cs[:2]]
    tilecc.launch(None, (2,), k.group_gemm, (As[:2], Bs[:2], Cs2, 32, 32, 16, 2))
    np.testing.assert_allclose(Cs2[1], As[1] @ Bs[1].T, rtol=1e-5, atol=1e-5)


def test_list_of_arrays_errors():
    a = np.zeros((16, 16), dtype=np.float32)
    with pytest.raises(tilecc.TileError, match=r"element 1 is float64:2 but element 0 is float32:2"):
        tilecc.launch(None, (1,), k.group_gemm, ([a, a.astype(np.float64)], [a, a], [a, a], 16, 16, 16, 1))
    with pytest.raises(TypeError, match=r"argument 1, element 0 is a str"):
        tilecc.launch(None, (1,), k.group_gemm, (["x"], [a], [a], 16, 16, 16, 1))
    with pytest.raises(tilecc.TileError, match=r"a list of arrays is indexed by compile-time integers"):
        tilecc.launch(None, (1,), k.pick, ([a[0], a[1]], a[0], 1, 16))
