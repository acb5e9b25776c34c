/* SPDX-License-Identifier: MIT */
/*
 * eevdf-sim explain: one CPU's run queue at an instant, drawn the way a
 * scheduler hacker draws it (each entity's weight, lag, deadline, slice,
 * eligibility, the V line), which entity pick_eevdf() returns there and
 * by which rule, then the next decisions on that CPU with the rule of
 * each.  The run up to the instant is unobserved (the same run as 'run');
 * decisions are asked for only from then on (eevdf_sim_trace_detail()).
 * Every number is the model's integer, in ns, shown in us or ms.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"

#define DRAW_WIDTH 48

struct decision {
	eevdf_time t;
	int rule, pid, prev, pick_pid, pick_rule;
	char group[EEVDF_GROUP_PATH_MAX]; /* the level that decided */
	struct eevdf_entity_state s;	  /* of pid, at the decision */
	struct eevdf_rq_state rq;
};

struct explain {
	eevdf_sim *sim;
	int cpu;
	eevdf_time at;
	int want, got;
	bool on;
	bool json;
	struct decision *d;
};

static void on_event(void *ud, const struct eevdf_trace_event *ev)
{
	struct explain *x = ud;
	struct decision *d;

	if (!x->on || ev->kind != EEVDF_TRACE_DECISION || ev->cpu != x->cpu ||
	    x->got >= x->want)
		return;
	d = &x->d[x->got++];
	d->t = ev->time;
	d->rule = ev->rule;
	d->pid = ev->pid;
	d->prev = ev->prev_pid;
	d->pick_pid = ev->pick_pid;
	d->pick_rule = ev->pick_rule;
	snprintf(d->group, sizeof(d->group), "%s", ev->group ? ev->group : "");
	memset(&d->s, 0, sizeof(d->s));
	if (ev->pid > 0)
		eevdf_sim_task_state(x->sim, ev->pid, &d->s);
	eevdf_sim_rq_state(x->sim, ev->cpu, &d->rq);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " explain WORKLOAD.json --at TIME [--cpu N] "
		"[--decisions K]\n"
		"                 [--format text|json] [run OPTIONS]\n"
		"\n"
		"Run WORKLOAD.json to TIME and show CPU N's run queue as the "
		"model holds\n"
		"it then: every fair entity's weight, vlag (V - vruntime), lag, "
		"deadline - V,\n"
		"slice, eligibility and state, the V line, and which entity "
		"pick_eevdf()\n"
		"returns and by which rule; then the next K decisions on that "
		"CPU, each\n"
		"with its rule (wakeup preemption denied by RUN_TO_PARITY, "
		"slice expiry, ...).\n"
		"\n"
		"Options:\n"
		"  --at TIME         the instant, a duration (1.5s, 1500ms): "
		"after every\n"
		"                    event at TIME\n"
		"  --cpu N           the CPU (default 0)\n"
		"  --decisions K     how many decisions to follow, 0..1000 "
		"(default 5)\n"
		"  --format FMT      text (default) or json\n"
		"  -h, --help        show this help\n"
		"\n"
		"Any 'run' option that shapes the run may follow: --kernel, "
		"--features,\n"
		"--cpus, --machine, --param, --seed, --hz, --sysctl, --duration, "
		"--input.\n");
}

