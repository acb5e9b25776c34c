#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_calibrate.sh SIMBINARY: eevdf-sim calibrate and kernel-check as a
# user meets them, without measuring anything (that takes a quiet machine:
# make calibrate, make kernel-check): their help, the experiments' list,
# a recorded kernel's runs compared again with the simulator
# (tests/kernel-check/), the workloads kernel-check runs, and every kind
# of bad input: exit 2, a message naming the option, file or JSON path,
# and no output file left behind.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_calibrate.sh SIMBINARY}

# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"

here=$(cd "$(dirname "$0")" && pwd)
rec=$here/kernel-check/recording.json
vm=$here/kernel-check/vm.json

# Help and the list of experiments.
if expect_ok "calibrate --help" calibrate --help &&
	grep -q "^Usage: eevdf-sim calibrate" "$tmp/out" &&
	grep -q -- "--max-spread" "$tmp/out"; then
	ok "calibrate --help"
fi
if expect_ok "kernel-check --list" kernel-check --list; then
	missing=""
	for e in nice-2 nice-3 hog-runs slice slice-mix idle yield sleeper \
		short-slice periodic pipe; do
		grep -q "^$e " "$tmp/out" || missing="$missing $e"
	done
	if [ -z "$missing" ]; then
		ok "kernel-check --list names every experiment"
	else
		bad "kernel-check --list names every experiment" "missing$missing"
	fi
fi
if expect_ok "help kernel-check" help kernel-check &&
	grep -q -- "--load-real FILE" "$tmp/out"; then
	ok "help kernel-check"
fi

# A recording against the simulator: the same table every time, exit 1
# for its DIFF rows (the recording was made on a busy machine).
sim kernel-check --load-real "$rec" --machine "$vm"
if [ "$rc" -ne 1 ] || [ -n "$(crash)" ]; then
	bad "a recording's table" "exit $rc: $(head -c 300 "$tmp/err")"
elif ! grep -q "^# kernel-check: Linux 6.18.44-fc-v1045 against the simulator, kernel profile 6.18, machine vm (calibrated)$" "$tmp/out" ||
	! grep -Eq "^nice-2 +nice5 share \(%\) +29\.91 " "$tmp/out" ||
	! grep -Eq "^pipe +switches per round trip +2\.00 " "$tmp/out" ||
	! grep -Eq "^# [0-9]+ ok, [0-9]+ DIFF, " "$tmp/out"; then
	bad "a recording's table" "$(head -c 600 "$tmp/out")"
else
	cp "$tmp/out" "$tmp/table1"
	sim kernel-check --load-real "$rec" --machine "$vm"
	if cmp -s "$tmp/out" "$tmp/table1"; then
		ok "a recording's table, the same twice"
	else
		bad "a recording's table, the same twice" "the tables differ"
	fi
fi
sim kernel-check --load-real "$rec" --machine "$vm" --format json \
	-o "$tmp/kc.json"
if [ "$rc" -ne 1 ] || [ ! -s "$tmp/kc.json" ] ||
	! grep -q '"format":	"eevdf-sim-kernel-check/1"' "$tmp/kc.json" ||
	! grep -q '"verdict":	"DIFF"' "$tmp/kc.json"; then
	bad "--format json -o FILE" "exit $rc: $(head -c 300 "$tmp/err")"
elif command -v python3 >/dev/null &&
	! python3 -m json.tool "$tmp/kc.json" >/dev/null; then
	bad "--format json -o FILE" "not JSON"
else
	ok "--format json -o FILE"
fi
sim kernel-check --load-real "$rec" --machine "$vm" --only pipe
if [ "$rc" -gt 1 ] || [ -n "$(crash)" ]; then
	bad "--only one experiment of a recording" "exit $rc"
elif [ "$(grep -c '^pipe ' "$tmp/out")" -eq 4 ] &&
	! grep -q '^nice-2 ' "$tmp/out"; then
	ok "--only one experiment of a recording"
else
	bad "--only one experiment of a recording" "$(cat "$tmp/out")"
fi

# The workloads it simulates are workloads eevdf-sim runs.
sim kernel-check --load-real "$rec" --machine "$vm" --save-workloads \
	"$tmp/wl"
n=$(find "$tmp/wl" -name 'kernel-check-*.json' 2>/dev/null | wc -l)
if [ "$n" -ne 3 ]; then
	bad "--save-workloads" "$n files"
