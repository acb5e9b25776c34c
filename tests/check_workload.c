/* SPDX-License-Identifier: MIT */
/* Tests of duration parsing and the workload loader (src/workload.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eevdf/eevdf.h"
#include "suites.h"

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

#define EXPECT_PARSE_ERROR(s, path, sub) \
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
		"", "-5ms", "-0", "-5", "+5ms", "5 ms", " 5ms", "5ms ", "5m",
		"5MS", "5Ms", "1e3ns", "1e3", "1.5", ".5ms", "5.ms",
		"0.0005us", "1.5ns", "0x10", "ms", "5msx", "1..5ms",
		"1.2.3ms", "5min", "5 ", "\t5ms", "1,5ms", "0.0000000001s",
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
			   "]}", "seed", "string of digits");
	EXPECT_PARSE_ERROR("{" FMT "'seed':'18446744073709551616','tasks':["
			   TASK_A "]}", "seed", "decimal digits");
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
	ck_assert_str_eq(d.msg, "cannot read: Is a directory");
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
	ck_assert_int_eq(eevdf_workload_load_file(path, &wl, &d), EEVDF_EIO);
	ck_assert_ptr_null(wl);
	ck_assert_ptr_nonnull(strstr(d.msg, "larger than 64 MiB"));
	unlink(path);
}
END_TEST

START_TEST(workload_add_tasks_adds_every_task_in_order)
{
	eevdf_workload *wl = parse_ok("{" FMT "'tasks':[{'name':'w','count':2,"
				      "'cpus':[1],'program':[{'run':'1ms'}]},"
				      TASK_A "]}");
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
	ck_assert_str_eq(d.path, "tasks[1]");
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
			   "]}", "format", "'eevdf-sim-workload/2'");
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

START_TEST(workload_keys_of_later_versions_are_not_supported_yet)
{
	EXPECT_PARSE_ERROR("{" FMT "'params':{},'tasks':[" TASK_A "]}", "",
			   "'params' is not supported by this version yet");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','cgroup':'/x',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0]",
			   "'cgroup' is not supported by this version yet");
}
END_TEST

START_TEST(workload_duplicate_key_is_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','nice':1,'nice':2,"
			   "'program':[{'run':1}]}]}",
			   "tasks[0]", "duplicate key 'nice'");
	EXPECT_PARSE_ERROR("{" FMT "'name':'x','name':'y','tasks':[" TASK_A
			   "]}", "", "duplicate key 'name'");
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
			   "[{'run':1.5}]}]}", "tasks[0].program[0].run",
			   "must be an integer number of ns or a string with a "
			   "unit");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':true}]}]}", "tasks[0].program[0].run",
			   "must be an integer number of ns");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':'5 ms'}]}]}", "tasks[0].program[0].run",
			   "invalid duration '5 ms'");
}
END_TEST

START_TEST(workload_durations_above_10_pow_15_ns_are_rejected)
{
	EXPECT_PARSE_ERROR("{" FMT "'duration':1000000000000001,'tasks':["
			   TASK_A "]}", "duration", "1000000000000000 ns");
	EXPECT_PARSE_ERROR("{" FMT "'duration':'1000001s','tasks':[" TASK_A
			   "]}", "duration", "1000000000000000 ns");
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

		snprintf(t, sizeof(t), "%s{'name':'t%d','count':100000,"
			 "'program':[{'run':1}]}", i ? "," : "", i);
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
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','policy':'fifo',"
			   "'program':[{'run':1}]}]}",
			   "tasks[0].policy", "unknown policy 'fifo'");
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
			   "[{'run':1}]}]}", "tasks[0].name",
			   "invalid character");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a[0]','program':"
			   "[{'run':1}]}]}", "tasks[0].name",
			   "invalid character '['");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'','program':"
			   "[{'run':1}]}]}", "tasks[0].name",
			   "1 to 40 characters");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':"
			   "'abcdefghijabcdefghijabcdefghijabcdefghijx',"
			   "'program':[{'run':1}]}]}", "tasks[0].name",
			   "1 to 40 characters");
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

START_TEST(workload_unsupported_op_is_not_yet_supported)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'run':1},{'loop':{'count':2,'body':"
			   "[{'spin':'1ms'}]}}]}]}",
			   "tasks[0].program[1].loop.body[0]",
			   "op 'spin' is not supported by this version yet");
}
END_TEST

START_TEST(workload_loop_keys_and_count_are_checked)
{
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'times':2,'body':[{'run':1}]}}]}]}",
			   "tasks[0].program[0].loop", "unknown key 'times'");
	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'count':0,'body':[{'run':1}]}}]}]}",
			   "tasks[0].program[0].loop.count",
			   "must be between 1 and 4294967296");
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
		"a loop without count must contain a run or sleep of non-zero "
		"duration (it would never advance time)";

	EXPECT_PARSE_ERROR("{" FMT "'tasks':[{'name':'a','program':"
			   "[{'loop':{'body':[{'yield':{}}]}}]}]}",
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
	ck_assert_int_eq(strncmp(d.path, "tasks[0].program[0].loop.body[0]."
				 "loop.body[0]", 45), 0);
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
			ck_assert_ptr_nonnull(strstr(d.msg,
						     "at most 65536 ops"));
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
	tcase_add_test(tc, workload_unknown_task_key_bogus_is_rejected_naming_it);
	tcase_add_test(tc, workload_keys_of_later_versions_are_not_supported_yet);
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
	tcase_add_test(tc, workload_unsupported_op_is_not_yet_supported);
	tcase_add_test(tc, workload_loop_keys_and_count_are_checked);
	tcase_add_test(tc, workload_forever_loop_without_work_is_rejected);
	tcase_add_test(tc, workload_loops_nest_16_deep_but_not_17);
	tcase_add_test(tc, workload_programs_over_65536_ops_are_rejected);
	tcase_add_test(tc, workload_duplicate_expanded_names_are_rejected);
	tcase_add_test(tc, workload_missing_file_gives_eio_naming_the_file);
	tcase_add_test(tc, workload_directory_gives_eio);
	tcase_add_test(tc, workload_files_over_64_mib_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
