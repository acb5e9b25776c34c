/* SPDX-License-Identifier: MIT */
/*
 * Sweep specs (src/workload/sweep*.c): the expansion into points, worked
 * out by hand for Cartesian products and zip groups; the canonical
 * configuration and the id, the same for the same configuration however
 * it is spelled; and each kind of bad spec, with the JSON path and the
 * reason it gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eevdf/eevdf.h"
#include "suites.h"

/* A directory with a workload (params x and mode) and a machine file. */
static char dir[64];

static const char workload[] =
	"{\"format\": \"eevdf-sim-workload/1\", \"name\": \"t\",\n"
	" \"params\": {\"x\": 1, \"mode\": \"a\"},\n"
	" \"tasks\": [{\"name\": \"h\", \"program\": [{\"run\": \"1ms\"}]}]}\n";
static const char machine[] = "{\"format\": \"eevdf-sim-machine/1\"}\n";

static void write_file(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/check_sweep.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file("w.json", workload);
	write_file("m.json", machine);
}

static void teardown(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/w.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/m.json", dir);
	unlink(path);
	rmdir(dir);
}

static eevdf_sweep *parse_ok(const char *spec)
{
	struct eevdf_diag d;
	eevdf_sweep *sw = NULL;
	char buf[1024];
	int rc = eevdf_sweep_parse(spec, strlen(spec), "s.json", dir, &sw, &d);

	ck_assert_msg(rc == 0, "%s", eevdf_diag_format(&d, buf, sizeof(buf)));
	return sw;
}

/* The spec fails with path and a message holding msg. */
static void parse_bad(const char *spec, const char *path, const char *msg)
{
	struct eevdf_diag d;
	eevdf_sweep *sw = NULL;
	int rc = eevdf_sweep_parse(spec, strlen(spec), "s.json", dir, &sw, &d);

	ck_assert_msg(rc == EEVDF_EPARSE, "%s: %d, want EEVDF_EPARSE", spec,
		      rc);
	ck_assert_ptr_null(sw);
	ck_assert_str_eq(d.file, "s.json");
	ck_assert_msg(strcmp(d.path, path) == 0, "path '%s', want '%s' (%s)",
		      d.path, path, d.msg);
	ck_assert_msg(strstr(d.msg, msg), "message '%s' lacks '%s'", d.msg,
		      msg);
}

#define HEAD "{\"format\": \"eevdf-sim-sweep/1\", \"workload\": \"w.json\", "

static const char *label(const eevdf_sweep *sw, size_t k, const char *axis)
{
	int a = eevdf_sweep_axis_find(sw, axis);

	ck_assert_int_ge(a, 0);
	return eevdf_sweep_axis_label(
		sw, (size_t)a, eevdf_sweep_point_value(sw, k, (size_t)a));
}

START_TEST(cartesian_product_last_axis_fastest)
{
	/*
	 * 2 kernels x 3 values of x x 2 seeds = 12 points.  The last axis
	 * varies fastest: point k has seed index k % 2, x index (k / 2) % 3
	 * and kernel index k / 6.  Point 7: kernel 7 / 6 = 1 (6.18), x
	 * (7 / 2) % 3 = 0 (1), seed 7 % 2 = 1 (2).  Point 10: kernel 1, x
	 * (10 / 2) % 3 = 2 (3), seed 0 (1).
	 */
	eevdf_sweep *sw = parse_ok(HEAD "\"axes\": {\"kernel\": [\"6.6\", "
					"\"6.18\"], \"param.x\": [1, 2, 3], "
					"\"seed\": 2}}");
	struct eevdf_sweep_point pt;

	ck_assert_uint_eq(eevdf_sweep_nr_points(sw), 12);
	ck_assert_uint_eq(eevdf_sweep_nr_axes(sw), 3);
	ck_assert_str_eq(eevdf_sweep_axis_name(sw, 1), "param.x");
	ck_assert_str_eq(label(sw, 7, "kernel"), "6.18");
	ck_assert_str_eq(label(sw, 7, "param.x"), "1");
	ck_assert_str_eq(label(sw, 7, "seed"), "2");
	ck_assert_str_eq(label(sw, 10, "param.x"), "3");
	ck_assert_str_eq(label(sw, 10, "seed"), "1");
	ck_assert_int_eq(eevdf_sweep_point(sw, 7, &pt), 0);
	ck_assert_uint_eq(pt.index, 7);
	ck_assert_str_eq(pt.kernel, "6.18");
	ck_assert_uint_eq(pt.nr_params, 1);
	ck_assert_str_eq(pt.params[0], "x=1");
	ck_assert(pt.have_seed);
	ck_assert_uint_eq(pt.seed, 2);
	ck_assert_str_eq(pt.features, "");
	ck_assert_ptr_null(pt.machine);
	ck_assert_int_eq(eevdf_sweep_point(sw, 12, &pt), EEVDF_EINVAL);
	eevdf_sweep_free(sw);
}
END_TEST

