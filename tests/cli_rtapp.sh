#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_rtapp.sh SIMBINARY: the rt-app import seen from the command line
# (docs/rtapp-import.md): the notes of a translation printed as warnings
# on stderr by run, validate, check and compare; 'convert', whose output
# runs to the very same results as the rt-app file; and rt-app fragments
# (only "global" or "resources") refused as such.  Bad input gives exit
# 2, a message naming the file and no output file.  The fixtures are in
# tests/rtapp/.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_rtapp.sh SIMBINARY}
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
fix=$root/tests/rtapp

# check NAME CONDITION...: ok when the command CONDITION succeeds.
check() {
	local name=$1
	shift
	if "$@"; then
		ok "$name"
	else
		bad "$name" "$(head -c 300 "$tmp/err")"
	fi
}


# has FILE LINE: FILE holds LINE as a whole line.
has() { grep -qxF -- "$2" "$1"; }
# starts FILE PREFIX: a line of FILE starts with PREFIX.
starts() { grep -q "^$(printf '%s' "$2" | sed 's/[][\.*^$/]/\\&/g')" "$1"; }
nwarn() { grep -c '^eevdf-sim: warning: ' "$1"; }
nowarn_out() { ! grep -q 'warning' "$tmp/out"; }
is_json() { python3 -m json.tool "$1" >/dev/null 2>&1; }

notes=$fix/notes.json
native=$root/workloads/two-hogs.json
# what tests/rtapp/notes.json ignores and approximates: 10 notes (its
# taskgroup is a cgroup: no note)
NOTES=10
w="eevdf-sim: warning: $notes"

# ---- warnings -------------------------------------------------------------
if expect_ok "run: an rt-app file with ignored keys runs" run "$notes"; then
	check "run: one warning per note on stderr" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
	check "run: an ignored global key is a warning with file and path" \
		has "$tmp/err" "$w: global.calibration: ignored: 'run' is work at the nominal capacity of the simulated CPU, which needs no calibration"
	check "run: an ignored top-level key" \
		starts "$tmp/err" "$w: resources: ignored: "
	check "run: an ignored thread key" \
		starts "$tmp/err" "$w: tasks.worker.dl-runtime: 50 us is clamped"
	check "run: a taskgroup is no warning" \
		bash -c "! grep -q 'taskgroup' '$tmp/err'"
	check "run: an ignored phase key" \
		starts "$tmp/err" "$w: tasks.worker.phases.compute.util_max: ignored: uclamp"
	check "run: mem is approximated, with the numbers" \
		starts "$tmp/err" "$w: tasks.worker.phases.compute.mem: approximated: 40000 bytes are 4000 ns of CPU work (1 ns per 10 bytes"
	check "run: iorun is approximated" \
		starts "$tmp/err" "$w: tasks.worker.phases.io.iorun: approximated: 8192 bytes written to io_device are 820 ns of CPU work"
	check "run: memrun is approximated as size x count" \
		starts "$tmp/err" "$w: tasks.worker.phases.io.memrun: approximated: size x count = 16384 bytes are 1639 ns of CPU work"
	check "run: a clamped dl-runtime is a warning" \
		starts "$tmp/err" "$w: tasks.worker.dl-runtime: 50 us is clamped to 100 us"
	check "run: a thread that never runs is a warning" \
		starts "$tmp/err" "$w: tasks.spare.instance: 0 and no fork starts the thread"
	check "run: no warning on stdout" nowarn_out
	check "run: the latency table is still printed" grep -q '^  TOTAL:' "$tmp/out"
fi
if expect_ok "run -q: an rt-app file" run -q "$notes"; then
	check "run -q: warnings still on stderr" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
	check "run -q: no warning on stdout" nowarn_out
fi
if expect_ok "run --format json: an rt-app file" run "$notes" --format json; then
	check "run --format json: stdout is JSON alone" is_json "$tmp/out"
	check "run --format json: warnings on stderr" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
