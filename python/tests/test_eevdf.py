# SPDX-License-Identifier: MIT
"""The eevdf package against the CLI: the same numbers from the same
options, the state explain shows, the trace events of the run, and the
errors of bad input."""

import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import eevdf
from conftest import ROOT, cli, cli_json, workload

# run options as the CLI takes them and as Simulation takes them
CASES = [
    (["--param", "loops=2000"], {"params": {"loops": 2000}}, "pipe.json"),
    (["--duration", "50ms", "--kernel", "6.8"],
     {"duration": "50ms", "kernel": "6.8"}, "two-hogs.json"),
    (["--param", "groups=1", "--param", "loops=20", "--cpus", "2",
      "--seed", "3"],
     {"params": {"groups": 1, "loops": 20}, "cpus": 2, "seed": 3},
     "hackbench.json"),
    (["--duration", "300ms", "--features", "NO_DELAY_DEQUEUE,NO_PLACE_LAG",
      "--machine", "vm-2cpu"],
     {"duration": "300ms", "features": "NO_DELAY_DEQUEUE,NO_PLACE_LAG",
      "machine": "vm-2cpu"}, "sleeper-vs-hog.json"),
]


def same(x, y):
    """The CLI's number: cJSON writes 15 significant digits when they read
    back within a double's epsilon (print_number()), else 17."""
    if x is None or y is None:
        return x is y
    return x == y or math.isclose(x, y, rel_tol=4e-16, abs_tol=0)


@pytest.mark.parametrize("args,opts,wl", CASES)
def test_results_are_the_clis(args, opts, wl):
    want = cli_json("run", workload(wl), "--format", "json", *args)
    got = eevdf.run(workload(wl), **opts)
    for key in ("config", "tasks", "cpus", "summary", "complete"):
        assert got.get(key) == want.get(key), key
    assert got.get("metrics") == want.get("metrics")
    # the provenance is this package's, with the CLI's command line
    assert got["provenance"]["tool"].startswith("eevdf-python ")
    cmd = got["provenance"]["command_line"]
    assert cmd[:2] == ["eevdf-sim", "run"] and cmd[-1] == workload(wl)
    assert cmd[-3:-1] == ["--format", "json"]


def test_rerun_takes_pythons_results(tmp_path):
    """The command line a Python run records is the CLI's: rerun gives the
    same results."""
    res = eevdf.run(workload("pipe.json"), params={"loops": 500})
    path = tmp_path / "py.json"
    import json
    path.write_text(json.dumps(res))
    again = cli_json("rerun", str(path))
    for key in ("config", "tasks", "summary"):
        assert again[key] == res[key], key


def test_compare_is_the_clis():
    want = cli_json("compare", workload("pipe.json"), "--param",
                    "loops=500", "--features-b", "NO_WAKEUP_PREEMPTION",
                    "--runs", "2", "--format", "json")
    got = eevdf.compare(workload("pipe.json"), params={"loops": 500},
                        b={"features": "NO_WAKEUP_PREEMPTION"}, runs=2)
    assert got["seeds"] == want["seeds"]
    assert len(got["figures"]) == len(want["figures"])
    for g, w in zip(got["figures"], want["figures"]):
        assert (g["name"], g["unit"], g["better"]) == \
            (w["name"], w["unit"], w["better"])
        for side in ("a", "b"):
            for k in ("mean", "stddev", "min", "max"):
                assert same(g[side][k], w[side][k]), (g["name"], side, k)
            assert all(same(x, y) for x, y in zip(g[side]["values"],
                                                   w[side]["values"]))
        assert same(g["ratio"], w["ratio"])


