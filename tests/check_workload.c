/* SPDX-License-Identifier: MIT */
/*
 * Tests of duration parsing and the workload loader (src/workload*.c):
 * the benchmarks of workloads.md section 12, the compiled programs op by
 * op, small workloads run end to end, and one test per error class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eevdf/eevdf.h"
#include "suites.h"
#include "engine/dist.h"
#include "engine/metrics.h"
#include "engine/sim.h"
#include "workload/workload_impl.h"
#include "workload_examples.h"

#define FMT "'format':'eevdf-sim-workload/1',"
#define TASK_A "{'name':'a','program':[{'run':'1ms'}]}"

/*
 * Workloads are written with ' for " so that they stay readable in C; none
 * of the inputs needs a real apostrophe.  Returns a malloc'ed copy.
 */
static char *dq(const char *s)
{
	size_t n = strlen(s), i;
	char *d = malloc(n + 1);

	ck_assert_ptr_nonnull(d);
	for (i = 0; i <= n; i++)
		d[i] = s[i] == '\'' ? '"' : s[i];
	return d;
}

static int parse(const char *s, eevdf_workload **wl, struct eevdf_diag *d)
{
	char *j = dq(s);
	int r = eevdf_workload_parse(j, strlen(j), "t.json", wl, d);

	free(j);
	return r;
}

static eevdf_workload *parse_ok(const char *s)
{
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	char buf[512];
	int r = parse(s, &wl, &d);

	ck_assert_msg(r == 0, "parse failed (%d): %s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(wl);
	return wl;
}

/*
 * Parse s with opts, expect error code with diag.path == path and msg
 * containing sub.
 */
static void expect_error_opts(const char *s, const struct eevdf_load_opts *opts,
			      int code, const char *path, const char *sub)
{
	struct eevdf_diag d;
	/* Non-NULL on purpose: the loader must set *out to NULL on error. */
	eevdf_workload *wl = (eevdf_workload *)(void *)&d;
	char buf[512], *j = dq(s);
	int r = eevdf_workload_parse_opts(j, strlen(j), "t.json", opts, &wl,
					  &d);

	free(j);
	eevdf_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(r == code, "got %d, want %d: %s", r, code, buf);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.file, "t.json");
	ck_assert_msg(strcmp(d.path, path) == 0, "path '%s', want '%s': %s",
		      d.path, path, buf);
	ck_assert_msg(strstr(d.msg, sub) != NULL, "msg lacks '%s': %s", sub,
		      buf);
}

/* Parse s, expect error code with diag.path == path and msg containing sub. */
static void expect_error(const char *s, int code, const char *path,
			 const char *sub)
{
	struct eevdf_diag d;
	/* Non-NULL on purpose: the loader must set *out to NULL on error. */
	eevdf_workload *wl = (eevdf_workload *)(void *)&d;
	char buf[512];
	int r = parse(s, &wl, &d);

	eevdf_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(r == code, "got %d, want %d: %s", r, code, buf);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.file, "t.json");
	ck_assert_msg(strcmp(d.path, path) == 0, "path '%s', want '%s': %s",
		      d.path, path, buf);
	ck_assert_msg(strstr(d.msg, sub) != NULL, "msg lacks '%s': %s", sub,
		      buf);
}

#define EXPECT_PARSE_ERROR(s, path, sub)                                       \
	expect_error(s, EEVDF_EPARSE, path, sub)

static void check_op(const struct eevdf_op *op, enum eevdf_op_kind kind,
		     eevdf_time duration, uint64_t count, uint32_t body_len)
{
	ck_assert_int_eq(op->kind, kind);
	ck_assert_int_eq(op->duration, duration);
	ck_assert_uint_eq(op->count, count);
	ck_assert_uint_eq(op->body_len, body_len);
}

/* ---- durations ---------------------------------------------------- */

START_TEST(duration_accepts_integers_and_units_exactly)
{
	static const struct {
		const char *s;
		eevdf_time want;
	} ok[] = {
		{ "0", 0 },
		{ "5", 5 },
		{ "1500", 1500 },
		{ "250ns", 250 },
		{ "0ms", 0 },
		{ "2us", 2000 },
		{ "0.25us", 250 },
		{ "8ms", 8000000 },
		{ "1.000001ms", 1000001 },
		{ "1.5s", 1500000000 },
		{ "1.50000000000000000000s", 1500000000 },
		{ "0.000000001s", 1 },
		{ "007ms", 7000000 },
		{ "9223372036854775807ns", INT64_MAX },
		{ "9223372036854775807", INT64_MAX },
		{ "9223372036.854775807s", INT64_MAX },
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		eevdf_time t = -1;
		int r = eevdf_parse_duration(ok[i].s, INT64_MAX, &t);

		ck_assert_msg(r == 0, "'%s' gave %d", ok[i].s, r);
		ck_assert_msg(t == ok[i].want, "'%s' gave %lld", ok[i].s,
			      (long long)t);
	}
}
END_TEST

START_TEST(duration_rejects_malformed_strings_with_einval)
{
	/* ".5ms" and "5.ms" are rejected on purpose: a digit on each side. */
	static const char *const bad[] = {
		"",	    "-5ms",   "-0",	 "-5",
		"+5ms",	    "5 ms",   " 5ms",	 "5ms ",
		"5m",	    "5MS",    "5Ms",	 "1e3ns",
		"1e3",	    "1.5",    ".5ms",	 "5.ms",
		"0.0005us", "1.5ns",  "0x10",	 "ms",
		"5msx",	    "1..5ms", "1.2.3ms", "5min",
		"5 ",	    "\t5ms",  "1,5ms",	 "0.0000000001s",
	};
	eevdf_time t0 = 777;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		eevdf_time t = 777;
		int r = eevdf_parse_duration(bad[i], INT64_MAX, &t);

		ck_assert_msg(r == EEVDF_EINVAL, "'%s' gave %d", bad[i], r);
		ck_assert_int_eq(t, 777);
	}
	ck_assert_int_eq(eevdf_parse_duration(NULL, INT64_MAX, &t0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_parse_duration("1ms", INT64_MAX, NULL),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_parse_duration("1ms", -1, &t0), EEVDF_EINVAL);
	ck_assert_int_eq(t0, 777);
}
END_TEST

START_TEST(duration_above_the_maximum_or_64_bits_is_erange)
{
	static const struct {
		const char *s;
		eevdf_time max;
	} big[] = {
		{ "18446744073709551616ns", INT64_MAX },
		{ "18446744073709551616", INT64_MAX },
		{ "9223372036854775808ns", INT64_MAX },
		{ "99999999999999999999999s", INT64_MAX },
		{ "18446744073709551615s", INT64_MAX },
		{ "9223372036.854775808s", INT64_MAX },
		{ "1000000001ns", 1000000000 },
		{ "1.000000001s", 1000000000 },
		{ "1001ms", 1000000000 },
		{ "1", 0 },
	};
	eevdf_time t = 777;
	size_t i;

	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
		int r = eevdf_parse_duration(big[i].s, big[i].max, &t);

		ck_assert_msg(r == EEVDF_ERANGE, "'%s' gave %d", big[i].s, r);
		ck_assert_int_eq(t, 777);
	}
	ck_assert_int_eq(eevdf_parse_duration("1s", 1000000000, &t), 0);
	ck_assert_int_eq(t, 1000000000);
	ck_assert_int_eq(eevdf_parse_duration("0", 0, &t), 0);
	ck_assert_int_eq(t, 0);
}
END_TEST

/* ---- valid workloads ---------------------------------------------- */

START_TEST(workload_valid_file_gives_every_field)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'name':'demo','description':'all fields',"
		"'duration':'2s','seed':42,'tasks':["
		"{'name':'hog','nice':-5,'policy':'batch','cpus':[1,0],"
		" 'slice':'3ms','start':'1.5ms','program':[{'run':'10ms'}]},"
		"{'name':'w.x:y-z_9','policy':'idle','nice':19,'slice':100000,"
		" 'program':[{'sleep':'100ms'}]},"
		"{'name':'n','policy':'normal','slice':'100ms','start':0,"
		" 'program':[{'yield':true},{'run':'1ms'}]}]}");
	const struct eevdf_task_spec *t;
	uint64_t seed = 0;

	ck_assert_str_eq(eevdf_workload_name(wl), "demo");
	ck_assert_str_eq(eevdf_workload_description(wl), "all fields");
	ck_assert_int_eq(eevdf_workload_duration(wl), 2000000000);
	ck_assert(eevdf_workload_seed(wl, &seed));
	ck_assert_uint_eq(seed, 42);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 3);

	t = eevdf_workload_task(wl, 0);
	ck_assert_str_eq(t->name, "hog");
	ck_assert_int_eq(t->nice, -5);
	ck_assert_int_eq(t->policy, EEVDF_POLICY_BATCH);
	ck_assert_uint_eq(t->nr_cpus, 2);
	ck_assert_int_eq(t->cpus[0], 1);
	ck_assert_int_eq(t->cpus[1], 0);
	ck_assert_int_eq(t->slice, 3000000);
	ck_assert_int_eq(t->start, 1500000);
	ck_assert_uint_eq(t->nr_ops, 1);
	check_op(&t->program[0], EEVDF_OP_RUN, 10000000, 0, 0);

	t = eevdf_workload_task(wl, 1);
	ck_assert_str_eq(t->name, "w.x:y-z_9");
	ck_assert_int_eq(t->nice, 19);
	ck_assert_int_eq(t->policy, EEVDF_POLICY_IDLE);
	ck_assert_int_eq(t->slice, 100000);
	ck_assert_ptr_null(t->cpus);
	ck_assert_uint_eq(t->nr_cpus, 0);
	check_op(&t->program[0], EEVDF_OP_SLEEP, 100000000, 0, 0);

	t = eevdf_workload_task(wl, 2);
	ck_assert_int_eq(t->policy, EEVDF_POLICY_NORMAL);
	ck_assert_int_eq(t->slice, 100000000);
	ck_assert_uint_eq(t->nr_ops, 2);
	check_op(&t->program[0], EEVDF_OP_YIELD, 0, 0, 0);
	check_op(&t->program[1], EEVDF_OP_RUN, 1000000, 0, 0);

	ck_assert_ptr_null(eevdf_workload_task(wl, 3));
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(workload_absent_optional_keys_take_their_defaults)
{
	eevdf_workload *wl = parse_ok("{" FMT "'tasks':[" TASK_A "]}");
	const struct eevdf_task_spec *t = eevdf_workload_task(wl, 0);
	uint64_t seed = 99;

	ck_assert_str_eq(eevdf_workload_name(wl), "");
	ck_assert_str_eq(eevdf_workload_description(wl), "");
	ck_assert_int_eq(eevdf_workload_duration(wl), 0);
	ck_assert(!eevdf_workload_seed(wl, &seed));
	ck_assert_uint_eq(seed, 99);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 1);
	ck_assert_str_eq(t->name, "a");
	ck_assert_int_eq(t->nice, 0);
	ck_assert_int_eq(t->policy, EEVDF_POLICY_NORMAL);
	ck_assert_int_eq(t->slice, 0);
	ck_assert_ptr_null(t->cpus);
	ck_assert_uint_eq(t->nr_cpus, 0);
	ck_assert_int_eq(t->start, 0);
	ck_assert_uint_eq(t->nr_ops, 1);
	check_op(&t->program[0], EEVDF_OP_RUN, 1000000, 0, 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(workload_count_expands_to_indexed_names)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':[{'name':'w','count':3,'nice':2,'cpus':[3],"
		"'start':'1us','program':[{'run':5},{'sleep':6}]}," TASK_A
		",{'name':'one','count':1,'program':[{'run':1}]}]}");
	static const char *const names[] = { "w[0]", "w[1]", "w[2]", "a",
					     "one" };
	size_t i;

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 5);
	for (i = 0; i < 5; i++)
		ck_assert_str_eq(eevdf_workload_task(wl, i)->name, names[i]);
	for (i = 0; i < 3; i++) {
		const struct eevdf_task_spec *t = eevdf_workload_task(wl, i);

		ck_assert_int_eq(t->nice, 2);
		ck_assert_uint_eq(t->nr_cpus, 1);
		ck_assert_int_eq(t->cpus[0], 3);
		ck_assert_int_eq(t->start, 1000);
		ck_assert_uint_eq(t->nr_ops, 2);
		check_op(&t->program[0], EEVDF_OP_RUN, 5, 0, 0);
		check_op(&t->program[1], EEVDF_OP_SLEEP, 6, 0, 0);
	}
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(workload_loops_flatten_with_exact_body_lengths)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':[{'name':'s','program':["
		"{'sleep':250},{'yield':{}},"
		"{'loop':{'count':3,'body':[{'run':'1ms'},"
		"  {'loop':{'body':[{'run':'0.5us'},{'sleep':'2ms'}]}},"
		"  {'yield':true}]}},"
		"{'loop':{'body':[{'loop':{'count':4294967296,"
		"  'body':[{'sleep':'1s'}]}}],'count':2}},"
		"{'loop':{'body':[{'yield':{}},{'run':'1ms'}]}},"
		"{'run':0}]}]}");
	const struct eevdf_task_spec *t = eevdf_workload_task(wl, 0);
	const struct eevdf_op *op = t->program;

	ck_assert_uint_eq(t->nr_ops, 15);
	check_op(&op[0], EEVDF_OP_SLEEP, 250, 0, 0);
	check_op(&op[1], EEVDF_OP_YIELD, 0, 0, 0);
	check_op(&op[2], EEVDF_OP_LOOP, 0, 3, 5);
	check_op(&op[3], EEVDF_OP_RUN, 1000000, 0, 0);
	check_op(&op[4], EEVDF_OP_LOOP, 0, 0, 2);
	check_op(&op[5], EEVDF_OP_RUN, 500, 0, 0);
	check_op(&op[6], EEVDF_OP_SLEEP, 2000000, 0, 0);
	check_op(&op[7], EEVDF_OP_YIELD, 0, 0, 0);
	check_op(&op[8], EEVDF_OP_LOOP, 0, 2, 2);
	check_op(&op[9], EEVDF_OP_LOOP, 0, 4294967296ull, 1);
	check_op(&op[10], EEVDF_OP_SLEEP, 1000000000, 0, 0);
	check_op(&op[11], EEVDF_OP_LOOP, 0, 0, 2);
	check_op(&op[12], EEVDF_OP_YIELD, 0, 0, 0);
	check_op(&op[13], EEVDF_OP_RUN, 1000000, 0, 0);
	check_op(&op[14], EEVDF_OP_RUN, 0, 0, 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(workload_seed_is_a_small_number_or_digits)
{
	static const struct {
		const char *json;
		uint64_t want;
	} ok[] = {
		{ "{" FMT "'seed':0,'tasks':[" TASK_A "]}", 0 },
		{ "{" FMT "'seed':9007199254740992,'tasks':[" TASK_A "]}",
		  9007199254740992ull },
		{ "{" FMT "'seed':'18446744073709551615','tasks':[" TASK_A "]}",
		  UINT64_MAX },
		{ "{" FMT "'seed':'007','tasks':[" TASK_A "]}", 7 },
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		eevdf_workload *wl = parse_ok(ok[i].json);
		uint64_t seed = 1;

		ck_assert(eevdf_workload_seed(wl, &seed));
		ck_assert_uint_eq(seed, ok[i].want);
		eevdf_workload_free(wl);
	}
	EXPECT_PARSE_ERROR("{" FMT "'seed':9007199254740994,'tasks':[" TASK_A
			   "]}",
			   "seed", "string of digits");
	EXPECT_PARSE_ERROR(
		"{" FMT "'seed':'18446744073709551616','tasks':[" TASK_A "]}",
		"seed", "decimal digits");
	EXPECT_PARSE_ERROR("{" FMT "'seed':'12a','tasks':[" TASK_A "]}", "seed",
			   "decimal digits");
	EXPECT_PARSE_ERROR("{" FMT "'seed':-1,'tasks':[" TASK_A "]}", "seed",
			   "non-negative integer");
	EXPECT_PARSE_ERROR("{" FMT "'seed':1.5,'tasks':[" TASK_A "]}", "seed",
			   "non-negative integer");
}
END_TEST

START_TEST(workload_yield_accepts_an_empty_object_or_true_only)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':["
			   "{'yield':1}]}]}",
			   "tasks[0].program[0].yield", "must be {} or true");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':["
			   "{'yield':false}]}]}",
			   "tasks[0].program[0].yield", "must be {} or true");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':["
			   "{'yield':{'x':1}}]}]}",
			   "tasks[0].program[0].yield", "must be {} or true");
}
END_TEST

START_TEST(workload_buffer_need_not_be_nul_terminated)
{
	char *j = dq("{" FMT "'tasks':[" TASK_A "]}");
	size_t n = strlen(j);
	char *exact = malloc(n);
	struct eevdf_diag d;
	eevdf_workload *wl;

	ck_assert_ptr_nonnull(exact);
	memcpy(exact, j, n); /* no NUL: ASan catches any read past n */
	ck_assert_int_eq(eevdf_workload_parse(exact, n, NULL, &wl, &d), 0);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 1);
	eevdf_workload_free(wl);

	/* Cutting off the final '}' must be seen, whatever follows. */
	ck_assert_int_eq(eevdf_workload_parse(exact, n - 1, NULL, &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.file, "<memory>");
	ck_assert_int_eq(d.line, 1);
	free(exact);
	free(j);
}
END_TEST

START_TEST(workload_load_file_reads_a_workload_from_disk)
{
	char path[] = "/tmp/eevdf-check-wl-XXXXXX";
	char *j = dq("{" FMT "'name':'disk',\n'tasks':[" TASK_A "]}\n");
	struct eevdf_diag d;
	eevdf_workload *wl;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, j, strlen(j)), (ssize_t)strlen(j));
	close(fd);
	ck_assert_int_eq(eevdf_workload_load_file(path, &wl, &d), 0);
	ck_assert_str_eq(eevdf_workload_name(wl), "disk");
	eevdf_workload_free(wl);
	unlink(path);
	free(j);
}
END_TEST

START_TEST(workload_missing_file_gives_eio_naming_the_file)
{
	struct eevdf_diag d;
	eevdf_workload *wl = (eevdf_workload *)(void *)&d;
	char buf[512];

	ck_assert_int_eq(eevdf_workload_load_file("/nonexistent/w.json", &wl,
						  &d),
			 EEVDF_EIO);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.file, "/nonexistent/w.json");
	ck_assert_str_eq(d.path, "");
	ck_assert_str_eq(d.msg, "cannot read: No such file or directory");
	ck_assert_str_eq(eevdf_diag_format(&d, buf, sizeof(buf)),
			 "/nonexistent/w.json: cannot read: No such file or "
			 "directory");
}
END_TEST

START_TEST(workload_directory_gives_eio)
{
	struct eevdf_diag d;
	eevdf_workload *wl;

	ck_assert_int_eq(eevdf_workload_load_file("/tmp", &wl, &d), EEVDF_EIO);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.file, "/tmp");
	ck_assert_str_eq(d.msg, "cannot read: it is a directory, not a "
				"regular file (a workload on standard input "
				"is '-')");
}
END_TEST

START_TEST(workload_files_over_64_mib_are_refused)
{
	char path[] = "/tmp/eevdf-check-big-XXXXXX";
	struct eevdf_diag d;
	eevdf_workload *wl;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, ((off_t)64 << 20) + 1), 0);
	close(fd);
	ck_assert_int_eq(eevdf_workload_load_file(path, &wl, &d), EEVDF_ELIMIT);
	ck_assert_ptr_null(wl);
	ck_assert_str_eq(d.msg, "the file is larger than the limit of 64 MiB "
				"(max_input)");
	unlink(path);
}
END_TEST

START_TEST(workload_add_tasks_adds_every_task_in_order)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':[{'name':'w','count':2,"
		"'cpus':[1],'program':[{'run':'1ms'}]}," TASK_A "]}");
	static const char *const names[] = { "w[0]", "w[1]", "a" };
	struct eevdf_task_stats st;
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;
	size_t i;

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 2;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), 0);
	ck_assert_uint_eq(eevdf_sim_nr_tasks(sim), 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
		ck_assert_str_eq(st.name, names[i]);
		ck_assert_int_eq(st.pid, (int)i + 1);
	}
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(workload_add_tasks_names_the_rejected_task)
{
	eevdf_workload *wl = parse_ok("{" FMT "'tasks':[" TASK_A ","
				      "{'name':'far','count':2,'cpus':[5],"
				      "'program':[{'run':'1ms'}]}]}");
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 2;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), EEVDF_EINVAL);
	ck_assert_str_eq(d.file, "t.json");
	ck_assert_str_eq(d.path, "tasks[1].cpus");
	ck_assert_str_ne(d.msg, "");
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(diag_format_prints_file_line_path_and_message)
{
	struct eevdf_diag d = { "w.json", "tasks[0].nice", 0, "bad" };
	char buf[128], small[8];

	ck_assert_str_eq(eevdf_diag_format(&d, buf, sizeof(buf)),
			 "w.json: tasks[0].nice: bad");
	d.path[0] = '\0';
	d.line = 3;
	ck_assert_str_eq(eevdf_diag_format(&d, buf, sizeof(buf)),
			 "w.json:3: bad");
	d.line = 0;
	ck_assert_str_eq(eevdf_diag_format(&d, buf, sizeof(buf)),
			 "w.json: bad");
	ck_assert_str_eq(eevdf_diag_format(&d, small, sizeof(small)),
			 "w.json:");
}
END_TEST

/* ---- one test per error class ------------------------------------- */

START_TEST(workload_malformed_json_reports_its_line)
{
	struct eevdf_diag d;
	eevdf_workload *wl;
	char buf[512];

	ck_assert_int_eq(parse("{\n" FMT "\n'tasks': [,]\n}", &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(wl);
	ck_assert_int_eq(d.line, 3);
	ck_assert_str_eq(d.path, "");
	ck_assert_ptr_nonnull(strstr(d.msg, "JSON syntax error"));
	eevdf_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(strncmp(buf, "t.json:3: JSON syntax error", 27) == 0,
		      "%s", buf);
}
END_TEST

START_TEST(workload_text_after_the_json_value_is_rejected)
{
	struct eevdf_diag d;
	eevdf_workload *wl;

	ck_assert_int_eq(parse("{" FMT "'tasks':[" TASK_A "]}\n\n{}", &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_int_eq(d.line, 3);
	ck_assert_ptr_nonnull(strstr(d.msg, "after the JSON value"));
	ck_assert_int_eq(parse("", &wl, &d), EEVDF_EPARSE);
	ck_assert_int_eq(d.line, 1);
	ck_assert_ptr_nonnull(strstr(d.msg, "empty"));
}
END_TEST

START_TEST(workload_top_level_must_be_an_object)
{
	EXPECT_PARSE_ERROR("[1, 2]", "", "top level must be an object");
	EXPECT_PARSE_ERROR("'eevdf-sim-workload/1'", "",
			   "top level must be an object");
}
END_TEST

START_TEST(workload_missing_format_is_rejected)
{
	EXPECT_PARSE_ERROR("{'tasks':[" TASK_A "]}", "",
			   "missing key 'format'");
}
END_TEST

START_TEST(workload_wrong_format_is_rejected_naming_it)
{
	EXPECT_PARSE_ERROR("{'format':'eevdf-sim-workload/2','tasks':[" TASK_A
			   "]}",
			   "format", "'eevdf-sim-workload/2'");
	EXPECT_PARSE_ERROR("{'format':1,'tasks':[" TASK_A "]}", "format",
			   "eevdf-sim-workload/1");
}
END_TEST

START_TEST(workload_unknown_top_level_key_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[" TASK_A "],'durration':'1s'}", "",
			   "unknown key 'durration'");
	/* Lookups are case-sensitive. */
	EXPECT_PARSE_ERROR("{" FMT "'Tasks':[" TASK_A "]}", "",
			   "unknown key 'Tasks'");
}
END_TEST

START_TEST(workload_unknown_task_key_bogus_is_rejected_naming_it)
{
	/* The file of checks/interfaces.sh: the key wins over the program. */
	EXPECT_PARSE_ERROR("{'format':'eevdf-sim-workload/1','name':'x',"
			   "'tasks':[{'name':'a','bogus':1,'program':[]}]}",
			   "tasks[0]", "unknown key 'bogus'");
}
END_TEST

/* "kernel": a known profile by name or alias, read as its profile. */
START_TEST(workload_kernel_names_a_profile)
{
	eevdf_workload *wl = parse_ok("{" FMT "'kernel':'6.12','tasks':[" TASK_A
				      "]}");

	ck_assert_str_eq(eevdf_workload_kernel(wl), "6.12");
	eevdf_workload_free(wl);
	wl = parse_ok("{" FMT "'kernel':'6.18.0','tasks':[" TASK_A "]}");
	ck_assert_str_eq(eevdf_workload_kernel(wl), "6.17");
	eevdf_workload_free(wl);
	wl = parse_ok("{" FMT "'tasks':[" TASK_A "]}");
	ck_assert_ptr_null(eevdf_workload_kernel(wl));
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'kernel':'5.15','tasks':[" TASK_A "]}",
			   "kernel",
			   "unknown kernel profile '5.15' (known: "
			   "cfs-6.1, 6.6, 6.8, 6.12, 6.17, 6.18, 6.19)");
	EXPECT_PARSE_ERROR("{" FMT "'kernel':{},'tasks':[" TASK_A "]}",
			   "kernel", "must be a string");
}
END_TEST

