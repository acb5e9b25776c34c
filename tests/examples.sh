#!/bin/bash
# SPDX-License-Identifier: MIT
# Run the example programs (make examples) and check what they print.
#   tests/examples.sh BUILD_DIR
set -u
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
ex=$1/examples
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok    $1"; }
bad() { fail=$((fail + 1)); echo "FAIL  $1: $2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shares: each hog's part of the hogs' time is its weight / sum, to 0.1 point.
if "$ex/shares" >"$tmp/out" 2>"$tmp/err"; then
	rows=$(grep -c '^hog' "$tmp/out")
	off=$(awk '/^hog/ { d = $4 - $5; if (d < 0) d = -d;
		if (d > 0.1) print $1 " " $4 " vs " $5 }' "$tmp/out")
	if [ "$rows" -ne 3 ]; then
		bad "shares prints three hogs" "$(cat "$tmp/out")"
	elif [ -n "$off" ]; then
		bad "shares follow the weights" "$off"
	else
		ok "shares: three hogs within 0.1 point of weight / sum"
	fi
	if grep -qE '^sleeper +0 +[0-9.]+ +[0-9.]+%' "$tmp/out"; then
		ok "shares: the sleeper's row"
	else
		bad "shares: the sleeper's row" "$(cat "$tmp/out")"
	fi
else
	bad "shares runs" "exit $?: $(cat "$tmp/err")"
fi

# compare: one row per task of the workload, both runs complete.
if "$ex/compare" workloads/nice-mix.json NO_DELAY_DEQUEUE >"$tmp/out" \
	2>"$tmp/err"; then
	n=$("$1/eevdf-sim" validate workloads/nice-mix.json 2>/dev/null |
		sed -n 's/.*ok (\([0-9]*\) task.*/\1/p')
	rows=$(awk 'NR > 2' "$tmp/out" | wc -l)
	if ! head -1 "$tmp/out" | grep -q "b = NO_DELAY_DEQUEUE"; then
		bad "compare names configuration b" "$(head -1 "$tmp/out")"
	elif [ -z "$n" ] || [ "$rows" -ne "$n" ]; then
		bad "compare prints a row per task" "$rows rows, $n tasks"
	else
		ok "compare: a row per task under both configurations"
	fi
else
	bad "compare runs" "exit $?: $(cat "$tmp/err")"
fi
if "$ex/compare" workloads/nice-mix.json NO_SUCH_FLAG >"$tmp/out" \
	2>"$tmp/err"; then
	bad "compare refuses an unknown feature" "exit 0"
elif grep -q SUCH_FLAG "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok "compare refuses an unknown feature by name"
else
	bad "compare refuses an unknown feature by name" "$(cat "$tmp/err")"
fi
"$ex/compare" "$tmp/none.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "$tmp/none.json" "$tmp/err"; then
	ok "compare names a missing workload, exit 2"
else
	bad "compare names a missing workload, exit 2" "exit $rc: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
