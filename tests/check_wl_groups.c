/* SPDX-License-Identifier: MIT */
/*
 * Tests of group scheduling in the workload format (src/workload/
 * workload_groups.c and the ops that use it): "groups" and "sessions",
 * a task's "cgroup", "session" and "setsid", setattr's "cgroup" and what
 * spawn's children inherit.  Parsing, defaults and the order groups are
 * made in; every error with its path; and small workloads run on a
 * machine whose every cost is zero, whose CPU shares are worked out by
 * hand from the model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "suites.h"
#include "machine/costs.h"
#include "engine/sim.h"
#include "workload/workload_impl.h"

#define FMT "'format':'eevdf-sim-workload/1',"
#define HOG "'program':[{'loop':{'body':[{'run':'10ms'}]}}]"
#define MS 1000000LL

/* Workloads are written with ' for " (none needs an apostrophe). */
static char *dq(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);

	ck_assert_ptr_nonnull(d);
	for (size_t i = 0; i <= n; i++)
		d[i] = s[i] == '\'' ? '"' : s[i];
	return d;
}

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
	return wl;
}

static eevdf_workload *parse_ok(const char *s)
{
	return parse_opts_ok(s, NULL);
}

/* s fails to load with EEVDF_EPARSE at path, the message holding sub. */
static void expect_error(const char *s, const char *path, const char *sub)
{
	struct eevdf_diag d;
	eevdf_workload *wl = (eevdf_workload *)(void *)&d;
	char buf[600], *j = dq(s);
	int r = eevdf_workload_parse(j, strlen(j), "t.json", &wl, &d);

	free(j);
	eevdf_diag_format(&d, buf, sizeof(buf));
	ck_assert_msg(r == EEVDF_EPARSE, "got %d: %s", r, buf);
	ck_assert_ptr_null(wl);
	ck_assert_msg(strcmp(d.path, path) == 0, "path '%s', want '%s': %s",
		      d.path, path, buf);
	ck_assert_msg(strstr(d.msg, sub) != NULL, "msg lacks '%s': %s", sub,
		      buf);
}

/* A group "/x" with the files in f, one task in it. */
static void expect_group_error(const char *f, const char *path, const char *sub)
{
	char s[600];

	snprintf(s, sizeof(s),
		 "{" FMT "'groups':{'/x':%s},'tasks':[{'name':'a',"
		 "'cgroup':'/x'," HOG "}]}",
		 f);
	expect_error(s, path, sub);
}

/*
 * A simulation of the workload on a flat machine of ncpus CPUs whose
 * every cost is zero (the times are the workload's alone), autogroup as
 * given (1 on, -1 off).
 */
static eevdf_sim *zero_cost_sim(const eevdf_workload *wl, int ncpus,
				int autogroup)
{
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_machine *m = NULL;
	eevdf_sim *sim;
	char buf[512];

	ck_assert_int_eq(eevdf_machine_new_flat(ncpus, &m, buf, sizeof(buf)),
			 0);
	for (int i = 0; i < COST_NR_ENTRIES; i++)
		ck_assert_int_eq(eevdf_machine_set_cost(
					 m, eevdf__costs_name(i),
					 eevdf__costs_is_pct(i) ? 100 : 0),
				 0);
	eevdf_config_init(&cfg);
	cfg.machine = m;
	cfg.autogroup = autogroup;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, buf, sizeof(buf)), 0);
	eevdf_machine_free(m);
	ck_assert_msg(eevdf_workload_add_tasks(wl, sim, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	return sim;
}

/* Load s and run it for len on ncpus zero-cost CPUs. */
static eevdf_sim *run_for(const char *s, int ncpus, int autogroup,
			  eevdf_time len)
{
	eevdf_workload *wl = parse_ok(s);
	eevdf_sim *sim = zero_cost_sim(wl, ncpus, autogroup);
	int r;

	eevdf_workload_free(wl);
	r = eevdf_sim_run(sim, len);
	ck_assert_msg(r == 0, "run failed (%d): %s", r, eevdf_sim_errmsg(sim));
	return sim;
}

static struct eevdf_group_stats group_of(const eevdf_sim *sim, const char *path)
{
	struct eevdf_group_stats g;

	for (size_t i = 0; i < eevdf_sim_nr_groups(sim); i++) {
		ck_assert_int_eq(eevdf_sim_group_stats(sim, i, &g), 0);
		if (strcmp(g.path, path) == 0)
			return g;
	}
	ck_abort_msg("no group '%s'", path);
	return g;
}

static struct eevdf_task_stats stats_of(const eevdf_sim *sim, const char *name)
{
	struct eevdf_task_stats st;

	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
		if (strcmp(st.name, name) == 0)
			return st;
	}
	ck_abort_msg("no task '%s'", name);
	return st;
}

/* The CPU time of the tasks whose names start with prefix. */
static eevdf_time cpu_of(const eevdf_sim *sim, const char *prefix)
{
	struct eevdf_task_stats st;
	eevdf_time ns = 0;

	for (size_t i = 0; i < eevdf_sim_nr_tasks(sim); i++) {
		ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
		if (strncmp(st.name, prefix, strlen(prefix)) == 0)
			ns += st.cpu_ns;
	}
	return ns;
}

/*
 * Run the shipped workloads/NAME.json with params on one CPU for len, at
 * the default costs (as eevdf-sim run does), autogroup as given.
 */
static eevdf_sim *run_shipped(const char *name, const char *const *params,
			      size_t nr_params, int autogroup, eevdf_time len)
{
	struct eevdf_load_opts o = { .params = params,
				     .nr_params = nr_params,
				     .ncpus = 1 };
	struct eevdf_config cfg;
	struct eevdf_diag d;
	eevdf_workload *wl = NULL;
	eevdf_sim *sim;
	char path[128], buf[512];
	int r;

	snprintf(path, sizeof(path), "workloads/%s.json", name);
	ck_assert_msg(eevdf_workload_load_file_opts(path, &o, &wl, &d) == 0,
		      "%s", eevdf_diag_format(&d, buf, sizeof(buf)));
	eevdf_config_init(&cfg);
	cfg.nr_cpus = 1;
	cfg.autogroup = autogroup;
	cfg.check_invariants = true;
	ck_assert_int_eq(eevdf_sim_new(&cfg, &sim, buf, sizeof(buf)), 0);
	ck_assert_msg(eevdf_workload_add_tasks(wl, sim, &d) == 0, "%s",
		      eevdf_diag_format(&d, buf, sizeof(buf)));
	eevdf_workload_free(wl);
	r = eevdf_sim_run(sim, len);
	ck_assert_msg(r == 0, "run failed (%d): %s", r, eevdf_sim_errmsg(sim));
	return sim;
}

