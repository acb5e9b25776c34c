/* SPDX-License-Identifier: MIT */
/*
 * Tests of machines (src/machine/machine.c, src/workload/machine_json.c): the builder's
 * checks with their exact messages, CPU numbering, explicit lists and
 * their dense ids, copies and cost overrides, every shipped machine file,
 * one test per class of file error (path and reason), the validator's
 * error list, a workload's own "machine", and the layering of costs
 * (defaults, machine, workload).
 *
 * The shipped machines are read from workloads/machines/, relative to the
 * directory the tests run in: the project root, as make runs them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eevdf/eevdf.h"
#include "suites.h"
#include "machine/machine.h"
#include "engine/sim.h"
#include "workload/workload_impl.h"

#define MFMT "'format':'eevdf-sim-machine/1',"
#define WFMT "'format':'eevdf-sim-workload/1',"
#define TASK_A "{'name':'a','program':[{'run':'1ms'}]}"

/* Documents are written with ' for ", as in check_workload.c. */
static char *dq(const char *s)
{
	size_t n = strlen(s), i;
	char *d = malloc(n + 1);

	ck_assert_ptr_nonnull(d);
	for (i = 0; i <= n; i++)
		d[i] = s[i] == '\'' ? '"' : s[i];
	return d;
}

static eevdf_machine *parse_ok(const char *s)
{
	struct eevdf_diag d;
	eevdf_machine *m = NULL;
	char buf[512], *j = dq(s);
	int r = eevdf_machine_parse(j, strlen(j), "m.json", &m, &d);

	free(j);
	ck_assert_msg(r == 0, "parse failed (%d): %s", r,
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	ck_assert_ptr_nonnull(m);
	return m;
}

/* Parse s: EEVDF_EPARSE, *out NULL, diag at path with msg holding sub. */
static void expect_error(const char *s, const char *path, const char *sub)
{
	struct eevdf_diag d;
	/* not NULL on purpose: the reader must clear it on error */
	eevdf_machine *m = (eevdf_machine *)(void *)&d;
	char buf[512], *j = dq(s);
	int r = eevdf_machine_parse(j, strlen(j), "m.json", &m, &d);

	free(j);
	eevdf_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(r == EEVDF_EPARSE, "got %d: %s", r, buf);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(d.file, "m.json");
	ck_assert_msg(strcmp(d.path, path) == 0, "path '%s', want '%s': %s",
		      d.path, path, buf);
	ck_assert_msg(strstr(d.msg, sub) != NULL, "msg lacks '%s': %s", sub,
		      buf);
}

/* eevdf_machine_new() must fail with exactly msg. */
static void expect_spec_error(const struct eevdf_machine_spec *s,
			      const char *msg)
{
	eevdf_machine *m = (eevdf_machine *)(void *)&m;
	char err[256] = "";

	ck_assert_int_eq(eevdf_machine_new(s, &m, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(err, msg);
}

static struct eevdf_machine_spec regular(int p, int l, int c, int t)
{
	struct eevdf_machine_spec s;

	memset(&s, 0, sizeof(s));
	s.packages = p;
	s.llcs_per_package = l;
	s.cores_per_llc = c;
	s.threads_per_core = t;
	return s;
}

static void check_cpu(const eevdf_machine *m, int cpu, int core, int llc,
		      int package, unsigned capacity)
{
	struct eevdf_cpu_desc c;

	ck_assert_int_eq(eevdf_machine_cpu(m, cpu, &c), 0);
	ck_assert_msg(c.core == core && c.llc == llc && c.package == package &&
			      c.capacity == capacity,
		      "cpu %d: core %d llc %d package %d capacity %u, want "
		      "%d %d %d %u",
		      cpu, c.core, c.llc, c.package, c.capacity, core, llc,
		      package, capacity);
}

static void check_shape(const eevdf_machine *m, int cpus, int cores, int llcs,
			int packages, int hz)
{
	ck_assert_int_eq(eevdf_machine_nr_cpus(m), cpus);
	ck_assert_int_eq(eevdf_machine_nr_cores(m), cores);
	ck_assert_int_eq(eevdf_machine_nr_llcs(m), llcs);
	ck_assert_int_eq(eevdf_machine_nr_packages(m), packages);
	ck_assert_int_eq(eevdf_machine_hz(m), hz);
}

/* ---- the builder --------------------------------------------------- */

START_TEST(builder_rejects_bad_counts_with_exact_messages)
{
	struct eevdf_machine_spec s = regular(0, 1, 4, 1);
	eevdf_machine *m;
	char err[256];

	expect_spec_error(&s, "packages must be at least 1, not 0");
	s = regular(1, -1, 4, 1);
	expect_spec_error(&s, "llcs_per_package must be at least 1, not -1");
	s = regular(1, 1, 0, 1);
	expect_spec_error(&s, "cores_per_llc must be at least 1, not 0");
	s = regular(1, 1, 4, -2);
	expect_spec_error(&s, "threads_per_core must be at least 1, not -2");
	s = regular(64, 64, 2, 1);
	expect_spec_error(&s, "64 packages x 64 LLCs x 2 cores x 1 thread: "
			      "more than 4096 CPUs");
	/* a product that overflows 64 bits is caught factor by factor */
	s = regular(INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX);
	expect_spec_error(&s, "2147483647 packages x 2147483647 LLCs x "
			      "2147483647 cores x 2147483647 threads: more "
			      "than 4096 CPUs");
	s = regular(1, 1, 4, 2);
	s.numbering = (enum eevdf_smt_numbering)7;
	expect_spec_error(&s, "numbering must be EEVDF_SMT_SPLIT or "
			      "EEVDF_SMT_ADJACENT, not 7");
	s = regular(1, 1, 4, 1);
	s.hz = 50;
	expect_spec_error(&s, "hz 50 is out of range 100..10000");
	ck_assert_int_eq(eevdf_machine_new(NULL, &m, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_new(&s, NULL, NULL, 0), EEVDF_EINVAL);
	/* exactly 4096 CPUs is allowed */
	s = regular(2, 2, 512, 2);
	ck_assert_int_eq(eevdf_machine_new(&s, &m, err, sizeof(err)), 0);
	check_shape(m, 4096, 2048, 4, 2, 1000);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(builder_rejects_bad_cpu_lists_with_exact_messages)
{
	struct eevdf_cpu_desc c[4] = {
		{ 0, 0, 0, 0 },
		{ 0, 0, 0, 0 },
		{ 1, 0, 0, 0 },
		{ 1, 0, 0, 0 },
	};
	struct eevdf_cpu_desc *many;
	struct eevdf_machine_spec s;

	memset(&s, 0, sizeof(s));
	s.cpus = c;
	s.nr_cpus = 0;
	expect_spec_error(&s, "the CPU list is empty");
	many = calloc(EEVDF_MAX_CPUS + 1, sizeof(*many));
	ck_assert_ptr_nonnull(many);
	s.cpus = many;
	s.nr_cpus = EEVDF_MAX_CPUS + 1;
	expect_spec_error(&s, "4097 CPUs is more than 4096");
	free(many);

	s.cpus = c;
	s.nr_cpus = 4;
	c[1].core = -1;
	expect_spec_error(&s, "cpus[1]: core must not be negative");
	c[1].core = 0;
	c[3].package = -5;
	expect_spec_error(&s, "cpus[3]: package must not be negative");
	c[3].package = 0;
	c[0].capacity = 1025;
	expect_spec_error(&s, "cpus[0]: capacity 1025 is above 1024 "
			      "(SCHED_CAPACITY_SCALE)");
	c[0].capacity = 0;
	/* SMT siblings in two LLCs: the kernel's domains could not nest */
	c[3].llc = 7;
	expect_spec_error(&s, "cpus[3]: core 1 is in LLC 7, but cpus[2] put "
			      "it in LLC 0");
	c[3].llc = 0;
	c[2].package = 1;
	c[3].package = 1;
	expect_spec_error(&s, "cpus[2]: LLC 0 is in package 1, but cpus[0] "
			      "put it in package 0");
}
END_TEST

START_TEST(split_numbering_puts_siblings_a_core_count_apart)
{
	struct eevdf_machine_spec s = regular(2, 1, 2, 2);
	eevdf_machine *m;

	s.name = "split";
	ck_assert_int_eq(eevdf_machine_new(&s, &m, NULL, 0), 0);
	check_shape(m, 8, 4, 2, 2, 1000);
	/* first threads of cores 0-3, then their siblings */
	check_cpu(m, 0, 0, 0, 0, 1024);
	check_cpu(m, 1, 1, 0, 0, 1024);
	check_cpu(m, 2, 2, 1, 1, 1024);
	check_cpu(m, 3, 3, 1, 1, 1024);
	check_cpu(m, 4, 0, 0, 0, 1024);
	check_cpu(m, 7, 3, 1, 1, 1024);
	ck_assert_str_eq(eevdf_machine_name(m), "split");
	ck_assert_str_eq(eevdf_machine_description(m), "");
	eevdf_machine_free(m);
}
END_TEST

START_TEST(adjacent_numbering_puts_siblings_side_by_side)
{
	struct eevdf_machine_spec s = regular(2, 1, 2, 2);
	eevdf_machine *m;

	s.numbering = EEVDF_SMT_ADJACENT;
	s.hz = 250;
	ck_assert_int_eq(eevdf_machine_new(&s, &m, NULL, 0), 0);
	check_shape(m, 8, 4, 2, 2, 250);
	check_cpu(m, 0, 0, 0, 0, 1024);
	check_cpu(m, 1, 0, 0, 0, 1024);
	check_cpu(m, 2, 1, 0, 0, 1024);
	check_cpu(m, 4, 2, 1, 1, 1024);
	check_cpu(m, 7, 3, 1, 1, 1024);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(explicit_lists_are_renumbered_densely_in_order)
{
	/* ids as a firmware table might give them: sparse, any order */
	static const struct eevdf_cpu_desc c[] = {
		{ 10, 7, 5, 0 },   { 10, 7, 5, 512 }, { 3, 2, 5, 0 },
		{ 3, 2, 5, 1024 }, { 40, 7, 9, 300 },
	};
	struct eevdf_machine_spec s;
	char name[] = "hybrid", desc[] = "a test";
	eevdf_machine *m;

	memset(&s, 0, sizeof(s));
	s.name = name;
	s.description = desc;
	s.cpus = c;
	s.nr_cpus = 5;
	ck_assert_int_eq(eevdf_machine_new(&s, &m, NULL, 0), EEVDF_EINVAL);
	/* LLC 7 is in package 5 and 9: make the last its own LLC */
	{
		struct eevdf_cpu_desc d[5];

		memcpy(d, c, sizeof(d));
		d[4].llc = 8;
		s.cpus = d;
		ck_assert_int_eq(eevdf_machine_new(&s, &m, NULL, 0), 0);
	}
	/* the spec's strings are copied */
	name[0] = 'X';
	ck_assert_str_eq(eevdf_machine_name(m), "hybrid");
	ck_assert_str_eq(eevdf_machine_description(m), "a test");
	check_shape(m, 5, 3, 3, 2, 1000);
	check_cpu(m, 0, 0, 0, 0, 1024);
	check_cpu(m, 1, 0, 0, 0, 512);
	check_cpu(m, 2, 1, 1, 0, 1024);
	check_cpu(m, 3, 1, 1, 0, 1024);
	check_cpu(m, 4, 2, 2, 1, 300);
	{
		struct eevdf_cpu_desc x;

		ck_assert_int_eq(eevdf_machine_cpu(m, 5, &x), EEVDF_EINVAL);
		ck_assert_int_eq(eevdf_machine_cpu(m, -1, &x), EEVDF_EINVAL);
		ck_assert_int_eq(eevdf_machine_cpu(m, 0, NULL), EEVDF_EINVAL);
	}
	eevdf_machine_free(m);
}
END_TEST

START_TEST(flat_machine_is_named_after_its_cpus)
{
	eevdf_machine *m;
	char err[128];

	ck_assert_int_eq(eevdf_machine_new_flat(4, &m, err, sizeof(err)), 0);
	ck_assert_str_eq(eevdf_machine_name(m), "flat-4");
	ck_assert_str_eq(eevdf_machine_description(m),
			 "4 CPUs, one LLC, no SMT (built in)");
	check_shape(m, 4, 4, 1, 1, 1000);
	check_cpu(m, 3, 3, 0, 0, 1024);
	eevdf_machine_free(m);
	ck_assert_int_eq(eevdf_machine_new_flat(1, &m, err, sizeof(err)), 0);
	ck_assert_str_eq(eevdf_machine_description(m),
			 "1 CPU, one LLC, no SMT (built in)");
	eevdf_machine_free(m);
	ck_assert_int_eq(eevdf_machine_new_flat(0, &m, err, sizeof(err)),
			 EEVDF_EINVAL);
	ck_assert_str_eq(err, "a flat machine has 1..4096 CPUs, not 0");
	ck_assert_int_eq(eevdf_machine_new_flat(4097, &m, err, sizeof(err)),
			 EEVDF_EINVAL);
}
END_TEST

START_TEST(set_cost_checks_names_and_ranges_and_clone_copies)
{
	struct cost_table c;
	eevdf_machine *m, *k;

	ck_assert_int_eq(eevdf_machine_new_flat(2, &m, NULL, 0), 0);
	ck_assert_int_eq(eevdf_machine_set_cost(m, "ipi", 3000), 0);
	ck_assert_int_eq(eevdf_machine_set_cost(m, "smt_speed_pct", 50), 0);
	ck_assert_int_eq(eevdf_machine_set_cost(m, "smt_speed_pct", 0),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_cost(m, "smt_speed_pct", 101),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_cost(m, "bogus", 1), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_cost(m, NULL, 1), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_cost(NULL, "ipi", 1), EEVDF_EINVAL);
	/* a time is at most 10^15 ns, as any duration of a workload */
	ck_assert_int_eq(eevdf_machine_set_cost(m, "fork", 1000000000000000),
			 0);
	ck_assert_int_eq(eevdf_machine_set_cost(m, "fork", 1000000000000001),
			 EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_hz(m, 99), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_hz(m, 10001), EEVDF_EINVAL);
	ck_assert_int_eq(eevdf_machine_set_hz(m, 300), 0);

	k = eevdf_machine_clone(m);
	ck_assert_ptr_nonnull(k);
	eevdf_machine_free(m); /* the copy owns all it needs */
	check_shape(k, 2, 2, 1, 1, 300);
	ck_assert_str_eq(eevdf_machine_name(k), "flat-2");
	/* only the overridden entries are applied */
	memset(&c, 0, sizeof(c));
	c.syscall = 7;
	eevdf__machine_apply_costs(k, &c);
	ck_assert_uint_eq(c.ipi, 3000);
	ck_assert_uint_eq(c.smt_speed_pct, 50);
	ck_assert_uint_eq(c.fork, 1000000000000000);
	ck_assert_uint_eq(c.syscall, 7);
	ck_assert_uint_eq(c.idle_exit, 0);
	eevdf__machine_apply_costs(NULL, &c); /* no machine: nothing */
	eevdf_machine_free(k);
	ck_assert_ptr_null(eevdf_machine_clone(NULL));
	eevdf_machine_free(NULL);
}
END_TEST

START_TEST(getters_of_no_machine_are_empty)
{
	ck_assert_str_eq(eevdf_machine_name(NULL), "");
	ck_assert_str_eq(eevdf_machine_description(NULL), "");
	ck_assert_int_eq(eevdf_machine_nr_cpus(NULL), 0);
	ck_assert_int_eq(eevdf_machine_nr_cores(NULL), 0);
	ck_assert_int_eq(eevdf_machine_nr_llcs(NULL), 0);
	ck_assert_int_eq(eevdf_machine_nr_packages(NULL), 0);
	ck_assert_int_eq(eevdf_machine_hz(NULL), 0);
}
END_TEST

/* ---- files ----------------------------------------------------------- */

START_TEST(every_shipped_machine_loads_with_its_shape)
{
	static const struct {
		const char *file;
		int cpus, cores, llcs, packages, hz;
	} want[] = {
		{ "i7-4790", 8, 4, 1, 1, 1000 },
		{ "skl-server", 80, 40, 2, 2, 1000 },
		{ "spr-server", 224, 112, 2, 2, 1000 },
		{ "epyc-ccx", 128, 64, 8, 1, 1000 },
		{ "rpi4", 4, 4, 1, 1, 250 },
		{ "vm-2cpu", 2, 2, 1, 1, 250 },
	};
	char path[128], buf[512];

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct eevdf_diag d;
		eevdf_machine *m;
		int r;

		snprintf(path, sizeof(path), "workloads/machines/%s.json",
			 want[i].file);
		r = eevdf_machine_load_file(path, &m, &d);
		ck_assert_msg(r == 0, "%s (run from the project root)",
			      eevdf_diag_format(&d, buf, sizeof(buf)));
		ck_assert_str_eq(eevdf_machine_name(m), want[i].file);
		ck_assert_msg(eevdf_machine_description(m)[0],
			      "%s: no "
			      "description",
			      path);
		check_shape(m, want[i].cpus, want[i].cores, want[i].llcs,
			    want[i].packages, want[i].hz);
		eevdf_machine_free(m);
	}
}
END_TEST

START_TEST(machine_file_gives_every_field)
{
	eevdf_machine *m = parse_ok(
		"{" MFMT "'name':'box','description':'two sockets','hz':250,"
		"'topology':{'packages':2,'llcs_per_package':2,"
		"'cores_per_llc':3,'threads_per_core':2,"
		"'numbering':'adjacent','capacity':800},"
		"'costs':{'ipi':'1.5us','idle_exit':700,'smt_speed_pct':70}}");
	struct cost_table c;

	ck_assert_str_eq(eevdf_machine_name(m), "box");
	ck_assert_str_eq(eevdf_machine_description(m), "two sockets");
	check_shape(m, 24, 12, 4, 2, 250);
	check_cpu(m, 1, 0, 0, 0, 800);
	check_cpu(m, 23, 11, 3, 1, 800);
	memset(&c, 0, sizeof(c));
	eevdf__machine_apply_costs(m, &c);
	ck_assert_uint_eq(c.ipi, 1500);
	ck_assert_uint_eq(c.idle_exit, 700);
	ck_assert_uint_eq(c.smt_speed_pct, 70);
	ck_assert_uint_eq(m->cost_set,
			  ((u64)1 << COST_IDX_ipi) |
				  ((u64)1 << COST_IDX_idle_exit) |
				  ((u64)1 << COST_IDX_smt_speed_pct));
	eevdf_machine_free(m);

	/* defaults: one package, one LLC, no SMT, split, HZ 1000, the
	 * file's base name */
	m = parse_ok("{" MFMT "'topology':{'cores_per_llc':3}}");
	check_shape(m, 3, 3, 1, 1, 1000);
	ck_assert_str_eq(eevdf_machine_name(m), "m");
	ck_assert_uint_eq(m->cost_set, 0);
	eevdf_machine_free(m);

	m = parse_ok("{" MFMT "'cpus':[{'core':4,'llc':1},{'core':4,'llc':1},"
		     "{'core':9,'llc':2,'package':3,'capacity':430}]}");
	check_shape(m, 3, 2, 2, 2, 1000);
	check_cpu(m, 1, 0, 0, 0, 1024);
	check_cpu(m, 2, 1, 1, 1, 430);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(malformed_json_names_the_line)
{
	struct eevdf_diag d;
	eevdf_machine *m;
	const char *s = "{\"format\": \"eevdf-sim-machine/1\",\n"
			"\"topology\": {\"cores_per_llc\": 2,}}";

	ck_assert_int_eq(eevdf_machine_parse(s, strlen(s), "m.json", &m, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(m);
	ck_assert_int_eq(d.line, 2);
	ck_assert_str_eq(d.path, "");
	ck_assert_ptr_nonnull(strstr(d.msg, "JSON syntax error"));
	ck_assert_int_eq(eevdf_machine_parse("", 0, "m.json", &m, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.msg, "the file is empty");
	s = "{\"format\": \"eevdf-sim-machine/1\"} x";
	ck_assert_int_eq(eevdf_machine_parse(s, strlen(s), "m.json", &m, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_nonnull(strstr(d.msg, "unexpected text after"));
}
END_TEST

START_TEST(file_errors_name_the_path_and_the_reason)
{
	expect_error("[1]", "", "the top level must be an object");
	expect_error("{'topology':{'cores_per_llc':1}}", "",
		     "missing key 'format' (expected "
		     "\"eevdf-sim-machine/1\")");
	expect_error("{" WFMT "'tasks':[]}", "format",
		     "this is a workload file, not a machine");
	expect_error("{'format':'eevdf-sim-machine/9'}", "format",
		     "unsupported format 'eevdf-sim-machine/9'");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},'cpu':[]}", "",
		     "unknown key 'cpu'");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1,'core':2}}",
		     "topology", "unknown key 'core'");
	expect_error("{" MFMT "'cpus':[{'core':0,'node':1}]}", "cpus[0]",
		     "unknown key 'node'");
	expect_error("{'format':'eevdf-sim-machine/1'}", "",
		     "missing key 'topology'");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},'cpus':[]}", "",
		     "'topology' and 'cpus' exclude each other");
	expect_error("{" MFMT "'topology':{}}", "topology",
		     "missing key 'cores_per_llc'");
	/* wrong types */
	expect_error("{" MFMT "'name':5,'topology':{'cores_per_llc':1}}",
		     "name", "must be a string");
	expect_error("{" MFMT "'topology':{'cores_per_llc':'4'}}",
		     "topology.cores_per_llc", "must be an integer");
	expect_error("{" MFMT "'topology':{'cores_per_llc':2.5}}",
		     "topology.cores_per_llc", "must be an integer");
	expect_error("{" MFMT "'topology':[4]}", "topology",
		     "must be an object");
	expect_error("{" MFMT "'cpus':{}}", "cpus",
		     "must be a non-empty array of CPUs");
	expect_error("{" MFMT "'cpus':[]}", "cpus",
		     "must be a non-empty array of CPUs");
	expect_error("{" MFMT "'cpus':[5]}", "cpus[0]", "must be an object");
	expect_error("{" MFMT "'cpus':[{'llc':0}]}", "cpus[0]",
		     "missing key 'core'");
	expect_error("{" MFMT "'topology':{'cores_per_llc':2,"
		     "'numbering':'zigzag'}}",
		     "topology.numbering",
		     "unknown numbering 'zigzag' (expected split or "
		     "adjacent)");
	/* zero, negative and huge counts */
	expect_error("{" MFMT "'topology':{'cores_per_llc':0}}",
		     "topology.cores_per_llc", "must be between 1 and 4096");
	expect_error("{" MFMT "'topology':{'packages':-2,'cores_per_llc':1}}",
		     "topology.packages", "must be between 1 and 4096");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1e12}}",
		     "topology.cores_per_llc", "must be between 1 and 4096");
	expect_error("{" MFMT "'topology':{'packages':4096,"
		     "'llcs_per_package':4096,'cores_per_llc':4096,"
		     "'threads_per_core':4096}}",
		     "topology",
		     "4096 packages x 4096 LLCs x 4096 cores x 4096 threads: "
		     "more than 4096 CPUs");
	expect_error("{" MFMT "'hz':99,'topology':{'cores_per_llc':1}}", "hz",
		     "must be between 100 and 10000");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1,"
		     "'capacity':1025}}",
		     "topology.capacity", "must be between 1 and 1024");
	expect_error("{" MFMT "'cpus':[{'core':-1}]}", "cpus[0].core",
		     "must be between 0 and 2147483647");
	expect_error("{" MFMT "'cpus':[{'core':0,'capacity':0}]}",
		     "cpus[0].capacity", "must be between 1 and 1024");
	/* what the builder refuses, at the CPU at fault */
	expect_error("{" MFMT "'cpus':[{'core':0,'llc':0},{'core':1,'llc':0},"
		     "{'core':0,'llc':1}]}",
		     "cpus[2]",
		     "core 0 is in LLC 1, but cpus[0] put it in LLC 0");
	expect_error("{" MFMT "'cpus':[{'core':0,'llc':3},"
		     "{'core':1,'llc':3,'package':1}]}",
		     "cpus[1]",
		     "LLC 3 is in package 1, but cpus[0] put it in package 0");
	/* costs */
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipi':'1.5xs'}}",
		     "costs.ipi", "invalid duration '1.5xs'");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipi':-5}}",
		     "costs.ipi", "must not be negative");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipi':'2000000s'}}",
		     "costs.ipi", "must be at most 1000000000000000 ns");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipx':1}}",
		     "costs.ipx",
		     "unknown cost 'ipx': did you mean 'ipi'? (valid: "
		     "syscall, pipe_write,");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipi':1,'ipi':2}}",
		     "costs.ipi", "duplicate key 'ipi'");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'smt_speed_pct':0}}",
		     "costs.smt_speed_pct", "must be between 1 and 100");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'smt_speed_pct':'60%'}}",
		     "costs.smt_speed_pct",
		     "a percentage: must be an integer from 1 to 100, not a "
		     "string");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'smt_speed_pct':62.5}}",
		     "costs.smt_speed_pct", "must be an integer");
	/* a machine decides ${ncpus}: its values are literal */
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipi':'${x}'}}",
		     "costs.ipi", "a machine's values are literal");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'costs':{'ipi':'ncpus * 1us'}}",
		     "costs.ipi", "a machine's values are literal");
}
END_TEST

