"""gait2d row N expanded (issue 38 item 1): FORM O1/O2 against ``hornermcts optimize`` fast and default, one run.

One command::

    python benchmarks/gait2d_expanded.py [--row 12] [--file PATH] [--timeout 1800]
        [--runs form1,form2,fast,default,stages-fast,stages-default] [--out benchmarks/results/gait2d_expanded.txt]

The polynomial: row ``--row`` (9..17, the dynamic rows held in
``shared/data/structured/gait2d_rows9_17.srepr``) of sympy_benchmarks'
``slow_benchmarks/core/artifacts/dis_eom.txt``, with ``sin(q)``/``cos(q)`` of
a symbol replaced by the symbols ``sinq``/``cosq``, every other
non-polynomial piece (``1/h``, ``Abs(...)``, ``1/(exp(...) + 1)``: the
largest subexpression that is not a sum, product, positive integer power,
number or symbol) by a fresh symbol ``p1, p2, ...`` (a negative power
``b^-k`` is the piece ``1/b`` to the ``k``), and expanded exactly with
python-flint's ``fmpq_mpoly``.  Row 12: 822,461 terms in 52 variables, total
degree 30, coefficients with denominators 1, 2, 4, 8.  It is written one term
per line in FORM syntax (``+3/2*x^2*y``) to ``--file`` or a temporary file
(about 50 MB: never commit it).

Then, each as a child process timed by its wall clock and its peak resident
memory (``os.wait4``'s ``ru_maxrss``, as ``scale.py`` does):

- ``form1``/``form2``: FORM itself (``form -q``) on a program that declares
  the symbols, reads the polynomial and runs ``Format O1`` (``O2``),
  ``#optimize`` and writes the optimized code (``%O``) to a file, as
  ``shared/tools/form_ops.py`` does; the operations are those of that code
  read by the tests' counter (``tests/helpers/emitted_ops.py``), FORM's own
  figure beside it;
- ``fast``/``default``: ``hornermcts optimize FILE --preset P --json
  --max-terms M`` (``M`` the smallest the input's terms x variables cells
  allow: the default 10^6 refuses 52 variables x 822,461 terms, and the run
  records that refusal first); ``--timeout`` seconds each (a timeout is
  reported as such);
- ``stages-fast``/``stages-default``: this script as a child
  (``--stages-of P FILE``) reading the file with ``read_file`` and calling
  ``hornermcts.optimize(poly, deadline=d, preset=P)`` with ``d.phases`` a
  recorder: the seconds of each phase the stages name
  (:attr:`hornermcts.deadline.Deadline.phases`), then the C emission's
  seconds and the operations of that C (which must equal the result's).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hornermcts.parse.budget import MAX_TERMS
from hornermcts.polynomial.sparse import MAX_CELLS

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "structured" / "gait2d_rows9_17.srepr"
FIRST_ROW = 9  # the file holds rows 9..17
RUNS = ("form1", "form2", "fast", "default", "stages-fast", "stages-default")
PHASE_MARK = "phase at "  # how the stages' child tells each phase on its standard error
CELLS_PER_TERM = MAX_CELLS // MAX_TERMS  # the command line's bound on the input: --max-terms x 30 exponent cells
#: The stages' phases (their texts' beginnings, ``hornermcts.pipeline``) in the table's columns.
STAGES = (("reading", "reading"), ("new variables", "looking for new variables"), ("factoring", "factor"),
          ("searching orders", "searching orders"), ("searching orders", "scoring the occurrence orders"),
          ("building DAGs", "building"), ("greedy", "greedy"), ("greedy", "checking the greedy"),
          ("accuracy", "measuring the accuracy"), ("own variables again", "the same search in the input's own"),
          ("kernels", "loading compiled kernels"), ("kernels", "compiling"))


def load_row(row: int):
    """gait2d row ``row`` as a SymPy expression (trusted data: sympify evaluates)."""
    import sympy

    if not FIRST_ROW <= row <= FIRST_ROW + 8:
        raise SystemExit(f"row {row}: {SHARED.name} holds rows {FIRST_ROW}..{FIRST_ROW + 8}")
    return sympy.sympify(sympy.sympify(SHARED.read_text())[row - FIRST_ROW])


def polynomial_names(expr) -> tuple[list[str], dict]:
    """The variables of ``expr`` as a polynomial: its symbols, ``sinq``/``cosq``, and ``{piece: p1, p2, ...}``."""
    import sympy

    names: set[str] = set()
    pieces: dict = {}
    stack, seen = [expr], set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node.is_Symbol:
            names.add(str(node))
        elif node.is_Add or node.is_Mul:
            stack.extend(node.args)
        elif node.is_Pow and node.exp.is_Integer and node.exp != -1:
            stack.append(node.base if node.exp > 0 else 1 / node.base)
        elif node.func in (sympy.sin, sympy.cos) and node.args[0].is_Symbol:
            names.add(f"{node.func.__name__}{node.args[0]}")
        elif not node.is_Rational:
            pieces.setdefault(node, f"p{len(pieces) + 1}")
    taken = names & set(pieces.values())
    if taken:
        raise SystemExit(f"the fresh names {sorted(taken)} are symbols of the row already")
    return sorted(names) + list(pieces.values()), pieces


def expanded(expr):
    """``(names, poly)``: ``expr`` with its pieces replaced (:func:`polynomial_names`), expanded by flint."""
    import sympy
    from flint import fmpq, fmpq_mpoly_ctx

    names, pieces = polynomial_names(expr)
    ctx = fmpq_mpoly_ctx.get(tuple(names), "lex")
    gens = dict(zip(names, ctx.gens()))
    memo: dict = {}

    def convert(node):  # shared subexpressions (the rows repeat them) expanded once
        if node in memo:
            return memo[node]
        if node.is_Symbol:
            out = gens[str(node)]
        elif node.is_Rational:
            out = ctx.from_dict({}) + fmpq(int(node.p), int(node.q))
        elif node.is_Add:
            out = ctx.from_dict({})
            for a in node.args:
                out = out + convert(a)
        elif node.is_Mul:
            out = convert(node.args[0])
            for a in node.args[1:]:
                out = out * convert(a)
        elif node.is_Pow and node.exp.is_Integer and node.exp != -1:
            out = convert(node.base if node.exp > 0 else 1 / node.base) ** abs(int(node.exp))
        elif node.func in (sympy.sin, sympy.cos) and node.args[0].is_Symbol:
            out = gens[f"{node.func.__name__}{node.args[0]}"]
        else:
            out = gens[pieces[node]]
        memo[node] = out
        return out

    return names, convert(expr)


def write_form(path: Path, names: list[str], poly) -> int:
    """Write ``poly`` one term per line in FORM syntax (``+3/2*x^2*y``); return the file's size in bytes."""
    with open(path, "w") as fh:
        lines = []
        for exps, c in zip(poly.monoms(), poly.coeffs()):
            factors = [names[j] if e == 1 else f"{names[j]}^{e}" for j, e in enumerate(exps) if e]
            p, q = int(c.p), int(c.q)
            number = f"{abs(p)}/{q}" if q != 1 else str(abs(p))
            body = "*".join(([number] if number != "1" or not factors else []) + factors)
            lines.append(f"{'-' if p < 0 else '+'}{body}\n")
            if len(lines) == 100_000:
                fh.writelines(lines)
                lines = []
        fh.writelines(lines)
    return path.stat().st_size