def test_state_is_explains():
    """explain --format json and the library read from Python agree, at an
    instant and through the decisions after it."""
    x = cli_json("explain", workload("sleeper-vs-hog.json"), "--at",
                 "1002500us", "--decisions", "4", "--format", "json")
    with eevdf.Simulation(workload("sleeper-vs-hog.json"), events=True,
                          detail=("decisions",)) as sim:
        sim.detail()                   # nothing observed up to --at
        sim.run(1002500000)
        ents = sim.rq_entities(0)
        assert [e["pid"] for e in ents] == \
            [e["pid"] for e in x["entities"]]
        for mine, theirs in zip(ents, x["entities"]):
            for k in ("vlag", "deadline_v", "eligible", "running",
                      "delayed", "weight", "depth"):
                assert mine[k] == theirs[k], k
            for k in ("vruntime", "deadline", "V", "lag"):
                assert str(mine[k]) == theirs[k], k
        assert sim.rq_state(0)["V"] == int(x["rq"]["V"])
        pick = sim.pick(0)
        assert pick[-1]["pid"] == x["pick"]["pid"]
        assert pick[-1]["rule"] == x["pick"]["rule"]
        sim.detail("decisions")
        got = []
        for ev in sim.events(step="1us"):
            if ev.kind == "decision" and ev.cpu == 0:
                got.append((ev.time, ev.rule, ev.pid))
            if len(got) == 4:
                break
    assert got == [(d["time"], d["rule"], d["pid"])
                   for d in x["decisions"]]


def test_on_event_reads_the_moment():
    """Two nice-0 hogs, 6.18 (worked in tests/cli_seeing.sh): at the pick
    at 1 ms hog[1] has vlag +500 us, deadline - V = -150 us, from the V
    of /autogroup-1's queue, 500 us; the CPU's root queue holds the
    group's entity alone, at V = 1 ms."""
    seen = []

    def on_event(ev):
        if ev.kind == "decision" and ev.rule == "pick_earliest" \
                and ev.time == 1000000:
            st = sim.task_state(ev.pid)
            seen.append((ev.pid, st["vlag"], st["deadline_v"],
                         st["eligible"], st["group"], st["V"],
                         sim.rq_state(0)["V"]))

    sim = eevdf.Simulation(workload("two-hogs.json"), kernel="6.18",
                           duration="3ms", on_event=on_event,
                           detail=("decisions",))
    try:
        sim.run()
    finally:
        sim.close()
    assert seen == [(2, 500000, -150000, True, "/autogroup-1", 500000,
                     1000000)]


def test_events_iterate_the_run():
    """Every context switch of the results is a switch event, in time
    order; nothing is traced without events=True."""
    with eevdf.Simulation(workload("hackbench.json"),
                          params={"groups": 1, "loops": 20}, cpus=2,
                          events=True) as sim:
        evs = list(sim.events())
        res = sim.results()
    assert [e.time for e in evs] == sorted(e.time for e in evs)
    switches = sum(1 for e in evs if e.kind == "switch")
    assert switches == sum(c["switches"] for c in res["cpus"])
    assert {e.kind for e in evs} >= {"switch", "wakeup", "new", "exit"}
    with eevdf.Simulation(workload("pipe.json")) as sim:
        with pytest.raises(eevdf.EevdfError, match="events=True"):
            next(sim.events())


def test_groups_and_levels():
    """With autogroup on, the tasks are in an autogroup and a pick has two
    levels: the group at the root, a task in it."""
    with eevdf.Simulation(workload("two-hogs.json"), duration="2ms",
                          sysctl={"kernel.sched_autogroup_enabled": 1}) \
            as sim:
        sim.run()
        assert sim.task_group(1).startswith("/autogroup-")
        lv = sim.pick(0)
        assert [l["group"] for l in lv] == ["/", sim.task_group(1)]
        assert lv[0]["pid"] == 0 and lv[0]["picked_group"]
        ents = sim.rq_entities(0)
        assert ents[0]["pid"] == 0 and ents[0]["depth"] == 0
        assert all(e["depth"] == 1 for e in ents[1:])


def test_sweep_rows():
    rows = eevdf.sweep(workload("pipe.json"),
                       {"features": ["WAKEUP_PREEMPTION",
                                     "NO_WAKEUP_PREEMPTION"]},
                       seeds=(1, 2), params={"loops": 300})
    assert [r["config"] for r in rows] == [
        {"features": "WAKEUP_PREEMPTION"},
        {"features": "NO_WAKEUP_PREEMPTION"}]
    one = eevdf.run(workload("pipe.json"), params={"loops": 300}, seed=2,
                    features="NO_WAKEUP_PREEMPTION")
    st = rows[1]["figures"]["usecs_per_op"]
    assert st["values"][1] == one["summary"]["usecs_per_op"]
    assert st["min"] <= st["mean"] <= st["max"]


