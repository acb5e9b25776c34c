#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_errors.sh SIMBINARY: bad input must give exit 2 and a message that
# names the culprit, never a crash, a sanitizer report or a partial output
# file; plus a few positive checks of run, --output, features, validate,
# list and machines.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_errors.sh SIMBINARY}

# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# The inputs.
good=$tmp/good.json
cat >"$good" <<'J'
{"format": "eevdf-sim-workload/1", "name": "tiny", "duration": "200ms",
 "tasks": [{"name": "hog", "program": [{"loop": {"body": [{"run": "10ms"}]}}]},
           {"name": "sl", "nice": 5,
            "program": [{"loop": {"body": [{"run": "1ms"}, {"sleep": "2ms"}]}}]}]}
J
printf '%s\n' '{"format": "eevdf-sim-workload/1", "name": "x",' \
	'"tasks": [{"name": "a", "program": [' >"$tmp/malformed.json"
cat >"$tmp/bogus.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x",
 "tasks": [{"name": "a", "bogus": 1, "program": [{"run": "1ms"}]}]}
J
cat >"$tmp/negdur.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x",
 "tasks": [{"name": "a", "program": [{"run": "-5ms"}]}]}
J
cat >"$tmp/badop.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x",
 "tasks": [{"name": "a", "program": [{"frobnicate": "1ms"}]}]}
J
mkdir "$tmp/adir"
cat >"$tmp/baddev.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x",
 "objects": [{"type": "device", "name": "sda", "preset": "floppy"}],
 "tasks": [{"name": "a", "program": [{"run": "1ms"}]}]}
J
cat >"$tmp/noload.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x",
 "objects": [{"type": "device", "name": "sda"},
             {"type": "filesystem", "name": "fs", "device": "sda"}],
 "tasks": [{"name": "a", "program": [{"nbench": {"loadfile": "/nonexistent/client.txt"}}]}]}
J
cat >"$tmp/enoent.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x", "duration": "10ms",
 "objects": [{"type": "device", "name": "sda"},
             {"type": "filesystem", "name": "fs", "device": "sda"}],
 "tasks": [{"name": "a", "program": [{"open": {"path": "missing", "fd": "@fd"}}]}]}
J

# Bad workloads: the message names the file, the JSON path or the key.
expect_error "malformed JSON names the file" "$tmp/malformed.json" \
	run "$tmp/malformed.json"
expect_error "unknown key names 'bogus'" "bogus" run "$tmp/bogus.json"
expect_error "negative duration names its JSON path" \
	"tasks[0].program[0].run" run "$tmp/negdur.json"
expect_error "unknown op names the op" "frobnicate" run "$tmp/badop.json"
expect_error "unknown device preset names it and its path" \
	"objects[0].preset: unknown device preset 'floppy'" run "$tmp/baddev.json"
expect_error "unreadable NBENCH load file names it" \
	"cannot read the load file" run "$tmp/noload.json"
expect_error "a failed open without a status says so" \
	"ENOENT" run "$tmp/enoent.json"
expect_error "missing file names the file" "$tmp/nope.json" \
	run "$tmp/nope.json"
expect_error "unreadable (directory) workload names it" "$tmp/adir" \
	run "$tmp/adir"

# Bad options: the message names the option or the bad value.
expect_error "unknown feature names it" "NOT_A_FEATURE" \
	run "$good" --features NOT_A_FEATURE
expect_error "--cpus 0 rejected" "--cpus" run "$good" --cpus 0
expect_error "--latency-rows bad value rejected" "--latency-rows" \
	run "$good" --latency-rows tid
expect_error "--param without = rejected" "--param" run "$good" --param x
expect_error "--param of an unknown parameter names it" "nosuch" \
	run "$good" --param nosuch=1
expect_error "--report unknown names it" "bogusreport" \
	run "$good" --report bogusreport
expect_error "--cpus abc rejected" "--cpus" run "$good" --cpus abc
expect_error "--cpus beyond the maximum rejected" "--cpus" \
	run "$good" --cpus 99999999999999999999
expect_error "--seed -3 rejected" "--seed" run "$good" --seed -3
expect_error "--hz 0 rejected" "--hz" run "$good" --hz 0
expect_error "--duration garbage rejected" "--duration" \
	run "$good" --duration garbage
expect_error "unknown kernel names it" "9.99" run "$good" --kernel 9.99
expect_error "--format xml rejected" "--format" run "$good" --format xml
expect_error "unknown option named" "--no-such-option" \
	run "$good" --no-such-option
expect_error "option without its argument named" "--cpus" run "$good" --cpus
expect_error "missing WORKLOAD" "WORKLOAD" run
expect_error "unknown command named" "frobnicate" frobnicate
expect_error "features: unknown kernel names it" "9.99" \
	features --kernel 9.99
expect_error "validate: bad file names the key" "bogus" \
	validate "$good" "$tmp/bogus.json"

# CPU lists ("cpus", schbench's -M and -W) and interval reports: the
# message names the file, the JSON path and the reason.
cat >"$tmp/cpulist.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x", "duration": "10ms",
 "tasks": [{"name": "a", "cpus": "0-3,x", "program": [{"run": "1ms"}]}]}
J
expect_error "a bad CPU list names the file" "$tmp/cpulist.json: tasks[0].cpus" \
	run "$tmp/cpulist.json"
expect_error "... and the reason" "bad CPU list '0-3,x': expected a CPU number at 'x'" \
	run "$tmp/cpulist.json"
sch=(run workloads/schbench.json --cpus 4 --param runtime=1s)
expect_error "schbench -M 3-1: a reversed range" \
	"tasks[0].cpus.else.else.list: bad CPU list '3-1': the range 3-1 runs backwards" \
	"${sch[@]}" --param M=3-1
expect_error "schbench -W 1,1: a CPU listed twice" \
	"bad CPU list '1,1': CPU 1 is listed twice" "${sch[@]}" --param W=1,1
expect_error "schbench -M '': an empty list" \
	"bad CPU list '': the list is empty" "${sch[@]}" --param M=