/* Scan explain's own options out of argv into x; the rest into rest. */
static int parse(int argc, char **argv, struct explain *x, char **rest,
		 int *nrest)
{
	bool have_at = false;
	char *end;

	*nrest = 0;
	rest[(*nrest)++] = argv[0];
	x->want = 5;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		const char *const opts[] = { "--at", "--cpu", "--decisions",
					     "--format" };
		int k;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
		k = cli_own_option("explain", argc, argv, &i, opts,
				   ARRAY_LEN(opts), &v);
		if (k < 0)
			return EXIT_USAGE;
		if (k == (int)ARRAY_LEN(opts)) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (k == 0) {
			if (*v >= '0' && *v <= '9' &&
			    strspn(v, "0123456789") == strlen(v)) {
				cli_error("--at: '%s' has no unit: write %sns, "
					  "%sus, %sms or %ss",
					  v, v, v, v, v);
				return EXIT_USAGE;
			}
			if (eevdf_parse_duration(v, INT64_MAX, &x->at) < 0) {
				cli_error("--at: invalid time '%s': expected a "
					  "number with a unit ns|us|ms|s, e.g. "
					  "1.5s",
					  v);
				return EXIT_USAGE;
			}
			have_at = true;
		} else if (k == 1 || k == 2) {
			long n = strtol(v, &end, 10);
			long hi = k == 1 ? EEVDF_MAX_CPUS - 1 : 1000;

			if (!*v || *end || n < 0 || n > hi || *v == '-' ||
			    *v == '+') {
				cli_error("%s: expected an integer 0..%ld, got "
					  "'%s'",
					  opts[k], hi, v);
				return EXIT_USAGE;
			}
			if (k == 1)
				x->cpu = (int)n;
			else
				x->want = (int)n;
		} else if (strcmp(v, "json") == 0 || strcmp(v, "text") == 0) {
			x->json = v[0] == 'j';
		} else {
			cli_error("--format: expected text or json, got '%s'",
				  v);
			return EXIT_USAGE;
		}
	}
	if (!have_at) {
		cli_error("explain: --at TIME is required (the instant to "
			  "explain)");
		return EXIT_USAGE;
	}
	return -1;
}

/* "name:pid", or "idle" */
static const char *who(const eevdf_sim *sim, int pid, char *buf, size_t len)
{
	struct eevdf_task_stats st;

	if (pid < 1 || eevdf_sim_task_stats(sim, (size_t)pid - 1, &st) < 0) {
		snprintf(buf, len, "idle");
		return buf;
	}
	snprintf(buf, len, "%s:%d", st.name, pid);
	return buf;
}

/* An entity's name: the task's "name:pid", or "group PATH". */
static const char *label(const eevdf_sim *sim,
			 const struct eevdf_entity_state *s, char *buf,
			 size_t len)
{
	if (s->pid == 0 && s->my_group) {
		snprintf(buf, len, "group %s", s->my_group);
		return buf;
	}
	return who(sim, s->pid, buf, len);
}

/* ns as us with three decimals, signed: exact */
static void us(char *buf, size_t len, int64_t ns, bool sign)
{
	uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%" PRIu64 ".%03" PRIu64,
		 ns < 0 ? "-" :
		 sign	? "+" :
			  "",
		 a / 1000, a % 1000);
}

static void state_words(const struct eevdf_entity_state *s, char *buf,
			size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (s->running)
		n += (size_t)snprintf(buf + n, len - n, "running");
	if (s->protected_slice && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sprotected",
				      n ? ", " : "");
	if (s->delayed && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sdelayed",
				      n ? ", " : "");
	if (s->next_buddy && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%snext buddy",
				      n ? ", " : "");
	if (s->custom_slice && n < len)
		snprintf(buf + n, len - n, "%scustom slice", n ? ", " : "");
}

/* A column of the drawing for virtual time v. */
static int col(int64_t v, int64_t lo, int64_t hi)
{
	double f = hi > lo ? (double)(v - lo) / (double)(hi - lo) : 0.5;

	return (int)lround(f * (DRAW_WIDTH - 1));
}

/* A row of the V line, without the spaces the drawing ends with. */
static void put_row(const char *name, char *line)
{
	size_t k = strlen(line);

	while (k > 0 && line[k - 1] == ' ')
		line[--k] = '\0';
	printf("  %-22s %s\n", name, line);
}