/* A calibrated machine: two costs measured, HZ and the base slice. */
#define CALIB_MACHINE                                                          \
	"{" MFMT "'name':'box','hz':250,'topology':{'cores_per_llc':2},"       \
	"'costs':{'syscall':89,'smt_speed_pct':70},"                           \
	"'calibration':{'tool':'eevdf-sim 0.1.0 calibrate',"                   \
	"'kernel':'6.18.44','date':'2025-12-02','host':'a VM','quick':false,"  \
	"'hz':{'value':250,'samples':120,'method':'run lengths'},"             \
	"'base_slice':{'value':1400000,'method':'/proc/self/sched'},"          \
	"'costs':{'syscall':{'median':89,'iqr':4,'samples':50,"                \
	"'method':'getppid()'},'smt_speed_pct':{'median':70,'iqr':2,"          \
	"'samples':9,'method':'loop rates'}},"                                 \
	"'benchmarks':{'pipe_rt_same_cpu':{'median':2554.9,'iqr':33,"          \
	"'samples':50,'unit':'ns','method':'ping-pong'}}}}"

START_TEST(a_calibration_is_checked_and_kept_out_of_the_digest)
{
	eevdf_machine *m = parse_ok(CALIB_MACHINE), *c;
	eevdf_machine *plain = parse_ok(
		"{" MFMT "'name':'box','hz':250,'topology':{'cores_per_llc':2},"
		"'costs':{'syscall':89,'smt_speed_pct':70}}");
	char h1[65], h2[65];
	const char *t = eevdf_machine_calibration(m);

	/* kept as compact JSON, the document's own members in order */
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(strstr(t, "{\"tool\":\"eevdf-sim 0.1.0 "
					"calibrate\",\"kernel\":"));
	ck_assert_ptr_nonnull(strstr(t, "\"median\":89,\"iqr\":4,"));
	ck_assert_ptr_null(eevdf_machine_calibration(plain));
	ck_assert_ptr_null(eevdf_machine_calibration(NULL));
	/* where the costs came from is not what the machine is */
	ck_assert_int_eq(eevdf_machine_digest(m, h1), 0);
	ck_assert_int_eq(eevdf_machine_digest(plain, h2), 0);
	ck_assert_str_eq(h1, h2);
	c = eevdf_machine_clone(m);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(eevdf_machine_calibration(c), t);
	eevdf_machine_free(c);
	eevdf_machine_free(plain);
	eevdf_machine_free(m);
}
END_TEST