fi
if expect_ok "validate: an rt-app file with notes is valid" validate "$notes"; then
	check "validate: prints ok" has "$tmp/out" "$notes: ok (2 tasks)"
	check "validate: and the warnings on stderr" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
fi
expect_error "validate: warnings do not hide an error of another file" \
	"nope.json" validate "$notes" "$tmp/nope.json"
check "validate: the good file's warnings are still printed" \
	test "$(nwarn "$tmp/err")" -eq "$NOTES"
if expect_ok "check --update-baseline: an rt-app file" \
	check "$notes" --baseline "$tmp/base.json" --update-baseline; then
	check "check: the warnings once" test "$(nwarn "$tmp/err")" -eq "$NOTES"
fi
if expect_ok "check: against its baseline" \
	check "$notes" --baseline "$tmp/base.json"; then
	check "check: warnings, exit 0" test "$(nwarn "$tmp/err")" -eq "$NOTES"
fi
if expect_ok "compare: an rt-app file" compare "$notes" --runs 2 --jobs 2; then
	check "compare: prints the warnings" \
		has "$tmp/err" "$w: resources: ignored: resources are created by name where the events use them, as rt-app does"
	check "compare: the warnings once, not per configuration or run" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
fi
if expect_ok "run: a native workload" run "$native" --duration 100ms; then
	check "run: a native workload has no warnings" test ! -s "$tmp/err"
fi
if expect_ok "run: an rt-app file without ignored keys" \
	run "$fix/handoff.json" --cpus 2; then
	check "run: ... has no warnings" test ! -s "$tmp/err"
fi

# ---- convert --------------------------------------------------------------
if expect_ok "convert: an rt-app file to stdout" convert "$notes"; then
	check "convert: stdout is JSON" is_json "$tmp/out"
	check "convert: a native workload" \
		grep -q '"format":[[:space:]]*"eevdf-sim-workload/1"' "$tmp/out"
	check "convert: the notes are kept in the description" \
		grep -q '"description":.*Ignored: resources, global.calibration' "$tmp/out"
	check "convert: the warnings on stderr" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
	check "convert: no warning on stdout" nowarn_out
	cp "$tmp/out" "$tmp/stdout.json"
fi
out=$tmp/notes.native.json
if expect_ok "convert -o: writes the file" convert "$notes" -o "$out"; then
	check "convert -o: nothing on stdout" test ! -s "$tmp/out"
	check "convert -o: the file is what stdout had" cmp -s "$out" "$tmp/stdout.json"
	check "convert -o: the warnings on stderr" \
		test "$(nwarn "$tmp/err")" -eq "$NOTES"
	check "convert -o: no temporary file left" \
		bash -c "! compgen -G '$out.tmp.*' >/dev/null"
fi
if expect_ok "convert: --output - is stdout" convert --output - "$notes"; then
	check "convert: --output - gives the same text" cmp -s "$tmp/out" "$tmp/stdout.json"
fi
if expect_ok "validate: the converted file" validate "$out"; then
	check "validate: the converted file is native, no warnings" \
		test ! -s "$tmp/err"
fi