/*
 * The V line of one run queue (group): each of its entities as
 * [vruntime ... deadline) on one axis of virtual time, V a vertical bar
 * through all of them.  Offsets from V (-vlag, deadline - V) are exact;
 * only the columns are rounded.
 */
static void draw(const eevdf_sim *sim, const struct eevdf_entity_state *e,
		 int n, const char *group, bool many)
{
	int64_t lo = 0, hi = 0;
	char line[DRAW_WIDTH + 1], name[EEVDF_GROUP_PATH_MAX + 16], a[32],
		b[32];
	int vcol;

	for (int i = 0; i < n; i++) {
		if (strcmp(e[i].group, group) != 0)
			continue;
		if (-e[i].vlag < lo)
			lo = -e[i].vlag;
		if (e[i].deadline_v > hi)
			hi = e[i].deadline_v;
		if (-e[i].vlag > hi)
			hi = -e[i].vlag;
	}
	vcol = col(0, lo, hi);
	if (many)
		printf("\n  the queue of group %s:\n", group);
	else
		printf("\n  the V line: each entity from its vruntime [ to its "
		       "deadline ), V at |\n");
	memset(line, ' ', DRAW_WIDTH);
	line[DRAW_WIDTH] = '\0';
	line[vcol] = 'V';
	put_row("", line);
	for (int i = 0; i < n; i++) {
		int c0 = col(-e[i].vlag, lo, hi);
		int c1 = col(e[i].deadline_v, lo, hi);

		if (strcmp(e[i].group, group) != 0)
			continue;
		memset(line, ' ', DRAW_WIDTH);
		for (int c = c0; c <= c1 && c < DRAW_WIDTH; c++)
			line[c] = '=';
		if (line[vcol] == '=')
			line[vcol] = '|';
		else
			line[vcol] = ':';
		line[c0] = '[';
		if (c1 > c0)
			line[c1] = ')';
		put_row(label(sim, &e[i], name, sizeof(name)), line);
	}
	us(a, sizeof(a), lo, true);
	us(b, sizeof(b), hi, true);
	printf("  %-22s %-*s%*s\n", "(us from V)", DRAW_WIDTH / 2, a,
	       DRAW_WIDTH - DRAW_WIDTH / 2, b);
}

