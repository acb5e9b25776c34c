/* SPDX-License-Identifier: MIT */
/*
 * Results as CSV (RFC 4180): a header line, then one row per task in pid
 * order, with the columns of the JSON "tasks" entries in the same order.
 * The column list is part of the interface: append, never reorder.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eevdf/eevdf.h"
#include "results_impl.h"

static const char header[] =
	"name,pid,cpu,nice,policy,state,cpu_ns,wait_ns,sleep_ns,switches,"
	"voluntary,involuntary,migrations,delay_count,delay_avg_ns,"
	"delay_max_ns,delay_max_at_ns,delay_sum_ns\n";

/* A growing string; err set once an allocation failed. */
struct buf {
	char *s;
	size_t len, cap;
	bool err;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *ns;

		while (cap < b->len + n + 1)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns) {
			b->err = true;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* A field, quoted when it holds a comma, a quote or a line break. */
static void put_field(struct buf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		put(b, s, strlen(s));
		return;
	}
	put(b, "\"", 1);
	for (; *s; s++) {
		put(b, s, 1);
		if (*s == '"') /* a quote is doubled */
			put(b, "\"", 1);
	}
	put(b, "\"", 1);
}

int eevdf_sim_results_csv(const eevdf_sim *sim, char **out)
{
	struct buf b = { NULL, 0, 0, false };
	size_t n;

	if (!out)
		return EEVDF_EINVAL;
	*out = NULL;
	if (!sim)
		return EEVDF_EINVAL;
	put(&b, header, sizeof(header) - 1);
	n = eevdf_sim_nr_tasks(sim);
	for (size_t i = 0; i < n; i++) {
		struct eevdf_task_stats t;
		char row[512];
		int len;

		if (eevdf_sim_task_stats(sim, i, &t) < 0) {
			free(b.s);
			return EEVDF_EINVAL;
		}
		put_field(&b, t.name);
		len = snprintf(row, sizeof(row),
			       ",%d,%d,%d,%s,%s,%" PRId64 ",%" PRId64
			       ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			       ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
			       ",%" PRId64 ",%" PRId64 "\n",
			       t.pid, t.cpu, t.nice,
			       eevdf__policy_name(t.policy),
			       eevdf__state_name(t.state), t.cpu_ns, t.wait_ns,
			       t.sleep_ns, t.switches, t.voluntary,
			       t.involuntary, t.migrations, t.delay_count,
			       eevdf__delay_avg(t.delay_sum_ns, t.delay_count),
			       t.delay_max_ns, t.delay_max_at, t.delay_sum_ns);
		put(&b, row, (size_t)len);
	}
	if (b.err) {
		free(b.s);
		return EEVDF_ENOMEM;
	}
	*out = b.s;
	return 0;
}
