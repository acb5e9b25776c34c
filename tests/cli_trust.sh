#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_trust.sh SIMBINARY: numbers a user can trust and runs they can trace
# back: a feature the profile lacks is an error, --duration and the
# workload's own length agree, a benchmark that did not finish says so,
# results carry their provenance and rerun reproduces them.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_trust.sh SIMBINARY}
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
cd "$(dirname "$0")/.." || exit 2

hogs=workloads/two-hogs.json

# A feature the profile does not have is an error naming the profile and
# the releases that have it, unless --features-allow-absent.
expect_error "DELAY_DEQUEUE on 6.8 names the profile" "kernel profile 6.8" \
	run "$hogs" --kernel 6.8 --features DELAY_DEQUEUE --duration 10ms
if grep -qF "6.12, 6.17, 6.18, 6.19" "$tmp/err"; then
	ok "... and the profiles that have it"
else
	bad "... and the profiles that have it" "$(head -c 300 "$tmp/err")"
fi
expect_error "NO_DELAY_DEQUEUE on 6.8 too" "DELAY_DEQUEUE is not a feature" \
	run "$hogs" --kernel 6.8 --features NO_DELAY_DEQUEUE --duration 10ms
if expect_ok "--features-allow-absent accepts it" run "$hogs" --kernel 6.8 \
	--features DELAY_DEQUEUE --features-allow-absent --duration 10ms \
	--format json; then
	ok "--features-allow-absent accepts it"
	if python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["config"]["features"]; sys.exit(any("DELAY_DEQUEUE" in x for x in f))' "$tmp/out"; then
		ok "... and leaves it out"
	else
		bad "... and leaves it out" "config.features lists it"
	fi
fi
run_ok "an RFC knob is settable on every profile" run "$hogs" \
	--kernel 6.8 --features PLACE_BONUS --duration 10ms

# A forever loop of yields is a valid workload (each yield is a syscall).
cat >"$tmp/yield.json" <<'J'
{"format": "eevdf-sim-workload/1", "duration": "10ms",
 "tasks": [{"name": "y", "program": [{"loop": {"body": [{"yield": {}}]}}]},
           {"name": "h", "program": [{"loop": {"body": [{"run": "1ms"}]}}]}]}
J
run_ok "a loop of yields runs" run "$tmp/yield.json"

# --duration and the workload's own length agree: schbench's runtime
# follows it, so 5 s of it reports runtime 5 and the rps of 5 s.
if expect_ok "schbench --duration 5s" run workloads/schbench.json --cpus 4 \
	--duration 5s; then
	if grep -q "runtime 5 (s)" "$tmp/out" &&
		! grep -q "runtime 30 (s)" "$tmp/out"; then
		ok "... reports runtime 5 (s)"
	else
		bad "... reports runtime 5 (s)" "$(grep runtime "$tmp/out" | head -2)"
	fi
	cp "$tmp/out" "$tmp/by-duration.txt"
	if expect_ok "schbench --param runtime=5s" run workloads/schbench.json \
		--cpus 4 --param runtime=5s &&
		[ "$(grep 'average rps' "$tmp/out")" = \
			"$(grep 'average rps' "$tmp/by-duration.txt")" ]; then
		ok "... with the rps that --param runtime=5s gives"
	else
		bad "... with the rps of --param runtime=5s" \
			"$(grep 'average rps' "$tmp/out" "$tmp/by-duration.txt")"
	fi
fi
# schbench's periodic reports (-i) and its pinning (-M, -W).  -r 3 -i 1:
# an interval report at 1, 2 and 3 s, each ending in "current rps", then
# the final report alone with "average rps"; the run itself is the same,
# so that final report is the whole report of the run without them.
if expect_ok "schbench -r 3 -i 1" run workloads/schbench.json --cpus 4 -q \
	--param runtime=3s --param interval=1s; then
	cp "$tmp/out" "$tmp/iv.txt"
	secs=$(sed -n 's/^Wakeup Latencies .* runtime \([0-9]*\) (s).*/\1/p' \
		"$tmp/iv.txt" | tr '\n' ' ')
	if [ "$secs" = "1 2 3 3 " ] &&
		[ "$(grep -c '^current rps: ' "$tmp/iv.txt")" -eq 3 ] &&
		[ "$(grep -c '^average rps: ' "$tmp/iv.txt")" -eq 1 ]; then
		ok "... three interval reports, then the final one"
	else
		bad "... three interval reports" "runtimes '$secs': $(head -c 300 "$tmp/iv.txt")"
	fi
	if expect_ok "schbench -r 3 without -i" run workloads/schbench.json \
		--cpus 4 -q --param runtime=3s --param interval=null &&
		cmp -s "$tmp/out" \
			<(awk 'f; /^current rps: / && ++n == 3 { f = 1 }' "$tmp/iv.txt"); then
		ok "... the final report is the run's without interval reports"
	else
		bad "... the final report unchanged" "$(diff "$tmp/out" "$tmp/iv.txt" | head -5)"
	fi
