#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/pgo-train.sh CLI WORKLOADS_DIR
#
# The runs a profile-guided build (make PGO=1) learns from: CLI, built
# with -fprofile-generate, runs each of them once and leaves its counts
# in .gcda files beside its objects.  The compiler then lays out the hot
# paths these runs took together and moves the rest aside: the
# simulator's hot code is larger than a core's 32 KiB L1 instruction
# cache, and cachegrind counted a third fewer L1i misses on schbench
# with the profile than without.
#
# What it learns from decides what gets faster, and what the runs never
# do is laid out as cold code, so the set covers the shapes users run:
# every shipped workload at its defaults, the mission's schbench on one
# 20-CPU LLC, tbench on a two-socket machine, and a thousand short
# sleepers on a 128-CPU machine of eight LLCs (newly-idle balancing up
# three domain levels).  Each run is short (the longest, about a tenth
# of a second uninstrumented): the counts need the paths, not the time.
# No result is kept.
#
# A run that fails stops the training with its message: a profile of a
# broken build would only hide the break.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: bench/pgo-train.sh CLI WORKLOADS_DIR" >&2
	exit 2
fi
cli=$1
wl=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

train() {
	if ! "$cli" run "$@" -q -o "$out/r.json" >"$out/log" 2>&1; then
		echo "pgo-train: failed: $cli run $*" >&2
		cat "$out/log" >&2
		exit 1
	fi
}

for w in "$wl"/*.json; do
	case "$(basename "$w")" in
	rt-push.json)
		# pins a hog to each of CPUs 0 and 1 and names no machine:
		# it needs CPUs to push to
		train "$w" --cpus 4 --duration 50ms
		;;
	*)
		train "$w" --duration 50ms
		;;
	esac
done
train "$wl/schbench.json" --cpus 20 --param m=4 --param t=128 \
	--param ops=0 --param locking=0 --param runtime=20ms
train "$wl/tbench.json" --machine "$wl/machines/skl-server.json" \
	--param nprocs=64 --param timelimit=5ms
train "$wl/massive_intr.json" --machine "$wl/machines/epyc-ccx.json" \
	--param nproc=1000 --param work=1ms --param nap=3ms --duration 1s