expect_error "schbench -W 0-4096: beyond EEVDF_MAX_CPUS" \
	"CPU 4096 is beyond the largest, 4095" "${sch[@]}" --param W=0-4096
expect_error "schbench -M 0-7 -m 6 on 4 CPUs: beyond the machine" \
	"tasks[0].cpus: task msg[4]: cpu 4 is not on this 4-CPU machine" \
	"${sch[@]}" --param M=0-7 --param m=6
expect_error "schbench -i 0" \
	"report.interval: must be greater than 0 (null for no interval reports)" \
	"${sch[@]}" --param interval=0
expect_error "schbench -i -1s" "report.interval: must not be negative" \
	"${sch[@]}" --param interval=-1s
expect_error "schbench -i 10us over 1 s: too many reports" \
	"report.interval: 100000 interval reports" "${sch[@]}" --param interval=10us
out=$tmp/badlist.json
expect_error "--output with a bad CPU list" "bad CPU list" \
	"${sch[@]}" --param W=2-1 --output "$out"
if leftovers "$out"; then
	bad "--output with a bad CPU list leaves nothing" "$(ls "$tmp")"
else
	ok "--output with a bad CPU list leaves nothing"
fi

# --output failures: exit 2 and nothing left behind.
out=$tmp/nodir/out.json
expect_error "--output into a missing directory names it" "$out" \
	run "$good" --output "$out"
if [ -e "$tmp/nodir" ]; then
	bad "--output into a missing directory leaves nothing" "$tmp/nodir exists"
else
	ok "--output into a missing directory leaves nothing"
fi
out=$tmp/fail.json
expect_error "--output with a failing run" "NOT_A_FEATURE" \
	run "$good" --features NOT_A_FEATURE --output "$out"
if leftovers "$out"; then
	bad "--output with a failing run leaves nothing" "$(ls "$tmp")"
else
	ok "--output with a failing run leaves nothing"
fi
expect_error "--output onto a directory names it" "$tmp/adir" \
	run "$good" --output "$tmp/adir"
if compgen -G "$tmp/adir.tmp.*" >/dev/null || [ ! -d "$tmp/adir" ]; then
	bad "--output onto a directory leaves it alone" "$(ls "$tmp")"
else
	ok "--output onto a directory leaves it alone"
fi

# Positive checks.
if expect_ok "run: valid workload" run "$good"; then
	if grep -q '^  TOTAL:' "$tmp/out"; then
		ok "run: valid workload prints the TOTAL line"
	else
		bad "run: valid workload prints the TOTAL line" \
			"$(head -c 300 "$tmp/out")"
	fi
fi
out=$tmp/res.json
echo "stale" >"$out"
if expect_ok "run --output" run "$good" --format json --output "$out"; then
	if ! python3 -m json.tool "$out" >/dev/null 2>&1; then
		bad "run --output writes valid JSON" "$(head -c 300 "$out")"
	elif compgen -G "$out.tmp.*" >/dev/null; then
		bad "run --output writes valid JSON" "temporary file left"
	elif [ -s "$tmp/out" ]; then
		bad "run --output writes valid JSON" "stdout not empty"
	else
		ok "run --output writes valid JSON, replacing the old file"
	fi
fi
if expect_ok "features" features; then
	# Kernel spelling: upper case, digits would be allowed by the kernel.
	if grep -Evq '^(NO_)?[A-Z0-9_]+$' "$tmp/out"; then
		bad "features: NAME / NO_NAME lines" \
			"$(grep -Ev '^(NO_)?[A-Z0-9_]+$' "$tmp/out" | head -1)"
	elif ! grep -Eq '^(NO_)?DELAY_DEQUEUE$' "$tmp/out"; then
		bad "features: NAME / NO_NAME lines" "no DELAY_DEQUEUE line"
	else
		ok "features: NAME / NO_NAME lines, DELAY_DEQUEUE among them"
	fi
fi
if expect_ok "validate: valid file" validate "$good"; then
	if grep -qF "$good: ok (2 tasks)" "$tmp/out"; then
		ok "validate: valid file reports its tasks"
	else
		bad "validate: valid file reports its tasks" "$(cat "$tmp/out")"
	fi
fi
# rt-app input: auto-detected, forced, and its errors.
cat >"$tmp/rtapp.json" <<'J'
{ "global": { "duration": 1 },
  "tasks": { "t": { "run": 1000, "sleep": 1000, } } }
J
cat >"$tmp/rtapp-bad.json" <<'J'
{ "tasks": { "t": { "phases": { "p": { "run": -5 } } } } }
J
cat >"$tmp/rtapp-rt.json" <<'J'
{ "tasks": { "t": { "policy": "SCHED_FIFO", "priority": 0, "run": 1000 } } }
J
cat >"$tmp/rtapp-dl.json" <<'J'
{ "tasks": { "t": { "policy": "SCHED_DEADLINE", "dl-runtime": 20000,
                    "dl-period": 10000, "run": 1000 } } }
J
if expect_ok "rt-app file detected and run" run "$tmp/rtapp.json"; then
	if grep -qE '^  t:1 ' "$tmp/out"; then
		ok "rt-app file: its thread runs"
	else
		bad "rt-app file: its thread runs" "$(head -c 300 "$tmp/out")"
	fi
fi
expect_ok "--input rt-app forces the importer" \
	validate --input rt-app "$tmp/rtapp.json"
expect_error "--input native refuses an rt-app file" "$tmp/rtapp.json" \
	validate --input native "$tmp/rtapp.json"
expect_error "--input rt-app refuses a native file" "$good" \
	run --input rt-app "$good"
expect_error "rt-app negative run names its path" "tasks.t.phases.p.run" \
	run "$tmp/rtapp-bad.json"
expect_error "rt-app SCHED_FIFO priority 0 names its path" \
	"$tmp/rtapp-rt.json: tasks.t.priority: is the rt_priority for SCHED_FIFO" \
	run "$tmp/rtapp-rt.json"