/* CALIB_MACHINE with its calibration replaced by cal. */
#define CAL(cal)                                                               \
	"{" MFMT "'hz':250,'topology':{'cores_per_llc':2},"                    \
	"'costs':{'syscall':89,'smt_speed_pct':70},'calibration':{" cal "}}"
#define TOOL "'tool':'t',"
#define ENTRY(m) "{'median':" m ",'iqr':1,'samples':5,'method':'x'}"

START_TEST(calibration_errors_name_the_path_and_the_reason)
{
	expect_error(CAL("'tool':'t','bogus':1"), "calibration",
		     "unknown key 'bogus'");
	expect_error(CAL("'date':'2025-12-02'"), "calibration",
		     "missing key 'tool'");
	expect_error(CAL("'tool':''"), "calibration.tool", "must not be empty");
	expect_error(CAL("'tool':5"), "calibration.tool", "must be a string");
	expect_error(CAL(TOOL "'quick':1"), "calibration.quick",
		     "must be true or false");
	expect_error("{" MFMT "'topology':{'cores_per_llc':1},"
		     "'calibration':[]}",
		     "calibration", "must be an object");
	/* HZ: the machine's own */
	expect_error(CAL(TOOL "'hz':{'value':1000,'samples':3,'method':'m'}"),
		     "calibration.hz.value",
		     "1000 but the machine's hz is 250: a calibration "
		     "describes the values the machine uses");
	expect_error("{" MFMT
		     "'topology':{'cores_per_llc':1},'calibration':{" TOOL
		     "'hz':{'value':250,'samples':3,'method':'m'}}}",
		     "calibration.hz.value",
		     "250 but the machine's hz is 1000");
	expect_error(CAL(TOOL "'hz':{'value':250,'samples':0,'method':'m'}"),
		     "calibration.hz.samples", "must be between 1 and");
	expect_error(CAL(TOOL "'hz':{'value':250,'samples':3}"),
		     "calibration.hz", "missing key 'method'");
	expect_error(CAL(TOOL "'base_slice':{'value':0,'method':'m'}"),
		     "calibration.base_slice.value", "must be between 1 and");
	/* costs: known, set by the machine, with its value */
	expect_error(CAL(TOOL "'costs':{'ipx':" ENTRY("1") "}"),
		     "calibration.costs.ipx",
		     "unknown cost 'ipx': did you mean 'ipi'?");
	expect_error(CAL(TOOL "'costs':{'ipi':" ENTRY("1") "}"),
		     "calibration.costs.ipi",
		     "the machine's \"costs\" has no 'ipi': a calibrated "
		     "entry must be one the machine sets");
	expect_error(CAL(TOOL "'costs':{'syscall':" ENTRY("90") "}"),
		     "calibration.costs.syscall.median",
		     "90 but costs.syscall is 89: a calibration describes "
		     "the values the machine uses");
	expect_error(CAL(TOOL "'costs':{'syscall':" ENTRY(
			     "89") ",'syscall':" ENTRY("89") "}"),
		     "calibration.costs.syscall", "duplicate key 'syscall'");
	expect_error(CAL(TOOL "'costs':{'syscall':{'median':89,'iqr':-1,"
			      "'samples':5,'method':'x'}}"),
		     "calibration.costs.syscall.iqr", "must be between 0 and");
	expect_error(CAL(TOOL "'costs':{'smt_speed_pct':" ENTRY("170") "}"),
		     "calibration.costs.smt_speed_pct.median",
		     "must be between 1 and 100");
	expect_error(CAL(TOOL "'costs':{'syscall':{'median':89,'iqr':1,"
			      "'samples':5}}"),
		     "calibration.costs.syscall", "missing key 'method'");
	expect_error(CAL(TOOL "'costs':{'syscall':{'median':89,'iqr':1,"
			      "'samples':5,'method':''}}"),
		     "calibration.costs.syscall.method", "must not be empty");
	/* benchmarks: named, numbers, a unit */
	expect_error(CAL(TOOL "'benchmarks':{'Pipe':{}}"),
		     "calibration.benchmarks.Pipe",
		     "a benchmark's name is 1 to 63 of a-z, 0-9 and _");
	expect_error(CAL(TOOL "'benchmarks':{'p':{'median':'1us','iqr':1,"
			      "'samples':1,'unit':'ns','method':'m'}}"),
		     "calibration.benchmarks.p.median", "must be a number");
	expect_error(CAL(TOOL "'benchmarks':{'p':{'median':1,'iqr':-0.5,"
			      "'samples':1,'unit':'ns','method':'m'}}"),
		     "calibration.benchmarks.p.iqr", "must not be negative");
	expect_error(CAL(TOOL "'benchmarks':{'p':{'median':1,'iqr':0,"
			      "'samples':1,'method':'m'}}"),
		     "calibration.benchmarks.p", "missing key 'unit'");
}
END_TEST