START_TEST(workload_keys_of_later_versions_are_not_supported_yet)
{
	EXPECT_PARSE_ERROR("{" FMT "'include':[],'tasks':[" TASK_A "]}", "",
			   "'include' is not supported by this version yet");
}
END_TEST

START_TEST(workload_duplicate_key_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','nice':1,'nice':2,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0]", "duplicate key 'nice'");
	EXPECT_PARSE_ERROR("{" FMT "'name':'x','name':'y','tasks':[" TASK_A
			   "]}",
			   "", "duplicate key 'name'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':[{'loop':"
			   "{'body':[{'run':1}],'body':[{'run':1}]}}]}]}",
			   "tasks[0].program[0].loop", "duplicate key 'body'");
}
END_TEST

START_TEST(workload_negative_duration_is_rejected_at_its_path)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':'-5ms'}]}]}",
			   "tasks[0].program[0].run", "must not be negative");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':1},{'sleep':-5}]}]}",
			   "tasks[0].program[1].sleep", "must not be negative");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','start':'-1s',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].start", "must not be negative");
}
END_TEST

START_TEST(workload_non_integer_ns_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':1.5}]}]}",
			   "tasks[0].program[0].run",
			   "must be an integer number of ns or a string with a "
			   "unit");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':true}]}]}",
			   "tasks[0].program[0].run",
			   "must be an integer number of ns");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':'5 ms'}]}]}",
			   "tasks[0].program[0].run",
			   "invalid duration '5 ms'");
}
END_TEST

START_TEST(workload_durations_above_10_pow_15_ns_are_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT
			   "'duration':1000000000000001,'tasks':[" TASK_A "]}",
			   "duration", "1000000000000000 ns");
	EXPECT_PARSE_ERROR("{" FMT "'duration':'1000001s','tasks':[" TASK_A
			   "]}",
			   "duration", "1000000000000000 ns");
	EXPECT_PARSE_ERROR("{" FMT "'duration':0,'tasks':[" TASK_A "]}",
			   "duration", "greater than 0");
}
END_TEST

START_TEST(workload_huge_count_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','count':1000000,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].count", "must be between 1 and 100000");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','count':0,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].count", "must be between 1 and 100000");
}
END_TEST

START_TEST(workload_over_a_million_tasks_is_rejected)
{
	char json[2048] = "{" FMT "'tasks':[";
	int i;

	for (i = 0; i < 11; i++) {
		char t[64];

		snprintf(t, sizeof(t),
			 "%s{'name':'t%d','count':100000,"
			 "'program':[{'run':1}]}",
			 i ? "," : "", i);
		strcat(json, t);
	}
	strcat(json, "]}");
	EXPECT_PARSE_ERROR(json, "tasks[10].count", "more than 1000000 tasks");
}
END_TEST

START_TEST(workload_nice_20_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','nice':20,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].nice", "must be between -20 and 19");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','nice':'0',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].nice", "must be an integer");
}
END_TEST

START_TEST(workload_slice_of_50us_is_out_of_range)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','slice':'50us',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].slice", "kernel's sched_runtime range");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','slice':'100.001ms',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].slice", "between 100us and 100ms");
}
END_TEST

START_TEST(workload_bad_policy_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':'fast',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].policy", "unknown policy 'fast'");
	/* the RT policies need their rt_priority, 1..99 */
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':'fifo',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].policy",
			   "policy 'fifo' needs a 'priority' of 1..99");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':'rr',"
			   "'priority':100,'program':[{'run':1}]}]}",
			   "tasks[0].priority", "between 1 and 99");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','priority':5,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].priority",
			   "rt_priority of policies fifo and rr");
	/* a deadline reservation as __checkparam_dl() checks it */
	EXPECT_PARSE_ERROR(
		"{" FMT "'tasks':[{'name':'a','policy':"
		"'deadline','runtime':'1ms','program':[{'run':1}]}]}",
		"tasks[0]", "needs 'runtime' and 'deadline'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':"
			   "'deadline','runtime':'2ms','deadline':'1ms',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0]",
			   "EINVAL: runtime <= deadline <= period must hold");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':"
			   "'deadline','runtime':'1000ns','deadline':'1ms',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0]", "at least 1024 ns");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':"
			   "'deadline','runtime':'10us','deadline':'50us',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0]", "sched_deadline_period_min_us");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':"
			   "'deadline','runtime':'1ms','deadline':'10ms',"
			   "'cpus':[0],'program':[{'run':1}]}]}",
			   "tasks[0].cpus", "EPERM");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':'fifo',"
			   "'priority':1,'period':'1ms','program':[{'run':1}]}"
			   "]}",
			   "tasks[0].period", "parameter of policy deadline");
}
END_TEST

START_TEST(workload_cpu_out_of_range_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','cpus':[0,4096],"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].cpus[1]", "must be between 0 and 4095");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','cpus':[-1],"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].cpus[0]", "must be between 0 and 4095");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','cpus':[],"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].cpus", "must not be empty");
}
END_TEST

START_TEST(workload_duplicate_cpu_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','cpus':[1,2,1],"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].cpus[2]", "duplicate CPU 1");
}
END_TEST

START_TEST(workload_empty_program_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':[]}]}",
			   "tasks[0].program", "must not be empty");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a'}]}", "tasks[0]",
			   "missing key 'program'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[]}", "tasks", "must not be empty");
}
END_TEST

START_TEST(workload_bad_task_names_are_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a b','program':"
			   "[{'run':1}]}]}",
			   "tasks[0].name", "invalid character");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a@0','program':"
			   "[{'run':1}]}]}",
			   "tasks[0].name", "invalid character '@'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'','program':"
			   "[{'run':1}]}]}",
			   "tasks[0].name", "1 to 63 characters");
	/* 64 characters: one too many for the engine's task names */
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':"
			   "'abcdefghijabcdefghijabcdefghijabcdefghij"
			   "abcdefghijabcdefghijabcd',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].name", "1 to 63 characters");
	/* and the limit holds after count expansion: 60 + "[10]" */
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':"
			   "'abcdefghijabcdefghijabcdefghijabcdefghij"
			   "abcdefghijabcdefghij','count':11,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].name", "1 to 63 characters");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'program':[{'run':1}]}]}",
			   "tasks[0]", "missing key 'name'");
}
END_TEST

START_TEST(workload_op_with_two_keys_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':1},{'run':'1ms','sleep':'1ms'}]}]}",
			   "tasks[0].program[1]",
			   "an op must be an object with exactly one key");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':[{}]}]}",
			   "tasks[0].program[0]", "exactly one key");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':['run']}]}",
			   "tasks[0].program[0]", "exactly one key");
}
END_TEST

START_TEST(workload_unknown_op_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'jump':1}]}]}",
			   "tasks[0].program[0]", "unknown op 'jump'");
}
END_TEST

START_TEST(workload_setattr_cpus_spawn_vars_not_supported_yet)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':1},{'loop':{'count':2,'body':"
			   "[{'setattr':{'nice':1,'cpus':[0]}}]}}]}]}",
			   "tasks[0].program[1].loop.body[0].setattr.cpus",
			   "changing 'cpus' is not supported by this version "
			   "yet (an affinity change needs migration)");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'program':"
			   "[{'exit':{}}]}},'tasks':[{'name':'a','program':"
			   "[{'spawn':{'template':'c','vars':{'@x':1}}}]}]}",
			   "tasks[0].program[0].spawn",
			   "'vars' is not supported by this version yet");
}
END_TEST

START_TEST(workload_loop_keys_and_count_are_checked)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'times':2,'body':[{'run':1}]}}]}]}",
			   "tasks[0].program[0].loop", "unknown key 'times'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'count':-1,'body':[{'run':1}]}}]}]}",
			   "tasks[0].program[0].loop.count",
			   "must be between 0 and 4294967296");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'count':4294967297,'body':"
			   "[{'run':1}]}}]}]}",
			   "tasks[0].program[0].loop.count",
			   "must be between 0 and 4294967296");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'count':2}}]}]}",
			   "tasks[0].program[0].loop", "missing key 'body'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'body':[]}}]}]}",
			   "tasks[0].program[0].loop.body",
			   "must not be empty");
}
END_TEST

START_TEST(workload_forever_loop_without_work_is_rejected)
{
	static const char *const msg =
		"a loop without count, while or until must contain a run, "
		"spin or sleep of non-zero duration, a blocking op or an op "
		"that costs CPU (yield, signal, spawn, setattr, or a "
		"\"cost\") (it would never advance time)";

	/* a yield advances time by its cost: not when the cost is 0 */
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'body':[{'yield':{},'cost':0}]}}]}]}",
			   "tasks[0].program[0].loop", msg);
	EXPECT_PARSE_ERROR(
		"{" FMT "'costs':{'syscall':0},'tasks':[{'name':"
		"'a','program':[{'loop':{'body':[{'yield':{}}]}}]}]}",
		"tasks[0].program[0].loop", msg);
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'body':[{'run':0},{'loop':{'count':5,"
			   "'body':[{'sleep':'0ms'}]}}]}}]}]}",
			   "tasks[0].program[0].loop", msg);
}
END_TEST

/* n loops nested inside each other around one run. */
static char *nested_loops(int n)
{
	char *s = malloc((size_t)n * 40 + 128);
	int i;

	ck_assert_ptr_nonnull(s);
	strcpy(s, "{" FMT "'tasks':[{'name':'a','program':[");
	for (i = 0; i < n; i++)
		strcat(s, "{'loop':{'body':[");
	strcat(s, "{'run':1}");
	for (i = 0; i < n; i++)
		strcat(s, "]}}");
	strcat(s, "]}]}");
	return s;
}

START_TEST(workload_loops_nest_16_deep_but_not_17)
{
	char *s = nested_loops(16);
	eevdf_workload *wl = parse_ok(s);
	const struct eevdf_task_spec *t = eevdf_workload_task(wl, 0);
	struct eevdf_diag d;
	int i;

	ck_assert_uint_eq(t->nr_ops, 17);
	for (i = 0; i < 16; i++)
		check_op(&t->program[i], EEVDF_OP_LOOP, 0, 0,
			 (uint32_t)(16 - i));
	check_op(&t->program[16], EEVDF_OP_RUN, 1, 0, 0);
	eevdf_workload_free(wl);
	free(s);

	/* The 17th loop's path is longer than diag.path: cut at the end. */
	s = nested_loops(17);
	ck_assert_int_eq(parse(s, &wl, &d), EEVDF_EPARSE);
	ck_assert_ptr_null(wl);
	ck_assert_ptr_nonnull(strstr(d.msg, "loops may nest at most 16 deep"));
	ck_assert_int_eq(strncmp(d.path,
				 "tasks[0].program[0].loop.body[0]."
				 "loop.body[0]",
				 45),
			 0);
	free(s);
}
END_TEST

START_TEST(workload_programs_over_65536_ops_are_rejected)
{
	size_t n, i;
	char *s = malloc(65537 * 16 + 128);

	ck_assert_ptr_nonnull(s);
	for (n = 65536; n <= 65537; n++) {
		char *p = s;
		eevdf_workload *wl;
		struct eevdf_diag d;

		p += sprintf(p, "{" FMT "'tasks':[{'name':'a','program':[");
		for (i = 0; i < n; i++)
			p += sprintf(p, "%s{'yield':true}", i ? "," : "");
		strcpy(p, "]}]}");
		if (n == 65536) {
			wl = parse_ok(s);
			ck_assert_uint_eq(eevdf_workload_task(wl, 0)->nr_ops,
					  65536);
			eevdf_workload_free(wl);
		} else {
			ck_assert_int_eq(parse(s, &wl, &d), EEVDF_EPARSE);
			ck_assert_str_eq(d.path, "tasks[0].program[65536]");
			ck_assert_ptr_nonnull(
				strstr(d.msg, "at most 65536 ops"));
		}
	}
	free(s);
}
END_TEST

START_TEST(workload_duplicate_expanded_names_are_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'w','count':2,"
			   "'program':[{'run':1}]},{'name':'v','program':"
			   "[{'run':1}]},{'name':'w','count':3,'program':"
			   "[{'run':1}]}]}",
			   "tasks[2].name", "duplicate task name 'w[0]'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[" TASK_A "," TASK_A "]}",
			   "tasks[1].name", "duplicate task name 'a'");
	/* "w" and "w[0]" are different names. */
	eevdf_workload_free(parse_ok("{" FMT "'tasks':[{'name':'w','count':2,"
				     "'program':[{'run':1}]},{'name':'w',"
				     "'program':[{'run':1}]}]}"));
}
END_TEST

/* ---- the full format: helpers -------------------------------------- */

#define US 1000LL
#define MS 1000000LL