expect_error "rt-app SCHED_DEADLINE refused as sched_setattr() would" \
	"$tmp/rtapp-dl.json: tasks.t: SCHED_DEADLINE runtime 20000 us" \
	run "$tmp/rtapp-dl.json"
expect_error "--input with an unknown value names it" "bogus" \
	run --input bogus "$good"

# compare: a table, JSON that parses back, the same output whatever --jobs,
# and its errors.
if expect_ok "compare: pipe, a vs NO_WAKEUP_PREEMPTION" compare \
	workloads/pipe.json --opts '--param loops=2000' \
	--features-b NO_WAKEUP_PREEMPTION; then
	cp "$tmp/out" "$tmp/compare.txt"
	# each side is what 'run' reports for that configuration, and b/a
	# their ratio; without wakeup preemption the ping-pong is slower
	"$SIM" run workloads/pipe.json --param loops=2000 --format json \
		>"$tmp/pa.json" 2>/dev/null
	"$SIM" run workloads/pipe.json --param loops=2000 --format json \
		--features NO_WAKEUP_PREEMPTION >"$tmp/pb.json" 2>/dev/null
	command -v python3 >/dev/null || echo "cli_errors.sh: python3 needed" >&2
	want=$(python3 - "$tmp/pa.json" "$tmp/pb.json" <<'PY' 2>/dev/null
import json, sys
a, b = (json.load(open(f))["summary"]["usecs_per_op"] for f in sys.argv[1:])
assert b > a
print("%-20s %-6s %12.6g %12.6g %8.3f" % ("usecs_per_op", "us", a, b,
                                         b / a))
PY
)
	if [ -n "$want" ] &&
		grep -qF "$want " "$tmp/compare.txt"; then
		ok "compare: pipe's usecs_per_op as run reports it, a < b, b/a"
	else
		bad "compare: pipe's usecs_per_op as run reports it" \
			"want '$want': $(cat "$tmp/compare.txt")"
	fi
fi
if expect_ok "compare --format json --runs 2" compare \
	workloads/desktop-video.json --opts '--cpus 2 --duration 1s' \
	--features-b NO_PLACE_LAG --runs 2 --format json; then
	cp "$tmp/out" "$tmp/compare.json"
	if command -v python3 >/dev/null &&
		! python3 - "$tmp/compare.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "eevdf-sim-compare/1" and d["runs"] == 2
assert d["seeds"] == [1, 2] and d["b"] == "--features NO_PLACE_LAG"
names = [f["name"] for f in d["figures"]]
assert names[:3] == ["frames", "dropped", "late_p99_us"], names
for f in d["figures"]:
    for k in ("a", "b"):
        v = f[k]["values"]
        # the C mean (a + b) / 2 and Python's may differ in the last bit
        assert len(v) == 2 and abs(f[k]["mean"] - sum(v) / 2) <= \
            1e-12 * max(1.0, abs(f[k]["mean"])), f
    if f["a"]["mean"]:
        assert abs(f["ratio"] - f["b"]["mean"] / f["a"]["mean"]) < 1e-9
