#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# seeds.sh TARGET: the seed inputs of a fuzz target, one path per line:
# the shipped files it reads, then its regression inputs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case ${1:?usage: seeds.sh TARGET} in
workload | run) ls "$root"/workloads/*.json ;;
machine) ls "$root"/workloads/machines/*.json ;;
rtapp) ls "$root"/workloads/rtapp-mixed.json "$root"/tests/rtapp/*.json ;;
cli) ls "$here"/seeds/cli/* ;;
sweep) ls "$root"/workloads/sweeps/*.json ;;
esac
ls "$here/regress/$1"/* 2>/dev/null
exit 0