START_TEST(zipped_axes_move_together)
{
	/*
	 * kernel and cpus zipped (3 pairs) x 2 seeds = 6 points, not 18.
	 * Point 3: pair 3 / 2 = 1 (6.12 on 4 CPUs), seed 3 % 2 = 1 (2).
	 * The group sits where its first axis is: cpus, written after
	 * seed, still moves with kernel.
	 */
	eevdf_sweep *sw = parse_ok(
		HEAD "\"axes\": {\"kernel\": [\"6.6\", \"6.12\", \"6.18\"], "
		     "\"seed\": 2, \"cpus\": [2, 4, 8]}, \"zip\": "
		     "[[\"kernel\", \"cpus\"]]}");
	struct eevdf_sweep_point pt;

	ck_assert_uint_eq(eevdf_sweep_nr_points(sw), 6);
	ck_assert_uint_eq(eevdf_sweep_axis_group(sw, 2), 0);
	ck_assert_int_eq(eevdf_sweep_point(sw, 3, &pt), 0);
	ck_assert_str_eq(pt.kernel, "6.12");
	ck_assert_int_eq(pt.cpus, 4);
	ck_assert_uint_eq(pt.seed, 2);
	ck_assert_int_eq(eevdf_sweep_point(sw, 4, &pt), 0);
	ck_assert_str_eq(pt.kernel, "6.18");
	ck_assert_int_eq(pt.cpus, 8);
	ck_assert_uint_eq(pt.seed, 1);
	eevdf_sweep_free(sw);
}
END_TEST

START_TEST(ranges_counts_and_named_sets)
{
	/*
	 * x from 1 to 64 times 4: 1, 4, 16, 64 (256 > 64 stops it); seeds
	 * as a count, 3: 1, 2, 3; two named feature sets: 4 x 3 x 2 = 24.
	 */
	eevdf_sweep *sw = parse_ok(
		HEAD "\"axes\": {\"param.x\": {\"from\": 1, \"to\": 64, "
		     "\"mul\": 4}, \"seed\": 3, \"features\": {\"base\": \"\", "
		     "\"no-dd\": [\"NO_DELAY_DEQUEUE\"]}}}");
	int x = eevdf_sweep_axis_find(sw, "param.x");

	ck_assert_uint_eq(eevdf_sweep_nr_points(sw), 24);
	ck_assert_uint_eq(eevdf_sweep_axis_size(sw, (size_t)x), 4);
	ck_assert_str_eq(eevdf_sweep_axis_label(sw, (size_t)x, 3), "64");
	ck_assert_str_eq(eevdf_sweep_axis_label(sw, 1, 2), "3");
	ck_assert_str_eq(eevdf_sweep_axis_label(sw, 2, 1), "no-dd");
	ck_assert_int_eq(eevdf_sweep_label_find(sw, 2, "no-dd"), 1);
	ck_assert_int_eq(eevdf_sweep_label_find(sw, 2, "nope"), -1);
	eevdf_sweep_free(sw);
	/* a step range, inclusive: 0, 3, 6, 9 (12 > 10) */
	sw = parse_ok(HEAD "\"axes\": {\"param.x\": {\"from\": 0, \"to\": "
			   "10, \"step\": 3}}}");
	ck_assert_uint_eq(eevdf_sweep_nr_points(sw), 4);
	ck_assert_str_eq(eevdf_sweep_axis_label(sw, 0, 3), "9");
	eevdf_sweep_free(sw);
}
END_TEST