PY
	then
		bad "compare JSON parses back" "$(head -c 300 "$tmp/compare.json")"
	else
		ok "compare JSON parses back: seeds, values, means, ratios"
	fi
	sim compare workloads/desktop-video.json --opts '--cpus 2 --duration 1s' \
		--features-b NO_PLACE_LAG --runs 2 --format json --jobs 3
	if [ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$tmp/compare.json"; then
		ok "compare --jobs 3 prints what --jobs 1 does"
	else
		bad "compare --jobs 3 prints what --jobs 1 does" "rc $rc"
	fi
fi
expect_error "compare: an unknown run option in --a" "--bogus" \
	compare "$good" --a '--bogus'
expect_error "compare: --seed inside --b is refused" "--seed" \
	compare "$good" --b '--seed 4'
expect_error "compare: an unknown feature, named once" "NO_FOO" \
	compare "$good" --features-b NO_FOO --jobs 4
if [ "$(grep -c NO_FOO "$tmp/err")" -eq 1 ]; then
	ok "compare: a bad configuration is reported once, not per worker"
else
	bad "compare: a bad configuration is reported once" "$(cat "$tmp/err")"
fi
expect_error "compare: --runs 0" "--runs" compare "$good" --runs 0
expect_error "compare: --jobs 65" "--jobs" compare "$good" --jobs 65
expect_error "compare: an unterminated quote" "quote" \
	compare "$good" --a "--kernel '6.17"
expect_error "compare: a missing workload" "$tmp/nope.json" \
	compare "$tmp/nope.json"
expect_error "compare: no workload" "missing" compare --runs 2

# --format csv: the JSON "tasks" entries, column for column.
if expect_ok "run --format csv" run workloads/nice-mix.json --duration 1s \
	--format csv -o "$tmp/r.csv" &&
	expect_ok "run --format json (for the CSV)" run workloads/nice-mix.json \
		--duration 1s --format json -o "$tmp/r.json"; then
	if ! command -v python3 >/dev/null; then
		ok "CSV round trip (python3 missing: skipped)"
	elif python3 - "$tmp/r.csv" "$tmp/r.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
res = json.load(open(sys.argv[2]))
tasks = res["tasks"]
meta = ["tool", "library", "git", "workload", "workload_sha256", "machine",
        "machine_digest", "kernel", "features", "seed", "params", "complete"]
assert len(rows) == len(tasks) == 5, (len(rows), len(tasks))
for r, t in zip(rows, tasks):
    assert list(r.keys()) == meta + list(t.keys()), (list(r), list(t))
    for k, v in t.items():
        assert str(v) == r[k], (k, v, r[k])
    c = res["config"]
    assert r["workload_sha256"] == c["workload_sha256"]
    assert r["machine_digest"] == c["machine"]["digest"]
    assert r["features"] == " ".join(c["features"])
    assert r["kernel"] == c["kernel"] and r["seed"] == str(c["seed"])
    assert r["complete"] == "true"
PY
	then
		ok "CSV round trip: every row equals its JSON task entry"
	else
		bad "CSV round trip" "$(head -3 "$tmp/r.csv")"
	fi
fi
expect_error "run --format xml names the formats" "csv" \
	run "$good" --format xml

# list: every shipped workload, in name order, with its description.
if expect_ok "list" list; then
	n=$(ls workloads/*.json | wc -l)
	# the first section; the machines follow
	sed -n '/^workloads in /,/^$/p' "$tmp/out" >"$tmp/workloads"
	names=$(grep '^  ' "$tmp/workloads" | awk '{ print $1 }' | tr '\n' ' ')
	want=$(ls workloads/*.json | xargs -n1 basename | sed 's/\.json$//' |
		LC_ALL=C sort | tr '\n' ' ')
	if [ "$(grep -c '^  ' "$tmp/workloads")" -eq "$n" ] && [ "$names" = "$want" ] &&
		grep -Eq '^  tbench +tbench \(dbench' "$tmp/out"; then
		ok "list: the $n shipped workloads in name order, described"
	else
		bad "list: the shipped workloads" "$(cat "$tmp/out")"
	fi
fi
mkdir "$tmp/wl"
cp "$good" "$tmp/wl/good.json"
cp "$tmp/badop.json" "$tmp/wl/bad.json"
sim list --dir "$tmp/wl"
if [ "$rc" -eq 2 ] && grep -q '^  bad .*(invalid: .*frobnicate' "$tmp/out" &&
	grep -q '^  good ' "$tmp/out"; then
	ok "list --dir: an invalid workload is listed as such, exit 2"
else
	bad "list --dir: an invalid workload" "rc $rc: $(cat "$tmp/out")"
fi
expect_error "list --dir with a missing directory" "$tmp/nodir" \
	list --dir "$tmp/nodir"

# list's third section: the sweep specs of sweeps/ in the directory, each
# with its number of runs (tbench-kernels: 3 kernels x 2 feature sets x
# 4 client counts x 3 seeds = 72; two-benchmarks: 2 workloads x 2 zipped
# kernel/CPU pairs x 3 seeds = 12, as docs/sweep-format.md counts them).
if expect_ok "list: sweeps" list; then
	sed -n '/^sweeps in /,$p' "$tmp/out" >"$tmp/sweeps"
	names=$(grep '^  ' "$tmp/sweeps" | awk '{ print $1 }' | tr '\n' ' ')
	want=$(ls workloads/sweeps/*.json | xargs -n1 basename |
		sed 's/\.json$//' | LC_ALL=C sort | tr '\n' ' ')
	if [ "$names" = "$want" ] &&
		grep -Eq '^  tbench-kernels +tbench, 8 to 64 .*\(72 runs\)$' "$tmp/sweeps" &&
		grep -Eq '^  two-benchmarks +tbench and hackbench.*\(12 runs\)$' "$tmp/sweeps"; then
		ok "list: the shipped sweep specs in name order, with their runs"
	else
		bad "list: the shipped sweep specs" "$(cat "$tmp/out")"
	fi
fi
sim list --dir "$tmp/wl"
if grep -q '^sweeps in ' "$tmp/out"; then
	bad "list --dir without sweeps/ has no sweeps section" "$(cat "$tmp/out")"
else
	ok "list --dir without sweeps/ has no sweeps section"
fi
mkdir "$tmp/wl2" "$tmp/wl2/sweeps"
cp "$good" "$tmp/wl2/good.json"
cat >"$tmp/wl2/sweeps/one.json" <<'J'
{"format": "eevdf-sim-sweep/1", "name": "one", "workload": "../good.json",
 "axes": {"seed": [1, 2]}}
J
cat >"$tmp/wl2/sweeps/broken.json" <<'J'
{"format": "eevdf-sim-sweep/1", "name": "broken", "workload": "../good.json",
 "axes": {"seed": []}}
J
sim list --dir "$tmp/wl2"
if [ "$rc" -eq 2 ] && grep -q '^  broken .*(invalid: .*broken.json' "$tmp/out" &&
	grep -Eq '^  one +\(no description\) \(2 runs\)$' "$tmp/out"; then
	ok "list --dir: an invalid sweep spec is listed as such, exit 2; no description said"
else
	bad "list --dir: sweep specs" "rc $rc: $(cat "$tmp/out")"
fi

# Machines: --machine FILE or NAME, validate of machine files, the
# workload's own machine, list's second section.
cat >"$tmp/m.json" <<'J'
{"format": "eevdf-sim-machine/1", "name": "box", "hz": 250,
 "topology": {"cores_per_llc": 2, "threads_per_core": 2}}
J
cat >"$tmp/mbad.json" <<'J'
{"format": "eevdf-sim-machine/1", "hz": 5,
 "topology": {"cores_per_llc": 0},
 "costs": {"ipi": "-1us", "bogus": 1}}
J
printf '%s\n' '{"format": "eevdf-sim-machine/1",' \
	'"topology": {"cores_per_llc": 2,}}' >"$tmp/msyntax.json"
cat >"$tmp/wm.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "own", "machine": "m.json",
 "duration": "100ms",
 "tasks": [{"name": "w", "count": "${ncpus}",
            "program": [{"loop": {"body": [{"run": "1ms"}, {"sleep": "1ms"}]}}]}]}
J
expect_error "--machine: a missing file names it" "$tmp/nom.json" \
	run "$good" --machine "$tmp/nom.json"
expect_error "--machine: a bad file names the JSON path" \
	"mbad.json: hz: must be between 100 and 10000" \
	run "$good" --machine "$tmp/mbad.json"
expect_error "--machine: malformed JSON names the line" "msyntax.json:2:" \
	run "$good" --machine "$tmp/msyntax.json"
expect_error "--machine: a workload is not a machine" "not a machine" \
	run "$good" --machine "$good"
expect_error "--machine without its argument named" "--machine" \
	run "$good" --machine
expect_error "validate --machine: a missing machine names it" \
	"$tmp/nom.json" validate --machine "$tmp/nom.json" "$good"
expect_error "compare --machine: a missing machine names it" \
	"$tmp/nom.json" compare "$good" --machine "$tmp/nom.json"
expect_error "validate: a bad machine file, every error" "4 errors" \
	validate "$tmp/mbad.json"
if grep -q 'mbad.json: hz: ' "$tmp/err" &&
	grep -q 'mbad.json: topology.cores_per_llc: ' "$tmp/err" &&
	grep -q 'mbad.json: costs.ipi: must not be negative' "$tmp/err" &&
	grep -q "mbad.json: costs.bogus: unknown cost 'bogus'" "$tmp/err"; then
	ok "validate: each machine error with its own path"
else
	bad "validate: each machine error with its own path" "$(cat "$tmp/err")"
fi
if expect_ok "validate: a machine file" validate "$tmp/m.json"; then
	if grep -qF "m.json: ok (machine box: 4 CPUs (2 cores, 1 LLC, 1 package), HZ 250)" \
		"$tmp/out"; then
		ok "validate: a machine file is reported with its shape"
	else
		bad "validate: a machine file is reported" "$(cat "$tmp/out")"
	fi
fi
if expect_ok "validate: every shipped machine" validate workloads/machines/*.json; then
	if [ "$(grep -c ': ok (machine ' "$tmp/out")" -eq \
		"$(ls workloads/machines/*.json | wc -l)" ]; then
		ok "validate: every shipped machine is valid"
	else
		bad "validate: every shipped machine" "$(cat "$tmp/out")"
	fi
fi
if expect_ok "run --machine FILE --hz" run "$good" --machine "$tmp/m.json" --hz 300; then
	if grep -q '^# machine box: 4 CPUs (2 cores, 1 LLC, 1 package)$' "$tmp/out" &&
		grep -q '^# kernel .*, 4 CPUs, HZ 300,' "$tmp/out"; then
		ok "run --machine: the header names the machine, --hz wins"
	else
		bad "run --machine: the header" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "run --cpus" run "$good" --cpus 2; then
	if grep -q '^# machine' "$tmp/out"; then
		bad "run --cpus: no machine line (goldens)" "$(head -6 "$tmp/out")"
	else
		ok "run --cpus: no machine line (goldens)"
	fi
fi
# The CFS profile (6.1-6.5) runs an SMP workload end to end.
if expect_ok "run --kernel cfs-6.1: tbench on 2 CPUs" run workloads/tbench.json \
	--kernel cfs-6.1 --param nprocs=2 --param timelimit=200ms --cpus 2; then
	if grep -q '^# kernel cfs-6.1' "$tmp/out"; then
		ok "run --kernel cfs-6.1: the header names the profile"
	else
		bad "run --kernel cfs-6.1: the header" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "features --kernel cfs-6.1" features --kernel cfs-6.1; then
	if grep -Eq '^(NO_)?(PLACE_LAG|RUN_TO_PARITY|DELAY_DEQUEUE|PICK_BUDDY)$' \
		"$tmp/out"; then
		bad "features --kernel cfs-6.1: CFS-era flags only" \
			"$(grep -E 'PLACE_LAG|RUN_TO_PARITY|DELAY|PICK_BUDDY' "$tmp/out" | head -1)"
	elif [ "$(grep -c . "$tmp/out")" -ne 26 ] ||
		! grep -qx 'GENTLE_FAIR_SLEEPERS' "$tmp/out" ||
		! grep -qx 'NO_NEXT_BUDDY' "$tmp/out"; then
		bad "features --kernel cfs-6.1: CFS-era flags only" \
			"$(tr '\n' ' ' <"$tmp/out")"
	else
		ok "features --kernel cfs-6.1: the 26 CFS-era flags"
	fi
fi
if expect_ok "run --machine NAME --format json" run "$good" --machine i7-4790 \
	--format json; then
	if python3 - "$tmp/out" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["config"]["machine"]
assert set(m) == {"name", "cpus", "cores", "llcs", "packages", "hz",
                  "digest"}, m
assert m["cpus"] == 8 and m["hz"] == 1000, m
assert len(m["digest"]) == 64, m
PY
	then
		ok "run --machine i7-4790: config.machine in the results"
	else
		bad "run --machine i7-4790: config.machine" "$(head -c 300 "$tmp/out")"
	fi
fi
if expect_ok "run: the workload's own machine" run "$tmp/wm.json"; then
	if grep -q '^# machine box: 4 CPUs' "$tmp/out" &&
		[ "$(grep -c '^  w\[' "$tmp/out")" -eq 4 ]; then
		ok "run: the workload's machine file, beside it, sizes \${ncpus}"
	else
		bad "run: the workload's own machine" "$(cat "$tmp/out")"
	fi
fi
if expect_ok "run: --cpus wins over the workload's machine" \
	run "$tmp/wm.json" --cpus 3; then
	if ! grep -q '^# machine' "$tmp/out" &&
		[ "$(grep -c '^  w\[' "$tmp/out")" -eq 3 ]; then
		ok "run: --cpus wins over the workload's machine"
	else
		bad "run: --cpus wins over the workload's machine" "$(cat "$tmp/out")"
	fi
fi
if expect_ok "list: machines" list; then
	n=$(ls workloads/machines/*.json | wc -l)
	sed -n '/^machines in /,/^$/p' "$tmp/out" >"$tmp/machines"
	if [ "$(grep -c '^  ' "$tmp/machines")" -eq "$n" ] &&
		grep -Eq '^  i7-4790 +Intel Core i7-4790' "$tmp/machines"; then
		ok "list: the $n shipped machines, described"
	else
		bad "list: the shipped machines" "$(cat "$tmp/out")"
	fi
fi

# A workload's "kernel" is the default profile of its runs; --kernel wins.
cat >"$tmp/k.json" <<'JSON'
{"format": "eevdf-sim-workload/1", "kernel": "6.12", "duration": "10ms",
 "tasks": [{"name": "a", "program": [{"run": "1ms"}]}]}
JSON
if expect_ok "run of a workload that names its kernel" run "$tmp/k.json" &&
	grep -q '^# kernel 6.12,' "$tmp/out"; then
	ok "the workload's kernel is used"
else
	bad "the workload's kernel is used" "$(head -3 "$tmp/out")"
fi
if expect_ok "--kernel over the workload's" run "$tmp/k.json" --kernel 6.18 &&
	grep -q '^# kernel 6.18,' "$tmp/out"; then
	ok "--kernel overrides the workload's kernel"
else
	bad "--kernel overrides the workload's kernel" "$(head -3 "$tmp/out")"
fi
sed 's/"6.12"/"4.19"/' "$tmp/k.json" >"$tmp/k2.json"
expect_error "unknown kernel in a workload" \
	"kernel: unknown kernel profile '4.19'" run "$tmp/k2.json"

# --trace: valid JSON, ordered, per-CPU slices that never overlap, wakeup
# arrows that pair up; --trace-window keeps only its span; --timehist.
hb=(workloads/hackbench.json --param groups=1 --param fds=3 --param loops=20
	--cpus 2)
if expect_ok "run --trace" run "${hb[@]}" --trace "$tmp/t.json" -q &&
	expect_ok "run --trace --trace-window" run "${hb[@]}" -q \
		--trace "$tmp/w.json" --trace-window 100us:300us &&
	expect_ok "run --trace of five tasks on two CPUs" run \
		workloads/massive_intr.json --param nproc=5 --param runtime=1 \
		--cpus 2 -q --trace "$tmp/m.json"; then
	if ! command -v python3 >/dev/null; then
		ok "trace checks (python3 missing: skipped)"
	elif python3 - "$tmp/t.json" "$tmp/w.json" "$tmp/m.json" <<'PY'
import json, sys
from collections import Counter
for path, lo, hi in ((sys.argv[1], 0, float("inf")),
                     (sys.argv[2], 100, 300),
                     (sys.argv[3], 0, float("inf"))):
    ev = json.load(open(path))["traceEvents"]
    kinds = Counter(e["ph"] for e in ev)
    if path == sys.argv[1]:
        full_x = kinds["X"]
    # the window keeps a part of the whole run's slices
    assert (kinds["X"] > 10 if path != sys.argv[2] else
            0 < kinds["X"] < full_x), kinds
    assert kinds["i"] > 0 and kinds["C"] > 0, kinds
    assert kinds["s"] == kinds["f"] > 0, kinds
    names = {e["tid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name"
             and e["pid"] == 0}
    assert names == {0: "CPU 0", 1: "CPU 1"}, names
    timed = [e for e in ev if e["ph"] != "M"]
    # events are written as they happen, slices when they end
    assert all(lo <= e["ts"] <= hi for e in timed), path
    # rq-lock spins nest in the slice of what the CPU ran; task slices
    # never overlap each other
    spins = [e for e in ev if e["ph"] == "X" and e.get("cat") == "lock"]
    assert all(e["dur"] > 0 and 0 <= e["args"]["lock_cpu"] < 2
               for e in spins), spins
    ipis = [e for e in ev if e["ph"] == "i" and e["name"] == "ipi"]
    assert all(e["args"]["from_cpu"] != e["tid"] for e in ipis), ipis
    if path == sys.argv[1]:
        # hackbench on two CPUs spins on run-queue locks and sends IPIs
        assert spins and ipis, (len(spins), len(ipis))
    for cpu in (0, 1):
        sl = sorted((e["ts"], e["ts"] + e["dur"]) for e in ev
                    if e["ph"] == "X" and e["tid"] == cpu
                    and e.get("cat") != "lock")
        assert all(a[1] <= b[0] + 1e-9 for a, b in zip(sl, sl[1:])), cpu
        assert all(a <= b for a, b in sl)
        assert all(lo <= a and b <= hi for a, b in sl)
    flows = {e["id"]: e for e in ev if e["ph"] == "s"}
    for e in ev:
        if e["ph"] == "f":
            assert flows[e["id"]]["ts"] <= e["ts"]
    assert all(e["args"]["nr_running"] >= 0 for e in ev if e["ph"] == "C")
    if path == sys.argv[3]:
        # migrations: an instant on the CPU the task arrives at, and the
        # task's next slice runs there
        mig = [e for e in ev if e["ph"] == "i"
               and e["name"].startswith("migrate")]
        assert mig, "no migrate events"
        for m in mig:
            a = m["args"]
            assert a["orig_cpu"] != a["dest_cpu"] == m["tid"], m
            nxt = [e for e in ev if e["ph"] == "X" and
                   e["args"].get("pid") == a["pid"] and e["ts"] >= m["ts"]]
            if nxt:
                first = min(nxt, key=lambda e: e["ts"])
                later = [x for x in mig if x["args"]["pid"] == a["pid"]
                         and m["ts"] < x["ts"] <= first["ts"]]
                assert later or first["tid"] == a["dest_cpu"], (m, first)
PY
	then
		ok "trace: valid, task slices per CPU never overlap, lock spins and IPIs shown, arrows pair, migrations land, window kept"
	else
		bad "trace: JSON checks" "$(head -c 300 "$tmp/t.json")"
	fi
fi
if expect_ok "run --timehist" run workloads/pipe.json --param loops=3 \
	--timehist -q; then
	if grep -Eq '^ +time cpu +task name +wait time sch delay  run time$' \
		"$tmp/out" &&
		grep -Eq '^ +0\.[0-9]{6} \[0000\] t[01]\[[12]\] +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$' \
		"$tmp/out" && grep -q 'usecs/op' "$tmp/out"; then
		ok "timehist: perf's columns, then the report"
	else
		bad "timehist: perf's columns" "$(head -8 "$tmp/out")"
	fi
fi
expect_error "--trace-window without a colon" "FROM:TO" \
	run "$good" --trace "$tmp/x.json" --trace-window 5ms
expect_error "--trace-window that ends before it starts" "ends before" \
	run "$good" --trace "$tmp/x.json" --trace-window 5ms:1ms
expect_error "--trace-window without --trace" "--trace" \
	run "$good" --trace-window 1ms:5ms
expect_error "--timehist with --format json" "--timehist" \
	run "$good" --timehist --format json
expect_error "--trace into a missing directory" "$tmp/nodir/t.json" \
	run "$good" --trace "$tmp/nodir/t.json"
if [ ! -e "$tmp/x.json" ]; then
	ok "no trace file is left by a failed run"
else
	bad "no trace file is left by a failed run" "$tmp/x.json exists"
fi

# Progress: on a terminal only, and it never changes the results.
dv=(workloads/desktop-video.json --cpus 2 --duration 3s --format json)
if expect_ok "run into a pipe" run "${dv[@]}" -o "$tmp/pipe.json"; then
	if [ -s "$tmp/err" ]; then
		bad "no progress in pipes" "$(head -c 200 "$tmp/err")"
	else
		ok "no progress on stderr when it is not a terminal"
	fi
fi
if command -v script >/dev/null; then
	script -qc "$(printf '%q ' "$SIM" run "${dv[@]}" -o "$tmp/tty.json")" \
		/dev/null >"$tmp/tty.log" 2>&1
	if grep -q "simulated .* of 3.000 s" "$tmp/tty.log" &&
		cmp -s "$tmp/tty.json" "$tmp/pipe.json"; then
		ok "progress on a terminal; the results are the same bytes"
	else
		bad "progress on a terminal" "$(tr '\r' '\n' <"$tmp/tty.log" | head -3)"
	fi
fi

# validate reports every task's program error, not only the first.
cat >"$tmp/multi.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "x",
 "tasks": [
  {"name": "a", "program": [{"frobnicate": "1ms"}]},
  {"name": "b", "count": 3, "program": [{"run": "1ms"}]},
  {"name": "c", "program": [{"run": -5}]},
  {"name": "d", "program": [{"sleep": "1ms"}, {"send": {"chan": "nope", "bytes": 1}}]}
 ]}
J
expect_error "validate: several errors" "3 errors" validate "$tmp/multi.json"
if grep -q "tasks\[0\].program\[0\]: unknown op 'frobnicate'" "$tmp/err" &&
	grep -q "tasks\[2\].program\[0\].run" "$tmp/err" &&
	grep -q "tasks\[3\].program\[1\].send.chan: no object named 'nope'" \
		"$tmp/err"; then
	ok "validate: each error with its own path"
else
	bad "validate: each error with its own path" "$(cat "$tmp/err")"
fi
expect_error "run stops at the first error" "frobnicate" run "$tmp/multi.json"
if ! grep -q "errors" "$tmp/err"; then
	ok "run: one error, not a list"
else
	bad "run: one error, not a list" "$(cat "$tmp/err")"
fi

# check: 0 within tolerance, 1 with a planted regression, 2 on errors.
pipe=(workloads/pipe.json --param loops=2000)
if expect_ok "check --update-baseline writes a baseline" check "${pipe[@]}" \
	--baseline "$tmp/base.json" --update-baseline; then
	if grep -q '"format":[[:space:]]*"eevdf-sim-result/1"' "$tmp/base.json" &&
		grep -q '"usecs_per_op"' "$tmp/base.json"; then
		ok "the baseline is a results JSON with the headline numbers"
	else
		bad "the baseline is a results JSON" "$(head -c 200 "$tmp/base.json")"
	fi
fi
if expect_ok "check: the same run is within tolerance" check "${pipe[@]}" \
	--baseline "$tmp/base.json"; then
	if grep -q "all 2 metrics within tolerance" "$tmp/out"; then
		ok "check: says all metrics are within tolerance"
	else
		bad "check: says all metrics are within tolerance" "$(cat "$tmp/out")"
	fi
fi
# the row: the baseline's value, this run's (as 'run' reports it) and the
# change between them, worked out here
"$SIM" run "${pipe[@]}" --features NO_WAKEUP_PREEMPTION --format json \
	>"$tmp/slow-run.json" 2>/dev/null
row=$(python3 - "$tmp/base.json" "$tmp/slow-run.json" <<'PY' 2>/dev/null
import json, sys
b, n = (json.load(open(f))["summary"]["usecs_per_op"] for f in sys.argv[1:])
print("%-20s %14.6g %14.6g %+8.2f%%  REGRESSION" % ("usecs_per_op", b, n,
                                                 100 * (n - b) / b))
PY
)
sim check "${pipe[@]}" --baseline "$tmp/base.json" \
	--features NO_WAKEUP_PREEMPTION --allow-config-change
if [ "$rc" -eq 1 ] && [ -n "$row" ] && grep -qF "$row" "$tmp/out" &&
	grep -q "2 of 2 metrics regressed" "$tmp/out" &&
	grep -q "features differ: WAKEUP_PREEMPTION, now: NO_WAKEUP_PREEMPTION" \
		"$tmp/out"; then
	ok "check: a planted regression (NO_WAKEUP_PREEMPTION) exits 1, listed"
else
	bad "check: a planted regression exits 1" "rc $rc: $(cat "$tmp/out" "$tmp/err")"
fi
sim check "${pipe[@]}" --baseline "$tmp/base.json" \
	--features NO_WAKEUP_PREEMPTION --tolerance 13 --allow-config-change
if [ "$rc" -eq 0 ]; then
	ok "check: the same change within --tolerance 13 exits 0"
else
	bad "check: within --tolerance 13 exits 0" "rc $rc: $(cat "$tmp/out")"
fi
sim check "${pipe[@]}" --baseline "$tmp/base.json" \
	--features NO_WAKEUP_PREEMPTION --tolerance 13 --metric usecs_per_op:5 \
	--allow-config-change
if [ "$rc" -eq 1 ] && [ "$(grep -c REGRESSION "$tmp/out")" -eq 1 ]; then
	ok "check: --metric NAME:PCT selects one metric with its tolerance"
else
	bad "check: --metric NAME:PCT" "rc $rc: $(cat "$tmp/out")"
fi
# an improvement is not a regression: the baseline made without preemption
sim check "${pipe[@]}" --features NO_WAKEUP_PREEMPTION \
	--baseline "$tmp/slow.json" --update-baseline
sim check "${pipe[@]}" --baseline "$tmp/slow.json" --allow-config-change
if [ "$rc" -eq 0 ] && grep -q "improved" "$tmp/out"; then
	ok "check: an improvement exits 0 and says improved"
else
	bad "check: an improvement exits 0" "rc $rc: $(cat "$tmp/out")"
fi
echo '{"format": "something-else/1", "summary": {}}' >"$tmp/other.json"
expect_error "check: a baseline of another format" "$tmp/other.json" \
	check "${pipe[@]}" --baseline "$tmp/other.json"
expect_error "check: a malformed baseline" "$tmp/malformed.json" \
	check "${pipe[@]}" --baseline "$tmp/malformed.json"
expect_error "check: a missing baseline" "$tmp/nobase.json" \
	check "${pipe[@]}" --baseline "$tmp/nobase.json"
expect_error "check: no --baseline" "--baseline" check "${pipe[@]}"
expect_error "check: a metric the run lacks" "bogus" \
	check "${pipe[@]}" --baseline "$tmp/base.json" --metric bogus
expect_error "check: a negative tolerance" "--tolerance" \
	check "${pipe[@]}" --baseline "$tmp/base.json" --tolerance -1
expect_error "check: a bad run option" "--cpus" \
	check "${pipe[@]}" --baseline "$tmp/base.json" --cpus 0
expect_error "check: --format is not check's" "--format" \
	check "${pipe[@]}" --baseline "$tmp/base.json" --format json

# Groups and sessions: the file, the JSON path (groups["/x"]["file"]) and
# the reason; exit 2 and no output file.
grp() {
	printf '{"format": "eevdf-sim-workload/1", "duration": "100ms", %s,
 "tasks": [{"name": "a", %s "program": [{"run": "1ms"}]}]}\n' "$1" "$2" \
		>"$tmp/grp.json"
}
out=$tmp/grp-out.json
grp '"groups": {"/web": {"cpu.weight": 0}}' '"cgroup": "/web",'
expect_error "groups: a weight out of range, file, path and reason" \
	"$tmp/grp.json: groups[\"/web\"][\"cpu.weight\"]: must be between 1 and 10000" \
	run "$tmp/grp.json" --format json -o "$out"
if leftovers "$out"; then bad "groups: a bad file writes nothing" "$(ls "$tmp")"; else ok "groups: a bad file writes nothing"; fi
grp '"groups": {"/c": {"cpu.max": "20000 100"}}' ''
expect_error "groups: a cpu.max period under 1 ms" \
	"groups[\"/c\"][\"cpu.max\"]: cpu.max period 100 us is outside 1000..1000000 us" \
	run "$tmp/grp.json"
grp '"groups": {"/c": {"cpu.shares": 512}}' ''
expect_error "groups: a cgroup v1 file is named as such" \
	"'cpu.shares' is cgroup v1's" run "$tmp/grp.json"
grp '"groups": {"/c": {"cpu.idle": 1, "cpu.weight": 50}}' ''
expect_error "groups: a weight of an idle group" \
	"groups[\"/c\"][\"cpu.weight\"]: an idle group (cpu.idle 1) has no weight" \
	validate "$tmp/grp.json"
grp '"groups": {"/web": {}}' '"cgroup": "/wbe",'
expect_error "groups: a task's unknown cgroup, with the nearest" \
	"tasks[0].cgroup: no group '/wbe' in \"groups\": did you mean '/web'?" \
	run "$tmp/grp.json" -o "$out"
if leftovers "$out"; then bad "groups: ... writes nothing" "$(ls "$tmp")"; else ok "groups: ... writes nothing"; fi
grp '"sessions": {"s": {"nice": 30}}' '"session": "s",'
expect_error "sessions: a nice out of range" \
	"sessions.s.nice: must be between -20 and 19" run "$tmp/grp.json"
grp '"sessions": {}' '"session": "s", "setsid": true,'
expect_error "sessions: session and setsid exclude each other" \
	"tasks[0].setsid: 'setsid' and 'session' exclude each other" \
	run "$tmp/grp.json"
grp '"groups": {"/a b": {}}' ''
expect_error "groups: a bad path" \
	"groups[\"/a b\"]: bad cgroup path '/a b'" run "$tmp/grp.json"
printf '{"tasks": {"t": {"loop": 1, "run": 10, "taskgroup": "tg1"}}}\n' \
	>"$tmp/tg.json"
expect_error "rt-app: a taskgroup without '/' names its rt-app path" \
	"$tmp/tg.json: tasks.t.taskgroup: rt-app refuses a taskgroup that does not start with '/'" \
	run "$tmp/tg.json" --format json -o "$out"
if leftovers "$out"; then bad "rt-app: ... writes nothing" "$(ls "$tmp")"; else ok "rt-app: ... writes nothing"; fi
grp '"groups": {"/sys/web": {"cpu.weight": 300}, "/batch": {"cpu.idle": 1}, "/cap": {"cpu.max": "20000 100000"}}, "sessions": {"build": {"nice": 5}}' \
	'"cgroup": "/sys/web", "session": "build",'
if expect_ok "validate: a workload with groups" validate "$tmp/grp.json"; then
	if printf '%s\n' "$tmp/grp.json: ok (1 task)" "  group /batch: cpu.idle 1" \
		"  group /cap: cpu.max 20000 100000" "  group /sys: (defaults)" \
		"  group /sys/web: cpu.weight 300" "  session build (1): nice 5" |
		cmp -s - "$tmp/out"; then
		ok "validate: prints the groups and sessions it would make"
	else
		bad "validate: prints the groups and sessions" "$(cat "$tmp/out")"
	fi
fi

for args in "--help" "--version" "run --help" "features --help" \
	"validate --help" "compare --help" "check --help" "list --help" \
	"help run"; do
	# shellcheck disable=SC2086 # split args on purpose
	if expect_ok "$args" $args; then
		if [ -s "$tmp/out" ]; then
			ok "$args prints to stdout"
		else
			bad "$args prints to stdout" "empty"
		fi
	fi
done

finish