elif expect_ok "saved workloads validate" validate "$tmp"/wl/*.json &&
	expect_ok "a saved workload runs" run "$tmp/wl/kernel-check-pipe.json" \
		--machine "$vm"; then
	ok "--save-workloads writes workloads that validate and run"
fi

# A calibrated machine file is a machine file.
if expect_ok "validate a calibrated machine" validate "$vm" &&
	grep -q "HZ 250, calibrated)" "$tmp/out"; then
	ok "validate says a machine is calibrated"
fi

# Bad input to calibrate, before it measures anything.
mkdir "$tmp/adir"
expect_error "calibrate: --max-spread x" "--max-spread" calibrate \
	--max-spread x
expect_error "calibrate: --max-spread 0" "--max-spread" calibrate \
	--max-spread 0
expect_error "calibrate: --hz 5" "--hz" calibrate --hz 5
expect_error "calibrate: --cpus abc" "--cpus" calibrate --cpus abc \
	-o "$tmp/m.json"
expect_error "calibrate: --cpus of no CPU" "--cpus 4000" calibrate \
	--cpus 4000 -o "$tmp/m.json"
expect_error "calibrate: --kernel 9.99" "9.99" calibrate --kernel 9.99 \
	-o "$tmp/m.json"
expect_error "calibrate: an unknown option" "--frobnicate" calibrate \
	--frobnicate
expect_error "calibrate: an argument" "'extra'" calibrate extra
expect_error "calibrate: -o without a value" "-o" calibrate -o
expect_error "calibrate: an output in a missing directory" \
	"$tmp/nodir/m.json" calibrate -o "$tmp/nodir/m.json"
expect_error "calibrate: an output that is a directory" "$tmp/adir" \
	calibrate -o "$tmp/adir"
expect_error "calibrate: --fs-dir that does not exist" "--fs-dir" \
	calibrate --fs-dir "$tmp/nodir" -o "$tmp/m.json"
touch "$tmp/afile"
expect_error "calibrate: --fs-dir that is a file" "$tmp/afile" \
	calibrate --fs-dir "$tmp/afile" -o "$tmp/m.json"
if leftovers "$tmp/m.json"; then
	bad "calibrate leaves no file behind" "$tmp/m.json"
else
	ok "calibrate leaves no file behind"
fi

# Bad input to kernel-check.
printf '{"format": "eevdf-sim-kernel-real/1", "kernel": "x", "cpu": 0, "hz": 250, "runs": 1, "duration_ns": 100, "warmup_ns": 0, "base_slice_ns": 0, "experiments": [{"name": "nice-2", "duration_ns": 100, "warmup_ns": 0, "runs": [{"tasks": [{"name": "nice0", "segments": [1, 2, 3], "latencies": [], "yields": 0, "rts": 0, "switches": 0}, {"name": "nice5", "segments": [], "latencies": [], "yields": 0, "rts": 0, "switches": 0}]}]}]}\n' \
	>"$tmp/bad-rec.json"
expect_error "kernel-check: a bad recording names file and path" \
	"$tmp/bad-rec.json: experiments[0].runs[0].tasks[0].segments: must hold start, end pairs" \
	kernel-check --load-real "$tmp/bad-rec.json" --machine "$vm" \
	-o "$tmp/t.txt"
expect_error "kernel-check: a missing recording" "$tmp/none.json" \
	kernel-check --load-real "$tmp/none.json" --machine "$vm"
expect_error "kernel-check: an experiment the recording lacks" \
	"has no experiment 'idle'" kernel-check --load-real "$rec" \
	--machine "$vm" --only idle
printf '{"format": "eevdf-sim-machine/1", "topology": {"cores_per_llc": 0}}\n' \
	>"$tmp/bad-machine.json"
expect_error "kernel-check: a bad machine names file and path" \
	"$tmp/bad-machine.json: topology.cores_per_llc" kernel-check \
	--load-real "$rec" --machine "$tmp/bad-machine.json"
expect_error "kernel-check: --only nope" "'nope'" kernel-check --only nope
expect_error "kernel-check: --runs 0" "--runs" kernel-check --runs 0
expect_error "kernel-check: --duration 5ms" "--duration" kernel-check \
	--duration 5ms
expect_error "kernel-check: --format xml" "--format" kernel-check \
	--format xml
expect_error "kernel-check: --cpu 9999" "--cpu" kernel-check --cpu 9999
expect_error "kernel-check: --kernel 9.99" "9.99" kernel-check \
	--load-real "$rec" --machine "$vm" --kernel 9.99
expect_error "kernel-check: --features NOPE" "NOPE" kernel-check \
	--features NOPE
expect_error "kernel-check: --max-foreign 200" "--max-foreign" \
	kernel-check --max-foreign 200
expect_error "kernel-check: --load-real with --save-real" "exclude" \
	kernel-check --load-real "$rec" --save-real "$tmp/r.json"
expect_error "kernel-check: an output that is a directory" "$tmp/adir" \
	kernel-check --load-real "$rec" --machine "$vm" -o "$tmp/adir"
expect_error "kernel-check: an argument" "'extra'" kernel-check extra
if leftovers "$tmp/t.txt" || leftovers "$tmp/r.json"; then
	bad "kernel-check leaves no file behind" "$tmp/t.txt"
else
	ok "kernel-check leaves no file behind"
fi

finish