static eevdf_workload *parse_opts_ok(const char *s,
				     const struct eevdf_load_opts *o)
{
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	char buf[512], *j = dq(s);
	int r = eevdf_workload_parse_opts(j, strlen(j), "t.json", o, &wl, &d);

	free(j);
	ck_assert_msg(r == 0, "parse failed (%d): %s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(wl);
	return wl;
}

/* Parse with --param overrides and a number of CPUs. */
static eevdf_workload *parse_params(const char *s, const char *const *params,
				    size_t n, int ncpus)
{
	struct eevdf_load_opts o = { .params = params,
				     .nr_params = n,
				     .ncpus = ncpus };

	return parse_opts_ok(s, &o);
}

/* An example of workload_examples.h, joined from its pieces. */
static eevdf_workload *parse_ex(const char *const *parts,
				const char *const *params, size_t n, int ncpus)
{
	size_t len = 1;
	eevdf_workload *wl;
	char *s;

	for (size_t i = 0; parts[i]; i++)
		len += strlen(parts[i]);
	s = malloc(len);
	ck_assert_ptr_nonnull(s);
	s[0] = '\0';
	for (size_t i = 0; parts[i]; i++)
		strcat(s, parts[i]);
	wl = parse_params(s, params, n, ncpus);
	free(s);
	return wl;
}

static const struct program *prog_of(const eevdf_workload *wl, const char *task)
{
	int i = eevdf__wl_find_task(wl, task);

	ck_assert_msg(i >= 0, "no task '%s'", task);
	return eevdf__workload_program(wl, (size_t)i);
}

/*
 * The object task's op names: the task's own binding when the op is bound
 * (its instances share one program), else the op's own.
 */
static s32 obj_named(const eevdf_workload *wl, const char *task,
		     const struct pop *op)
{
	int i = eevdf__wl_find_task(wl, task);
	const struct wl_prog *w;

	ck_assert_msg(i >= 0, "no task '%s'", task);
	w = &wl->progs[wl->tasks[i].prog];
	if (!op->obj.bind)
		return op->obj.idx;
	ck_assert_uint_le(op->obj.bind, w->prog->nr_binds);
	return w->binds[op->obj.bind - 1];
}

static u32 local_slot(const eevdf_workload *wl, const char *name)
{
	int i = eevdf__wl_names_find(&wl->locals, name, strlen(name));

	ck_assert_msg(i >= 0, "no local '%s'", name);
	return (u32)i;
}

static int obj_idx(const eevdf_workload *wl, const char *name)
{
	int i = eevdf__wl_find_object(wl, name);

	ck_assert_msg(i >= 0, "no object '%s'", name);
	return i;
}

static u32 metric_idx(const eevdf_workload *wl, const char *name)
{
	int i = eevdf__wl_find_metric(wl, name);

	ck_assert_msg(i >= 0, "no metric '%s'", name);
	return (u32)i;
}

static void ck_const(const struct pval *v, s64 c)
{
	ck_assert_int_eq(v->kind, PV_CONST);
	ck_assert_int_eq(v->c, c);
}

/* op at pc has code c and a body of len (then len2) ops. */
static const struct pop *ck_op(const struct program *prog, u32 pc,
			       enum popcode c, u32 len, u32 len2)
{
	const struct pop *op;

	ck_assert_msg(pc < prog->nr_ops, "pc %u beyond %u ops", pc,
		      prog->nr_ops);
	op = &prog->ops[pc];
	ck_assert_msg(op->code == c, "op %u: code %d, want %d", pc,
		      (int)op->code, (int)c);
	ck_assert_msg(op->len == len && op->len2 == len2,
		      "op %u: len %u/%u, want %u/%u", pc, op->len, op->len2,
		      len, len2);
	ck_assert_int_eq(op->cost.kind, PV_NONE);
	return op;
}

/* A simulation of ncpus CPUs with the workload's tasks added. */
static eevdf_sim *sim_with(const eevdf_workload *wl, int ncpus)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;
	char buf[512];

	eevdf_config_init(&cfg);
	cfg.nr_cpus = ncpus;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_msg(eevdf_workload_add_tasks(wl, sim, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	return sim;
}

static void run_to_end(eevdf_sim *sim, eevdf_time limit)
{
	int r = eevdf_sim_run(sim, limit);

	ck_assert_msg(r == 0, "run failed (%d): %s", r, eevdf_sim_errmsg(sim));
	ck_assert_msg(eevdf_sim_done(sim), "not done at %lld ns",
		      (long long)eevdf_sim_now(sim));
}

/* ---- the benchmarks of workloads.md section 12 ----------------------- */

START_TEST(section12_schbench_compiles_message_and_worker_threads)
{
	static const char *const over[] = { "runtime=2s" };
	eevdf_workload *wl = parse_ex(wl_schbench, over, 1, 4);
	const struct program *m, *w;
	const struct pop *op;
	u32 stamp = local_slot(wl, "@wake_time");
	int waiters = obj_idx(wl, "waiters[0]");

	/* t = (ncpus + m - 1) / m = 4 workers */
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 5);
	ck_assert_str_eq(eevdf_workload_task(wl, 4)->name, "worker[0][3]");
	ck_assert_int_eq(eevdf_workload_duration(wl), 2000 * MS);
	ck_assert_int_eq(wl->stop, WL_STOP_AFTER);
	ck_assert(!wl->stop_kill);
	ck_assert_int_eq(wl->warmup, 0);
	/* the message thread */
	m = prog_of(wl, "msg[0]");
	ck_assert_uint_eq(m->nr_ops, 6);
	op = ck_op(m, 0, P_LOOP, 5, 0);
	ck_assert_int_eq(op->a.kind, PV_NONE);
	ck_assert_int_eq(op->b.kind, PV_NONE);
	ck_assert_int_eq(op->c.kind, PV_NONE);
	op = ck_op(m, 1, P_WAKE_LIST, 0, 0);
	ck_assert_int_eq(op->obj.idx, waiters);
	ck_assert_uint_eq(op->slot, stamp);
	ck_assert_uint_eq(op->flags, 0);
	op = ck_op(m, 2, P_IF, 2, 0);
	ck_assert_int_eq(op->a.kind, PV_EXPR);
	ck_op(m, 3, P_WAKE_LIST, 0, 0);
	ck_op(m, 4, P_EXIT, 0, 0);
	op = ck_op(m, 5, P_WAIT, 0, 0);
	ck_assert_int_eq(op->obj.idx, OBJ_SELF);
	ck_assert_int_eq(op->b.kind, PV_NONE);
	/*
	 * a worker: its drop_zero records have neither a cost nor a key, so
	 * the engine drops their zeros and they need no if; the two
	 * "if ${locking}" (locking = 1) are folded away at load time, their
	 * lock and unlock left in their place
	 */
	w = prog_of(wl, "worker[0][2]");
	ck_assert_uint_eq(w->nr_ops, 15);
	op = ck_op(w, 0, P_LOOP, 14, 0);
	ck_assert_int_eq(op->c.kind, PV_EXPR);
	op = ck_op(w, 1, P_LET, 0, 0);
	ck_assert_uint_eq(op->slot, stamp);
	ck_op(w, 2, P_PUSH, 0, 0);
	op = ck_op(w, 3, P_POST, 0, 0);
	ck_assert_int_eq(op->obj.idx, OBJ_NONE);
	ck_assert_int_eq(op->obj.task_pid, 1);
	ck_op(w, 4, P_IF, 1, 0);
	op = ck_op(w, 6, P_RECORD, 0, 0);
	ck_assert_uint_eq(op->slot, metric_idx(wl, "wakeup"));
	ck_assert_int_eq(op->a.form, EXPR_FORM_US_SINCE);
	ck_assert_uint_eq(op->a.slot, stamp);
	ck_assert_int_eq(op->b.kind, PV_NONE);
	op = ck_op(w, 8, P_SLEEP, 0, 0);
	ck_const(&op->a, 100 * US);
	ck_const(&op->b, 50 * US);
	op = ck_op(w, 9, P_LOCK, 0, 0);
	ck_assert_int_eq(op->obj.idx, obj_idx(wl, "cpulock"));
	ck_const(&ck_op(w, 10, P_LOOP, 1, 0)->a, 5);
	ck_const(&ck_op(w, 11, P_RUN, 0, 0)->a, 3400 * US);
	ck_op(w, 12, P_UNLOCK, 0, 0);
	ck_op(w, 13, P_RECORD, 0, 0);
	op = ck_op(w, 14, P_COUNT, 0, 0);
	ck_const(&op->a, 1);
	/* rates come after the counter they sample */
	ck_assert_uint_eq(metric_idx(wl, "rps"), 3);
	ck_assert_uint_eq(wl->metrics[3].of, metric_idx(wl, "requests"));
	ck_assert_int_eq(wl->metrics[3].every, 1000 * MS);
	ck_assert(wl->metrics[0].drop_zero);
	ck_assert_int_eq(wl->metrics[0].quant, EEVDF_HIST_FIO_PLAT8);
	ck_assert_str_eq(eevdf_workload_metric_unit(wl, "wakeup"), "us");
	/* every worker runs the same program; the message thread its own */
	ck_assert_ptr_eq(prog_of(wl, "worker[0][0]"), w);
	ck_assert_ptr_ne(m, w);
	ck_assert(wl->objs[obj_idx(wl, "cpulock")].tmpl.u.spin.per_cpu);
	ck_assert_str_eq(eevdf_workload_report_format(wl), "schbench");
	ck_assert_str_eq(eevdf_workload_report_option(wl, "interval"), "10s");
	ck_assert_uint_eq(eevdf_workload_report_also_count(wl), 1);
	ck_assert_str_eq(eevdf_workload_report_also(wl, 0),
			 "perf_sched_latency");
	ck_assert_ptr_null(eevdf_workload_report_also(wl, 1));
	ck_assert_ptr_null(eevdf_workload_report_option(wl, "nope"));
	/* the public view cannot show these programs */
	ck_assert_ptr_null(eevdf_workload_task(wl, 0)->program);
	ck_assert_uint_eq(eevdf_workload_task(wl, 0)->nr_ops, 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_hackbench_compiles_groups_of_pairs)
{
	eevdf_workload *wl = parse_ex(wl_hackbench, NULL, 0, 0);
	const struct program *mp, *sp;
	const struct sim_object *ch;
	const struct pop *op;
	int ready = obj_idx(wl, "ready");

	/* main, then 10 x 20 receivers, then 10 x 20 senders */
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 401);
	ck_assert_str_eq(eevdf_workload_task(wl, 1)->name, "receiver[0][0]");
	ck_assert_str_eq(eevdf_workload_task(wl, 21)->name, "receiver[1][0]");
	ck_assert_str_eq(eevdf_workload_task(wl, 400)->name, "sender[9][19]");
	ck_assert_uint_eq(wl->nr_objs, 202);
	ck_assert_int_eq(ready, 200);
	ch = &wl->objs[obj_idx(wl, "ch[3][7]")].tmpl;
	ck_assert_int_eq(ch->type, OBJ_CHANNEL);
	ck_assert_int_eq(ch->u.chan.kind, CHAN_UNIX_STREAM);
	ck_assert_uint_eq(ch->u.chan.capacity, 212992);
	ck_assert_uint_eq(ch->u.chan.overhead, 768);
	ck_assert_int_eq(ch->u.chan.writer_wake, WW_QUARTER_FREE);
	ck_assert(ch->u.chan.writers_all);
	ck_assert(ch->u.chan.reader_sync);
	mp = prog_of(wl, "main");
	ck_assert_uint_eq(mp->nr_ops, 6);
	ck_const(&ck_op(mp, 0, P_LOOP, 1, 0)->a, 400);
	ck_assert_int_eq(ck_op(mp, 1, P_WAIT, 0, 0)->obj.idx, ready);
	ck_op(mp, 2, P_LET, 0, 0);
	ck_assert_int_eq(ck_op(mp, 3, P_SET, 0, 0)->obj.idx, 201);
	op = ck_op(mp, 4, P_JOIN, 0, 0);
	ck_const(&op->a, 0);
	ck_assert_uint_eq(wl->joins[0].nr, 400);
	ck_assert_uint_eq(wl->joins[0].pids[0], 2);
	ck_assert_uint_eq(wl->joins[0].pids[399], 401);
	ck_assert_uint_eq(ck_op(mp, 5, P_RECORD, 0, 0)->slot,
			  metric_idx(wl, "time"));
	/* a sender: the channel is named at run time by @j */
	sp = prog_of(wl, "sender[2][5]");
	ck_assert_uint_eq(sp->nr_ops, 5);
	ck_assert_int_eq(ck_op(sp, 0, P_POST, 0, 0)->obj.idx, ready);
	ck_op(sp, 1, P_WAIT, 0, 0);
	ck_const(&ck_op(sp, 2, P_LOOP, 2, 0)->a, 100);
	op = ck_op(sp, 3, P_LOOP, 1, 0);
	ck_const(&op->a, 20);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@j"));
	ck_const(&op->field[0], 0);
	ck_const(&op->field[1], 1);
	op = ck_op(sp, 4, P_SEND, 0, 0);
	ck_const(&op->a, 100);
	ck_assert_int_eq(op->obj.idx, OBJ_NONE);
	ck_assert_uint_eq(op->obj.nr_parts, 2);
	ck_assert_str_eq(op->obj.parts[0].text, "ch[2][");
	ck_assert_ptr_nonnull(op->obj.parts[0].expr);
	ck_assert_str_eq(op->obj.parts[1].text, "]");
	ck_assert_ptr_null(op->obj.parts[1].expr);
	ck_assert_str_eq(op->obj.text, "ch[${g}][@j]");
	/* and a receiver reads its own channel, exactly */
	op = ck_op(prog_of(wl, "receiver[4][6]"), 2, P_LOOP, 1, 0);
	ck_const(&op->a, 2000);
	op = ck_op(prog_of(wl, "receiver[4][6]"), 3, P_RECV, 0, 0);
	ck_assert_uint_eq(op->obj.bind, 1);
	ck_assert_int_eq(obj_named(wl, "receiver[4][6]", op),
			 obj_idx(wl, "ch[4][6]"));
	ck_assert_int_eq(obj_named(wl, "receiver[0][0]", op),
			 obj_idx(wl, "ch[0][0]"));
	ck_assert_uint_eq(op->flags, RECV_EXACT);
	/*
	 * Receivers differ only in the channel ${g} and ${i} pick: one
	 * program for all 200.  A sender's name keeps ${g} in its run-time
	 * part, so each group's senders have a program of their own.
	 */
	ck_assert_ptr_eq(prog_of(wl, "receiver[4][6]"),
			 prog_of(wl, "receiver[0][0]"));
	ck_assert_ptr_eq(sp, prog_of(wl, "sender[2][0]"));
	ck_assert_ptr_ne(sp, prog_of(wl, "sender[3][5]"));
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_pipe_compiles_the_ping_pong)
{
	eevdf_workload *wl = parse_ex(wl_pipe, NULL, 0, 0);
	const struct program *t0 = prog_of(wl, "t0"), *t1 = prog_of(wl, "t1");
	const struct eevdf_task_spec *s = eevdf_workload_task(wl, 0);
	const struct sim_object *p1 = &wl->objs[0].tmpl;

	ck_assert_str_eq(p1->name, "p1");
	ck_assert_int_eq(p1->u.chan.kind, CHAN_PIPE);
	ck_assert_uint_eq(p1->u.chan.capacity, 65536);
	ck_assert_int_eq(p1->u.chan.writer_wake, WW_SLOT_FREED_IF_FULL);
	ck_assert(!p1->u.chan.writers_all);
	ck_assert_uint_eq(s->nr_cpus, 1);
	ck_assert_int_eq(s->cpus[0], 0);
	ck_assert_uint_eq(t0->nr_ops, 3);
	ck_const(&ck_op(t0, 0, P_LOOP, 2, 0)->a, 1000000);
	ck_assert_int_eq(ck_op(t0, 1, P_RECV, 0, 0)->obj.idx, 0);
	ck_const(&t0->ops[1].a, 4);
	ck_assert_int_eq(t0->ops[1].b.kind, PV_NONE);
	ck_assert_int_eq(ck_op(t0, 2, P_SEND, 0, 0)->obj.idx, 1);
	ck_assert_int_eq(ck_op(t1, 1, P_SEND, 0, 0)->obj.idx, 0);
	ck_assert_int_eq(ck_op(t1, 2, P_RECV, 0, 0)->obj.idx, 1);
	ck_assert_int_eq(wl->stop, WL_STOP_ALL_EXITED);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_tbench_passes_resp_in_a_message_field)
{
	eevdf_workload *wl = parse_ex(wl_tbench, NULL, 0, 0);
	const struct program *c = prog_of(wl, "client[1]");
	const struct program *sv = prog_of(wl, "server[1]");
	const struct pop *op;
	u32 resp = local_slot(wl, "@m.resp"), i;

	/* server: recv a whole message, its field into @m.resp */
	ck_assert_uint_eq(sv->nr_ops, 6);
	ck_assert_int_eq(ck_op(sv, 0, P_LOOP, 5, 0)->a.kind, PV_NONE);
	/* each pair's programs are the first pair's, bound to its channels */
	ck_assert_ptr_eq(c, prog_of(wl, "client[0]"));
	ck_assert_ptr_eq(sv, prog_of(wl, "server[0]"));
	ck_assert_ptr_ne(c, sv);
	ck_assert_uint_eq(c->nr_binds, 2);
	ck_assert_uint_eq(sv->nr_binds, 2);
	op = ck_op(sv, 1, P_RECV, 0, 0);
	ck_assert_int_eq(obj_named(wl, "server[1]", op), obj_idx(wl, "c2s[1]"));
	ck_assert_int_eq(obj_named(wl, "server[0]", op), obj_idx(wl, "c2s[0]"));
	ck_assert_uint_eq(op->flags, RECV_MESSAGE);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@st"));
	ck_const(&op->b, 2);
	ck_assert_uint_eq(op->nr_fields, 1);
	ck_assert_uint_eq(op->field_slot[0], resp);
	ck_op(sv, 2, P_IF, 1, 0);
	ck_op(sv, 3, P_EXIT, 0, 0);
	ck_const(&ck_op(sv, 4, P_RUN, 0, 0)->a, 200);
	op = ck_op(sv, 5, P_SEND, 0, 0);
	ck_assert_int_eq(obj_named(wl, "server[1]", op), obj_idx(wl, "s2c[1]"));
	ck_assert_int_eq(op->a.kind, PV_EXPR);
	ck_assert_uint_eq(op->nr_fields, 0);
	/* client: a choose of 14 weighted branches, then the send */
	ck_op(c, 0, P_LOOP, c->nr_ops - 1, 0);
	op = ck_op(c, 1, P_CHOOSE, c->ops[1].len, 0);
	ck_const(&ck_op(c, 2, P_BRANCH, 4, c->ops[1].len - 5)->a, 1707761);
	op = ck_op(c, 3, P_LET, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@op"));
	ck_const(&op->a, STRING_ID_BASE + 0);
	ck_assert_int_eq(ck_op(c, 5, P_LET, 0, 0)->a.kind, PV_DIST);
	ck_assert_str_eq(wl->strings.v[0], "ReadX");
	ck_assert_str_eq(wl->strings.v[13], "UnlockX");
	for (i = 2; c->ops[i].code == P_BRANCH; i += 1 + c->ops[i].len)
		;
	ck_assert_uint_eq(i, 2 + c->ops[1].len);
	ck_assert_int_eq(c->ops[i].code, P_RECORD);
	op = ck_op(c, i + 2, P_SEND, 0, 0);
	ck_assert_int_eq(obj_named(wl, "client[1]", op), obj_idx(wl, "c2s[1]"));
	ck_assert_uint_eq(op->nr_fields, 1);
	ck_assert_int_eq(op->field[0].kind, PV_EXPR);
	op = ck_op(c, i + 3, P_RECV, 0, 0);
	ck_assert_uint_eq(op->flags, RECV_EXACT);
	ck_const(&op->b, 2);
	ck_assert_uint_eq(wl->objs[obj_idx(wl, "c2s[0]")].tmpl.u.chan.capacity,
			  4u << 20);
	ck_assert_int_eq(wl->warmup, 120000 * MS);
	ck_assert_str_eq(eevdf_workload_report_option(wl, "print_every"), "1s");
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_massive_intr_records_loops_per_pid)
{
	eevdf_workload *wl = parse_ex(wl_massive_intr, NULL, 0, 0);
	const struct program *pp = prog_of(wl, "parent");
	const struct program *cp = prog_of(wl, "child[3]");
	const struct pop *op;

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 9);
	op = ck_op(pp, 0, P_LET, 0, 0);
	ck_assert_uint_eq(op->flags, SLOT_GLOBAL);
	ck_assert_uint_eq(op->slot, 0);
	ck_assert_str_eq(wl->globals.v[0], "@@first");
	ck_op(pp, 1, P_SET, 0, 0);
	ck_const(&ck_op(pp, 2, P_JOIN, 0, 0)->a, 0);
	ck_assert_uint_eq(wl->joins[0].nr, 8);
	ck_assert_uint_eq(wl->joins[0].pids[0], 2);
	ck_const(&ck_op(cp, 0, P_SLEEP, 0, 0)->a, 200 * MS);
	ck_assert_int_eq(cp->ops[0].b.kind, PV_NONE);
	ck_op(cp, 1, P_WAIT, 0, 0);
	op = ck_op(cp, 2, P_LOOP, 3, 0);
	ck_assert_uint_eq(op->flags, LOOP_CHECK_AFTER);
	ck_assert_int_eq(op->a.kind, PV_NONE);
	ck_assert_int_eq(op->c.kind, PV_EXPR);
	ck_const(&ck_op(cp, 3, P_RUN, 0, 0)->a, 8 * MS);
	op = ck_op(cp, 4, P_SLEEP, 0, 0);
	ck_const(&op->a, 1 * MS);
	ck_const(&op->b, 50 * US);
	op = ck_op(cp, 6, P_RECORD, 0, 0);
	ck_assert_int_eq(op->a.kind, PV_EXPR);
	ck_assert_int_eq(op->b.kind, PV_EXPR);
	/* slice: null is the default slice */
	ck_assert_int_eq(eevdf_workload_task(wl, 1)->slice, 0);
	ck_assert(wl->metrics[0].keyed);
	ck_assert_ptr_eq(prog_of(wl, "child[0]"), cp);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_blogbench_inlines_its_macros)
{
	eevdf_workload *wl = parse_ex(wl_blogbench, NULL, 0, 0);
	const struct program *w = prog_of(wl, "writer[0]");
	const struct pop *op;

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 109);
	ck_assert_int_eq(eevdf_workload_duration(wl), 300000 * MS);
	op = ck_op(w, 1, P_LOCK, 0, 0);
	ck_assert_int_eq(op->obj.idx, obj_idx(wl, "blog_id_lock"));
	ck_assert_int_eq(wl->objs[0].tmpl.type, OBJ_MUTEX);
	ck_op(w, 2, P_UNLOCK, 0, 0);
	ck_const(&ck_op(w, 3, P_RUN, 0, 0)->a, 6 * US);
	/* create_atomic inlined: open, a loop of writes, close, rename */
	op = ck_op(w, 4, P_LOOP, 7, 0);
	ck_assert_int_eq(op->a.kind, PV_DIST);
	ck_assert_int_eq(op->a.dist->kind, EEVDF_DIST_UNIFORM_INT);
	ck_assert_int_eq(op->a.dist->min, 1);
	ck_assert_int_eq(op->a.dist->max, 100);
	ck_assert_uint_eq(ck_op(w, 5, P_LET, 0, 0)->slot,
			  local_slot(wl, "@size"));
	ck_const(&ck_op(w, 6, P_RUN, 0, 0)->a, 2 * US);
	ck_assert_int_eq(ck_op(w, 7, P_LOOP, 1, 0)->a.kind, PV_EXPR);
	ck_const(&ck_op(w, 8, P_RUN, 0, 0)->a, 3 * US);
	ck_const(&ck_op(w, 9, P_RUN, 0, 0)->a, 1 * US);
	ck_const(&ck_op(w, 10, P_RUN, 0, 0)->a, 4 * US);
	ck_assert_uint_eq(ck_op(w, 11, P_COUNT, 0, 0)->slot,
			  metric_idx(wl, "w_articles"));
	/* a hundred readers, one program */
	ck_assert_ptr_eq(prog_of(wl, "reader[0]"), prog_of(wl, "reader[99]"));
	ck_assert_ptr_ne(prog_of(wl, "reader[0]"), w);
	ck_assert_str_eq(eevdf_workload_report_option(wl, "interval"),
			 "10000000000");
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_futex_adds_slack_to_the_timeout)
{
	eevdf_workload *wl = parse_ex(wl_futex, NULL, 0, 0);
	const struct program *wp = prog_of(wl, "waiter[0]");
	const struct pop *op;

	op = ck_op(wp, 0, P_LOOP, 7, 0);
	ck_assert_int_eq(op->c.kind, PV_EXPR);
	op = ck_op(wp, 1, P_BLOCK, 0, 0);
	ck_assert_int_eq(op->obj.idx, obj_idx(wl, "futex[0]"));
	ck_const(&op->b, 5 * US + 50 * US);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@st"));
	ck_assert_int_eq(op->obj2.idx, OBJ_NONE);
	ck_op(wp, 2, P_IF, 4, 1);
	ck_op(wp, 4, P_IF, 2, 0);
	ck_const(&ck_op(wp, 5, P_SLEEP, 0, 0)->a, 250 * MS);
	ck_op(wp, 7, P_COUNT, 0, 0);
	op = ck_op(prog_of(wl, "waker[0]"), 1, P_WAKE, 0, 0);
	ck_const(&op->a, 1);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(section12_cyclictest_sleeps_until_the_next_period)
{
	eevdf_workload *wl = parse_ex(wl_cyclictest, NULL, 0, 0);
	const struct program *p = prog_of(wl, "cyclictest[0]");
	const struct pop *op;

	/* "${interval} + ${i} * ${distance}" folds to a constant */
	ck_const(&ck_op(p, 0, P_LET, 0, 0)->a, 1000 * US);
	ck_assert_int_eq(ck_op(p, 1, P_LET, 0, 0)->a.kind, PV_EXPR);
	ck_op(p, 2, P_LOOP, 5, 0);
	op = ck_op(p, 3, P_SLEEP_UNTIL, 0, 0);
	ck_assert_int_eq(op->a.kind, PV_EXPR);
	ck_const(&op->b, 0);
	op = ck_op(p, 4, P_RECORD, 0, 0);
	ck_const(&op->b, 0);
	ck_op(p, 5, P_LET, 0, 0);
	ck_assert_int_eq(ck_op(p, 6, P_LOOP, 1, 0)->b.kind, PV_EXPR);
	ck_op(p, 7, P_LET, 0, 0);
	ck_assert_int_eq(eevdf_workload_task(wl, 0)->policy,
			 EEVDF_POLICY_NORMAL);
	eevdf_workload_free(wl);
}
END_TEST

/* ---- features ---------------------------------------------------------- */

#define P1 "{" FMT "'params':{'n':2,'d':'5ms','k':'thread','s':null},"

START_TEST(params_are_typed_and_overridden_by_name)
{
	static const char *const over[] = { "n=3", "d=\"7ms\"", "s=200us",
					    "k=process" };
	static const char *const wl_src = P1
		"'tasks':[{'name':'t[${i}]','for':{'i':[0,'${n}']},"
		"'kind':'${k}','slice':'${s}',"
		"'program':[{'run':'${d}'},{'sleep':'${d / 5}'}]}]}";
	eevdf_workload *wl = parse_ok(wl_src);
	const struct program *p;

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 2);
	ck_assert(wl->tasks[0].is_thread);
	ck_assert_int_eq(eevdf_workload_task(wl, 0)->slice, 0);
	p = prog_of(wl, "t[1]");
	ck_const(&p->ops[0].a, 5 * MS);
	ck_const(&p->ops[1].a, 1 * MS);
	/* the public view shows a program of constant run and sleep */
	ck_assert_uint_eq(eevdf_workload_task(wl, 1)->nr_ops, 2);
	check_op(&eevdf_workload_task(wl, 1)->program[1], EEVDF_OP_SLEEP,
		 1 * MS, 0, 0);
	eevdf_workload_free(wl);

	wl = parse_params(wl_src, over, 4, 1);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 3);
	ck_assert(!wl->tasks[0].is_thread);
	ck_assert_int_eq(eevdf_workload_task(wl, 2)->slice, 200 * US);
	ck_const(&prog_of(wl, "t[2]")->ops[0].a, 7 * MS);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(params_override_of_an_unknown_name_is_an_error)
{
	static const char *const bad[] = { "zz=1" };
	static const char *const noeq[] = { "n" };
	static const char *const frac[] = { "n=1.5" };
	struct eevdf_load_opts o = { .params = bad, .nr_params = 1 };

	expect_error_opts(P1 "'tasks':[" TASK_A "]}", &o, EEVDF_EPARSE,
			  "params",
			  "--param zz: the workload has no param "
			  "'zz'");
	expect_error_opts("{" FMT "'tasks':[" TASK_A "]}", &o, EEVDF_EPARSE, "",
			  "no param 'zz'");
	o.params = noeq;
	expect_error_opts(P1 "'tasks':[" TASK_A "]}", &o, EEVDF_EPARSE,
			  "params", "expected NAME=VALUE");
	o.params = frac;
	expect_error_opts(P1 "'tasks':[" TASK_A "]}", &o, EEVDF_EPARSE,
			  "params.n",
			  "--param n=1.5: the value must be an "
			  "integer");
	o.params = NULL;
	expect_error_opts(P1 "'tasks':[" TASK_A "]}", &o, EEVDF_EINVAL, "",
			  "bad load options");
}
END_TEST

START_TEST(load_file_opts_passes_the_overrides)
{
	static const char *const over[] = { "n=4" };
	struct eevdf_load_opts o = { .params = over, .nr_params = 1 };
	char path[] = "/tmp/eevdf-check-wlo-XXXXXX";
	char *j = dq("{" FMT "'params':{'n':1},'tasks':[{'name':'a',"
		     "'count':'${n}','program':[{'run':1}]}]}");
	struct eevdf_diag d;
	eevdf_workload *wl;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, j, strlen(j)), (ssize_t)strlen(j));
	close(fd);
	ck_assert_int_eq(eevdf_workload_load_file_opts(path, &o, &wl, &d), 0);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 4);
	eevdf_workload_free(wl);
	ck_assert_int_eq(eevdf_workload_load_file(path, &wl, &d), 0);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 1);
	eevdf_workload_free(wl);
	unlink(path);
	free(j);
}
END_TEST

START_TEST(params_see_earlier_params_and_the_machine)
{
	static const char *const src =
		"{" FMT "'params':{'m':2,'t':'${(ncpus + m - 1) / m}',"
		"'l':'${nllc}'},'tasks':[{'name':'w','count':'${t * l}',"
		"'program':[{'run':1}]}]}";
	struct eevdf_load_opts o = { .ncpus = 8, .nllc = 2 };
	eevdf_workload *wl = parse_opts_ok(src, &o);

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 8);
	eevdf_workload_free(wl);
	wl = parse_ok(src);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 1);
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'params':{'a':'${b}','b':1},"
			   "'tasks':[" TASK_A "]}",
			   "params.a", "unknown name 'b'");
	EXPECT_PARSE_ERROR("{" FMT "'params':{'ncpus':1},"
			   "'tasks':[" TASK_A "]}",
			   "params.ncpus", "'ncpus' is a built-in name");
	EXPECT_PARSE_ERROR("{" FMT "'params':{'k':'x'},'tasks':[{'name':'a',"
			   "'program':[{'run':'${k * 2}'}]}]}",
			   "tasks[0].program[0].run",
			   "param 'k' is a string, not a number");
}
END_TEST

START_TEST(for_instantiates_the_cross_product_in_key_order)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'g':2},'tasks':["
		"{'name':'w[${a}][${b}]','for':{'a':[0,'${g}'],'b':[1,3]},"
		" 'program':[{'run':1}]},"
		"{'name':'tri[${x}].${y}','for':{'x':[0,3],'y':[0,'${x}']},"
		" 'program':[{'run':'${x * 10 + y}'}]},"
		"{'name':'none[${z}]','for':{'z':[5,5]},'program':[{'run':1}]},"
		"{'name':'c${g}','count':2,'program':[{'run':1}]}]}");
	static const char *const names[] = {
		"w[0][1]",  "w[0][2]",	"w[1][1]", "w[1][2]", "tri[1].0",
		"tri[2].0", "tri[2].1", "c2[0]",   "c2[1]",
	};

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 9);
	for (size_t i = 0; i < 9; i++) {
		ck_assert_str_eq(eevdf_workload_task(wl, i)->name, names[i]);
		ck_assert_uint_eq(wl->tasks[i].src, i < 4 ? 0 : i < 7 ? 1 : 3);
	}
	/* a program that reads a for variable is compiled per instance */
	ck_const(&prog_of(wl, "tri[2].1")->ops[0].a, 21);
	ck_assert_ptr_ne(prog_of(wl, "tri[2].0"), prog_of(wl, "tri[2].1"));
	ck_assert_ptr_eq(prog_of(wl, "w[0][1]"), prog_of(wl, "w[1][2]"));
	ck_assert_ptr_eq(prog_of(wl, "c2[0]"), prog_of(wl, "c2[1]"));
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','for':{'i':[0,1]},"
			   "'count':2,'program':[{'run':1}]}]}",
			   "tasks[0]", "either 'for' or 'count'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a${i}','for':"
			   "{'i':[3,1]},'program':[{'run':1}]}]}",
			   "tasks[0].for.i", "runs backwards");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a${i}','for':"
			   "{'i':[0]},'program':[{'run':1}]}]}",
			   "tasks[0].for.i", "half-open range");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','for':"
			   "{'i':[0,2]},'program':[{'run':1}]}]}",
			   "tasks[0].name",
			   "duplicate task name 'a' (also "
			   "used by tasks[0])");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a${i}','for':"
			   "{'i':[0,0]},'program':[{'run':1}]}]}",
			   "tasks", "no task is left after expansion");
}
END_TEST

START_TEST(vars_and_pid_seed_each_task)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':[{'name':'z','program':[{'run':1}]},"
		"{'name':'v[${i}]','for':{'i':[0,3]},"
		" 'vars':{'@x':'${i * 7}','@y':{'str':'hello'},'@d':'2ms'},"
		" 'program':[{'let':{'@@sum':'@@sum + @x + @pid'}},"
		"  {'run':1}]}]}");
	eevdf_sim *sim = sim_with(wl, 1);
	u32 x = local_slot(wl, "@x"), y = local_slot(wl, "@y");
	u32 d = local_slot(wl, "@d");

	ck_assert_uint_eq(local_slot(wl, "@pid"), 0);
	ck_assert_uint_eq(wl->tasks[2].nr_init, 3);
	/* one program: @x comes from vars, not from the compiled ops */
	ck_assert_ptr_eq(prog_of(wl, "v[0]"), prog_of(wl, "v[2]"));
	for (size_t i = 0; i < 4; i++) {
		const struct task *t = sim->sched.tasks[i];

		ck_assert_int_eq(t->locals[0], (s64)i + 1);
		if (!i)
			continue;
		ck_assert_int_eq(t->locals[x], (s64)(i - 1) * 7);
		ck_assert_int_eq(t->locals[y], STRING_ID_BASE);
		ck_assert_int_eq(t->locals[d], 2 * MS);
	}
	run_to_end(sim, 1000 * MS);
	/* (0 + 2) + (7 + 3) + (14 + 4) */
	ck_assert_int_eq(sim->globals[0], 30);
	ck_assert_str_eq(eevdf__sim_string(sim, STRING_ID_BASE), "hello");
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','vars':{'@pid':1},"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].vars.@pid", "'@pid' is set by the loader");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','vars':{'@@g':1},"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].vars.@@g",
			   "globals, '@@x', are set with let");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','vars':"
			   "{'@t':'now'},'program':[{'run':1}]}]}",
			   "tasks[0].vars.@t", "invalid value 'now'");
}
END_TEST

