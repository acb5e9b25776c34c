#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_harden.sh SIMBINARY: what happens while running, under hostile input
# and hostile circumstances (issue 22): simulated time that would overflow,
# resource limits, signals and partial failures, input the parser must
# refuse with a message of its own, and the fuzzers' regression inputs.
# Every check here failed on the tree before that issue.  Prints one line
# per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_harden.sh SIMBINARY}

# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

# wl NAME PROGRAM [DURATION]: a workload of one task t running PROGRAM,
# beside a sem s (posted by u after 10 ms), a timer tm and a counter c.
wl() {
	cat >"$tmp/$1.json" <<J
{"format": "eevdf-sim-workload/1", "name": "$1", "duration": "${3:-1s}",
 "objects": [{"type": "sem", "name": "s", "initial": 0},
             {"type": "timer", "name": "tm", "period": "1ms"},
             {"type": "channel", "name": "ch", "kind": "pipe"}],
 "metrics": {"c": {"type": "counter"}},
 "tasks": [{"name": "t", "program": $2},
           {"name": "u", "program": [{"sleep": "10ms"}, {"post": {"sem": "s"}}]}]}
J
}

# ---------------------------------------------------------------------
# Simulated time: a value computed at run time that would take the clock
# past EEVDF_TIME_MAX ends the run with exit 2 and a message naming the
# task, the op's JSON path and the value; never an abort or a wrap.
MAX='{"let": {"@x": "9223372036854775807"}}'
time_case() { # NAME PATH_AFTER_PROGRAM WHAT PROGRAM
	wl "$1" "$4"
	expect_error "time: $1 fails cleanly, naming the task and op" \
		"task t: tasks[0].program$2" run "$tmp/$1.json"
	if grep -qF -- "$3" "$tmp/err"; then
		ok "time: $1 names the value"
	else
		bad "time: $1 names the value" "$(head -c 300 "$tmp/err")"
	fi
}
time_case sleep [1].sleep "a sleep of 9223372036854775807 ns" \
	"[$MAX, {\"sleep\": \"@x\"}]"
time_case run [1].run "CPU work of 9223372036854775807 ns" \
	"[$MAX, {\"run\": \"@x\"}]"
time_case cost [1].run "CPU work of 9223372036854775807 ns" \
	"[$MAX, {\"run\": \"1ms\", \"cost\": \"@x\"}]"
time_case timeout [1].wait "a timeout of 9223372036854775807 ns" \
	"[$MAX, {\"wait\": {\"sem\": \"s\", \"timeout\": \"@x\"}}]"
time_case spin [1].spin "spin of 9223372036854775807 ns" \
	"[$MAX, {\"spin\": \"@x\"}]"
time_case timer_wait [1].timer_wait "a timer period of 9223372036854775807 ns" \
	"[$MAX, {\"timer_wait\": {\"timer\": \"tm\", \"period\": \"@x\"}}]"
time_case timer_grid [1].loop.body[0].timer_wait \
	"a timer period of 4611686018427387904 ns" \
	'[{"let": {"@x": "4611686018427387904"}}, {"loop": {"count": 3, "body": [{"timer_wait": {"timer": "tm", "period": "@x"}}]}}]'
time_case slack [1].sleep "a sleep plus its slack" \
	"[$MAX, {\"sleep\": {\"for\": \"1ms\", \"slack\": \"@x\"}}]"
time_case sleep_until [1].sleep_until "a sleep of 9223372036854775007 ns" \
	"[$MAX, {\"sleep_until\": {\"at\": \"@x\"}}]"
time_case loop_var [0].loop "the loop variable overflows" \
	'[{"loop": {"var": "@i", "from": "9223372036854775806", "count": 5, "body": [{"run": "1ms"}]}}]'
time_case loop_step [0].loop "its step of 9223372036854775807" \
	'[{"loop": {"var": "@i", "from": 0, "step": "9223372036854775807", "count": 5, "body": [{"run": "1ms"}]}}]'
