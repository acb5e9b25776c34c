/* SPDX-License-Identifier: MIT */
/*
 * The I/O model with hand-worked numbers: a device of queue depth 1 and a
 * fixed service time completes one request per service time; page-cache
 * hits cost their CPU and no I/O; a work item queued on a bound workqueue
 * runs on the queuing CPU's kworker; an interrupt's handler time is billed
 * to the task it interrupts; a worker that sleeps in its work lets its
 * pool run the next one.  Every cost is zero unless a test sets it, so the
 * numbers are the model's own.  Also: NBENCH load files, and the loader's
 * errors for the new objects and ops.
 */
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "machine/costs.h"
#include "engine/dist.h"
#include "engine/io_cfg.h"
#include "engine/nbench.h"
#include "engine/sim.h"
#include "workload/workload_impl.h"

#define US 1000LL
#define MS 1000000LL

/* "costs": every entry 0 but the percentages, then extra ("k": v, ...). */
static char *zero_costs(const char *extra)
{
	static char buf[8192];
	size_t n = 0;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\"costs\": {");
	for (int i = 0; i < COST_NR_ENTRIES; i++) {
		char quoted[64];

		snprintf(quoted, sizeof(quoted), "\"%s\"",
			 eevdf__costs_name(i));
		if (eevdf__costs_is_pct(i) || (extra && strstr(extra, quoted)))
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s\"%s\": 0",
				      n > 10 ? ", " : "", eevdf__costs_name(i));
	}
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s}",
			      extra ? ", " : "", extra ? extra : "");
	ck_assert_uint_lt(n, sizeof(buf));
	return buf;
}

/* A workload built from parts: its objects, tasks, more top-level keys. */
static eevdf_sim *io_run(const char *objects, const char *tasks,
			 const char *extra_costs, const char *more, int ncpus,
			 eevdf_time until)
{
	char *doc = malloc(65536);
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_sim *sim;
	char err[256];
	int r;

	ck_assert_ptr_nonnull(doc);
	snprintf(doc, 65536,
		 "{\"format\": \"eevdf-sim-workload/1\", \"name\": \"io\", "
		 "%s, \"objects\": [%s], \"tasks\": [%s]%s%s}",
		 zero_costs(extra_costs), objects, tasks, more ? ", " : "",
		 more ? more : "");
	r = eevdf_workload_parse(doc, strlen(doc), "io.json", &wl, &d);
	ck_assert_msg(r == 0, "%s: %s", d.path, d.msg);
	eevdf_config_init(&cfg);
	cfg.nr_cpus = ncpus;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, err, sizeof(err)), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_int_eq(eevdf_sim_run(sim, until), 0);
	eevdf_workload_free(wl);
	free(doc);
	return sim;
}

static const struct eevdf_task_stats *
task_named(const eevdf_sim *sim, const char *name, struct eevdf_task_stats *st)
{
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		eevdf_sim_task_stats(sim, i, st);
		if (strcmp(st->name, name) == 0)
			return st;
	}
	ck_abort_msg("no task %s", name);
	return NULL;
}

/*
 * Ten writers each write one page and fsync it at time 0.  The drive
 * holds one request (queue depth 1, one tag) and serves it in 100 us of
 * latency plus 4096 B / 4096 MB/s = 1 us of transfer: 101 us.  With every
 * CPU cost 0 a completion frees the tag, wakes the next writer and its
 * request goes to the drive at the same instant, so the k-th request
 * completes at k * 101 us: ten by 1010 us, nine just before, and the
 * drive busy the whole time.  Throughput is 1 / 101 us.  A writer waits
 * for a tag before its request exists (blk_mq_get_tag()), so each
 * request's own wait, submission to completion, is its 101 us.
 */
