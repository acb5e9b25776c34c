#!/bin/bash
# SPDX-License-Identifier: MIT
# Every shipped machine loads and runs every shipped workload (at the small
# sizes of cases.sh, without their --cpus), and validate accepts it.
set -u
SIM=${1:?usage: tests/machines.sh EEVDF_SIM}
cd "$(dirname "$0")/.." || exit 2
. tests/cases.sh
pass=0 fail=0
for m in workloads/machines/*.json; do
	if ! "$SIM" validate "$m" >/dev/null 2>&1; then
		echo "FAIL: validate $m"
		fail=$((fail + 1))
		continue
	fi
	for c in "${CASES[@]}"; do
		name=${c%%|*}
		args=$(sed -E 's/--cpus [0-9]+//' <<<"${c#*|}")
		# shellcheck disable=SC2086
		if out=$("$SIM" run $args --machine "$m" --format json 2>&1) &&
		   grep -q '"format":[[:space:]]*"eevdf-sim-result/1"' <<<"$out"; then
			pass=$((pass + 1))
		else
			echo "FAIL: $name on $m"
			echo "$out" | tail -3
			fail=$((fail + 1))
		fi
	done
done
echo "machines.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