fi
# -M auto -m 2 on 4 CPUs: message threads on CPUs 0 and 1 (a task's "cpu"
# in the JSON is where it last ran); the workers may run anywhere.
if expect_ok "schbench -M auto -m 2" run workloads/schbench.json --cpus 4 \
	--param runtime=1s --param m=2 --param M=auto --format json; then
	if python3 - "$tmp/out" <<'PY'
import json, sys
cpu = {t["name"]: t["cpu"] for t in json.load(open(sys.argv[1]))["tasks"]}
assert cpu["msg[0]"] == 0 and cpu["msg[1]"] == 1, cpu
PY
	then
		ok "... message thread i on CPU i"
	else
		bad "... -M auto placement" "$(head -c 300 "$tmp/out")"
	fi
fi
expect_error "--duration and a --param of the length disagree" "disagree" \
	run workloads/schbench.json --cpus 4 --duration 5s --param runtime=7s
# tbench's warmup is a fifth of its timelimit: 3 s of it measure 2.4 s.
if expect_ok "tbench --duration 3s" run workloads/tbench.json --cpus 2 \
	--param nprocs=2 --duration 3s; then
	if grep -q "^Throughput 0 MB/sec" "$tmp/out" ||
		! grep -q "^Throughput" "$tmp/out"; then
		bad "... has a throughput" "$(grep Throughput "$tmp/out")"
	elif grep -q INCOMPLETE "$tmp/out"; then
		bad "... is complete" "$(grep INCOMPLETE "$tmp/out")"
	else
		ok "... has a throughput and is complete"
	fi
fi
# A benchmark that did not finish says so, and check will not use it.
if expect_ok "hackbench --duration 100ms" run workloads/hackbench.json \
	--duration 100ms; then
	if grep -q "^INCOMPLETE: it did not finish: .* at 0.100 s" "$tmp/out"; then
		ok "... says INCOMPLETE on its own line"
	else
		bad "... says INCOMPLETE" "$(tail -3 "$tmp/out")"
	fi
fi
if expect_ok "hackbench --duration 100ms --format json" run \
	workloads/hackbench.json --duration 100ms --format json \
	-o "$tmp/partial.json"; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (d["complete"] is False and "did not finish" in d["incomplete"]))' \
		"$tmp/partial.json"; then
		ok '... "complete": false in the results'
	else
		bad '... "complete": false' "$(head -c 200 "$tmp/partial.json")"
	fi
fi
expect_error "check refuses an incomplete baseline" "did not complete" \
	check workloads/hackbench.json --baseline "$tmp/partial.json"
expect_error "check refuses an incomplete run" "did not complete" \
	check workloads/hackbench.json --duration 100ms \
	--baseline "$tmp/partial.json"
# A duration without a unit is refused: 10 is not 10 s, nor silently 10 ns.
expect_error "--duration 10 is refused" "'10' has no unit" \
	run "$hogs" --duration 10
run_ok "--duration 10ns is fine" run "$hogs" --duration 10ns
expect_error "--trace-window without units" "no unit" \
	run "$hogs" --duration 10ms --trace "$tmp/t.json" --trace-window 5:10

# Provenance: everything needed to run it again.
if expect_ok "run --format json with provenance" run workloads/schbench.json \
	--cpus 4 --duration 1s --param ops=3 --seed 7 --format json \
	-o "$tmp/r.json"; then
	if python3 - "$tmp/r.json" workloads/schbench.json <<'PY'
import hashlib, json, sys
d = json.load(open(sys.argv[1]))
p, c = d["provenance"], d["config"]
assert p["tool"].startswith("eevdf-sim ") and p["library"], p
assert p["command_line"] == ["eevdf-sim", "run", "--cpus", "4", "--duration",
                             "1s", "--param", "ops=3", "--seed", "7",
                             "--format", "json", sys.argv[2]], p
