#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_seeing.sh SIMBINARY: seeing inside the scheduler from the CLI.
#  - --trace's per-task tracks and --trace-state counters, with the
#    numbers of two hogs worked out by hand; the protobuf trace decoded
#    by protoc against tests/perfetto/perfetto_trace.proto and by our own
#    wire reader (tests/pb_walk.py), holding what the JSON holds;
#  - explain's run queue and rules, by hand, and against the trace's
#    state counters (the library read from a trace callback); its JSON
#    against the library read from Python (python/tests);
#  - plot's SVG (parsed by a real XML parser) with the axes of hand-made
#    data; --html reports.
# Bad input: a message naming the option or file, exit 2, no output file.
set -u
SIM=${1:?usage: tests/cli_seeing.sh EEVDF_SIM}
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/cli_lib.sh
. tests/cli_lib.sh

have_py=0
command -v python3 >/dev/null && have_py=1

# --- the trace ---------------------------------------------------------

# Two nice-0 hogs on one CPU, 6.18, base slice 0.7 ms, HZ 1000, 3 ms.
# Worked by hand (the model's arithmetic, kernel-model.md 4-6):
#  t=0   hog[0] (pid 1) starts, placed at V = 0 with half a slice
#        (PLACE_DEADLINE_INITIAL): vlag 0, deadline-V 350000, eligible.
#        hog[1] (pid 2) forks onto the same V: the same numbers.
#  t=1ms the tick charges hog[0] 1 ms: v = 1000000, a new request
#        d = 1700000; V = (1000000 + 0) / 2 = 500000.  hog[0]: vlag
#        -500000, deadline-V 1200000, not eligible; hog[1]: vlag 500000,
#        deadline-V 350000 - 500000 = -150000, eligible; hog[1] runs.
#        Autogroup is on: both run in /autogroup-1, whose queue holds
#        the numbers above.  The CPU's counters are its root queue's,
#        which holds the group's entity alone, charged the same 1 ms at
#        weight 1024 (one CPU: the group's whole shares): V = its
#        vruntime = 1000000, load 1024, nr_queued 1; the group's queue
#        on CPU 0 has its own counters: V 500000, load 2 x 1024 = 2048,
#        nr_queued 2 (at 0: V 0, load 2048 once both are queued).
hogs=(workloads/two-hogs.json --kernel 6.18 --duration 3ms -q)
if expect_ok "run --trace --trace-state all" run "${hogs[@]}" \
	--trace "$tmp/h.json" --trace-state all &&
	expect_ok "run --trace FILE.pftrace --trace-state all" run \
		"${hogs[@]}" --trace "$tmp/h.pftrace" --trace-state all; then
	if [ $have_py = 0 ]; then
		echo "SKIP  trace state checks: python3 is missing"
	elif python3 - "$tmp/h.json" <<'PY'; then
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
def counter(name, ts):
    # written at every change: the value at ts is the last one written
    # at or before it
    vals = [e["args"] for e in ev if e["ph"] == "C" and e["name"] == name
            and e["ts"] <= ts + 1e-9]
    assert vals, (name, ts)
    return list(vals[-1].values())[0]
want = {
    ("hog[0]:1 vlag", 0): 0, ("hog[0]:1 deadline-V", 0): 350000,
    ("hog[0]:1 eligible", 0): 1, ("hog[1]:2 vlag", 0): 0,
    ("hog[1]:2 deadline-V", 0): 350000,
    ("hog[0]:1 vlag", 1000): -500000,
    ("hog[0]:1 deadline-V", 1000): 1200000,
    ("hog[0]:1 eligible", 1000): 0,
    ("hog[1]:2 vlag", 1000): 500000,
    ("hog[1]:2 deadline-V", 1000): -150000,
    ("hog[1]:2 eligible", 1000): 1,
    ("V cpu0", 1000): 1000000, ("load cpu0", 1000): 1024,
    ("nr_queued cpu0", 1000): 1, ("nr_delayed cpu0", 1000): 0,
    ("V /autogroup-1 cpu0", 0): 0, ("load /autogroup-1 cpu0", 0): 2048,
    ("V /autogroup-1 cpu0", 1000): 500000,
    ("load /autogroup-1 cpu0", 1000): 2048,
    ("nr_queued /autogroup-1 cpu0", 1000): 2,
    ("nr_delayed /autogroup-1 cpu0", 1000): 0,
}
for (name, ts), v in want.items():
    got = counter(name, ts)
    assert got == v, (name, ts, got, v)
# the tasks' tracks: threads of their group (process 1), tid 1000000+pid
procs = {e["pid"]: e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "process_name"}
assert procs == {0: "machine", 1: "/autogroup-1"}, procs
threads = {e["tid"]: e["args"]["name"] for e in ev
           if e["ph"] == "M" and e["name"] == "thread_name"
           and e["pid"] == 1}
assert threads == {1000001: "hog[0]", 1000002: "hog[1]"}, threads
# each task's running slices are its CPU slices, and its runnable waits
# end where a running slice begins (or at the run's end, 3 ms)
for pid in (1, 2):
    cpu = sorted((e["ts"], e["dur"]) for e in ev if e["ph"] == "X"
                 and e["pid"] == 0 and e["args"].get("pid") == pid)
    run = sorted((e["ts"], e["dur"]) for e in ev if e["ph"] == "X"
                 and e["tid"] == 1000000 + pid and e["name"] == "running")
    assert cpu == run and run, (pid, cpu, run)
    starts = {t for t, _ in run}
    for e in ev:
        if e["ph"] == "X" and e["tid"] == 1000000 + pid \
                and e["name"] == "runnable":
            end = round(e["ts"] + e["dur"], 3)
            assert end in starts or end == 3000, e
