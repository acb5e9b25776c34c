#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# python.sh BUILD: the eevdf Python package's pytest suite (python/tests)
# against this build's libeevdf.so and eevdf-sim.  pytest comes from
# Debian's python3-pytest (make deps-test): the first python3 on PATH that
# has it runs the suite, else /usr/bin/python3; without pytest anywhere
# the suite is skipped, with a message.
set -u
BUILD=${1:?usage: tests/python.sh BUILD}
cd "$(dirname "$0")/.." || exit 2
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
	exit 0
fi
export EEVDF_LIB="$PWD/$BUILD/libeevdf.so.0"
export EEVDF_SIM="$PWD/$BUILD/eevdf-sim"
exec "$py" -m pytest -q -rs -p no:cacheprovider python/tests
