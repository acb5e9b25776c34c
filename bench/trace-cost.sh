#!/bin/bash
# SPDX-License-Identifier: MIT
# What --trace (the Perfetto JSON writer) costs: the same runs with and
# without it, 5 each after a warm-up, alternating; medians and their ratio
# (issue target: at most 3x).  Wall time is measured here, never inside a
# simulation.
set -u
SIM=${1:?usage: bench/trace-cost.sh EEVDF_SIM}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
RUNS=5

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

one() { # seconds of one run of "$@"
	local t0 t1
	t0=$(date +%s.%N)
	"$SIM" "$@" -q >/dev/null 2>&1 || { echo "run failed: $*" >&2; exit 1; }
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

echo "# --trace cost: median of $RUNS runs each, after a warm-up"
printf '%-28s %10s %10s %7s %12s\n' case "plain s" "trace s" ratio "trace MiB"
status=0
for c in "hackbench-i7|workloads/hackbench.json --machine i7-4790" \
	 "tbench8-i7-1s|workloads/tbench.json --machine i7-4790 --param nprocs=8 --param timelimit=1s"; do
	name=${c%%|*}
	read -r -a args <<<"${c#*|}"
	one run "${args[@]}" >/dev/null
	one run "${args[@]}" --trace "$tmp/t.json" >/dev/null
	: >"$tmp/a"
	: >"$tmp/b"
	for _ in $(seq $RUNS); do
		one run "${args[@]}" >>"$tmp/a"
		one run "${args[@]}" --trace "$tmp/t.json" >>"$tmp/b"
	done
	a=$(median <"$tmp/a")
	b=$(median <"$tmp/b")
	r=$(echo "$b / $a" | bc -l)
	mib=$(echo "$(stat -c %s "$tmp/t.json") / 1048576" | bc -l)
	printf '%-28s %10.3f %10.3f %7.2f %12.1f\n' "$name" "$a" "$b" "$r" "$mib"
	if [ "$(echo "$r > 3" | bc -l)" = 1 ]; then
		echo "  target --trace <= 3x: missed"
		status=1
	fi
done
[ $status = 0 ] && echo "  target --trace <= 3x: met"
exit 0
