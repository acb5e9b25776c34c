#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh FUZZ_BUILD SECONDS TARGET...: run each libFuzzer target SECONDS
# (make fuzz FUZZ_SECONDS=N), one after the other, on a corpus seeded
# from the shipped files and the regression inputs, with its dictionary.
# A crash leaves its input in FUZZ_BUILD/crashes/TARGET/ and fails: add
# it, minimised (fuzz-TARGET -minimize_crash=1 FILE), to
# tests/fuzz/regress/TARGET/ with the fix, so that make test replays it.
# Prints a line per target: executions, and crashes.  An input is a hang
# after 60 s: a zero-time loop the livelock guard ends after 10^7 ops
# takes some 12 s under the fuzzers' sanitizers and coverage.
set -u
build=${1:?usage: run.sh FUZZ_BUILD SECONDS TARGET...}
secs=${2:?usage: run.sh FUZZ_BUILD SECONDS TARGET...}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
status=0

for t in "$@"; do
	corpus=$build/corpus/$t
	crashes=$build/crashes/$t
	mkdir -p "$corpus" "$crashes"
	"$here/seeds.sh" "$t" | while read -r f; do
		cp -n "$f" "$corpus/" 2>/dev/null
	done
	dict=$here/workload.dict
	[ "$t" = rtapp ] && dict=$here/rtapp.dict
	[ "$t" = cli ] && dict=$here/cli.dict
	[ "$t" = machine ] && dict=$here/workload.dict
	[ "$t" = sweep ] && dict=$here/sweep.dict
	log=$build/fuzz-$t.log
	# libFuzzer gives up on a corpus directory that is not there
	regress=""
	[ -d "$here/regress/$t" ] && regress=$here/regress/$t
	(cd "$root" && "$build/fuzz-$t" -max_total_time="$secs" \
		-dict="$dict" -artifact_prefix="$crashes/" -timeout=60 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-close_fd_mask=2 "$corpus" $regress) >"$log" 2>&1
	rc=$?
	runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" |
		grep -o '[0-9]*$')
	# crash-, leak-, timeout- and oom- inputs; a slow-unit- is a report
	found=$(find "$crashes" -type f \( -name 'crash-*' -o -name 'leak-*' \
		-o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	echo "fuzz-$t: ${runs:-?} executions in ${secs} s, $found crash(es)" \
		"(exit $rc, log $log)"
	if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
		status=1
		grep -m5 -E 'ERROR|SUMMARY|Test unit written' "$log"
	fi
done
exit $status