START_TEST(more_cpus_than_the_maximum_are_refused_early)
{
	size_t n = EEVDF_MAX_CPUS + 1, len = 64 + n * 16;
	char *s = malloc(len), *p = s;
	struct eevdf_diag d;
	eevdf_machine *m;

	ck_assert_ptr_nonnull(s);
	p += sprintf(p, "{\"format\":\"eevdf-sim-machine/1\",\"cpus\":[");
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s{\"core\":%zu}", i ? "," : "", i % 1000);
	strcpy(p, "]}");
	ck_assert_int_eq(eevdf_machine_parse(s, strlen(s), "m.json", &m, &d),
			 EEVDF_EPARSE);
	ck_assert_str_eq(d.path, "cpus");
	ck_assert_str_eq(d.msg, "4097 CPUs is more than 4096");
	free(s);
}
END_TEST

START_TEST(a_validator_gets_every_error_of_a_machine)
{
	struct eevdf_diag errs[8], d;
	size_t nr = 99;
	struct eevdf_load_opts o = { .errors = errs,
				     .max_errors = 8,
				     .nr_errors = &nr };
	char *j = dq("{" MFMT "'hz':5,'topology':{'cores_per_llc':0,"
		     "'threads_per_core':'x'},'costs':{'ipi':-1,'bogus':1,"
		     "'fork':'1ms'}}");
	eevdf_machine *m;

	ck_assert_int_eq(eevdf_machine_parse_opts(j, strlen(j), "m.json", &o,
						  &m, &d),
			 EEVDF_EPARSE);
	ck_assert_ptr_null(m);
	ck_assert_uint_eq(nr, 5);
	ck_assert_str_eq(errs[0].path, "hz");
	ck_assert_str_eq(errs[1].path, "topology.cores_per_llc");
	ck_assert_str_eq(errs[2].path, "topology.threads_per_core");
	ck_assert_str_eq(errs[3].path, "costs.ipi");
	ck_assert_str_eq(errs[4].path, "costs.bogus");
	/* diag is the first of them */
	ck_assert_str_eq(d.path, "hz");
	free(j);

	/* one error that stops the reader is the list's only one */
	j = dq("{" MFMT "'topology':{'cores_per_llc':2},'x':1}");
	ck_assert_int_eq(eevdf_machine_parse_opts(j, strlen(j), "m.json", &o,
						  &m, &d),
			 EEVDF_EPARSE);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(errs[0].msg, "unknown key 'x'");
	free(j);
	/* and a good file has none */
	j = dq("{" MFMT "'topology':{'cores_per_llc':2}}");
	ck_assert_int_eq(eevdf_machine_parse_opts(j, strlen(j), "m.json", &o,
						  &m, &d),
			 0);
	ck_assert_uint_eq(nr, 0);
	eevdf_machine_free(m);
	free(j);
}
END_TEST