START_TEST(macros_inline_with_their_args_first)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'macros':{'work':{'body':[{'run':'@size'},"
		"  {'call':{'macro':'nap'}}]},"
		" 'nap':{'body':[{'sleep':'1ms'}]}},"
		"'tasks':[{'name':'a','program':[{'call':{'macro':'work',"
		"  'args':{'@size':'2ms','@@g':3}}},"
		" {'call':{'macro':'nap'}}]}]}");
	const struct program *p = prog_of(wl, "a");
	const struct pop *op;

	ck_assert_uint_eq(p->nr_ops, 5);
	op = ck_op(p, 0, P_LET, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@size"));
	ck_const(&op->a, 2 * MS);
	op = ck_op(p, 1, P_LET, 0, 0);
	ck_assert_uint_eq(op->flags, SLOT_GLOBAL);
	ck_assert_int_eq(ck_op(p, 2, P_RUN, 0, 0)->a.kind, PV_EXPR);
	ck_const(&ck_op(p, 3, P_SLEEP, 0, 0)->a, 1 * MS);
	ck_const(&ck_op(p, 4, P_SLEEP, 0, 0)->a, 1 * MS);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * "${...}" is a constant by the time the program is compiled, and an if on
 * a constant is folded at load time: with l = 0 the else-branch is the
 * whole program, its sleep a constant of (0 + 2) ms; with l = 1 the
 * then-branch, with the loop around it kept.
 */
START_TEST(constant_conditions_fold_at_load_time)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'l':0},'tasks':[{'name':'a','program':["
		" {'if':{'cond':'${l}','then':[{'run':'1ms'}],"
		"  'else':[{'sleep':'${l + 2}ms'}]}},"
		" {'loop':{'count':2,'body':[{'if':{'cond':'${l} == 1',"
		"  'then':[{'run':'3ms'}]}},{'run':'${l + 1}ms'}]}}]}]}");
	const struct program *a = prog_of(wl, "a");

	/* 0 sleep 2 ms, 1 loop 2 [ 2 run 1 ms ] */
	ck_assert_uint_eq(a->nr_ops, 3);
	ck_const(&ck_op(a, 0, P_SLEEP, 0, 0)->a, 2 * MS);
	ck_const(&ck_op(a, 1, P_LOOP, 1, 0)->a, 2);
	ck_const(&ck_op(a, 2, P_RUN, 0, 0)->a, 1 * MS);
	eevdf_workload_free(wl);
	wl = parse_ok("{" FMT "'params':{'l':1},'tasks':[{'name':'a',"
		      "'program':[{'loop':{'count':2,'body':["
		      " {'if':{'cond':'${l} == 1','then':[{'run':'3ms'}]}},"
		      " {'if':{'cond':'!stop','then':[{'run':'1ms'}]}}]}}]}]}");
	a = prog_of(wl, "a");
	/* 0 loop 2 [ 1 run 3 ms, 2 if !stop [ 3 run 1 ms ] ] */
	ck_assert_uint_eq(a->nr_ops, 4);
	ck_const(&ck_op(a, 0, P_LOOP, 3, 0)->a, 2);
	ck_const(&ck_op(a, 1, P_RUN, 0, 0)->a, 3 * MS);
	ck_assert_int_eq(ck_op(a, 2, P_IF, 1, 0)->a.kind, PV_EXPR);
	ck_const(&ck_op(a, 3, P_RUN, 0, 0)->a, 1 * MS);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * Instances that differ only in the objects ${i} names run one program,
 * each with its own bindings: w[1] is woken through p[1] and posts s[1]
 * and v[1]'s own semaphore, not instance 0's.  m posts p[1] at once
 * and the others only after 1 s, so at 100 ms, by hand: s[1] = 2 (w[1])
 * + 1 (v[1]) = 3, s[0] = s[2] = 0, and w[0], w[2], v[0], v[2] are still
 * blocked.
 */
START_TEST(bound_names_share_one_program)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'sem','name':'p[${i}]',"
		" 'for':{'i':[0,3]}},{'type':'sem','name':'s[${i}]',"
		" 'for':{'i':[0,3]}}],"
		"'tasks':[{'name':'w[${i}]','for':{'i':[0,3]},'program':["
		"  {'wait':{'sem':'p[${i}]'}},{'post':{'sem':'s[${i}]','n':2}},"
		"  {'post':{'sem':'v[${i}].self'}}]},"
		" {'name':'v[${i}]','for':{'i':[0,3]},'program':["
		"  {'wait':{'sem':'self'}},{'post':{'sem':'s[${i}]'}}]},"
		" {'name':'m','program':[{'post':{'sem':'p[1]'}},"
		"  {'sleep':'1s'},{'post':{'sem':'p[0]'}},"
		"  {'post':{'sem':'p[2]'}}]}]}");
	const struct program *w0 = prog_of(wl, "w[0]");
	struct eevdf_task_stats st;
	const struct pop *op;
	eevdf_sim *sim;

	ck_assert_ptr_eq(prog_of(wl, "w[1]"), w0);
	ck_assert_ptr_eq(prog_of(wl, "w[2]"), w0);
	ck_assert_ptr_eq(prog_of(wl, "v[2]"), prog_of(wl, "v[0]"));
	ck_assert_ptr_ne(prog_of(wl, "v[0]"), w0);
	ck_assert_uint_eq(w0->nr_binds, 3);
	/* w[2]'s bindings: p[2], s[2], and v[2]'s semaphore (pid 6) */
	op = ck_op(w0, 0, P_WAIT, 0, 0);
	ck_assert_uint_eq(op->obj.bind, 1);
	ck_assert_int_eq(obj_named(wl, "w[2]", op), obj_idx(wl, "p[2]"));
	op = ck_op(w0, 1, P_POST, 0, 0);
	ck_assert_uint_eq(op->obj.bind, 2);
	ck_assert_int_eq(obj_named(wl, "w[2]", op), obj_idx(wl, "s[2]"));
	op = ck_op(w0, 2, P_POST, 0, 0);
	ck_assert_uint_eq(op->obj.bind, 3);
	ck_assert_int_eq(obj_named(wl, "w[2]", op), -6);
	/* "self" needs no binding */
	ck_assert_uint_eq(ck_op(prog_of(wl, "v[0]"), 0, P_WAIT, 0, 0)->obj.bind,
			  0);
	sim = sim_with(wl, 2);
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), 0);
	ck_assert_int_eq(sim->objs[obj_idx(wl, "s[0]")]->u.sem.count, 0);
	ck_assert_int_eq(sim->objs[obj_idx(wl, "s[1]")]->u.sem.count, 3);
	ck_assert_int_eq(sim->objs[obj_idx(wl, "s[2]")]->u.sem.count, 0);
	for (size_t i = 0; i < 6; i++) {
		ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
		ck_assert_msg(
			(st.state == EEVDF_TASK_DEAD) == (i == 1 || i == 4),
			"task %zu (%s): state %d", i, st.name, (int)st.state);
	}
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * No sharing where the instances differ in more than their objects: ${i}
 * read elsewhere in the program, or a fifth bound name (a task binds
 * four).  Each instance then runs a program of its own, as exactly.
 */
START_TEST(names_that_cannot_bind_keep_their_own_program)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'sem','name':'s[${i}]',"
		" 'for':{'i':[0,5]}}],"
		"'tasks':[{'name':'a[${i}]','for':{'i':[0,2]},'program':["
		"  {'post':{'sem':'s[${i}]','n':'${i} + 1'}}]},"
		" {'name':'b[${i}]','for':{'i':[0,2]},'program':["
		"  {'post':{'sem':'s[${i}]'}},{'post':{'sem':'s[${i + 1}]'}},"
		"  {'post':{'sem':'s[${i + 2}]'}},"
		"  {'post':{'sem':'s[${i + 3}]'}},"
		"  {'post':{'sem':'s[${(i + 4) % 5}]'}}]}]}");
	const struct program *b1 = prog_of(wl, "b[1]");
	eevdf_sim *sim;

	ck_assert_ptr_ne(prog_of(wl, "a[0]"), prog_of(wl, "a[1]"));
	ck_assert_ptr_ne(prog_of(wl, "b[0]"), b1);
	ck_assert_uint_eq(b1->nr_binds, 4);
	ck_assert_uint_eq(ck_op(b1, 3, P_POST, 0, 0)->obj.bind, 4);
	ck_assert_uint_eq(ck_op(b1, 4, P_POST, 0, 0)->obj.bind, 0);
	ck_assert_int_eq(ck_op(b1, 4, P_POST, 0, 0)->obj.idx,
			 obj_idx(wl, "s[0]"));
	ck_assert_int_eq(obj_named(wl, "b[1]", ck_op(b1, 3, P_POST, 0, 0)),
			 obj_idx(wl, "s[4]"));
	/*
	 * a[0] posts s[0] once and a[1] s[1] twice; b[0] posts s[0..4]
	 * and b[1] s[1..4] and s[0]: s[0] = 1 + 1 + 1, s[1] = 2 + 1 + 1,
	 * and s[2..4] = 2 each.
	 */
	sim = sim_with(wl, 2);
	run_to_end(sim, 100 * MS);
	ck_assert_int_eq(sim->objs[obj_idx(wl, "s[0]")]->u.sem.count, 3);
	ck_assert_int_eq(sim->objs[obj_idx(wl, "s[1]")]->u.sem.count, 4);
	for (int k = 2; k < 5; k++)
		ck_assert_int_eq(sim->objs[k]->u.sem.count, 2);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(dynamic_names_resolve_at_run_time)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'sem','name':'s[${i}]',"
		" 'for':{'i':[0,3]}}],"
		"'tasks':[{'name':'w[${i}]','for':{'i':[0,2]},"
		" 'program':[{'wait':{'sem':'self'}},"
		"  {'loop':{'var':'@k','count':3,'body':"
		"   [{'post':{'sem':'s[@k]','n':'@k + 1'}}]}}]},"
		"{'name':'m','vars':{'@c':0},'program':["
		" {'post':{'sem':'w[@c].self'}},{'post':{'sem':'w[1].self'}},"
		" {'loop':{'var':'@j','count':6,'body':["
		"  {'wait':{'sem':'s[${1 + 1}]'}}]}},"
		" {'wait':{'sem':'s[0]'}},{'wait':{'sem':'s[1]'}}]}]}");
	const struct program *m = prog_of(wl, "m");
	const struct pop *op;
	eevdf_sim *sim;

	op = ck_op(m, 0, P_POST, 0, 0);
	ck_assert_int_eq(op->obj.idx, OBJ_NONE);
	ck_assert_uint_eq(op->obj.nr_parts, 2);
	ck_assert_str_eq(op->obj.parts[0].text, "w[");
	ck_assert_str_eq(op->obj.parts[1].text, "].self");
	/* a constant bracket folds into a fixed name */
	ck_assert_int_eq(ck_op(m, 3, P_WAIT, 0, 0)->obj.idx, 2);
	/* no object is named "w[N].self": that one is looked up by name */
	ck_assert_ptr_null(op->obj.table);
	op = ck_op(m, 1, P_POST, 0, 0);
	ck_assert_int_eq(op->obj.task_pid, 2);
	ck_assert_uint_eq(op->obj.nr_parts, 0);
	/* s[@k] was resolved at load time: @k = 0, 1, 2 are objects 0..2 */
	op = ck_op(prog_of(wl, "w[0]"), 2, P_POST, 0, 0);
	ck_assert_ptr_nonnull(op->obj.table);
	ck_assert_int_eq(op->obj.table_lo, 0);
	ck_assert_uint_eq(op->obj.table_n, 3);
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(op->obj.table[k], k);
	/* each w posts s[0] once, s[1] twice, s[2] three times */
	sim = sim_with(wl, 2);
	run_to_end(sim, 100 * MS);
	ck_assert_int_eq(sim->objs[0]->u.sem.count, 1);
	ck_assert_int_eq(sim->objs[1]->u.sem.count, 3);
	ck_assert_int_eq(sim->objs[2]->u.sem.count, 0);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	/* a value the table does not know fails by name, as it always did */
	wl = parse_ok("{" FMT "'objects':[{'type':'sem','name':'s[${i}]',"
		      " 'for':{'i':[0,3]}}],"
		      "'tasks':[{'name':'a','vars':{'@j':5},'program':["
		      " {'post':{'sem':'s[@j]'}}]}]}");
	ck_assert_ptr_nonnull(
		ck_op(prog_of(wl, "a"), 0, P_POST, 0, 0)->obj.table);
	sim = sim_with(wl, 1);
	ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), EEVDF_EINVAL);
	ck_assert_msg(strstr(eevdf_sim_errmsg(sim),
			     "no object named 's[5]' (from 's[@j]')"),
		      "%s", eevdf_sim_errmsg(sim));
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'sem','name':'s'}],"
			   "'tasks':[{'name':'a','program':[{'post':"
			   "{'sem':'t[@x]'}}]}]}",
			   "tasks[0].program[0].post.sem",
			   "no object or task fits 't[@x]'");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'latch','name':"
			   "'s[${i}]','for':{'i':[0,2]}}],'tasks':[{'name':"
			   "'a','program':[{'post':{'sem':'s[@x]'}}]}]}",
			   "tasks[0].program[0].post.sem",
			   "fits only objects that are not a sem");
}
END_TEST

START_TEST(message_fields_land_in_the_receiver_variables)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'channel','name':'q',"
		"'kind':'ideal'}],"
		"'metrics':{'got':{'type':'value','keyed':true}},'tasks':["
		"{'name':'tx','program':["
		" {'send':{'chan':'q','bytes':10,'fields':{'b':'@pid + 40'}}},"
		" {'send':{'chan':'q','bytes':10,'fields':{'a':7,'b':8}}}]},"
		"{'name':'rx','program':[{'loop':{'count':2,'body':["
		" {'recv':{'chan':'q','message':true,'into':'@m'}},"
		" {'record':{'metric':'got','key':'@m.a',"
		"  'value':'@m.b'}}]}}]}]}");
	const struct program *tx = prog_of(wl, "tx"), *rx = prog_of(wl, "rx");
	const struct metric *m;
	const struct pop *op;
	eevdf_sim *sim;

	/* the channel's fields are b, a: in the order first sent */
	ck_assert_uint_eq(wl->objs[0].nr_fields, 2);
	ck_assert_str_eq(wl->objs[0].fields[0], "b");
	op = ck_op(tx, 0, P_SEND, 0, 0);
	ck_assert_uint_eq(op->nr_fields, 1);
	ck_assert_int_eq(op->field[0].kind, PV_EXPR);
	op = ck_op(tx, 1, P_SEND, 0, 0);
	ck_assert_uint_eq(op->nr_fields, 2);
	ck_const(&op->field[0], 8);
	ck_const(&op->field[1], 7);
	op = ck_op(rx, 1, P_RECV, 0, 0);
	ck_assert_uint_eq(op->nr_fields, 2);
	ck_assert_uint_eq(op->field_slot[0], local_slot(wl, "@m.b"));
	ck_assert_uint_eq(op->field_slot[1], local_slot(wl, "@m.a"));
	sim = sim_with(wl, 1);
	run_to_end(sim, 100 * MS);
	m = sim->metrics[0];
	/* (key a, value b): (0, 41) then (7, 8) */
	ck_assert_uint_eq(m->nr_cells, 2);
	ck_assert_int_eq(m->cells[0].key, 0);
	ck_assert_int_eq(m->cells[0].value, 41);
	ck_assert_int_eq(m->cells[1].key, 7);
	ck_assert_int_eq(m->cells[1].value, 8);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * The interpreter reads "now - @x", "us(now) - us(@x)", "@x + k" and
 * "@x == k" without the evaluator (eevdf__expr_form()); they must give its
 * values.  The task stamps @t, runs 1 ms and records each form once; every
 * expected value follows from the recorded "now" by hand.
 */
START_TEST(inline_expression_forms_give_the_evaluators_values)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'metrics':{'now':{'type':'value'},"
		"'since':{'type':'value'},'us':{'type':'value'},"
		"'add':{'type':'value'},'eq':{'type':'value'},"
		"'ne':{'type':'value'},'neg':{'type':'value'}},'tasks':["
		"{'name':'a','vars':{'@k':40,'@n':-1001},'program':["
		" {'run':'1ms'},"
		" {'let':{'@t':'now - 1999'}},"
		" {'run':'1ms'},"
		" {'record':{'metric':'now','value':'now'}},"
		" {'record':{'metric':'since','value':'now - @t'}},"
		" {'record':{'metric':'us','value':'us(now) - us(@t)'}},"
		" {'record':{'metric':'add','value':'59 + @k'}},"
		" {'record':{'metric':'eq','value':'@k == 40'}},"
		" {'record':{'metric':'ne','value':'41 == @k'}},"
		" {'record':{'metric':'neg','value':'us(now) - us(@n)'}}]}]}");
	const struct program *a = prog_of(wl, "a");
	eevdf_sim *sim;
	s64 now, t;

	ck_assert_int_eq(ck_op(a, 4, P_RECORD, 0, 0)->a.form, EXPR_FORM_SINCE);
	ck_assert_int_eq(ck_op(a, 5, P_RECORD, 0, 0)->a.form,
			 EXPR_FORM_US_SINCE);
	ck_assert_int_eq(ck_op(a, 6, P_RECORD, 0, 0)->a.form, EXPR_FORM_ADD_K);
	ck_assert_int_eq(ck_op(a, 7, P_RECORD, 0, 0)->a.form, EXPR_FORM_EQ_K);
	sim = sim_with(wl, 1);
	run_to_end(sim, 100 * MS);
	now = sim->metrics[0]->all.value;
	/* @t was stamped 1999 ns before the end of the first ms of work */
	t = now - 1 * MS - 1999;
	ck_assert_int_ge(now, 2 * MS);
	ck_assert_int_eq(sim->metrics[1]->all.value, now - t);
	ck_assert_int_eq(sim->metrics[1]->all.value, 1 * MS + 1999);
	/* floor(now / 1000) - floor(t / 1000), t > 0 */
	ck_assert_int_eq(sim->metrics[2]->all.value, now / 1000 - t / 1000);
	ck_assert_int_eq(sim->metrics[3]->all.value, 99);
	ck_assert_int_eq(sim->metrics[4]->all.value, 1);
	ck_assert_int_eq(sim->metrics[5]->all.value, 0);
	/* us(-1001) is -2: rounded down, not toward zero */
	ck_assert_int_eq(sim->metrics[6]->all.value, now / 1000 + 2);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * Where the inline form would overflow, the evaluator runs and names the
 * operator, as it does for any expression.
 */
START_TEST(inline_expression_forms_report_the_evaluators_overflow)
{
	static const char *const exprs[] = { "now - @m", "@m + -1" };

	for (size_t i = 0; i < ARRAY_SIZE(exprs); i++) {
		char text[512];
		eevdf_workload *wl;
		eevdf_sim *sim;

		snprintf(text, sizeof(text),
			 "{" FMT "'metrics':{'v':{'type':'value'}},'tasks':["
			 "{'name':'a','program':["
			 " {'let':{'@m':'-9223372036854775807 - 1'}},"
			 " {'record':{'metric':'v','value':'%s'}}]}]}",
			 exprs[i]);
		wl = parse_ok(text);
		ck_assert_int_ne(
			ck_op(prog_of(wl, "a"), 1, P_RECORD, 0, 0)->a.form,
			EXPR_FORM_NONE);
		sim = sim_with(wl, 1);
		ck_assert_int_eq(eevdf_sim_run(sim, 100 * MS), EEVDF_ERANGE);
		ck_assert_msg(strstr(eevdf_sim_errmsg(sim), "overflow"),
			      "%s: %s", exprs[i], eevdf_sim_errmsg(sim));
		ck_assert_int_eq(sim->metrics[0]->all.set, false);
		eevdf_sim_free(sim);
		eevdf_workload_free(wl);
	}
}
END_TEST

/*
 * A drop_zero hist drops zero (and negative) samples in the engine; only
 * a record with a cost or a key, which a zero must skip too, sits under
 * an if.  Samples 0, 5, 0, -2, 7: two are kept.
 */