time_case send [2].send "a message of 9223372036854775807 bytes" \
	"[$MAX, {\"send\": {\"chan\": \"ch\", \"bytes\": 1}}, {\"send\": {\"chan\": \"ch\", \"bytes\": \"@x\"}}, {\"send\": {\"chan\": \"ch\", \"bytes\": \"@x\"}}]"
wl counter "[$MAX, {\"count\": {\"metric\": \"c\", \"add\": \"@x\"}}, {\"count\": {\"metric\": \"c\", \"add\": \"@x\"}}]"
expect_error "time: a counter that would overflow names the metric" \
	"task t: metric c: adding 9223372036854775807" run "$tmp/counter.json"
# A time long past is no sleep, and no overflow either.
wl until_past '[{"let": {"@x": "-9223372036854775807"}}, {"run": "1ms"}, {"sleep_until": {"at": "@x"}}]'
run_ok "time: sleep_until a time long past returns at once" \
	run "$tmp/until_past.json"
# A post of 2^63 - 1 units raises the count at once (it used to loop).
wl post_max "[$MAX, {\"post\": {\"sem\": \"s\", \"n\": \"@x\"}}]"
timeout 20 "$SIM" run "$tmp/post_max.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "time: post of 2^63 - 1 units finishes"
else
	bad "time: post of 2^63 - 1 units finishes" "exit $rc $(head -c 200 "$tmp/err")"
fi
# In a macro, the message gives the body's path and the call site.
cat >"$tmp/macro.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "m", "duration": "1s",
 "macros": {"m": {"body": [{"sleep": "@x"}]}},
 "tasks": [{"name": "t", "program": [{"let": {"@x": "9223372036854775807"}},
                                     {"call": {"macro": "m"}}]}]}
J
expect_error "time: an op of a macro names the body and the call site" \
	"macros.m.body[0].sleep (in the macro called at tasks[0].program[1].call)" \
	run "$tmp/macro.json"
# Distributions: a draw is clamped to the operand's documented range
# (0..10^15 ns for a duration), so these run to the end.
for d in '{"dist": "normal", "mean": 1, "stddev": 1e300, "min": 0}' \
	'{"dist": "lognormal", "median": "1ms", "sigma": 1e10}' \
	'{"dist": "exp", "mean": 9e18}'; do
	wl dist "[{\"loop\": {\"count\": 20, \"body\": [{\"run\": $d}, {\"sleep\": \"1ms\"}]}}]" 10ms
	if expect_ok "time: a duration drawn from $d is clamped" \
		run "$tmp/dist.json"; then
		if grep -q '^# simulated 0.010 s of 0.010 s' "$tmp/out"; then
			ok "time: a duration drawn from $d is clamped"
		else
			bad "time: a duration drawn from $d is clamped" \
				"$(grep simulated "$tmp/out")"
		fi
	fi
done

# ---------------------------------------------------------------------
# Limits: each stops the run with exit 2, a message naming what was
# reached and the option that raises it, and no output file.
cat >"$tmp/ns.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "ns", "duration": "10s",
 "tasks": [{"name": "t", "program": [{"loop": {"body": [{"run": "1ns", "cost": 0}]}}]}]}
J
expect_error "limits: --max-events stops a run of 1 ns bursts" \
	"the run reached its limit of 100000 events (max_events)" \
	run "$tmp/ns.json" --max-events 100000 -o "$tmp/lim.json"
if grep -qF -- "--max-events N raises this limit" "$tmp/err" &&
	! leftovers "$tmp/lim.json"; then
	ok "limits: ... names --max-events and leaves no file"
else
	bad "limits: ... names --max-events and leaves no file" "$(cat "$tmp/err")"
fi
start=$SECONDS
expect_error "limits: --max-wall stops it too" \
	"the run reached the wall-clock limit of 0.300 s: --max-wall D raises it" \
	run "$tmp/ns.json" --max-wall 300ms
if [ $((SECONDS - start)) -le 5 ]; then
	ok "limits: --max-wall 300ms returns within seconds"