static void print_rq(const eevdf_sim *sim, const struct explain *x,
		     const struct eevdf_rq_state *rq,
		     const struct eevdf_entity_state *e, int n,
		     const struct eevdf_pick_level *lv, int nlv)
{
	char name[EEVDF_GROUP_PATH_MAX + 16], vl[32], lg[32], dv[32], sw[64],
		ind[EEVDF_GROUP_PATH_MAX + 48];
	bool many = false;

	for (int i = 0; i < n; i++)
		many |= e[i].depth > 0;
	printf("CPU %d at %" PRId64 ".%06" PRId64 " s: ", x->cpu,
	       x->at / 1000000000, x->at / 1000 % 1000000);
	if (rq->curr_pid < 0)
		printf("idle");
	else
		printf("running %s",
		       who(sim, rq->curr_pid, name, sizeof(name)));
	printf("; %u fair task%s queued (%u delayed), load %" PRIu64
	       ", V = %" PRId64 " ns\n",
	       rq->h_nr_queued, rq->h_nr_queued == 1 ? "" : "s", rq->nr_delayed,
	       rq->load, (int64_t)rq->V);
	if (!rq->eevdf)
		printf("(cfs-6.1: CFS picks the smallest vruntime; deadlines "
		       "and eligibility do not decide)\n");
	for (int i = 0; i < n; i++) {
		char t[32];

		if (!e[i].running || !e[i].curr_exec_ns || e[i].pid <= 0)
			continue;
		us(t, sizeof(t), e[i].curr_exec_ns, false);
		printf("(values as the model holds them: %s has run %s us "
		       "since its last update_curr())\n",
		       who(sim, e[i].pid, name, sizeof(name)), t);
	}
	if (!n)
		return;
	if (many)
		printf("(each entity's V, lag and deadline are its own queue's, "
		       "its group's; a\n group's entity is followed by what is "
		       "queued in it)\n");
	printf("\n  %-22s %6s %12s %12s %13s %8s %4s  %s\n", "entity", "weight",
	       "vlag us", "lag us", "deadline-V us", "slice ms", "elig",
	       "state");
	for (int i = 0; i < n; i++) {
		const struct eevdf_entity_state *s = &e[i];

		us(vl, sizeof(vl), s->vlag, true);
		/* lag in ns of CPU time: w (V - v) / 1024, formatted */
		snprintf(lg, sizeof(lg), "%+.3f",
			 (double)s->lag / 1024.0 / 1000.0);
		us(dv, sizeof(dv), s->deadline_v, true);
		state_words(s, sw, sizeof(sw));
		snprintf(ind, sizeof(ind), "%*s%s", 2 * s->depth, "",
			 label(sim, s, name, sizeof(name)));
		printf("%c %-22s %6" PRIu64 " %12s %12s %13s %8.3f %4s%s%s\n",
		       s->running ? '*' : ' ', ind, s->weight, vl, lg, dv,
		       (double)s->slice / 1e6, s->eligible ? "yes" : "no",
		       sw[0] ? "  " : "", sw);
	}
	/* a V line per queue, in the order the walk met them */
	if (many && rq->eevdf)
		printf("\n  the V line of each queue: each entity from its "
		       "vruntime [ to its\n  deadline ), V at |\n");
	for (int i = 0; rq->eevdf && i < n; i++) {
		bool seen = false;

		for (int k = 0; k < i && !seen; k++)
			seen = strcmp(e[k].group, e[i].group) == 0;
		if (!seen)
			draw(sim, e, n, e[i].group, many);
	}
	if (nlv == 1) {
		const char *t = eevdf_rule_text(lv[0].rule);
		const char *r = eevdf_rule_name(lv[0].rule);

		printf("\npick_eevdf() returns %s: %s (%s)\n",
		       lv[0].pid ? who(sim, lv[0].pid, name, sizeof(name)) :
				   "a group's entity",
		       t ? t : "-", r ? r : "-");
		return;
	}
	printf("\nthe pick, level by level from the CPU's queue down:\n");
	for (int i = 0; i < nlv; i++) {
		const char *t = eevdf_rule_text(lv[i].rule);
		const char *r = eevdf_rule_name(lv[i].rule);

		if (lv[i].picked_group)
			snprintf(name, sizeof(name), "group %s",
				 lv[i].picked_group);
		else
			who(sim, lv[i].pid, name, sizeof(name));
		printf("  in %s: pick_eevdf() returns %s: %s (%s)\n",
		       lv[i].group, name, t ? t : "-", r ? r : "-");
	}
}

