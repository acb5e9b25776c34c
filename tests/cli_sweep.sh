#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_sweep.sh SIMBINARY: eevdf-sim sweep and merge, run here.  A point's
# file is what 'run' prints; --jobs 1 and 2 write the same bytes and the
# same tables; a sweep killed half-way and run again ends as one that was
# not; a point that fails is recorded and the others complete; merge's
# statistics are those of the points' own figures; bad specs and options
# exit 2 naming what is wrong; the emitted Slurm script and parallel job
# list run the same points (the engines themselves: sweep_parallel.sh and
# sweep_slurm.sh).
# Prints one line per check and ends with "N passed, M failed".
set -u

SIM=${1:?usage: cli_sweep.sh SIMBINARY}
SIM=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM")

# shellcheck source=tests/cli_lib.sh
. "$(dirname "$0")/cli_lib.sh"
cd "$tmp" || exit 2

# A small workload whose figures move with the seed; with init=0 every
# task waits on the semaphore for ever: a run that fails, not a bad file.
cat >w.json <<'J'
{"format": "eevdf-sim-workload/1", "name": "mix", "duration": "200ms",
 "params": {"n": 3, "init": 1},
 "objects": [{"type": "sem", "name": "s", "initial": "${init}"}],
 "tasks": [{"name": "w", "count": "${n}", "program": [{"loop": {"body": [
    {"wait": {"sem": "s"}}, {"run": {"dist": "exp", "mean": "1ms"}},
    {"post": {"sem": "s"}}, {"sleep": {"for": {"dist": "exp", "mean": "2ms"}}}]}}]}]}
J
# 2 kernels x 2 feature sets x 2 task counts x 3 seeds = 24 points
cat >s.json <<'J'
{"format": "eevdf-sim-sweep/1", "name": "t", "workload": "w.json",
 "fixed": {"cpus": 2, "duration": "100ms"},
 "axes": {"kernel": ["6.6", "6.18"],
          "features": {"default": "", "nopl": "NO_PLACE_LAG"},
          "param.n": [2, 3], "seed": 3},
 "metrics": ["total_delay_sum_ns", "context_switches"],
 "baseline": {"kernel": "6.6", "features": "default"}}
J

# merged DIR PREFIX: every format of merge DIR into PREFIX.{txt,csv,json,md}
merged() {
	local f ext
	for f in text csv json md; do
		ext=$f
		[ "$f" = text ] && ext=txt
		"$SIM" merge "$1" --format "$f" >"$2.$ext" 2>"$2.err" || return 1
	done
}

# --list: the points, numbered from 0, the last axis fastest
expect_ok "--list prints the points" sweep s.json --list &&
	if [ "$(wc -l <"$tmp/out")" -eq 25 ] &&
		grep -q '^     0  [0-9a-f]\{16\}  kernel=6.6 features=default n=2 seed=1$' "$tmp/out" &&
		grep -q '^    23  [0-9a-f]\{16\}  kernel=6.18 features=nopl n=3 seed=3$' "$tmp/out"; then
		ok "--list prints the points"
	else
		bad "--list prints the points" "$(head -3 "$tmp/out")"
	fi

# the same sweep with one worker and with two
run_ok "sweep --jobs 1" sweep s.json d1 --jobs 1
grep -q "24 points: 24 ran, 0 were already done, 0 failed" "$tmp/err" &&
	ok "the summary counts the points" ||
	bad "the summary counts the points" "$(cat "$tmp/err")"
run_ok "sweep --jobs 2" sweep s.json -o d2 --jobs 2
n=$(find d1/points -name '*.json' | wc -l)
[ "$n" -eq 24 ] && ok "one results file per point" || bad "one results file per point" "$n files"
diff -r d1 d2 >/dev/null && ok "--jobs 1 and --jobs 2 write the same bytes" ||
	bad "--jobs 1 and --jobs 2 write the same bytes" "$(diff -r d1 d2 | head -3)"
if merged d1 m1 && merged d2 m2; then
	same=1
	for e in txt csv json md; do cmp -s "m1.$e" "m2.$e" || same=0; done
	[ $same = 1 ] && ok "the merged tables do not depend on --jobs" ||
		bad "the merged tables do not depend on --jobs" "differ"
