#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_features.sh SIMBINARY: the latency table's "max at" column and its
# per-pid / per-comm default, the RFC knobs of 'features --all' with the
# postings they come from, and "did you mean" for a misspelt feature.
# Expected values are worked out by hand in the comments.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_features.sh SIMBINARY}
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
cd "$(dirname "$0")/.." || exit 2

hogs=workloads/two-hogs.json

# has NAME FIXED-STRING: an ok line when $tmp/out holds the string.
has() {
	if grep -qF -- "$2" "$tmp/out"; then
		ok "$1"
	else
		bad "$1" "no '$2' in: $(head -c 600 "$tmp/out")"
	fi
}

# rows PATTERN: how many table rows of $tmp/out start with "  PATTERN".
rows() {
	grep -cE "^  $1" "$tmp/out"
}

# nhogs FILE N [REPORT]: N always-running tasks "hog" on one CPU, with
# REPORT as the workload's "report" object when given.
nhogs() {
	local report=${3:+, \"report\": $3}
	cat >"$1" <<EOF
{ "format": "eevdf-sim-workload/1", "name": "hogs$2", "duration": "1ms"$report,
  "tasks": [ { "name": "hog", "count": $2,
	       "program": [ { "loop": { "body": [ { "run": "10ms" } ] } } ] } ] }
EOF
}

# ---- 1. "max at": where each task's largest delay ended ----------------

# Two hogs on one CPU, 9.5 ms.  The 0.70 ms slice is shorter than the
# 1 ms tick, so each tick ends the running hog's request and the other
# one, with the earlier deadline, runs: hog[0] runs 0-1, 2-3, ... and
# hog[1] 1-2, 3-4, ...  hog[1] waits from 0 to its first switch-in at
# 1 ms (1 ms); hog[0] waits from 1 to 2 ms (1 ms).  Every later wait is
# 1 ms too, and "max at" is the switch-in of the first largest one:
# hog[0] at 0.002000 s, hog[1] at 0.001000 s.  Samples: hog[0] at 0, 2,
# 4, 6, 8 ms (sum 4 ms), hog[1] at 1, 3, 5, 7, 9 ms (sum 5 ms).
if expect_ok "run: the latency table" run "$hogs" --duration 9500us -q; then
	has "the header has Max delay at after Sum delay" \
		"| Sum delay ms     | Max delay at            |"
	has "hog[0]: max 1 ms at 0.002000 s" \
		"  hog[0]:1              |      5.000 ms |        5 | avg:   0.800 ms | max:   1.000 ms | sum:    4.000 ms | max at:      0.002000 s |"
	has "hog[1]: max 1 ms at 0.001000 s" \
		"  hog[1]:2              |      4.500 ms |        5 | avg:   1.000 ms | max:   1.000 ms | sum:    5.000 ms | max at:      0.001000 s |"
	# The TOTAL line keeps Galbraith's layout, without a time.
	has "TOTAL line as before" \
		"  TOTAL:                |      9.500 ms |       10 |                 |        1.000 ms |         9.000 ms |"
	# Header, rows and the upper dash lines are one width; the closing
	# dash line stops at the TOTAL line's width, as in Galbraith's patch.
	widths=$(grep -E '^ -|^  Task|^  hog' "$tmp/out" | sed '$d' |
		awk '{ print length($0) }' | sort -u)
	total=$(grep -F 'TOTAL:' "$tmp/out" | awk '{ print length($0) }')
	last=$(tail -1 "$tmp/out" | awk '{ print length($0) }')
	if [ "$(echo "$widths" | wc -l)" -eq 1 ] && [ "$widths" -gt "$total" ] &&
		[ "$last" -eq "$total" ]; then
		ok "the time column lines up; the closing line is the short one"
	else
		bad "the time column lines up" \
			"widths $(echo "$widths" | tr '\n' ' ')total $total last $last"
	fi
fi

# Merged per comm: both hogs' largest delay is 1 ms, so the earlier time
# wins: hog[1]'s 0.001000 s, although hog[0] has the lower pid.
if expect_ok "run --latency-rows comm" run "$hogs" --duration 9500us -q \
	--latency-rows comm; then
	has "hog:(2): the earliest of equal maxima" \
		"  hog:(2)               |      9.500 ms |       10 | avg:   0.900 ms | max:   1.000 ms | sum:    9.000 ms | max at:      0.001000 s |"
fi

# Two CPUs, every task pinned and given a 0.1 ms slice (shorter than the
# tick): CPU 0 runs a[0] (pid 1) and p (pid 3), CPU 1 runs a[1] (pid 2),
# q[0] (pid 4) and q[1] (pid 5), each CPU taking its tasks in turn, one
# tick each, the first started first.
#   CPU 0: a[0] 0-1, p 1-2, a[0] 2-3, ...: a[0] waits 1 ms, first from 1
#          to 2 ms (max at 0.002000); p from 0 to 1 ms (0.001000).
#   CPU 1: a[1] 0-1, q[0] 1-2, q[1] 2-3, a[1] 3-4, q[0] 4-5, q[1] 5-6:
#          a[1] waits 2 ms from 1 to 3 ms (0.003000), q[0] 1 ms then
#          2 ms from 2 to 4 ms (0.004000), q[1] 2 ms from 0 to 2 ms
#          (0.002000).
# Merged: a:(2) shows a[1]'s 2 ms at 0.003000 s, the larger delay,
# although a[0]'s 1 ms came earlier; q:(2) ties at 2 ms and shows the
# earlier, q[1]'s 0.002000 s.
cat >"$tmp/pinned.json" <<'EOF'
{ "format": "eevdf-sim-workload/1", "name": "pinned", "duration": "6ms",
  "tasks": [
    { "name": "a[${i}]", "for": { "i": [0, 2] }, "cpus": ["${i}"],
      "slice": "100us", "program": [ { "loop": { "body": [ { "run": "10ms" } ] } } ] },
    { "name": "p", "cpus": [0], "slice": "100us",
      "program": [ { "loop": { "body": [ { "run": "10ms" } ] } } ] },
    { "name": "q", "count": 2, "cpus": [1], "slice": "100us",
      "program": [ { "loop": { "body": [ { "run": "10ms" } ] } } ] } ] }
EOF
if expect_ok "run: pinned tasks on two CPUs" run "$tmp/pinned.json" --cpus 2 \
	-q --latency-rows pid; then
	has "a[0]: max 1 ms at 0.002000 s" \
		"| max:   1.000 ms | sum:    3.000 ms | max at:      0.002000 s |"
	has "a[1]: max 2 ms at 0.003000 s" \
		"  a[1]:2                |      2.000 ms |        3 | avg:   1.333 ms | max:   2.000 ms | sum:    4.000 ms | max at:      0.003000 s |"
	has "q[0]: max 2 ms at 0.004000 s" \
		"  q[0]:4                |      2.000 ms |        2 | avg:   1.500 ms | max:   2.000 ms | sum:    3.000 ms | max at:      0.004000 s |"
fi
if expect_ok "run: pinned tasks merged per comm" run "$tmp/pinned.json" \
	--cpus 2 -q --latency-rows comm; then
	has "a:(2): the larger max wins over the earlier one" \
		"  a:(2)                 |      5.000 ms |        7 | avg:   1.000 ms | max:   2.000 ms | sum:    7.000 ms | max at:      0.003000 s |"
	has "q:(2): equal maxima, the earlier time" \
		"  q:(2)                 |      4.000 ms |        4 | avg:   1.750 ms | max:   2.000 ms | sum:    7.000 ms | max at:      0.002000 s |"
	has "p:(1): its own max" "| max:   1.000 ms | sum:    3.000 ms | max at:      0.001000 s |"
fi

# ---- 2. rows per comm above 32 tasks, per pid up to 32 ------------------

nhogs "$tmp/h33.json" 33
nhogs "$tmp/h32.json" 32
nhogs "$tmp/h33pid.json" 33 \
	'{ "format": "perf_sched_latency", "latency_rows": "pid" }'
nhogs "$tmp/h2comm.json" 2 \
	'{ "format": "perf_sched_latency", "latency_rows": "comm" }'
if expect_ok "33 tasks" run "$tmp/h33.json" -q; then
	if [ "$(rows 'hog:\(33\) ')" -eq 1 ] && [ "$(rows 'hog\[')" -eq 0 ]; then
		ok "33 tasks: one row per comm by default"
	else
		bad "33 tasks: one row per comm by default" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "32 tasks" run "$tmp/h32.json" -q; then
	if [ "$(rows 'hog\[[0-9]+\]:[0-9]+ ')" -eq 32 ] && [ "$(rows 'hog:')" -eq 0 ]; then
		ok "32 tasks: one row per pid by default"
	else
		bad "32 tasks: one row per pid by default" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "33 tasks, --latency-rows pid" run "$tmp/h33.json" -q \
	--latency-rows pid; then
	if [ "$(rows 'hog\[[0-9]+\]:[0-9]+ ')" -eq 33 ]; then
		ok "33 tasks: --latency-rows pid wins"
	else
		bad "33 tasks: --latency-rows pid wins" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "32 tasks, --latency-rows comm" run "$tmp/h32.json" -q \
	--latency-rows comm; then
	if [ "$(rows 'hog:\(32\) ')" -eq 1 ]; then
		ok "32 tasks: --latency-rows comm wins"
	else
		bad "32 tasks: --latency-rows comm wins" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "33 tasks, latency_rows pid" run "$tmp/h33pid.json" -q; then
	if [ "$(rows 'hog\[[0-9]+\]:[0-9]+ ')" -eq 33 ]; then
		ok "33 tasks: the workload's latency_rows pid wins"
	else
		bad "33 tasks: the workload's latency_rows pid wins" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "2 tasks, latency_rows comm" run "$tmp/h2comm.json" -q; then
	if [ "$(rows 'hog:\(2\) ')" -eq 1 ]; then
		ok "2 tasks: the workload's latency_rows comm wins"
	else
		bad "2 tasks: the workload's latency_rows comm wins" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "2 tasks, latency_rows comm, --latency-rows pid" run \
	"$tmp/h2comm.json" -q --latency-rows pid; then
	if [ "$(rows 'hog\[[0-9]+\]:[0-9]+ ')" -eq 2 ]; then
		ok "--latency-rows pid wins over the workload's comm"
	else
		bad "--latency-rows pid wins over the workload's comm" "$(head -6 "$tmp/out")"
	fi
fi
if expect_ok "run --help" run --help; then
	has "run --help gives the default of --latency-rows" "above 32 tasks"
fi

# ---- 3. features: the RFC knobs and their postings ----------------------

# The seven RFC knobs, in the order of sched_features.h, and the
# Message-ID of the posting each comes from.
rfc="WAKEUP_DEADLINE 20230814132935.GK776869@hirez.programming.kicks-ass.net
PLACE_FUDGE 20230328110354.562078801@infradead.org
PLACE_BONUS 20230328110354.641979416@infradead.org
TTWU_QUEUE_DELAYED 20250520101727.984171377@infradead.org
TTWU_QUEUE_DEFAULT 20250520101727.874587738@infradead.org
TTWU_DEQUEUE 20250616120125.GB1613200@noisy.programming.kicks-ass.net
DEQUEUE_DELAYED bf4f50886c462ee1f33cc404843944fea4817616.camel@gmx.de"
knobs=$(echo "$rfc" | cut -d' ' -f1 | paste -sd'|')

for k in "" "--kernel 6.8" "--kernel cfs-6.1"; do
	# shellcheck disable=SC2086 # split on purpose
	if expect_ok "features $k" features $k; then
		if grep -Ev '^(NO_)?[A-Z0-9_]+$' "$tmp/out" | grep -q . ||
			grep -Eq "^(NO_)?($knobs)\$" "$tmp/out"; then
			bad "features $k: the release's flags only" \
				"$(grep -E "$knobs|^[^A-Z]" "$tmp/out" | head -2)"
		else
			ok "features $k: the release's flags only, NAME / NO_NAME"
		fi
		# One line, on stderr so that stdout stays the list.
		if [ "$(grep -c . "$tmp/err")" -eq 1 ] &&
			grep -qF "7 RFC knobs exist" "$tmp/err" &&
			grep -qF "features --all' lists them" "$tmp/err"; then
			ok "features $k: ends with the count of RFC knobs"
		else
			bad "features $k: ends with the count of RFC knobs" \
				"stderr: $(head -c 300 "$tmp/err")"
		fi
		cp "$tmp/out" "$tmp/plain"
	fi
	# shellcheck disable=SC2086
	if expect_ok "features --all $k" features --all $k; then
		n=$(wc -l <"$tmp/plain")
		if head -n "$n" "$tmp/out" | cmp -s - "$tmp/plain"; then
			ok "features --all $k: the release's flags first"
		else
			bad "features --all $k: the release's flags first" \
				"$(diff "$tmp/plain" "$tmp/out" | head -3)"
		fi
		tail -n +"$((n + 1))" "$tmp/out" >"$tmp/rfc"
		if [ "$(wc -l <"$tmp/rfc")" -eq 8 ] &&
			head -1 "$tmp/rfc" | grep -q '^# RFC knobs' &&
			[ "$(tail -n +2 "$tmp/rfc" | awk '{ print $1 }' | paste -sd' ')" = \
				"$(echo "$rfc" | cut -d' ' -f1 | sed 's/^/NO_/' | paste -sd' ')" ]; then
			ok "features --all $k: then the 7 RFC knobs, off"
		else
			bad "features --all $k: then the 7 RFC knobs, off" \
				"$(head -c 600 "$tmp/rfc")"
		fi
		miss=""
		while read -r name id; do
			grep -E "^NO_$name " "$tmp/rfc" | grep -qF "<$id>" ||
				miss="$miss $name"
		done <<<"$rfc"
		if [ -z "$miss" ] && ! grep -qF "not recorded" "$tmp/rfc"; then
			ok "features --all $k: each knob with its posting"
		else
			bad "features --all $k: each knob with its posting" \
				"missing:$miss"
		fi
		if [ -s "$tmp/err" ]; then
			bad "features --all $k: nothing on stderr" "$(head -c 200 "$tmp/err")"
		else
			ok "features --all $k: nothing on stderr"
		fi
	fi
done
# The subjects and dates of the postings, as docs/kernel-profiles.md has them.
if expect_ok "features --all" features --all; then
	has "PLACE_BONUS: the sleeper-bonus patch" \
		'"[PATCH 15/17] [RFC] sched/eevdf: Sleeper bonus", Peter Zijlstra, 2023-03-28'
	has "PLACE_FUDGE: mixed slice length" \
		'"[PATCH 14/17] sched/eevdf: Better handle mixed slice length", Peter Zijlstra, 2023-03-28'
	has "TTWU_QUEUE_DELAYED: the 2025 ttwu_queue patch" \
		'"[RFC][PATCH 5/5] sched: Add ttwu_queue support for delayed tasks", Peter Zijlstra, 2025-05-20'
	has "DEQUEUE_DELAYED: Galbraith's patch" \
		'"[PATCH V2] sched/fair: Dequeue sched_delayed tasks when waking to a busy CPU", Mike Galbraith, 2024-11-23'
fi
if expect_ok "features --help" features --help; then
	has "features --help names --all" "--all"
fi
# Every knob --all lists is settable, here all at once.
run_ok "run --features with every RFC knob" run "$hogs" --duration 1ms \
	--features "$(echo "$rfc" | cut -d' ' -f1 | paste -sd,)"

# ---- 4. "did you mean" for a misspelt feature ---------------------------

expect_error "run: NO_DELAY_DEQUEU" "did you mean 'NO_DELAY_DEQUEUE'?" \
	run "$hogs" --duration 1ms --features NO_DELAY_DEQUEU
expect_error "run: a lower-case name" "did you mean 'RUN_TO_PARITY'?" \
	run "$hogs" --duration 1ms --features run_to_parity
expect_error "run: NODELAY_DEQUEUE" "did you mean 'NO_DELAY_DEQUEUE'?" \
	run "$hogs" --duration 1ms --features HRTICK,NODELAY_DEQUEUE
expect_error "run: an RFC knob" "did you mean 'TTWU_DEQUEUE'?" \
	run "$hogs" --duration 1ms --features TTWU_DEQUEU
expect_error "compare: --features-b" "did you mean 'NO_PLACE_LAG'?" \
	compare "$hogs" --opts '--duration 1ms' --features-b NO_PLACE_LA
if expect_ok "a baseline" run "$hogs" --duration 1ms --format json \
	-o "$tmp/base.json"; then
	expect_error "check: --features" "did you mean 'DELAY_ZERO'?" \
		check "$hogs" --duration 1ms --baseline "$tmp/base.json" \
		--features DELAY_ZER
fi
# Far from every name: no guess, the list of names as before.
expect_error "run: no guess for NOT_A_FEATURE" "unknown feature 'NOT_A_FEATURE'" \
	run "$hogs" --duration 1ms --features NOT_A_FEATURE
if grep -qF "did you mean" "$tmp/err"; then
	bad "... and no suggestion" "$(head -c 300 "$tmp/err")"
else
	ok "... and no suggestion"
fi
# Costs share the distance function: a cost typo still gets its guess.
cat >"$tmp/cost.json" <<'EOF'
{ "format": "eevdf-sim-workload/1", "name": "cost", "costs": { "pipe_writ": 100 },
  "tasks": [ { "name": "t", "program": [ { "run": "1ms" } ] } ] }
EOF
expect_error "a misspelt cost still gets its guess" "did you mean 'pipe_write'?" \
	run "$tmp/cost.json"

finish