START_TEST(missing_machine_file_gives_eio_naming_it)
{
	struct eevdf_diag d;
	eevdf_machine *m = (eevdf_machine *)(void *)&d;

	ck_assert_int_eq(eevdf_machine_load_file("/nonexistent/m.json", &m, &d),
			 EEVDF_EIO);
	ck_assert_ptr_null(m);
	ck_assert_str_eq(d.file, "/nonexistent/m.json");
	ck_assert_str_eq(d.msg, "cannot read: No such file or directory");
}
END_TEST

/* ---- a workload's machine ---------------------------------------------- */

static eevdf_workload *wl_parse(const char *s, const char *file,
				const struct eevdf_load_opts *o,
				struct eevdf_diag *d)
{
	char *j = dq(s);
	eevdf_workload *wl = NULL;
	int r = eevdf_workload_parse_opts(j, strlen(j), file, o, &wl, d);

	free(j);
	ck_assert_int_eq(r == 0, wl != NULL);
	return wl;
}

START_TEST(a_workload_may_carry_its_machine)
{
	struct eevdf_diag d;
	struct eevdf_load_opts o = { 0 };
	eevdf_workload *wl;
	const eevdf_machine *m;
	char buf[512];

	wl = wl_parse("{" WFMT "'machine':{'name':'mine','topology':"
		      "{'cores_per_llc':3,'threads_per_core':2}},"
		      "'params':{'n':'${ncpus * 10 + nllc}'},"
		      "'tasks':[{'name':'a','count':'${n}','program':"
		      "[{'run':'1ms'}]}]}",
		      "w.json", NULL, &d);
	ck_assert_msg(wl != NULL, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	m = eevdf_workload_machine(wl);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(eevdf_machine_name(m), "mine");
	check_shape(m, 6, 3, 1, 1, 1000);
	/* ${ncpus} and ${nllc} are the workload's machine's */
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 61);
	eevdf_workload_free(wl);

	/* unless the caller names the machine of the run */
	o.ncpus = 2;
	o.nllc = 2;
	wl = wl_parse("{" WFMT "'machine':{'topology':{'cores_per_llc':3}},"
		      "'tasks':[{'name':'a','count':'${ncpus + nllc}',"
		      "'program':[{'run':'1ms'}]}]}",
		      "w.json", &o, &d);
	ck_assert_ptr_nonnull(wl);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 4);
	ck_assert_str_eq(eevdf_machine_name(eevdf_workload_machine(wl)), "");
	eevdf_workload_free(wl);

	wl = wl_parse("{" WFMT "'tasks':[" TASK_A "]}", "w.json", NULL, &d);
	ck_assert_ptr_null(eevdf_workload_machine(wl));
	eevdf_workload_free(wl);
	ck_assert_ptr_null(eevdf_workload_machine(NULL));
}
END_TEST

