"""Fixtures shared by the test modules (the benchmark expressions, built once per session) and the markers.

Markers (registered in pyproject.toml): ``form`` tests compare with FORM and
are skipped, saying so, when FORM or ``../shared/tools/form_ops.py`` is
missing; ``notebook`` tests execute the notebooks; ``slow`` tests take
seconds each.  ``pytest -m "not slow and not form and not notebook"`` is the
fast subset for development; CI runs everything.
"""
from __future__ import annotations

import pytest

from hornermcts.research import form
from hornermcts.research.families import hep_sigma, resultant


def pytest_collection_modifyitems(config, items):
    if form.available():
        return
    skip = pytest.mark.skip(reason="FORM (apt-get install -y form) or ../shared/tools/form_ops.py not available")
    for item in items:
        if "form" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def hep():
    """HEP(sigma): 5717 terms, 15 variables."""
    return hep_sigma()


@pytest.fixture(scope="session")
def res75():
    """res(7,5): 11380 terms, 14 variables."""
    return resultant(7, 5)
