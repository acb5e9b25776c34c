# SPDX-License-Identifier: MIT
"""compare() and sweep(): several runs of one workload, their figures
and the spread over seeds, with the numbers 'eevdf-sim compare' prints.

A run's figures are what compare measures: the report's headline numbers,
then delay_avg_us, delay_max_us, context_switches and involuntary_switches
from the perf sched latency table's totals.
"""

import itertools
import math

from .sim import Simulation, EevdfError

__all__ = ["figures", "compare", "sweep", "sweep_frame"]


def figures(sim):
    """The figures of a finished Simulation, as compare measures them:
    [(name, unit, better, value)]."""
    out = list(sim.headlines())
    count, total, worst, switches, involuntary = 0, 0.0, 0.0, 0, 0
    for st in sim.task_stats():
        count += st["delay_count"]
        total += float(st["delay_sum_ns"])
        worst = max(worst, float(st["delay_max_ns"]))
        switches += st["switches"]
        involuntary += st["involuntary"]
    out.append(("delay_avg_us", "us", -1,
                total / count / 1e3 if count else 0.0))
    out.append(("delay_max_us", "us", -1, worst / 1e3))
    out.append(("context_switches", "", 0, float(switches)))
    out.append(("involuntary_switches", "", 0, float(involuntary)))
    return out


def _stats(values):
    n = len(values)
    mean = 0.0
    for v in values:
        mean += v
    mean /= n
    sq = 0.0
    for v in values:
        sq += (v - mean) * (v - mean)
    sd = math.sqrt(sq / (n - 1)) if n > 1 else 0.0
    return {"mean": mean, "stddev": sd, "min": min(values),
            "max": max(values), "values": list(values)}


def _workload_seed(sim):
    from ._lib import lib
    return lib.eevdf_sim_seed(sim._sim)


def _measure(workload, opts, seed):
    with Simulation(workload, seed=seed, **opts) as s:
        s.run()
        return figures(s)


def compare(workload, a=None, b=None, runs=1, seed=None, **both):
    """Run workload under options a and b (dicts of Simulation options),
    both adding to `both`, over `runs` seeds from `seed` (default: the
    workload's, else 1), and return what 'compare --format json' prints:
    {"runs", "seeds", "figures": [{"name", "unit", "better", "a": {"mean",
    "stddev", "min", "max", "values"}, "b": {...}, "ratio"}]}."""
    if runs < 1:
        raise EevdfError("runs must be at least 1")
    cfg = [dict(both, **(a or {})), dict(both, **(b or {}))]
    if seed is None:
        with Simulation(workload, **cfg[0]) as s:
            seed = _workload_seed(s)
    res = [[None, None] for _ in range(runs)]
    for r in range(runs):
        for k in (0, 1):
            res[r][k] = _measure(workload, cfg[k], seed + r)
    names = [f[0] for f in res[0][0]]
    if any([f[0] for f in res[r][k]] != names
           for r in range(runs) for k in (0, 1)):
        raise EevdfError("compare: a and b report different figures")
    figs = []
    for i, (name, unit, better, _) in enumerate(res[0][0]):
        sa = _stats([res[r][0][i][3] for r in range(runs)])
        sb = _stats([res[r][1][i][3] for r in range(runs)])
        if sa["mean"] != 0:
            ratio = sb["mean"] / sa["mean"]
        else:
            ratio = 1.0 if sb["mean"] == 0 else None
        figs.append({"name": name, "unit": unit, "better": better,
                     "a": sa, "b": sb, "ratio": ratio})
    return {"format": "eevdf-sim-compare/1", "workload": str(workload),
            "runs": runs, "seeds": [seed + r for r in range(runs)],
            "figures": figs}


def sweep(workload, axes, seeds=(1,), **fixed):
    """Every combination of the axes (a dict: Simulation option -> list of
    values, e.g. {"features": ["DELAY_DEQUEUE", "NO_DELAY_DEQUEUE"],
    "cpus": [2, 4]}), each over the seeds: a list of rows {"config":
    {axis: value}, "figures": {name: {"mean", "stddev", "min", "max",
    "values"}}}, in the axes' order."""
    keys = list(axes)
    rows = []
    for combo in itertools.product(*(axes[k] for k in keys)):
        opts = dict(fixed, **dict(zip(keys, combo)))
        per = [_measure(workload, opts, s) for s in seeds]
        figs = {}
        for i, (name, unit, better, _) in enumerate(per[0]):
            st = _stats([p[i][3] for p in per])
            st.update(unit=unit, better=better)
            figs[name] = st
        rows.append({"config": dict(zip(keys, combo)), "figures": figs})
    return rows


def sweep_frame(rows):
    """sweep()'s rows as a pandas DataFrame: one row per configuration,
    columns the axes and each figure's mean and stddev."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("sweep_frame() needs pandas (Debian: "
                          "python3-pandas)") from e
    flat = []
    for r in rows:
        d = dict(r["config"])
        for name, st in r["figures"].items():
            d[name] = st["mean"]
            d[name + ".stddev"] = st["stddev"]
        flat.append(d)
    return pandas.DataFrame(flat)
