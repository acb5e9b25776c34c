#!/usr/bin/env bash
# Golden outputs: every shipped workload at a fixed seed and a small size
# must print exactly what tests/golden/<name>.txt holds.  The outputs are
# the tool's full text report (benchmark lines and the perf sched latency
# table), so any change in the model's decisions shows here.
#
#   tests/golden.sh BIN           compare
#   tests/golden.sh BIN --update  rewrite the files (review the diff!)
set -u
BIN=${1:?usage: tests/golden.sh EEVDF_SIM [--update]}
UPDATE=${2:-}
cd "$(dirname "$0")/.." || exit 2

# shellcheck source=tests/cases.sh
. tests/cases.sh

pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in "${CASES[@]}"; do
	name=${c%%|*}
	args=${c#*|}
	file=${args%% *}
	if [ ! -f "$file" ]; then
		echo "skip  $name ($file not shipped)"
		continue
	fi
	# shellcheck disable=SC2086
	if ! "$BIN" run $args --seed 1 --quiet >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL  $name: exit $? $(head -1 "$tmp/err")"
		fail=$((fail + 1))
		continue
	fi
	if [ "$UPDATE" = --update ]; then
		cp "$tmp/out" "tests/golden/$name.txt"
		echo "wrote tests/golden/$name.txt"
		pass=$((pass + 1))
	elif cmp -s "$tmp/out" "tests/golden/$name.txt"; then
		echo "ok    $name"
		pass=$((pass + 1))
	else
		echo "FAIL  $name: output differs from tests/golden/$name.txt"
		diff "tests/golden/$name.txt" "$tmp/out" | head -10
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