PY
		ok "trace: hand-worked vlag, deadline-V, eligible, V, load at 0 and 1 ms; task tracks in the group's process"
	else
		bad "trace: state counters" "see above"
	fi
	if ! command -v protoc >/dev/null; then
		echo "SKIP  protobuf trace decode: protoc is missing (Debian protobuf-compiler)"
	elif ! protoc --decode=perfetto.protos.Trace -I tests/perfetto \
		tests/perfetto/perfetto_trace.proto <"$tmp/h.pftrace" \
		>"$tmp/h.txt" 2>"$tmp/perr"; then
		bad "protobuf trace decodes" "$(head -c 300 "$tmp/perr")"
	elif [ $have_py = 0 ]; then
		echo "SKIP  protobuf trace content: python3 is missing"
	elif python3 - "$tmp/h.json" "$tmp/h.txt" <<'PY'; then
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
txt = open(sys.argv[2]).read()
types = re.findall(r"type: (TYPE_\w+)", txt)
# every JSON slice is a BEGIN and an END, every counter a COUNTER
xs = sum(1 for e in ev if e["ph"] == "X")
cs = sum(1 for e in ev if e["ph"] == "C")
assert types.count("TYPE_SLICE_BEGIN") == xs, (types.count("TYPE_SLICE_BEGIN"), xs)
assert types.count("TYPE_SLICE_END") == xs
assert types.count("TYPE_COUNTER") == cs, (types.count("TYPE_COUNTER"), cs)
assert 'thread_name: "hog[0]"' in txt and 'process_name: "/autogroup-1"' in txt
assert "counter_value: -150000" in txt and "counter_value: 1200000" in txt
PY
		ok "protobuf trace: protoc decodes it; the JSON's slices and counters, the same values"
	else
		bad "protobuf trace: content" "see above"
	fi
fi

# The protobuf trace read by a wire-format reader of our own
# (tests/pb_walk.py: no protobuf library, no protoc), so that it is
# checked where protoc is absent too: every field of its schema's wire
# type, every length ending where it says, tracks described before they
# are used, slices closed, and the JSON's slices and counters.  Encodings
# worked by hand: hog[1]'s deadline-V at 1 ms, -150000 ns (worked above),
# is TrackEvent.counter_value, field 30, wire type 0: key 30 << 3 = 240,
# varint f0 01.  -150000 in 64-bit two's complement is 0xfffffffffffdb610;
# its 7-bit groups from the low end are 0x10, 0x6c, 0x76 (0xdb610's bits
# 14..19 and bit 20 set), six of 0x7f and bit 63: 90 ec f6 ff ff ff ff ff
# ff 01, ten bytes as every negative int64.  A task name of 59 characters
# makes a packet (its thread's first counter and the interned name)
# longer than 127 bytes: a length of two bytes, pb_end() widening the
# one-byte slot it reserved.
if [ $have_py = 0 ]; then
	echo "SKIP  protobuf trace wire format: python3 is missing"
else
	sed 's/"name": "hog"/"name": "a_hog_with_a_name_long_enough_for_two_byte_lengths_0123456"/' \
		workloads/two-hogs.json >"$tmp/long.json"
	if expect_ok "run --trace .pftrace, long names" run "$tmp/long.json" \
		--kernel 6.18 --duration 3ms -q --trace "$tmp/l.pftrace" \
		--trace-state all &&
		expect_ok "run --trace .json, long names" run "$tmp/long.json" \
			--kernel 6.18 --duration 3ms -q --trace "$tmp/l.json" \
			--trace-state all; then
		if python3 tests/pb_walk.py "$tmp/h.pftrace" "$tmp/h.json" \
			>"$tmp/w1" 2>&1 &&
			python3 tests/pb_walk.py "$tmp/l.pftrace" "$tmp/l.json" \
				>"$tmp/w2" 2>&1 &&
			python3 - "$tmp/h.pftrace" "$tmp/w2" <<'PY'; then
import re, sys
b = open(sys.argv[1], "rb").read()
assert bytes.fromhex("f0 01 90 ec f6 ff ff ff ff ff ff 01") in b
longest = int(re.search(r"the longest (\d+) bytes", open(sys.argv[2]).read())[1])
assert longest > 127, longest
PY
			ok "protobuf trace: our own wire reader walks it; -150000 as f0 01 90 ec f6 ff..01 by hand; a two-byte length"
		else
			bad "protobuf trace: wire format" "$(cat "$tmp/w1" "$tmp/w2" 2>/dev/null | head -c 400)"
		fi
	fi
fi

# A task's track is in its group's process: with autogroup off the two
# hogs run in the root queue, so their threads are under the process "/"
# (with it on, /autogroup-1: checked above).
if [ $have_py = 0 ]; then
	echo "SKIP  trace groups without autogroup: python3 is missing"