START_TEST(canonical_configuration_and_id)
{
	/*
	 * Worked by hand: the keys in byte order, durations in ns (2s =
	 * 2000000000), the kernel's profile name (6.10 is in profile 6.8's
	 * range), the feature list in the library's order (RUN_TO_PARITY
	 * comes before DELAY_DEQUEUE in kernel/sched/features.h), the
	 * params sorted by name, the file digests of what we wrote.
	 */
	eevdf_sweep *sw = parse_ok(
		HEAD "\"fixed\": {\"duration\": \"2s\", \"machine\": "
		     "\"m.json\", \"param.mode\": \"b\", \"features\": "
		     "\"NO_DELAY_DEQUEUE,RUN_TO_PARITY\"}, \"axes\": "
		     "{\"kernel\": [\"6.10\"], \"param.x\": [7], \"seed\": "
		     "[5]}}");
	char wsha[65], msha[65], want[1024], id[65], *canon = NULL;
	struct eevdf_sweep_point pt;

	eevdf_sha256_hex(workload, strlen(workload), wsha);
	eevdf_sha256_hex(machine, strlen(machine), msha);
	snprintf(want, sizeof(want),
		 "{\"duration_ns\":2000000000,"
		 "\"features\":\"RUN_TO_PARITY,NO_DELAY_DEQUEUE\","
		 "\"kernel\":\"6.8\",\"machine\":\"m.json\","
		 "\"machine_sha256\":\"%s\","
		 "\"params\":{\"mode\":\"b\",\"x\":7},\"seed\":5,"
		 "\"workload\":\"w.json\",\"workload_sha256\":\"%s\"}",
		 msha, wsha);
	ck_assert_int_eq(eevdf_sweep_point_config(sw, 0, &canon), 0);
	ck_assert_str_eq(canon, want);
	eevdf_sha256_hex(want, strlen(want), id);
	ck_assert_int_eq(eevdf_sweep_point(sw, 0, &pt), 0);
	ck_assert_str_eq(pt.id, id);
	/* what the run takes: paths from the spec's directory */
	ck_assert_str_eq(pt.kernel, "6.8");
	ck_assert_str_eq(pt.features, "RUN_TO_PARITY,NO_DELAY_DEQUEUE");
	ck_assert_int_eq(pt.duration, 2000000000);
	ck_assert_str_eq(pt.workload_sha256, wsha);
	ck_assert(strncmp(pt.workload, dir, strlen(dir)) == 0);
	ck_assert_str_eq(pt.workload + strlen(dir), "/w.json");
	ck_assert_str_eq(pt.machine + strlen(dir), "/m.json");
	/* fixed params first, in the spec's order, then the axes' */
	ck_assert_uint_eq(pt.nr_params, 2);
	ck_assert_str_eq(pt.params[0], "mode=b");
	ck_assert_str_eq(pt.params[1], "x=7");
	free(canon);
	eevdf_sweep_free(sw);
}
END_TEST

/* The id of the point of sw whose labels are ... (kernel, x, seed). */
static const char *id_of(const eevdf_sweep *sw, const char *kernel,
			 const char *x, const char *seed, char id[65])
{
	for (size_t k = 0; k < eevdf_sweep_nr_points(sw); k++) {
		struct eevdf_sweep_point pt;

		if (strcmp(label(sw, k, "kernel"), kernel) ||
		    strcmp(label(sw, k, "param.x"), x) ||
		    strcmp(label(sw, k, "seed"), seed))
			continue;
		ck_assert_int_eq(eevdf_sweep_point(sw, k, &pt), 0);
		memcpy(id, pt.id, 65);
		return id;
	}
	ck_abort_msg("no point %s %s %s", kernel, x, seed);
	return NULL;
}

START_TEST(ids_name_the_configuration_not_its_spelling)
{
	/*
	 * The same configurations, spelt otherwise: 2000ms for 2s, the
	 * features the other way round, the axes in another order and a
	 * count of seeds for a list.  Same ids; a change of the workload
	 * file changes them all.
	 */
	eevdf_sweep *a = parse_ok(
		HEAD "\"fixed\": {\"duration\": \"2s\", \"features\": "
		     "\"RUN_TO_PARITY,NO_PLACE_LAG\"}, \"axes\": {\"kernel\": "
		     "[\"6.6\", \"6.18\"], \"param.x\": [1, 2], \"seed\": 2}}");
	eevdf_sweep *b = parse_ok(
		HEAD "\"fixed\": {\"duration\": 2000000000, \"features\": "
		     "[\"NO_PLACE_LAG\", \"RUN_TO_PARITY\"]}, \"axes\": "
		     "{\"seed\": [1, 2], \"param.x\": [2, 1], \"kernel\": "
		     "[\"6.18\", \"6.6\"]}}");
	char ia[65], ib[65];
	eevdf_sweep *c;

	ck_assert_str_eq(id_of(a, "6.6", "1", "1", ia),
			 id_of(b, "6.6", "1", "1", ib));
	ck_assert_str_eq(id_of(a, "6.18", "2", "2", ia),
			 id_of(b, "6.18", "2", "2", ib));
	ck_assert_str_ne(id_of(a, "6.18", "2", "2", ia),
			 id_of(a, "6.18", "2", "1", ib));
	write_file("w.json", "{\"format\": \"eevdf-sim-workload/1\", "
			     "\"params\": {\"x\": 1, \"mode\": \"a\"}, "
			     "\"tasks\": [{\"name\": \"h\", \"program\": "
			     "[{\"run\": \"2ms\"}]}]}");
	c = parse_ok(HEAD "\"fixed\": {\"duration\": \"2s\", \"features\": "
			  "\"RUN_TO_PARITY,NO_PLACE_LAG\"}, \"axes\": "
			  "{\"kernel\": [\"6.6\", \"6.18\"], \"param.x\": [1, "
			  "2], \"seed\": 2}}");
	ck_assert_str_ne(id_of(a, "6.6", "1", "1", ia),
			 id_of(c, "6.6", "1", "1", ib));
	eevdf_sweep_free(a);
	eevdf_sweep_free(b);
	eevdf_sweep_free(c);
}
END_TEST

