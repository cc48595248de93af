"""Our MCTS (Horner + CSE only) against FORM's, in one run on this machine.

For each expression: ``--seeds`` searches with N iterations of SA-UCT
(``optimize(preset="mcts", greedy=False, substitute=False)``: Cp=1.0, forward, in the input's variables as
FORM's search), the median operation count and the
median wall time of one search; FORM ``Format O3, method=cse,
mctsnumexpand=N`` (MCTS + CSE, no greedy step) ``--form-runs`` times, its
median count and median wall time.  Prints both and the ratios.  Counts are
of the emitted code on both sides, read by one counter (``delivered.py``).

    python benchmarks/mcts_vs_form.py [--iterations 1000] [--seeds 10] [--form-runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import time

from hornermcts.research import families, form
from hornermcts.pipeline import optimize

from delivered import form_in_code, ours_in_code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--form-runs", type=int, default=3)
    ap.add_argument("--cp", type=float, default=None)
    ap.add_argument("--direction", default="forward")
    ap.add_argument("--expressions", default="hep_sigma res75", help="space-separated names for families.load")
    args = ap.parse_args()
    names = args.expressions.split()
    print(f"N={args.iterations}: ours = median of {args.seeds} seeds (SA-UCT, {args.direction}); "
          f"FORM = median of {args.form_runs} runs of O3 method=cse")
    header = (f"{'expression':<10} {'ours ops':>9} {'FORM ops':>9} {'ops ratio':>9} {'ours s':>8} {'FORM s':>8} "
              f"{'time ratio':>10}")
    print(header)
    for name in names:
        poly = families.load(name)
        optimize(poly, iterations=5, seed=0)  # compile / load the Numba cache
        ops, secs = [], []
        for seed in range(args.seeds):
            start = time.perf_counter()
            kw = {} if args.cp is None else {"cp": args.cp}
            result = optimize(poly, preset="mcts", greedy=False, substitute=False, iterations=args.iterations,
                              seed=seed, direction=args.direction, **kw)
            secs.append(time.perf_counter() - start)
            ops.append(ours_in_code(result))
        ours_ops, ours_s = statistics.median(ops), statistics.median(secs)
        if form.available():
            runs = [form_in_code(poly, level=3, method="cse", options=[f"mctsnumexpand={args.iterations}"])
                    for _ in range(args.form_runs)]
            form_ops = statistics.median(r["in_code"] for r in runs)
            form_s = statistics.median(r["seconds"] for r in runs)
            print(f"{name:<10} {ours_ops:>9.0f} {form_ops:>9.0f} {ours_ops / form_ops:>9.3f} "
                  f"{ours_s:>8.2f} {form_s:>8.2f} {ours_s / form_s:>10.3f}")
        else:
            print(f"{name:<10} {ours_ops:>9.0f} {'n/a':>9} {'':>9} {ours_s:>8.2f}")
        print(f"{'':<10} ours per seed: {ops}")
    print("ops ratio = ours / FORM (<= 1 means as good or better); time ratio = ours / FORM (target <= 0.333)")


if __name__ == "__main__":
    main()