assert c["workload_path"] == sys.argv[2]
assert c["workload_sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert c["duration_param"] == "runtime"
assert c["params"]["runtime"] == 1000000000 and c["params"]["ops"] == 3, c
assert c["params"]["t"] == 4, c
assert len(c["machine"]["digest"]) == 64 and c["seed"] == 7
assert d["complete"] is True
PY
	then
		ok "... tool, command line, workload SHA-256, params, machine digest"
	else
		bad "... provenance" "$(head -c 400 "$tmp/r.json")"
	fi
fi
if expect_ok "run --format csv --csv-meta comments" run "$hogs" \
	--duration 10ms --format csv --csv-meta comments; then
	if head -1 "$tmp/out" | grep -q '^# tool: eevdf-sim ' &&
		grep -q '^# workload_sha256: [0-9a-f]\{64\}$' "$tmp/out" &&
		grep -q '^name,pid,cpu,' "$tmp/out"; then
		ok "... a '# key: value' block, then the plain header"
	else
		bad "... comments" "$(head -c 300 "$tmp/out")"
	fi
fi
if expect_ok "run --format csv --csv-meta none" run "$hogs" \
	--duration 10ms --format csv --csv-meta none &&
	head -1 "$tmp/out" | grep -q '^name,pid,cpu,'; then
	ok "... none: the task columns alone"
fi
expect_error "--csv-meta of another kind" "--csv-meta" \
	run "$hogs" --format csv --csv-meta sideways

# check: a different configuration is an error unless allowed.
"$SIM" run workloads/pipe.json --param loops=200 --format json \
	-o "$tmp/base.json" 2>/dev/null
expect_error "check: other params are refused" "params differs" \
	check workloads/pipe.json --param loops=300 --baseline "$tmp/base.json"
expect_error "check: another machine is refused" "machine.digest differs" \
	check workloads/pipe.json --param loops=200 --machine i7-4790 \
	--baseline "$tmp/base.json"
expect_error "check: another kernel is refused" "kernel differs" \
	check workloads/pipe.json --param loops=200 --kernel 6.12 \
	--baseline "$tmp/base.json"
sed 's/"loops": 1000000/"loops": 999999/' workloads/pipe.json >"$tmp/pipe2.json"
expect_error "check: another workload file is refused" \
	"workload_sha256 differs" check "$tmp/pipe2.json" --param loops=200 \
	--baseline "$tmp/base.json"
sim check workloads/pipe.json --param loops=300 --baseline "$tmp/base.json" \
	--allow-config-change
if [ "$rc" -le 1 ] && grep -q "^note: the baseline's params differs" \
	"$tmp/out"; then
	ok "check --allow-config-change compares, with a note"
else
	bad "check --allow-config-change" "rc $rc: $(head -c 300 "$tmp/out")"
fi

# rerun: the same bytes again, and not from a changed workload.
sim rerun "$tmp/r.json" --verify
if [ "$rc" -eq 0 ] && grep -q "^identical" "$tmp/out"; then
	ok "rerun --verify: byte for byte"
else
	bad "rerun --verify" "rc $rc: $(cat "$tmp/out" "$tmp/err" | head -5)"
fi
if expect_ok "rerun -o FILE" rerun "$tmp/r.json" -o "$tmp/again.json" &&
	cmp -s "$tmp/r.json" "$tmp/again.json"; then
	ok "... writes the same bytes"
fi
sed 's/"runtime": "30s"/"runtime": "31s"/' workloads/schbench.json \
	>"$tmp/sch.json"
"$SIM" run "$tmp/sch.json" --cpus 2 --duration 200ms --format json \
	-o "$tmp/sch-r.json" 2>/dev/null
echo ' ' >>"$tmp/sch.json"
expect_error "rerun: a changed workload is refused" "is not the file" \
	rerun "$tmp/sch-r.json"
expect_error "rerun: a file without provenance" "command_line" \
	rerun workloads/schbench.json

# compare takes the common run options directly, as --opts would.
sim compare "$hogs" --duration 20ms --cpus 2 --features-b NO_PLACE_LAG
if [ "$rc" -eq 0 ] && grep -q "^  both: --duration 20ms --cpus 2$" "$tmp/out"; then
	ok "compare --duration --cpus apply to both"
else
	bad "compare --duration --cpus" "rc $rc: $(head -3 "$tmp/out" "$tmp/err")"
fi
cp "$tmp/out" "$tmp/direct.txt"
sim compare "$hogs" --opts '--duration 20ms --cpus 2' --features-b NO_PLACE_LAG
if [ "$rc" -eq 0 ] && diff <(tail -n +3 "$tmp/out") <(tail -n +3 "$tmp/direct.txt") >/dev/null; then
	ok "... the same table as through --opts"
else
	bad "... the same table as --opts" "$(diff "$tmp/out" "$tmp/direct.txt" | head -5)"
fi
# involuntary_switches: the preemptions among the context switches.  Two
# hogs never block, so every switch away is a preemption (nivcsw): the
# two figures are equal.  A lone task that runs 1 ms and sleeps 1 ms for
# 10 ms blocks at about 1, 3, 5, 7 and 9 ms (a little later each time:
# its syscalls cost CPU too), and nobody preempts it: 5 switches, all
# voluntary.
fig_ab() { # figure: "a b" from the table in $tmp/out
	awk -v f="$1" '$1 == f { print $(NF-4), $(NF-3) }' "$tmp/out"
}
sim compare "$hogs" --duration 20ms --no-progress --features-b NO_PLACE_LAG
if [ "$rc" -eq 0 ] && [ -n "$(fig_ab context_switches)" ] &&
	[ "$(fig_ab involuntary_switches)" = "$(fig_ab context_switches)" ]; then
	ok "compare: two hogs' switches are all involuntary"
else
	bad "compare involuntary_switches (hogs)" "rc $rc: $(tail -3 "$tmp/out")"
fi
cat >"$tmp/sleeper.json" <<'J'
{"format": "eevdf-sim-workload/1", "duration": "10ms",
 "tasks": [{"name": "s", "program": [{"loop": {"body": [{"run": "1ms"},
           {"sleep": "1ms"}]}}]}]}
J
sim compare "$tmp/sleeper.json" --no-progress --features-b NO_PLACE_LAG
if [ "$rc" -eq 0 ] && [ "$(fig_ab context_switches)" = "5 5" ] &&
	[ "$(fig_ab involuntary_switches)" = "0 0" ]; then
	ok "compare: a lone sleeper's 5 switches are all voluntary"
else
	bad "compare involuntary_switches (sleeper)" "rc $rc: $(tail -3 "$tmp/out")"
fi
sim compare "$hogs" --duration 20ms --runs 2 --progress
if [ "$rc" -eq 0 ] && grep -q "compare: 4 of 4 runs done" "$tmp/err"; then
	ok "compare --progress: a line per run in a log"
else
	bad "compare --progress" "rc $rc: $(cat "$tmp/err")"
fi
sim compare "$hogs" --duration 20ms --no-progress
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
	ok "compare --no-progress: nothing on stderr"
else
	bad "compare --no-progress" "$(cat "$tmp/err")"
fi
sim run "$hogs" --duration 1s --progress -q
if [ "$rc" -eq 0 ] && grep -q "simulated 0.500 s of 1.000 s (50%)" "$tmp/err"; then
	ok "run --progress: lines in a log"
else
	bad "run --progress" "$(head -3 "$tmp/err")"
fi
if command -v script >/dev/null; then
	script -qc "$(printf '%q ' "$SIM" run "$hogs" --duration 2s --no-progress -q)" \
		/dev/null >"$tmp/tty.log" 2>&1
	if grep -q "simulated" "$tmp/tty.log"; then
		bad "run --no-progress on a terminal" "$(head -c 200 "$tmp/tty.log")"
	else
		ok "run --no-progress: none on a terminal either"
	fi
fi

# A release in a profile's range maps to it, with a note.
sim run "$hogs" --kernel 6.10 --duration 10ms
if [ "$rc" -eq 0 ] && grep -q "note: kernel 6.10 is in the range 6.8-6.11 of profile 6.8" "$tmp/err" &&
	grep -q "^# kernel 6.8," "$tmp/out"; then
	ok "--kernel 6.10 runs profile 6.8, with a note"
else
	bad "--kernel 6.10" "rc $rc: $(cat "$tmp/err") $(grep kernel "$tmp/out")"
fi
expect_error "--kernel 7.0 is unknown" "unknown kernel profile '7.0'" \
	run "$hogs" --kernel 7.0 --duration 10ms
sim features --kernel 6.3
if [ "$rc" -eq 0 ] && grep -q "profile cfs-6.1" "$tmp/err" &&
	grep -q "GENTLE_FAIR_SLEEPERS" "$tmp/out"; then
	ok "features --kernel 6.3 lists cfs-6.1's flags"
else
	bad "features --kernel 6.3" "rc $rc: $(head -3 "$tmp/err" "$tmp/out")"
fi

# run - reads the workload from standard input.
if "$SIM" run - --duration 10ms -q <"$hogs" >"$tmp/stdin.txt" 2>"$tmp/err" &&
	"$SIM" run "$hogs" --duration 10ms -q >"$tmp/file.txt" 2>/dev/null &&
	cmp -s "$tmp/stdin.txt" "$tmp/file.txt"; then
	ok "run - reads the workload from stdin, same results"
else
	bad "run -" "$(head -c 300 "$tmp/err")"
fi
if ! "$SIM" run - <<<'{"format": "eevdf-sim-workload/1", "tasks": [' \
	>/dev/null 2>"$tmp/err" && grep -q "^eevdf-sim: <stdin>:1: JSON syntax error" "$tmp/err"; then
	ok "run -: errors name <stdin>"
else
	bad "run -: errors name <stdin>" "$(cat "$tmp/err")"
fi

# help CMD and CMD --help print the same, for every command.
same=1
for c in $("$SIM" --help | awk '/^Commands:/ {on = 1; next} on && NF && $1 != "help" {print $1} !NF {on = 0}'); do
	if ! diff <("$SIM" help "$c" 2>&1) <("$SIM" "$c" --help 2>&1) >/dev/null; then
		bad "help $c = $c --help" "they differ"
		same=0
	fi
done
[ "$same" = 1 ] && ok "help CMD and CMD --help agree for every command"

# The docs name no file the repository lacks.
missing=$(grep -ohE '(DESIGN\.md|reference/[a-z0-9-]+\.md|shared/[a-zA-Z/.-]+)' \
	README.md ARCHITECTURE.md CONTRIBUTING.md CHANGELOG.md docs/*.md \
	docs/eevdf-sim.1 | sort -u | tr '\n' ' ')
if [ -z "$missing" ]; then
	ok "docs name no file outside the repository"
else
	bad "docs name files outside the repository" "$missing"
fi
[ ! -e hogs33.json ] && ok "no stray hogs33.json at the root"

# list --reports: every report's headlines are what its formatter puts in
# the summary of a shipped workload's run.
if expect_ok "list --reports" list --reports; then
	cp "$tmp/out" "$tmp/reports.txt"
	# shellcheck source=tests/cases.sh
	. tests/cases.sh
	checked=0 wrong=""
	for c in "${CASES[@]}"; do
		args=${c#*|}
		# shellcheck disable=SC2086 # split args on purpose
		"$SIM" run $args --seed 1 --format json >"$tmp/case.json" 2>/dev/null ||
			continue
		if ! python3 - "$tmp/case.json" "$tmp/reports.txt" "${args%% *}" <<'PY'
import json, re, sys
res = json.load(open(sys.argv[1]))
try:
    wl = json.load(open(sys.argv[3]))
except ValueError:
    wl = {}  # an rt-app file (it allows comments): no report of ours
rep = wl.get("report", {})
fmt = rep.get("format") if isinstance(rep, dict) else None
cat, name = {}, None
for line in open(sys.argv[2]):
    if line and not line[0].isspace() and line.strip() and not line.startswith("Every"):
        name = line.strip()
    elif line.startswith("  headlines: ") and name:
        cat[name] = [h.split(" (")[0] for h in re.split(r", (?=[a-z_0-9]+ \()", line[13:].strip())]
builtin = ["total_cpu_ns", "total_delay_sum_ns", "max_delay_ns", "nr_tasks", "context_switches"]
got = [k for k in res["summary"] if k not in builtin]
want = cat.get(fmt, []) if fmt and fmt not in ("none", "perf_sched_latency") else []
sys.exit(0 if got == want else 1)
PY
		then
			wrong="$wrong ${c%%|*}"
		fi
		checked=$((checked + 1))
	done
	if [ -z "$wrong" ] && [ "$checked" -ge 10 ]; then
		ok "... its headlines are those of the $checked shipped runs"
	else
		bad "... headlines match the runs" "wrong:$wrong (checked $checked)"
	fi
fi

# ... and docs/workload-format.md lists the same.
if [ -s "$tmp/reports.txt" ] && python3 - "$tmp/reports.txt" docs/workload-format.md <<'PY'
import sys
doc = open(sys.argv[2]).read()
for b in open(sys.argv[1]).read().strip().split("\n\n"):
    l = b.split("\n")
    if l[0].startswith("Every"):
        continue
    head = l[2].strip()[len("headlines: "):]
    reads = l[3].strip()[len("reads: "):]
    assert "| `%s` | %s | %s | %s |" % (l[0], l[1].strip(), head, reads) in doc, l[0]
PY
then
	ok "docs/workload-format.md lists every report as list --reports does"
else
	bad "docs/workload-format.md's reports" "differ from list --reports"
fi

# The workload's own metrics: a text block, and figures by name for
# check and compare.  schbench at 1 s on 4 CPUs: its counter "requests"
# is the sum the JSON has, its hists the JSON's percentiles.
sch=(workloads/schbench.json --cpus 4 --duration 1s)
if expect_ok "schbench: text" run "${sch[@]}" -q &&
	cp "$tmp/out" "$tmp/sch.txt" &&
	expect_ok "schbench: json" run "${sch[@]}" --format json -o "$tmp/sch.json"; then
	if python3 - "$tmp/sch.txt" "$tmp/sch.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read().split("\n")
m = json.load(open(sys.argv[2]))["metrics"]
i = text.index("Workload metrics:")
rows = {l.split()[0]: l for l in text[i + 1:] if l.startswith("  ") and not l.startswith("  Task")}
assert rows["requests"].split()[-1] == str(m["requests"]["value"]), rows["requests"]
w = m["wakeup"]
want = "count %d, min %d, mean %d, p50 %d, p90 %d, p99 %d, p99_9 %d, max %d" % (
    w["count"], w["min"], w["mean"], w["p50"], w["p90"], w["p99"], w["p99_9"], w["max"])
assert rows["wakeup"].endswith(want), (rows["wakeup"], want)
assert " hist us " in rows["wakeup"], rows["wakeup"]
PY
	then
		ok "... a Workload metrics block with the JSON's numbers and units"
	else
		bad "... Workload metrics block" "$(grep -A5 'Workload metrics' "$tmp/sch.txt")"
	fi
	sim check "${sch[@]}" --baseline "$tmp/sch.json" --metric wakeup.p99 \
		--metric requests
	if [ "$rc" -eq 0 ] && grep -q "^wakeup.p99 " "$tmp/out" &&
		grep -q "^requests " "$tmp/out"; then
		ok "check --metric NAME.STAT and NAME of the workload's metrics"
	else
		bad "check --metric of a workload metric" "rc $rc: $(cat "$tmp/out" "$tmp/err")"
	fi
	expect_error "check --metric of no such figure lists the metrics" \
		"its metrics: wakeup request requests rps" \
		check "${sch[@]}" --baseline "$tmp/sch.json" --metric nope
fi
# A keyed metric by key: tbench's oplat[ReadX].mean is the ReadX cell's
# mean in the JSON.
if expect_ok "tbench: json" run workloads/tbench.json --cpus 2 --param nprocs=2 \
	--param timelimit=1s --format json -o "$tmp/tb.json"; then
	want=$(python3 -c 'import json,sys; c=[c for c in json.load(open(sys.argv[1]))["metrics"]["oplat"]["cells"] if c["key"]=="ReadX"][0]; print("%.6g" % c["mean"])' "$tmp/tb.json")
	sim check workloads/tbench.json --cpus 2 --param nprocs=2 \
		--param timelimit=1s --baseline "$tmp/tb.json" --metric 'oplat[ReadX].mean'
	if [ "$rc" -eq 0 ] && grep -qE "^oplat\[ReadX\]\.mean +$want +$want " "$tmp/out"; then
		ok "check --metric NAME[KEY].STAT reads the keyed cell ($want)"
	else
		bad "check --metric oplat[ReadX].mean" "rc $rc, want $want: $(cat "$tmp/out" "$tmp/err")"
	fi
	expect_error "check --metric with an unclosed key" "oplat[ReadX" \
		check workloads/tbench.json --cpus 2 --param nprocs=2 \
		--param timelimit=1s --baseline "$tmp/tb.json" --metric 'oplat[ReadX'
fi

sim compare workloads/schbench.json --cpus 4 --duration 500ms \
	--metric requests --metric wakeup.p99
if [ "$rc" -eq 0 ] && grep -q "^requests  " "$tmp/out" &&
	grep -q "^wakeup.p99  " "$tmp/out"; then
	ok "compare --metric: the workload's metrics as figures"
else
	bad "compare --metric" "rc $rc: $(cat "$tmp/out" "$tmp/err")"
fi

finish