else
	bad "merge" "$(cat m1.err m2.err 2>/dev/null | head -3)"
fi

# a point's file is what run prints, to the byte, and rerun reproduces it
python3 - d1 "$SIM" <<'PY' && ok "a point's file is 'eevdf-sim run ... --format json'" || bad "a point's file is 'eevdf-sim run ... --format json'" "differs"
import json, subprocess, sys
d, sim = sys.argv[1], sys.argv[2]
m = json.load(open(d + "/manifest.json"))
for p in (m["points"][0], m["points"][17]):
    cmd = p["command_line"]
    assert cmd[:2] == ["eevdf-sim", "run"], cmd
    assert "--seed" in cmd and cmd[-2:] == ["--format", "json"], cmd
    out = subprocess.run([sim] + cmd[1:], capture_output=True, check=True).stdout
    assert out == open(d + "/" + p["file"], "rb").read(), p["file"]
PY
expect_ok "rerun --verify of a point's file" rerun "d1/$(python3 -c 'import json; print(json.load(open("d1/manifest.json"))["points"][5]["file"])')" --verify && ok "rerun --verify of a point's file"

# merge's figures are the points' own, worked out again here
python3 - d1 m1.json <<'PY' && ok "merge: mean, stddev, min, max, 95% CI and ratios of the points' figures" || bad "merge statistics" "differ"
import json, math, sys
d, merged = sys.argv[1], json.load(open(sys.argv[2]))
man = json.load(open(d + "/manifest.json"))
t975 = {2: 4.303}  # NIST, 0.975, 2 degrees of freedom: 3 seeds
rows = {}
for p in man["points"]:
    v = p["values"]
    key = (v["kernel"], v["features"], v["param.n"])
    r = json.load(open(d + "/" + p["file"]))
    rows.setdefault(key, []).append(r["summary"])
assert len(merged["rows"]) == 8, len(merged["rows"])
for row in merged["rows"]:
    c = row["config"]
    key = (c["kernel"], c["features"], c["param.n"])
    base = (("6.6", "default") + key[2:])
    for name in ("total_delay_sum_ns", "context_switches"):
        xs = [s[name] for s in rows[key]]
        n = len(xs)
        mean = sum(xs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
        half = t975[n - 1] * sd / math.sqrt(n)
        got = row["metrics"][name]
        close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))
        assert close(got["mean"], mean), (key, name, got["mean"], mean)
        assert close(got["stddev"], sd), (key, name)
        assert got["min"] == min(xs) and got["max"] == max(xs)
        assert close(got["ci95"][0], mean - half) and close(got["ci95"][1], mean + half)
        bx = [s[name] for s in rows[base]]
        assert close(got["vs_baseline"], mean / (sum(bx) / len(bx))), (key, name)
        assert got["values"] == xs
PY
grep -q '^t: 24 points, 8 configurations x 3 seeds (1, 2, 3)$' m1.txt &&
	grep -q '^baseline: kernel=6.6 features=default$' m1.txt &&
	grep -Eq '^kernel +features +param\.n +n +mean +stddev +min +max +ci95 \+- +vs 6\.6/default$' m1.txt &&
	grep -Eq '^6\.6 +default +2 +3 .* 1\.000$' m1.txt &&
	ok "merge's text table: header, a block per metric, 'vs 6.6/default'" ||
	bad "merge's text table" "$(head -6 m1.txt)"
grep -q '^| kernel | features | ' m1.md && grep -q '| --: |' m1.md && grep -q '±' m1.md &&
	ok "merge --format md is a Markdown table" || bad "merge --format md" "$(head -6 m1.md)"
head -1 m1.csv | grep -q '^kernel,features,param.n,total_delay_sum_ns.n,total_delay_sum_ns.mean,total_delay_sum_ns.stddev,total_delay_sum_ns.min,total_delay_sum_ns.max,total_delay_sum_ns.ci95_lo,total_delay_sum_ns.ci95_hi,total_delay_sum_ns.vs_baseline,context_switches.n,' &&
	[ "$(wc -l <m1.csv)" -eq 9 ] && ok "merge --format csv: one row per configuration" ||
	bad "merge --format csv" "$(head -2 m1.csv)"
