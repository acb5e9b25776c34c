#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/compare.sh OLD.json NEW.json: the per-scenario speed ratio of two
# eevdf-bench JSON files (build/bench.json of two commits).  For each
# scenario in both: the median seconds of eevdf_sim_run() (CPU seconds
# when both files have them, else wall), ns per event and simulated s per
# second of each, and NEW's speed-up over OLD (OLD time / NEW time: above
# 1 is faster).  A scenario whose event count
# or results digest differs is flagged: its two runs did not simulate the
# same thing, so the ratio compares different work.
#
# It reads the layout eevdf-bench writes (one key a line, bench/output.c),
# with awk alone, so it runs wherever the bench does.
#
# bench/compare.sh --rows FILE prints the per-scenario line this reads
# from one file (name seconds ns/event sim-s/s events digest cpu|wall),
# for bench/ab.sh.
set -u
usage() {
	echo "usage: bench/compare.sh OLD.json NEW.json" >&2
	echo "       bench/compare.sh --rows FILE.json" >&2
	exit 2
}
rows_only=0
if [ $# -eq 2 ] && [ "$1" = --rows ]; then
	rows_only=1
	shift
	set -- "$1" "$1"
fi
[ $# -eq 2 ] || usage
for f in "$1" "$2"; do
	[ -r "$f" ] || {
		echo "bench/compare.sh: $f: cannot read" >&2
		exit 2
	}
	grep -q '"format": "eevdf-bench/1"' "$f" || {
		echo "bench/compare.sh: $f: not an eevdf-bench/1 JSON file" >&2
		exit 2
	}
done

# One line a scenario that ran: name seconds ns_per_event speed events
# digest, from cpu_s when the file has it (eevdf-bench since it measures
# CPU time), else from wall_s; the last field says which.
rows() {
	awk '
	function val(line) {
		sub(/^[^:]*:[ \t]*/, "", line)
		sub(/,[ \t]*$/, "", line)
		gsub(/"/, "", line)
		return line
	}
	/^\t\t\{$/ {
		name = ""; ok = 0; wall = ns = speed = ev = dg = "-"
		cpu = nsc = spc = "-"
	}
	/^\t\t\t"name": / { name = val($0) }
	/^\t\t\t"status": "ok"/ { ok = 1 }
	/^\t\t\t"events": / { ev = val($0) }
	/^\t\t\t"results_digest": / { dg = val($0) }
	/^\t\t\t"wall_s": / { wall = val($0) }
	/^\t\t\t"ns_per_event": / { ns = val($0) }
	/^\t\t\t"sim_s_per_wall_s": / { speed = val($0) }
	/^\t\t\t"cpu_s": / { cpu = val($0) }
	/^\t\t\t"ns_per_event_cpu": / { nsc = val($0) }
	/^\t\t\t"sim_s_per_cpu_s": / { spc = val($0) }
	/^\t\t\}/ {
		if (!ok || name == "")
			next
		if (cpu != "-")
			print name, cpu, nsc, spc, ev, dg, "cpu"
		else
			print name, wall, ns, speed, ev, dg, "wall"
	}
	' "$1"
}

rows_wall() { # FILE NAME: the wall figures of one scenario
	awk -v n="$2" '
	function val(line) {
		sub(/^[^:]*:[ \t]*/, "", line)
		sub(/,[ \t]*$/, "", line)
		gsub(/"/, "", line)
		return line
	}
	/^\t\t\t"name": / { name = val($0) }
	name == n && /^\t\t\t"wall_s": / { w = val($0) }
	name == n && /^\t\t\t"ns_per_event": / { e = val($0) }
	name == n && /^\t\t\t"sim_s_per_wall_s": / { sp = val($0) }
	END { print w, e, sp }
	' "$1"
}

meta() { # the file's "git", "compiler" and "profile_guided", when recorded
	awk -F'"' '
	/^\t"git": / { g = $4 }
	/^\t"compiler": / { c = $4 }
	/^\t"profile_guided": true/ { p = ", profile-guided" }
	END {
		printf "%s, %s%s", g == "" ? "git ?" : g,
			c == "" ? "compiler ?" : c, p
	}
	' "$1"
}

if [ "$rows_only" = 1 ]; then
	rows "$1"
	exit 0
fi
old=$(rows "$1")
new=$(rows "$2")
echo "# OLD: $1 ($(meta "$1"))"
echo "# NEW: $2 ($(meta "$2"))"
echo "# speed-up = OLD s / NEW s (eevdf_sim_run() medians, CPU s where both have them): above 1, NEW is faster"
printf '%-16s %4s %10s %10s %9s %9s %10s %10s %8s\n' scenario time "old s" \
	"new s" "old ns/ev" "new ns/ev" "old sim/s" "new sim/s" speed-up
n=0
while read -r name ow ons osp oev odg okind; do
	[ -n "$name" ] || continue
	line=$(printf '%s\n' "$new" | awk -v n="$name" '$1 == n')
	[ -n "$line" ] || continue
	read -r _ nw nns nsp nev ndg nkind <<<"$line"
	kind=$okind
	if [ "$okind" != "$nkind" ]; then
		# one file has no CPU times: compare wall with wall
		kind=wall
		ow=$(rows_wall "$1" "$name")
		nw=$(rows_wall "$2" "$name")
		read -r ow ons osp <<<"$ow"
		read -r nw nns nsp <<<"$nw"
	fi
	note=""
	[ "$oev" = "$nev" ] || note=" (events differ: $oev vs $nev)"
	[ "$odg" = "-" ] || [ "$ndg" = "-" ] || [ "$odg" = "$ndg" ] ||
		note="$note (results digests differ)"
	awk -v s="$name" -v k="$kind" -v ow="$ow" -v nw="$nw" -v ons="$ons" -v nns="$nns" \
		-v osp="$osp" -v nsp="$nsp" -v note="$note" 'BEGIN {
		r = nw > 0 ? sprintf("%.3fx", ow / nw) : "-"
		printf "%-16s %4s %10.4f %10.4f %9.1f %9.1f %10.2f %10.2f %8s%s\n",
			s, k, ow, nw, ons, nns, osp, nsp, r, note
	}'
	n=$((n + 1))
done <<<"$old"
if [ "$n" -eq 0 ]; then
	echo "bench/compare.sh: no scenario ran in both files" >&2
	exit 1
fi