elif expect_ok "run --trace without autogroup" run "${hogs[@]}" \
	--sysctl kernel.sched_autogroup_enabled=0 --trace "$tmp/root.json"; then
	if python3 - "$tmp/root.json" <<'PY'; then
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "process_name"}
assert procs == {0: "machine", 1: "/"}, procs
threads = {e["tid"]: e["pid"] for e in ev
           if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"]}
assert threads == {1000001: 1, 1000002: 1}, threads
# no --trace-state: no counter but the CPUs' nr_running
assert {e["name"] for e in ev if e["ph"] == "C"} == {"nr_running cpu0"}, \
    {e["name"] for e in ev if e["ph"] == "C"}
PY
		ok "trace: without autogroup the tasks' tracks are in the root's process"
	else
		bad "trace: groups without autogroup" "see above"
	fi
fi

# A group's queue that empties is written as empty: cyclictest's one
# thread (in /autogroup-1) sleeps between its 1 ms timers, so the group's
# queue on CPU 0 goes load 1024, nr_queued 1 while it runs and load 0,
# nr_queued 0 while it sleeps, at the same instants, over 5 ms five times
# each way; V, the thread's vruntime, never goes back.
if [ $have_py = 0 ]; then
	echo "SKIP  emptied group queues: python3 is missing"
elif expect_ok "run cyclictest --trace-state rq" run workloads/cyclictest.json \
	--duration 5ms -q --trace "$tmp/cyc.json" --trace-state rq; then
	if python3 - "$tmp/cyc.json" <<'PY'; then
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
def series(name):
    return [(e["ts"], list(e["args"].values())[0]) for e in ev
            if e["ph"] == "C" and e["name"] == name]
load = series("load /autogroup-1 cpu0")
nr = series("nr_queued /autogroup-1 cpu0")
assert [v for _, v in load] == [1024, 0] * 5, load
assert [v for _, v in nr] == [1, 0] * 5, nr
assert [t for t, _ in load] == [t for t, _ in nr]
v = [x for _, x in series("V /autogroup-1 cpu0")]
assert v == sorted(v) and len(v) >= 2, v
PY
		ok "trace: a group's queue that empties reads load 0, nr_queued 0"
	else
		bad "trace: emptied group queue" "see above"
	fi
fi

# --trace-state LIST writes the counters it names and no other: vlag and
# the queues' V only (the CPU's root queue and the group's queue on it).
if [ $have_py = 0 ]; then
	echo "SKIP  --trace-state selection: python3 is missing"
elif expect_ok "run --trace-state vlag,V" run "${hogs[@]}" \
	--trace "$tmp/sel.json" --trace-state vlag,V; then
	if python3 - "$tmp/sel.json" <<'PY'; then
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["name"] for e in ev if e["ph"] == "C"}
assert names == {"nr_running cpu0", "hog[0]:1 vlag", "hog[1]:2 vlag",
                 "V cpu0", "V /autogroup-1 cpu0"}, names
PY
		ok "--trace-state vlag,V: those counters and no other"
	else
		bad "--trace-state selection" "see above"
	fi
fi

# Observing does not change the run: the same results with the fullest trace.
if expect_ok "results without a trace" run workloads/hackbench.json \
	--param loops=30 --cpus 2 --format json -o "$tmp/r1.json" &&
	expect_ok "results with --trace-state all" run workloads/hackbench.json \
		--param loops=30 --cpus 2 --format json -o "$tmp/r2.json" \
		--trace "$tmp/hb.pftrace" --trace-state all; then
	if cmp -s <(grep -v '"command_line"' "$tmp/r1.json" | grep -v '^		"--') \
		<(grep -v '"command_line"' "$tmp/r2.json" | grep -v '^		"--'); then
		ok "a traced run's results equal an untraced one's"
	else
		bad "a traced run's results equal an untraced one's" "they differ"
	fi
fi

expect_error "--trace-state without --trace" "--trace-state" \
	run "${hogs[@]}" --trace-state all
expect_error "--trace-state with an unknown item" "'vruntime'" \
	run "${hogs[@]}" --trace "$tmp/x.json" --trace-state vlag,vruntime
expect_error "--trace-state with a trailing comma" "trailing comma" \
	run "${hogs[@]}" --trace "$tmp/x.json" --trace-state vlag,
expect_error "--trace-format unknown" "--trace-format" \
	run "${hogs[@]}" --trace "$tmp/x.json" --trace-format perfetto
if leftovers "$tmp/x.json"; then
	bad "no trace file is left by a refused run" "$tmp/x.json exists"
else
	ok "no trace file is left by a refused run"
fi

# --- explain -------------------------------------------------------------

# The same two hogs at 1 ms, after the tick (worked above): hog[1] runs,
# picked at 1 ms, so its protected slice is armed (vprot = its deadline):
# pick_eevdf() keeps it (pick_protected).  hog[0]: vlag -500 us,
# deadline-V +1200 us, not eligible; hog[1]: +500 us, -150 us, eligible.
# The next decisions: at 2 ms the tick charges hog[1] 1 ms, v = 1 ms >=
# its deadline 350 us: a new request, d = 1.7 ms (slice_expired); then
# V = (1 ms + 1 ms) / 2 = 1 ms, both eligible, both deadlines 1.7 ms: on
# a tie the queued entity beats curr, so hog[0] (pick_earliest).  All
# of it in /autogroup-1's queue; the root queue holds the group's entity
# alone (V 1 ms, deadline 1.7 ms, worked above): pick_only there.  A
# queue of one entity renews its request without a reschedule, so the
# group's new request at 2 ms is no decision.
if expect_ok "explain --format json" explain workloads/two-hogs.json \
	--kernel 6.18 --at 1ms --decisions 2 --format json; then
	if [ $have_py = 0 ]; then
		echo "SKIP  explain checks: python3 is missing"
	elif python3 - "$tmp/out" <<'PY'; then