static void print_decision(const eevdf_sim *sim, const struct decision *d)
{
	char a[EEVDF_NAME_MAX + 16], b[EEVDF_NAME_MAX + 16], vl[32], dv[32];
	const char *text = eevdf_rule_text((enum eevdf_rule)d->rule);

	if (d->pid == 0)
		snprintf(a, sizeof(a), "a group's entity");
	else
		who(sim, d->pid, a, sizeof(a));
	printf("  %" PRId64 ".%06" PRId64 " s  %-22s %s\n", d->t / 1000000000,
	       d->t / 1000 % 1000000, a,
	       eevdf_rule_name((enum eevdf_rule)d->rule) ?
		       eevdf_rule_name((enum eevdf_rule)d->rule) :
		       "?");
	printf("%13s %s\n", "", text ? text : "");
	if (d->group[0] && strcmp(d->group, "/") != 0)
		printf("%13s in the queue of group %s\n", "", d->group);
	if (d->pick_pid == 0)
		printf("%13s pick_eevdf() chose a group's entity: %s\n", "",
		       eevdf_rule_text((enum eevdf_rule)d->pick_rule) ?
			       eevdf_rule_text((enum eevdf_rule)d->pick_rule) :
			       "-");
	else if (d->pick_pid > 0 && d->pick_pid != d->pid)
		printf("%13s pick_eevdf() chose %s: %s\n", "",
		       who(sim, d->pick_pid, b, sizeof(b)),
		       eevdf_rule_text((enum eevdf_rule)d->pick_rule) ?
			       eevdf_rule_text((enum eevdf_rule)d->pick_rule) :
			       "-");
	if (d->prev > 0 && d->prev != d->pid)
		printf("%13s curr was %s\n", "",
		       who(sim, d->prev, b, sizeof(b)));
	if (d->s.fair && d->s.on_rq) {
		us(vl, sizeof(vl), d->s.vlag, true);
		us(dv, sizeof(dv), d->s.deadline_v, true);
		printf("%13s at it: vlag %s us, deadline-V %s us, %s; its "
		       "queue's V = %" PRId64 " ns; %u task%s queued\n",
		       "", vl, dv, d->s.eligible ? "eligible" : "not eligible",
		       (int64_t)d->s.V, d->rq.h_nr_queued,
		       d->rq.h_nr_queued == 1 ? "" : "s");
	}
}

static cJSON *entity_json(const eevdf_sim *sim,
			  const struct eevdf_entity_state *s)
{
	cJSON *o = cJSON_CreateObject();
	char name[EEVDF_GROUP_PATH_MAX + 16];

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "pid", s->pid);
	cJSON_AddStringToObject(o, "task", label(sim, s, name, sizeof(name)));
	cJSON_AddNumberToObject(o, "cpu", s->cpu);
	cJSON_AddStringToObject(o, "group", s->group ? s->group : "/");
	if (s->my_group)
		cJSON_AddStringToObject(o, "my_group", s->my_group);
	cJSON_AddNumberToObject(o, "depth", s->depth);
	cJSON_AddBoolToObject(o, "fair", s->fair);
	cJSON_AddBoolToObject(o, "on_rq", s->on_rq);
	cJSON_AddBoolToObject(o, "running", s->running);
	cJSON_AddBoolToObject(o, "delayed", s->delayed);
	cJSON_AddBoolToObject(o, "eligible", s->eligible);
	cJSON_AddBoolToObject(o, "protected", s->protected_slice);
	cJSON_AddBoolToObject(o, "custom_slice", s->custom_slice);
	cJSON_AddBoolToObject(o, "next_buddy", s->next_buddy);
	cJSON_AddNumberToObject(o, "weight", (double)s->weight);
	/* virtual times are u64 and may exceed 2^53: strings, exactly */
	{
		char b[32];

		snprintf(b, sizeof(b), "%" PRIu64, s->vruntime);
		cJSON_AddStringToObject(o, "vruntime", b);
		snprintf(b, sizeof(b), "%" PRIu64, s->deadline);
		cJSON_AddStringToObject(o, "deadline", b);
		snprintf(b, sizeof(b), "%" PRIu64, s->V);
		cJSON_AddStringToObject(o, "V", b);
		snprintf(b, sizeof(b), "%" PRId64, s->lag);
		cJSON_AddStringToObject(o, "lag", b);
	}
	cJSON_AddNumberToObject(o, "vlag", (double)s->vlag);
	cJSON_AddNumberToObject(o, "deadline_v", (double)s->deadline_v);
	cJSON_AddNumberToObject(o, "slice", (double)s->slice);
	return o;
}

