#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# layout.sh: the house as ARCHITECTURE.md draws it.
#  - includes in src/ go downward only: lib < machine < sched < engine <
#    workload, report (those two never include each other);
#  - a file names another folder's header by folder, its own by name;
#  - cli/, bench/, calibrate/ and examples/ include only the public
#    headers, their own and the build's generated gen/ headers;
#    bench/ceiling/ also the one internal header it times (sched/pelt.h);
#  - every function ARCHITECTURE.md names as `name()` is defined in src/,
#    cli/, bench/ or calibrate/.
# Run from anywhere; prints one line per check, then "N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 2

pass=0
fail=0
ok() { echo "ok    $1"; pass=$((pass + 1)); }
bad() { echo "FAIL  $1"; fail=$((fail + 1)); }

rank() {
	case $1 in
	lib) echo 0 ;;
	machine) echo 1 ;;
	sched) echo 2 ;;
	engine) echo 3 ;;
	workload | report) echo 4 ;;
	*) echo -1 ;;
	esac
}

folders="lib machine sched engine workload report"
for d in $folders; do
	[ -d "src/$d" ] || { bad "src/$d exists"; continue; }
	r=$(rank "$d")
	errs=""
	for f in src/"$d"/*.[ch]; do
		while IFS= read -r inc; do
			case $inc in
			*/*)
				to=${inc%%/*}
				[ "$to" = eevdf ] && continue
				t=$(rank "$to")
				if [ "$t" -lt 0 ]; then
					errs="$errs $f:$inc(unknown folder)"
				elif [ "$to" = "$d" ]; then
					errs="$errs $f:$inc(own folder by name)"
				elif [ "$t" -ge "$r" ]; then
					errs="$errs $f:$inc(up)"
				fi
				;;
			*)
				[ -f "src/$d/$inc" ] ||
					errs="$errs $f:$inc(not in src/$d)"
				;;
			esac
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
	if [ -z "$errs" ]; then
		ok "src/$d/ includes only what lies below it"
	else
		bad "src/$d/ includes:$errs"
	fi
done

# bench/ceiling/ times library internals alone (the arithmetic a scenario
# cannot avoid): of the internals, it names only the one it times.
for d in cli bench calibrate examples bench/ceiling; do
	errs=""
	extra="" # the one internal header the folder may name
	[ "$d" = bench/ceiling ] && extra=sched/pelt.h
	for f in "$d"/*.[ch]; do
		[ -f "$f" ] || continue
		while IFS= read -r inc; do
			case $inc in
			eevdf/*) ;;
			gen/*) ;; # written by the Makefile (git describe)
			*/*) [ "$inc" = "$extra" ] || errs="$errs $f:$inc" ;;
			*) [ -f "$d/$inc" ] || errs="$errs $f:$inc" ;;
			esac
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
	if [ -z "$errs" ]; then
		ok "$d/ includes only the public headers and its own${extra:+, and $extra}"
	else
		bad "$d/ includes internals:$errs"
	fi
done

# Every `name()` of ARCHITECTURE.md: a definition (a line that starts
# with the return type and has the name followed by '(', the name at the
# start of a line after a return type on the line before, or a macro).
names=$(grep -o '`[A-Za-z_][A-Za-z0-9_]*()`' ARCHITECTURE.md | tr -d '`()' |
	sort -u)
missing=""
n=0
for name in $names; do
	n=$((n + 1))
	if ! grep -rEq "^[a-z][a-zA-Z0-9_ *]*[ *]$name\(|^$name\(|^#define $name\(" \
		src cli bench calibrate --include='*.c' --include='*.h'; then
		missing="$missing $name"
	fi
done
if [ "$n" -lt 40 ]; then
	bad "ARCHITECTURE.md names at least 40 functions (it names $n)"
elif [ -z "$missing" ]; then
	ok "the $n functions ARCHITECTURE.md names are all defined"
else
	bad "ARCHITECTURE.md names functions that are not defined:$missing"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