START_TEST(drop_zero_records_drop_zeros_with_and_without_a_guard)
{
	static const int samples[] = { 0, 5, 0, -2, 7 };
	char text[2048];
	size_t n;
	eevdf_workload *wl;
	const struct program *a;
	eevdf_sim *sim;

	n = (size_t)snprintf(
		text, sizeof(text),
		"{" FMT "'metrics':{'h':{'type':'hist','drop_zero':true},"
		"'hc':{'type':'hist','drop_zero':true},"
		"'hk':{'type':'hist','drop_zero':true,'keyed':true}},"
		"'tasks':[{'name':'a','program':[");
	for (size_t i = 0; i < ARRAY_SIZE(samples); i++)
		n += (size_t)snprintf(
			text + n, sizeof(text) - n,
			"%s{'let':{'@v':%d}},"
			"{'record':{'metric':'h','value':'@v'}},"
			"{'record':{'metric':'hc','value':'@v','cost':'1us'}},"
			"{'record':{'metric':'hk','value':'@v','key':1}}",
			i ? "," : "", samples[i]);
	snprintf(text + n, sizeof(text) - n, "]}]}");
	wl = parse_ok(text);
	a = prog_of(wl, "a");
	/* let, record h, if + record hc, if + record hk: per sample */
	ck_assert_uint_eq(a->nr_ops, 6 * ARRAY_SIZE(samples));
	ck_op(a, 0, P_LET, 0, 0);
	ck_op(a, 1, P_RECORD, 0, 0);
	ck_op(a, 2, P_IF, 1, 0);
	ck_assert_int_eq(a->ops[3].code, P_RECORD);
	ck_const(&a->ops[3].cost, 1 * US);
	ck_op(a, 4, P_IF, 1, 0);
	ck_op(a, 5, P_RECORD, 0, 0);
	sim = sim_with(wl, 1);
	run_to_end(sim, 100 * MS);
	ck_assert(sim->metrics[0]->drop_zero);
	for (int m = 0; m < 2; m++) {
		const struct eevdf_hist *h = sim->metrics[m]->all.hist;

		ck_assert_ptr_nonnull(h);
		ck_assert_uint_eq(eevdf__hist_count(h), 2);
		ck_assert_int_eq(eevdf__hist_min(h), 5);
		ck_assert_int_eq(eevdf__hist_max(h), 7);
		/* the last sample kept */
		ck_assert_int_eq(sim->metrics[m]->all.value, 7);
	}
	ck_assert_uint_eq(sim->metrics[2]->nr_cells, 1);
	ck_assert_uint_eq(eevdf__hist_count(sim->metrics[2]->cells[0].hist), 2);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(join_patterns_make_sorted_sets_of_pids)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':[{'name':'b','program':[{'run':'1ms'}]},"
		"{'name':'j','program':[{'join':{'tasks':' a[*] , b,a[1]'}},"
		" {'run':'1ms'}]},"
		"{'name':'a[${i}]','for':{'i':[0,3]},"
		" 'program':[{'run':'2ms'}]}]}");
	const struct wl_join *j = &wl->joins[0];
	eevdf_sim *sim;
	struct eevdf_task_stats st;

	ck_assert_uint_eq(j->nr, 4);
	ck_assert_uint_eq(j->pids[0], 1);
	ck_assert_uint_eq(j->pids[1], 3);
	ck_assert_uint_eq(j->pids[3], 5);
	ck_assert_str_eq(j->pattern, " a[*] , b,a[1]");
	sim = sim_with(wl, 4);
	run_to_end(sim, 100 * MS);
	/* j waits for the slowest, 2 ms, then runs 1 ms */
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 1, &st), 0);
	ck_assert_int_ge(st.sleep_ns, 1 * MS);
	ck_assert_int_ge(eevdf_sim_now(sim), 3 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(metrics_are_defined_once_and_typed)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'metrics':{'r':{'type':'rate','of':'c','every':'1s'},"
		"'c':{'type':'counter','per_task':true,'reset_at_warmup':true},"
		"'h':{'type':'hist','quantizer':'hdr3','unit':'ns'},"
		"'v':{'type':'value'},'e':{'type':'hist'}},"
		"'warmup':'10ms','tasks':[" TASK_A "]}");
	eevdf_sim *sim;

	ck_assert_uint_eq(wl->nr_metrics, 5);
	ck_assert_str_eq(wl->metrics[0].name, "c");
	ck_assert_str_eq(wl->metrics[4].name, "r");
	ck_assert_int_eq(wl->metrics[4].type, MET_RATE);
	ck_assert_uint_eq(wl->metrics[4].of, 0);
	ck_assert(wl->metrics[0].per_task && wl->metrics[0].reset_at_warmup);
	ck_assert_int_eq(wl->metrics[1].quant, EEVDF_HIST_HDR3);
	ck_assert_int_eq(wl->metrics[3].quant, EEVDF_HIST_EXACT);
	ck_assert_ptr_null(eevdf_workload_metric_unit(wl, "v"));
	ck_assert_ptr_null(eevdf_workload_metric_unit(wl, "nope"));
	sim = sim_with(wl, 1);
	ck_assert_uint_eq(sim->nr_metrics, 5);
	ck_assert_str_eq(sim->metrics[4]->name, "r");
	ck_assert_int_eq(sim->metrics[4]->every, 1000 * MS);
	ck_assert_int_eq(sim->warmup_ev.time, 10 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(stop_and_warmup_reach_the_simulation)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'stop':{'after':'50ms','mode':'kill'},"
		"'tasks':[{'name':'a','program':[{'loop':{'body':"
		"[{'run':'1ms'}]}}]}]}");
	eevdf_sim *sim = sim_with(wl, 1);

	ck_assert_int_eq(eevdf_workload_duration(wl), 50 * MS);
	ck_assert_int_eq(eevdf_sim_run(sim, 1000 * MS), 0);
	ck_assert(eevdf_sim_done(sim));
	ck_assert_int_eq(eevdf_sim_now(sim), 50 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);

	/* flag mode: tasks see stop and leave by themselves */
	wl = parse_ok("{" FMT "'duration':'1s','stop':{'after':'20ms'},"
		      "'tasks':[{'name':'a','program':[{'loop':{'until':"
		      "'stop','body':[{'run':'1ms'}]}}]}]}");
	ck_assert_int_eq(eevdf_workload_duration(wl), 1000 * MS);
	sim = sim_with(wl, 1);
	run_to_end(sim, 1000 * MS);
	ck_assert_int_ge(eevdf_sim_now(sim), 20 * MS);
	ck_assert_int_lt(eevdf_sim_now(sim), 22 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);

	wl = parse_ok("{" FMT "'stop':{'when':'task_exited','task':'b'},"
		      "'tasks':[{'name':'a','program':[{'loop':{'body':"
		      "[{'run':'1ms'}]}}]},{'name':'b','program':"
		      "[{'sleep':'3ms'}]}]}");
	sim = sim_with(wl, 1);
	ck_assert_int_eq(sim->end_on_exit_of, 2);
	run_to_end(sim, 1000 * MS);
	ck_assert_int_lt(eevdf_sim_now(sim), 10 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);

	EXPECT_PARSE_ERROR("{" FMT "'stop':{'when':'task_exited','task':'x'},"
			   "'tasks':[" TASK_A "]}",
			   "stop.task", "no task named 'x'");
	EXPECT_PARSE_ERROR("{" FMT "'stop':{'after':'1s','when':'all_exited'},"
			   "'tasks':[" TASK_A "]}",
			   "stop", "exactly one of 'after' and 'when'");
	EXPECT_PARSE_ERROR("{" FMT "'stop':{'after':'1s','mode':'halt'},"
			   "'tasks':[" TASK_A "]}",
			   "stop.mode", "\"flag\" or \"kill\"");
	EXPECT_PARSE_ERROR("{" FMT "'stop':{'when':'never'},"
			   "'tasks':[" TASK_A "]}",
			   "stop.when", "\"all_exited\" or \"task_exited\"");
	EXPECT_PARSE_ERROR("{" FMT "'warmup':-1,'tasks':[" TASK_A "]}",
			   "warmup", "must not be negative");
}
END_TEST

START_TEST(costs_override_the_cost_table)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'w':'1us'},'costs':{'pipe_write':'${w}',"
		"'fork':0},'tasks':[" TASK_A "]}");
	struct cost_table dflt;
	eevdf_sim *sim;

	eevdf__costs_default(&dflt);
	/* the workload keeps only its own entries, layered at add_tasks */
	ck_assert_uint_eq(wl->costs.pipe_write, 1000);
	ck_assert_uint_eq(wl->costs.fork, 0);
	ck_assert_uint_eq(wl->cost_set, ((u64)1 << COST_IDX_pipe_write) |
						((u64)1 << COST_IDX_fork));
	sim = sim_with(wl, 1);
	ck_assert_uint_eq(sim->sched.costs.pipe_write, 1000);
	ck_assert_uint_eq(sim->sched.costs.fork, 0);
	ck_assert_uint_eq(sim->sched.costs.pipe_read, dflt.pipe_read);
	ck_assert_uint_eq(sim->sched.costs.ctxsw_process, dflt.ctxsw_process);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'costs':{'pipe_wrte':'1us'},"
			   "'tasks':[" TASK_A "]}",
			   "costs.pipe_wrte",
			   "unknown cost 'pipe_wrte': did you mean "
			   "'pipe_write'? (valid: syscall, pipe_write, "
			   "pipe_read");
	EXPECT_PARSE_ERROR("{" FMT "'costs':{'fork':1,'fork':2},"
			   "'tasks':[" TASK_A "]}",
			   "costs.fork", "duplicate key 'fork'");
}
END_TEST

START_TEST(objects_take_their_settings_and_defaults)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':["
		"{'type':'channel','name':'u','kind':'unix_stream',"
		" 'capacity':1000,'msg_overhead':0,'writer_wake':'any_space',"
		" 'reader_wake':'normal','writers':'exclusive'},"
		"{'type':'channel','name':'i','kind':'ideal'},"
		"{'type':'channel','name':'m','kind':'msgq'},"
		"{'type':'sem','name':'s','initial':2,'max':3},"
		"{'type':'sem','name':'f','max':null},"
		"{'type':'mutex','name':'mx','handoff':'fifo'},"
		"{'type':'barrier','name':'b'},"
		"{'type':'barrier','name':'b2','parties':1},"
		"{'type':'event','name':'e','count':2}],"
		"'tasks':[{'name':'a[${i}]','for':{'i':[0,3]},'program':"
		"[{'barrier':'b'},{'barrier':'b'}]}]}");
	const struct obj_channel *u = &wl->objs[0].tmpl.u.chan;

	ck_assert_uint_eq(u->capacity, 1000);
	ck_assert_uint_eq(u->overhead, 0);
	ck_assert_int_eq(u->writer_wake, WW_ANY_SPACE);
	ck_assert(!u->reader_sync && !u->writers_all);
	ck_assert_uint_eq(wl->objs[1].tmpl.u.chan.capacity, 0);
	ck_assert_int_eq(wl->objs[2].tmpl.u.chan.kind, CHAN_MSGQ);
	ck_assert_int_eq(wl->objs[3].tmpl.u.sem.count, 2);
	ck_assert_int_eq(wl->objs[3].tmpl.u.sem.max, 3);
	ck_assert_int_eq(wl->objs[4].tmpl.u.sem.max, -1);
	/* parties: the three tasks that use it, each counted once */
	ck_assert_uint_eq(wl->objs[6].tmpl.u.barrier.parties, 3);
	ck_assert_uint_eq(wl->objs[7].tmpl.u.barrier.parties, 1);
	ck_assert_str_eq(wl->objs[8].tmpl.name, "e[0]");
	ck_assert_str_eq(wl->objs[9].tmpl.name, "e[1]");
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(add_tasks_needs_an_empty_simulation)
{
	eevdf_workload *wl = parse_ok("{" FMT "'tasks':[" TASK_A "]}");
	struct eevdf_task_spec spec = { .name = "first" };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_sim_add_task(sim, &spec), 1);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), EEVDF_EMISUSE);
	ck_assert_ptr_nonnull(strstr(d.msg, "must be the first"));
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(programs_outlive_the_workload)
{
	eevdf_workload *wl = parse_ok("{" FMT "'tasks':[{'name':'a','count':3,"
				      "'program':[{'run':'1ms'},{'record':"
				      "{'metric':'x','value':'@pid'}}]}],"
				      "'metrics':{'x':{'type':'value'}}}");
	eevdf_sim *sim = sim_with(wl, 1);

	ck_assert_int_eq(prog_of(wl, "a[0]")->refs, 4);
	eevdf_workload_free(wl);
	run_to_end(sim, 100 * MS);
	ck_assert_int_eq(sim->metrics[0]->all.value, 3);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(every_op_may_carry_a_cost)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'latch','name':'l'}],'tasks':[{"
		"'name':'a','program':[{'run':'1ms','cost':'2us'},"
		"{'set':{'latch':'l','cost':5}},{'yield':{'cost':'${1 + 1}'}},"
		"{'loop':{'count':2,'cost':3,'body':[{'mark':'m${1}'}]}},"
		"{'let':{'@x':1},'cost':'@x'}]}]}");
	const struct program *p = prog_of(wl, "a");

	ck_const(&p->ops[0].cost, 2 * US);
	ck_const(&p->ops[1].cost, 5);
	ck_const(&p->ops[2].cost, 2);
	ck_const(&p->ops[3].cost, 3);
	ck_assert_str_eq(p->ops[4].text, "m1");
	ck_assert_int_eq(p->ops[5].cost.kind, PV_EXPR);
	ck_assert_ptr_null(eevdf_workload_task(wl, 0)->program);
	eevdf_workload_free(wl);
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'latch','name':'l'}],"
			   "'tasks':[{'name':'a','program':[{'set':{'latch':"
			   "'l','cost':5},'cost':1}]}]}",
			   "tasks[0].program[0]", "'cost' is given twice");
	EXPECT_PARSE_ERROR("{" FMT "'macros':{'m':{'body':[{'run':1}]}},"
			   "'tasks':[{'name':'a','program':[{'call':"
			   "{'macro':'m'},'cost':1}]}]}",
			   "tasks[0].program[0]",
			   "'cost' is not allowed on call");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':[{'run':1,"
			   "'cost':'-1us'}]}]}",
			   "tasks[0].program[0].cost", "must not be negative");
}
END_TEST

/* ---- small workloads, run ------------------------------------------------ */

START_TEST(run_hackbench_sends_groups_fds_fds_loops_messages)
{
	static const char *const over[] = { "groups=1", "fds=2", "loops=3" };
	eevdf_workload *wl = parse_ex(wl_hackbench, over, 3, 2);
	eevdf_sim *sim = sim_with(wl, 2);
	u64 msgs = 0, bytes = 0;
	const struct metric *t;

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 5);
	run_to_end(sim, 10000 * MS);
	for (size_t i = 0; i < sim->nr_objs; i++) {
		if (sim->objs[i]->type != OBJ_CHANNEL)
			continue;
		msgs += sim->objs[i]->u.chan.msgs_total;
		bytes += sim->objs[i]->u.chan.bytes_total;
	}
	/* groups * fds * fds * loops */
	ck_assert_uint_eq(msgs, 12);
	ck_assert_uint_eq(bytes, 1200);
	t = sim->metrics[0];
	ck_assert_str_eq(t->name, "time");
	ck_assert(t->all.set);
	ck_assert_int_gt(t->all.value, 0);
	ck_assert(sim->objs[obj_idx(wl, "go")]->latch_set);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_pipe_ping_pong_of_100_loops_completes)
{
	static const char *const over[] = { "loops=100" };
	eevdf_workload *wl = parse_ex(wl_pipe, over, 1, 1);
	eevdf_sim *sim = sim_with(wl, 1);
	struct eevdf_task_stats st;

	run_to_end(sim, 1000 * MS);
	ck_assert_uint_eq(sim->objs[0]->u.chan.msgs_total, 100);
	ck_assert_uint_eq(sim->objs[1]->u.chan.msgs_total, 100);
	ck_assert_uint_eq(sim->objs[0]->u.chan.bytes_total, 400);
	/* every round trip switches between the two */
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 0, &st), 0);
	ck_assert_uint_ge(st.switches, 100);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_latch_and_sem_handshake)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'sem','name':'ready'},"
		"{'type':'latch','name':'go'}],"
		"'metrics':{'lat':{'type':'hist','keyed':true}},'tasks':["
		"{'name':'main','program':[{'loop':{'count':2,'body':"
		" [{'wait':{'sem':'ready'}}]}},{'sleep':'5ms'},"
		" {'let':{'@@t0':'now'}},{'set':{'latch':'go'}}]},"
		"{'name':'w[${i}]','for':{'i':[0,2]},'program':["
		" {'post':{'sem':'ready'}},{'wait':{'latch':'go'}},"
		" {'record':{'metric':'lat','key':'@pid',"
		"  'value':'now - @@t0'}},"
		" {'run':'1ms'}]}]}");
	eevdf_sim *sim = sim_with(wl, 1);
	const struct metric *m;

	run_to_end(sim, 1000 * MS);
	ck_assert_int_eq(sim->objs[0]->u.sem.count, 0);
	ck_assert(sim->objs[1]->latch_set);
	ck_assert_int_ge(eevdf_sim_now(sim), 7 * MS);
	ck_assert_int_lt(eevdf_sim_now(sim), 8 * MS);
	m = sim->metrics[0];
	ck_assert_uint_eq(m->nr_cells, 2);
	ck_assert_int_eq(m->cells[0].key, 2);
	ck_assert_int_eq(m->cells[1].key, 3);
	ck_assert_uint_eq(m->cells[0].hist->count, 1);
	ck_assert_uint_eq(m->cells[1].hist->count, 1);
	/* on one CPU, the second to run waited for the first's 1 ms */
	ck_assert_int_ge(max_s64(m->cells[0].hist->min, m->cells[1].hist->min),
			 1 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_keyed_records_by_pid_and_by_string)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'metrics':{'v':{'type':'value','keyed':true},"
		"'s':{'type':'counter'},'k':{'type':'value','keyed':true}},"
		"'tasks':[{'name':'w[${i}]','for':{'i':[0,3]},'program':["
		" {'run':'1ms'},"
		" {'record':{'metric':'v','key':'@pid','value':'${i} * 10'}},"
		" {'record':{'metric':'k','key':{'str':'ReadX'},"
		"  'value':'@pid'}},"
		" {'count':{'metric':'s','add':'${i}'}}]}]}");
	eevdf_sim *sim = sim_with(wl, 1);
	const struct metric *v, *k;

	run_to_end(sim, 1000 * MS);
	v = sim->metrics[metric_idx(wl, "v")];
	ck_assert_uint_eq(v->nr_cells, 3);
	for (u32 i = 0; i < 3; i++) {
		ck_assert_int_eq(v->cells[i].key, (s64)i + 1);
		ck_assert_int_eq(v->cells[i].value, (s64)i * 10);
	}
	k = sim->metrics[metric_idx(wl, "k")];
	ck_assert_uint_eq(k->nr_cells, 1);
	ck_assert_str_eq(eevdf__sim_string(sim, k->cells[0].key), "ReadX");
	ck_assert_int_ge(k->cells[0].value, 1);
	ck_assert_int_le(k->cells[0].value, 3);
	ck_assert_int_eq(sim->metrics[metric_idx(wl, "s")]->all.value, 3);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_schbench_reports_wakeup_latencies)
{
	static const char *const over[] = { "runtime=200ms" };
	eevdf_workload *wl = parse_ex(wl_schbench, over, 1, 2);
	eevdf_sim *sim = sim_with(wl, 2);
	const struct metric *req;
	s64 n;

	ck_assert_int_eq(eevdf_sim_run(sim, eevdf_workload_duration(wl)), 0);
	req = sim->metrics[metric_idx(wl, "requests")];
	/* two workers on two CPUs, about 17.1 ms per request, for 200 ms */
	n = req->all.value;
	ck_assert_int_ge(n, 20);
	ck_assert_int_le(n, 24);
	ck_assert_uint_eq(
		sim->metrics[metric_idx(wl, "request")]->all.hist->count,
		(u64)n);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/* ---- errors of the full format, one test per class ---------------------- */

START_TEST(error_undefined_object_names_the_reference)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'wait':{'sem':'nope'}}]}]}",
			   "tasks[0].program[0].wait.sem",
			   "no object named 'nope'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'post':{'sem':'b.self'}}]}]}",
			   "tasks[0].program[0].post.sem",
			   "no task named 'b' (for 'b.self')");
}
END_TEST

START_TEST(error_undefined_metric)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'record':{'metric':'lat','value':1}}]}]}",
			   "tasks[0].program[0].record.metric",
			   "no metric named 'lat'");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'r':{'type':'rate','of':'x',"
			   "'every':'1s'}},'tasks':[" TASK_A "]}",
			   "metrics.r.of", "no metric named 'x'");
}
END_TEST

START_TEST(error_undefined_or_recursive_macro)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'call':{'macro':'m'}}]}]}",
			   "tasks[0].program[0].call.macro",
			   "no macro named 'm'");
	EXPECT_PARSE_ERROR("{" FMT "'macros':{'m':{'body':[{'run':1},"
			   "{'call':{'macro':'m'}}]}},'tasks':[{'name':'a',"
			   "'program':[{'call':{'macro':'m'}}]}]}",
			   "macros.m.body[1].call.macro",
			   "macro 'm' calls itself (in the macro called at "
			   "tasks[0].program[0].call)");
	EXPECT_PARSE_ERROR("{" FMT "'macros':{'m':{'body':[{'run':'@x +'}]}},"
			   "'tasks':[{'name':'a','program':[{'run':1},"
			   "{'call':{'macro':'m'}}]}]}",
			   "macros.m.body[0].run", "invalid duration '@x +'");
	EXPECT_PARSE_ERROR("{" FMT "'macros':{'m':{'bdy':[]}},"
			   "'tasks':[" TASK_A "]}",
			   "macros.m", "unknown key 'bdy'");
}
END_TEST

START_TEST(error_undefined_param)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':'${nope}'}]}]}",
			   "tasks[0].program[0].run", "unknown name 'nope'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a${x','program':"
			   "[{'run':1}]}]}",
			   "tasks[0].name", "unterminated '${'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','nice':'${@x}',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].nice", "'@x' is only known at run time");
}
END_TEST

#define OBJS                                                                   \
	"'objects':[{'type':'sem','name':'s'},"                                \
	"{'type':'latch','name':'l'},{'type':'mutex','name':'m'},"             \
	"{'type':'channel','name':'c'},{'type':'event','name':'e'}],"

START_TEST(error_type_mismatch_of_an_object)
{
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'send':{'chan':'s','bytes':1}}]}]}",
			   "tasks[0].program[0].send.chan",
			   "'s' is a sem, not a channel");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'lock':{'spinlock':'m'}}]}]}",
			   "tasks[0].program[0].lock.spinlock",
			   "'m' is a mutex, not a spinlock");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'wait':{'sem':'l'}}]}]}",
			   "tasks[0].program[0].wait.sem",
			   "'l' is a latch, not a sem");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'block':{'event':'e','release':'l'}}]}]}",
			   "tasks[0].program[0].block.release",
			   "'l' is a latch, not a mutex");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'push':{'list':'self'}}]}]}",
			   "tasks[0].program[0].push.list",
			   "'self' is the task's own semaphore, not a list");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'set':{'latch':'a.self'}}]}]}",
			   "tasks[0].program[0].set.latch",
			   "'a.self' is a task's own semaphore, not a latch");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'wait':{'sem':'s','latch':'l'}}]}]}",
			   "tasks[0].program[0].wait",
			   "needs exactly one of 'sem' and 'latch'");
}
END_TEST

START_TEST(error_wait_on_a_sem_nobody_posts)
{
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'run':1},{'loop':{'count':2,'body':"
			   "[{'wait':{'sem':'s'}}]}}]}]}",
			   "tasks[0].program[1].loop.body[0].wait",
			   "sem 's' starts at 0 and no task posts it");
	/* a timeout, an initial count or a poster anywhere make it fine */
	eevdf_workload_free(parse_ok("{" FMT OBJS "'tasks':[{'name':'a',"
				     "'program':[{'wait':{'sem':'s','timeout':"
				     "'1ms','status':'@st'}}]}]}"));
	eevdf_workload_free(parse_ok("{" FMT "'objects':[{'type':'sem','name':"
				     "'s','initial':1}],'tasks':[{'name':'a',"
				     "'program':[{'wait':{'sem':'s'}}]}]}"));
	eevdf_workload_free(parse_ok("{" FMT OBJS "'tasks':[{'name':'a',"
				     "'program':[{'wait':{'sem':'s'}}]},"
				     "{'name':'b','program':[{'post':"
				     "{'sem':'s'}}]}]}"));
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'wait':{'sem':'s','timeout':0}}]}]}",
			   "tasks[0].program[0].wait.timeout",
			   "must be greater than 0");
}
END_TEST

START_TEST(error_recv_on_a_channel_nobody_sends_to)
{
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'recv':{'chan':'c','bytes':4}}]}]}",
			   "tasks[0].program[0].recv",
			   "no task sends to channel 'c'");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'recv':{'chan':'c','bytes':4,'into':'@m'}}]}]}",
			   "tasks[0].program[0].recv",
			   "'into' needs \"message\": true");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'recv':{'chan':'c','bytes':4,"
			   "'message':true}}]}]}",
			   "tasks[0].program[0].recv",
			   "'bytes' has no meaning with 'message'");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'send':{'chan':'c','bytes':1}},{'recv':{'chan':"
			   "'c','bytes':4,'calls':'@n'}}]}]}",
			   "tasks[0].program[1].recv.calls",
			   "must be a constant of at least 1");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'send':{'chan':'c','bytes':1,'fields':{'a':1,"
			   "'b':2,'c':3,'d':4,'e':5}}}]}]}",
			   "tasks[0].program[0].send.fields.e",
			   "a message has at most 4 fields");
	EXPECT_PARSE_ERROR("{" FMT OBJS "'tasks':[{'name':'a','program':"
			   "[{'send':{'chan':'c','bytes':1,'fields':"
			   "{'resp':1}}}]},{'name':'b','program':[{'recv':"
			   "{'chan':'c','message':true,'into':'@m'}},"
			   "{'run':'@m.rsp'}]}]}",
			   "tasks[1].program[0].recv.into",
			   "'@m.rsp' is read, but no message read into '@m' "
			   "has a field 'rsp'");
}
END_TEST

START_TEST(error_join_pattern_matching_nothing)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'join':{'tasks':'b,c[*]'}}]},{'name':'b',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].program[0].join.tasks",
			   "'c[*]' matches no task");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'w[${i}]','for':"
			   "{'i':[0,2]},'program':[{'join':{'tasks':"
			   "'w[*]'}}]}]}",
			   "tasks[0].program[0].join.tasks",
			   "'w[*]' matches the joining task 'w[0]' itself");
}
END_TEST

START_TEST(error_forever_loop_of_instant_ops)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'count':'forever','body':[{'let':"
			   "{'@x':1}},{'if':{'cond':1,'then':"
			   "[{'run':0}]}}]}}]}]}",
			   "tasks[0].program[0].loop",
			   "it would never advance time");
	/* a blocking op, a spin or a cost is enough */
	eevdf_workload_free(parse_ok("{" FMT OBJS "'tasks':[{'name':'a',"
				     "'program':[{'loop':{'body':[{'wait':"
				     "{'sem':'s'}}]}}]},{'name':'b','program':"
				     "[{'loop':{'body':[{'post':{'sem':'s'},"
				     "'cost':'1us'}]}}]},{'name':'c','program':"
				     "[{'loop':{'body':[{'spin':'@x'}]}}]}]}"));
}
END_TEST