expect_ok "merge --baseline none --metric" merge d1 --baseline none --metric max_delay_ns --format csv &&
	head -1 "$tmp/out" | grep -qx 'kernel,features,param.n,max_delay_ns.n,max_delay_ns.mean,max_delay_ns.stddev,max_delay_ns.min,max_delay_ns.max,max_delay_ns.ci95_lo,max_delay_ns.ci95_hi' &&
	ok "merge --baseline none --metric"
expect_ok "merge --baseline nopl" merge d1 --baseline features=nopl &&
	grep -Eq '^6\.6 +nopl +2 +3 .* 1\.000$' "$tmp/out" && ok "merge --baseline features=nopl"
expect_ok "merge -o FILE" merge d1 -o m1.again.txt && cmp -s m1.txt m1.again.txt &&
	! leftovers m1.again.txt.tmp && ok "merge -o FILE"

# two workloads: an axis; a figure only one has leaves the other's empty
cat >w2.json <<'J'
{"format": "eevdf-sim-workload/1", "name": "ops", "duration": "50ms",
 "metrics": {"ops": {"type": "counter"}},
 "tasks": [{"name": "o", "program": [{"loop": {"body": [
    {"run": {"dist": "exp", "mean": "1ms"}}, {"count": {"metric": "ops", "add": 1}}]}}]}]}
J
cat >two.json <<'J'
{"format": "eevdf-sim-sweep/1", "workload": {"mix": "w.json", "ops": "w2.json"},
 "fixed": {"cpus": 2, "duration": "50ms"}, "axes": {"seed": 2}}
J
run_ok "a sweep of two workloads" sweep two.json dw
expect_ok "merge of two workloads' figures" merge dw --metric ops --metric context_switches &&
	grep -Eq '^mix +0 +- +- +- +- +-$' "$tmp/out" && grep -Eq '^ops +2 +[0-9]' "$tmp/out" &&
	grep -q "2 of 4 points have no figure 'ops'" "$tmp/err" &&
	ok "a figure of one workload only: the other's cells are empty, and said so" ||
	bad "a figure of one workload only" "$(cat "$tmp/out" "$tmp/err")"

# a rerun has nothing to do and changes nothing
cp -r d1 d1.before
run_ok "a rerun of a finished sweep" sweep s.json d1 --jobs 2
grep -q "24 points: 0 ran, 24 were already done" "$tmp/err" && diff -r d1 d1.before >/dev/null &&
	ok "a rerun skips every point and changes nothing" ||
	bad "a rerun skips every point" "$(cat "$tmp/err")"
run_ok "--force runs them again" sweep s.json d1 --jobs 2 --force
grep -q "24 points: 24 ran" "$tmp/err" && diff -r d1 d1.before >/dev/null &&
	ok "--force runs every point again, to the same bytes" || bad "--force" "$(cat "$tmp/err")"

# --point: only those
run_ok "--point 0-2,5" sweep s.json d3 --point 0-2,5 --jobs 2
[ "$(find d3/points -name '*.json' | wc -l)" -eq 4 ] && ok "--point runs only its points" ||
	bad "--point runs only its points" "$(ls d3/points)"

# Resume: kill a sweep half-way, its workers too, as a node going down
# would: the sweep's test hook SIGKILLs its process group when 8 points
# are done, so the test stops at a known place.  Then plant what a crash
# can leave (a dead process's temporary file) and what it cannot (a
# damaged results file), and run it again.
run_ok "the sweep, uninterrupted" sweep s.json full --jobs 2
{
	EEVDF_SWEEP_TEST_KILL_AFTER=8 setsid "$SIM" sweep s.json part --jobs 2 >/dev/null 2>&1
	rc=$?
} 2>/dev/null
got=$(find part/points -name '*[0-9a-f].json' | wc -l)
if [ $rc -eq 137 ] && [ "$got" -ge 8 ] && [ "$got" -lt 24 ]; then
	ok "the sweep was killed half-way ($got of 24 points)"
else
	bad "the sweep was killed half-way" "exit $rc, $got of 24 points when killed"