START_TEST(errors_in_a_workloads_machine_name_its_path)
{
	static const struct {
		const char *machine, *path, *msg;
	} c[] = {
		{ "{'topology':{'cores_per_llc':1},'costs':{'ipi':'x'}}",
		  "machine.costs.ipi", "invalid duration 'x'" },
		{ "{'topology':{'cores_per_llc':0}}",
		  "machine.topology.cores_per_llc", "must be between 1" },
		{ "{'cpus':[{'core':0},{'core':0,'llc':1}]}", "machine.cpus[1]",
		  "core 0 is in LLC 1" },
		{ "{'format':'eevdf-sim-workload/1'}", "machine.format",
		  "this is a workload file, not a machine" },
		{ "{'topology':{'cores_per_llc':'${ncpus}'}}",
		  "machine.topology.cores_per_llc", "must be an integer" },
		{ "{'topology':{'cores_per_llc':1},'costs':{'ipi':'${x}'}}",
		  "machine.costs.ipi", "a machine's values are literal" },
		{ "5", "machine",
		  "must be a machine object or the path of a "
		  "machine file" },
		{ "''", "machine", "must be a machine object or the path" },
		{ "'${m}.json'", "machine",
		  "the path of a machine file is "
		  "literal" },
		{ "'/nonexistent/m.json'", "machine",
		  "machine file '/nonexistent/m.json': cannot read: No such "
		  "file or directory" },
	};
	char doc[512], buf[512];

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct eevdf_diag d;
		eevdf_workload *wl;

		snprintf(doc, sizeof(doc),
			 "{" WFMT "'machine':%s,'tasks':[" TASK_A "]}",
			 c[i].machine);
		wl = wl_parse(doc, "w.json", NULL, &d);
		eevdf_diag_format(&d, buf, sizeof(buf));
		ck_assert_msg(wl == NULL, "%s loaded", c[i].machine);
		ck_assert_str_eq(d.file, "w.json");
		ck_assert_msg(strcmp(d.path, c[i].path) == 0 &&
				      strstr(d.msg, c[i].msg),
			      "%s: got %s", c[i].machine, buf);
	}
}
END_TEST

