# SPDX-License-Identifier: MIT
# The shipped workloads at the small sizes the tests run them at, shared by
# golden.sh and determinism.sh: "name|arguments of eevdf-sim run".
# (Sourced, not run.)
CASES=(
	"two-hogs|workloads/two-hogs.json --duration 2s"
	"nice-mix|workloads/nice-mix.json --duration 2s"
	"sleeper-vs-hog|workloads/sleeper-vs-hog.json --duration 2s"
	"pipe|workloads/pipe.json --param loops=2000"
	"hackbench|workloads/hackbench.json --param groups=2 --param fds=4 --param loops=200 --cpus 2"
	"schbench|workloads/schbench.json --param runtime=2s --cpus 4"
	"tbench|workloads/tbench.json --param nprocs=2 --param timelimit=500ms --cpus 2"
	"massive_intr|workloads/massive_intr.json --param nproc=4 --param runtime=2 --cpus 2"
	"cyclictest|workloads/cyclictest.json --param runtime=1s"
	"stress-futex|workloads/stress-futex.json --param timeout=200ms"
	"desktop-video|workloads/desktop-video.json --param runtime=1s --cpus 2"
	"blogbench-coarse|workloads/blogbench-coarse.json --param iterations=1 --param interval=500ms --cpus 2"
	"blogbench|workloads/blogbench.json --param iterations=1 --param interval=500ms --cpus 2"
	"dbench|workloads/dbench.json --param nprocs=2 --param timelimit=2s --param warmup=1s --cpus 2"
	"desktop|workloads/desktop.json --param runtime=1s --param hogs=2 --cpus 2"
	"starve|workloads/starve.json --param signals=2000"
	"spawn|workloads/spawn.json --param duration=200ms"
	"rtapp-mixed|workloads/rtapp-mixed.json --cpus 2 --duration 500ms"
	"rt-vs-fair|workloads/rt-vs-fair.json --param runtime=3s --kernel 6.8"
	"rr-turns|workloads/rr-turns.json --param runtime=1s"
	"deadline|workloads/deadline.json --param runtime=1s --cpus 2"
	"rt-push|workloads/rt-push.json --param runtime=500ms --cpus 4"
	"cgroup-shares|workloads/cgroup-shares.json --param runtime=2s"
	"cpu-max|workloads/cpu-max.json --param runtime=2s"
	"autogroup-make|workloads/autogroup-make.json --param runtime=2s"
)