# Same results: the rt-app file and its conversion, byte for byte but for
# the lines that name the input when the results record it (the command
# line, the workload's path and the digest of its bytes).
input_lines='"(command_line|workload_path|workload_sha256)":'
results() { grep -Ev "$input_lines" "$1"; }
same_results() { cmp -s <(results "$1") <(results "$2"); }
# The CPUs a fixture needs: dvfs.json pins its thread to CPU 1, so its
# one-CPU run is a two-CPU one.
min_cpus() { case $1 in dvfs.json) echo 2 ;; *) echo 1 ;; esac; }
n=0
for f in "$root"/workloads/*rtapp*.json "$fix"/*.json; do
	[ -f "$f" ] || continue
	case ${f##*/} in fragment-*) continue ;; esac
	base=${f##*/}
	conv=$tmp/conv-$base
	if ! "$SIM" convert "$f" -o "$conv" 2>"$tmp/err"; then
		bad "convert $base" "$(head -c 300 "$tmp/err")"
		continue
	fi
	one="--cpus $(min_cpus "$base") --seed 7"
	for args in "--cpus 2 --duration 500ms --seed 1" "$one" \
		"--cpus 4 --seed 3 --duration 300ms"; do
		# shellcheck disable=SC2086
		"$SIM" run "$f" $args --format json >"$tmp/a.json" 2>/dev/null
		ra=$?
		# shellcheck disable=SC2086
		"$SIM" run "$conv" $args --format json >"$tmp/b.json" 2>/dev/null
		rb=$?
		if [ "$ra" -ne 0 ] || [ "$rb" -ne 0 ]; then
			bad "convert $base: runs ($args)" "exit $ra and $rb"
		elif same_results "$tmp/a.json" "$tmp/b.json"; then
			ok "convert $base: same results JSON ($args)"
		else
			bad "convert $base: same results JSON ($args)" \
				"$(diff <(results "$tmp/a.json") <(results "$tmp/b.json") | head -3)"
		fi
	done
	# shellcheck disable=SC2086
	if "$SIM" run "$f" -q --cpus 2 --seed 1 --duration 200ms >"$tmp/a.txt" 2>/dev/null &&
		"$SIM" run "$conv" -q --cpus 2 --seed 1 --duration 200ms >"$tmp/b.txt" 2>/dev/null &&
		cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
		ok "convert $base: same text report"
	else
		bad "convert $base: same text report" "differs or failed"
	fi
	n=$((n + 1))
done
check "convert: the round trip covered the shipped and test rt-app files" \
	test "$n" -ge 8

# Errors: exit 2, the file named, nothing written.
out=$tmp/never.json
expect_error "convert: a native file is refused as such" \
	"$native: already a native workload" convert "$native" -o "$out"
check "convert: ... and writes nothing" bash -c "! { compgen -G '$out.tmp.*' >/dev/null || [ -e '$out' ]; }"
expect_error "convert: a native file to stdout: nothing on stdout" \
	"already a native workload" convert "$native"
check "convert: ... stdout is empty" test ! -s "$tmp/out"
printf '{"tasks": {"t": {"loop": 1, "run": -5}}}\n' >"$tmp/neg.json"
expect_error "convert: a bad rt-app value names file and path" \
	"$tmp/neg.json: tasks.t.run" convert "$tmp/neg.json" -o "$out"
if leftovers "$out"; then bad "convert: a bad file writes nothing" "$(ls "$tmp")"; else ok "convert: a bad file writes nothing"; fi
printf '{"tasks": {"t": {"phases": {"p": {"cpus": [0], "run": 10}}}}}\n' >"$tmp/pcpus.json"
expect_error "convert: a translation the loader refuses is an error" \
	"not supported by this version yet" convert "$tmp/pcpus.json" -o "$out"
if leftovers "$out"; then bad "convert: ... writes nothing" "$(ls "$tmp")"; else ok "convert: ... writes nothing"; fi
printf '{"tasks": {"t": {"run": 10' >"$tmp/trunc.json"
expect_error "convert: a syntax error names the line" "$tmp/trunc.json:1:" \
	convert "$tmp/trunc.json" -o "$out"
expect_error "convert: a fragment is refused as such" "an rt-app fragment" \
	convert "$fix/fragment-global.json" -o "$out"
if leftovers "$out"; then bad "convert: a fragment writes nothing" "$(ls "$tmp")"; else ok "convert: a fragment writes nothing"; fi
expect_error "convert: a missing file is named" "$tmp/missing.json" \
	convert "$tmp/missing.json" -o "$out"
expect_error "convert: into a missing directory names it" "$tmp/nodir/x.json" \
	convert "$notes" -o "$tmp/nodir/x.json"
check "convert: ... leaves nothing" test ! -e "$tmp/nodir"
expect_error "convert: FILE is needed" "missing FILE" convert
expect_error "convert: one FILE only" "unexpected argument" \
	convert "$notes" "$notes"
expect_error "convert: an unknown option is named" "--frobnicate" \
	convert --frobnicate "$notes"
expect_error "convert: -o needs a value" "needs a value" convert "$notes" -o
if expect_ok "convert --help" convert --help; then
	check "convert --help: the usage on stdout" grep -q '^Usage: eevdf-sim convert FILE' "$tmp/out"
fi
if expect_ok "--help" --help; then
	check "--help lists convert" grep -q '^  convert ' "$tmp/out"
fi

# ---- scheduling classes ----------------------------------------------------
# Debian rt-app's cpufreq_governor_efficiency examples (their structure, in
# tests/rtapp/) and SCHED_DEADLINE files import and run; the exact numbers
# are worked out in tests/check_rtapp.c, at zero cost.
# task_field FILE NAME FIELD: the field of the task called NAME in the
# results JSON FILE.
task_field() {
	python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["tasks"]:
    if t["name"] == sys.argv[2]:
        print(t[sys.argv[3]])' "$1" "$2" "$3"
}
if expect_ok "run: calibration.json (global default_policy SCHED_FIFO)" \
	run "$fix/calibration.json" --cpus 2 --format json; then
	check "calibration.json: the thread is SCHED_FIFO" \
		test "$(task_field "$tmp/out" thread policy)" = fifo
	check "calibration.json: lock_pages is a warning" \
		starts "$tmp/err" "eevdf-sim: warning: $fix/calibration.json: global.lock_pages: ignored"
fi
if expect_ok "run: dvfs.json on 2 CPUs" run "$fix/dvfs.json" --cpus 2 --format json; then
	check "dvfs.json: the thread is SCHED_FIFO" \
		test "$(task_field "$tmp/out" thread policy)" = fifo
	check "dvfs.json: pinned to CPU 1" \
		test "$(task_field "$tmp/out" thread cpu)" = 1
	# 10 x 900 ms of work, and the microseconds its syscalls cost
	check "dvfs.json: 9 s of CPU" \
		test "$(task_field "$tmp/out" thread cpu_ns)" -ge 9000000000 -a \
		"$(task_field "$tmp/out" thread cpu_ns)" -lt 9001000000
fi
expect_error "run: dvfs.json on 1 CPU names the missing CPU" \
	"cpu 1 is not on this 1-CPU machine" run "$fix/dvfs.json" --cpus 1
if expect_ok "run: deadline.json" run "$fix/deadline.json" --format json; then
	check "deadline.json: the thread is SCHED_DEADLINE" \
		test "$(task_field "$tmp/out" server policy)" = deadline
	# the CBS: 10 ms of each 100 ms, whatever the costs (they are
	# charged to the reservation)
	check "deadline.json: 10 % of 1 s" \
		test "$(task_field "$tmp/out" server cpu_ns)" -eq 100000000
fi
printf '{"tasks": {"t": {"policy": "SCHED_DEADLINE", "dl-runtime": 10000, "run": 1000}}}\n' >"$tmp/dl100.json"
expect_error "run: a deadline thread of 100 % meets admission control" \
	"admission control refuses 10.000 ms every 10.000 ms (EBUSY)" \
	run "$tmp/dl100.json"
printf '{"tasks": {"t": {"policy": "SCHED_RR", "priority": 0, "run": 10}}}\n' >"$tmp/rr0.json"
expect_error "convert: an RT priority of 0 names its path" \
	"$tmp/rr0.json: tasks.t.priority: is the rt_priority for SCHED_RR" \
	convert "$tmp/rr0.json" -o "$out"
if leftovers "$out"; then bad "convert: ... writes nothing" "$(ls "$tmp")"; else ok "convert: ... writes nothing"; fi
# ---- taskgroups ------------------------------------------------------------
# tests/rtapp/taskgroups.json: the groups come out as written, each thread
# in its own; the split itself is worked out in tests/check_rtapp.c.
if expect_ok "convert: taskgroups.json" convert "$fix/taskgroups.json"; then
	check "convert: the taskgroups are the groups, with the defaults" \
		test "$(python3 -c 'import json, sys
print(json.dumps(json.load(open(sys.argv[1]))["groups"], sort_keys=True))' "$tmp/out")" \
		= '{"/bg": {}, "/fg": {}}'
	check "convert: each thread in its taskgroup" \
		test "$(python3 -c 'import json, sys
print(" ".join(t["name"] + "=" + t["cgroup"] for t in json.load(open(sys.argv[1]))["tasks"]))' "$tmp/out")" \
		= "front=/fg batch=/bg"
	# rt-app has no weights: the way to one is the converted file.  /fg
	# at cpu.weight 300 is shares 3072 against /bg's 1024 on one CPU:
	# 3/4 of the 2 s, 1500 ms for /fg and 500 ms for /bg, within 0.5 %
	# of the run (10 ms), whatever the four threads of /bg.
	python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))
