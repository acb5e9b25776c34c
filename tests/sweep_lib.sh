# SPDX-License-Identifier: MIT
# sweep_lib.sh: the sweep the engine tests run (sweep_parallel.sh,
# sweep_slurm.sh), written into the current directory: w.json, a small
# workload whose figures move with the seed, and s.json, 2 kernels x 2
# task counts x 3 seeds = 12 points named NAME ($1).

sweep_fixture() {
	cat >w.json <<'J'
{"format": "eevdf-sim-workload/1", "name": "mix", "duration": "200ms",
 "params": {"n": 3},
 "tasks": [{"name": "w", "count": "${n}", "program": [{"loop": {"body": [
    {"run": {"dist": "exp", "mean": "1ms"}},
    {"sleep": {"for": {"dist": "exp", "mean": "2ms"}}}]}}]}]}
J
	cat >s.json <<J
{"format": "eevdf-sim-sweep/1", "name": "$1", "workload": "w.json",
 "fixed": {"cpus": 2},
 "axes": {"kernel": ["6.6", "6.18"], "param.n": [2, 4], "seed": 3},
 "metrics": ["total_delay_sum_ns", "max_delay_ns"],
 "baseline": {"kernel": "6.6"}}
J
}
