"""Instructions per operation in the assembly of our blocked code and of FORM's code, at plain -O3 (SSE2).

For each expression, our blocked function (``codegen.to_c(..., block=2)``,
what ``compile`` builds for SSE2) and FORM O4's code translated to C as in
``evaluation_speed.py`` are compiled to assembly with the same flags
(default ``-O3 -ffp-contract=off``, no ``-march``: SSE2).  The instructions of
the evaluating functions (ours: the blocked kernel's parts, and its final
step where the compiler did not inline it into the loop over the points;
FORM's: ``form_f``) are
classified: arithmetic (``add/sub/mul`` ``pd``/``sd``, with a register or a
memory operand), loads, stores and register copies (``mov*``), other.
Instructions per operation, times points per instruction (2 for ours, 1 for
FORM's), give the speed-up at equal instructions per cycle; the measured
speed-up (``evaluation_speed.py``) over it is how many more instructions per
cycle our code runs (its parts run on a group of blocks in turn, from the
decoded-instruction cache: see ``hornermcts.codegen.c._c_blocks``).

    python benchmarks/instruction_mix.py [--expressions hep_sigma "res(7,5)"] [--flags -O3]
"""
from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from hornermcts import codegen

from hornermcts.research import families
from hornermcts.pipeline import optimize
from hornermcts.polynomial.text import form_names

from delivered import emitted_ops
from evaluation_speed import CACHE, form_code, form_code_to_c

ARITH = re.compile(r"^v?(add|sub|mul)(pd|sd)$")


def mix(assembly: str, functions: re.Pattern) -> Counter:
    """Instruction classes of the functions whose label matches ``functions``."""
    out: Counter = Counter()
    inside = False
    for line in assembly.splitlines():
        label = re.match(r"^([A-Za-z_][\w.]*):", line)  # a function; .L labels stay inside it
        if label:
            inside = bool(functions.fullmatch(label.group(1)))
            continue
        if not inside or not line.startswith("\t") or line.lstrip().startswith("."):
            continue
        op, *rest = line.split(None, 1)
        operands = rest[0].strip() if rest else ""
        if ARITH.match(op):
            out["arithmetic, memory operand" if "(" in operands else "arithmetic"] += 1
        elif op.startswith(("mov", "vmov")):
            out["store" if operands.endswith(")") else "load" if "(" in operands else "register copy"] += 1
        else:
            out["other"] += 1
    return out


def assembly(source: str, flags: list[str], directory: Path, name: str) -> str:
    path = directory / f"{name}.c"
    path.write_text(source)
    subprocess.run(["cc", *flags, "-ffp-contract=off", "-S", "-o", str(path.with_suffix(".s")), str(path)],
                   check=True)
    return path.with_suffix(".s").read_text()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expressions", nargs="+", default=["hep_sigma", "res(7,5)"])
    ap.add_argument("--flags", nargs="+", default=["-O3"])
    args = ap.parse_args()
    print(f"# python benchmarks/instruction_mix.py --flags {' '.join(args.flags)}")
    for name in args.expressions:
        poly = families.load(name)
        result = optimize(poly, seed=0)
        text = form_code(name, poly, 4, CACHE)
        form_ops = emitted_ops.total(emitted_ops.count_form(text))
        with tempfile.TemporaryDirectory() as tmp:
            ours = mix(assembly(codegen.to_c(result, "f", block=2), args.flags, Path(tmp), "ours"),
                       re.compile(r"f_block(_part\d+|_final)?"))
            form = mix(assembly(form_code_to_c(text, poly.symbols, form_names(poly.symbols)), args.flags,
                                Path(tmp), "form"), re.compile(r"form_f"))
        print(f"\n## {name}: ours {result.after.total} operations (2 points per instruction), "
              f"FORM O4 {form_ops} (1 point)")
        print(f"  {'class':<28} {'ours':>7} {'FORM':>7}")
        for key in ("arithmetic", "arithmetic, memory operand", "load", "store", "register copy", "other"):
            print(f"  {key:<28} {ours[key]:>7} {form[key]:>7}")
        per_ours = sum(ours.values()) / result.after.total
        per_form = sum(form.values()) / form_ops
        print(f"  {'instructions per operation':<28} {per_ours:>7.2f} {per_form:>7.2f}")
        print(f"  at equal instructions per cycle, ours / FORM's points per second <= "
              f"{2 * sum(form.values()) / sum(ours.values()):.2f}")


if __name__ == "__main__":
    main()