/* Write text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	char *j = dq(text);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(j, f);
	ck_assert_int_eq(fclose(f), 0);
	free(j);
}

static void remove_file(const char *dir, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

START_TEST(a_workloads_machine_file_is_found_beside_it)
{
	char dir[] = "/tmp/eevdf-check-machine-XXXXXX", path[256], buf[512];
	struct eevdf_diag d;
	eevdf_workload *wl;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	write_file(dir, "box.json",
		   "{" MFMT "'topology':{'cores_per_llc':5},"
		   "'hz':250}");
	write_file(dir, "w.json",
		   "{" WFMT "'machine':'box.json',"
		   "'tasks':[{'name':'a','count':'${ncpus}','program':"
		   "[{'run':'1ms'}]}]}");
	write_file(dir, "bad.json",
		   "{" MFMT "\n'topology':{'cores_per_llc':1,"
		   "'threads':2}}");
	write_file(dir, "wbad.json",
		   "{" WFMT "'machine':'bad.json',"
		   "'tasks':[" TASK_A "]}");
	snprintf(path, sizeof(path), "%s/w.json", dir);
	ck_assert_msg(eevdf_workload_load_file(path, &wl, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	/* named after its file, relative to the workload's directory */
	ck_assert_str_eq(eevdf_machine_name(eevdf_workload_machine(wl)), "box");
	ck_assert_int_eq(eevdf_machine_hz(eevdf_workload_machine(wl)), 250);
	ck_assert_uint_eq(eevdf_workload_nr_tasks(wl), 5);
	eevdf_workload_free(wl);

	/* an error in the machine file names that file and its path */
	snprintf(path, sizeof(path), "%s/wbad.json", dir);
	ck_assert_int_eq(eevdf_workload_load_file(path, &wl, &d), EEVDF_EPARSE);
	snprintf(path, sizeof(path), "%s/bad.json", dir);
	ck_assert_str_eq(d.file, path);
	ck_assert_str_eq(d.path, "topology");
	ck_assert_str_eq(d.msg, "unknown key 'threads'");
	remove_file(dir, "box.json");
	remove_file(dir, "w.json");
	remove_file(dir, "bad.json");
	remove_file(dir, "wbad.json");
	rmdir(dir);
}
END_TEST

/* ---- costs ------------------------------------------------------------- */

/*
 * A simulation on machine m with wl's tasks.  While the simulation does
 * not keep a machine of its own yet, the test gives it one (and takes it
 * back before freeing the simulation): the layering is the workload's.
 */
