"""Every committed notebook is executed, and its outputs are those the current cells and saved rows give.

A reader opening ``notebooks/*.ipynb`` sees the outputs committed with it, so these tests check that they are
there and current, cheaply enough for the CI:

* **Current cells.**  Each committed notebook holds exactly the cells ``notebooks/make_notebooks.py`` writes
  now (source and tags), so its outputs belong to the cells a reader sees.
* **Executed.**  Every code cell of the committed notebook has an execution count and outputs, none an error,
  at least one figure is drawn, and the notebook was executed with a budget other than ``small`` (the
  ``medium`` budget reads the committed result rows in ``benchmarks/results``).
* **Matches a fresh run at the small budget.**  The committed cells run again with
  ``HORNERMCTS_NOTEBOOK_BUDGET=small`` (the notebooks then draw the saved rows and compute little live; one
  process).  What "match" means:

  - every code cell has outputs and none fails;
  - every code cell draws as many figures (``image/png``) as the committed one; the pictures themselves are
    not compared pixel by pixel (fonts, backends and jitter change pixels, not what is drawn);
  - a code cell *not* tagged ``depends-on-budget`` prints the same text (standard output and the cell's
    value) as the committed one, after masking timings (a number followed by ``s``, ``ms``, ``ns``,
    ``seconds`` or ``minutes``) and memory addresses (``0x...``): its tables come from the saved rows,
    so a change of the code or of the rows that changes them fails here until the notebook is re-executed;
  - a cell tagged ``depends-on-budget`` (live searches, timings, priors learned from the budget's number of
    problems: its numbers are the committed budget's) prints text exactly when the committed one does.

Standard error (warnings, progress) is not compared.  A failure names the command that re-executes the
notebook: ``python notebooks/make_notebooks.py --execute medium --only NAME``.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

FOLDER = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
CELL_TIMEOUT = 300  # seconds per cell; a notebook's small budget takes seconds to tens of seconds
LIVE_TAG = "depends-on-budget"
TIMING = re.compile(r"\s*\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:s|ms|ns|µs|seconds?|minutes?)\b")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def again(path: Path) -> str:
    return f"re-execute it: python notebooks/make_notebooks.py --execute medium --only {path.name}"


def code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


def is_live(cell) -> bool:
    return LIVE_TAG in cell.metadata.get("tags", [])


def text_of(cell) -> str:
    """What a cell shows as text: its standard output and its value, timings and addresses masked."""
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream" and out.name == "stdout":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data") and "text/plain" in out.get("data", {}):
            if "image/png" not in out.data:  # a figure's text/plain is its repr
                parts.append(out.data["text/plain"])
    return ADDRESS.sub("0x", TIMING.sub(" <time>", "".join(parts)))


def figures(cell) -> int:
    return sum("image/png" in out.get("data", {}) for out in cell.outputs)


def errors(nb) -> list:
    return [(i, out.get("ename"), out.get("evalue")) for i, c in enumerate(code_cells(nb))
            for out in c.outputs if out.output_type == "error"]


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


@pytest.fixture(scope="module")
def written():
    """The notebooks as make_notebooks.py writes them now: {file name: notebook}."""
    sys.path.insert(0, str(FOLDER))
    try:
        import make_notebooks
    finally:
        sys.path.remove(str(FOLDER))
    return {name: make_notebooks.build(cells) for name, cells in make_notebooks.NOTEBOOKS.items()}


def test_every_notebook_is_committed(written):
    assert {p.name for p in NOTEBOOKS} == set(written)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_notebook_has_the_current_cells(path, written):
    committed = nbformat.read(path, as_version=4)
    now = written[path.name]
    shape = [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in committed.cells]
    assert shape == [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in now.cells], \
        f"{path.name} is not what make_notebooks.py writes: {again(path)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_notebook_is_executed(path):
    committed = nbformat.read(path, as_version=4)
    cells = code_cells(committed)
    missing = [i for i, c in enumerate(cells) if not c.execution_count or not c.outputs]
    assert not missing, f"{path.name}: code cells {missing} have no outputs: {again(path)}"
    assert not errors(committed), f"{path.name}: {errors(committed)}"
    assert sum(map(figures, cells)) > 0, f"{path.name} draws no figure"
    assert committed.metadata.get("hornermcts", {}).get("budget") in ("medium", "full"), \
        f"{path.name} was not executed on the saved rows (budget medium): {again(path)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_outputs_match_a_fresh_small_run(path, kernel_name, tmp_path, monkeypatch):
    monkeypatch.setenv("HORNERMCTS_NOTEBOOK_BUDGET", "small")
    monkeypatch.delenv("HORNERMCTS_NOTEBOOK_RESULTS", raising=False)  # the saved rows of this checkout
    monkeypatch.setenv("HORNERMCTS_NOTEBOOK_WORKERS", "1")
    monkeypatch.setenv("HORNERMCTS_CACHE", str(tmp_path / "cache"))
    committed = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    for cell in code_cells(fresh):
        cell.outputs, cell.execution_count = [], None
    client = nbclient.NotebookClient(fresh, timeout=CELL_TIMEOUT, kernel_name=kernel_name,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    assert not errors(fresh)
    for i, (old, new) in enumerate(zip(code_cells(committed), code_cells(fresh))):
        where = f"{path.name}, code cell {i} ({old.source.splitlines()[0]!r})"
        assert new.outputs, f"{where}: no output in the fresh run"
        assert figures(new) == figures(old), f"{where}: {figures(new)} figures, committed {figures(old)}: {again(path)}"
        if is_live(old):
            assert bool(text_of(new)) == bool(text_of(old)), f"{where}: {again(path)}"
        else:
            assert text_of(new) == text_of(old), f"{where} prints other text than committed: {again(path)}"