import json, sys
x = json.load(open(sys.argv[1]))
assert x["format"] == "eevdf-sim-explain/1" and x["time"] == 1000000
rq = x["rq"]
assert (rq["curr_pid"], rq["nr_queued"], rq["h_nr_queued"], rq["load"],
        rq["V"]) == (2, 1, 2, 1024, "1000000"), rq
e = {s["pid"]: s for s in x["entities"]}
# the group's entity, then what is queued in it, curr first
assert [s["pid"] for s in x["entities"]] == [0, 2, 1]
g = x["entities"][0]
assert (g["task"], g["group"], g["my_group"], g["depth"], g["vruntime"],
        g["deadline"], g["vlag"], g["deadline_v"], g["running"]) == \
    ("group /autogroup-1", "/", "/autogroup-1", 0, "1000000", "1700000",
     0, 700000, True), g
assert all(e[p]["V"] == "500000" for p in (1, 2))
assert (e[1]["vlag"], e[1]["deadline_v"], e[1]["eligible"]) == \
    (-500000, 1200000, False), e[1]
assert (e[2]["vlag"], e[2]["deadline_v"], e[2]["eligible"],
        e[2]["running"], e[2]["protected"]) == \
    (500000, -150000, True, True, True), e[2]
assert e[1]["lag"] == str(-500000 * 1024) and e[1]["weight"] == 1024
assert x["pick"] == {"pid": 2, "rule": "pick_protected", "levels": [
    {"group": "/", "pid": 0, "picked_group": "/autogroup-1",
     "rule": "pick_only"},
    {"group": "/autogroup-1", "pid": 2, "rule": "pick_protected"}]}, \
    x["pick"]
assert all(e[p]["group"] == "/autogroup-1" and e[p]["depth"] == 1
           for p in (1, 2))
d = x["decisions"]
assert [(k["time"], k["rule"], k["pid"]) for k in d] == \
    [(2000000, "slice_expired", 2), (2000000, "pick_earliest", 1)], d
assert d[0]["state"]["deadline"] == "1700000"
assert all(k["group"] == "/autogroup-1" for k in d)
assert d[1]["prev_pid"] == 2 and d[1]["state"]["V"] == "1000000"
PY
		ok "explain: hand-worked queue at 1 ms, pick_protected, then slice_expired and a tie won by the queued entity"
	else
		bad "explain: JSON" "see above"
	fi
fi
if expect_ok "explain text" explain workloads/two-hogs.json --kernel 6.18 \
	--at 1ms --decisions 2; then
	if grep -q "^  in /: pick_eevdf() returns group /autogroup-1: the only entity on the queue (pick_only)$" "$tmp/out" &&
		grep -q "^  in /autogroup-1: pick_eevdf() returns hog\[1\]:2: curr is eligible and inside its protected slice (RUN_TO_PARITY) (pick_protected)$" "$tmp/out" &&
		grep -q "^\* group /autogroup-1 .* +0.000 .* +700.000 .* yes  running, custom slice$" "$tmp/out" &&
		grep -q "^\*   hog\[1\]:2 .* +500.000 .* -150.000 .* yes  running, protected$" "$tmp/out" &&
		grep -q "0.002000 s  hog\[0\]:1 *pick_earliest" "$tmp/out"; then
		ok "explain text: the table by group, the pick level by level, the decisions"
	else
		bad "explain text" "$(cat "$tmp/out")"
	fi
fi
# Without autogroup the two hogs share the root queue: one table, one pick.
if expect_ok "explain text, one level" explain workloads/two-hogs.json \
	--kernel 6.18 --at 1ms --decisions 2 \
	--sysctl kernel.sched_autogroup_enabled=0; then
	if grep -q "^CPU 0 at 0.001000 s: running hog\[1\]:2; 2 fair tasks queued (0 delayed), load 2048, V = 500000 ns$" "$tmp/out" &&
		grep -q "^pick_eevdf() returns hog\[1\]:2: curr is eligible and inside its protected slice (RUN_TO_PARITY) (pick_protected)$" "$tmp/out" &&
		grep -q "^\* hog\[1\]:2 .* +500.000 .* -150.000 .* yes  running, protected$" "$tmp/out" &&
		grep -q "0.002000 s  hog\[0\]:1 *pick_earliest" "$tmp/out"; then
		ok "explain text without groups: root V 500 us, load 2048, the same pick"
	else
		bad "explain text, one level" "$(cat "$tmp/out")"
	fi
fi
# The library's state read from the trace callback agrees with explain:
# the trace's --trace-state counters (written at each STATE event from
# eevdf_sim_rq_state(), eevdf_sim_task_state() and the group queues'
# entities) hold, at an instant, what explain prints of that instant:
# every queued task's vlag, deadline-V, eligible and delayed, the root
# queue's V, load, nr_queued and nr_delayed and the group queue's four.
# hackbench on 2 CPUs at 2 ms: CPU 0 has 29 tasks queued, one delayed;
# CPU 1 six.
hb=(workloads/hackbench.json --param groups=1 --param loops=20 --cpus 2)
if [ $have_py = 0 ]; then
	echo "SKIP  trace state against explain: python3 is missing"