else
	bad "limits: --max-wall 300ms returns within seconds" \
		"took $((SECONDS - start)) s"
fi
# a template that forks two children that fork two...
cat >"$tmp/bomb.json" <<'J'
{"format": "eevdf-sim-workload/1", "name": "bomb", "duration": "10s",
 "templates": {"k": {"program": [{"spawn": {"template": "k", "count": 2}},
                                  {"sleep": "1000s"}]}},
 "tasks": [{"name": "t", "program": [{"spawn": {"template": "k"}}]}]}
J
expect_error "limits: --max-memory stops a spawn bomb" \
	"the run reached the memory limit of 32M: --max-memory SIZE raises it" \
	run "$tmp/bomb.json" --max-memory 32M
if grep -qF "templates.k.program[0].spawn: cannot create task k[" "$tmp/err" &&
	! grep -q "spawn: spawn:" "$tmp/err"; then
	ok "limits: the spawn that failed names its task"
else
	bad "limits: the spawn that failed names its task" "$(cat "$tmp/err")"
fi
# a 1.3 KB file of macros x for that expands to 3.8 million op slots
{
	printf '{"format": "eevdf-sim-workload/1", "name": "x", "duration": "10ms", "macros": {'
	printf '"m0": {"body": [{"run": "${i+1}us"}'
	for _ in $(seq 15); do printf ', {"run": "1us"}'; done
	printf ']}, "m1": {"body": [{"call": {"macro": "m0"}}'
	for _ in $(seq 15); do printf ', {"call": {"macro": "m0"}}'; done
	printf ']}, "m2": {"body": [{"call": {"macro": "m1"}}'
	for _ in $(seq 14); do printf ', {"call": {"macro": "m1"}}'; done
	printf ']}}, "tasks": [{"name": "t[${i}]", "for": {"i": [0, 1000]}, '
	printf '"program": [{"call": {"macro": "m2"}}]}]}\n'
} >"$tmp/expand.json"
expect_error "limits: an expansion of 3.8M op slots is refused at load" \
	"the tasks expand to more than 1048576 op slots (tasks x program length, max_ops)" \
	validate "$tmp/expand.json"
if grep -qF -- "--max-ops N raises this limit" "$tmp/err"; then
	ok "limits: ... naming --max-ops"
else
	bad "limits: ... naming --max-ops" "$(cat "$tmp/err")"
fi
expect_error "limits: --max-ops lowers it" "more than 1000 op slots" \
	run "$tmp/expand.json" --max-ops 1000
python3 -c 'print("[" * 300 + "]" * 300)' >"$tmp/deep.json"
expect_error "limits: JSON nested 300 deep is reported as nesting" \
	"deep.json:1: JSON nested deeper than 256 levels (max_depth)" \
	run "$tmp/deep.json"
python3 -c 'print("{\"a\":" * 1200 + "1" + "}" * 1200)' >"$tmp/deeper.json"
expect_error "limits: ... also past the parser's 1000" \
	"JSON nested deeper than 256 levels" validate "$tmp/deeper.json"
expect_error "limits: --max-depth beyond the parser's 1000 is refused" \
	"--max-depth: at most 1000" run "$tmp/deep.json" --max-depth 1001
head -c 2000 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
echo '{}' >>"$tmp/big.json"
expect_error "limits: --max-input refuses a bigger file" \
	"the file is larger than the limit of 1 KiB (max_input)" \
	run "$tmp/big.json" --max-input 1K
expect_error "limits: ... and a bigger standard input" \
	"standard input is larger than the limit of 1024 bytes" \
	run - --max-input 1K <"$tmp/big.json"
expect_error "limits: a bad size names the option" "--max-memory" \
	run "$tmp/ns.json" --max-memory 12Q
# Non-regular files: refused at once, never read (a FIFO would block).
mkfifo "$tmp/fifo"
for cmd in run validate; do
	timeout 10 "$SIM" $cmd "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "it is a FIFO (a pipe), not a regular file" "$tmp/err"; then
		ok "limits: $cmd refuses a FIFO at once"
	else
		bad "limits: $cmd refuses a FIFO at once" "exit $rc $(head -c 200 "$tmp/err")"
	fi
