#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# determinism.sh BIN_A BIN_B: two builds of eevdf-sim (say -O0 and -O2) must
# write byte-identical JSON for every shipped workload, seed and CPU count,
# and BIN_A must agree with itself.  A difference between builds is a bug
# (undefined behaviour, uninitialised memory, floating point in a
# decision).  Prints one line per comparison and ends with
# "N passed, M failed".
set -u

A=${1:?usage: determinism.sh BIN_A BIN_B}
B=${2:?usage: determinism.sh BIN_A BIN_B}
for bin in "$A" "$B"; do
	if [ ! -x "$bin" ]; then
		echo "determinism.sh: $bin is not an executable" >&2
		exit 2
	fi
done

here=$(cd "$(dirname "$0")" && pwd)
A=$(cd "$(dirname "$A")" && pwd)/$(basename "$A")
B=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
pass=0
fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok    $1"; pass=$((pass + 1)); }
bad() { echo "FAIL  $1: $2"; fail=$((fail + 1)); }

# run BIN OUT ARGS...: true when BIN exits 0; stderr kept next to OUT.
run() {
	local bin=$1 out=$2
	shift 2
	"$bin" run "$@" --format json >"$out" 2>"$out.err"
}

# compare NAME FILE1 FILE2
compare() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		bad "$1" "$(cmp "$2" "$3" 2>&1 | head -1)"
	fi
}

# The shipped workloads at their test sizes (tests/cases.sh), each at two
# seeds: full default sizes would take minutes under -O0.
# shellcheck source=tests/cases.sh
. "$here/cases.sh"
cd "$here/.." || exit 2

for c in "${CASES[@]}"; do
	name=${c%%|*}
	args=${c#*|}
	[ -f "${args%% *}" ] || continue
	for seed in 1 42; do
		label="$name seed $seed"
		a=$tmp/a.json b=$tmp/b.json a2=$tmp/a2.json
		# shellcheck disable=SC2086 # split the arguments on purpose
		if ! run "$A" "$a" $args --seed "$seed"; then
			bad "$label" "$A failed: $(head -1 "$a.err")"
			continue
		fi
		# shellcheck disable=SC2086
		if ! run "$B" "$b" $args --seed "$seed"; then
			bad "$label" "$B failed: $(head -1 "$b.err")"
			continue
		fi
		# shellcheck disable=SC2086
		if ! run "$A" "$a2" $args --seed "$seed"; then
			bad "$label" "$A failed: $(head -1 "$a2.err")"
			continue
		fi
		compare "$label: A = B" "$a" "$b"
		compare "$label: A = A again" "$a" "$a2"
	done
done

# Traces, timehist and CSV are outputs too: the same bytes from both builds.
for bin in "$A" "$B"; do
	tag=$([ "$bin" = "$A" ] && echo a || echo b)
	"$bin" run workloads/hackbench.json --param groups=2 --param fds=4 \
		--param loops=50 --cpus 2 --trace "$tmp/trace.$tag.json" \
		--timehist >"$tmp/th.$tag.txt" 2>&1 || bad "trace ($tag)" "failed"
	"$bin" run workloads/desktop-video.json --cpus 2 --duration 500ms \
		--format csv >"$tmp/csv.$tag.csv" 2>&1 || bad "csv ($tag)" "failed"
done
compare "hackbench --trace: A = B" "$tmp/trace.a.json" "$tmp/trace.b.json"
compare "hackbench --timehist: A = B" "$tmp/th.a.txt" "$tmp/th.b.txt"
compare "desktop-video --format csv: A = B" "$tmp/csv.a.csv" "$tmp/csv.b.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