def run_child(command: list[str], timeout: float | None, cwd: str | None = None) -> dict:
    """Run ``command``: its wall seconds, peak MB (``ru_maxrss``), exit status, output; killed after ``timeout``."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=err, text=True, cwd=cwd, start_new_session=True)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if timeout is not None and time.perf_counter() - start > timeout:
                os.killpg(proc.pid, signal.SIGKILL)  # its forked workers too
                timed_out = True
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.2)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"wall": wall, "peak": usage.ru_maxrss / 1024, "status": proc.returncode, "timed_out": timed_out,
                "stdout": out.read(), "stderr": err.read()}


def form_run(path: Path, names: list[str], level: int, timeout: float | None) -> dict:
    """FORM ``O<level>`` on the file: the child's figures plus ``ops`` (its emitted code, counted) and FORM's own."""
    with tempfile.TemporaryDirectory() as tmp:
        program, code = Path(tmp) / "opt.frm", Path(tmp) / "code.txt"
        with open(program, "w") as fh, open(path) as poly:
            fh.write("#-\nOff statistics;\nSymbols " + ",".join(names) + ";\nLocal F =\n")
            for line in poly:
                fh.write(line)
            fh.write(f";\n.sort\nFormat O{level},stats=on;\n#optimize F\n")
            fh.write(f'#write <{code}> "%O"\n#write <{code}> "F = %e", F\n.end\n')
        run = run_child(["form", "-q", str(program)], timeout, cwd=tmp)
        stats = re.findall(r"STATS: (original|optimized)\s+(.*?):\s*(\d+)", run["stdout"] + run["stderr"])
        if run["timed_out"]:
            return run | {"ops": None, "form_figure": None}
        if run["status"] != 0 or len(stats) < 2:
            raise SystemExit(f"FORM O{level} failed:\n{(run['stdout'] + run['stderr'])[-2000:]}")
        ops = int(subprocess.run([sys.executable, __file__, "--count-form", str(code)], capture_output=True,
                                 text=True, check=True).stdout)
    return run | {"ops": ops, "form_figure": int(dict((k, v) for k, _, v in stats)["optimized"])}


def cli_run(path: Path, preset: str, timeout: float | None, max_terms: int | None) -> dict:
    """``hornermcts optimize PATH --preset P --json [--max-terms M]``: the child's figures plus ``ops`` and JSON."""
    extra = [] if max_terms is None else ["--max-terms", str(max_terms)]
    run = run_child([sys.executable, "-m", "hornermcts.cli", "optimize", str(path), "--preset", preset, "--json",
                     *extra], timeout)
    if run["timed_out"]:
        return run | {"ops": None}
    if run["status"] == 2 and run["stderr"].strip().count("\n") == 0:  # a refusal, one line
        return run | {"ops": None, "refused": run["stderr"].strip()}
    if run["status"] != 0:
        raise SystemExit(f"hornermcts optimize {path} --preset {preset} failed: {run['stderr'][-2000:]}")
    summary = json.loads(run["stdout"])
    return run | {"ops": summary["after"]["total"], "summary": summary}


