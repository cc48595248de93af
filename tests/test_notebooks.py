"""Every notebook in notebooks/ runs top to bottom in its small budget, so none of them rots.

Each is executed with nbclient on a kernel of this interpreter, with
``HORNERMCTS_NOTEBOOK_BUDGET=small`` (tiny searches, one process) and its
results folder in a temporary directory; any cell error fails the test.
The committed notebooks (and their outputs) are left untouched.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 300  # seconds per cell; the whole small budget takes well under a minute per notebook


@pytest.fixture(scope="module")
def kernel_name(tmp_path_factory):
    """A kernelspec that starts this very interpreter (the one hornermcts is installed in)."""
    from ipykernel.kernelspec import install

    prefix = tmp_path_factory.mktemp("kernel")
    install(prefix=str(prefix), kernel_name="hornermcts-test")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [str(prefix / "share" / "jupyter"),
                                                                os.environ.get("JUPYTER_PATH")])))
        yield "hornermcts-test"


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"sa_uct_paper.ipynb", "tour.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_in_small_budget(path, kernel_name, tmp_path, monkeypatch):
    monkeypatch.setenv("HORNERMCTS_NOTEBOOK_BUDGET", "small")
    monkeypatch.setenv("HORNERMCTS_NOTEBOOK_RESULTS", str(tmp_path / "results"))
    monkeypatch.setenv("HORNERMCTS_NOTEBOOK_WORKERS", "1")
    monkeypatch.setenv("HORNERMCTS_CACHE", str(tmp_path / "cache"))
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name=kernel_name,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code_cells)
    assert any("image/png" in o.get("data", {}) for c in code_cells for o in c.outputs), "no figure drawn"