w["groups"]["/fg"] = {"cpu.weight": 300}
json.dump(w, open(sys.argv[2], "w"))' "$tmp/out" "$tmp/tg300.json"
	if expect_ok "run: the converted taskgroups with a weight" \
		run "$tmp/tg300.json" --cpus 1 --format json; then
		check "run: /fg at weight 300 gets 3/4, /bg 1/4" \
			python3 -c 'import json, sys
g = {x["path"]: x["cpu_ns"] for x in json.load(open(sys.argv[1]))["groups"]["list"]}
ms = 1000000
sys.exit(0 if abs(g["/fg"] - 1500 * ms) <= 10 * ms and
	 abs(g["/bg"] - 500 * ms) <= 10 * ms else 1)' "$tmp/out"
	fi
fi
if expect_ok "validate: taskgroups.json makes its groups" \
	validate "$fix/taskgroups.json"; then
	check "validate: ... and prints them" \
		cmp -s "$tmp/out" <(printf '%s\n' "$fix/taskgroups.json: ok (5 tasks)" \
			"  group /bg: (defaults)" "  group /fg: (defaults)")
fi

if expect_ok "convert: classes.json" convert "$fix/classes.json"; then
	check "convert: a phase's policy is a setattr with the native keys" \
		grep -q '"policy":[[:space:]]*"deadline"' "$tmp/out"
	check "convert: ... with the reservation" \
		grep -q '"period":[[:space:]]*"10000us"' "$tmp/out"
	check "convert: ... and the RT priority" \
		grep -q '"priority":[[:space:]]*40' "$tmp/out"
