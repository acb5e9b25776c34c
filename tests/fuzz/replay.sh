#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# replay.sh BUILD: every fuzz target, built without libFuzzer
# (BUILD/fuzz/replay-TARGET), over its seeds and its regression inputs:
# each input a fuzzer ever broke must stay fixed (make test, make asan).
set -u
build=${1:?usage: replay.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
fail=0
for bin in "$build"/fuzz/replay-*; do
	[ -x "$bin" ] || continue
	t=${bin##*/replay-}
	mapfile -t inputs < <("$here/seeds.sh" "$t")
	# the CLI target says what is wrong with its options on stderr
	if out=$(cd "$root" && "$bin" "${inputs[@]}" 2>"$build/fuzz/$t.replay.err"); then
		echo "ok    fuzz $t: $out"
	else
		echo "FAIL  fuzz $t: $(tail -5 "$build/fuzz/$t.replay.err")"
		fail=1
	fi
done
[ "$fail" -eq 0 ]