START_TEST(queue_depth_one_completes_one_request_per_service_time)
{
	static const char objs[] =
		"{\"type\": \"device\", \"name\": \"sda\", \"preset\": "
		"\"sata-ssd\", \"queue_depth\": 1, \"nr_requests\": 1, "
		"\"parallel\": 1, \"read_latency\": \"100us\", "
		"\"write_latency\": \"100us\", \"read_mb_s\": 4096, "
		"\"write_mb_s\": 4096}, "
		"{\"type\": \"filesystem\", \"name\": \"fs\", \"device\": "
		"\"sda\", \"journal\": false, \"dioread_nolock\": false}";
	static const char tasks[] =
		"{\"name\": \"w[${i}]\", \"for\": {\"i\": [0, 10]}, "
		"\"program\": ["
		"{\"open\": {\"path\": \"f${i}\", \"create\": true, \"fd\": "
		"\"@fd\"}}, "
		"{\"write\": {\"fd\": \"@fd\", \"bytes\": 4096}}, "
		"{\"fsync\": {\"fd\": \"@fd\"}}, "
		"{\"sleep\": \"1s\"}]}";
	struct eevdf_device_stats ds;
	eevdf_sim *sim;

	sim = io_run(objs, tasks, NULL, NULL, 1, 1010 * US - 1);
	ck_assert_int_eq(eevdf_sim_device_stats(sim, 0, &ds), 0);
	ck_assert_uint_eq(ds.writes, 10);
	ck_assert_uint_eq(ds.completed, 9);
	eevdf_sim_free(sim);

	sim = io_run(objs, tasks, NULL, NULL, 1, 1010 * US);
	ck_assert_int_eq(eevdf_sim_device_stats(sim, 0, &ds), 0);
	ck_assert_uint_eq(ds.completed, 10);
	ck_assert_int_eq(ds.busy_ns, 1010 * US);
	ck_assert_uint_eq(ds.max_inflight, 1);
	ck_assert_int_eq(ds.wait_sum_ns, 10 * 101 * US);
	ck_assert_int_eq(ds.wait_max_ns, 101 * US);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A file written and read back is read from the page cache: no read
 * reaches the device, and the read costs its calls and its copies only.
 * 16 KiB in 4 KiB read() calls to the end: 4 calls and the one that
 * returns 0, 5 * 250 ns, plus 4 pages copied, 4 * 300 ns: 2450 ns.
 */
START_TEST(page_cache_hits_cost_no_io)
{
	static const char objs[] =
		"{\"type\": \"device\", \"name\": \"sda\"}, "
		"{\"type\": \"filesystem\", \"name\": \"fs\", \"device\": "
		"\"sda\", \"journal\": false}";
	static const char tasks[] =
		"{\"name\": \"w\", \"program\": ["
		"{\"open\": {\"path\": \"f\", \"create\": true, \"fd\": "
		"\"@fd\"}}, "
		"{\"write\": {\"fd\": \"@fd\", \"bytes\": 16384}}, "
		"{\"close\": {\"fd\": \"@fd\"}}, {\"post\": {\"sem\": \"s\"}}, "
		"{\"sleep\": \"1s\"}]}, "
		"{\"name\": \"r\", \"program\": [{\"wait\": {\"sem\": \"s\"}}, "
		"{\"open\": {\"path\": \"f\", \"fd\": \"@fd\"}}, "
		"{\"read\": {\"fd\": \"@fd\", \"chunk\": 4096, \"into\": "
		"\"@n\"}}, "
		"{\"record\": {\"metric\": \"got\", \"value\": \"@n\"}}, "
		"{\"sleep\": \"1s\"}]}";
	char objs2[512];
	struct eevdf_device_stats ds;
	struct eevdf_fs_stats fss;
	struct eevdf_task_stats st;
	eevdf_sim *sim;

	snprintf(objs2, sizeof(objs2),
		 "%s, {\"type\": \"sem\", \"name\": "
		 "\"s\"}",
		 objs);
	sim = io_run(objs2, tasks,
		     "\"fs_read_call\": 250, "
		     "\"fs_copy_page\": 300",
		     "\"metrics\": {\"got\": {\"type\": \"value\"}}", 1,
		     100 * MS);
	ck_assert_int_eq(eevdf_sim_device_stats(sim, 0, &ds), 0);
	ck_assert_uint_eq(ds.reads, 0);
	ck_assert_int_eq(eevdf_sim_fs_stats(sim, 0, &fss), 0);
	ck_assert_uint_eq(fss.cache_misses, 0);
	ck_assert_uint_eq(fss.cache_hits, 4);
	task_named(sim, "r", &st);
	ck_assert_int_eq(st.cpu_ns, 2450);
	eevdf_sim_free(sim);
}
END_TEST

/* A page-cache-only device and a file system on it (two tests use it). */
static const char ram_fs_objs[] =
	"{\"type\": \"device\", \"name\": \"ram\", \"preset\": "
	"\"none\"}, "
	"{\"type\": \"filesystem\", \"name\": \"fs\", \"device\": "
	"\"ram\"}";

/*
 * What a write() costs, the rule calibrate's fs_write_call and
 * fs_write_page invert (calibrate/fit.c): the call, a fs_write_page per
 * page new to the cache, a fs_copy_page per page already there.  With
 * every other cost 0: 8192 bytes into a new file in one call are 400 +
 * 2 x 900 = 2200; after a reopen, 8 bytes into its first page (cached)
 * are 400 + 300 = 700; the writer's CPU time is 2900 ns.
 */
START_TEST(writes_charge_the_call_and_each_page)
{
	const char *objs = ram_fs_objs;
	static const char tasks[] =
		"{\"name\": \"w\", \"program\": ["
		"{\"open\": {\"path\": \"f\", \"create\": true, \"fd\": "
		"\"@fd\"}}, "
		"{\"write\": {\"fd\": \"@fd\", \"bytes\": 8192}}, "
		"{\"close\": {\"fd\": \"@fd\"}}, "
		"{\"open\": {\"path\": \"f\", \"fd\": \"@fd\"}}, "
		"{\"write\": {\"fd\": \"@fd\", \"bytes\": 8}}, "
		"{\"close\": {\"fd\": \"@fd\"}}, {\"sleep\": \"1s\"}]}";
	struct eevdf_task_stats st;
	eevdf_sim *sim = io_run(
		objs, tasks,
		"\"fs_write_call\": 400, \"fs_write_page\": 900, "
		"\"fs_copy_page\": 300",
		NULL, 1, 100 * MS);

	task_named(sim, "w", &st);
	ck_assert_int_eq(st.cpu_ns, 2900);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * The page-cache-only device: a write and its fsync reach no device and
 * wait for nothing (no journal either, so no jbd2 thread): with every
 * cost 0 the writer's record sees time 0.
 */
START_TEST(page_cache_only_device_does_no_io)
{
	const char *objs = ram_fs_objs;
	static const char tasks[] =
		"{\"name\": \"w\", \"program\": ["
		"{\"open\": {\"path\": \"f\", \"create\": true, \"fd\": "
		"\"@fd\"}}, "
		"{\"write\": {\"fd\": \"@fd\", \"bytes\": 65536}}, "
		"{\"fsync\": {\"fd\": \"@fd\"}}, "
		"{\"record\": {\"metric\": \"end\", \"value\": \"now\"}}, "
		"{\"sleep\": \"1s\"}]}";
	struct eevdf_device_stats ds;
	eevdf_sim *sim = io_run(objs, tasks, NULL,
				"\"metrics\": {\"end\": {\"type\": \"value\"}}",
				1, 100 * MS);

	ck_assert_int_eq(eevdf_sim_device_stats(sim, 0, &ds), 0);
	ck_assert_uint_eq(ds.writes + ds.reads + ds.flushes, 0);
	ck_assert_int_eq(sim->metrics[0]->all.value, 0);
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		struct eevdf_task_stats st;

		eevdf_sim_task_stats(sim, i, &st);
		ck_assert_msg(strncmp(st.name, "jbd2", 4) != 0, "%s", st.name);
	}
	eevdf_sim_free(sim);
}
END_TEST

/*
 * queue_work() on a bound workqueue from a task on CPU 2 puts the work in
 * CPU 2's pool: its first worker, kworker/2:0, runs it there, 50 us of
 * CPU and nothing else.  On an unbound one it goes to the pool of CPU 2's
 * LLC, which on a 4-CPU machine of one LLC is pool 8 (after the per-CPU
 * pools 0..7): kworker/u8:0.
 */
START_TEST(work_runs_on_the_cpu_that_queued_it)
{
	static const char objs[] =
		"{\"type\": \"workqueue\", \"name\": \"ub\", \"unbound\": "
		"true}, "
		"{\"type\": \"work\", \"name\": \"w\", \"cost\": \"50us\"}, "
		"{\"type\": \"work\", \"name\": \"u\", \"workqueue\": \"ub\", "
		"\"cost\": \"70us\"}";
	static const char tasks[] =
		"{\"name\": \"q\", \"cpus\": [2], \"program\": ["
		"{\"queue_work\": \"w\"}, {\"queue_work\": \"u\"}, "
		"{\"sleep\": \"1s\"}]}";
	struct eevdf_task_stats st;
	eevdf_sim *sim = io_run(objs, tasks, NULL, NULL, 4, 10 * MS);

	task_named(sim, "kworker/2:0", &st);
	ck_assert_int_eq(st.cpu_ns, 50 * US);
	ck_assert_int_eq(st.cpu, 2);
	task_named(sim, "kworker/1:0", &st);
	ck_assert_int_eq(st.cpu_ns, 0);
	task_named(sim, "kworker/u8:0", &st);
	ck_assert_int_eq(st.cpu_ns, 70 * US);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * With autogroup on (the default), the run's own tasks share their
 * session's autogroup, but kernel threads stay in the root task group:
 * kthreadd's children inherit init_task's autogroup_default, whose group
 * is the root (5091faa449ee).  The same run as above: q queues a bound
 * and an unbound work; every kworker, ksoftirqd, high-priority kworker
 * and the flusher reads "/", q its "/autogroup-1".
 */
START_TEST(kernel_threads_stay_in_the_root_group)
{
	static const char objs[] =
		"{\"type\": \"workqueue\", \"name\": \"ub\", \"unbound\": "
		"true}, "
		"{\"type\": \"work\", \"name\": \"w\", \"cost\": \"50us\"}, "
		"{\"type\": \"work\", \"name\": \"u\", \"workqueue\": \"ub\", "
		"\"cost\": \"70us\"}";
	static const char tasks[] =
		"{\"name\": \"q\", \"cpus\": [2], \"program\": ["
		"{\"queue_work\": \"w\"}, {\"queue_work\": \"u\"}, "
		"{\"sleep\": \"1s\"}]}";
	struct eevdf_task_stats st;
	eevdf_sim *sim = io_run(objs, tasks, NULL, NULL, 4, 10 * MS);
	size_t kthreads = 0;

	ck_assert(eevdf_sim_autogroup(sim));
	task_named(sim, "q", &st);
	ck_assert_str_eq(st.cgroup, "/autogroup-1");
	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		eevdf_sim_task_stats(sim, i, &st);
		if (strcmp(st.name, "q") == 0)
			continue;
		ck_assert_msg(strcmp(st.cgroup, "/") == 0, "%s in %s", st.name,
			      st.cgroup);
		kthreads++;
	}
	/* 4 bound, 4 high-priority, 4 ksoftirqd and the unbound worker at
	 * least: every one of them was checked */
	ck_assert_uint_ge(kthreads, 13);
	/* and they ran: the work on CPU 2's kworker, the unbound one */
	task_named(sim, "kworker/2:0", &st);
	ck_assert_int_eq(st.cpu_ns, 50 * US);
	task_named(sim, "kworker/u8:0", &st);
	ck_assert_int_eq(st.cpu_ns, 70 * US);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * A 1 kHz interrupt with a 10 us handler hits CPU 0, where a task runs
 * 10 ms of work from time 0.  Each handler is billed to it
 * (IRQ_TIME_ACCOUNTING off): the interrupts at 1 .. 9 ms make its work
 * end at 10.09 ms, so the one at 10 ms hits it too, and it ends at
 * 10.1 ms with 10.1 ms of runtime; the next, at 11 ms, finds it gone.
 */
START_TEST(irq_time_is_charged_to_the_interrupted_task)
{
	static const char objs[] =
		"{\"type\": \"irq\", \"name\": \"timer\", \"period\": \"1ms\", "
		"\"cpu\": 0, \"handler\": \"10us\"}";
	static const char tasks[] =
		"{\"name\": \"hog\", \"cpus\": [0], \"program\": ["
		"{\"run\": \"10ms\"}, {\"record\": {\"metric\": \"end\", "
		"\"value\": \"now\"}}, {\"sleep\": \"1s\"}]}";
	struct eevdf_task_stats st;
	eevdf_sim *sim = io_run(objs, tasks, NULL,
				"\"metrics\": {\"end\": {\"type\": \"value\"}}",
				1, 20 * MS);

	task_named(sim, "hog", &st);
	ck_assert_int_eq(st.cpu_ns, 10100 * US);
	ck_assert_int_eq(st.voluntary, 1); /* its sleep */
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Two works that sleep 1 ms queued at once on CPU 1's bound pool: the
 * first worker takes one and, taking it, creates a second worker (none
 * was idle); when it sleeps, wq_worker_sleeping() drops nr_running to 0
 * and wakes the idle one, which runs the other work at once.  Both post
 * at 1 ms, so the waiter's second wait ends at 1 ms, not 2.
 */
START_TEST(a_sleeping_worker_lets_its_pool_run_the_next_work)
{
	static const char objs[] =
		"{\"type\": \"sem\", \"name\": \"done\"}, "
		"{\"type\": \"work\", \"name\": \"a\", \"sleep\": \"1ms\", "
		"\"post\": \"done\"}, "
		"{\"type\": \"work\", \"name\": \"b\", \"sleep\": \"1ms\", "
		"\"post\": \"done\"}";
	static const char tasks[] =
		"{\"name\": \"q\", \"cpus\": [1], \"program\": ["
		"{\"queue_work\": \"a\"}, {\"queue_work\": \"b\"}, "
		"{\"wait\": {\"sem\": \"done\"}}, {\"wait\": {\"sem\": \"done\"}}, "
		"{\"record\": {\"metric\": \"end\", \"value\": \"now\"}}, "
		"{\"sleep\": \"1s\"}]}";
	struct eevdf_task_stats st;
	eevdf_sim *sim = io_run(objs, tasks, NULL,
				"\"metrics\": {\"end\": {\"type\": \"value\"}}",
				2, 10 * MS);
	struct metric *m = sim->metrics[0];

	ck_assert_int_eq(m->all.value, 1 * MS);
	/* the pool created its second worker to keep one idle */
	task_named(sim, "kworker/1:1", &st);
	ck_assert_int_eq(st.cpu, 1);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * Four writes finish in the drive at 101, 102, 103 and 104 us (100 us of
 * latency each, in parallel, then 1 us each on the link).  CPU 0, the
 * device's interrupt CPU, is idle: the first completion's interrupt is
 * taken after its 10 us idle exit, at 111 us, and handles the four (one
 * AHCI interrupt completes every command done).  BLOCK_SOFTIRQ runs them
 * at irq_exit(): 1 ms each, so after two __do_softirq() has used
 * MAX_SOFTIRQ_TIME (2 ms) and wakes ksoftirqd/0 for the other two, which
 * it runs in task context: 2 ms of its own.  It is the task the interrupt
 * woke on the idle CPU, so it also pays the interrupt's 2 ms before it
 * runs: 4 ms of runtime.
 */
START_TEST(softirq_past_its_budget_goes_to_ksoftirqd)
{
	static const char objs[] =
		"{\"type\": \"device\", \"name\": \"sda\", \"queue_depth\": 4, "
		"\"nr_requests\": 4, \"parallel\": 4, \"write_latency\": "
		"\"100us\", \"write_mb_s\": 4096, \"irq_cpu\": 0}, "
		"{\"type\": \"filesystem\", \"name\": \"fs\", \"device\": "
		"\"sda\", \"journal\": false, \"dioread_nolock\": false}";
	static const char tasks[] =
		"{\"name\": \"w[${i}]\", \"for\": {\"i\": [0, 4]}, \"cpus\": [1], "
		"\"program\": ["
		"{\"open\": {\"path\": \"f${i}\", \"create\": true, \"fd\": "
		"\"@fd\"}}, "
		"{\"write\": {\"fd\": \"@fd\", \"bytes\": 4096}}, "
		"{\"fsync\": {\"fd\": \"@fd\"}}, {\"sleep\": \"1s\"}]}";
	struct eevdf_device_stats ds;
	struct eevdf_task_stats st;
	eevdf_sim *sim = io_run(
		objs, tasks, "\"blk_complete\": 1000000, \"idle_exit\": 10000",
		NULL, 2, 50 * MS);

	ck_assert_int_eq(eevdf_sim_device_stats(sim, 0, &ds), 0);
	ck_assert_uint_eq(ds.completed, 4);
	ck_assert_uint_eq(ds.irqs, 1);
	ck_assert_uint_eq(ds.softirq_deferred, 1);
	task_named(sim, "ksoftirqd/0", &st);
	ck_assert_int_eq(st.cpu_ns, 4 * MS);
	eevdf_sim_free(sim);
}
END_TEST

/*
 * The built-in load file and tests/data/client.txt, the same session
 * written with REPEAT, comments, a timestamp-free LOOP and Windows
 * paths, give the same operation mix.
 */
START_TEST(builtin_and_client_txt_give_the_same_op_mix)
{
	struct nb_load *a, *b;
	char err[200], *buf, *text;
	size_t lineno, n = 0, len;
	FILE *f = fopen("tests/data/client.txt", "rb");

	ck_assert_ptr_nonnull(f);
	text = malloc(1 << 20);
	ck_assert_ptr_nonnull(text);
	len = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	for (size_t i = 0; eevdf__nbench_builtin[i]; i++)
		n += strlen(eevdf__nbench_builtin[i]);
	buf = malloc(n + 1);
	ck_assert_ptr_nonnull(buf);
	n = 0;
	for (size_t i = 0; eevdf__nbench_builtin[i]; i++) {
		size_t k = strlen(eevdf__nbench_builtin[i]);

		memcpy(buf + n, eevdf__nbench_builtin[i], k);
		n += k;
	}
	ck_assert_int_eq(eevdf__wl_nbench_parse(buf, n, "builtin", &a, err,
						sizeof(err), &lineno),
			 0);
	ck_assert_int_eq(eevdf__wl_nbench_parse(text, len, "client.txt", &b,
						err, sizeof(err), &lineno),
			 0);
	for (int k = 0; k < NB_NR_OPS; k++)
		ck_assert_msg(a->nr_by_op[k] == b->nr_by_op[k],
			      "%s: %llu vs %llu", eevdf__nb_op_names[k],
			      (unsigned long long)a->nr_by_op[k],
			      (unsigned long long)b->nr_by_op[k]);
	/* 443 lines: ReadX first, as in the real mix */
	ck_assert_uint_eq(a->nr, 443);
	ck_assert_uint_eq(a->nr_by_op[NB_READX], 143);
	eevdf__nb_load_unref(a);
	eevdf__nb_load_unref(b);
	free(buf);
	free(text);
}
END_TEST

static void parse_fails(const char *objects, const char *tasks,
			const char *want_path, const char *want_msg)
{
	char doc[4096];
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;

	snprintf(doc, sizeof(doc),
		 "{\"format\": \"eevdf-sim-workload/1\", \"name\": \"io\", "
		 "\"objects\": [%s], \"tasks\": [%s]}",
		 objects, tasks);
	ck_assert_int_ne(
		eevdf_workload_parse(doc, strlen(doc), "io.json", &wl, &d), 0);
	ck_assert_msg(strcmp(d.path, want_path) == 0, "path %s", d.path);
	ck_assert_msg(strstr(d.msg, want_msg) != NULL, "msg %s", d.msg);
}

START_TEST(bad_io_objects_and_ops_are_named)
{
	static const char t[] = "{\"name\": \"t\", \"program\": "
				"[{\"sleep\": \"1ms\"}]}";

	parse_fails("{\"type\": \"device\", \"name\": \"d\", \"preset\": "
		    "\"floppy\"}",
		    t, "objects[0].preset", "unknown device preset 'floppy'");
	parse_fails("{\"type\": \"filesystem\", \"name\": \"f\", "
		    "\"device\": \"nope\"}",
		    t, "objects[0].device", "no object named 'nope'");
	parse_fails("{\"type\": \"device\", \"name\": \"d\", "
		    "\"queue_depth\": 64, \"nr_requests\": 8}",
		    t, "objects[0].nr_requests",
		    "must be at least queue_depth");
	parse_fails("{\"type\": \"irq\", \"name\": \"i\"}", t, "objects[0]",
		    "missing key 'period'");
	parse_fails("",
		    "{\"name\": \"t\", \"program\": [{\"open\": {\"path\": "
		    "\"x\", \"fd\": \"@f\"}}]}",
		    "tasks[0].program[0].open",
		    "a file op needs a \"filesystem\" object");
	parse_fails("{\"type\": \"device\", \"name\": \"d\"}, "
		    "{\"type\": \"filesystem\", \"name\": \"f\", \"device\": "
		    "\"d\"}",
		    "{\"name\": \"t\", \"program\": [{\"nbench\": "
		    "{\"loadfile\": \"/nonexistent/client.txt\"}}]}",
		    "tasks[0].program[0].nbench.loadfile",
		    "cannot read the load file");
}
END_TEST

/* A load file's errors name the line. */
START_TEST(nbench_errors_name_the_line)
{
	static const char bad[] = "# comment\n"
				  "Close 1 NT_STATUS_OK\n"
				  "Frobnicate 1 NT_STATUS_OK\n";
	static const char loop[] = "LOOP 2\nClose 1 NT_STATUS_OK\n";
	struct nb_load *l;
	char err[200];
	size_t lineno;

	ck_assert_int_eq(eevdf__wl_nbench_parse(bad, strlen(bad), "x", &l, err,
						sizeof(err), &lineno),
			 EEVDF_EINVAL);
	ck_assert_uint_eq(lineno, 3);
	ck_assert_ptr_nonnull(strstr(err, "unknown operation 'Frobnicate'"));
	ck_assert_int_eq(eevdf__wl_nbench_parse(loop, strlen(loop), "x", &l,
						err, sizeof(err), &lineno),
			 EEVDF_EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "LOOP without ENDLOOP"));
}
END_TEST

/*
 * The presets' service times are what their comments say: a lognormal
 * draw is never below 0 and never above 20 medians (sata-ssd reads:
 * median 90 us, so within (0, 1.8 ms]); the HDD's normal lies within its
 * 2..30 ms bounds.  Over 1000 draws the mean of the SSD's (sigma 0.3)
 * is exp(sigma^2/2) = 1.046 medians, 94 us, well above 80 us: a device
 * whose draws were clamped to nothing would do its I/O in no time.
 */
START_TEST(device_presets_draw_their_service_times)
{
	struct dev_cfg c;
	struct eevdf_rng r;
	double sum = 0;

	eevdf__rng_seed(&r, 1, "io", 0);
	ck_assert(eevdf__blkdev_preset("sata-ssd", &c));
	for (int i = 0; i < 1000; i++) {
		s64 v = eevdf__dist_sample(&c.rlat, &r);

		ck_assert_int_gt(v, 0);
		ck_assert_int_le(v, 20 * 90000);
		sum += (double)v;
	}
	ck_assert_msg(sum / 1000 > 80000 && sum / 1000 < 110000,
		      "mean read service time %.0f ns", sum / 1000);
	ck_assert(eevdf__blkdev_preset("hdd", &c));
	for (int i = 0; i < 1000; i++) {
		s64 v = eevdf__dist_sample(&c.wlat, &r);

		ck_assert_int_ge(v, 2000000);
		ck_assert_int_le(v, 30000000);
	}
}
END_TEST

Suite *io_suite(void)
{
	Suite *s = suite_create("io");
	TCase *tc = tcase_create("io");

	tcase_add_test(tc,
		       queue_depth_one_completes_one_request_per_service_time);
	tcase_add_test(tc, page_cache_hits_cost_no_io);
	tcase_add_test(tc, writes_charge_the_call_and_each_page);
	tcase_add_test(tc, device_presets_draw_their_service_times);
	tcase_add_test(tc, page_cache_only_device_does_no_io);
	tcase_add_test(tc, work_runs_on_the_cpu_that_queued_it);
	tcase_add_test(tc, kernel_threads_stay_in_the_root_group);
	tcase_add_test(tc, irq_time_is_charged_to_the_interrupted_task);
	tcase_add_test(tc, a_sleeping_worker_lets_its_pool_run_the_next_work);
	tcase_add_test(tc, softirq_past_its_budget_goes_to_ksoftirqd);
	tcase_add_test(tc, builtin_and_client_txt_give_the_same_op_mix);
	tcase_add_test(tc, bad_io_objects_and_ops_are_named);
	tcase_add_test(tc, nbench_errors_name_the_line);
	suite_add_tcase(s, tc);
	return s;
}