elif expect_ok "run hackbench --trace-state all" run "${hb[@]}" \
	--duration 3ms -q --trace "$tmp/hb-state.json" --trace-state all &&
	cp "$tmp/out" "$tmp/hb-run.txt" &&
	expect_ok "explain hackbench, CPU 0" explain "${hb[@]}" --at 2ms \
		--cpu 0 --format json && cp "$tmp/out" "$tmp/x0.json" &&
	expect_ok "explain hackbench, CPU 1" explain "${hb[@]}" --at 2ms \
		--cpu 1 --format json && cp "$tmp/out" "$tmp/x1.json"; then
	if python3 - "$tmp/hb-state.json" "$tmp/x0.json" "$tmp/x1.json" <<'PY'; then
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
for path in sys.argv[2:]:
    x = json.load(open(path))
    at = x["time"] / 1000.0             # the trace's ts are in us
    cpu = x["rq"]["cpu"]
    last = {}
    for e in ev:
        if e["ph"] == "C" and e["ts"] <= at + 1e-9:
            last[e["name"]] = list(e["args"].values())[0]
    rq = x["rq"]
    want = {"V cpu%d" % cpu: int(rq["V"]), "load cpu%d" % cpu: rq["load"],
            "nr_queued cpu%d" % cpu: rq["nr_queued"],
            "nr_delayed cpu%d" % cpu: rq["nr_delayed"]}
    queues = {}
    for s in x["entities"]:
        if s["depth"] > 0:
            q = queues.setdefault(s["group"], [int(s["V"]), 0, 0, 0])
            q[1] += s["weight"]
            q[2] += 1
            q[3] += s["delayed"]
        if s["pid"] > 0:
            for k, v in (("vlag", s["vlag"]), ("deadline-V", s["deadline_v"]),
                         ("eligible", int(s["eligible"])),
                         ("delayed", int(s["delayed"]))):
                want["%s %s" % (s["task"], k)] = v
    for g, (v, load, nr, nd) in queues.items():
        for k, val in (("V", v), ("load", load), ("nr_queued", nr),
                       ("nr_delayed", nd)):
            want["%s %s cpu%d" % (k, g, cpu)] = val
    tasks = sum(1 for s in x["entities"] if s["pid"] > 0)
    assert tasks == (29 if cpu == 0 else 6) and list(queues) == \
        ["/autogroup-1"], (tasks, queues)
    bad = {k: (last.get(k), v) for k, v in want.items() if last.get(k) != v}
    assert not bad, (cpu, bad)
PY
		ok "trace state agrees with explain: hackbench at 2 ms, 29 and 6 tasks, every value"
	else
		bad "trace state against explain" "see above"
	fi
fi

expect_error "explain without --at" "--at" explain workloads/two-hogs.json
expect_error "explain --at without a unit" "no unit" \
	explain workloads/two-hogs.json --at 5
expect_error "explain --at after the run" "after the run's end" \
	explain workloads/two-hogs.json --at 2s --duration 1s
expect_error "explain --cpu out of the machine" "CPUs 0..1" \
	explain workloads/two-hogs.json --at 1ms --cpu 2 --cpus 2
expect_error "explain --decisions out of range" "--decisions" \
	explain workloads/two-hogs.json --at 1ms --decisions 1001
expect_error "explain with run's --trace" "belong to 'run'" \
	explain workloads/two-hogs.json --at 1ms --trace "$tmp/x.json"
expect_error "explain with an unknown option" "explain: unknown option" \
	explain workloads/two-hogs.json --at 1ms --frobnicate
expect_error "explain of a missing file" "nonexistent.json" \
	explain "$tmp/nonexistent.json" --at 1ms

# --- plot ---------------------------------------------------------------

# Every SVG must parse as XML with a real parser (python3's expat, else
# xmllint); svg_check FILE [PYTHON CHECKS...] runs checks on the tree.
svg_ok() {
	if [ $have_py = 1 ]; then
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"
	elif command -v xmllint >/dev/null; then
		xmllint --noout "$1"
	else
		echo "SKIP  XML parse of $1: neither python3 nor xmllint"
	fi
}

# A ratio chart of a hand-made compare result: throughput a = 100, 200,
# b = 110, 180: b/a = 145 / 150 = 0.967, the per-seed ratios 1.1 and 0.9
# its spread; higher is better, so red.  max_latency a = 10, 10, b = 5, 5:
# 0.5, lower is better: green.  The axis covers 0.5..1.1 and 1: span 0.6,
# step 0.2, widened to 0.4..1.2.  The chart's area runs from x 200 (the
# labels' room) to 800 - 16 = 784, so 1 is at 200 + 0.6 / 0.8 * 584 =
# 638.00: the dashed reference line.
cat >"$tmp/cmp.json" <<'JSON'
{"format": "eevdf-sim-compare/1", "workload": "w.json", "report": "",
 "machine": "", "both": "", "a": "(defaults)", "b": "--features X",
 "runs": 2, "seeds": [1, 2], "figures": [
 {"name": "throughput", "unit": "MB/s", "better": 1,
  "a": {"mean": 150, "stddev": 0, "min": 100, "max": 200, "values": [100, 200]},
  "b": {"mean": 145, "stddev": 0, "min": 110, "max": 180, "values": [110, 180]},
  "ratio": 0.9666666666666667},
 {"name": "max_latency", "unit": "ms", "better": -1,
  "a": {"mean": 10, "stddev": 0, "min": 10, "max": 10, "values": [10, 10]},
  "b": {"mean": 5, "stddev": 0, "min": 5, "max": 5, "values": [5, 5]},
  "ratio": 0.5}]}
JSON
if expect_ok "plot ratio of a compare file" plot ratio "$tmp/cmp.json" \
	-o "$tmp/ratio.svg" && svg_ok "$tmp/ratio.svg"; then
	if [ $have_py = 0 ]; then
		echo "SKIP  ratio chart checks: python3 is missing"
	elif python3 - "$tmp/ratio.svg" <<'PY'; then
