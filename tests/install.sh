#!/bin/bash
# SPDX-License-Identifier: MIT
# make install into a temporary prefix, then build examples/shares.c
# against the installed library with pkg-config, shared and static, and
# run it; then a DESTDIR-staged install and make uninstall.
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok    $1"; }
bad() { fail=$((fail + 1)); echo "FAIL  $1: $2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make="make --no-print-directory -s"
cc=${CC:-cc}

if ! command -v pkg-config >/dev/null; then
	echo "install.sh: pkg-config is missing (make deps installs it)" >&2
	exit 1
fi

prefix=$tmp/prefix
if $make install PREFIX="$prefix" >"$tmp/log" 2>&1; then
	ok "make install PREFIX=..."
else
	bad "make install PREFIX=..." "$(tail -5 "$tmp/log")"
fi
for f in bin/eevdf-sim lib/libeevdf.a lib/libeevdf.so lib/libeevdf.so.0 \
	include/eevdf/eevdf.h include/eevdf/workload.h \
	include/eevdf/machine.h share/eevdf-sim/machines/i7-4790.json \
	lib/pkgconfig/eevdf.pc lib/pkgconfig/eevdf-static.pc \
	share/man/man1/eevdf-sim.1 share/doc/eevdf-sim/README.md \
	share/doc/eevdf-sim/workload-format.md \
	share/doc/eevdf-sim/ARCHITECTURE.md; do
	[ -e "$prefix/$f" ] || bad "installed $f" "missing"
done
soname=$(objdump -p "$prefix/lib/libeevdf.so" 2>/dev/null |
	awk '/SONAME/ { print $2 }')
if [ "$soname" = libeevdf.so.0 ]; then
	ok "libeevdf.so has soname libeevdf.so.0"
else
	bad "libeevdf.so has soname libeevdf.so.0" "'$soname'"
fi

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
flags=$(pkg-config --cflags --libs eevdf 2>"$tmp/err")
if [ -z "$flags" ]; then
	bad "pkg-config --cflags --libs eevdf" "$(cat "$tmp/err")"
# shellcheck disable=SC2086 # flags split on purpose
elif ! $cc -std=c11 -Wall -Wextra -Werror examples/shares.c $flags \
	-o "$tmp/shares" 2>"$tmp/err"; then
	bad "examples/shares.c builds against the installed library" \
		"$(head -5 "$tmp/err")"
elif ! LD_LIBRARY_PATH=$prefix/lib "$tmp/shares" >"$tmp/out" 2>&1; then
	bad "the shared build runs" "$(cat "$tmp/out")"
elif ! LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/shares" | grep -q "$prefix/lib/libeevdf.so.0"; then
	bad "the shared build uses the installed libeevdf.so.0" \
		"$(LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/shares")"
else
	ok "examples/shares.c built with pkg-config runs on libeevdf.so.0"
fi
# the README's static link, as written there: nothing but libeevdf.a
flags=$(pkg-config --static --cflags --libs eevdf-static 2>"$tmp/err")
# shellcheck disable=SC2086 # flags split on purpose
if ! $cc -std=c11 examples/shares.c $flags -o "$tmp/shares-static" \
	2>"$tmp/err"; then
	bad "static build with pkg-config --static eevdf-static" \
		"$(head -5 "$tmp/err")"
elif ldd "$tmp/shares-static" 2>/dev/null | grep -q libeevdf; then
	bad "the static build has no libeevdf.so" \
		"$(ldd "$tmp/shares-static" | grep libeevdf)"
elif ! "$tmp/shares-static" | cmp -s - "$tmp/out"; then
	bad "static and shared builds print the same" "differ"
else
	ok "pkg-config --static eevdf-static links libeevdf statically, same output"
fi
if MANPATH=$prefix/share/man man -w eevdf-sim >/dev/null 2>&1 ||
	! command -v man >/dev/null; then
	ok "man page found under the prefix"
else
	bad "man page found under the prefix" "man -w eevdf-sim failed"
fi

# the installed CLI finds the installed workloads and machines: one
# section each, a line per file
count() { sed -n "/^$1 in /,/^\$/p" "$tmp/list" | grep -c '^  '; }
if "$prefix/bin/eevdf-sim" list >"$tmp/list" 2>&1 &&
	grep -q "^workloads in $prefix/share/eevdf-sim/workloads:" "$tmp/list" &&
	[ "$(count workloads)" -eq "$(ls workloads/*.json | wc -l)" ]; then
	ok "the installed eevdf-sim lists the installed workloads"
else
	bad "the installed eevdf-sim lists the installed workloads" \
		"$(head -3 "$tmp/list")"
fi
if grep -q "^machines in $prefix/share/eevdf-sim/machines:" "$tmp/list" &&
	[ "$(count machines)" -eq "$(ls workloads/machines/*.json | wc -l)" ]; then
	ok "the installed eevdf-sim lists the installed machines"
else
	bad "the installed eevdf-sim lists the installed machines" \
		"$(grep -A2 '^machines' "$tmp/list" | head -3)"
fi
if grep -q "^sweeps in $prefix/share/eevdf-sim/workloads/sweeps:" "$tmp/list" &&
	[ "$(count sweeps)" -eq "$(ls workloads/sweeps/*.json | wc -l)" ] &&
	! grep -q '(invalid' "$tmp/list"; then
	ok "the installed eevdf-sim lists the installed sweep specs, all valid"
else
	bad "the installed eevdf-sim lists the installed sweep specs" \
		"$(grep -A3 '^sweeps' "$tmp/list" | head -4)"
fi
# and --machine NAME finds an installed machine
if "$prefix/bin/eevdf-sim" validate --machine i7-4790 \
	"$prefix/share/eevdf-sim/workloads/two-hogs.json" >"$tmp/out" 2>&1; then
	ok "the installed eevdf-sim finds --machine i7-4790"
else
	bad "the installed eevdf-sim finds --machine i7-4790" "$(head -3 "$tmp/out")"
fi

# the installed sweep specs find the installed workload (../tbench.json)
# and machine (i7-4790 by name): one point of the README's sweep
spec=$prefix/share/eevdf-sim/workloads/sweeps/tbench-kernels.json
if "$prefix/bin/eevdf-sim" sweep "$spec" "$tmp/sweep" --point 0 \
	--no-progress >"$tmp/out" 2>&1 &&
	"$prefix/bin/eevdf-sim" merge "$tmp/sweep" --allow-missing \
		>>"$tmp/out" 2>&1 &&
	grep -q '^cfs-6.1  *default  *8  *1 ' "$tmp/out"; then
	ok "an installed sweep spec runs from the install"
else
	bad "an installed sweep spec runs from the install" "$(head -5 "$tmp/out")"
fi

stage=$tmp/stage
if $make install DESTDIR="$stage" PREFIX=/usr >"$tmp/log" 2>&1 &&
	[ -x "$stage/usr/bin/eevdf-sim" ] &&
	grep -qx 'prefix=/usr' "$stage/usr/lib/pkgconfig/eevdf.pc"; then
	ok "DESTDIR install stages under DESTDIR with the final prefix"
else
	bad "DESTDIR install" "$(tail -5 "$tmp/log")"
fi
$make uninstall DESTDIR="$stage" PREFIX=/usr >"$tmp/log" 2>&1
left=$(find "$stage" -type f -o -type l)
if [ -z "$left" ]; then
	ok "make uninstall removes every installed file"
else
	bad "make uninstall removes every installed file" "$left"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