static eevdf_sim *sim_on(const eevdf_machine *m, const eevdf_workload *wl,
			 bool *lent)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_sim *sim;
	char buf[512];

	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.nr_cpus = eevdf_machine_nr_cpus(m);
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	*lent = false;
	if (!sim->machine) {
		sim->machine = eevdf_machine_clone(m);
		*lent = true;
	}
	ck_assert_msg(eevdf_workload_add_tasks(wl, sim, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	return sim;
}

static void sim_done(eevdf_sim *sim, bool lent)
{
	if (lent) {
		eevdf_machine_free(sim->machine);
		sim->machine = NULL;
	}
	eevdf_sim_free(sim);
}

START_TEST(costs_layer_defaults_then_machine_then_workload)
{
	struct cost_table dflt;
	struct eevdf_diag d;
	eevdf_workload *wl;
	eevdf_machine *m;
	eevdf_sim *sim;
	bool lent;

	eevdf__costs_default(&dflt);
	m = parse_ok("{" MFMT "'topology':{'cores_per_llc':2},"
		     "'costs':{'ipi':'3us','syscall':'1us','fork':0}}");
	wl = wl_parse("{" WFMT "'costs':{'syscall':'2us','smt_speed_pct':40},"
		      "'tasks':[" TASK_A "]}",
		      "w.json", NULL, &d);
	ck_assert_ptr_nonnull(wl);
	sim = sim_on(m, wl, &lent);
	ck_assert_uint_eq(sim->sched.costs.ipi, 3000);	   /* the machine's */
	ck_assert_uint_eq(sim->sched.costs.fork, 0);	   /* the machine's */
	ck_assert_uint_eq(sim->sched.costs.syscall, 2000); /* the workload's */
	ck_assert_uint_eq(sim->sched.costs.smt_speed_pct,
			  40); /* the workload's */
	ck_assert_uint_eq(sim->sched.costs.idle_exit, dflt.idle_exit);
	ck_assert_uint_eq(sim->sched.costs.pipe_read, dflt.pipe_read);
	sim_done(sim, lent);
	eevdf_workload_free(wl);
	eevdf_machine_free(m);

	/* the documented defaults of the SMP entries */
	ck_assert_uint_eq(dflt.ttwu_remote, 500);
	ck_assert_uint_eq(dflt.ipi, 1500);
	ck_assert_uint_eq(dflt.idle_exit, 2000);
	ck_assert_uint_eq(dflt.migrate_llc, 2000);
	ck_assert_uint_eq(dflt.migrate_cross_llc, 10000);
	ck_assert_uint_eq(dflt.migrate_cross_pkg, 25000);
	ck_assert_uint_eq(dflt.smt_speed_pct, 62);
}
END_TEST

START_TEST(the_library_without_a_workload_has_only_the_machines_costs)
{
	struct eevdf_config cfg;
	struct cost_table zero;
	eevdf_machine *m;
	eevdf_sim *sim;

	/*
	 * Hand-computed scheduler tests rely on zero costs; a machine that
	 * names its own costs brings them (they are the machine's), and
	 * nothing else.
	 */
	m = parse_ok("{" MFMT "'topology':{'cores_per_llc':2},"
		     "'costs':{'ipi':'3us'}}");
	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.nr_cpus = 2;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, NULL, 0), 0);
	memset(&zero, 0, sizeof(zero));
	zero.ipi = 3000;
	ck_assert_int_eq(memcmp(&sim->sched.costs, &zero, sizeof(zero)), 0);
	eevdf_sim_free(sim);
	eevdf_machine_free(m);
}
END_TEST

START_TEST(workload_percentages_are_plain_integers)
{
	static const struct {
		const char *v, *msg;
	} bad[] = {
		{ "'62%'", "a percentage: must be an integer from 1 to 100, "
			   "not a string" },
		{ "'62'", "a percentage: must be an integer from 1 to 100" },
		{ "0", "must be between 1 and 100" },
		{ "101", "must be between 1 and 100" },
		{ "true", "must be an integer" },
	};
	char doc[256], buf[512];
	struct eevdf_diag d;
	eevdf_workload *wl;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(doc, sizeof(doc),
			 "{" WFMT "'costs':{'smt_speed_pct':"
			 "%s},'tasks':[" TASK_A "]}",
			 bad[i].v);
		wl = wl_parse(doc, "w.json", NULL, &d);
		eevdf_diag_format(&d, buf, sizeof(buf));
		ck_assert_msg(!wl && !strcmp(d.path, "costs.smt_speed_pct") &&
				      strstr(d.msg, bad[i].msg),
			      "%s: %s", bad[i].v, buf);
	}
	/* a param is fine: a workload's values may use them */
	wl = wl_parse("{" WFMT "'params':{'p':50},'costs':{'smt_speed_pct':"
		      "'${p}'},'tasks':[" TASK_A "]}",
		      "w.json", NULL, &d);
	ck_assert_ptr_nonnull(wl);
	ck_assert_uint_eq(wl->costs.smt_speed_pct, 50);
	ck_assert_uint_eq(wl->cost_set, (u64)1 << COST_IDX_smt_speed_pct);
	eevdf_workload_free(wl);
}
END_TEST

Suite *machine_suite(void)
{
	Suite *s = suite_create("machine");
	TCase *tc = tcase_create("builder");

	tcase_add_test(tc, builder_rejects_bad_counts_with_exact_messages);
	tcase_add_test(tc, builder_rejects_bad_cpu_lists_with_exact_messages);
	tcase_add_test(tc, split_numbering_puts_siblings_a_core_count_apart);
	tcase_add_test(tc, adjacent_numbering_puts_siblings_side_by_side);
	tcase_add_test(tc, explicit_lists_are_renumbered_densely_in_order);
	tcase_add_test(tc, flat_machine_is_named_after_its_cpus);
	tcase_add_test(tc, set_cost_checks_names_and_ranges_and_clone_copies);
	tcase_add_test(tc, getters_of_no_machine_are_empty);
	suite_add_tcase(s, tc);

	tc = tcase_create("files");
	tcase_add_test(tc, every_shipped_machine_loads_with_its_shape);
	tcase_add_test(tc, machine_file_gives_every_field);
	tcase_add_test(tc, malformed_json_names_the_line);
	tcase_add_test(tc, file_errors_name_the_path_and_the_reason);
	tcase_add_test(tc, more_cpus_than_the_maximum_are_refused_early);
	tcase_add_test(tc, a_validator_gets_every_error_of_a_machine);
	tcase_add_test(tc, missing_machine_file_gives_eio_naming_it);
	tcase_add_test(tc, a_calibration_is_checked_and_kept_out_of_the_digest);
	tcase_add_test(tc, calibration_errors_name_the_path_and_the_reason);
	suite_add_tcase(s, tc);

	tc = tcase_create("workload");
	tcase_add_test(tc, a_workload_may_carry_its_machine);
	tcase_add_test(tc, errors_in_a_workloads_machine_name_its_path);
	tcase_add_test(tc, a_workloads_machine_file_is_found_beside_it);
	suite_add_tcase(s, tc);

	tc = tcase_create("costs");
	tcase_add_test(tc, costs_layer_defaults_then_machine_then_workload);
	tcase_add_test(
		tc, the_library_without_a_workload_has_only_the_machines_costs);
	tcase_add_test(tc, workload_percentages_are_plain_integers);
	suite_add_tcase(s, tc);
	return s;
}
