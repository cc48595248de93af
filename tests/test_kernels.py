"""A compile of a hornermcts kernel is announced (issue 37 item 4): logged, and shown to whoever watches.

The probes are tiny functions whose module is made to look like hornermcts's, so
that compiling them takes a fraction of a second (the fast counter's own kernels
take 10-15 s, and are compiled once at install: see hornermcts/cost/kernels.py).
"""
from __future__ import annotations

import io
import logging
import sys

import pytest
from numba import njit

from hornermcts.cost import kernels


def probe(module: str):
    """A fresh kernel (never compiled) that claims to live in ``module``."""
    def add_one(x):
        return x + 1

    add_one.__module__ = module
    return njit(add_one)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_compile_is_logged_with_its_duration(caplog):
    with caplog.at_level(logging.INFO, logger="hornermcts"):
        assert probe("hornermcts.probe")(1) == 2
    messages = [r.getMessage() for r in caplog.records if r.name == "hornermcts"]
    assert messages[0].startswith("compiling hornermcts.probe.add_one (Numba;")
    assert messages[1].startswith("compiled hornermcts.probe.add_one in ")


def test_a_compile_shows_a_line_on_a_terminal(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    probe("hornermcts.probe")(1)
    shown = terminal.getvalue()
    assert "hornermcts: compiling hornermcts.probe.add_one" in shown
    assert shown.endswith("\r") and not shown.split("\r")[-2].strip()  # blanked when the compile is done


def test_nothing_is_written_when_no_one_watches(monkeypatch):
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    pipe = io.StringIO()  # not a terminal
    monkeypatch.setattr("sys.stderr", pipe)
    probe("hornermcts.probe")(1)
    assert pipe.getvalue() == ""


def test_announcing_hands_the_text_to_the_caller(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    shown = []
    with kernels.announcing(shown.append):
        probe("hornermcts.probe")(1)
    assert len(shown) == 1 and shown[0].startswith("compiling hornermcts.probe.add_one")
    assert terminal.getvalue() == ""


def test_other_packages_compiles_are_not_announced(caplog):
    with caplog.at_level(logging.INFO, logger="hornermcts"):
        probe("somebody_else")(1)
    assert not [r for r in caplog.records if r.name == "hornermcts"]


@pytest.mark.parametrize("module", ["hornermcts.probe.inner"])
def test_nested_compiles_are_announced_once(module, caplog):
    inner = probe(module)

    def outer(x):
        return inner(x) * 2

    outer.__module__ = "hornermcts.probe"
    with caplog.at_level(logging.INFO, logger="hornermcts"):
        assert njit(outer)(1) == 4
    starts = [r.getMessage() for r in caplog.records if r.getMessage().startswith("compiling ")]
    assert starts == [s for s in starts if "probe.outer" in s] and len(starts) == 1