fi
last=$(python3 -c 'import json; print(json.load(open("full/manifest.json"))["points"][23]["file"])')
echo '{"format": "eevdf-sim-result/1", "trunc' >"part/$last"
: >"part/$last.tmp.999999999"
expect_ok "the rerun after the kill" sweep s.json part --jobs 2
grep -q "running point 23 again" "$tmp/err" && ok "a damaged results file is run again" ||
	bad "a damaged results file is run again" "$(cat "$tmp/err")"
grep -q "24 points: $((24 - got + 1)) ran, $((got - 0)) were already done" "$tmp/err" ||
	grep -q "24 points: $((24 - got)) ran, $got were already done" "$tmp/err" ||
	bad "the rerun runs what is missing" "$(cat "$tmp/err")"
diff -r full/points part/points >/dev/null && ok "resumed results equal an uninterrupted run's, no temporary file left" ||
	bad "resumed results equal an uninterrupted run's" "$(diff -r full/points part/points | head -3)"
if merged full mf && merged part mp && cmp -s mf.txt mp.txt && cmp -s mf.json mp.json; then
	ok "the resumed sweep merges to the same table"
else
	bad "the resumed sweep merges to the same table" "differ"
fi

# A point whose workload fails: recorded, the others complete, merge says.
cat >f.json <<'J'
{"format": "eevdf-sim-sweep/1", "name": "f", "workload": "w.json",
 "fixed": {"cpus": 2, "duration": "100ms"},
 "axes": {"param.init": [1, 0], "seed": 2}}
J
expect_error "a failing point: exit 2, named" "point 2 (init=0 seed=1) failed" sweep f.json fd --jobs 2
grep -q "deadlock" "$tmp/err" && grep -q "4 points: 2 ran, 0 were already done, 2 failed" "$tmp/err" &&
	ok "the failure's reason is shown, and the other points ran" ||
	bad "the failure's reason is shown" "$(cat "$tmp/err")"
nerr=$(find fd/points -name '*.error.json' | wc -l)
nres=$(find fd/points -name '*[0-9a-f].json' | wc -l)
[ "$nerr" -eq 2 ] && [ "$nres" -eq 2 ] && ok "failed points leave NAME.error.json, the others results" ||
	bad "failed points leave NAME.error.json" "$nerr errors, $nres results"
python3 - fd <<'PY' && ok "the error file: command, exit status, message" || bad "the error file" "incomplete"
import glob, json, sys
for f in glob.glob(sys.argv[1] + "/points/*.error.json"):
    e = json.load(open(f))
    assert e["format"] == "eevdf-sim-sweep-error/1"
    assert e["command_line"][:3] == ["eevdf-sim", "run", "w.json"], e["command_line"]
    assert "init=0" in e["command_line"] and e["exit_status"] == 2 and e["signal"] is None
    assert "deadlock" in e["error"], e["error"]
PY
expect_error "merge fails on points without results" "point 2 (param.init=0 seed=1): failed: " merge fd
expect_ok "merge --allow-missing" merge fd --allow-missing --metric context_switches &&
	grep -Eq '^ *0 +0 +- +- +- +- +-$' "$tmp/out" && grep -q "2 without results" "$tmp/out" &&
	ok "merge --allow-missing tabulates what is there" || bad "merge --allow-missing" "$(cat "$tmp/out")"
expect_error "a rerun tries the failed points again" "4 points: 0 ran, 2 were already done, 2 failed" sweep f.json fd

# checked before anything runs: a configuration the workload rejects
cat >bad.json <<'J'
{"format": "eevdf-sim-sweep/1", "workload": "w.json",
 "axes": {"param.n": [2, "x"], "seed": 2}}
J
expect_error "a point that cannot run stops the sweep before any runs" "point 2 (n=x seed=1) cannot run" sweep bad.json bd
[ ! -e bd/points ] || [ -z "$(ls bd/points)" ] && ok "nothing ran" || bad "nothing ran" "$(ls bd/points)"