START_TEST(error_expression_that_does_not_compile)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'if':{'cond':'(@x > 1','then':[]}}]}]}",
			   "tasks[0].program[0].if.cond",
			   "invalid expression '(@x > 1': column");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'let':{'@x':'@y ++ 1'}}]}]}",
			   "tasks[0].program[0].let.@x",
			   "invalid expression '@y ++ 1'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'let':{'@x':'${1 / 0}'}}]}]}",
			   "tasks[0].program[0].let.@x", "column 5");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'let':{'@__t':1}}]}]}",
			   "tasks[0].program[0].let.@__t",
			   "names starting with '@__' are reserved");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'let':{'x':1}}]}]}",
			   "tasks[0].program[0].let.x",
			   "must be a variable name");
}
END_TEST

/* n ifs nested inside each other around one run (run-time conditions, so
 * that the compiled program keeps them: constant ones are folded). */
static char *nested_ifs(int n)
{
	char *s = malloc((size_t)n * 40 + 128);
	int i;

	ck_assert_ptr_nonnull(s);
	strcpy(s, "{" FMT "'tasks':[{'name':'a','program':[");
	for (i = 0; i < n; i++)
		strcat(s, "{'if':{'cond':'!stop','then':[");
	strcat(s, "{'run':1}");
	for (i = 0; i < n; i++)
		strcat(s, "]}}");
	strcat(s, "]}]}");
	return s;
}

START_TEST(error_nesting_deeper_than_16_counts_every_body)
{
	char *s = nested_ifs(16);
	struct eevdf_diag d;
	eevdf_workload *wl = parse_ok(s);

	ck_assert_uint_eq(prog_of(wl, "a")->nr_ops, 17);
	ck_assert_uint_eq(prog_of(wl, "a")->ops[0].len, 16);
	eevdf_workload_free(wl);
	free(s);
	s = nested_ifs(17);
	ck_assert_int_eq(parse(s, &wl, &d), EEVDF_EPARSE);
	ck_assert_ptr_nonnull(strstr(d.msg, "loops may nest at most 16 deep"));
	free(s);
}
END_TEST

START_TEST(error_distribution_parameters)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':{'dist':'uniform_int','min':8,"
			   "'max':'(1 << @k) + 7'}}]}]}",
			   "tasks[0].program[0].run.max",
			   "not supported by this version yet");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':{'dist':'uniform','min':8,'max':8}}]}]}",
			   "tasks[0].program[0].run", "min");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':{'dist':'zipf','s':1}}]}]}",
			   "tasks[0].program[0].run.dist",
			   "unknown distribution 'zipf'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':{'dist':'exp','mean':'1ms','max':1}}]}]}",
			   "tasks[0].program[0].run", "unknown key 'max'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':{'dist':'choice','values':[1,2],"
			   "'weights':[1]}}]}]}",
			   "tasks[0].program[0].run",
			   "'values' has 2 entries and 'weights' 1");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'if':{'cond':{'dist':'const','value':1},"
			   "'then':[]}}]}]}",
			   "tasks[0].program[0].if.cond",
			   "a condition cannot be a distribution");
}
END_TEST

START_TEST(error_features_not_supported_yet)
{
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'channel','name':'c',"
			   "'slot':4096}],'tasks':[" TASK_A "]}",
			   "objects[0]",
			   "'slot' is not supported by this version yet");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'channel','name':'c',"
			   "'readers':'all'}],'tasks':[" TASK_A "]}",
			   "objects[0].readers", "not supported");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'channel','name':'c',"
			   "'kind':'msgq','capacity':8}],'tasks':[" TASK_A "]}",
			   "objects[0].capacity", "not supported");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'mutex','name':'m',"
			   "'handoff':'barging'}],'tasks':[" TASK_A "]}",
			   "objects[0].handoff",
			   "\"barging\" is not "
			   "supported by this version yet");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'w':{'type':'window_max',"
			   "'window':'1s'}},'tasks':[" TASK_A "]}",
			   "metrics.w.type",
			   "metric type 'window_max' is not "
			   "supported by this version yet");
}
END_TEST

START_TEST(error_duplicate_or_reserved_object_name)
{
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'sem','name':'x[${i}]',"
			   "'for':{'i':[0,3]}},{'type':'latch','name':'x[1]'}],"
			   "'tasks':[" TASK_A "]}",
			   "objects[1].name",
			   "duplicate object name 'x[1]' (also used by "
			   "objects[0])");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'sem','name':"
			   "'a.self'}],'tasks':[" TASK_A "]}",
			   "objects[0].name", "may not be called 'self'");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'pipe','name':'p'}],"
			   "'tasks':[" TASK_A "]}",
			   "objects[0].type", "unknown object type 'pipe'");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'sem','name':'s',"
			   "'initial':3,'max':1}],'tasks':[" TASK_A "]}",
			   "objects[0].initial", "must not be above max");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'channel','name':'c',"
			   "'kind':'udp'}],'tasks':[" TASK_A "]}",
			   "objects[0].kind",
			   "unknown kind 'udp' (expected "
			   "pipe, unix_stream, tcp_loopback, msgq or ideal)");
}
END_TEST

START_TEST(error_metric_of_the_wrong_type)
{
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'c':{'type':'counter'}},"
			   "'tasks':[{'name':'a','program':[{'record':"
			   "{'metric':'c','value':1}}]}]}",
			   "tasks[0].program[0].record",
			   "metric 'c' is a counter: record takes a hist or "
			   "value metric (use count)");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'h':{'type':'hist'}},"
			   "'tasks':[{'name':'a','program':[{'count':"
			   "{'metric':'h'}}]}]}",
			   "tasks[0].program[0].count",
			   "metric 'h' is a hist: count takes a counter");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'h':{'type':'hist'}},"
			   "'tasks':[{'name':'a','program':[{'record':"
			   "{'metric':'h','value':1,'key':2}}]}]}",
			   "tasks[0].program[0].record.key",
			   "metric 'h' is not keyed");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'h':{'type':'hist'},"
			   "'r':{'type':'rate','of':'h','every':'1s'}},"
			   "'tasks':[" TASK_A "]}",
			   "metrics.r.of", "metric 'h' is not a counter");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'c':{'type':'counter',"
			   "'drop_zero':true}},'tasks':[" TASK_A "]}",
			   "metrics.c.drop_zero",
			   "'drop_zero' is only for hist metrics");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'h':{'type':'hist',"
			   "'quantizer':'log2'}},'tasks':[" TASK_A "]}",
			   "metrics.h.quantizer", "unknown quantizer 'log2'");
	EXPECT_PARSE_ERROR("{" FMT "'metrics':{'r':{'type':'rate','of':'c'}},"
			   "'tasks':[" TASK_A "]}",
			   "metrics.r", "missing key 'every'");
}
END_TEST

START_TEST(error_barrier_with_more_parties_than_users)
{
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'barrier','name':'b',"
			   "'parties':3}],'tasks':[{'name':'a','count':2,"
			   "'program':[{'barrier':'b'}]}]}",
			   "objects[0].parties",
			   "barrier 'b' waits for 3 parties but only 2 tasks "
			   "use it");
}
END_TEST

/* ---- signals, templates, setattr, timers, wake_and_block --------------- */

START_TEST(signals_compile_handlers_after_the_main_program)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':[{'name':'p','vars':{'@left':3},"
		"'on_signal':{'USR1':[{'let':{'@left':'@left - 1'}}],"
		" 'SIGTERM':[],"
		" 'HUP':[{'loop':{'count':2,'body':[{'run':'1us'}]}}]},"
		"'program':[{'loop':{'while':'@left > 0','body':"
		" [{'sleep':{'for':'1s','interruptible':true,"
		"   'status':'@s'}}]}},"
		" {'signal':{'task':'c','sig':'SIGTERM'}}]},"
		"{'name':'c','program':"
		" [{'signal':{'task':'p','sig':'USR1'}}]}]}");
	const struct program *p = prog_of(wl, "p"), *c = prog_of(wl, "c");
	const struct pop *op;

	/* main: loop, sleep, signal; USR1: let, sigreturn; TERM: sigreturn;
	 * HUP: loop, run, sigreturn */
	ck_assert_uint_eq(p->main_ops, 3);
	ck_assert_uint_eq(p->nr_ops, 9);
	ck_op(p, 0, P_LOOP, 1, 0);
	op = ck_op(p, 1, P_SLEEP, 0, 0);
	ck_assert_uint_eq(op->flags, SLEEP_INTR);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@s"));
	op = ck_op(p, 2, P_SIGNAL, 0, 0);
	ck_const(&op->a, SIGNO_TERM);
	ck_assert_int_eq(op->obj.task_pid, 2);
	ck_assert_uint_eq(p->handler[SIGNO_USR1], 3 + 1);
	op = ck_op(p, 3, P_LET, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@left"));
	ck_op(p, 4, P_SIGRETURN, 0, 0);
	ck_assert_uint_eq(p->handler[SIGNO_TERM], 5 + 1);
	ck_op(p, 5, P_SIGRETURN, 0, 0);
	ck_assert_uint_eq(p->handler[SIGNO_HUP], 6 + 1);
	ck_op(p, 6, P_LOOP, 1, 0);
	ck_op(p, 7, P_RUN, 0, 0);
	ck_op(p, 8, P_SIGRETURN, 0, 0);
	ck_assert_uint_eq(p->handler[SIGNO_USR2], 0);
	ck_assert_uint_eq(p->handler[SIGNO_INT], 0);
	/* no on_signal: the whole array is the main program */
	ck_assert_uint_eq(c->main_ops, 0);
	op = ck_op(c, 0, P_SIGNAL, 0, 0);
	ck_const(&op->a, SIGNO_USR1);
	ck_assert_int_eq(op->obj.task_pid, 1);
	ck_assert_ptr_null(eevdf_workload_task(wl, 0)->program);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(interruptible_waits_take_sleep_intr_and_a_status)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'sem','name':'s'},"
		"{'type':'event','name':'e'}],"
		"'tasks':[{'name':'a','program':["
		/* nobody posts s: only a signal can end this wait */
		" {'wait':{'sem':'s','interruptible':true,'status':'@st'}},"
		" {'block':{'event':'e','interruptible':true,'status':'@@g'}},"
		" {'join':{'tasks':'b','interruptible':true,'status':'@st'}},"
		" {'join':{'tasks':'children'}},"
		" {'sleep':{'for':'1ms','interruptible':false}}]},"
		"{'name':'b','program':[{'run':1}]}]}");
	const struct program *p = prog_of(wl, "a");
	u32 st = local_slot(wl, "@st");
	const struct pop *op;

	op = ck_op(p, 0, P_WAIT, 0, 0);
	ck_assert_uint_eq(op->flags, SLEEP_INTR);
	ck_assert_uint_eq(op->slot, st);
	op = ck_op(p, 1, P_BLOCK, 0, 0);
	ck_assert_uint_eq(op->flags, SLEEP_INTR | SLOT_GLOBAL);
	ck_assert_uint_eq(op->slot, 0);
	op = ck_op(p, 2, P_JOIN, 0, 0);
	ck_const(&op->a, 0);
	ck_assert_uint_eq(op->flags, SLEEP_INTR);
	ck_assert_uint_eq(op->slot, st);
	ck_assert_uint_eq(wl->nr_joins, 1);
	ck_assert_uint_eq(wl->joins[0].pids[0], 2);
	op = ck_op(p, 3, P_JOIN, 0, 0);
	ck_const(&op->a, JOIN_CHILDREN);
	ck_assert_uint_eq(op->flags, 0);
	ck_assert_uint_eq(op->slot, NO_SLOT);
	op = ck_op(p, 4, P_SLEEP, 0, 0);
	ck_assert_uint_eq(op->flags, 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(templates_compile_with_their_vars_first)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'n':3},"
		"'templates':{'worker':{'kind':'thread','nice':5,"
		"  'policy':'batch','slice':'1ms','cpus':[1],"
		"  'vars':{'@x':7,'@y':'2ms'},'on_signal':{'USR2':[]},"
		"  'program':[{'run':'@y'},{'exit':{}}]},"
		" 'child':{'program':[{'exit':{}}]}},"
		"'tasks':[{'name':'main','program':["
		" {'spawn':{'template':'child'}},"
		" {'spawn':{'template':'worker','count':'${n}'}},"
		" {'join':{'tasks':'children'}}]}]}");
	const struct program *m = prog_of(wl, "main");
	const struct program *w = eevdf__workload_template_program(wl,
								   "worker");
	const struct pop *op;
	eevdf_sim *sim;

	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 1);
	ck_assert_ptr_null(eevdf__workload_template_program(wl, "nope"));
	/* templates are numbered in file order */
	op = ck_op(m, 0, P_SPAWN, 0, 0);
	ck_const(&op->a, 1);
	ck_assert_int_eq(op->b.kind, PV_NONE);
	op = ck_op(m, 1, P_SPAWN, 0, 0);
	ck_const(&op->a, 0);
	ck_const(&op->b, 3);
	op = ck_op(m, 2, P_JOIN, 0, 0);
	ck_const(&op->a, JOIN_CHILDREN);
	/* the vars as lets, the program, then the handler */
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(w->main_ops, 4);
	ck_assert_uint_eq(w->nr_ops, 5);
	op = ck_op(w, 0, P_LET, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@x"));
	ck_const(&op->a, 7);
	op = ck_op(w, 1, P_LET, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@y"));
	ck_const(&op->a, 2 * MS);
	op = ck_op(w, 2, P_RUN, 0, 0);
	ck_assert_int_eq(op->a.kind, PV_EXPR);
	ck_op(w, 3, P_EXIT, 0, 0);
	ck_op(w, 4, P_SIGRETURN, 0, 0);
	ck_assert_uint_eq(w->handler[SIGNO_USR2], 5);

	sim = sim_with(wl, 2);
	ck_assert_uint_eq(sim->nr_templates, 2);
	ck_assert_str_eq(sim->templates[0].name, "worker");
	ck_assert_str_eq(sim->templates[1].name, "child");
	ck_assert(sim->templates[0].is_thread);
	ck_assert(!sim->templates[1].is_thread);
	ck_assert_int_eq(sim->templates[0].spec.nice, 5);
	ck_assert_int_eq(sim->templates[0].spec.policy, EEVDF_POLICY_BATCH);
	ck_assert_int_eq(sim->templates[0].spec.slice, 1 * MS);
	ck_assert_uint_eq(sim->templates[0].spec.nr_cpus, 1);
	ck_assert_int_eq(sim->templates[0].spec.cpus[0], 1);
	ck_assert_ptr_eq(sim->templates[0].prog, w);
	run_to_end(sim, 1000 * MS);
	ck_assert_uint_eq(sim->sched.nr_tasks, 5);
	ck_assert_str_eq(sim->sched.tasks[1]->name, "child[0]");
	for (u32 k = 0; k < 3; k++) {
		const struct task *t = sim->sched.tasks[2 + k];
		char name[16];

		snprintf(name, sizeof(name), "worker[%u]", k);
		ck_assert_str_eq(t->name, name);
		ck_assert_int_eq(t->parent_pid, 1);
		ck_assert_int_eq(t->cpu, 1);
		ck_assert_int_eq(t->nice, 5);
		ck_assert_int_eq(t->locals[local_slot(wl, "@x")], 7);
		ck_assert_int_eq(t->locals[local_slot(wl, "@y")], 2 * MS);
		ck_assert_int_eq(t->state, TASK_DEAD);
	}
	ck_assert_uint_eq(sim->templates[0].spawned, 3);
	ck_assert_uint_eq(sim->templates[1].spawned, 1);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(setattr_compiles_nice_slice_and_policy)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'pol':'normal'},"
		"'tasks':[{'name':'a','vars':{'@n':3},'program':["
		" {'setattr':{'nice':5}},"
		" {'setattr':{'slice':'300us','policy':'idle'}},"
		" {'setattr':{'slice':null,'policy':'${pol}'}},"
		" {'setattr':{'slice':0,'nice':'@n','policy':'batch'}}]}]}");
	const struct program *p = prog_of(wl, "a");
	const struct pop *op;

	op = ck_op(p, 0, P_SETATTR, 0, 0);
	ck_const(&op->a, 5);
	ck_assert_int_eq(op->b.kind, PV_NONE);
	ck_assert_int_eq(op->c.kind, PV_NONE);
	op = ck_op(p, 1, P_SETATTR, 0, 0);
	ck_assert_int_eq(op->a.kind, PV_NONE);
	ck_const(&op->b, 300000);
	ck_const(&op->c, EEVDF_POLICY_IDLE);
	op = ck_op(p, 2, P_SETATTR, 0, 0);
	ck_const(&op->b, 0);
	ck_const(&op->c, EEVDF_POLICY_NORMAL);
	op = ck_op(p, 3, P_SETATTR, 0, 0);
	ck_assert_int_eq(op->a.kind, PV_EXPR);
	ck_const(&op->b, 0);
	ck_const(&op->c, EEVDF_POLICY_BATCH);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(timer_wait_compiles_per_task_and_shared_timers)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':["
		" {'type':'timer','name':'tu','unique':true,'period':'10ms',"
		"  'mode':'absolute'},"
		" {'type':'timer','name':'ts','period':'5ms'},"
		" {'type':'timer','name':'tx[${i}]','for':{'i':[0,2]},"
		"  'period':'1ms'}],"
		"'tasks':[{'name':'a','program':["
		" {'timer_wait':{'timer':'tu'}},"
		" {'timer_wait':{'timer':'tu','period':'20ms',"
		"  'mode':'relative'}},"
		" {'timer_wait':{'timer':'ts','mode':'absolute'}},"
		" {'timer_wait':{'timer':'unique3','period':'30ms'}},"
		" {'loop':{'var':'@i','count':2,'body':"
		"  [{'timer_wait':{'timer':'tx[@i]'}}]}}]}]}");
	const struct program *p = prog_of(wl, "a");
	const struct pop *op;

	ck_assert_uint_eq(wl->objs[obj_idx(wl, "tu")].tmpl.type, OBJ_TIMER);
	ck_assert(wl->objs[obj_idx(wl, "tu")].timer_unique);
	ck_assert(!wl->objs[obj_idx(wl, "ts")].timer_unique);
	/* a per-task timer: its next expiry in a hidden variable */
	op = ck_op(p, 0, P_TIMER_WAIT, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, WL_TIMER_VAR "tu"));
	ck_const(&op->a, 10 * MS);
	ck_assert_uint_eq(op->flags, TIMER_ABSOLUTE);
	/* the op's period and mode win over the timer's */
	op = ck_op(p, 1, P_TIMER_WAIT, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, WL_TIMER_VAR "tu"));
	ck_const(&op->a, 20 * MS);
	ck_assert_uint_eq(op->flags, 0);
	/* a shared timer is an object */
	op = ck_op(p, 2, P_TIMER_WAIT, 0, 0);
	ck_assert_uint_eq(op->slot, NO_SLOT);
	ck_assert_int_eq(op->obj.idx, obj_idx(wl, "ts"));
	ck_const(&op->a, 5 * MS);
	ck_assert_uint_eq(op->flags, TIMER_ABSOLUTE);
	/* rt-app's "ref": "unique": a name no object has */
	op = ck_op(p, 3, P_TIMER_WAIT, 0, 0);
	ck_assert_uint_eq(op->slot, local_slot(wl, WL_TIMER_VAR "unique3"));
	ck_const(&op->a, 30 * MS);
	/* run-time names: the period all the timers agree on */
	op = ck_op(p, 5, P_TIMER_WAIT, 0, 0);
	ck_assert_int_eq(op->obj.idx, OBJ_NONE);
	ck_assert_uint_gt(op->obj.nr_parts, 0);
	ck_assert_uint_eq(op->slot, NO_SLOT);
	ck_const(&op->a, 1 * MS);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(wake_and_block_compiles_to_a_wake_then_a_block)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'objects':[{'type':'event','name':'e1'},"
		"{'type':'event','name':'e2'},{'type':'mutex','name':'m'}],"
		"'tasks':[{'name':'a','program':[{'lock':{'mutex':'m'}},"
		" {'wake_and_block':{'wake':{'event':'e2','n':'all',"
		"  'cost':'1us'},'block':{'event':'e1','release':'m',"
		"  'timeout':'1ms','status':'@s'}}},"
		" {'unlock':{'mutex':'m'}}]}]}");
	const struct program *p = prog_of(wl, "a");
	const struct pop *op = &p->ops[1];

	ck_assert_uint_eq(p->nr_ops, 4);
	ck_assert_int_eq(op->code, P_WAKE);
	ck_assert_int_eq(op->obj.idx, obj_idx(wl, "e2"));
	ck_assert_int_eq(op->a.kind, PV_NONE);
	ck_const(&op->cost, 1000);
	op = ck_op(p, 2, P_BLOCK, 0, 0);
	ck_assert_int_eq(op->obj.idx, obj_idx(wl, "e1"));
	ck_assert_int_eq(op->obj2.idx, obj_idx(wl, "m"));
	ck_const(&op->b, 1 * MS);
	ck_assert_uint_eq(op->slot, local_slot(wl, "@s"));
	ck_op(p, 3, P_UNLOCK, 0, 0);
	eevdf_workload_free(wl);
}
END_TEST

/* workloads.md section 12.7, with a handler count and small sizes. */
static const char starve_json[] =
	"{" FMT "'params':{'signals':300,'cpu':0,'handler_work':'0.05us'},"
	"'stop':{'when':'task_exited','task':'parent'},"
	"'tasks':["
	"{'name':'parent','kind':'process','cpus':['${cpu}'],"
	" 'vars':{'@left':'${signals}'},"
	" 'on_signal':{'USR1':[{'run':'${handler_work}'},"
	"  {'count':{'metric':'handled'}},"
	"  {'let':{'@left':'max(@left - 1, 0)'}}]},"
	" 'program':["
	"  {'loop':{'while':'@left > 0','body':"
	"   [{'sleep':{'for':'1s','interruptible':true,'status':'@s'}},"
	"    {'if':{'cond':'@s == EINTR','then':"
	"     [{'count':{'metric':'eintr'}}]}}]}},"
	"  {'signal':{'task':'child','sig':'TERM'}},"
	"  {'join':{'tasks':'child'}},"
	"  {'record':{'metric':'elapsed','value':'now'}}]},"
	"{'name':'child','kind':'process','cpus':['${cpu}'],"
	" 'program':[{'sleep':'1s'},"
	"  {'loop':{'count':'forever','body':"
	"   [{'signal':{'task':'parent','sig':'USR1'}},"
	"    {'count':{'metric':'sent'}}]}}]}],"
	"'metrics':{'elapsed':{'type':'value','unit':'ns'},"
	" 'handled':{'type':'counter'},'eintr':{'type':'counter'},"
	" 'sent':{'type':'counter'}}}";