def stages_of(preset: str, path: str, max_terms: int) -> None:
    """The child of ``stages-P``: read, optimize with a phase recorder, emit C; print the figures as JSON."""
    from delivered import emitted_ops

    import hornermcts
    from hornermcts.codegen import to_c
    from hornermcts.cost.kernels import warm
    from hornermcts.deadline import Deadline
    from hornermcts.parse import read_file

    started = time.perf_counter()
    warm()  # load (or compile) the kernels first: their own phase
    phases: list = [["loading compiled kernels", time.perf_counter() - started]]
    start = time.perf_counter()
    poly = read_file(path, max_terms=max_terms)
    phases.append(["reading the file (read_file)", time.perf_counter() - start])
    marks: list = []
    d = Deadline(None)
    opt_start = time.perf_counter()

    def record(text: str, bar: bool = False) -> None:  # also told at once: a run stopped at its timeout says where
        marks.append((text, time.perf_counter()))
        print(f"{PHASE_MARK}{marks[-1][1] - opt_start:.2f} {text}", file=sys.stderr, flush=True)

    d.phases = record
    result = hornermcts.optimize(poly, deadline=d, preset=preset, max_terms=max_terms, progress=None)
    end = time.perf_counter()
    if marks and marks[0][1] > opt_start + 1e-3:
        phases.append(["(before the first phase)", marks[0][1] - opt_start])
    for (text, t), (_, t_next) in zip(marks, marks[1:] + [("", end)]):
        phases.append([text, t_next - t])
    start = time.perf_counter()
    code = to_c(result, batch=False)
    phases.append(["emitting C (codegen.to_c)", time.perf_counter() - start])
    emitted = emitted_ops.total(emitted_ops.count_c(code))
    if emitted != result.after.total:
        raise SystemExit(f"reported {result.after.total} operations, the emitted C has {emitted}")
    print(json.dumps({"phases": phases, "ops": emitted, "optimize": end - opt_start,
                      "optimize_seconds": result.seconds, "form": result.form,
                      "new_variables": len(result.variables)}))


