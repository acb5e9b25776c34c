#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sweep_slurm.sh SIMBINARY: a sweep on a real Slurm cluster.  The test
# starts its own single-node cluster on localhost (munged with a fresh key,
# slurmctld and slurmd from a minimal slurm.conf with proctrack/linuxproc
# and task/none, all in a temporary directory, on free ports), submits a
# 12-point sweep as the job array of --emit slurm, waits for it with a
# bounded timeout, merges, and checks that the table equals the local
# --jobs 2 run's byte for byte.  It stops the daemons it started, on
# failure too.  Skipped, saying why, when it is not root or Debian's
# slurm-wlm and munge are not installed (make deps-cluster) or the
# daemons cannot start.
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: sweep_slurm.sh SIMBINARY}
SIM=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM")
# how long the array may take, and the daemons to come up
JOB_TIMEOUT=${SWEEP_SLURM_TIMEOUT:-150}
UP_TIMEOUT=30

# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
# shellcheck source=tests/sweep_lib.sh
. "$(dirname "$0")/sweep_lib.sh"
cd "$tmp" || exit 2

skip() {
	echo "SKIP  $1"
	echo "$pass passed, $fail failed, 1 skipped"
	exit 0
}

[ "$(id -u)" = 0 ] || skip "the Slurm daemons need root (this is uid $(id -u))"
for c in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
	command -v "$c" >/dev/null ||
		skip "$c is not installed: make deps-cluster installs Debian's slurm-wlm and munge"
done

c=$tmp/cluster
mkdir -p "$c/munge" "$c/state" "$c/spool" "$c/log" && chmod 700 "$c/munge"

# Stop what we started, by the pids they wrote, whatever happened; a
# signal now must not cut it short.
stop_cluster() {
	local f p n
	trap '' INT TERM
	for f in "$c/slurmd.pid" "$c/slurmctld.pid" "$c/munge/munged.pid"; do
		[ -s "$f" ] || continue
		p=$(cat "$f")
		kill "$p" 2>/dev/null || continue
		for n in $(seq 1 50); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM

# Two ports nothing listens on.
free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 100); do
		[ "$p" = "${1:-}" ] && continue
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || {
			echo "$p"
			return
		}
	done
	return 1
}
ctld_port=$(free_port) && slurmd_port=$(free_port "$ctld_port") ||
	skip "no free TCP port on 127.0.0.1"
host=$(hostname -s)

mungekey --create --keyfile="$c/munge/munge.key" 2>"$c/log/mungekey.err" &&
	chmod 600 "$c/munge/munge.key" ||
	skip "mungekey cannot make a key: $(cat "$c/log/mungekey.err")"
munged --socket="$c/munge/munge.sock" --key-file="$c/munge/munge.key" \
	--pid-file="$c/munge/munged.pid" --log-file="$c/munge/munged.log" \
	--seed-file="$c/munge/seed" --force 2>"$c/log/munged.err" ||
	skip "munged does not start: $(tail -2 "$c/log/munged.err")"

cat >"$c/slurm.conf" <<EOF
ClusterName=eevdfsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$c/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmctldLogFile=$c/log/slurmctld.log
SlurmdLogFile=$c/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$c/slurm.conf

start=$(date +%s)
slurmctld -f "$c/slurm.conf" 2>"$c/log/slurmctld.err" ||
	skip "slurmctld does not start: $(tail -2 "$c/log/slurmctld.err")"
slurmd -f "$c/slurm.conf" 2>"$c/log/slurmd.err" ||
	skip "slurmd does not start: $(tail -2 "$c/log/slurmd.err")"
state=""
for _ in $(seq 1 $((UP_TIMEOUT * 5))); do
	state=$(sinfo -h -o %T 2>/dev/null | head -1)
	[ "$state" = idle ] && break
	sleep 0.2
done
[ "$state" = idle ] ||
	skip "the node did not come up in ${UP_TIMEOUT}s (state '$state'): $(tail -2 "$c/log/slurmd.log" 2>/dev/null)"
ok "a single-node cluster on localhost is up ($(($(date +%s) - start)) s)"

# in a directory whose name needs quoting, in #SBATCH lines too
mkdir "$tmp/a dir" && cd "$tmp/a dir" || exit 2
sweep_fixture slurm

run_ok "the local sweep, --jobs 2" sweep s.json local --jobs 2
"$SIM" merge local >local.txt && "$SIM" merge local --format csv >local.csv &&
	"$SIM" merge local --format json >local.json || bad "merge of the local run" "failed"

run_ok "--emit slurm" sweep s.json cl --emit slurm --chunk 2 --max-running 3 --time 00:10:00
grep -qx '#SBATCH --array=0-5%3' cl/sweep.sbatch && ok "an array of 6 tasks of 2 points, 3 at a time" ||
	bad "the array" "$(grep array cl/sweep.sbatch)"

start=$(date +%s)
job=$(sbatch --parsable cl/sweep.sbatch 2>"$tmp/sbatch.err")
if [ -z "$job" ]; then
	bad "sbatch accepts the script" "$(cat "$tmp/sbatch.err")"
	finish
	exit
fi
ok "sbatch accepts the script (job $job)"
done_=0
for _ in $(seq 1 $((JOB_TIMEOUT * 2))); do
	if [ -z "$(squeue -h -j "$job" 2>/dev/null)" ]; then
		done_=1
		break
	fi
	sleep 0.5
done
took=$(($(date +%s) - start))
if [ $done_ = 0 ]; then
	scancel "$job" 2>/dev/null
	bad "the array ends within ${JOB_TIMEOUT}s" "still queued or running: $(squeue -h -j "$job" | head -3)"
else
	ok "the array ran in $took s"
fi
# one line per array task: its state and exit code
states=$(scontrol -o show job "$job" 2>/dev/null |
	sed -n 's/.* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\).*/\1 \2/p' |
	sort | uniq -c | tr -s ' ')
[ "$states" = " 6 COMPLETED 0:0" ] && ok "every array task completed, exit 0" ||
	bad "every array task completed" "'$states'"
nout=$(find cl/slurm -name "${job}_*.out" | wc -l)
nerr=$(find cl/slurm -name "${job}_*.err" | wc -l)
[ "$nout" -eq 6 ] && [ "$nerr" -eq 6 ] && ok "an output and an error file per task" ||
	bad "an output and an error file per task" "$nout .out, $nerr .err"

"$SIM" merge cl >cl.txt 2>cl.err && "$SIM" merge cl --format csv >cl.csv &&
	"$SIM" merge cl --format json >cl.json || bad "merge of the Slurm run" "$(cat cl.err)"
cmp -s local.txt cl.txt && cmp -s local.csv cl.csv && cmp -s local.json cl.json &&
	ok "the merged table equals the local --jobs 2 run's, byte for byte" ||
	bad "the merged table equals the local run's" "$(diff local.txt cl.txt | head -5)"
diff -r local/points cl/points >/dev/null && ok "every point's file equals the local run's" ||
	bad "every point's file equals the local run's" "$(diff -r local/points cl/points | head -3)"

finish
