# SPDX-License-Identifier: MIT
"""eevdf: the eevdf-sim scheduler simulator (libeevdf) from Python.

    import eevdf
    res = eevdf.run("workloads/pipe.json", params={"loops": 2000})
    res["summary"]["usecs_per_op"]

    with eevdf.Simulation("workloads/two-hogs.json", duration="5ms",
                          events=True, detail=("decisions",)) as sim:
        for ev in sim.events():
            if ev.kind == "decision":
                print(ev.time, ev.rule, sim.task_state(ev.pid)["vlag"])

    cmp = eevdf.compare("workloads/tbench.json", cpus=4,
                        b={"features": "NO_DELAY_DEQUEUE"}, runs=3)

The library is found through $EEVDF_LIB, the build tree, pkg-config or
the dynamic linker (eevdf._lib says how).  Simulation options and numbers
are eevdf-sim run's; compare() gives eevdf-sim compare's figures.
"""

from .sim import (Simulation, Event, EevdfError, run, parse_duration,
                  version, rule_name, rule_text)
from .compare import figures, compare, sweep, sweep_frame
from . import plot

__version__ = "0.1.0"

__all__ = ["Simulation", "Event", "EevdfError", "run", "parse_duration",
           "version", "rule_name", "rule_text", "figures", "compare",
           "sweep", "sweep_frame", "plot"]
