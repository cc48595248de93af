#!/usr/bin/env python3
"""Write a benchmark polynomial as text, one term per line.

    python expressions/generate.py res 7 5 -o res_7_5.txt
    python expressions/generate.py det 6 -o det_6.txt
    python expressions/generate.py structured 30 3000 --seed 1 -o s30.txt
    python expressions/generate.py random 20 500 --max-degree 3 --seed 2
    python expressions/generate.py load hep_sigma --syntax sympy

The default syntax is FORM's (``+3*a0^2*b1``), which
``shared/tools/form_ops.py FILE --level 1`` reads; symbols FORM cannot read
(``m_0_1``) are renamed (``m01``) and the renaming is reported on stderr.
Without ``-o`` the text goes to stdout.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    import hornermcts  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hornermcts.research import families
from hornermcts.cost.counting import original_count  # noqa: E402
from hornermcts.polynomial.text import write_text  # noqa: E402


def _common_options(ap, *, after_family: bool = False) -> None:
    # after the family (``res 7 5 -o FILE``) the defaults are SUPPRESS, so a
    # value given before the family survives when none is given after it
    default = argparse.SUPPRESS if after_family else None
    ap.add_argument("-o", "--output", default=default, help="output file (default: stdout)")
    ap.add_argument("--syntax", choices=["form", "sympy"],
                    default=default if after_family else "form")
    ap.add_argument("-q", "--quiet", action="store_true",
                    default=default if after_family else False, help="no summary on stderr")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        description="Write a benchmark polynomial as text, one term per line."
    )
    _common_options(ap)
    common = argparse.ArgumentParser(add_help=False)
    _common_options(common, after_family=True)
    sub = ap.add_subparsers(dest="family", required=True)

    p = sub.add_parser("res", parents=[common], help="resultant res_x(sum a_i x^i, sum b_i x^i)")
    p.add_argument("m", type=int)
    p.add_argument("n", type=int)

    p = sub.add_parser("det", parents=[common], help="determinant of the generic n x n matrix")
    p.add_argument("n", type=int)

    for name, text in (("structured", "sum of products of shared factors"),
                       ("random", "unstructured random polynomial")):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument("n_vars", type=int)
        p.add_argument("n_terms", type=int)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--coefficients", choices=["one", "sign", "integer", "rational"])
        if name == "random":
            p.add_argument("--max-degree", type=int, default=4)
        else:
            p.add_argument("--n-factors", type=int)

    p = sub.add_parser("load", parents=[common], help="a named benchmark: " + ", ".join(families.available()))
    p.add_argument("name")
    return ap


def make(args):
    if args.family == "res":
        return families.resultant(args.m, args.n)
    if args.family == "det":
        return families.determinant(args.n)
    if args.family == "random":
        kw = {"coefficients": args.coefficients} if args.coefficients else {}
        return families.random_polynomial(
            args.n_vars, args.n_terms, max_degree=args.max_degree, seed=args.seed, **kw
        )
    if args.family == "structured":
        kw = {"coefficients": args.coefficients} if args.coefficients else {}
        return families.structured_random(
            args.n_vars, args.n_terms, seed=args.seed, n_factors=args.n_factors, **kw
        )
    return families.load(args.name)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        poly = make(args)
    except ValueError as exc:
        print(f"generate: {exc}", file=sys.stderr)
        return 2
    renamed = write_text(poly, args.output or sys.stdout, syntax=args.syntax)
    if not args.quiet:
        print(
            f"{poly.n_terms} terms, {poly.n_vars} variables, "
            f"{original_count(poly).total} operations unoptimized (FORM's count)",
            file=sys.stderr,
        )
        if renamed:
            pairs = list(renamed.items())
            shown = ", ".join(f"{s} -> {t}" for s, t in pairs[:4])
            more = f", ... ({len(pairs)} in all)" if len(pairs) > 4 else ""
            print(f"renamed for FORM: {shown}{more}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