fi

# ---- fragments ------------------------------------------------------------
expect_error "run: a \"global\" fragment is named as such" \
	"$fix/fragment-global.json: an rt-app fragment (only \"global\", no \"tasks\"): merge it" \
	run "$fix/fragment-global.json"
expect_error "validate: a \"resources\" fragment" \
	"$fix/fragment-resources.json: an rt-app fragment (only \"resources\", no \"tasks\")" \
	validate "$fix/fragment-resources.json"
expect_error "run: a fragment of both" \
	"an rt-app fragment (only \"global\" and \"resources\", no \"tasks\")" \
	run "$fix/fragment-both.json"
expect_error "run --input rt-app: a fragment, the same message" \
	"$fix/fragment-global.json: an rt-app fragment (only \"global\"" \
	run --input rt-app "$fix/fragment-global.json"
printf '{}\n' >"$tmp/empty.json"
expect_error "run: an empty object is no fragment" "missing key 'format'" \
	run "$tmp/empty.json"
printf '{"global": {"duration": 1}, "name": "x"}\n' >"$tmp/mixed.json"
expect_error "run: \"global\" beside another key is no fragment" \
	"missing key 'format'" run "$tmp/mixed.json"
printf '{"format": "eevdf-sim-workload/1", "global": {}}\n' >"$tmp/fmt.json"
expect_error "run: a native file with a stray \"global\" is no fragment" \
	"unknown key 'global'" run "$tmp/fmt.json"

finish