/* ns is share (per mille) of total within tol per mille. */
#define CK_SHARE(ns, total, permille, tol)                                     \
	do {                                                                   \
		long long got_ = (long long)(ns)*1000 / (total);               \
		ck_assert_msg(got_ >= (permille) - (tol) &&                    \
				      got_ <= (permille) + (tol),              \
			      "%lld per mille, want %d +- %d", got_,           \
			      (permille), (tol));                              \
	} while (0)

/* ---- parsing ------------------------------------------------------------ */

START_TEST(groups_keep_every_file_in_each_form)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'groups':{"
		"'/w':{'cpu.weight':300},"
		"'/n':{'cpu.weight.nice':-5},"
		"'/i':{'cpu.idle':1},"
		"'/t':{'cpu.idle':true},"
		"'/c':{'cpu.max':'20000 100000'},"
		"'/m':{'cpu.max':'max'},"
		"'/mp':{'cpu.max':' max  50000 '},"
		"'/q':{'cpu.max':'30000'},"
		"'/o':{'cpu.max':{'quota':'20ms','period':'0.1s'}},"
		"'/om':{'cpu.max':{'quota':'max'}},"
		"'/op':{'cpu.max':{'period':50000000}},"
		"'/z':{}},"
		"'tasks':[{'name':'a'," HOG "}]}");
	const struct eevdf_group_spec *g;

	/* sorted by path: /c /i /m /mp /n /o /om /op /q /t /w /z */
	ck_assert_uint_eq(eevdf_workload_nr_groups(wl), 12);
	g = eevdf_workload_group(wl, 0);
	ck_assert_str_eq(g->path, "/c");
	/* cpu.max is in us: 20000 us = 20 ms, 100000 us = 100 ms */
	ck_assert_int_eq(g->max_quota, 20 * MS);
	ck_assert_int_eq(g->max_period, 100 * MS);
	ck_assert_uint_eq(g->weight, 0);
	ck_assert_int_eq(g->idle, -1);
	g = eevdf_workload_group(wl, 1);
	ck_assert_str_eq(g->path, "/i");
	ck_assert_int_eq(g->idle, 1);
	g = eevdf_workload_group(wl, 2);
	ck_assert_str_eq(g->path, "/m");
	ck_assert_int_eq(g->max_quota, EEVDF_GROUP_NO_QUOTA);
	ck_assert_int_eq(g->max_period, 0); /* the period is kept */
	g = eevdf_workload_group(wl, 3);
	ck_assert_str_eq(g->path, "/mp");
	ck_assert_int_eq(g->max_quota, EEVDF_GROUP_NO_QUOTA);
	ck_assert_int_eq(g->max_period, 50 * MS);
	g = eevdf_workload_group(wl, 4);
	ck_assert_str_eq(g->path, "/n");
	ck_assert(g->set_weight_nice);
	ck_assert_int_eq(g->weight_nice, -5);
	ck_assert_uint_eq(g->weight, 0);
	g = eevdf_workload_group(wl, 5);
	ck_assert_str_eq(g->path, "/o");
	ck_assert_int_eq(g->max_quota, 20 * MS);
	ck_assert_int_eq(g->max_period, 100 * MS);
	g = eevdf_workload_group(wl, 6);
	ck_assert_str_eq(g->path, "/om");
	ck_assert_int_eq(g->max_quota, EEVDF_GROUP_NO_QUOTA);
	ck_assert_int_eq(g->max_period, 0);
	g = eevdf_workload_group(wl, 7);
	ck_assert_str_eq(g->path, "/op");
	ck_assert_int_eq(g->max_quota, 0); /* the quota is kept */
	ck_assert_int_eq(g->max_period, 50 * MS);
	g = eevdf_workload_group(wl, 8);
	ck_assert_str_eq(g->path, "/q");
	ck_assert_int_eq(g->max_quota, 30 * MS);
	ck_assert_int_eq(g->max_period, 0);
	g = eevdf_workload_group(wl, 9);
	ck_assert_str_eq(g->path, "/t");
	ck_assert_int_eq(g->idle, 1);
	g = eevdf_workload_group(wl, 10);
	ck_assert_str_eq(g->path, "/w");
	ck_assert_uint_eq(g->weight, 300);
	ck_assert(!g->set_weight_nice);
	g = eevdf_workload_group(wl, 11);
	ck_assert_str_eq(g->path, "/z");
	ck_assert_uint_eq(g->weight, 0);
	ck_assert_int_eq(g->idle, -1);
	ck_assert_int_eq(g->max_quota, 0);
	ck_assert_ptr_null(eevdf_workload_group(wl, 12));
	ck_assert_ptr_null(eevdf_workload_group(NULL, 0));
	ck_assert_uint_eq(eevdf_workload_nr_groups(NULL), 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(groups_are_sorted_with_the_parents_they_imply)
{
	static const char *const want[] = { "/a",   "/a/b", "/a/b/c",
					    "/a/d", "/m",   "/z" };
	/* the same groups, keys in two orders */
	static const char *const files[] = {
		"{" FMT "'groups':{'/z':{},'/a/b/c':{'cpu.weight':7},"
		"'/m':{},'/a/d':{}},'tasks':[{'name':'a'," HOG "}]}",
		"{" FMT "'groups':{'/a/d':{},'/m':{},'/a/b/c':{'cpu.weight':7},"
		"'/z':{}},'tasks':[{'name':'a'," HOG "}]}",
	};

	for (size_t f = 0; f < 2; f++) {
		eevdf_workload *wl = parse_ok(files[f]);

		ck_assert_uint_eq(eevdf_workload_nr_groups(wl), 6);
		for (size_t i = 0; i < 6; i++) {
			const struct eevdf_group_spec *g = eevdf_workload_group(
				wl, i);

			ck_assert_str_eq(g->path, want[i]);
			/* parents write nothing: the kernel's defaults */
			ck_assert_uint_eq(g->weight, i == 2 ? 7 : 0);
			ck_assert_int_eq(g->idle, -1);
		}
		eevdf_workload_free(wl);
	}
}
END_TEST

START_TEST(groups_take_params_choices_and_null)
{
	static const char *const params[] = { "w=50", "q=max" };
	struct eevdf_load_opts o = { .params = params, .nr_params = 2 };
	eevdf_workload *wl = parse_opts_ok(
		"{" FMT "'params':{'w':100,'big':1,'q':'20000'},"
		"'groups':{'/a':{'cpu.weight':'${w}'},"
		"'/b':{'cpu.weight':{'if':'${big}','then':500,'else':50},"
		"'cpu.idle':null},"
		"'/c':{'cpu.max':'${q} 50000'},"
		"'/d':{'cpu.weight':null,'cpu.max':{'quota':'${q}'}}},"
		"'tasks':[{'name':'a'," HOG "}]}",
		&o);

	ck_assert_uint_eq(eevdf_workload_group(wl, 0)->weight, 50);
	ck_assert_uint_eq(eevdf_workload_group(wl, 1)->weight, 500);
	ck_assert_int_eq(eevdf_workload_group(wl, 1)->idle, -1);
	ck_assert_int_eq(eevdf_workload_group(wl, 2)->max_quota,
			 EEVDF_GROUP_NO_QUOTA);
	ck_assert_int_eq(eevdf_workload_group(wl, 2)->max_period, 50 * MS);
	ck_assert_uint_eq(eevdf_workload_group(wl, 3)->weight, 0);
	ck_assert_int_eq(eevdf_workload_group(wl, 3)->max_quota,
			 EEVDF_GROUP_NO_QUOTA);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(sessions_are_numbered_by_name)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'sessions':{'zeta':{'nice':3},'alpha':{},"
		"'x.y':{'nice':null}},"
		"'templates':{'kid':{'session':'beta','program':[{'run':1}]}},"
		"'tasks':[{'name':'m','session':'mid'," HOG "},"
		"{'name':'a','session':'alpha'," HOG "},"
		"{'name':'d','count':2,'setsid':true," HOG "},"
		"{'name':'z','session':{'if':1,'then':'zeta','else':null}," HOG
		"},"
		"{'name':'o','setsid':false," HOG "}]}");
	const struct eevdf_session_spec *s;

	/* alpha, beta, mid, x.y, zeta: 1..5; setsid: 6 and 7 */
	ck_assert_uint_eq(eevdf_workload_nr_sessions(wl), 5);
	s = eevdf_workload_session(wl, 0);
	ck_assert_str_eq(s->name, "alpha");
	ck_assert_uint_eq(s->session, 1);
	ck_assert(!s->set_nice);
	ck_assert_str_eq(eevdf_workload_session(wl, 1)->name, "beta");
	ck_assert_str_eq(eevdf_workload_session(wl, 2)->name, "mid");
	ck_assert_str_eq(eevdf_workload_session(wl, 3)->name, "x.y");
	ck_assert(!eevdf_workload_session(wl, 3)->set_nice);
	s = eevdf_workload_session(wl, 4);
	ck_assert_str_eq(s->name, "zeta");
	ck_assert_uint_eq(s->session, 5);
	ck_assert(s->set_nice);
	ck_assert_int_eq(s->nice, 3);
	ck_assert_ptr_null(eevdf_workload_session(wl, 5));
	/* tasks m, a, d[0], d[1], z, o */
	ck_assert_uint_eq(eevdf_workload_task(wl, 0)->session, 3);
	ck_assert_uint_eq(eevdf_workload_task(wl, 1)->session, 1);
	ck_assert_uint_eq(eevdf_workload_task(wl, 2)->session, 6);
	ck_assert_uint_eq(eevdf_workload_task(wl, 3)->session, 7);
	ck_assert_uint_eq(eevdf_workload_task(wl, 4)->session, 5);
	ck_assert_uint_eq(eevdf_workload_task(wl, 5)->session, 0);
	eevdf_workload_free(wl);
}
END_TEST

START_TEST(task_cgroup_names_a_group_or_the_root)
{
	eevdf_workload *wl = parse_ok(
		"{" FMT "'params':{'g':'/s/web'},"
		"'groups':{'/s/web':{'cpu.weight':300}},"
		"'tasks':[{'name':'w','cgroup':'${g}'," HOG "},"
		"{'name':'p','cgroup':'/s'," HOG "},"
		"{'name':'r','cgroup':'/'," HOG "},"
		"{'name':'n'," HOG "},"
		"{'name':'c','cgroup':{'if':0,'then':'/s','else':null}," HOG
		"},"
		"{'name':'m','program':[{'setattr':{'cgroup':'/s/web'}},"
		"{'setattr':{'cgroup':'/','nice':3}}]}]}");
	const struct program *prog;

	ck_assert_str_eq(eevdf_workload_task(wl, 0)->cgroup, "/s/web");
	/* a parent a group implies is a group too */
	ck_assert_str_eq(eevdf_workload_task(wl, 1)->cgroup, "/s");
	ck_assert_str_eq(eevdf_workload_task(wl, 2)->cgroup, "/");
	ck_assert_ptr_null(eevdf_workload_task(wl, 3)->cgroup);
	ck_assert_ptr_null(eevdf_workload_task(wl, 4)->cgroup);
	prog = eevdf__workload_program(wl, 5);
	ck_assert_int_eq(prog->ops[0].code, P_SETATTR);
	ck_assert_str_eq(prog->ops[0].text, "/s/web");
	ck_assert_int_eq(prog->ops[0].a.kind, PV_NONE);
	ck_assert_int_eq(prog->ops[1].code, P_SETATTR);
	ck_assert_str_eq(prog->ops[1].text, "/");
	ck_assert_int_eq(prog->ops[1].a.c, 3);
	eevdf_workload_free(wl);
}
END_TEST

/* ---- errors ------------------------------------------------------------- */

START_TEST(bad_groups_name_the_path)
{
	expect_error("{" FMT "'groups':[],'tasks':[{'name':'a'," HOG "}]}",
		     "groups", "must be an object of cgroup path");
	expect_error("{" FMT "'groups':{'/':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"/\"]", "the root group '/' has no cpu.weight");
	expect_error("{" FMT "'groups':{'a/b':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"a/b\"]",
		     "bad cgroup path 'a/b': a path starts with '/'");
	expect_error("{" FMT "'groups':{'/a/':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"/a/\"]", "a trailing '/'");
	expect_error("{" FMT "'groups':{'/a//b':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"/a//b\"]", "an empty, '.' or '..' name");
	expect_error("{" FMT "'groups':{'/a/..':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"/a/..\"]", "an empty, '.' or '..' name");
	expect_error("{" FMT "'groups':{'/a b':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"/a b\"]", "letters, digits and ._-@:+ only");
	expect_error("{" FMT "'groups':{'/autogroup-3':{}},'tasks':[{'name':"
		     "'a'," HOG "}]}",
		     "groups[\"/autogroup-3\"]",
		     "autogroup-* names are the kernel's");
	expect_error("{" FMT "'groups':{'/a':{},'/a':{}},'tasks':[{'name':"
		     "'a'," HOG "}]}",
		     "groups[\"/a\"]", "duplicate group '/a'");
	expect_error("{" FMT "'groups':{'/a':300},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "groups[\"/a\"]",
		     "must be an object of the group's files");
}
END_TEST

START_TEST(paths_too_long_or_too_deep_are_refused)
{
	char path[300], s[800];
	size_t n = 0;

	/* 33 levels of "/a": one deeper than EEVDF_GROUP_DEPTH_MAX */
	for (int i = 0; i < 33; i++)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/a");
	snprintf(s, sizeof(s),
		 "{" FMT "'groups':{'%s':{}},'tasks':[{'name':'a'," HOG "}]}",
		 path);
	{
		char want[400];

		snprintf(want, sizeof(want), "groups[\"%s\"]", path);
		expect_error(s, want, "deeper than 32 levels");
	}
	/* 256 bytes: "/" and 255 letters */
	path[0] = '/';
	memset(path + 1, 'x', 255);
	path[256] = '\0';
	snprintf(s, sizeof(s),
		 "{" FMT "'groups':{'%s':{}},'tasks':[{'name':'a'," HOG "}]}",
		 path);
	{
		char want[400];

		snprintf(want, sizeof(want), "groups[\"%s\"]", path);
		expect_error(s, want, "longer than 255 bytes");
	}
}
END_TEST

START_TEST(bad_files_name_the_file)
{
	expect_group_error("{'cpu.wieght':300}",
			   "groups[\"/x\"][\"cpu.wieght\"]",
			   "unknown key 'cpu.wieght': did you mean "
			   "'cpu.weight'?");
	expect_group_error("{'cpu.shares':1024}",
			   "groups[\"/x\"][\"cpu.shares\"]",
			   "'cpu.shares' is cgroup v1's");
	expect_group_error("{'cpu.max.burst':1000}",
			   "groups[\"/x\"][\"cpu.max.burst\"]",
			   "is not modelled");
	expect_group_error("{'memory.max':1}", "groups[\"/x\"][\"memory.max\"]",
			   "unknown key 'memory.max' (valid: cpu.weight, "
			   "cpu.weight.nice, cpu.idle, cpu.max)");
	expect_group_error("{'cpu.idle':0,'cpu.idle':1}",
			   "groups[\"/x\"][\"cpu.idle\"]",
			   "duplicate key 'cpu.idle'");
	expect_group_error("{'cpu.weight':0}", "groups[\"/x\"][\"cpu.weight\"]",
			   "must be between 1 and 10000");
	expect_group_error("{'cpu.weight':10001}",
			   "groups[\"/x\"][\"cpu.weight\"]",
			   "must be between 1 and 10000");
	expect_group_error("{'cpu.weight':'300'}",
			   "groups[\"/x\"][\"cpu.weight\"]",
			   "must be an integer");
	expect_group_error("{'cpu.weight.nice':20}",
			   "groups[\"/x\"][\"cpu.weight.nice\"]",
			   "must be between -20 and 19");
	expect_group_error("{'cpu.weight':100,'cpu.weight.nice':0}",
			   "groups[\"/x\"][\"cpu.weight.nice\"]",
			   "cpu.weight and cpu.weight.nice are the same "
			   "setting: give one");
	expect_group_error("{'cpu.idle':2}", "groups[\"/x\"][\"cpu.idle\"]",
			   "must be between 0 and 1");
	expect_group_error("{'cpu.idle':[]}", "groups[\"/x\"][\"cpu.idle\"]",
			   "must be 0 or 1 (or false or true)");
	expect_group_error("{'cpu.idle':1,'cpu.weight':50}",
			   "groups[\"/x\"][\"cpu.weight\"]",
			   "an idle group (cpu.idle 1) has no weight");
	expect_group_error("{'cpu.weight.nice':1,'cpu.idle':true}",
			   "groups[\"/x\"][\"cpu.weight.nice\"]",
			   "an idle group (cpu.idle 1) has no weight");
	expect_group_error("{'cpu.weight':{'if':1,'then':0,'else':5}}",
			   "groups[\"/x\"][\"cpu.weight\"].then",
			   "must be between 1 and 10000");
}
END_TEST

START_TEST(bad_cpu_max_is_refused_as_the_kernel_does)
{
#define MAXP "groups[\"/x\"][\"cpu.max\"]"
	expect_group_error("{'cpu.max':''}", MAXP, "cpu.max is empty");
	expect_group_error("{'cpu.max':'abc'}", MAXP,
			   "bad cpu.max 'abc': QUOTA is a whole number of "
			   "microseconds or \"max\"");
	expect_group_error("{'cpu.max':'20.5 100000'}", MAXP,
			   "QUOTA is a whole number");
	expect_group_error("{'cpu.max':'20000 abc'}", MAXP,
			   "PERIOD is a whole number of microseconds");
	expect_group_error("{'cpu.max':'20000 100000 5'}", MAXP,
			   "more than two fields");
	expect_group_error("{'cpu.max':'999 100000'}", MAXP,
			   "cpu.max quota 999 us is below 1000 us");
	expect_group_error("{'cpu.max':'20000 999'}", MAXP,
			   "cpu.max period 999 us is outside 1000..1000000");
	expect_group_error("{'cpu.max':'20000 1000001'}", MAXP,
			   "cpu.max period 1000001 us is outside");
	expect_group_error("{'cpu.max':'max 0'}", MAXP,
			   "cpu.max period 0 us is outside");
	/* max_cfs_runtime: (2^44 - 1) us */
	expect_group_error("{'cpu.max':'17592186044416'}", MAXP,
			   "above the kernel's limit of 17592186044415 us");
	expect_group_error("{'cpu.max':20000}", MAXP,
			   "must be a string, \"QUOTA PERIOD\"");
	expect_group_error("{'cpu.max':{'quota':'20ms','burst':1}}", MAXP,
			   "unknown key 'burst'");
	expect_group_error("{'cpu.max':{'period':'1500ns'}}", MAXP ".period",
			   "must be a whole number of microseconds");
	expect_group_error("{'cpu.max':{'quota':'500us'}}", MAXP,
			   "cpu.max quota 500 us is below 1000 us");
	expect_group_error("{'cpu.max':{'quota':'mux'}}", MAXP ".quota",
			   "invalid duration");
	expect_group_error("{'cpu.max':{'period':'2s'}}", MAXP,
			   "cpu.max period 2000000 us is outside");
#undef MAXP
}
END_TEST

START_TEST(bad_sessions_name_the_session)
{
	expect_error("{" FMT "'sessions':[],'tasks':[{'name':'a'," HOG "}]}",
		     "sessions", "must be an object of session name");
	expect_error("{" FMT "'sessions':{'a b':{}},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "sessions[\"a b\"]", "invalid character ' ' in session");
	expect_error("{" FMT "'sessions':{'s':5},'tasks':[{'name':'a'," HOG
		     "}]}",
		     "sessions.s", "a session is an object");
	expect_error("{" FMT "'sessions':{'s':{'weight':5}},'tasks':[{'name':"
		     "'a'," HOG "}]}",
		     "sessions.s", "unknown key 'weight'");
	expect_error("{" FMT "'sessions':{'s':{'nice':20}},'tasks':[{'name':"
		     "'a'," HOG "}]}",
		     "sessions.s.nice", "must be between -20 and 19");
	expect_error("{" FMT "'sessions':{'s':{},'s':{}},'tasks':[{'name':"
		     "'a'," HOG "}]}",
		     "sessions.s", "duplicate session 's'");
}
END_TEST

START_TEST(bad_task_keys_name_the_key)
{
	expect_error("{" FMT "'groups':{'/web':{}},'tasks':[{'name':'a',"
		     "'cgroup':'/wbe'," HOG "}]}",
		     "tasks[0].cgroup",
		     "no group '/wbe' in \"groups\": did you mean '/web'?");
	expect_error("{" FMT "'groups':{'/web':{}},'tasks':[{'name':'a',"
		     "'cgroup':'/batch/jobs'," HOG "}]}",
		     "tasks[0].cgroup",
		     "no group '/batch/jobs' in \"groups\" (\"/\" is the "
		     "root)");
	expect_error("{" FMT "'tasks':[{'name':'a','cgroup':'/x'," HOG "}]}",
		     "tasks[0].cgroup",
		     "no group '/x': the workload has no \"groups\"");
	expect_error("{" FMT "'tasks':[{'name':'a','cgroup':5," HOG "}]}",
		     "tasks[0].cgroup", "must be a string");
	expect_error("{" FMT "'tasks':[{'name':'a','session':'a/b'," HOG "}]}",
		     "tasks[0].session", "invalid character '/' in session");
	expect_error("{" FMT
		     "'tasks':[{'name':'a','session':'s','setsid':true," HOG
		     "}]}",
		     "tasks[0].setsid",
		     "'setsid' and 'session' exclude each other");
	expect_error("{" FMT "'tasks':[{'name':'a','setsid':'yes'," HOG "}]}",
		     "tasks[0].setsid", "must be true or false");
	expect_error("{" FMT "'templates':{'k':{'cgroup':'/nope','program':"
		     "[{'run':1}]}},'tasks':[{'name':'a'," HOG "}]}",
		     "templates.k.cgroup", "no group '/nope'");
	expect_error("{" FMT "'groups':{'/g':{}},'tasks':[{'name':'a',"
		     "'program':[{'setattr':{'cgroup':'/h'}}]}]}",
		     "tasks[0].program[0].setattr.cgroup",
		     "no group '/h' in \"groups\": did you mean '/g'?");
	expect_error("{" FMT "'tasks':[{'name':'a','program':[{'setattr':"
		     "{'cgroup':null}}]}]}",
		     "tasks[0].program[0].setattr.cgroup", "must be a string");
}
END_TEST

/* ---- runs ---------------------------------------------------------------- */

START_TEST(equal_groups_of_one_and_nine_hogs_split_the_cpu)
{
	/*
	 * cpu.weight 100 is shares (100 * 1024 + 50) / 100 = 1024 for both
	 * groups (sched_weight_from_cgroup()).  On one CPU a group's
	 * entity gets the whole of it, calc_group_shares() = tg->shares x
	 * load / load: two entities of weight 1024 on the root cfs_rq,
	 * each half of the CPU whatever the tasks below them: 500 per
	 * mille, the one hog 500 and each of the nine 500 / 9 = 55.  EEVDF
	 * keeps each entity within a slice or so of its share: over 10 s
	 * well inside 5 per mille.
	 */
	eevdf_sim *sim = run_for(
		"{" FMT "'groups':{'/one':{},'/nine':{'cpu.weight':100}},"
		"'tasks':[{'name':'a','cgroup':'/one'," HOG "},"
		"{'name':'b','count':9,'cgroup':'/nine'," HOG "}]}",
		1, -1, 10000 * MS);

	CK_SHARE(group_of(sim, "/one").cpu_ns, 10000 * MS, 500, 5);
	CK_SHARE(group_of(sim, "/nine").cpu_ns, 10000 * MS, 500, 5);
	CK_SHARE(stats_of(sim, "a").cpu_ns, 10000 * MS, 500, 5);
	CK_SHARE(stats_of(sim, "b[4]").cpu_ns, 10000 * MS, 55, 2);
	ck_assert_str_eq(stats_of(sim, "b[8]").cgroup, "/nine");
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(weights_and_nested_groups_multiply)
{
	/*
	 * /q (100) and /p (100) split the CPU 1024 : 1024; inside /p, /p/x
	 * (100, 1024) and /p/y (300: (300 * 1024 + 50) / 100 = 3072) split
	 * its half 1 : 3.  So q 500, x 125 and y 375 per mille.
	 */
	eevdf_sim *sim = run_for(
		"{" FMT
		"'groups':{'/q':{},'/p/x':{},'/p/y':{'cpu.weight':300}},"
		"'tasks':[{'name':'q','cgroup':'/q'," HOG "},"
		"{'name':'x','cgroup':'/p/x'," HOG "},"
		"{'name':'y','count':2,'cgroup':'/p/y'," HOG "}]}",
		1, -1, 10000 * MS);

	CK_SHARE(group_of(sim, "/q").cpu_ns, 10000 * MS, 500, 5);
	CK_SHARE(group_of(sim, "/p").cpu_ns, 10000 * MS, 500, 5);
	CK_SHARE(group_of(sim, "/p/x").cpu_ns, 10000 * MS, 125, 5);
	CK_SHARE(group_of(sim, "/p/y").cpu_ns, 10000 * MS, 375, 5);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(weight_nice_is_the_nice_weight)
{
	/*
	 * cpu.weight.nice 5 is the weight of nice 5, 335, against the
	 * default group's 1024: 335 / 1359 = 246.5 per mille.
	 */
	eevdf_sim *sim = run_for(
		"{" FMT "'groups':{'/n':{'cpu.weight.nice':5},'/d':{}},"
		"'tasks':[{'name':'n','cgroup':'/n'," HOG "},"
		"{'name':'d','cgroup':'/d'," HOG "}]}",
		1, -1, 10000 * MS);

	CK_SHARE(group_of(sim, "/n").cpu_ns, 10000 * MS, 246, 5);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(cpu_max_caps_a_group_in_each_period)
{
	/*
	 * cpu.max "20000 100000": 20 ms of each 100 ms period for a hog
	 * that would take the whole CPU.  Over 1 s, 10 periods: 200 ms,
	 * the group throttled once in each (at 20 ms into it).  The quota
	 * is charged by update_curr() at the ticks and slice ends, so a
	 * period may run over by less than one 1 ms tick, which the next
	 * refill takes back (a debt): 200 ms, and at most one tick more
	 * from the last period.
	 */
	eevdf_sim *sim = run_for(
		"{" FMT "'groups':{'/c':{'cpu.max':'20000 100000'}},"
		"'tasks':[{'name':'c','cgroup':'/c'," HOG "}]}",
		1, -1, 1000 * MS);
	struct eevdf_group_stats g = group_of(sim, "/c");

	ck_assert_int_eq(g.max_quota, 20 * MS);
	ck_assert_int_eq(g.max_period, 100 * MS);
	ck_assert_int_ge(g.cpu_ns, 200 * MS);
	ck_assert_int_le(g.cpu_ns, 201 * MS);
	ck_assert_uint_eq(g.nr_throttled, 10);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(idle_group_yields_to_a_normal_one)
{
	/*
	 * cpu.idle 1 gives the group entity the weight of SCHED_IDLE, 3
	 * (WEIGHT_IDLEPRIO), against 1024: 3 / 1027 = 2.9 per mille.
	 */
	eevdf_sim *sim = run_for("{" FMT
				 "'groups':{'/bg':{'cpu.idle':1},'/fg':{}},"
				 "'tasks':[{'name':'b','cgroup':'/bg'," HOG "},"
				 "{'name':'f','cgroup':'/fg'," HOG "}]}",
				 1, -1, 10000 * MS);

	CK_SHARE(group_of(sim, "/bg").cpu_ns, 10000 * MS, 3, 3);
	eevdf_sim_free(sim);
}
END_TEST

/* 8 make-like workers in one session against one hog in another. */
#define MAKE_VS_HOG(nice)                                                      \
	"{" FMT "'sessions':{'make':{'nice':" nice "}},"                       \
	"'tasks':[{'name':'cc','count':8,'session':'make'," HOG "},"           \
	"{'name':'hog'," HOG "}]}"

START_TEST(autogroup_splits_by_session)
{
	/*
	 * Autogroup on: each session's tasks of the root cgroup are one
	 * group (the hog's is the run's own session 0), both of nice 0,
	 * 1024 : 1024: the 8 workers together 500 per mille, the hog 500.
	 */
	eevdf_sim *sim = run_for(MAKE_VS_HOG("0"), 1, 1, 10000 * MS);

	CK_SHARE(cpu_of(sim, "cc"), 10000 * MS, 500, 5);
	CK_SHARE(cpu_of(sim, "hog"), 10000 * MS, 500, 5);
	ck_assert_str_ne(stats_of(sim, "cc[0]").cgroup,
			 stats_of(sim, "hog").cgroup);
	ck_assert_str_eq(stats_of(sim, "cc[0]").cgroup,
			 stats_of(sim, "cc[7]").cgroup);
	eevdf_sim_free(sim);
	/* off: nine tasks of nice 0 on the root, 8/9 = 888.9 and 111.1 */
	sim = run_for(MAKE_VS_HOG("0"), 1, -1, 10000 * MS);
	CK_SHARE(cpu_of(sim, "cc"), 10000 * MS, 888, 5);
	CK_SHARE(cpu_of(sim, "hog"), 10000 * MS, 111, 5);
	ck_assert_str_eq(stats_of(sim, "hog").cgroup, "/");
	eevdf_sim_free(sim);
	/*
	 * The session's nice 5 is its autogroup's weight, 335: 335 / 1359
	 * = 246.5 per mille for the workers.
	 */
	sim = run_for(MAKE_VS_HOG("5"), 1, 1, 10000 * MS);
	CK_SHARE(cpu_of(sim, "cc"), 10000 * MS, 246, 5);
	eevdf_sim_free(sim);
	/* with autogroup off the nice makes no group */
	sim = run_for(MAKE_VS_HOG("5"), 1, -1, 1 * MS);
	ck_assert_uint_eq(eevdf_sim_nr_groups(sim), 1);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(setattr_moves_the_task_now)
{
	/*
	 * Alone on the CPU at zero cost: 100 ms of work in /a, then 200 ms
	 * in /b; the move itself costs nothing here.
	 */
	eevdf_sim *sim = run_for(
		"{" FMT "'groups':{'/a':{},'/b':{}},"
		"'tasks':[{'name':'t','cgroup':'/a','program':[{'run':'100ms'},"
		"{'setattr':{'cgroup':'/b'}},{'run':'200ms'}]}]}",
		1, -1, 1000 * MS);

	ck_assert_int_eq(group_of(sim, "/a").cpu_ns, 100 * MS);
	ck_assert_int_eq(group_of(sim, "/b").cpu_ns, 200 * MS);
	ck_assert_str_eq(stats_of(sim, "t").cgroup, "/b");
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(spawned_children_inherit_unless_the_template_says)
{
	/*
	 * The parent is in /a and session s.  kid inherits both; other's
	 * template puts it in /b; lone's setsid gives each instance a
	 * session of its own; named joins session t.  With autogroup on,
	 * tasks in the root cgroup are in their session's autogroup.
	 */
	eevdf_sim *sim = run_for(
		"{" FMT "'groups':{'/a':{},'/b':{}},"
		"'templates':{"
		"'kid':{'program':[{'run':'1ms'},{'sleep':'1s'}]},"
		"'other':{'cgroup':'/b','program':[{'run':'1ms'},"
		"{'sleep':'1s'}]},"
		"'lone':{'cgroup':'/','setsid':true,'program':[{'run':'1ms'},"
		"{'sleep':'1s'}]},"
		"'named':{'cgroup':'/','session':'t','program':[{'run':'1ms'},"
		"{'sleep':'1s'}]},"
		"'rooted':{'cgroup':'/','program':[{'run':'1ms'},"
		"{'sleep':'1s'}]}},"
		"'tasks':[{'name':'p','cgroup':'/a','session':'s','program':["
		"{'spawn':{'template':'kid'}},{'spawn':{'template':'other'}},"
		"{'spawn':{'template':'lone','count':2}},"
		"{'spawn':{'template':'named'}},"
		"{'spawn':{'template':'rooted'}},{'sleep':'1s'}]},"
		"{'name':'q','session':'t','program':[{'sleep':'1s'}]},"
		"{'name':'r','session':'s','program':[{'sleep':'1s'}]}]}",
		1, 1, 100 * MS);
	const char *q = stats_of(sim, "q").cgroup;
	const char *r = stats_of(sim, "r").cgroup;

	ck_assert_str_eq(stats_of(sim, "kid[0]").cgroup, "/a");
	ck_assert_str_eq(stats_of(sim, "other[0]").cgroup, "/b");
	ck_assert_str_eq(stats_of(sim, "named[0]").cgroup, q);
	/* rooted keeps its parent's session s: r's autogroup */
	ck_assert_str_eq(stats_of(sim, "rooted[0]").cgroup, r);
	ck_assert_str_ne(q, r);
	ck_assert(strncmp(stats_of(sim, "lone[0]").cgroup, "/autogroup-", 11) ==
		  0);
	ck_assert_str_ne(stats_of(sim, "lone[0]").cgroup,
			 stats_of(sim, "lone[1]").cgroup);
	ck_assert_str_ne(stats_of(sim, "lone[0]").cgroup, q);
	ck_assert_str_ne(stats_of(sim, "lone[0]").cgroup, r);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(setsid_tasks_lead_sessions_of_their_own)
{
	/*
	 * Autogroup on: two setsid hogs and one of the run's session, each
	 * in its own autogroup of weight 1024: a third of the CPU each.
	 */
	eevdf_sim *sim = run_for("{" FMT "'tasks':[{'name':'d','count':2,"
				 "'setsid':true," HOG "},{'name':'h'," HOG
				 "}]}",
				 1, 1, 9000 * MS);

	CK_SHARE(stats_of(sim, "d[0]").cpu_ns, 9000 * MS, 333, 5);
	CK_SHARE(stats_of(sim, "d[1]").cpu_ns, 9000 * MS, 333, 5);
	CK_SHARE(stats_of(sim, "h").cpu_ns, 9000 * MS, 333, 5);
	eevdf_sim_free(sim);
}
END_TEST

START_TEST(group_order_does_not_depend_on_the_file)
{
	/* the same workload with its groups in two orders: same results */
	static const char *const files[] = {
		"{" FMT "'groups':{'/b':{'cpu.weight':200},'/a/x':{},"
		"'/a/y':{'cpu.weight':50}},"
		"'tasks':[{'name':'p','count':3,'cgroup':'/a/x'," HOG "},"
		"{'name':'q','count':2,'cgroup':'/a/y'," HOG "},"
		"{'name':'r','cgroup':'/b'," HOG "}]}",
		"{" FMT "'groups':{'/a/y':{'cpu.weight':50},'/a/x':{},"
		"'/b':{'cpu.weight':200}},"
		"'tasks':[{'name':'p','count':3,'cgroup':'/a/x'," HOG "},"
		"{'name':'q','count':2,'cgroup':'/a/y'," HOG "},"
		"{'name':'r','cgroup':'/b'," HOG "}]}",
	};
	eevdf_time cpu[2][6];

	for (int f = 0; f < 2; f++) {
		eevdf_sim *sim = run_for(files[f], 2, -1, 2000 * MS);

		for (size_t i = 0; i < 6; i++) {
			struct eevdf_task_stats st;

			ck_assert_int_eq(eevdf_sim_task_stats(sim, i, &st), 0);
			cpu[f][i] = st.cpu_ns;
		}
		eevdf_sim_free(sim);
	}
	for (size_t i = 0; i < 6; i++)
		ck_assert_int_eq(cpu[0][i], cpu[1][i]);
}
END_TEST

START_TEST(shipped_workloads_give_the_worked_splits)
{
	static const char *const equal[] = { "web_weight=100" };
	static const char *const uncapped[] = { "quota=max" };
	eevdf_sim *sim;

	/*
	 * cgroup-shares: /web 300 (3072) against /batch 100 (1024) at the
	 * top, 750 and 250 per mille; /batch's children /batch/small 100
	 * and /batch/big 300 split its 250 1 : 3, 62.5 and 187.5, the
	 * nine hogs of /batch/big taking no more than one would.
	 * Autogroup does not touch tasks outside the root cgroup, so it is
	 * on here as by default.
	 */
	sim = run_shipped("cgroup-shares", NULL, 0, 1, 10000 * MS);
	CK_SHARE(group_of(sim, "/web").cpu_ns, 10000 * MS, 750, 5);
	CK_SHARE(group_of(sim, "/batch").cpu_ns, 10000 * MS, 250, 5);
	CK_SHARE(group_of(sim, "/batch/small").cpu_ns, 10000 * MS, 62, 5);
	CK_SHARE(group_of(sim, "/batch/big").cpu_ns, 10000 * MS, 187, 5);
	eevdf_sim_free(sim);
	/* web_weight=100: 1024 : 1024 at the top */
	sim = run_shipped("cgroup-shares", equal, 1, 1, 10000 * MS);
	CK_SHARE(group_of(sim, "/web").cpu_ns, 10000 * MS, 500, 5);
	eevdf_sim_free(sim);

	/*
	 * cpu-max: /batch may run 20 ms per 100 ms period and its two hogs
	 * always want more, so it is throttled in each of the 10 s / 100
	 * ms = 100 periods and gets 200 per mille (give or take the one
	 * tick a period may overrun, taken back at the next refill);
	 * /service the other 800.  Uncapped, two groups of weight 100:
	 * 500 each.
	 */
	sim = run_shipped("cpu-max", NULL, 0, 1, 10000 * MS);
	CK_SHARE(group_of(sim, "/batch").cpu_ns, 10000 * MS, 200, 1);
	CK_SHARE(group_of(sim, "/service").cpu_ns, 10000 * MS, 800, 1);
	ck_assert_uint_eq(group_of(sim, "/batch").nr_throttled, 100);
	eevdf_sim_free(sim);
	sim = run_shipped("cpu-max", uncapped, 1, 1, 10000 * MS);
	CK_SHARE(group_of(sim, "/batch").cpu_ns, 10000 * MS, 500, 5);
	ck_assert_uint_eq(group_of(sim, "/batch").nr_throttled, 0);
	eevdf_sim_free(sim);

	/*
	 * autogroup-make: make (session build) spawns eight compiler hogs
	 * that inherit its session; the hog leads a session of its own.
	 * Autogroup on: two autogroups of nice 0, 1024 : 1024, the eight
	 * together 500 per mille and the hog 500.  Off: nine nice-0 hogs on
	 * the root, the eight 8/9 = 888.9, the hog 111.1.
	 */
	sim = run_shipped("autogroup-make", NULL, 0, 1, 10000 * MS);
	CK_SHARE(cpu_of(sim, "cc"), 10000 * MS, 500, 5);
	CK_SHARE(cpu_of(sim, "hog"), 10000 * MS, 500, 5);
	ck_assert_str_eq(stats_of(sim, "cc[7]").cgroup,
			 stats_of(sim, "make").cgroup);
	ck_assert_str_ne(stats_of(sim, "cc[0]").cgroup,
			 stats_of(sim, "hog").cgroup);
	eevdf_sim_free(sim);
	sim = run_shipped("autogroup-make", NULL, 0, -1, 10000 * MS);
	CK_SHARE(cpu_of(sim, "cc"), 10000 * MS, 888, 5);
	CK_SHARE(cpu_of(sim, "hog"), 10000 * MS, 111, 5);
	eevdf_sim_free(sim);
}
END_TEST

Suite *wl_groups_suite(void)
{
	Suite *s = suite_create("wl_groups");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, groups_keep_every_file_in_each_form);
	tcase_add_test(tc, groups_are_sorted_with_the_parents_they_imply);
	tcase_add_test(tc, groups_take_params_choices_and_null);
	tcase_add_test(tc, sessions_are_numbered_by_name);
	tcase_add_test(tc, task_cgroup_names_a_group_or_the_root);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, bad_groups_name_the_path);
	tcase_add_test(tc, paths_too_long_or_too_deep_are_refused);
	tcase_add_test(tc, bad_files_name_the_file);
	tcase_add_test(tc, bad_cpu_max_is_refused_as_the_kernel_does);
	tcase_add_test(tc, bad_sessions_name_the_session);
	tcase_add_test(tc, bad_task_keys_name_the_key);
	suite_add_tcase(s, tc);
	tc = tcase_create("runs");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, equal_groups_of_one_and_nine_hogs_split_the_cpu);
	tcase_add_test(tc, weights_and_nested_groups_multiply);
	tcase_add_test(tc, weight_nice_is_the_nice_weight);
	tcase_add_test(tc, cpu_max_caps_a_group_in_each_period);
	tcase_add_test(tc, idle_group_yields_to_a_normal_one);
	tcase_add_test(tc, autogroup_splits_by_session);
	tcase_add_test(tc, setattr_moves_the_task_now);
	tcase_add_test(tc, spawned_children_inherit_unless_the_template_says);
	tcase_add_test(tc, setsid_tasks_lead_sessions_of_their_own);
	tcase_add_test(tc, group_order_does_not_depend_on_the_file);
	tcase_add_test(tc, shipped_workloads_give_the_worked_splits);
	suite_add_tcase(s, tc);
	return s;
}