done
timeout 10 "$SIM" run "$tmp/ns.json" --machine "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "not a regular file" "$tmp/err"; then
	ok "limits: --machine refuses a FIFO at once"
else
	bad "limits: --machine refuses a FIFO at once" "exit $rc $(head -c 200 "$tmp/err")"
fi
# /dev/zero, not /dev/null: a program that renames a file over its
# output (as eevdf-sim -o /dev/null did before issue 22) leaves a regular
# /dev/null behind on a machine where it ran as root
if [ -c /dev/zero ]; then
	expect_error "limits: a device is refused" \
		"it is a device, not a regular file" run /dev/zero
else
	echo "skip  limits: a device is refused (/dev/zero is not a device here)"
fi
# The defaults change nothing: the same bytes as with every limit off.
"$SIM" run workloads/pipe.json --param loops=2000 --format json >"$tmp/a.json" 2>/dev/null
"$SIM" run workloads/pipe.json --param loops=2000 --format json \
	--max-events 0 --max-wall 0 --max-memory 0 --max-input 0 --max-ops 0 \
	--max-depth 0 >"$tmp/b.json" 2>/dev/null
if [ -s "$tmp/a.json" ] && cmp -s <(grep -v '"command_line"' "$tmp/a.json") \
	<(grep -v '"command_line"' "$tmp/b.json"); then
	ok "limits: results are the same with and without the default limits"
else
	bad "limits: results are the same with and without the default limits" \
		"$(diff "$tmp/a.json" "$tmp/b.json" | head -5)"
fi

# ---------------------------------------------------------------------
# Inputs: what the parser took without a word now has a message of its
# own, with the JSON path and the byte offset in the file (counted by
# hand: 45 is the \xff after '"name": "x', the 46th byte).
printf '{"format": "eevdf-sim-workload/1", "name": "x\xff\xfe", "tasks": [{"name": "a", "program": [{"run": "1ms"}]}]}\n' >"$tmp/utf8.json"
expect_error "inputs: a string that is not UTF-8 names its path and byte" \
	"utf8.json: name: bytes that are not UTF-8 at byte 45 (line 1)" \
	run "$tmp/utf8.json"
printf '{"format": "eevdf-sim-workload/1", "name": "x", "tasks": [{"name": "a", "program": [{"run": "1ms"}]}],\n "params": {"k\xc0\xaf": 1}}\n' >"$tmp/utf8key.json"
expect_error "inputs: ... and of a key (an overlong '/')" \
	"utf8key.json: params: a key holds bytes that are not UTF-8 at byte 117 (line 2)" \
	run "$tmp/utf8key.json"
printf '{"format": "eevdf-sim-workload/1", "name": "x",\n "tasks": [{"name": "a\\u0000b", "program": [{"run": "1ms"}]}]}\n' >"$tmp/nul.json"
expect_error "inputs: \\u0000 in a name is refused, not cut short" \
	"nul.json: tasks[0].name: a NUL character (\u0000), which would cut the string short at byte 70 (line 2)" \
	run "$tmp/nul.json"
printf '{"format": "eevdf-sim-machine/1", "name": "m\xed\xa0\x80", "cpus": 2}\n' >"$tmp/utf8m.json"
expect_error "inputs: a machine file's surrogate in UTF-8 is refused" \
	"utf8m.json: name: bytes that are not UTF-8 at byte 44 (line 1)" \
	validate "$tmp/utf8m.json"
printf '{"format": "eevdf-sim-workload/1", "name": "ok", "description": "a \\\\u0000 b \xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "duration": "10ms",\n "tasks": [{"name": "a", "program": [{"run": "1ms"}]}]}\n' >"$tmp/utf8ok.json"
run_ok "inputs: UTF-8 of 2, 3 and 4 bytes and an escaped backslash-u pass" \
	run "$tmp/utf8ok.json"
