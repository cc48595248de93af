"""The layout follows the pipeline: a module imports only from the layers below its own.

Data flows parse -> expression -> rewrites -> order search -> DAG -> cost ->
code, and the packages are layered so that a stage builds on what is below
it and never reaches up: the cost rules sit under the DAG that is counted by
them, the DAG under the stages that build one, the code generator over the
DAG it writes out, the pipeline (:mod:`hornermcts.pipeline`) over all of
them.  ``search/`` knows no domain: it imports :mod:`hornermcts.errors` only.
A failing test names the import, the two layers, and what to move.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "hornermcts"

#: The layers, lowest first: a unit (a package, a flat module, or a module named on its own) imports only
#: from units of lower layers, and from itself.
LAYERS = [
    ("errors",),
    ("collector", "deadline", "search", "cli.status_line"),  # the status line: the standard library only
    ("options", "polynomial"),
    ("parse",),
    ("cost",),  # FORM's cost model and the fast counter: what every stage is scored by
    ("dag",),
    ("cost.accuracy",),  # the error of a DAG evaluated in doubles
    ("order",),
    ("rewrites",),
    ("codegen",),
    ("expression",),
    ("pipeline",),
    ("sympy_dropins",),
    ("cli", "research", "domains"),
    ("__init__", "__main__"),
]

#: Units held to fewer imports than their layer allows: the search core knows no domain, a domain only the core.
ONLY = {
    "search": {"errors"},
    "domains": {"errors", "parse", "search"},
}

#: Imports against the layers, each with its reason.
ALLOWED = {
    ("expression", "pipeline"): "the front end (expression.written) hands each polynomial region to optimize(), "
                                "which hands an expression as written back to the front end",
}

LAYER = {unit: level for level, units in enumerate(LAYERS) for unit in units}


def unit_of(module: str) -> str:
    """The unit of a dotted module name below ``hornermcts``: ``cost.accuracy`` if listed, else ``cost``."""
    parts = module.split(".")[1:] or ["__init__"]
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in LAYER:
            return ".".join(parts[:n])
    return parts[0]


def module_name(path: Path, root: Path = ROOT) -> tuple[str, str]:
    """``(module, package)`` dotted names of a file of the library below ``root``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        return ".".join(parts), ".".join(parts[:-1])
    return ".".join(parts), ".".join(parts[:-1])


def imports(path: Path, root: Path = ROOT):
    """``(line, imported module)`` of each import of the library in ``path``, absolute or relative."""
    module, package = module_name(path, root)
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{a.name}" for a in node.names] if node.module is None else [target]
            for name in names:
                if name.startswith("hornermcts"):
                    yield node.lineno, name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("hornermcts"):
                    yield node.lineno, alias.name


def offences(root: Path = ROOT) -> list[str]:
    """Each import of the library below ``root`` against the layers, with what to do about it."""
    found = []
    for path in sorted((root / "hornermcts").rglob("*.py")):
        module, _ = module_name(path, root)
        source = unit_of(module)
        for line, target in imports(path, root):
            if target == "hornermcts":  # ``from .. import __version__``
                continue
            imported = unit_of(target)
            if imported == source or (source, imported) in ALLOWED:
                continue
            where = f"{path.relative_to(root)}:{line} imports {target}"
            if source in ONLY and imported not in ONLY[source]:
                found.append(f"{where}: {source} may import only {sorted(ONLY[source])}; move what it needs "
                             f"into {source} or pass it in from the caller")
            elif LAYER.get(imported, -1) >= LAYER.get(source, len(LAYERS)):
                found.append(f"{where}: {source} (layer {LAYER.get(source)}) reaches up to {imported} (layer "
                             f"{LAYER.get(imported)}); move what it uses down to {source} or below, or this code "
                             f"up to {imported} or above (tests/test_layout.py: LAYERS)")
    return found


def test_every_unit_of_the_library_has_a_layer():
    units = {unit_of(module_name(p)[0]) for p in LIBRARY.rglob("*.py")}
    assert units <= set(LAYER), f"give these a layer in tests/test_layout.py LAYERS: {sorted(units - set(LAYER))}"


def test_imports_follow_the_layers():
    assert not offences(), "\n".join(offences())


def test_a_stage_reaching_up_is_caught(tmp_path):
    probe = tmp_path / "hornermcts" / "rewrites" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from ..codegen import emit\nfrom ..search import mcts\nfrom . import substitution\n")
    (tmp_path / "hornermcts" / "search").mkdir()
    (tmp_path / "hornermcts" / "search" / "core.py").write_text("from ..dag import Dag\nfrom ..errors import E\n")
    found = offences(tmp_path)
    assert len(found) == 2, found
    assert found[0].startswith("hornermcts/rewrites/probe.py:1 imports hornermcts.codegen: rewrites (layer 8) "
                               "reaches up to codegen (layer 9)"), found
    assert found[1].startswith("hornermcts/search/core.py:1 imports hornermcts.dag: search may import only "
                               "['errors']"), found


def test_the_readme_lists_every_package_on_one_line():
    """The README's layout block: a line ``  name/   what it holds`` for every package of the library."""
    readme = (ROOT / "README.md").read_text()
    fence = "`" * 3
    block = readme[readme.index(f"{fence}\nhornermcts/"):]
    block = block[: block.index(f"\n{fence}")]
    entries = [line for line in block.splitlines()[1:] if line.startswith("  ") and line[2] != " "]
    listed = {line.split()[0].rstrip("/") for line in entries}
    packages = {p.parent.name for p in LIBRARY.glob("*/__init__.py")}
    assert packages <= listed, f"add a line for each to README.md's layout: {sorted(packages - listed)}"