START_TEST(run_starve_delivers_the_signals_to_the_handler)
{
	eevdf_workload *wl = parse_ok(starve_json);
	eevdf_sim *sim = sim_with(wl, 1);
	s64 handled, eintr, sent;
	const struct metric *el;

	run_to_end(sim, 600000 * MS);
	handled = sim->metrics[metric_idx(wl, "handled")]->all.value;
	eintr = sim->metrics[metric_idx(wl, "eintr")]->all.value;
	sent = sim->metrics[metric_idx(wl, "sent")]->all.value;
	/*
	 * The loop ends when the handler has run 300 times; USR1s the child
	 * sends before the parent's SIGTERM reaches it may run the handler
	 * once more at the next op boundaries.
	 */
	ck_assert_int_ge(handled, 300);
	ck_assert_int_le(handled, 302);
	ck_assert_int_eq(sim->sched.tasks[0]->locals[local_slot(wl, "@left")],
			 0);
	/* every handled signal but the last ended a sleep early */
	ck_assert_int_ge(eintr, 299);
	ck_assert_int_le(eintr, 300);
	/* a signal sent while one is pending coalesces with it */
	ck_assert_int_gt(sent, handled);
	ck_assert_int_eq(sim->sched.tasks[1]->state, TASK_DEAD);
	el = sim->metrics[metric_idx(wl, "elapsed")];
	ck_assert(el->all.set);
	/* the child's 1 s nap, then about 3-5 us per signal */
	ck_assert_int_gt(el->all.value, 1000 * MS);
	ck_assert_int_lt(el->all.value, 1000 * MS + 300 * 10000);
	/* the parent then pays its exit */
	ck_assert_int_eq(el->all.value + sim->sched.costs.exit,
			 sim->sched.tasks[0]->exited_at);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/* LTP's variant: the parent's wait() is interrupted, it retries. */
START_TEST(run_interruptible_join_retries_on_eintr)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':["
		"{'name':'parent','cpus':[0],'vars':{'@s':0},"
		" 'on_signal':{'SIGUSR1':[{'count':{'metric':'received'}}]},"
		" 'program':[{'loop':{'check':'after','while':'@s == EINTR',"
		"  'body':[{'join':{'tasks':'child','interruptible':true,"
		"   'status':'@s'}},"
		"   {'if':{'cond':'@s == EINTR','then':"
		"    [{'count':{'metric':'interrupted'}}]}}]}}]},"
		"{'name':'child','cpus':[0],'program':[{'sleep':'1ms'},"
		" {'loop':{'count':50,'body':"
		"  [{'signal':{'task':'parent','sig':'USR1'}},"
		"   {'sleep':'100us'}]}}]}],"
		"'metrics':{'received':{'type':'counter'},"
		" 'interrupted':{'type':'counter'}}}");
	eevdf_sim *sim = sim_with(wl, 1);
	s64 rec, intr;

	run_to_end(sim, 10000 * MS);
	rec = sim->metrics[metric_idx(wl, "received")]->all.value;
	intr = sim->metrics[metric_idx(wl, "interrupted")]->all.value;
	/* each signal finds the parent waiting again (100 us apart) */
	ck_assert_int_eq(rec, 50);
	ck_assert_int_eq(intr, 50);
	ck_assert_int_eq(sim->sched.tasks[0]->locals[local_slot(wl, "@s")], 0);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_spawn_and_join_children_count_the_instances)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'templates':{'child':{'program':"
		" [{'run':'10us'},{'exit':{}}]}},"
		"'tasks':[{'name':'spawn','program':"
		" [{'loop':{'count':5,'body':["
		" {'spawn':{'template':'child','count':3}},"
		" {'join':{'tasks':'children','status':'@s'}},"
		" {'count':{'metric':'iter','add':1}}]}}]}],"
		"'metrics':{'iter':{'type':'counter'}}}");
	eevdf_sim *sim = sim_with(wl, 2);

	run_to_end(sim, 1000 * MS);
	ck_assert_int_eq(sim->metrics[metric_idx(wl, "iter")]->all.value, 5);
	ck_assert_uint_eq(sim->templates[0].spawned, 15);
	ck_assert_uint_eq(sim->sched.nr_tasks, 16);
	ck_assert_str_eq(sim->sched.tasks[15]->name, "child[14]");
	for (size_t i = 1; i < sim->sched.nr_tasks; i++) {
		ck_assert_int_eq(sim->sched.tasks[i]->parent_pid, 1);
		ck_assert_int_eq(sim->sched.tasks[i]->state, TASK_DEAD);
	}
	ck_assert_uint_eq(sim->sched.tasks[0]->live_children, 0);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_setattr_nice_changes_the_share_of_a_hog)
{
	/* nice 0 against nice 5: weights 1024 and 335 */
	eevdf_workload *wl = parse_ok(
		"{" FMT "'stop':{'after':'2s','mode':'kill'},"
		"'tasks':[{'name':'a','program':[{'loop':{'count':'forever',"
		" 'body':[{'run':'1ms'}]}}]},"
		"{'name':'b','program':[{'run':'100ms'},"
		" {'setattr':{'nice':5}},"
		" {'loop':{'count':'forever','body':[{'run':'1ms'}]}}]}]}");
	eevdf_sim *sim = sim_with(wl, 1);
	struct eevdf_task_stats a, b;
	double ratio;

	ck_assert_int_eq(eevdf_sim_run(sim, 2000 * MS), 0);
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 0, &a), 0);
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 1, &b), 0);
	ck_assert_int_eq(sim->sched.tasks[1]->nice, 5);
	/* the first 200 ms at 1:1, then 1024:335 */
	ratio = (double)(a.cpu_ns - 100 * MS) / (double)(b.cpu_ns - 100 * MS);
	ck_assert_msg(ratio > 2.8 && ratio < 3.3, "a %lld ns, b %lld ns",
		      (long long)a.cpu_ns, (long long)b.cpu_ns);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * A 10 ms timer, a 25 ms overrun after the first activation at 10 ms.
 * relative: the miss restarts the grid at 35, so 35 (no sleep), 45, 55.
 * absolute: the grid stays: 20 and 30 have passed at 35 (no sleep
 * twice), then 40.  No costs, so the times are exact.
 */
static const char timer_json[] =
	"{" FMT "'params':{'mode':'relative'},"
	"'costs':{'timer_arm':0,'ctxsw_process':0,'ttwu_local':0,'exit':0,"
	" 'idle_exit':0},"
	"'objects':[{'type':'timer','name':'t','unique':true,"
	" 'period':'10ms','mode':'${mode}'},"
	" {'type':'timer','name':'ts','period':'10ms'}],"
	"'tasks':[{'name':'a','program':["
	" {'timer_wait':{'timer':'t'}},{'let':{'@a1':'now'}},{'run':'25ms'},"
	" {'timer_wait':{'timer':'t'}},{'let':{'@a2':'now'}},"
	" {'timer_wait':{'timer':'t'}},{'let':{'@a3':'now'}},"
	" {'timer_wait':{'timer':'t'}},{'let':{'@a4':'now'}}]},"
	/* a shared timer hands its expiries out in turn */
	"{'name':'s[${i}]','for':{'i':[0,2]},'start':'100ms','program':["
	" {'timer_wait':{'timer':'ts'}},{'let':{'@a1':'now'}},"
	" {'timer_wait':{'timer':'ts'}},{'let':{'@a2':'now'}}]}]}";

static void check_activations(const eevdf_workload *wl, const eevdf_sim *sim,
			      u32 task, const s64 *want, u32 n)
{
	static const char *const vars[] = { "@a1", "@a2", "@a3", "@a4" };
	const s64 *locals = sim->sched.tasks[task]->locals;

	for (u32 k = 0; k < n; k++) {
		s64 got = locals[local_slot(wl, vars[k])];

		ck_assert_msg(got == want[k],
			      "task %u activation %u at %lld, want %lld", task,
			      k + 1, (long long)got, (long long)want[k]);
	}
}

START_TEST(run_timer_wait_relative_and_absolute_after_an_overrun)
{
	static const char *const abs_mode[] = { "mode=absolute" };
	static const s64 rel[] = { 10 * MS, 35 * MS, 45 * MS, 55 * MS };
	static const s64 absl[] = { 10 * MS, 35 * MS, 35 * MS, 40 * MS };
	/* s[0] then s[1] at 100 ms: the grid 110, 120, 130, 140 */
	static const s64 s0[] = { 110 * MS, 130 * MS };
	static const s64 s1[] = { 120 * MS, 140 * MS };
	eevdf_workload *wl = parse_ok(timer_json);
	eevdf_sim *sim = sim_with(wl, 1);

	run_to_end(sim, 1000 * MS);
	check_activations(wl, sim, 0, rel, 4);
	check_activations(wl, sim, 1, s0, 2);
	check_activations(wl, sim, 2, s1, 2);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);

	wl = parse_params(timer_json, abs_mode, 1, 1);
	sim = sim_with(wl, 1);
	run_to_end(sim, 1000 * MS);
	check_activations(wl, sim, 0, absl, 4);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * rt-app's sync between two threads on one CPU.  The wake's costs and
 * the woken task's preemption come between the wake and the block, so
 * without a mutex the partner's wake back is lost; holding a mutex that
 * the block releases (as rt-app does) closes the window.
 */
/*
 * A symmetric ping-pong over two events with no memory: each side wakes
 * the other and blocks in one wake_and_block.  It only works if nothing
 * can run between the wake and the block (the wakee would wake back into
 * the void): the engine runs the pair atomically, as one syscall.
 */
static const char sync_json[] =
	"{" FMT "'objects':[{'type':'event','name':'e1'},"
	" {'type':'event','name':'e2'}],"
	"'tasks':["
	"{'name':'a','kind':'thread','program':[{'sleep':'1ms'},"
	" {'loop':{'count':100,'body':["
	"  {'wake_and_block':{'wake':{'event':'e2'},'block':{'event':'e1'}}},"
	"  {'count':{'metric':'rounds','add':1}}]}},"
	" {'wake':{'event':'e2'}}]},"
	"{'name':'b','kind':'thread','program':[{'block':{'event':'e2'}},"
	" {'loop':{'count':100,'body':["
	"  {'wake_and_block':{'wake':{'event':'e1'},'block':{'event':'e2'}}}]}}"
	"]}],"
	"'metrics':{'rounds':{'type':'counter'}}}";

START_TEST(run_wake_and_block_is_atomic)
{
	eevdf_workload *wl = parse_ok(sync_json);
	eevdf_sim *sim = sim_with(wl, 1);
	char *json;

	run_to_end(sim, 1000 * MS);
	ck_assert_int_eq(eevdf_sim_results_json(sim, &json), 0);
	ck_assert_ptr_nonnull(strstr(json, "\"value\":\t100"));
	free(json);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * A loop that runs no iteration (count 0, or an until that holds at
 * entry) is skipped without counting an iteration of itself or of a loop
 * inside it that ends at the same op: three outer rounds, each one 1 ms
 * sleep and no run (schbench -n 0 is this shape).
 */
START_TEST(run_empty_loops_are_skipped)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'ops':0},"
		"'costs':{'exit':0,'timer_arm':0,'ctxsw_process':0},"
		"'tasks':[{'name':'w','program':["
		" {'loop':{'count':3,'body':[{'sleep':'1ms'},"
		"  {'loop':{'count':'${ops}','body':[{'run':'1ms'},"
		"   {'loop':{'count':2,'body':[{'run':'1ms'}]}}]}},"
		"  {'loop':{'until':'1','body':[{'run':'1ms'}]}},"
		"  {'count':{'metric':'rounds','add':1}}]}}]}],"
		"'metrics':{'rounds':{'type':'counter'}}}");
	eevdf_sim *sim = sim_with(wl, 1);
	char *json;

	run_to_end(sim, 1000 * MS);
	ck_assert_int_le(sim->sched.tasks[0]->exited_at, 3 * MS + 100000);
	ck_assert_int_lt(sim->sched.tasks[0]->se.sum_exec_runtime, 100000);
	ck_assert_int_eq(eevdf_sim_results_json(sim, &json), 0);
	ck_assert_ptr_nonnull(strstr(json, "\"value\":\t3"));
	free(json);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(run_signals_without_handler_end_the_task)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'tasks':["
		"{'name':'hog','program':[{'loop':{'count':'forever','body':"
		" [{'run':'1ms'}]}}]},"
		"{'name':'deaf','on_signal':{'USR1':[]},'program':"
		" [{'sleep':'10ms'}]},"
		"{'name':'killer','program':[{'sleep':'5ms'},"
		" {'signal':{'task':'hog','sig':'TERM'}},"
		" {'signal':{'task':'deaf','sig':'USR1'}}]}]}");
	eevdf_sim *sim = sim_with(wl, 2);

	run_to_end(sim, 1000 * MS);
	/*
	 * The hog dies at its next op boundary, within 1 ms of the signal
	 * (the killer exits right after sending it; where the fork balancer
	 * put the killer decides when its 5 ms sleep began).
	 */
	ck_assert_int_ge(sim->sched.tasks[0]->exited_at, 5 * MS);
	ck_assert_int_ge(sim->sched.tasks[0]->exited_at,
			 sim->sched.tasks[2]->exited_at - 100000);
	ck_assert_int_le(sim->sched.tasks[0]->exited_at,
			 sim->sched.tasks[2]->exited_at + MS + 100000);
	/* an empty handler ignores the signal: the sleep runs out */
	ck_assert_int_ge(sim->sched.tasks[1]->exited_at, 10 * MS);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(error_unknown_signal_names)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','on_signal':"
			   "{'USR3':[]},'program':[{'run':1}]}]}",
			   "tasks[0].on_signal.USR3",
			   "unknown signal 'USR3' (expected HUP, INT, KILL, "
			   "USR1, USR2, ALRM or TERM");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'a','sig':'SIGFOO'}}]}]}",
			   "tasks[0].program[0].signal.sig",
			   "unknown signal 'SIGFOO'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'a'}}]}]}",
			   "tasks[0].program[0].signal", "missing key 'sig'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','on_signal':"
			   "{'KILL':[]},'program':[{'run':1}]}]}",
			   "tasks[0].on_signal.KILL",
			   "SIGKILL cannot be caught");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','on_signal':"
			   "{'USR1':[],'SIGUSR1':[]},'program':[{'run':1}]}]}",
			   "tasks[0].on_signal.SIGUSR1",
			   "a second handler for SIGUSR1");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','on_signal':"
			   "{'USR1':{}},'program':[{'run':1}]}]}",
			   "tasks[0].on_signal.USR1",
			   "must be an array of ops");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','on_signal':"
			   "[],'program':[{'run':1}]}]}",
			   "tasks[0].on_signal",
			   "must be an object of signal: [ops]");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','on_signal':"
			   "{'TERM':[{'run':-1}]},'program':[{'run':1}]}]}",
			   "tasks[0].on_signal.TERM[0].run",
			   "must not be negative");
}
END_TEST

START_TEST(error_signal_to_unknown_or_ambiguous_tasks)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'nobody','sig':'USR1'}}]}]}",
			   "tasks[0].program[0].signal.task",
			   "no task named 'nobody'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'w','sig':'USR1'}}]},"
			   "{'name':'w','count':2,'program':[{'run':1}]}]}",
			   "tasks[0].program[0].signal.task",
			   "'w' names 2 tasks ('w[0]', ...): a signal goes to "
			   "one task");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'w[*]','sig':'USR1'}}]},"
			   "{'name':'w','count':3,'program':[{'run':1}]}]}",
			   "tasks[0].program[0].signal.task",
			   "'w[*]' names 3 tasks");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'program':[{'run':1}]}},"
			   "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'c','sig':'USR1'}}]}]}",
			   "tasks[0].program[0].signal.task",
			   "'c' is a template: its spawned instances cannot "
			   "be named at load time");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'signal':{'task':'w[@i]','sig':'USR1'}}]}]}",
			   "tasks[0].program[0].signal.task",
			   "run-time names are not supported");
}
END_TEST

START_TEST(error_unknown_or_malformed_templates)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'spawn':{'template':'nope'}}]}]}",
			   "tasks[0].program[0].spawn.template",
			   "no template named 'nope' (define it under "
			   "\"templates\")");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'program':"
			   "[{'exit':{}}]}},'tasks':[{'name':'a','program':"
			   "[{'spawn':{'template':'c','count':100001}}]}]}",
			   "tasks[0].program[0].spawn.count",
			   "must be at most 100000");
	EXPECT_PARSE_ERROR("{" FMT "'templates':[],'tasks':[" TASK_A "]}",
			   "templates", "must be an object of name: template");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'count':2,"
			   "'program':[{'run':1}]}},'tasks':[" TASK_A "]}",
			   "templates.c.count",
			   "a template has no 'count': spawn's 'count' makes "
			   "several instances");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'for':{'i':[0,2]},"
			   "'program':[{'run':1}]}},'tasks':[" TASK_A "]}",
			   "templates.c.for", "a template has no 'for'");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'start':'1ms',"
			   "'program':[{'run':1}]}},'tasks':[" TASK_A "]}",
			   "templates.c.start", "start when they are spawned");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'kind':'process'}},"
			   "'tasks':[" TASK_A "]}",
			   "templates.c", "missing key 'program'");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'bogus':1,"
			   "'program':[{'run':1}]}},'tasks':[" TASK_A "]}",
			   "templates.c", "unknown key 'bogus'");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'program':[{'run':1}]},"
			   "'c':{'program':[{'run':2}]}},'tasks':[" TASK_A "]}",
			   "templates.c", "duplicate template 'c'");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'w':{'program':[{'run':1}]}},"
			   "'tasks':[{'name':'w','count':2,'program':"
			   "[{'run':1}]}]}",
			   "templates.w",
			   "template 'w' would name its instances like task "
			   "'w[0]'");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'program':"
			   "[{'let':{'@x':'@pid'}}]}},'tasks':[" TASK_A "]}",
			   "templates.c.program[0].let.@x",
			   "'@pid' is not known in a template");
	EXPECT_PARSE_ERROR("{" FMT "'templates':{'c':{'nice':20,"
			   "'program':[{'run':1}]}},'tasks':[" TASK_A "]}",
			   "templates.c.nice", "must be between -20 and 19");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'barrier','name':'b'}],"
			   "'templates':{'c':{'program':[{'barrier':'b'}]}},"
			   "'tasks':[{'name':'a','program':"
			   "[{'barrier':'b'}]}]}",
			   "templates.c",
			   "barrier 'b' is used by a template: give it "
			   "'parties'");
}
END_TEST

START_TEST(error_template_cpu_beyond_the_machine)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'templates':{'c':{'cpus':[3],'program':[{'run':1}]}},"
		"'tasks':[" TASK_A "]}");
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 2;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), EEVDF_EINVAL);
	ck_assert_str_eq(d.path, "templates.c.cpus");
	ck_assert_str_eq(d.msg, "template c: cpu 3 is not on this 2-CPU "
				"machine");
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

/* ---- CPU lists, choices and interval reports ---------------------------- */

/* Task i's CPUs are want[0..n) (n 0: every CPU). */
static void ck_cpus(const eevdf_workload *wl, size_t i, const int *want,
		    size_t n)
{
	const struct eevdf_task_spec *t = eevdf_workload_task(wl, i);

	ck_assert_ptr_nonnull(t);
	ck_assert_msg(t->nr_cpus == n, "task %s: %zu CPUs, want %zu", t->name,
		      t->nr_cpus, n);
	if (!n)
		ck_assert_ptr_null(t->cpus);
	for (size_t k = 0; k < n; k++)
		ck_assert_msg(t->cpus[k] == want[k], "%s: cpus[%zu] %d, not %d",
			      t->name, k, t->cpus[k], want[k]);
}

static const struct wl_value *param_of(const eevdf_workload *wl,
				       const char *name)
{
	for (size_t i = 0; i < wl->nr_params; i++)
		if (strcmp(wl->params[i].name, name) == 0)
			return &wl->params[i].v;
	ck_abort_msg("no param '%s'", name);
	return NULL;
}

/*
 * "cpus" as a kernel-style list (a set: increasing order), after
 * "${...}" (a number param is one CPU, a null one every CPU), a plain
 * number, null, and the round-robin pick: the sorted list of "9,0-1" is
 * 0, 1, 9, so picks 0..4 give 0, 1, 9, 0, 1.
 */
START_TEST(cpus_take_lists_numbers_null_and_picks)
{
	static const int a[] = { 0, 1, 2, 5 }, b[] = { 1, 2 }, d[] = { 3 };
	static const int e[] = { 4 }, pick[] = { 0, 1, 9, 0, 1 };
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'L':'2,1','N':null,'one':3},'tasks':["
		"{'name':'a','cpus':'0-2,5','program':[{'run':1}]},"
		"{'name':'b','cpus':'${L}','program':[{'run':1}]},"
		"{'name':'c','cpus':'${N}','program':[{'run':1}]},"
		"{'name':'d','cpus':'${one}','program':[{'run':1}]},"
		"{'name':'e','cpus':4,'program':[{'run':1}]},"
		"{'name':'f','cpus':null,'program':[{'run':1}]},"
		"{'name':'p[${i}]','for':{'i':[0,5]},"
		" 'cpus':{'list':'9,0-1','pick':'${i}'},'program':[{'run':1}]}"
		"]}");

	ck_cpus(wl, 0, a, 4);
	ck_cpus(wl, 1, b, 2);
	ck_cpus(wl, 2, NULL, 0);
	ck_cpus(wl, 3, d, 1);
	ck_cpus(wl, 4, e, 1);
	ck_cpus(wl, 5, NULL, 0);
	for (size_t i = 0; i < 5; i++)
		ck_cpus(wl, 6 + i, &pick[i], 1);
	eevdf_workload_free(wl);
}
END_TEST

/*
 * Choices: "is" compares a param with a value (strings as text, null with
 * null, a duration string as its ns), without it the condition is an
 * integer; a branch may choose again, and only the branch taken is read
 * (the else of x names no param at all).  --param M=0-3 flips them.
 */