expect_error "inputs: a --param value that is not UTF-8" \
	"--param kind=x?: the value is not UTF-8 (byte 1)" \
	run workloads/hackbench.json --param "$(printf 'kind=x\xff')"
# Results JSON must parse even when the command line held other bytes.
mkdir -p "$tmp/d"
bad_name=$(printf '%s/d/w\xff.json' "$tmp")
cp workloads/two-hogs.json "$bad_name"
if expect_ok "inputs: a file name that is not UTF-8 runs" \
	run "$bad_name" --duration 10ms --format json; then
	if python3 -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' \
		"$tmp/out" 2>/dev/null; then
		ok "inputs: ... and its results JSON parses (U+FFFD for the byte)"
	else
		bad "inputs: ... and its results JSON parses (U+FFFD for the byte)" \
			"$(python3 -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$tmp/out" 2>&1 | tail -1)"
	fi
fi
if expect_ok "inputs: ... in CSV too" run "$bad_name" --duration 10ms --format csv &&
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$tmp/out"; then
	ok "inputs: ... and the CSV is UTF-8"
fi
expect_error "inputs: a feature and its NO_ in one list are refused" \
	"--features: DELAY_DEQUEUE and NO_DELAY_DEQUEUE are both in the list: give one" \
	run workloads/pipe.json --features DELAY_DEQUEUE,NO_DELAY_DEQUEUE
expect_error "inputs: an unknown --machine lists the shipped ones" \
	"--machine: 'i7-479' is neither a file nor a shipped machine; did you mean 'i7-4790'? (shipped: epyc-ccx, i7-4790, rpi4, skl-server, spr-server, vm-2cpu)" \
	run workloads/pipe.json --machine i7-479
expect_error "inputs: ... and suggests none when none is near" \
	"'zzz' is neither a file nor a shipped machine (shipped: epyc-ccx" \
	run workloads/pipe.json --machine zzz

