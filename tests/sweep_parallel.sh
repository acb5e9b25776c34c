#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sweep_parallel.sh SIMBINARY: a sweep run by GNU parallel (Debian's
# `parallel`, installed by make deps-test) from the job list of --emit
# parallel: with --joblog, from another directory, through
# --sshloginfile (':' is this host, reached as parallel reaches any
# other), and with --resume-failed.  The merged table must equal the
# local --jobs 2 run's byte for byte, and so must every point's file.
# Skipped, saying so, when GNU parallel is not installed.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: sweep_parallel.sh SIMBINARY}
SIM=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM")

# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
# shellcheck source=tests/sweep_lib.sh
. "$(dirname "$0")/sweep_lib.sh"
cd "$tmp" || exit 2

if ! command -v parallel >/dev/null || ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "SKIP  GNU parallel is not installed (make deps-test installs Debian's parallel)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi

# in a directory whose name needs quoting, in #SBATCH lines too
mkdir "$tmp/a dir" && cd "$tmp/a dir" || exit 2
sweep_fixture p

run_ok "the local sweep, --jobs 2" sweep s.json local --jobs 2
"$SIM" merge local --format csv >local.csv && "$SIM" merge local >local.txt ||
	bad "merge of the local run" "failed"

# the job list, run by parallel from / with a job log
run_ok "--emit parallel" sweep s.json par --emit parallel
(cd / && parallel --will-cite --joblog "$tmp/a dir/par/parallel.log" --jobs 2 \
	<"$tmp/a dir/par/parallel.jobs" >/dev/null 2>"$tmp/par.err")
rc=$?
[ $rc -eq 0 ] && ok "parallel runs the job list" || bad "parallel runs the job list" "exit $rc: $(head -3 "$tmp/par.err")"
python3 - par/parallel.log <<'PY' && ok "the job log: 12 jobs, each exit 0" || bad "the job log" "$(cat par/parallel.log)"
import sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().splitlines()[1:]]
assert len(rows) == 12, len(rows)
assert all(r[6] == "0" and r[7] == "0" for r in rows), rows
PY
"$SIM" merge par --format csv >par.csv && "$SIM" merge par >par.txt
cmp -s local.csv par.csv && cmp -s local.txt par.txt &&
	ok "the merged table equals the local run's, byte for byte" ||
	bad "the merged table equals the local run's" "$(diff local.txt par.txt | head -5)"
diff -r local/points par/points >/dev/null && ok "every point's file equals the local run's" ||
	bad "every point's file equals the local run's" "$(diff -r local/points par/points | head -3)"

# through the ssh login machinery, chunks of 5: the lines stand alone
echo ':' >hosts
run_ok "--emit parallel --chunk 5" sweep s.json ssh --emit parallel --chunk 5
[ "$(wc -l <ssh/parallel.jobs)" -eq 3 ] && ok "12 points in 3 jobs of up to 5" ||
	bad "12 points in 3 jobs" "$(cat ssh/parallel.jobs)"
(cd / && parallel --will-cite --sshloginfile "$tmp/a dir/hosts" --joblog "$tmp/a dir/ssh/parallel.log" \
	<"$tmp/a dir/ssh/parallel.jobs" >/dev/null 2>"$tmp/ssh.err")
rc=$?
"$SIM" merge ssh --format csv >ssh.csv 2>/dev/null
[ $rc -eq 0 ] && cmp -s local.csv ssh.csv && ok "--sshloginfile: the same table" ||
	bad "--sshloginfile" "exit $rc: $(head -3 "$tmp/ssh.err")"

# --resume-failed: a job that failed (its point's results path taken by a
# directory, so the result cannot be renamed into place) runs again once
# the path is free, and it alone
run_ok "--emit parallel again" sweep s.json rf --emit parallel
f=$(python3 -c 'import json; print(json.load(open("rf/manifest.json"))["points"][4]["file"])')
mkdir "rf/$f"
(cd / && parallel --will-cite --joblog "$tmp/a dir/rf/parallel.log" --jobs 2 \
	<"$tmp/a dir/rf/parallel.jobs" >/dev/null 2>&1)
rc1=$?
rmdir "rf/$f"
(cd / && parallel --will-cite --joblog "$tmp/a dir/rf/parallel.log" --resume-failed --jobs 2 \
	<"$tmp/a dir/rf/parallel.jobs" >/dev/null 2>&1)
rc2=$?
jobs=$(($(wc -l <rf/parallel.log) - 1))
"$SIM" merge rf --format csv >rf.csv 2>/dev/null
[ $rc1 -eq 1 ] && [ $rc2 -eq 0 ] && [ "$jobs" -eq 13 ] && cmp -s local.csv rf.csv &&
	ok "--resume-failed runs the one failed job again" ||
	bad "--resume-failed" "exit $rc1 then $rc2, $jobs jobs in the log"

finish
