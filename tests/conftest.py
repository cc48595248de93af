"""Fixtures shared by the test modules: the benchmark expressions, built once per session."""
from __future__ import annotations

import pytest

from hornermcts.families import hep_sigma, resultant


@pytest.fixture(scope="session")
def hep():
    """HEP(sigma): 5717 terms, 15 variables."""
    return hep_sigma()


@pytest.fixture(scope="session")
def res75():
    """res(7,5): 11380 terms, 14 variables."""
    return resultant(7, 5)