import sys, xml.etree.ElementTree as E
ns = {"s": "http://www.w3.org/2000/svg"}
root = E.parse(sys.argv[1]).getroot()
ticks = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
         if t.get("class") == "xtick"]
assert ticks == ["0.4", "0.6", "0.8", "1", "1.2"], ticks
bars = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "bar"]
assert [b.get("data-value") for b in bars] == ["0.966667", "0.5"]
dots = [b.find("s:circle", ns).get("fill") for b in bars]
assert dots == ["#e15759", "#59a14f"], dots
whisker = bars[0].find("s:line", ns)
# 0.9 and 1.1: 200 + 0.5/0.8*584 = 565.00, 200 + 0.7/0.8*584 = 711.00
assert (whisker.get("x1"), whisker.get("x2")) == ("565.00", "711.00")
ref = [l for l in root.iter("{http://www.w3.org/2000/svg}line")
       if l.get("stroke-dasharray")]
assert ref and ref[0].get("x1") == "638.00", ref
PY
		ok "plot ratio: ticks, reference line, whiskers and colours by hand"
	else
		bad "plot ratio" "see above"
	fi
fi

# A ratio chart of a hand-made 'merge --format json' of a sweep over two
# kernels and two seeds, against kernel=6.6.  tput: 6.6 has mean 100 over
# seeds 90 and 110, so 1 spread 0.9..1.1; 6.18 has mean 120 over 100 and
# 130: 1.2, spread 100/100 = 1.0 to 130/100 = 1.3 (each seed's value over
# the baseline's mean).  Data 0.9..1.3: span 0.4, about five ticks of
# 0.08, rounded up to 0.1: ticks 0.9..1.3, the axis exactly the data's.
# x 200..784: 1 at 200 + 0.1 / 0.4 * 584 = 346.00, 1.2 at 638.00, 0.9
# at 200.00, 1.1 at 492.00, 1.3 at 784.00.  "lat" is the first metric, so
# --metric tput must choose; a merge without a baseline has no ratios.
cat >"$tmp/merge.json" <<'JSON'
{"format": "eevdf-sim-merge/1", "sweep": "kernels", "points": 4,
 "points_with_results": 4, "axes": ["kernel", "seed"], "seeds": ["1", "2"],
 "metrics": ["lat", "tput"], "baseline": {"kernel": "6.6"}, "rows": [
 {"config": {"kernel": "6.6"}, "n": 2, "expected": 2, "incomplete": 0,
  "metrics": {
   "lat": {"n": 2, "mean": 5, "stddev": 0, "min": 5, "max": 5, "ci95": null,
           "values": [5, 5], "vs_baseline": 1},
   "tput": {"n": 2, "mean": 100, "stddev": 14.1, "min": 90, "max": 110,
            "ci95": null, "values": [90, 110], "vs_baseline": 1}}},
 {"config": {"kernel": "6.18"}, "n": 2, "expected": 2, "incomplete": 0,
  "metrics": {
   "lat": {"n": 2, "mean": 4, "stddev": 0, "min": 4, "max": 4, "ci95": null,
           "values": [4, 4], "vs_baseline": 0.8},
   "tput": {"n": 2, "mean": 120, "stddev": 21.2, "min": 100, "max": 130,
            "ci95": null, "values": [100, 130], "vs_baseline": 1.2}}}]}
JSON
if expect_ok "plot ratio of a merge file" plot ratio "$tmp/merge.json" \
	--metric tput -o "$tmp/mratio.svg" && svg_ok "$tmp/mratio.svg"; then
	if [ $have_py = 0 ]; then
		echo "SKIP  merge ratio chart checks: python3 is missing"
	elif python3 - "$tmp/mratio.svg" <<'PY'; then
import sys, xml.etree.ElementTree as E
S = "{http://www.w3.org/2000/svg}"
root = E.parse(sys.argv[1]).getroot()
assert root.find(S + "title").text == "kernels: tput against the baseline"
texts = [t.text for t in root.iter(S + "text")]
ticks = [t.text for t in root.iter(S + "text") if t.get("class") == "xtick"]
assert ticks == ["0.9", "1", "1.1", "1.2", "1.3"], ticks
labels = [t.text for t in root.iter(S + "text") if t.get("class") == "ytick"]
assert labels == ["kernel=6.6", "kernel=6.18"], labels
bars = [g for g in root.iter(S + "g") if g.get("class") == "bar"]
assert [b.get("data-value") for b in bars] == ["1", "1.2"]
got = [(b.find(S + "line").get("x1"), b.find(S + "line").get("x2"),
        b.find(S + "circle").get("cx")) for b in bars]
assert got == [("200.00", "492.00", "346.00"),
               ("346.00", "784.00", "638.00")], got
assert any(t and t.startswith("ratio to the baseline") for t in texts)
PY
		ok "plot ratio of a merge: the metric chosen, ratios and seeds' spread by hand"
	else
		bad "plot ratio of a merge" "see above"
	fi
fi
sed 's/"baseline": {"kernel": "6.6"}/"baseline": null/' "$tmp/merge.json" \
	>"$tmp/merge-nobase.json"
expect_error "plot ratio of a merge without a baseline" "--baseline" \
	plot ratio "$tmp/merge-nobase.json" -o "$tmp/x.svg"
expect_error "plot ratio of a merge, unknown metric" "no metric 'nope'" \
	plot ratio "$tmp/merge.json" --metric nope -o "$tmp/x.svg"