# ---------------------------------------------------------------------
# Signals and partial failures.  A background job of a script ignores
# SIGINT: dfl starts one with the default action back, as a terminal's
# foreground job has it.
dfl() {
	exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
# wait_for GLOB: until a file matches (5 s at most)
wait_for() {
	for _ in $(seq 100); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# sig_case SIGNAL STATUS: a run writing --output and --trace, signalled
# mid-run, exits STATUS, leaves no temporary file and the old output.
sig_case() {
	local sig=$1 want=$2 got
	echo stale >"$tmp/sig.json"
	rm -f "$tmp/sigtr.json"
	(dfl "$SIM" run "$tmp/ns.json" --format json -o "$tmp/sig.json" \
		--trace "$tmp/sigtr.json" 2>"$tmp/err") &
	local pid=$!
	wait_for "$tmp/sig.json.tmp.*"
	kill -"$sig" "$pid"
	wait "$pid"
	got=$?
	if [ "$got" -ne "$want" ]; then
		bad "signals: SIG$sig ends run with $want" "exit $got"
	elif compgen -G "$tmp/sig*.tmp.*" >/dev/null || [ -e "$tmp/sigtr.json" ]; then
		bad "signals: SIG$sig ends run with $want" "left $(ls "$tmp" | grep sig)"
	elif [ "$(cat "$tmp/sig.json")" != stale ]; then
		bad "signals: SIG$sig ends run with $want" "the old output changed"
	else
		ok "signals: SIG$sig ends run with $want, no temporary file left"
	fi
}
sig_case INT 130
sig_case TERM 143
sig_case HUP 129

# compare: config a is quick, b runs for ever (10 s of 1 ns bursts).
cmp_start() { # extra compare arguments
	# the last compare's messages go first: a stale "1 of 2 runs done"
	# would be read before this one's shell truncates the file
	rm -f "$tmp/cmp.json" "$tmp/cmperr"
	"$SIM" compare "$tmp/ns.json" --a '--duration 1ms' \
		--b '--duration 10s --max-wall 120s' \
		--jobs 2 --progress --format json -o "$tmp/cmp.json" "$@" \
		2>"$tmp/cmperr" &
	cpid=$!
	workers=""
	for _ in $(seq 600); do
		if grep -qs "1 of 2 runs done" "$tmp/cmperr"; then
			workers=$(pgrep -P "$cpid")
			[ -n "$workers" ] && break
		fi
		sleep 0.05
	done
	if [ -z "$workers" ]; then
		# never wait for a run of 10 s of 1 ns bursts
		bad "signals: compare's run b started" \
			"no worker after 30 s: $(head -c 300 "$tmp/cmperr")"
		pkill -KILL -P "$cpid" 2>/dev/null
		kill -KILL "$cpid" 2>/dev/null
	fi
}
workers_gone() {
	for _ in $(seq 40); do
		local alive=""
		for w in $workers; do
			kill -0 "$w" 2>/dev/null && alive="$alive $w"
		done
		[ -z "$alive" ] && return 0
		sleep 0.05
	done
	echo "$alive"
	return 1
}
# what compare wrote: whether a's run has a value, b's value, and why
# the runs that did not finish did not
cmp_runs() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = d["figures"][0]
print(f["a"]["values"][0] is not None, f["b"]["values"], [x["reason"] for x in d.get("failed", [])])' "$tmp/cmp.json"
}
if ! command -v pgrep >/dev/null; then
	echo "skip  signals: compare's workers (pgrep is not installed)"
else
	cmp_start
	kill -TERM "$cpid"
	wait "$cpid"
	got=$?
	if [ "$got" -ne 143 ]; then
		bad "signals: SIGTERM ends compare with 143" "exit $got: $(head -c 300 "$tmp/cmperr")"
	else
		ok "signals: SIGTERM ends compare with 143"
	fi
	if left=$(workers_gone); then
		ok "signals: ... and stops its workers"
	else
		bad "signals: ... and stops its workers" "still running:$left"
	fi
	if [ "$(cmp_runs 2>&1)" = "True [None] ['not run: compare was stopped']" ]; then
		ok "signals: ... and writes the run that finished to --output"
	else
		bad "signals: ... and writes the run that finished to --output" "$(cmp_runs 2>&1)"
	fi
	cmp_start
	kill -KILL "$cpid"
	wait "$cpid" 2>/dev/null
	if left=$(workers_gone); then
		ok "signals: a compare killed with SIGKILL takes its workers along"
	else
		bad "signals: a compare killed with SIGKILL takes its workers along" \
			"still running:$left"
	fi
	cmp_start
	kill -KILL $workers
	wait "$cpid"
	got=$?
	if [ "$got" -eq 2 ] && [ "$(cmp_runs 2>&1)" = "True [None] ['its worker was killed by signal 9 (Killed)']" ]; then
		ok "signals: a dead worker's run is reported failed, the rest kept (exit 2)"
	else
		bad "signals: a dead worker's run is reported failed, the rest kept (exit 2)" \
			"exit $got: $(cmp_runs 2>&1)"
	fi
fi

# sweep's workers (cli_pool_run(), shared with compare): a SIGTERM to the
# sweep stops them, leaves no NAME.tmp.PID, and exits 143; a later run
# resumes.  Two points of 10 s of 1 ns bursts, two workers.
cat >"$tmp/sw.json" <<'J'
{"format": "eevdf-sim-sweep/1", "name": "sw", "workload": "ns.json",
 "axes": {"seed": [1, 2]}}
J
if ! command -v pgrep >/dev/null; then
	echo "skip  signals: sweep's workers (pgrep is not installed)"
else
	rm -rf "$tmp/swout"
	"$SIM" sweep "$tmp/sw.json" "$tmp/swout" --jobs 2 --no-progress \
		>/dev/null 2>"$tmp/swerr" &
	spid=$!
	workers=""
	for _ in $(seq 100); do
		workers=$(pgrep -P "$spid" | tr '\n' ' ')
		[ "$(echo $workers | wc -w)" -ge 2 ] && break
		sleep 0.05
	done
	kill -TERM "$spid"
	wait "$spid"
	got=$?
	if [ "$got" -eq 143 ] && left=$(workers_gone) &&
		! compgen -G "$tmp/swout/points/*.tmp.*" >/dev/null; then
		ok "signals: SIGTERM ends sweep with 143, its workers and their files gone"
	else
		bad "signals: SIGTERM ends sweep with 143, its workers and their files gone" \
			"exit $got, workers [$workers] left [${left:-}]: $(ls "$tmp/swout/points" 2>&1 | head -3)"
	fi
fi

# Atomic writes: every failure said, the old file kept, links kept.
pipe=(workloads/hackbench.json --param groups=2 --param fds=4 --param loops=20 --cpus 2)
rm -f "$tmp/base.json"
run_ok "writes: a baseline" check "${pipe[@]}" --baseline "$tmp/base.json" --update-baseline
cp "$tmp/base.json" "$tmp/base.keep"
# a full disk, without root: a file size limit fails the write (EFBIG)
(trap '' XFSZ; ulimit -f 1; "$SIM" check "${pipe[@]}" --param loops=30 \
	--baseline "$tmp/base.json" --update-baseline >"$tmp/out" 2>"$tmp/err")
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "error writing $tmp/base.json: File too large" "$tmp/err" &&
	cmp -s "$tmp/base.json" "$tmp/base.keep" && ! compgen -G "$tmp/base.json.tmp.*" >/dev/null; then
	ok "writes: a write that fails is said (strerror), the old baseline kept"
else
	bad "writes: a write that fails is said (strerror), the old baseline kept" \
		"exit $rc: $(cat "$tmp/err")"
fi
ln -s base.keep "$tmp/link.json"
run_ok "writes: --update-baseline through a symbolic link" check "${pipe[@]}" \
	--param loops=30 --baseline "$tmp/link.json" --update-baseline
if [ -L "$tmp/link.json" ] && ! cmp -s "$tmp/base.keep" "$tmp/base.json"; then
	ok "writes: ... replaces the file it points to and keeps the link"
else
	bad "writes: ... replaces the file it points to and keeps the link" "$(ls -l "$tmp" | grep -E 'link|keep')"
fi
sim_abs=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM")
(cd "$tmp" && "$sim_abs" run "$OLDPWD/workloads/pipe.json" --param loops=10 \
	-o same.json --trace ./same.json >out 2>err)
rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "--trace ./same.json and --output same.json name the same file" "$tmp/err" &&
	! compgen -G "$tmp/same.json*" >/dev/null; then
	ok "writes: --trace and --output of one file are refused"
else
	bad "writes: --trace and --output of one file are refused" "exit $rc: $(cat "$tmp/err")"
fi
if [ -c /dev/full ]; then
	"$SIM" run workloads/pipe.json --param loops=10 >/dev/full 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF "error writing standard output: No space left on device" "$tmp/err"; then
		ok "writes: standard output on a full device is an error"
	else
		bad "writes: standard output on a full device is an error" "exit $rc: $(cat "$tmp/err")"
	fi
else
	echo "skip  writes: /dev/full is not here"
fi
# --output to a FIFO (or a device) is written in place: renaming a file
# over it would replace it.  (Never test that with a device: a build that
# renames would replace /dev/full itself.)
mkfifo "$tmp/outfifo"
timeout 20 cat "$tmp/outfifo" >"$tmp/fromfifo" &
reader=$!
"$SIM" run workloads/pipe.json --param loops=10 --format json -o "$tmp/outfifo" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || kill "$reader" 2>/dev/null
wait "$reader"
if [ "$rc" -eq 0 ] && [ -p "$tmp/outfifo" ] && grep -q '"format"' "$tmp/fromfifo"; then
	ok "writes: --output to a FIFO writes through it; it stays a FIFO"
else
	bad "writes: --output to a FIFO writes through it; it stays a FIFO" \
		"exit $rc: $(ls -l "$tmp/outfifo") $(head -c 200 "$tmp/err")"
fi

finish