def stages_run(path: Path, preset: str, timeout: float | None, max_terms: int) -> dict:
    """This script's ``--stages-of`` child: its figures plus its JSON."""
    run = run_child([sys.executable, __file__, "--stages-of", preset, str(path), "--max-terms", str(max_terms)],
                    timeout)
    if run["timed_out"]:  # the phases it began, each until the next (the last until the timeout)
        marks = [line[len(PHASE_MARK):].split(" ", 1) for line in run["stderr"].splitlines()
                 if line.startswith(PHASE_MARK)]
        ends = [float(t) for t, _ in marks[1:]] + [run["wall"]]
        return run | {"ops": None, "summary": {"phases": [[f"{text} (begun)" if k == len(marks) - 1 else text,
                                                          end - float(t)] for k, ((t, text), end)
                                                         in enumerate(zip(marks, ends))]}}
    if run["status"] != 0:
        raise SystemExit(f"stages of {preset} failed: {run['stderr'][-2000:]}")
    summary = json.loads(run["stdout"])
    return run | {"ops": summary["ops"], "summary": summary}


def stage_table(phases: list) -> dict:
    """Seconds by stage (:data:`STAGES`), each phase in the first stage whose text it starts with."""
    table: dict = {}
    for text, seconds in phases:
        label = next((label for label, start in STAGES if text.startswith(start)), "emitting C"
                     if text.startswith("emitting") else "other")
        table[label] = table.get(label, 0.0) + seconds
    return table


def describe(name: str, run: dict) -> list[str]:
    """The results' lines for one run."""
    status = "timed out" if run["timed_out"] else "refused" if "refused" in run else "ok"
    ops = "-" if run.get("ops") is None else f"{run['ops']:,}"
    lines = [f"{name:<16} {ops:>10} {run['wall']:>9.1f} {run['peak']:>8,.0f}  {status}"]
    if "refused" in run:
        lines.append(f"#   {run['refused']}")
    if "form_figure" in run and run["form_figure"] is not None:
        lines.append(f"#   FORM's own figure {run['form_figure']:,}")
    summary = run.get("summary") or {}
    if "seconds" in summary:
        lines.append(f"#   optimize {summary['seconds']:.1f} s; form {summary['form']}, "
                     f"{len(summary['new_variables'])} new variables, Horner + CSE {summary['horner_cse']['total']:,}")
    if "phases" in summary:
        lines.append("#   stages: " + ", ".join(f"{k} {v:.1f}" for k, v in stage_table(summary["phases"]).items()))
        lines += [f"#     {seconds:8.2f} s  {text}" for text, seconds in summary["phases"]]
    return lines