static cJSON *rq_json(const struct eevdf_rq_state *rq)
{
	cJSON *o = cJSON_CreateObject();
	char b[32];

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "cpu", rq->cpu);
	cJSON_AddNumberToObject(o, "curr_pid", rq->curr_pid);
	cJSON_AddNumberToObject(o, "nr_running", rq->nr_running);
	cJSON_AddNumberToObject(o, "nr_queued", rq->nr_queued);
	cJSON_AddNumberToObject(o, "h_nr_queued", rq->h_nr_queued);
	cJSON_AddNumberToObject(o, "nr_delayed", rq->nr_delayed);
	cJSON_AddNumberToObject(o, "load", (double)rq->load);
	snprintf(b, sizeof(b), "%" PRIu64, rq->V);
	cJSON_AddStringToObject(o, "V", b);
	cJSON_AddBoolToObject(o, "eevdf", rq->eevdf);
	return o;
}

static int print_json(const eevdf_sim *sim, const struct explain *x,
		      const struct eevdf_rq_state *rq,
		      const struct eevdf_entity_state *e, int n,
		      const struct eevdf_pick_level *lv, int nlv)
{
	cJSON *root = cJSON_CreateObject(), *arr, *p, *ds;
	enum eevdf_rule rule = nlv ? lv[nlv - 1].rule : EEVDF_RULE_NONE;
	char *text;

	if (!root)
		return EXIT_USAGE;
	cJSON_AddStringToObject(root, "format", "eevdf-sim-explain/1");
	cJSON_AddStringToObject(root, "kernel", eevdf_sim_kernel(sim));
	cJSON_AddNumberToObject(root, "time", (double)x->at);
	cJSON_AddNumberToObject(root, "cpu", x->cpu);
	cJSON_AddItemToObject(root, "rq", rq_json(rq));
	arr = cJSON_AddArrayToObject(root, "entities");
	for (int i = 0; arr && i < n; i++)
		cJSON_AddItemToArray(arr, entity_json(sim, &e[i]));
	p = cJSON_AddObjectToObject(root, "pick");
	if (p) {
		cJSON *levels;

		cJSON_AddNumberToObject(p, "pid", nlv ? lv[nlv - 1].pid : -1);
		cJSON_AddStringToObject(
			p, "rule",
			eevdf_rule_name(rule) ? eevdf_rule_name(rule) : "none");
		levels = cJSON_AddArrayToObject(p, "levels");
		for (int i = 0; levels && i < nlv; i++) {
			cJSON *l = cJSON_CreateObject();
			const char *r = eevdf_rule_name(lv[i].rule);

			if (!l)
				break;
			cJSON_AddItemToArray(levels, l);
			cJSON_AddStringToObject(l, "group", lv[i].group);
			cJSON_AddNumberToObject(l, "pid", lv[i].pid);
			if (lv[i].picked_group)
				cJSON_AddStringToObject(l, "picked_group",
							lv[i].picked_group);
			cJSON_AddStringToObject(l, "rule", r ? r : "none");
		}
	}
	ds = cJSON_AddArrayToObject(root, "decisions");
	for (int i = 0; ds && i < x->got; i++) {
		const struct decision *d = &x->d[i];
		cJSON *o = cJSON_CreateObject();
		const char *rn = eevdf_rule_name((enum eevdf_rule)d->rule);
		const char *pn = eevdf_rule_name((enum eevdf_rule)d->pick_rule);

		if (!o)
			break;
		cJSON_AddItemToArray(ds, o);
		cJSON_AddNumberToObject(o, "time", (double)d->t);
		cJSON_AddStringToObject(o, "rule", rn ? rn : "?");
		cJSON_AddNumberToObject(o, "pid", d->pid);
		cJSON_AddNumberToObject(o, "prev_pid", d->prev);
		cJSON_AddNumberToObject(o, "pick_pid", d->pick_pid);
		cJSON_AddStringToObject(o, "pick_rule", pn ? pn : "none");
		if (d->group[0])
			cJSON_AddStringToObject(o, "group", d->group);
		if (d->pid > 0)
			cJSON_AddItemToObject(o, "state",
					      entity_json(sim, &d->s));
		cJSON_AddItemToObject(o, "rq", rq_json(&d->rq));
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	puts(text);
	cJSON_free(text);
	return EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
	struct explain x;
	struct cli_built b;
	struct eevdf_rq_state rq;
	struct eevdf_entity_state *e = NULL;
	struct eevdf_pick_level lv[EEVDF_GROUP_DEPTH_MAX + 2];
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	int nrest, rc, n, nlv;

	memset(&x, 0, sizeof(x));
	memset(&b, 0, sizeof(b));
	if (!rest) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	rc = parse(argc, argv, &x, rest, &nrest);
	if (rc >= 0)
		goto out;
	x.d = calloc((size_t)x.want + 1, sizeof(*x.d));
	rc = x.d ? cli_run_build(nrest, rest, on_event, &x, false, &b) :
		   EXIT_USAGE;
	if (rc != EXIT_OK)
		goto out;
	x.sim = b.sim;
	rc = EXIT_USAGE;
	if (x.cpu >= eevdf_sim_nr_cpus(b.sim)) {
		cli_error("--cpu: the machine has CPUs 0..%d, not %d",
			  eevdf_sim_nr_cpus(b.sim) - 1, x.cpu);
		goto out;
	}
	if (x.at > b.duration) {
		cli_error("--at: %" PRId64 " ns is after the run's end at "
			  "%" PRId64 " ns (--duration sets it)",
			  x.at, b.duration);
		goto out;
	}
	if (eevdf_sim_run(b.sim, x.at) < 0) {
		cli_error("%s: simulation failed at %" PRId64 " ns: %s",
			  b.workload, eevdf_sim_now(b.sim),
			  eevdf_sim_errmsg(b.sim));
		goto out;
	}
	eevdf_sim_rq_state(b.sim, x.cpu, &rq);
	n = eevdf_sim_rq_entities(b.sim, x.cpu, NULL, 0);
	e = calloc((size_t)n + 1, sizeof(*e));
	if (!e) {
		cli_error("out of memory");
		goto out;
	}
	eevdf_sim_rq_entities(b.sim, x.cpu, e, (size_t)n);
	nlv = eevdf_sim_rq_pick_levels(b.sim, x.cpu, lv, ARRAY_LEN(lv));
	if (nlv > (int)ARRAY_LEN(lv))
		nlv = (int)ARRAY_LEN(lv);
	/* then the next decisions on that CPU, up to the run's end */
	if (x.want) {
		eevdf_sim_trace_detail(b.sim, EEVDF_DETAIL_DECISIONS);
		x.on = true;
		while (x.got < x.want && eevdf_sim_now(b.sim) <= b.duration &&
		       eevdf_sim_step(b.sim) == 1)
			;
		while (x.got && x.d[x.got - 1].t > b.duration)
			x.got--;
	}
	if (x.json) {
		rc = print_json(b.sim, &x, &rq, e, n, lv, nlv);
	} else {
		printf("# " PROG " explain: %s, kernel %s, %d CPU%s, seed "
		       "%" PRIu64 "\n",
		       eevdf_sim_name(b.sim), eevdf_sim_kernel(b.sim),
		       eevdf_sim_nr_cpus(b.sim),
		       eevdf_sim_nr_cpus(b.sim) == 1 ? "" : "s",
		       eevdf_sim_seed(b.sim));
		print_rq(b.sim, &x, &rq, e, n, lv, nlv);
		if (x.want) {
			printf("\nthe next %d decision%s on CPU %d:\n", x.got,
			       x.got == 1 ? "" : "s", x.cpu);
			for (int i = 0; i < x.got; i++)
				print_decision(b.sim, &x.d[i]);
		}
		rc = EXIT_OK;
	}
	if (fflush(stdout) != 0) {
		cli_error("error writing standard output");
		rc = EXIT_USAGE;
	}
out:
	cli_built_free(&b);
	free(x.d);
	free(e);
	free(rest);
	return rc;
}
