#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_trust.sh SIMBINARY: numbers a user can trust and runs they can trace
# back: a feature the profile lacks is an error, --duration and the
# workload's own length agree, a benchmark that did not finish says so,
# results carry their provenance and rerun reproduces them.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_trust.sh SIMBINARY}
# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
cd "$(dirname "$0")/.." || exit 2

hogs=workloads/two-hogs.json

# A feature the profile does not have is an error naming the profile and
# the releases that have it, unless --features-allow-absent.
expect_error "DELAY_DEQUEUE on 6.8 names the profile" "kernel profile 6.8" \
	run "$hogs" --kernel 6.8 --features DELAY_DEQUEUE --duration 10ms
if grep -qF "6.12, 6.17, 6.18, 6.19" "$tmp/err"; then
	ok "... and the profiles that have it"
else
	bad "... and the profiles that have it" "$(head -c 300 "$tmp/err")"
fi
expect_error "NO_DELAY_DEQUEUE on 6.8 too" "DELAY_DEQUEUE is not a feature" \
	run "$hogs" --kernel 6.8 --features NO_DELAY_DEQUEUE --duration 10ms
if expect_ok "--features-allow-absent accepts it" run "$hogs" --kernel 6.8 \
	--features DELAY_DEQUEUE --features-allow-absent --duration 10ms \
	--format json; then
	ok "--features-allow-absent accepts it"
	if grep -q '"NO_DELAY_DEQUEUE"\|"DELAY_DEQUEUE"' "$tmp/out"; then
		bad "... and leaves it out" "the results list it"
	else
		ok "... and leaves it out"
	fi
fi
run_ok "an RFC knob is settable on every profile" run "$hogs" \
	--kernel 6.8 --features PLACE_BONUS --duration 10ms

# A forever loop of yields is a valid workload (each yield is a syscall).
cat >"$tmp/yield.json" <<'J'
{"format": "eevdf-sim-workload/1", "duration": "10ms",
 "tasks": [{"name": "y", "program": [{"loop": {"body": [{"yield": {}}]}}]},
           {"name": "h", "program": [{"loop": {"body": [{"run": "1ms"}]}}]}]}
J
run_ok "a loop of yields runs" run "$tmp/yield.json"

finish
