#!/bin/bash
# SPDX-License-Identifier: MIT
# bench/compare.sh OLD.json NEW.json: the per-scenario speed ratio of two
# eevdf-bench JSON files (build/bench.json of two commits).  For each
# scenario in both: the median wall seconds of eevdf_sim_run(), ns per
# event and simulated s per wall s of each, and NEW's speed-up over OLD
# (OLD wall / NEW wall: above 1 is faster).  A scenario whose event count
# or results digest differs is flagged: its two runs did not simulate the
# same thing, so the ratio compares different work.
#
# It reads the layout eevdf-bench writes (one key a line, bench/output.c),
# with awk alone, so it runs wherever the bench does.
set -u
usage() {
	echo "usage: bench/compare.sh OLD.json NEW.json" >&2
	exit 2
}
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

# One line a scenario that ran: name wall_s ns_per_event speed events digest
rows() {
	awk '
	function val(line) {
		sub(/^[^:]*:[ \t]*/, "", line)
		sub(/,[ \t]*$/, "", line)
		gsub(/"/, "", line)
		return line
	}
	/^\t\t\{$/ { name = ""; ok = 0; wall = ns = speed = ev = "-"; dg = "-" }
	/^\t\t\t"name": / { name = val($0) }
	/^\t\t\t"status": "ok"/ { ok = 1 }
	/^\t\t\t"events": / { ev = val($0) }
	/^\t\t\t"results_digest": / { dg = val($0) }
	/^\t\t\t"wall_s": / { wall = val($0) }
	/^\t\t\t"ns_per_event": / { ns = val($0) }
	/^\t\t\t"sim_s_per_wall_s": / { speed = val($0) }
	/^\t\t\}/ { if (ok && name != "") print name, wall, ns, speed, ev, dg }
	' "$1"
}

meta() { # the file's "git" and "compiler", when it records them
	awk -F'"' '
	/^\t"git": / { g = $4 }
	/^\t"compiler": / { c = $4 }
	END { printf "%s, %s", g == "" ? "git ?" : g, c == "" ? "compiler ?" : c }
	' "$1"
}

old=$(rows "$1")
new=$(rows "$2")
echo "# OLD: $1 ($(meta "$1"))"
echo "# NEW: $2 ($(meta "$2"))"
echo "# speed-up = OLD wall / NEW wall (eevdf_sim_run() medians): above 1, NEW is faster"
printf '%-16s %10s %10s %9s %9s %10s %10s %8s\n' scenario "old wall" \
	"new wall" "old ns/ev" "new ns/ev" "old sim/s" "new sim/s" speed-up
n=0
while read -r name ow ons osp oev odg; do
	[ -n "$name" ] || continue
	line=$(printf '%s\n' "$new" | awk -v n="$name" '$1 == n')
	[ -n "$line" ] || continue
	read -r _ nw nns nsp nev ndg <<<"$line"
	note=""
	[ "$oev" = "$nev" ] || note=" (events differ: $oev vs $nev)"
	[ "$odg" = "-" ] || [ "$ndg" = "-" ] || [ "$odg" = "$ndg" ] ||
		note="$note (results digests differ)"
	awk -v s="$name" -v ow="$ow" -v nw="$nw" -v ons="$ons" -v nns="$nns" \
		-v osp="$osp" -v nsp="$nsp" -v note="$note" 'BEGIN {
		r = nw > 0 ? sprintf("%.3fx", ow / nw) : "-"
		printf "%-16s %10.4f %10.4f %9.1f %9.1f %10.2f %10.2f %8s%s\n",
			s, ow, nw, ons, nns, osp, nsp, r, note
	}'
	n=$((n + 1))
done <<<"$old"
if [ "$n" -eq 0 ]; then
	echo "bench/compare.sh: no scenario ran in both files" >&2
	exit 1
fi
