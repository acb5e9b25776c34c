#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What DELAY_DEQUEUE does to tbench, notebook style: run tbench's client
and server pairs with and without the feature over a few seeds, print the
table 'eevdf-sim compare' prints, and draw the ratios as an SVG.

    python3 examples/python/delay_dequeue.py [--runs N] [--svg FILE]

From the source tree it uses python/ and build/ as they are (run 'make'
first); with the package installed (pip install ./python) and the library
found (EEVDF_LIB, pkg-config), from anywhere.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))

import eevdf  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--runs", type=int, default=2, help="seeds per side")
ap.add_argument("--timelimit", default="1s", help="tbench's run time")
ap.add_argument("--svg", default="delay_dequeue.svg", help="the plot")
args = ap.parse_args()

# %% the experiment: 8 tbench pairs on 4 CPUs, the 6.18 defaults (a)
# against NO_DELAY_DEQUEUE (b), the same seeds on both sides
tbench = os.path.join(ROOT, "workloads", "tbench.json")
result = eevdf.compare(tbench, cpus=4,
                       params={"nprocs": 8, "timelimit": args.timelimit},
                       b={"features": "NO_DELAY_DEQUEUE"}, runs=args.runs)

# %% the table: each figure's mean, b/a and the spread over the seeds
print("tbench, 8 pairs on 4 CPUs, %s, seeds %d..%d: a = 6.18 defaults, "
      "b = NO_DELAY_DEQUEUE" % (args.timelimit, result["seeds"][0],
                                result["seeds"][-1]))
print("%-20s %-6s %12s %12s %8s %9s %9s" % (
    "figure", "unit", "a", "b", "b/a", "spread a", "spread b"))


def num(x):
    """Six significant digits, a large count without an exponent."""
    return "%.0f" % x if abs(x) >= 1e6 else "%.6g" % x


for f in result["figures"]:
    a, b = f["a"], f["b"]
    spread = ["%.1f%%" % (100 * s["stddev"] / abs(s["mean"]))
              if s["mean"] else "0.0%" for s in (a, b)]
    print("%-20s %-6s %12s %12s %8.3f %9s %9s" % (
        f["name"], f["unit"], num(a["mean"]), num(b["mean"]), f["ratio"],
        spread[0], spread[1]))

# %% the plot: b/a per figure, the whisker the per-seed ratios
svg = eevdf.plot.ratio_svg(eevdf.plot.ratios_of_compare(result),
                           title="tbench: NO_DELAY_DEQUEUE / DELAY_DEQUEUE")
with open(args.svg, "w") as out:
    out.write(svg)
print("wrote", args.svg)
