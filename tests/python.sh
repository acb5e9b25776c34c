#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# python.sh BUILD: the eevdf Python package.
#  - installed as a user would: 'make install' into a temporary prefix,
#    'pip install ./python' offline (no index) into a temporary directory
#    (from a copy: setuptools writes build/ and *.egg-info beside it),
#    then imported from there with nothing but PKG_CONFIG_PATH to find the
#    library: it must load the prefix's libeevdf.so.0 and run two hogs
#    (hog[0] runs 0-1 ms and 2-3 ms, hog[1] 1-2 ms: tests/cli_seeing.sh);
#  - its pytest suite (python/tests) against this build's libeevdf.so and
#    eevdf-sim.  pytest comes from Debian's python3-pytest (make
#    deps-test): the first python3 on PATH that has it runs the suite,
#    else /usr/bin/python3.
# What cannot run (no python3, pip, pkg-config or pytest) is skipped with
# a message.
set -u
BUILD=${1:?usage: tests/python.sh BUILD}
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0

if ! command -v python3 >/dev/null; then
	echo "SKIP  python: python3 is missing"
	exit 0
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
	echo "SKIP  pip install ./python: pip is missing (Debian: python3-pip)"
elif ! command -v pkg-config >/dev/null; then
	echo "SKIP  pip install ./python: pkg-config is missing"
elif ! make --no-print-directory -s install BUILD="$BUILD" \
	PREFIX="$tmp/prefix" >"$tmp/log" 2>&1; then
	echo "FAIL  make install for the Python check: $(tail -3 "$tmp/log")"
	status=1
elif ! mkdir "$tmp/src" || ! cp -r python/pyproject.toml python/README.md \
	python/_build python/eevdf "$tmp/src/" ||
	! PIP_DISABLE_PIP_VERSION_CHECK=1 python3 -m pip install --no-index \
		--no-deps --no-cache-dir --target "$tmp/site" "$tmp/src" \
		>"$tmp/log" 2>&1; then
	echo "FAIL  pip install ./python offline: $(tail -3 "$tmp/log")"
	status=1
elif (cd "$tmp" && env -u EEVDF_LIB -u EEVDF_SIM \
	PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" PYTHONPATH="$tmp/site" \
	python3 - "$OLDPWD/workloads/two-hogs.json" "$tmp/prefix/lib" \
	>"$tmp/log" 2>&1 <<'PY'); then
import os, sys
import eevdf
import eevdf._lib as lib
where = lib.load()._name
assert os.path.dirname(where) == sys.argv[2], where
assert os.path.dirname(eevdf.__file__).startswith(os.getcwd()), eevdf.__file__
r = eevdf.run(sys.argv[1], kernel="6.18", duration="3ms")
got = sorted((t["name"], t["cpu_ns"]) for t in r["tasks"])
assert got == [("hog[0]", 2000000), ("hog[1]", 1000000)], got
PY
	echo "ok    pip install ./python offline; imported, it finds the library by pkg-config and runs two hogs"
else
	echo "FAIL  the installed package: $(tail -5 "$tmp/log")"
	status=1
fi

py=""
for cand in python3 /usr/bin/python3; do
	if command -v "$cand" >/dev/null &&
		"$cand" -c 'import pytest' 2>/dev/null; then
		py=$cand
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIP  python/tests: no python3 with pytest (Debian: python3-pytest)"
	exit $status
fi
export EEVDF_LIB="$PWD/$BUILD/libeevdf.so.0"
export EEVDF_SIM="$PWD/$BUILD/eevdf-sim"
"$py" -m pytest -q -rs -p no:cacheprovider python/tests || status=1
exit $status
