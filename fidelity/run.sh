#!/bin/sh
# Fidelity against real-kernel figures (make fidelity; not part of make
# test: the targets are measurements to report, met or not).  Each line
# says the scenario, the simulated figure, the target and MET or MISSED.
#
# Issue 14, the 2025 "sched: Try and address some recent-ish regressions"
# thread (P. Zijlstra, RFC 0/5): schbench -L -m 4 -M auto -t 128 -n 0
# -r 60 on a Skylake server, second socket offline: 6.9.0 2.04 M average
# rps, 6.15-rc6 1.91 M (-6.5 %), the TTWU_QUEUE_DELAYED series 2.04 M.
#
# usage: fidelity/run.sh [path/to/eevdf-sim]   (RUNTIME=3s by default)
set -eu
cd "$(dirname "$0")/.."
SIM=${1:-build/eevdf-sim}
RUNTIME=${RUNTIME:-3s}
M=fidelity/skl-server-1s.json

rps() { # kernel [features]
	"$SIM" run workloads/schbench.json --machine "$M" --kernel "$1" \
		${2:+--features "$2"} --param m=4 --param t=128 --param M=auto \
		--param ops=0 --param locking=0 --param runtime="$RUNTIME" \
		--param interval=null \
		--quiet | awk '/^average rps:/ { print $3 }'
}

verdict() { # value, awk condition on x
	awk -v x="$1" "BEGIN { v = ($2) ? \"MET\" : \"MISSED\"; print v }"
}

echo "# schbench -L -m 4 -M auto -t 128 -n 0, skl-server one socket, $RUNTIME"
d=$(rps 6.18)
echo "default profile (6.18): $d average rps; target 2.0 M +-25 %:" \
	"$(verdict "$d" 'x >= 1500000 && x <= 2500000')"
a=$(rps 6.8)
b=$(rps 6.12)
c=$(rps 6.12 TTWU_QUEUE_DELAYED)
r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')
echo "6.8: $a, 6.12: $b, 6.12/6.8 = $r; target 0.90..0.97:" \
	"$(verdict "$r" 'x >= 0.90 && x <= 0.97')"
g=$(awk -v a="$a" -v b="$b" -v c="$c" \
	'BEGIN { printf "%.2f", (a > b ? (c - b) / (a - b) : 0) }')
echo "6.12 + TTWU_QUEUE_DELAYED: $c, recovers $g of the gap; target" \
	">= 0.5: $(verdict "$g" 'x >= 0.5')"

echo "# wakeup storm onto CPU 0 (fidelity/storm.json, 65 flat CPUs)"
for f in NO_TTWU_QUEUE TTWU_QUEUE; do
	for n in 2 8 32 64; do
		printf '%s n=%s: ' "$f" "$n"
		"$SIM" run fidelity/storm.json --cpus 65 --param n="$n" \
			--features "$f" | sed -n 's/^# rq locks: //p; s/^# wake lists: /wake lists /p' |
			tr '\n' ' '
		echo
	done
done