# The two hogs' first 3 ms (worked above): hog[0] runs 0-1 ms and 2-3 ms,
# hog[1] 1-2 ms.  The timeline's window is fixed, 0..3 ms over x 72..616
# (a legend): 1 ms at 72 + 544 / 3 = 253.33, 2 ms at 434.67.
# The lags: y over -600..600 us (data -500..500, step 200) on 36..400:
# -500 us at 400 - 100 / 1200 * 364 = 369.67, 0 at 218.00.
if expect_ok "plot timeline --window" plot timeline workloads/two-hogs.json \
	--kernel 6.18 --window 0ms:3ms -o "$tmp/tl.svg" &&
	expect_ok "plot lag --window --cpu" plot lag workloads/two-hogs.json \
		--kernel 6.18 --window 0ms:3ms --cpu 0 -o "$tmp/lag.svg" &&
	svg_ok "$tmp/tl.svg" && svg_ok "$tmp/lag.svg"; then
	if [ $have_py = 0 ]; then
		echo "SKIP  timeline and lag checks: python3 is missing"
	elif python3 - "$tmp/tl.svg" "$tmp/lag.svg" <<'PY'; then
import sys, xml.etree.ElementTree as E
S = "{http://www.w3.org/2000/svg}"
tl = E.parse(sys.argv[1]).getroot()
spans = [(r.get("data-key"), r.get("x"), r.get("width"))
         for r in tl.iter(S + "rect") if r.get("class") == "span"]
assert spans == [("0", "72.00", "181.33"), ("1", "253.33", "181.33"),
                 ("0", "434.67", "181.33")], spans
legend = [t.text for g in tl.iter(S + "g") if g.get("class") == "legend"
          for t in g.iter(S + "text")]
assert legend == ["hog[0]:1", "hog[1]:2"], legend
lag = E.parse(sys.argv[2]).getroot()
paths = {p.get("data-label"): p.get("d") for p in lag.iter(S + "path")
         if p.get("class") == "series"}
assert set(paths) == {"hog[0]:1", "hog[1]:2"}, paths
# hog[0]: 0 until the tick at 1 ms, then -500 us until 2 ms, then 0
assert paths["hog[0]:1"].startswith("M72.00 218.00"), paths
assert "H253.33V369.67" in paths["hog[0]:1"], paths
assert "H434.67V218.00" in paths["hog[0]:1"], paths
assert paths["hog[0]:1"].endswith("H616.00V218.00"), paths
# hog[1]: +500 us from 1 ms (400 - 1100/1200*364 = 66.33)
assert "H253.33V66.33" in paths["hog[1]:2"], paths
PY
		ok "plot timeline and lag: spans and lags of two hogs by hand"
	else
		bad "plot timeline and lag" "see above"
	fi
fi

# The latency CDF of a real run: one line per comm, marks on each.
if expect_ok "plot latency" plot latency workloads/hackbench.json \
	--param groups=2 --param loops=20 --cpus 2 -o "$tmp/lat.svg" &&
	svg_ok "$tmp/lat.svg"; then
	if [ $have_py = 0 ]; then
		echo "SKIP  latency plot checks: python3 is missing"
	elif python3 - "$tmp/lat.svg" <<'PY'; then
import sys, xml.etree.ElementTree as E
S = "{http://www.w3.org/2000/svg}"
r = E.parse(sys.argv[1]).getroot()
series = [p.get("data-label") for p in r.iter(S + "path")
          if p.get("class") == "series"]
assert sorted(s.split(" (")[0] for s in series) == \
    ["main", "receiver", "sender"], series
marks = [g for g in r.iter(S + "g") if g.get("class") == "mark"]
assert len(marks) == 3 * 3, len(marks)   # p50, p99, max each (< 1000)
ticks = [t.text for t in r.iter(S + "text") if t.get("class") == "xtick"]
assert all(t == "1" or t.startswith("1") and set(t[1:]) <= {"0"}
           or t.startswith("0.") or t.startswith("1e") for t in ticks), ticks
PY
		ok "plot latency: a CDF per comm on decades, percentiles marked"
	else
		bad "plot latency" "see above"
	fi
fi

# docs/lag-nice-mix.svg is what the README says draws it
if expect_ok "plot lag of the README" plot lag workloads/nice-mix.json \
	--window 0ms:12ms --cpu 0 -o "$tmp/lag-nice-mix.svg"; then
	if cmp -s "$tmp/lag-nice-mix.svg" docs/lag-nice-mix.svg; then
		ok "docs/lag-nice-mix.svg is today's plot lag"
	else
		bad "docs/lag-nice-mix.svg is today's plot lag" "it differs: redraw it with the README's command"
	fi
fi

expect_error "plot without a kind" "missing what to plot" plot
expect_error "plot of an unknown kind" "unknown plot 'pie'" plot pie x.json
expect_error "plot ratio of a run's results" "eevdf-sim-compare/1" \
	plot ratio workloads/two-hogs.json -o "$tmp/x.svg"
expect_error "plot ratio of a missing file" "$tmp/none.json" \
	plot ratio "$tmp/none.json" -o "$tmp/x.svg"
expect_error "plot timeline --window backwards" "ends before it starts" \
	plot timeline workloads/two-hogs.json --window 3ms:1ms -o "$tmp/x.svg"
expect_error "plot timeline --window past the run" "after the run's end" \
	plot timeline workloads/two-hogs.json --duration 10ms \
	--window 5ms:20ms -o "$tmp/x.svg"