# bad specs and options: exit 2 and a message naming the culprit
printf '{"format": "eevdf-sim-sweep/1", "workload": "w.json",\n "axes": {"kernal": ["6.6"]}}\n' >typo.json
expect_error "an unknown axis names its path" "typo.json: axes.kernal: unknown axis 'kernal' (did you mean 'kernel'?)" sweep typo.json
printf '{"format": "eevdf-sim-sweep/1",\n "workload": }\n' >syntax.json
expect_error "a JSON syntax error names the line" "syntax.json:2:" sweep syntax.json
expect_error "a missing spec names it" "nope.json" sweep nope.json
expect_error "--point past the last" "point 24 does not exist" sweep s.json --point 24
expect_error "--point malformed" "--point: expected K, A-B" sweep s.json --point 3-1
expect_error "--emit of an unknown engine" "unknown engine 'pbs'" sweep s.json --emit pbs
expect_error "--chunk without --emit" "go with --emit" sweep s.json --chunk 2
expect_error "--emit parallel with a Slurm option" "takes --chunk only" sweep s.json --emit parallel --time 1:00
expect_error "--jobs 0" "--jobs" sweep s.json --jobs 0
expect_error "a second directory" "given twice" sweep s.json a -o b
expect_error "merge of a directory without a manifest" "no manifest.json" merge "$tmp"
expect_error "merge --metric of no figure names it" "no point has the figure 'nosuch'" merge d1 --metric nosuch
expect_error "merge --baseline of no value" "'9.9' is not a value of axis 'kernel'" merge d1 --baseline kernel=9.9
expect_error "merge --baseline of the seed" "the seed" merge d1 --baseline seed=1
expect_error "merge --format unknown" "unknown format 'xml'" merge d1 --format xml
# --point shares the manifest --emit wrote: another spec's is refused
sed 's/"name": "t"/"name": "t", "description": "edited"/' s.json >s2.json
expect_error "--point into the directory of another version of the spec" "written for another version" sweep s2.json d3 --point 6

# --emit slurm: the script, then its body run as array task 3 would
run_ok "--emit slurm" sweep s.json es --emit slurm --chunk 2 --max-running 4 \
	--time 00:05:00 --mem 200M --partition debug --cpus-per-task 2 --sbatch '--qos=short'
sb=es/sweep.sbatch
if grep -qx '#SBATCH --array=0-11%4' "$sb" && grep -q '^#SBATCH --output=/.*/es/slurm/%A_%a.out$' "$sb" &&
	grep -q '^#SBATCH --error=/.*/es/slurm/%A_%a.err$' "$sb" && grep -qx "#SBATCH --chdir=$tmp" "$sb" &&
	grep -qx '#SBATCH --time=00:05:00' "$sb" && grep -qx '#SBATCH --mem=200M' "$sb" &&
	grep -qx '#SBATCH --partition=debug' "$sb" && grep -qx '#SBATCH --cpus-per-task=2' "$sb" &&
	grep -qx '#SBATCH --qos=short' "$sb" && [ -d es/slurm ] && sh -n "$sb"; then
	ok "the sbatch script: array with a % limit, logs per task, requests"
else
	bad "the sbatch script" "$(cat "$sb")"
fi
if SLURM_ARRAY_TASK_ID=3 SLURM_CPUS_PER_TASK=2 EEVDF_SIM="$SIM" sh "$sb" 2>/dev/null &&
	[ "$(find es/points -name '*[0-9a-f].json' | wc -l)" -eq 2 ] &&
	for k in 6 7; do
		f=$(python3 -c "import json,sys; print(json.load(open('es/manifest.json'))['points'][$k]['file'])")
		cmp -s "es/$f" "d1/$f" || exit 1
	done; then
	ok "array task 3 runs points 6-7, to the bytes of the local run"
else
	bad "array task 3 runs points 6-7" "$(ls es/points)"
fi

# --emit parallel: each line stands alone; run them from elsewhere
run_ok "--emit parallel" sweep s.json ep --emit parallel --chunk 5
[ "$(wc -l <ep/parallel.jobs)" -eq 5 ] && grep -q "^cd $tmp && .* sweep s.json --point 20-23 --jobs 1 --no-progress ep$" ep/parallel.jobs &&
	ok "the parallel job list: a self-contained line per chunk" || bad "the parallel job list" "$(cat ep/parallel.jobs)"
if (cd / && while IFS= read -r line; do bash -c "$line" 2>/dev/null || exit 1; done <"$tmp/ep/parallel.jobs") &&
	diff -r d1/points ep/points >/dev/null; then
	ok "the job list's lines, run from /, give the local run's results"
else
	bad "the job list's lines" "$(diff -r d1/points ep/points | head -3)"
fi

finish