START_TEST(choices_pick_a_branch_by_value)
{
	static const char *const wl_text =
		"{" FMT "'params':{'M':'auto','N':null,'d':'10ms',"
		"'x':{'if':'${M}','is':'auto','then':1,'else':'${nope}'},"
		"'y':{'if':'${N}','is':null,'then':{'if':'${x}','then':'both',"
		"'else':'one'},'else':'none'},"
		"'z':{'if':'${d}','is':'10000us','then':true,'else':false},"
		"'w':{'if':true,'then':'10s','else':1}},"
		"'tasks':[{'name':'a','cpus':{'if':'${x}','then':'0-1',"
		"'else':null},'program':[{'run':1}]}]}";
	static const char *const over[] = { "M=0-3", "x=0" };
	static const int two[] = { 0, 1 };
	eevdf_workload *wl = parse_ok(wl_text);
	const struct wl_value *v;

	ck_assert_int_eq(param_of(wl, "x")->i, 1);
	v = param_of(wl, "y");
	ck_assert_int_eq(v->kind, WV_STR);
	ck_assert_str_eq(v->s, "both");
	ck_assert_int_eq(param_of(wl, "z")->i, 1);
	/* the chosen "10s" is a duration, as any param's "10s" */
	ck_assert_int_eq(param_of(wl, "w")->i, 10000 * MS);
	ck_cpus(wl, 0, two, 2);
	eevdf_workload_free(wl);
	wl = parse_params(wl_text, over, 2, 1);
	ck_assert_str_eq(param_of(wl, "M")->s, "0-3");
	ck_cpus(wl, 0, NULL, 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(error_bad_cpu_lists_name_the_field)
{
#define CPUS_ERR(cpus, path, why)                                              \
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','cpus':" cpus ","     \
			   "'program':[{'run':1}]}]}",                         \
			   path, why)
	CPUS_ERR("'3-1'", "tasks[0].cpus",
		 "bad CPU list '3-1': the range 3-1 runs backwards");
	CPUS_ERR("'0,2,0'", "tasks[0].cpus",
		 "bad CPU list '0,2,0': CPU 0 is listed twice");
	CPUS_ERR("''", "tasks[0].cpus", "bad CPU list '': the list is empty");
	CPUS_ERR("'0-4096'", "tasks[0].cpus",
		 "bad CPU list '0-4096': CPU 4096 is beyond the largest, 4095");
	CPUS_ERR("'0;1'", "tasks[0].cpus",
		 "bad CPU list '0;1': expected ',' or '-' after 0 at ';1'");
	CPUS_ERR("4096", "tasks[0].cpus", "must be between 0 and 4095");
	CPUS_ERR("true", "tasks[0].cpus",
		 "must be a CPU list: a string such as \"0-3,8\", a CPU "
		 "number or an array of them, or null");
	CPUS_ERR("{'list':'0-1'}", "tasks[0].cpus", "missing key 'pick'");
	CPUS_ERR("{'list':'0-1','pick':0,'nth':1}", "tasks[0].cpus",
		 "unknown key 'nth'");
	CPUS_ERR("{'list':null,'pick':0}", "tasks[0].cpus.list",
		 "must be a CPU list: a string such as \"0-3,8\", a CPU "
		 "number or an array of them");
	CPUS_ERR("{'list':'1-0','pick':0}", "tasks[0].cpus.list",
		 "the range 1-0 runs backwards");
	CPUS_ERR("{'list':'0','pick':-1}", "tasks[0].cpus.pick",
		 "must be between 0 and");
	/* a choice names the branch it took */
	CPUS_ERR("{'if':0,'then':'0','else':'9-8'}", "tasks[0].cpus.else",
		 "the range 9-8 runs backwards");
	CPUS_ERR("{'if':1,'then':'0'}", "tasks[0].cpus",
		 "missing key 'else' (a choice has both 'then' and 'else')");
	CPUS_ERR("{'if':'x','then':'0','else':'1'}", "tasks[0].cpus.if",
		 "must be an integer or a boolean");
	CPUS_ERR("{'if':1,'then':0,'else':1,'when':2}", "tasks[0].cpus",
		 "unknown key 'when'");
#undef CPUS_ERR
	EXPECT_PARSE_ERROR("{" FMT "'params':{'p':{'if':1,'is':1,'then':"
			   "'${q}','else':0}},'tasks':[" TASK_A "]}",
			   "params.p.then", "unknown name 'q'");
}
END_TEST

/* A CPU of a list that the machine of the run lacks: at setup. */
START_TEST(error_cpu_list_beyond_the_machine)
{
	eevdf_workload *wl = parse_ok("{" FMT "'tasks':[{'name':'a',"
				      "'cpus':'0-3','program':[{'run':1}]}]}");
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;

	eevdf_config_init(&cfg);
	cfg.nr_cpus = 2;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	ck_assert_int_eq(eevdf_workload_add_tasks(wl, sim, &d), EEVDF_EINVAL);
	ck_assert_str_eq(d.file, "t.json");
	ck_assert_str_eq(d.path, "tasks[0].cpus");
	ck_assert_str_eq(d.msg, "task a: cpu 2 is not on this 2-CPU machine");
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

#define IV_METRICS "'metrics':{'c':{'type':'counter'}},"

START_TEST(report_interval_is_a_duration_over_a_known_length)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'duration':'3s'," IV_METRICS
		"'report':{'format':'schbench','interval':'1s'},"
		"'tasks':[" TASK_A "]}");
	eevdf_sim *sim;

	ck_assert_int_eq(wl->report_interval, 1000 * MS);
	/* the option keeps its text, as every other */
	ck_assert_str_eq(eevdf_workload_report_option(wl, "interval"), "1s");
	sim = sim_with(wl, 1);
	ck_assert_ptr_nonnull(eevdf__metric_snaps(sim));
	ck_assert_uint_eq(eevdf__metric_snaps(sim)->cap, 3);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
	/* null, or a null param: none, and no option */
	wl = parse_ok("{" FMT "'params':{'iv':null},'duration':'3s'," IV_METRICS
		      "'report':{'format':'schbench',"
		      "'interval':'${iv}'},'tasks':[" TASK_A "]}");
	ck_assert_int_eq(wl->report_interval, 0);
	ck_assert_ptr_null(eevdf_workload_report_option(wl, "interval"));
	sim = sim_with(wl, 1);
	ck_assert_ptr_null(eevdf__metric_snaps(sim));
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(error_report_interval_values)
{
#define IV_ERR(top, iv, why)                                                   \
	EXPECT_PARSE_ERROR("{" FMT top IV_METRICS                              \
			   "'report':{'format':'schbench','interval':" iv      \
			   "},'tasks':[" TASK_A "]}",                          \
			   "report.interval", why)
	IV_ERR("'duration':'3s',", "0",
	       "must be greater than 0 (null for no interval reports)");
	IV_ERR("'duration':'3s',", "'-1s'", "must not be negative");
	IV_ERR("'duration':'3s',", "'soon'", "invalid duration 'soon'");
	IV_ERR("", "'1s'", "interval reports need a workload of known length");
	/* 2 s / 100 us = 20000 reports */
	IV_ERR("'duration':'2s',", "'100us'",
	       "20000 interval reports over the workload's 2000000000 ns, one "
	       "every 100000 ns; at most 10000 (choose a longer interval)");
#undef IV_ERR
	EXPECT_PARSE_ERROR("{" FMT "'duration':'3s','report':{'format':"
			   "'schbench','interval':'1s'},'tasks':[" TASK_A "]}",
			   "report.interval",
			   "interval reports need the workload's metrics, and "
			   "it has none");
}
END_TEST

/*
 * The shipped schbench: -M and -W as schbench places threads.  8 CPUs, m
 * = 4, so t = (8 + 4 - 1) / 4 = 2 workers each: tasks msg[0..3] then
 * eight workers.
 */
START_TEST(schbench_places_threads_as_its_M_and_W_say)
{
	static const int w23[] = { 2, 3 };
	static const int ids[] = { 0, 1, 2, 3 }, rr[] = { 0, 1, 6, 0 };
	static const struct {
		const char *over[2];
		const int *msg; /* each msg[i] on msg[i] alone, or NULL */
		const int *workers;
		size_t nr_workers;
		const int *msg_all; /* every msg thread on these */
		size_t nr_msg_all;
	} cases[] = {
		/* no pinning, schbench's default */
		{ { "m=4", NULL }, NULL, NULL, 0, NULL, 0 },
		/* -M auto: message thread i on CPU i, workers everywhere,
		 * as the binary's thread_auto_pin() leaves them */
		{ { "m=4", "M=auto" }, ids, NULL, 0, NULL, 0 },
		/* -W auto does the same (thread_auto_pin() sets both) */
		{ { "m=4", "W=auto" }, ids, NULL, 0, NULL, 0 },
		/* -M LIST: round robin over the sorted set {0, 1, 6};
		 * workers unpinned */
		{ { "m=4", "M=6,0-1" }, rr, NULL, 0, NULL, 0 },
		/* -W LIST alone: message threads keep the workers' mask
		 * they set before starting them */
		{ { "m=4", "W=2-3" }, NULL, w23, 2, w23, 2 },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		size_t np = cases[c].over[1] ? 2 : 1;
		struct eevdf_load_opts o = { .params = cases[c].over,
					     .nr_params = np,
					     .ncpus = 8 };
		struct eevdf_diag d;
		eevdf_workload *wl = NULL;
		char buf[512];

		ck_assert_msg(
			eevdf_workload_load_file_opts("workloads/schbench.json",
						      &o, &wl, &d) == 0,
			"%s", eevdf_diag_format(&d, buf, sizeof(buf)));
		ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 12);
		for (size_t i = 0; i < 4; i++) {
			if (cases[c].msg)
				ck_cpus(wl, i, &cases[c].msg[i], 1);
			else
				ck_cpus(wl, i, cases[c].msg_all,
					cases[c].nr_msg_all);
		}
		for (size_t i = 4; i < 12; i++)
			ck_cpus(wl, i, cases[c].workers, cases[c].nr_workers);
		/* schbench's -i 10 */
		ck_assert_int_eq(wl->report_interval, 10000 * MS);
		eevdf_workload_free(wl);
	}
}
END_TEST

/*
 * A forever loop of yields advances time by the syscall cost of each
 * sched_yield() (100 ns by default), so it loads and runs: the loop the
 * 6.18 yield forfeit is about.  Alone on one CPU from t = 0 (no idle exit
 * at the first instant), the task first pays its switch-in, ctxsw_process
 * = 550 ns, then completes yield k at 550 + 100 k ns: by 1 ms that is
 * floor((1000000 - 550) / 100) = 9994 yields, and it ran the whole time.
 */
START_TEST(loop_of_yields_loads_and_yields_at_the_syscall_rate)
{
	eevdf_workload *wl = parse_ok(
		"{\"format\": \"eevdf-sim-workload/1\", \"tasks\": [{"
		"\"name\": \"y\", \"program\": [{\"loop\": {\"body\": "
		"[{\"yield\": {}}]}}]}]}");
	eevdf_sim *sim = sim_with(wl, 1);
	struct eevdf_task_stats st;

	ck_assert_int_eq(eevdf_sim_run(sim, 1000 * US), 0);
	ck_assert_int_eq(eevdf_sim_task_stats(sim, 0, &st), 0);
	ck_assert_uint_eq(st.yields, 9994);
	ck_assert_int_eq(st.cpu_ns, 1000 * US);
	eevdf_sim_free(sim);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(error_setattr_values)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{}}]}]}",
			   "tasks[0].program[0].setattr",
			   "needs at least one of 'nice', 'slice', "
			   "'policy' and 'cgroup'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'nice':20}}]}]}",
			   "tasks[0].program[0].setattr.nice",
			   "must be between -20 and 19");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'slice':'50us'}}]}]}",
			   "tasks[0].program[0].setattr.slice",
			   "between 100us and 100ms");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'policy':'fifo'}}]}]}",
			   "tasks[0].program[0].setattr.policy",
			   "policy 'fifo' needs a 'priority' of 1..99");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'policy':'rr','priority':0}}]}]}",
			   "tasks[0].program[0].setattr.priority",
			   "between 1 and 99");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'nice':1,'priority':3}}]}]}",
			   "tasks[0].program[0].setattr.priority",
			   "give 'policy' too");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'policy':'deadline','runtime':'5ms',"
			   "'deadline':'10ms','period':'8ms'}}]}]}",
			   "tasks[0].program[0].setattr",
			   "runtime <= deadline <= period");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'policy':'lazy'}}]}]}",
			   "tasks[0].program[0].setattr.policy",
			   "unknown policy 'lazy'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'setattr':{'weight':2}}]}]}",
			   "tasks[0].program[0].setattr",
			   "unknown key 'weight'");
}
END_TEST

START_TEST(error_timer_wait_without_a_period_or_a_timer)
{
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'timer','name':'t'}],"
			   "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'timer':'t'}}]}]}",
			   "tasks[0].program[0].timer_wait",
			   "missing key 'period' (the timer gives none)");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'timer':'unique','period':0}}]}]}",
			   "tasks[0].program[0].timer_wait.period",
			   "must be greater than 0");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'period':'1ms'}}]}]}",
			   "tasks[0].program[0].timer_wait",
			   "missing key 'timer'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'timer':'t','period':'1ms'}}]}]}",
			   "tasks[0].program[0].timer_wait.timer",
			   "no object named 't'");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'event','name':'e'}],"
			   "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'timer':'e','period':'1ms'}}]}]}",
			   "tasks[0].program[0].timer_wait.timer",
			   "'e' is a event, not a timer");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'timer',"
			   "'name':'t[${i}]','for':{'i':[0,2]},'unique':true,"
			   "'period':'1ms'}],"
			   "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'timer':'t[@k]'}}]}]}",
			   "tasks[0].program[0].timer_wait.timer",
			   "which is one per task: name such a timer without "
			   "run-time parts");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'timer_wait':{'timer':'unique','period':'1ms',"
			   "'mode':'sideways'}}]}]}",
			   "tasks[0].program[0].timer_wait.mode",
			   "unknown mode 'sideways' (expected relative or "
			   "absolute)");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'timer','name':'t',"
			   "'period':0}],'tasks':[" TASK_A "]}",
			   "objects[0].period", "must be greater than 0");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'timer','name':'t',"
			   "'capacity':1}],'tasks':[" TASK_A "]}",
			   "objects[0]", "unknown key 'capacity'");
}
END_TEST

START_TEST(error_wake_and_block_needs_both_halves)
{
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'event','name':'e'}],"
			   "'tasks':[{'name':'a','program':[{'wake_and_block':"
			   "{'wake':{'event':'e'}}}]}]}",
			   "tasks[0].program[0].wake_and_block",
			   "missing key 'block'");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'event','name':'e'}],"
			   "'tasks':[{'name':'a','program':[{'wake_and_block':"
			   "{'wake':{'event':'x'},'block':{'event':'e'}}}]}]}",
			   "tasks[0].program[0].wake_and_block.wake.event",
			   "no object named 'x'");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'event','name':'e'}],"
			   "'tasks':[{'name':'a','program':[{'wake_and_block':"
			   "{'wake':{'event':'e'},'block':{'event':'e',"
			   "'cost':-1}}}]}]}",
			   "tasks[0].program[0].wake_and_block.block.cost",
			   "must not be negative");
	EXPECT_PARSE_ERROR("{" FMT "'objects':[{'type':'event','name':'e'}],"
			   "'tasks':[{'name':'a','program':[{'wake_and_block':"
			   "{'wake':{'event':'e'},'block':{'event':'e'}},"
			   "'cost':'1us'}]}]}",
			   "tasks[0].program[0]",
			   "'cost' is not allowed on wake_and_block (put it on "
			   "the 'wake' or the 'block')");
}
END_TEST

/*
 * A validator's load: an error in one task's program does not hide the
 * next task's; the tasks in between (three instances of b) are skipped
 * over exactly, so e and its errors are reported under their own paths.
 */
START_TEST(validator_load_reports_every_program_error)
{
	static const char src[] =
		"{\"format\": \"eevdf-sim-workload/1\", \"tasks\": ["
		"{\"name\": \"a\", \"program\": [{\"frobnicate\": 1}]},"
		"{\"name\": \"b\", \"count\": 3, \"program\": "
		"[{\"run\": \"1ms\"}]},"
		"{\"name\": \"c\", \"program\": [{\"run\": -5}]},"
		"{\"name\": \"d\", \"program\": [{\"run\": \"1ms\"}]},"
		"{\"name\": \"e\", \"program\": [{\"sleep\": \"1ms\"}, "
		"{\"wait\": {\"sem\": \"nope\"}}]}]}";
	struct eevdf_diag errs[2], d;
	size_t nr = 99;
	struct eevdf_load_opts o = { .errors = errs,
				     .max_errors = 2,
				     .nr_errors = &nr };
	eevdf_workload *wl = NULL;

	ck_assert_int_eq(eevdf_workload_parse_opts(src, strlen(src), "v.json",
						   &o, &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(wl);
	/* three errors; the first two kept; diag holds the first */
	ck_assert_uint_eq(nr, 3);
	ck_assert_str_eq(errs[0].path, "tasks[0].program[0]");
	ck_assert_str_eq(errs[1].path, "tasks[2].program[0].run");
	ck_assert_str_eq(d.path, "tasks[0].program[0]");
	ck_assert_ptr_nonnull(strstr(d.msg, "frobnicate"));
	ck_assert_str_eq(d.file, "v.json");
	/* with room for all, the third names e's own path */
	{
		struct eevdf_diag all[8];
		struct eevdf_load_opts o2 = { .errors = all,
					      .max_errors = 8,
					      .nr_errors = &nr };

		ck_assert_int_eq(eevdf_workload_parse_opts(src, strlen(src),
							   "v.json", &o2, &wl,
							   &d),
				 EEVDF_EPARSE);
		ck_assert_uint_eq(nr, 3);
		ck_assert_str_eq(all[2].path, "tasks[4].program[1].wait.sem");
		ck_assert_ptr_nonnull(strstr(all[2].msg, "nope"));
	}
	/* without errors: the loader stops at the first, as always */
	ck_assert_int_eq(eevdf_workload_parse_opts(src, strlen(src), "v.json",
						   NULL, &wl, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.path, "tasks[0].program[0]");
	/* a valid file: no errors, count 0 */
	{
		static const char ok[] =
			"{\"format\": \"eevdf-sim-workload/1\", \"tasks\": "
			"[{\"name\": \"t\", \"program\": "
			"[{\"run\": \"1ms\"}]}]}";

		nr = 7;
		ck_assert_int_eq(eevdf_workload_parse_opts(ok, strlen(ok),
							   "ok.json", &o, &wl,
							   &d),
				 0);
		ck_assert_uint_eq(nr, 0);
		eevdf_workload_free(wl);
	}
	/* errors without a count to write: bad options */
	o.nr_errors = NULL;
	ck_assert_int_eq(eevdf_workload_parse_opts(src, strlen(src), "v.json",
						   &o, &wl, &d),
			 EEVDF_EINVAL);
}
END_TEST

Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("duration");

	tcase_add_test(tc, duration_accepts_integers_and_units_exactly);
	tcase_add_test(tc, duration_rejects_malformed_strings_with_einval);
	tcase_add_test(tc, duration_above_the_maximum_or_64_bits_is_erange);
	suite_add_tcase(s, tc);

	tc = tcase_create("valid");
	tcase_add_test(tc, workload_valid_file_gives_every_field);
	tcase_add_test(tc, workload_absent_optional_keys_take_their_defaults);
	tcase_add_test(tc, workload_count_expands_to_indexed_names);
	tcase_add_test(tc, workload_loops_flatten_with_exact_body_lengths);
	tcase_add_test(tc, workload_seed_is_a_small_number_or_digits);
	tcase_add_test(tc, workload_yield_accepts_an_empty_object_or_true_only);
	tcase_add_test(tc, workload_buffer_need_not_be_nul_terminated);
	tcase_add_test(tc, workload_load_file_reads_a_workload_from_disk);
	tcase_add_test(tc, workload_add_tasks_adds_every_task_in_order);
	tcase_add_test(tc, workload_add_tasks_names_the_rejected_task);
	tcase_add_test(tc, diag_format_prints_file_line_path_and_message);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, workload_malformed_json_reports_its_line);
	tcase_add_test(tc, workload_text_after_the_json_value_is_rejected);
	tcase_add_test(tc, workload_top_level_must_be_an_object);
	tcase_add_test(tc, workload_missing_format_is_rejected);
	tcase_add_test(tc, workload_wrong_format_is_rejected_naming_it);
	tcase_add_test(tc, workload_unknown_top_level_key_is_rejected);
	tcase_add_test(tc,
		       workload_unknown_task_key_bogus_is_rejected_naming_it);
	tcase_add_test(tc,
		       workload_keys_of_later_versions_are_not_supported_yet);
	tcase_add_test(tc, workload_kernel_names_a_profile);
	tcase_add_test(tc, workload_duplicate_key_is_rejected);
	tcase_add_test(tc, workload_negative_duration_is_rejected_at_its_path);
	tcase_add_test(tc, workload_non_integer_ns_is_rejected);
	tcase_add_test(tc, workload_durations_above_10_pow_15_ns_are_rejected);
	tcase_add_test(tc, workload_huge_count_is_rejected);
	tcase_add_test(tc, workload_over_a_million_tasks_is_rejected);
	tcase_add_test(tc, workload_nice_20_is_rejected);
	tcase_add_test(tc, workload_slice_of_50us_is_out_of_range);
	tcase_add_test(tc, workload_bad_policy_is_rejected);
	tcase_add_test(tc, workload_cpu_out_of_range_is_rejected);
	tcase_add_test(tc, workload_duplicate_cpu_is_rejected);
	tcase_add_test(tc, workload_empty_program_is_rejected);
	tcase_add_test(tc, workload_bad_task_names_are_rejected);
	tcase_add_test(tc, workload_op_with_two_keys_is_rejected);
	tcase_add_test(tc, workload_unknown_op_is_rejected);
	tcase_add_test(tc, workload_setattr_cpus_spawn_vars_not_supported_yet);
	tcase_add_test(tc, workload_loop_keys_and_count_are_checked);
	tcase_add_test(tc, workload_forever_loop_without_work_is_rejected);
	tcase_add_test(tc, workload_loops_nest_16_deep_but_not_17);
	tcase_add_test(tc, workload_programs_over_65536_ops_are_rejected);
	tcase_add_test(tc, workload_duplicate_expanded_names_are_rejected);
	tcase_add_test(tc, workload_missing_file_gives_eio_naming_the_file);
	tcase_add_test(tc, workload_directory_gives_eio);
	tcase_add_test(tc, workload_files_over_64_mib_are_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_test(tc,
		       section12_schbench_compiles_message_and_worker_threads);
	tcase_add_test(tc, section12_hackbench_compiles_groups_of_pairs);
	tcase_add_test(tc, section12_pipe_compiles_the_ping_pong);
	tcase_add_test(tc, section12_tbench_passes_resp_in_a_message_field);
	tcase_add_test(tc, section12_massive_intr_records_loops_per_pid);
	tcase_add_test(tc, section12_blogbench_inlines_its_macros);
	tcase_add_test(tc, section12_futex_adds_slack_to_the_timeout);
	tcase_add_test(tc, section12_cyclictest_sleeps_until_the_next_period);
	tcase_add_test(tc, params_are_typed_and_overridden_by_name);
	tcase_add_test(tc, params_override_of_an_unknown_name_is_an_error);
	tcase_add_test(tc, load_file_opts_passes_the_overrides);
	tcase_add_test(tc, params_see_earlier_params_and_the_machine);
	tcase_add_test(tc, for_instantiates_the_cross_product_in_key_order);
	tcase_add_test(tc, vars_and_pid_seed_each_task);
	tcase_add_test(tc, macros_inline_with_their_args_first);
	tcase_add_test(tc, bound_names_share_one_program);
	tcase_add_test(tc, names_that_cannot_bind_keep_their_own_program);
	tcase_add_test(tc, dynamic_names_resolve_at_run_time);
	tcase_add_test(tc, constant_conditions_fold_at_load_time);
	tcase_add_test(tc, message_fields_land_in_the_receiver_variables);
	tcase_add_test(tc, inline_expression_forms_give_the_evaluators_values);
	tcase_add_test(tc,
		       inline_expression_forms_report_the_evaluators_overflow);
	tcase_add_test(tc,
		       drop_zero_records_drop_zeros_with_and_without_a_guard);
	tcase_add_test(tc, join_patterns_make_sorted_sets_of_pids);
	tcase_add_test(tc, metrics_are_defined_once_and_typed);
	tcase_add_test(tc, stop_and_warmup_reach_the_simulation);
	tcase_add_test(tc, costs_override_the_cost_table);
	tcase_add_test(tc, objects_take_their_settings_and_defaults);
	tcase_add_test(tc, add_tasks_needs_an_empty_simulation);
	tcase_add_test(tc, programs_outlive_the_workload);
	tcase_add_test(tc, every_op_may_carry_a_cost);
	tcase_add_test(tc, signals_compile_handlers_after_the_main_program);
	tcase_add_test(tc, interruptible_waits_take_sleep_intr_and_a_status);
	tcase_add_test(tc, templates_compile_with_their_vars_first);
	tcase_add_test(tc, setattr_compiles_nice_slice_and_policy);
	tcase_add_test(tc, timer_wait_compiles_per_task_and_shared_timers);
	tcase_add_test(tc, wake_and_block_compiles_to_a_wake_then_a_block);
	tcase_add_test(tc, cpus_take_lists_numbers_null_and_picks);
	tcase_add_test(tc, choices_pick_a_branch_by_value);
	tcase_add_test(tc, report_interval_is_a_duration_over_a_known_length);
	tcase_add_test(tc, schbench_places_threads_as_its_M_and_W_say);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, run_hackbench_sends_groups_fds_fds_loops_messages);
	tcase_add_test(tc, run_pipe_ping_pong_of_100_loops_completes);
	tcase_add_test(tc, run_latch_and_sem_handshake);
	tcase_add_test(tc, run_keyed_records_by_pid_and_by_string);
	tcase_add_test(tc, run_schbench_reports_wakeup_latencies);
	tcase_add_test(tc, run_starve_delivers_the_signals_to_the_handler);
	tcase_add_test(tc, run_interruptible_join_retries_on_eintr);
	tcase_add_test(tc, run_spawn_and_join_children_count_the_instances);
	tcase_add_test(tc, run_setattr_nice_changes_the_share_of_a_hog);
	tcase_add_test(tc,
		       run_timer_wait_relative_and_absolute_after_an_overrun);
	tcase_add_test(tc, run_wake_and_block_is_atomic);
	tcase_add_test(tc, run_signals_without_handler_end_the_task);
	tcase_add_test(tc, run_empty_loops_are_skipped);
	suite_add_tcase(s, tc);

	tc = tcase_create("format-errors");
	tcase_add_test(tc, error_undefined_object_names_the_reference);
	tcase_add_test(tc, error_undefined_metric);
	tcase_add_test(tc, error_undefined_or_recursive_macro);
	tcase_add_test(tc, error_undefined_param);
	tcase_add_test(tc, error_type_mismatch_of_an_object);
	tcase_add_test(tc, error_wait_on_a_sem_nobody_posts);
	tcase_add_test(tc, error_recv_on_a_channel_nobody_sends_to);
	tcase_add_test(tc, error_join_pattern_matching_nothing);
	tcase_add_test(tc, error_forever_loop_of_instant_ops);
	tcase_add_test(tc, error_expression_that_does_not_compile);
	tcase_add_test(tc, error_nesting_deeper_than_16_counts_every_body);
	tcase_add_test(tc, error_distribution_parameters);
	tcase_add_test(tc, error_features_not_supported_yet);
	tcase_add_test(tc, error_duplicate_or_reserved_object_name);
	tcase_add_test(tc, error_metric_of_the_wrong_type);
	tcase_add_test(tc, error_barrier_with_more_parties_than_users);
	tcase_add_test(tc, error_unknown_signal_names);
	tcase_add_test(tc, error_signal_to_unknown_or_ambiguous_tasks);
	tcase_add_test(tc, error_unknown_or_malformed_templates);
	tcase_add_test(tc, error_template_cpu_beyond_the_machine);
	tcase_add_test(tc, error_bad_cpu_lists_name_the_field);
	tcase_add_test(tc, error_cpu_list_beyond_the_machine);
	tcase_add_test(tc, error_report_interval_values);
	tcase_add_test(tc, error_setattr_values);
	tcase_add_test(tc, loop_of_yields_loads_and_yields_at_the_syscall_rate);
	tcase_add_test(tc, error_timer_wait_without_a_period_or_a_timer);
	tcase_add_test(tc, error_wake_and_block_needs_both_halves);
	tcase_add_test(tc, validator_load_reports_every_program_error);
	suite_add_tcase(s, tc);
	return s;
}
