"""Every Python snippet of the README, run as a user would (issue 37 item 6).

The snippets are read from README.md itself, so a snippet that changes is
tested as it now stands: the first three are run in one namespace (as a
session reading the README top to bottom would), and what their comments
promise is checked; the sweep snippets need a Dask cluster, so each call in
them is checked against the signature of the function it calls (an unknown
or misspelt keyword fails).
"""
from __future__ import annotations

import ast
import inspect
import os
import re
from pathlib import Path

import numpy as np
import pytest
import sympy

import hornermcts
from hornermcts.research import experiments

README = Path(__file__).resolve().parents[1] / "README.md"


def snippets() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_the_snippets_this_test_knows():
    found = snippets()
    assert len(found) == 5, "a snippet was added or removed: test it here"
    assert "hornermcts.optimize(x**3*y**2" in found[0] and "lambdify" in found[1] and "codegen" in found[2]
    assert "sweep(" in found[3] and "cp_sweep(" in found[4]


@pytest.fixture(scope="module")
def session() -> list[dict]:
    """The first three snippets run in order in one namespace, from the repository's root (as the README's
    paths); the namespace as each left it."""
    namespace: dict = {}
    states = []
    here = os.getcwd()
    os.chdir(README.parent)
    try:
        for code in snippets()[:3]:
            exec(compile(code, str(README), "exec"), namespace)
            states.append(dict(namespace))
    finally:
        os.chdir(here)
    return states


def test_the_first_snippet_gives_what_its_comments_say(session):
    result = session[0]["result"]
    x, y, z = sympy.symbols("x y z")
    assert (result.before.total, result.after.total) == (11, 6)
    assert result.order == (x, y, z)
    assert str(result.expression()) == "x**2*(x*(y**2 + z) + y)"  # as the comment shows it
    assert result.form == "optimized"
    replacements, exprs = result.assignments()
    assert sympy.expand(exprs[0].subs(replacements[::-1]) - (x**3 * y**2 + x**2 * y + x**3 * z)) == 0
    assert session[0]["graph"].number_of_nodes() > 0


def test_lambdify_with_cse_gives_a_list_as_the_readme_says(session):
    assert session[1]["f"](1, 2, 3) == [9]


def test_the_code_generation_snippet_evaluates_every_point(session):
    values, points = session[2]["values"], session[2]["points"]
    assert values.shape == (1000,)
    one = hornermcts.codegen.load_python(hornermcts.codegen.to_python(session[2]["result"]))
    assert np.allclose(values[:5], [one(p) for p in points[:5]], rtol=1e-12)


@pytest.mark.parametrize("index", [3, 4])
def test_the_sweep_snippets_call_what_exists_with_keywords_it_takes(index):
    functions = {"sweep": experiments.sweep, "cp_sweep": experiments.cp_sweep}
    calls = [node for node in ast.walk(ast.parse(snippets()[index]))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) in functions]
    assert calls
    for call in calls:
        signature = inspect.signature(functions[call.func.id])
        signature.bind(*[object() for _ in call.args], **{k.arg: object() for k in call.keywords})
