/* SPDX-License-Identifier: MIT */
/*
 * What each benchmark report of report.c reads and says: its headline
 * numbers (into the results' "summary", and what compare and check use by
 * default) and the workload metrics it needs.  eevdf-sim list --reports
 * prints this; tests/check_report.c holds it to what the formatters do.
 */
#include <string.h>

#include "eevdf/eevdf.h"

static const struct eevdf_report_info catalog[] = {
	{ "schbench",
	  "schbench: wakeup and request latency percentiles, RPS; with an "
	  "interval, the same blocks, sched delay and current rps every "
	  "interval",
	  "average_rps (rps, higher is better), wakeup_p99_us (us, lower), "
	  "request_p99_us (us, lower)",
	  "wakeup (hist, us), request (hist, us), rps (rate), requests "
	  "(counter, optional)" },
	{ "hackbench", "hackbench: the Time: line",
	  "time_s (s, lower is better)",
	  "time, a value in ns (optional: else the run's length)" },
	{ "perf-bench-messaging", "perf bench sched messaging: Total time",
	  "time_s (s, lower is better)",
	  "time, a value in ns (optional: else the run's length)" },
	{ "perf-bench-sched-pipe", "perf bench sched pipe: usecs/op, ops/sec",
	  "usecs_per_op (us, lower is better), ops_per_sec (ops/s, higher)",
	  "time, a value in ns (optional: else the run's length)" },
	{ "dbench", "dbench: the operation table and Throughput",
	  "throughput_mb_s (MB/s, higher is better), max_latency_ms (ms, "
	  "lower)",
	  "bytes (counter), oplat (hist, keyed by operation)" },
	{ "tbench", "tbench: as dbench",
	  "throughput_mb_s (MB/s, higher is better), max_latency_ms (ms, "
	  "lower)",
	  "bytes (counter), oplat (hist, keyed by operation)" },
	{ "massive_intr", "massive_intr: loops per process",
	  "loops_total (loops, higher is better), loops_min (loops, higher), "
	  "loops_spread (loops, lower)",
	  "loops (value, keyed by pid)" },
	{ "cyclictest", "cyclictest: Min/Act/Avg/Max per thread",
	  "latency_max_us (us, lower is better), latency_avg_us (us, lower)",
	  "lat (hist, us, keyed by thread)" },
	{ "starve",
	  "starve: its line and the real/user/sys of a shell's "
	  "timing",
	  "real_s (s, lower is better)", "elapsed (value, ns)" },
	{ "stress-ng", "stress-ng: the bogo ops table",
	  "bogo_ops_per_s (ops/s, higher is better)", "bogo_ops (counter)" },
	{ "unixbench", "UnixBench: a counted test's score line",
	  "score (the report's unit, default lps, higher is better)",
	  "iter (counter)" },
	{ "blogbench", "blogbench: writes and reads",
	  "writes (blogs, higher is better), reads (blogs, higher)",
	  "blogs_written (counter), blogs_read (counter)" },
	{ "video", "a video player: frames, drops, lateness percentiles",
	  "frames (frames, higher is better), dropped (frames, lower), "
	  "late_p99_us (us, lower)",
	  "frame_late (hist, us), frames (counter), dropped (counter, "
	  "optional)" },
};

size_t eevdf_report_count(void)
{
	return sizeof(catalog) / sizeof(catalog[0]);
}

const struct eevdf_report_info *eevdf_report_info(size_t i)
{
	return i < eevdf_report_count() ? &catalog[i] : NULL;
}