expect_error "plot latency --window" "whole run" \
	plot latency workloads/two-hogs.json --window 0ms:3ms -o "$tmp/x.svg"
expect_error "plot --by wrong" "--by" \
	plot latency workloads/two-hogs.json --by cpu -o "$tmp/x.svg"
expect_error "plot lag --cpu past the machine" "CPUs 0..0" \
	plot lag workloads/two-hogs.json --window 0ms:3ms --cpu 3 \
	-o "$tmp/x.svg"
if leftovers "$tmp/x.svg"; then
	bad "no SVG is left by a refused plot" "$tmp/x.svg exists"
else
	ok "no SVG is left by a refused plot"
fi

# --- the HTML reports -----------------------------------------------------

if expect_ok "run --html" run workloads/sleeper-vs-hog.json --duration 100ms \
	-q --html "$tmp/run.html" &&
	expect_ok "compare --html" compare workloads/pipe.json \
		--param loops=500 --features-b NO_WAKEUP_PREEMPTION --runs 2 \
		--html "$tmp/cmp.html"; then
	if [ $have_py = 0 ]; then
		echo "SKIP  HTML structure checks: python3 is missing"
	elif python3 - "$tmp/run.html" "$tmp/cmp.html" <<'PY'; then
import sys, re
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.count, self.text = [], {}, []
    def handle_starttag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
        if tag not in ("meta", "br"):
            self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.count[tag] = self.count.get(tag, 0) + 1
    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()
    def handle_data(self, d):
        self.text.append(d)
for path, svgs, heads in ((sys.argv[1], 3, ["Report", "Wakeup latency",
                           "The largest wakeup latency", "Lags there",
                           "Configuration"]),
                          (sys.argv[2], 1, ["Configurations", "Figures",
                           "Ratios"])):
    doc = open(path).read()
    assert "<script" not in doc and "http://" not in doc.replace(
        "http://www.w3.org/2000/svg", ""), "not self-contained"
    p = P()
    p.feed(doc)
    p.close()
    assert not p.stack, p.stack
    assert p.count.get("svg") == svgs, (path, p.count.get("svg"))
    h2 = re.findall(r"<h2>([^<]*)</h2>", doc)
    assert h2 == heads, (path, h2)
run = open(sys.argv[1]).read()
assert "massive_intr:1" in run and \
    "&quot;workload&quot;:\t&quot;sleeper-vs-hog&quot;" in run
cmp = open(sys.argv[2]).read()
assert cmp.count('<tr><td>') >= 5 and "usecs_per_op" in cmp
PY
		ok "--html: balanced, self-contained, the sections and plots inline"
	else
		bad "--html structure" "see above"
	fi
	# Rendered by a real browser: not blank, and no console message (the
	# pages have no script; a page that logs shows the check is live).
	if ! command -v chromium >/dev/null; then
		echo "SKIP  --html in headless Chromium: chromium is missing (Debian chromium)"
	elif [ $have_py = 0 ]; then
		echo "SKIP  --html in headless Chromium: python3 is missing (PNG check)"
	else
		printf '<!DOCTYPE html><html><body><script>console.error("seen");</script></body></html>' >"$tmp/noisy.html"
		render() { # render PAGE PNG: chromium's log to PNG.log
			timeout 120 chromium --headless --no-sandbox --disable-gpu \
				--user-data-dir="$tmp/chromium" --enable-logging=stderr \
				--v=0 --window-size=1100,1800 --screenshot="$2" \
				"file://$1" >"$2.log" 2>&1
		}
		render "$tmp/noisy.html" "$tmp/noisy.png"
		render "$tmp/run.html" "$tmp/run.png"
		render "$tmp/cmp.html" "$tmp/cmp.png"
		if ! grep -q ':CONSOLE' "$tmp/noisy.png.log"; then
			bad "Chromium's console is read" "a console.error was not seen: $(tail -c 300 "$tmp/noisy.png.log")"
		elif grep -h ':CONSOLE' "$tmp/run.png.log" "$tmp/cmp.png.log"; then
			bad "--html in Chromium: no console message" "see above"
		elif ! [ -s "$tmp/run.png" ] || ! [ -s "$tmp/cmp.png" ]; then
			bad "--html in Chromium" "no screenshot: $(tail -c 300 "$tmp/run.png.log")"
		else
			read -r w1 h1 ink1 col1 < <(python3 tests/png_ink.py "$tmp/run.png")
			read -r w2 h2 ink2 col2 < <(python3 tests/png_ink.py "$tmp/cmp.png")
			# a report draws on more than 5% of the page, in many colours
			if [ "$ink1" -gt 50 ] && [ "$col1" -gt 50 ] &&
				[ "$ink2" -gt 50 ] && [ "$col2" -gt 50 ]; then
				ok "--html in headless Chromium: drawn (${ink1} and ${ink2} per mille), no console message"
			else
				bad "--html in Chromium: blank?" "run ${w1}x${h1} ink ${ink1} colours ${col1}; compare ${w2}x${h2} ink ${ink2} colours ${col2}"
			fi
		fi
	fi
fi
expect_error "--html into a missing directory" "$tmp/nodir/r.html" \
	run workloads/two-hogs.json --duration 5ms --html "$tmp/nodir/r.html" \
	-o "$tmp/res.txt"
if leftovers "$tmp/res.txt" || leftovers "$tmp/nodir/r.html"; then
	bad "a failed --html leaves no results" "$tmp/res.txt exists"
else
	ok "a failed --html leaves no results"
fi

finish