def build_file(row: int, path: str) -> None:
    """The child of the build: write row ``row`` expanded to ``path``; print its names and description as JSON."""
    start = time.perf_counter()
    expr = load_row(row)
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    names, poly = expanded(expr)
    expanding = time.perf_counter() - start
    used = [n for n, d in zip(names, poly.degrees()) if d > 0]
    start = time.perf_counter()
    size = write_form(Path(path), names, poly)
    writing = time.perf_counter() - start
    denominators = sorted({int(c.q) for c in poly.coeffs()})
    text = [f"# gait2d row {row} expanded: {len(poly):,} terms in {len(used)} variables, total degree "
            f"{poly.total_degree()}, coefficient denominators {denominators}; {size / 1e6:.0f} MB in FORM syntax",
            f"# (sympify {loaded:.1f} s, flint expansion {expanding:.1f} s, writing {writing:.1f} s)",
            f"# variables: {' '.join(used)}"]
    print(json.dumps({"names": used, "lines": text, "terms": len(poly)}))


def count_form(path: str) -> None:
    """The child that counts FORM's code: print the operations of the code in ``path``."""
    from delivered import emitted_ops

    print(emitted_ops.total(emitted_ops.count_form(Path(path).read_text())))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--row", type=int, default=12)
    parser.add_argument("--file", help="where to write the expanded row (default: a temporary file, removed)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds for each run (default 1800)")
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, of {','.join(RUNS)}")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "gait2d_expanded.txt"))
    parser.add_argument("--build", help=argparse.SUPPRESS)  # the children's modes: this process stays small,
    parser.add_argument("--count-form", help=argparse.SUPPRESS)  # for its peak counts in each child's (exec keeps
    parser.add_argument("--stages-of", nargs=2, help=argparse.SUPPRESS)  # the high-water mark of the vfork'ed mm)
    parser.add_argument("--max-terms", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.build:
        build_file(args.row, args.build)
        return 0
    if args.count_form:
        count_form(args.count_form)
        return 0
    if args.stages_of:
        stages_of(*args.stages_of, args.max_terms)
        return 0
    runs = [r for r in args.runs.split(",") if r]
    if set(runs) - set(RUNS):
        raise SystemExit(f"unknown runs {sorted(set(runs) - set(RUNS))}; known: {', '.join(RUNS)}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.file) if args.file else Path(tmp) / f"gait2d_row{args.row}.txt"
        built = run_child([sys.executable, __file__, "--row", str(args.row), "--build", str(path)], None)
        if built["status"] != 0:
            raise SystemExit(f"building the row failed: {built['stderr'][-2000:]}")
        made = json.loads(built["stdout"])
        names, max_terms = made["names"], max(10**6, math.ceil(made["terms"] * len(made["names"]) / CELLS_PER_TERM))
        lines = [f"# python benchmarks/gait2d_expanded.py --row {args.row}  ({time.strftime('%Y-%m-%d %H:%M')}; "
                 f"{platform.machine()}, {os.cpu_count()} cores; uptime at the start: {uptime()})", *made["lines"],
                 f"# (built in {built['wall']:.1f} s, peak {built['peak']:,.0f} MB)",
                 f"# timeout {args.timeout:.0f} s per run; hornermcts runs with --max-terms {max_terms:,}",
                 f"{'run':<16} {'operations':>10} {'wall s':>9} {'peak MB':>8}  status"]
        report(lines)
        if {"fast", "default"} & set(runs) and max_terms > 10**6:  # what a user meets first
            lines += report(describe("fast, no --max-terms", cli_run(path, "fast", args.timeout, None)))
        for name in runs:
            if name.startswith("form"):
                run = form_run(path, names, int(name[-1]), args.timeout)
            elif name.startswith("stages-"):
                run = stages_run(path, name.split("-", 1)[1], args.timeout, max_terms)
            else:
                run = cli_run(path, name, args.timeout, max_terms)
            lines += report(describe(name, run) + [f"#   {uptime()} after it"])
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"written {args.out}")
    return 0


def report(lines: list[str]) -> list[str]:
    """Print ``lines`` now; return them (for the results file)."""
    print("\n".join(lines), flush=True)
    return lines


def uptime() -> str:
    """``uptime``'s load averages."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