def test_dataframes():
    pandas = pytest.importorskip(
        "pandas", reason="pandas is not installed (Debian: python3-pandas)")
    with eevdf.Simulation(workload("two-hogs.json"),
                          duration="20ms") as sim:
        df = sim.run().tasks_frame()
        assert list(df["name"]) == ["hog[0]", "hog[1]"]
        assert int(df["cpu_ns"].sum()) == 20000000
    rows = eevdf.sweep(workload("pipe.json"), {"cpus": [1, 2]},
                       params={"loops": 100})
    frame = eevdf.sweep_frame(rows)
    assert list(frame["cpus"]) == [1, 2]
    assert isinstance(frame, pandas.DataFrame)


def test_plots_are_svg():
    cmp = eevdf.compare(workload("pipe.json"), params={"loops": 300},
                        b={"features": "NO_WAKEUP_PREEMPTION"})
    svg = eevdf.plot.ratio_svg(eevdf.plot.ratios_of_compare(cmp),
                               title="pipe")
    root = ET.fromstring(svg)
    vals = [g.get("data-value") for g in root.iter(
        "{http://www.w3.org/2000/svg}g") if g.get("class") == "bar"]
    assert len(vals) == len(cmp["figures"])
    cdf = eevdf.plot.cdf_svg({"x": [1.0, 2.0, 4.0]}, title="t")
    ET.fromstring(cdf)
    with pytest.raises(eevdf.EevdfError):
        eevdf.plot.lines_svg({"bad": [(0.0, 1.0)]}, logx=True)


def test_bad_input_names_it(tmp_path):
    with pytest.raises(eevdf.EevdfError, match="nonexistent.json"):
        eevdf.Simulation(str(tmp_path / "nonexistent.json"))
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "eevdf-sim-workload/1", "tasks": '
                   '[{"name": "t", "program": [{"run": "fast"}]}]}')
    with pytest.raises(eevdf.EevdfError, match=r"tasks\[0\]"):
        eevdf.Simulation(str(bad))
    with pytest.raises(eevdf.EevdfError, match="NO_SUCH"):
        eevdf.Simulation(workload("pipe.json"), features="NO_SUCH")
    with pytest.raises(eevdf.EevdfError, match="unknown kernel"):
        eevdf.Simulation(workload("pipe.json"), kernel="4.19")
    with pytest.raises(eevdf.EevdfError, match="unit"):
        eevdf.Simulation(workload("pipe.json"), duration="10")
    with pytest.raises(eevdf.EevdfError, match="no task"):
        with eevdf.Simulation(workload("pipe.json")) as sim:
            sim.task_state(99)
    with pytest.raises(eevdf.EevdfError, match="vm-9cpu"):
        eevdf.Simulation(workload("pipe.json"), machine="vm-9cpu")


def test_library_layout_is_checked():
    """Each ctypes mirror has the size of the library's struct."""
    from eevdf import _lib
    for name, mirror in _lib.MIRRORS.items():
        assert _lib.lib.eevdf_abi_sizeof(name.encode()) == \
            __import__("ctypes").sizeof(mirror), name
    assert _lib.lib.eevdf_abi_sizeof(b"no_such_struct") == 0


def test_delay_dequeue_example(tmp_path):
    """examples/python/delay_dequeue.py: the table and the plot."""
    svg = tmp_path / "dd.svg"
    p = subprocess.run([sys.executable,
                        os.path.join(ROOT, "examples", "python",
                                     "delay_dequeue.py"),
                        "--runs", "1", "--timelimit", "100ms", "--svg",
                        str(svg)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[1].split()[:3] == ["figure", "unit", "a"]
    assert [l.split()[0] for l in lines[2:7]] == [
        "throughput_mb_s", "max_latency_ms", "delay_avg_us", "delay_max_us",
        "context_switches"]
    ET.parse(str(svg))
