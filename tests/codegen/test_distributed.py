"""The compiled evaluator on dask arrays and clusters (issue 38 item 3): the same values as in one process."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
import sympy

from hornermcts import codegen, optimize
from hornermcts.errors import OptionError

da = pytest.importorskip("dask.array")

x, y, z = sympy.symbols("x y z")


@pytest.fixture(scope="module")
def result():
    return optimize([sympy.expand((x + 2 * y) ** 5 - z * x**3), sympy.expand((y - z) ** 4 + x)], seed=0)


def test_a_compiled_callable_pickles_as_its_source_and_loads_again(result, tmp_path, monkeypatch):
    f = codegen.compile(result)
    points = np.random.default_rng(0).uniform(-1, 1, (100, 3))
    monkeypatch.setenv("HORNERMCTS_CACHE", str(tmp_path))  # another machine: an empty cache, built there
    g = pickle.loads(pickle.dumps(f))
    assert g.symbols == f.symbols and g.n_outputs == 2 and g.flags == f.flags and g.block == f.block
    assert g.library != f.library and np.array_equal(g(points), f(points))


@pytest.mark.parametrize("chunks", [(7, 3), (50, 1)])  # the second splits the variables: rechunked
def test_evaluate_dask_gives_the_compiled_values_in_their_shapes(result, chunks):
    f = codegen.compile(result)
    points = np.random.default_rng(1).uniform(-1, 1, (50, 3))
    values = codegen.evaluate_dask(f, da.from_array(points, chunks=chunks))
    assert values.shape == (50, 2)
    assert np.array_equal(values.compute(), f(points))
    grid = points.reshape(5, 10, 3)  # leading axes as NumPy's rules say
    assert np.array_equal(codegen.evaluate_dask(f, da.from_array(grid, chunks=(2, 4, 3))).compute(), f(grid))
    one = codegen.compile(optimize(x * y + z, seed=0), args=(x, y, z))
    assert np.array_equal(codegen.evaluate_dask(one, da.from_array(points, chunks=chunks)).compute(),
                          points[:, 0] * points[:, 1] + points[:, 2])


def test_evaluate_dask_names_the_variables_it_needs(result):
    with pytest.raises(OptionError, match="3 values on their last axis"):
        codegen.evaluate_dask(result, da.zeros((10, 2), chunks=5))


def test_evaluate_dask_on_a_local_cluster_of_processes(result):
    distributed = pytest.importorskip("dask.distributed")
    f = codegen.compile(result)
    points = np.random.default_rng(2).uniform(-1, 1, (10_000, 3))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster, set_as_default=False) as client:
        values = client.compute(codegen.evaluate_dask(f, da.from_array(points, chunks=(1000, 3)))).result()
    assert np.array_equal(values, f(points))
