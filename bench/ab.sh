#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/ab.sh [--pairs N] [--smoke] [--workloads DIR] OLD NEW SCENARIO...
#
# Times two eevdf-bench binaries side by side (each SCENARIO an exact
# name of eevdf-bench --list): for each pair, OLD and NEW each run every
# SCENARIO once (--only SCENARIO --runs 1, or --smoke),
# OLD first in odd pairs and NEW first in even ones, so that a machine
# whose speed drifts (a shared one) slows both alike.  Each pair gives a
# ratio, OLD's CPU seconds over NEW's (above 1: NEW is faster); the table
# gives each side's median and the median, lowest and highest ratio.  A
# single run of each, bench/compare.sh on two bench JSON files, says less
# on a noisy machine: its two files are measured minutes apart.
#
# A pair whose two runs differ in events or results digest simulated
# different things; the scenario is flagged and the exit status is 1.
# Exit 2: bad arguments or a bench that failed.
set -u
usage() {
	echo "usage: bench/ab.sh [--pairs N] [--smoke] [--workloads DIR]" \
		"OLD_BENCH NEW_BENCH SCENARIO..." >&2
	exit 2
}
here=$(dirname "$0")
pairs=3
extra=()
while [ $# -gt 0 ]; do
	case "$1" in
	--pairs)
		[ $# -ge 2 ] || usage
		pairs=$2
		shift 2
		;;
	--smoke)
		extra+=(--smoke)
		shift
		;;
	--workloads)
		[ $# -ge 2 ] || usage
		extra+=(--workloads "$2")
		shift 2
		;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || usage
case "$pairs" in
'' | *[!0-9]*) usage ;;
esac
[ "$pairs" -ge 1 ] && [ "$pairs" -le 100 ] || {
	echo "bench/ab.sh: --pairs: $pairs is not in 1..100" >&2
	exit 2
}
old=$1 new=$2
shift 2
for b in "$old" "$new"; do
	[ -x "$b" ] || {
		echo "bench/ab.sh: $b: not an executable" >&2
		exit 2
	}
done

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# One run of BENCH on SCENARIO: "seconds events digest kind", read from
# its JSON as bench/compare.sh reads it.
run_one() {
	local bench=$1 sc=$2 json=$tmp/run.json
	if ! "$bench" "${extra[@]}" --only "$sc" --runs 1 --json "$json" \
		>"$tmp/run.log" 2>&1; then
		echo "bench/ab.sh: $bench --only $sc failed:" >&2
		tail -5 "$tmp/run.log" >&2
		exit 2
	fi
	# the row compare.sh reads: name s ns/event sim/s events digest kind
	"$here/compare.sh" --rows "$json" | awk -v n="$sc" '
	$1 == n { print $2, $5, $6, $7; found = 1 }
	END { exit !found }' || {
		echo "bench/ab.sh: $bench: scenario $sc did not run" >&2
		exit 2
	}
}

# Per scenario, one line a pair: old_s new_s old_events new_events
# old_digest new_digest kind
for ((i = 1; i <= pairs; i++)); do
	for sc in "$@"; do
		if [ $((i % 2)) -eq 1 ]; then
			o=$(run_one "$old" "$sc") || exit 2
			n=$(run_one "$new" "$sc") || exit 2
		else
			n=$(run_one "$new" "$sc") || exit 2
			o=$(run_one "$old" "$sc") || exit 2
		fi
		read -r os oev odg okind <<<"$o"
		read -r ns nev ndg nkind <<<"$n"
		kind=$okind
		[ "$okind" = "$nkind" ] || kind=mixed
		echo "$os $ns $oev $nev $odg $ndg $kind" >>"$tmp/$sc.pairs"
	done
done

echo "# OLD: $old"
echo "# NEW: $new"
echo "# $pairs pair(s), run alternately; speed-up = OLD s / NEW s per pair" \
	"(above 1, NEW is faster)"
printf '%-16s %5s %10s %10s %9s %9s %9s\n' scenario time "old s" "new s" \
	speed-up lowest highest
# the median of the numbers on stdin, one a line, sorted
median() {
	awk '{ a[NR] = $1 }
	END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
status=0
for sc in "$@"; do
	f=$tmp/$sc.pairs
	om=$(awk '{ print $1 }' "$f" | sort -g | median)
	nm=$(awk '{ print $2 }' "$f" | sort -g | median)
	awk '{ printf "%.6f\n", ($2 > 0 ? $1 / $2 : 0) }' "$f" | sort -g >"$tmp/r"
	rm=$(median <"$tmp/r")
	rlo=$(head -1 "$tmp/r")
	rhi=$(tail -1 "$tmp/r")
	differ=$(awk '$3 != $4 || $5 != $6 { d = 1 } END { print d + 0 }' "$f")
	kind=$(awk '{ k = $7 } END { print k }' "$f")
	line=$(awk -v o="$om" -v n="$nm" -v r="$rm" -v lo="$rlo" -v hi="$rhi" \
		'BEGIN { printf "%.4f %.4f %.3f %.3f %.3f\n", o, n, r, lo, hi }')
	read -r om nm rm rlo rhi <<<"$line"
	note=""
	if [ "$differ" = 1 ]; then
		note="  (events or results digest differ: different work)"
		status=1
	fi
	printf '%-16s %5s %10s %10s %8sx %8sx %8sx%s\n' "$sc" "$kind" "$om" \
		"$nm" "$rm" "$rlo" "$rhi" "$note"
done
exit $status