START_TEST(params_reach_the_loader_as_they_were_written)
{
	/*
	 * A string that reads as JSON (a number, true) is quoted so that the
	 * loader keeps it a string; other strings go as they are.
	 */
	eevdf_sweep *sw = parse_ok(HEAD "\"axes\": {\"param.mode\": [\"pipe\", "
					"\"10\", \"true\", \"5ms\"]}}");
	struct eevdf_sweep_point pt;
	const char *want[] = { "mode=pipe", "mode=\"10\"", "mode=\"true\"",
			       "mode=5ms" };

	for (size_t k = 0; k < 4; k++) {
		ck_assert_int_eq(eevdf_sweep_point(sw, k, &pt), 0);
		ck_assert_str_eq(pt.params[0], want[k]);
	}
	eevdf_sweep_free(sw);
}
END_TEST

START_TEST(several_workloads_are_the_first_axis)
{
	eevdf_sweep *sw;

	write_file("v.json", workload);
	sw = parse_ok("{\"format\": \"eevdf-sim-sweep/1\", \"workload\": "
		      "{\"one\": \"w.json\", \"two\": \"v.json\"}, \"axes\": "
		      "{\"seed\": 2}, \"metrics\": [\"time_s\"], "
		      "\"baseline\": {\"workload\": \"one\"}}");
	ck_assert_uint_eq(eevdf_sweep_nr_points(sw), 4);
	ck_assert_str_eq(eevdf_sweep_axis_name(sw, 0), "workload");
	ck_assert_str_eq(eevdf_sweep_axis_label(sw, 0, 1), "two");
	ck_assert_str_eq(eevdf_sweep_baseline(sw, 0), "one");
	ck_assert_ptr_null(eevdf_sweep_baseline(sw, 1));
	ck_assert_uint_eq(eevdf_sweep_nr_metrics(sw), 1);
	ck_assert_str_eq(eevdf_sweep_metric(sw, 0), "time_s");
	ck_assert_str_eq(eevdf_sweep_name(sw), "s");
	eevdf_sweep_free(sw);
	{
		char path[128];

		snprintf(path, sizeof(path), "%s/v.json", dir);
		unlink(path);
	}
}
END_TEST

