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

finish