START_TEST(bad_specs_name_path_and_reason)
{
	parse_bad("{\"workload\": \"w.json\"}", "", "missing \"format\"");
	parse_bad(HEAD "\"axis\": {}}", "",
		  "unknown key 'axis' (did you "
		  "mean 'axes'?)");
	parse_bad(HEAD "\"axes\": {\"kernal\": [\"6.6\"]}}", "axes.kernal",
		  "did you mean 'kernel'?");
	parse_bad(HEAD "\"axes\": {\"kernel\": [\"6.6\", \"6.99\"]}}",
		  "axes.kernel[1]", "unknown kernel profile '6.99'");
	parse_bad(HEAD "\"axes\": {\"kernel\": [\"6.10\", \"6.8\"]}}",
		  "axes.kernel", "'6.10' and '6.8' are the same configuration");
	parse_bad(HEAD
		  "\"axes\": {\"features\": {\"a\": \"NO_DELAY_DEQUEU\"}}}",
		  "axes.features.a", "NO_DELAY_DEQUEU");
	parse_bad(HEAD "\"axes\": {\"param.y\": [1]}}", "workload",
		  "has no param 'y'");
	parse_bad(HEAD "\"axes\": {\"param.x\": [1, 2, 1]}}", "axes.param.x",
		  "'1' is listed twice");
	parse_bad(HEAD "\"axes\": {\"param.x\": [1.5]}}", "axes.param.x[0]",
		  "must be an integer");
	parse_bad(HEAD "\"axes\": {\"param.x\": {\"from\": 5, \"to\": 1}}}",
		  "axes.param.x", "with A <= B");
	parse_bad(HEAD "\"axes\": {\"param.x\": {\"from\": 1, \"to\": "
		       "100000}, \"param.mode\": {\"from\": 1, \"to\": 100}}}",
		  "axes", "more than 1000000 points");
	parse_bad(HEAD "\"axes\": {\"seed\": 0}}", "axes.seed",
		  "a count of seeds");
	parse_bad(HEAD "\"axes\": {\"cpus\": [2, 4], \"kernel\": [\"6.6\"]}, "
		       "\"zip\": [[\"cpus\", \"kernel\"]]}",
		  "zip[0][1]", "zipped axes need as many");
	parse_bad(HEAD "\"axes\": {\"cpus\": [2, 4], \"seed\": 2}, \"zip\": "
		       "[[\"cpus\", \"seed\"]]}",
		  "zip[0][1]", "the seed cannot be zipped");
	parse_bad(HEAD "\"fixed\": {\"machine\": \"m.json\"}, \"axes\": "
		       "{\"cpus\": [2]}}",
		  "", "\"machine\" and \"cpus\" exclude each other");
	parse_bad(HEAD "\"fixed\": {\"cpus\": 2}, \"axes\": {\"cpus\": [4]}}",
		  "axes.cpus", "is fixed too");
	parse_bad(HEAD "\"axes\": {\"features_allow_absent\": [true]}}",
		  "axes.features_allow_absent", "a setting of \"fixed\"");
	parse_bad(HEAD "\"axes\": {\"kernel\": [\"6.6\"]}, \"baseline\": "
		       "{\"kernel\": \"6.18\"}}",
		  "baseline.kernel", "'6.18' is not a value of axis 'kernel'");
	parse_bad(HEAD "\"axes\": {\"seed\": 2}, \"baseline\": {\"seed\": 1}}",
		  "baseline.seed", "merge aggregates over the seeds");
	parse_bad(HEAD "\"fixed\": {\"duration\": \"10\"}}", "fixed.duration",
		  "invalid duration '10'");
	parse_bad(HEAD "\"fixed\": {\"machine\": \"nope/m.json\"}}",
		  "fixed.machine", "cannot read");
	parse_bad("{\"format\": \"eevdf-sim-sweep/1\", \"workload\": "
		  "\"nope.json\"}",
		  "workload", "nope.json: cannot read");
	parse_bad(HEAD "\"metrics\": [\"a\", \"a\"]}", "metrics[1]",
		  "'a' is listed twice");
}
END_TEST

START_TEST(syntax_errors_and_null_arguments)
{
	struct eevdf_diag d;
	eevdf_sweep *sw = NULL;
	const char *bad = "{\"format\": \"eevdf-sim-sweep/1\",\n \"axes\": }";

	ck_assert_int_eq(eevdf_sweep_parse(bad, strlen(bad), "s.json", dir, &sw,
					   &d),
			 EEVDF_EPARSE);
	ck_assert_int_eq(d.line, 2);
	ck_assert_int_eq(eevdf_sweep_load_file("/nonexistent/s.json", &sw, &d),
			 EEVDF_EIO);
	ck_assert_int_eq(eevdf_sweep_load_file(NULL, &sw, &d), EEVDF_EINVAL);
	ck_assert_uint_eq(eevdf_sweep_nr_points(NULL), 0);
	ck_assert_ptr_null(eevdf_sweep_axis_name(NULL, 0));
	ck_assert_int_eq(eevdf_sweep_point(NULL, 0, NULL), EEVDF_EINVAL);
	eevdf_sweep_free(NULL);
}
END_TEST

Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, cartesian_product_last_axis_fastest);
	tcase_add_test(tc, zipped_axes_move_together);
	tcase_add_test(tc, ranges_counts_and_named_sets);
	tcase_add_test(tc, canonical_configuration_and_id);
	tcase_add_test(tc, ids_name_the_configuration_not_its_spelling);
	tcase_add_test(tc, params_reach_the_loader_as_they_were_written);
	tcase_add_test(tc, several_workloads_are_the_first_axis);
	tcase_add_test(tc, bad_specs_name_path_and_reason);
	tcase_add_test(tc, syntax_errors_and_null_arguments);
	suite_add_tcase(s, tc);
	return s;
}
