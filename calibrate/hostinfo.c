/* SPDX-License-Identifier: MIT */
/*
 * The host's own description (hostinfo.h): sysfs topology, the fields of
 * /proc/PID/sched, /proc/stat, a kernel config, /proc/cpuinfo.
 *
 * The LLC is the cache the scheduler calls one (the MC domain's span,
 * cpu_coregroup_mask()): on x86 and arm64 the shared_cpu_list of the
 * highest cache level, index3 where there is an L3.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostinfo.h"
#include "host.h"

/* A decimal number at *s, advancing it; -1 when there is none. */
static long number(const char **s)
{
	char *end;
	long v;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	v = strtol(*s, &end, 10);
	if (errno || v > INT_MAX)
		return -1;
	*s = end;
	return v;
}

int cal_parse_cpulist(const char *s, int *cpus, int max)
{
	int n = 0;

	while (*s == ' ')
		s++;
	if (*s == '\n' || !*s)
		return 0; /* an empty list: no CPU */
	for (;;) {
		long lo = number(&s), hi = lo;

		if (lo < 0)
			return -1;
		if (*s == '-') {
			s++;
			hi = number(&s);
			if (hi < lo)
				return -1;
		}
		for (long c = lo; c <= hi; c++) {
			if (n > 0 && c <= cpus[n - 1])
				return -1;
			if (n >= max)
				return -1;
			cpus[n++] = (int)c;
		}
		if (*s != ',')
			break;
		s++;
	}
	while (*s == '\n' || *s == ' ')
		s++;
	return *s ? -1 : n;
}

int cal_cpulist_first(const char *s)
{
	long v = number(&s);

	return v < 0 ? -1 : (int)v;
}

bool cal_parse_sched_field(const char *text, const char *field, int64_t *out)
{
	size_t fl = strlen(field);

	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *p = l;
		char *end;
		long long v;

		if (strncmp(p, field, fl) != 0 ||
		    (p[fl] != ' ' && p[fl] != ':'))
			continue;
		p += fl;
		while (*p == ' ')
			p++;
		if (*p != ':')
			continue;
		p++;
		while (*p == ' ')
			p++;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (end == p || errno || (*end != '\n' && *end))
			return false;
		*out = v;
		return true;
	}
	return false;
}

/* The value text of field's line, or NULL. */
static const char *field_value(const char *text, const char *field)
{
	size_t fl = strlen(field);

	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *p = l + fl;

		if (strncmp(l, field, fl) != 0 || (*p != ' ' && *p != ':'))
			continue;
		while (*p == ' ')
			p++;
		if (*p++ != ':')
			continue;
		while (*p == ' ')
			p++;
		return p;
	}
	return NULL;
}

bool cal_parse_sched_ns(const char *text, const char *field, int64_t *ns)
{
	const char *p = field_value(text, field), *q;
	int64_t ms = 0, frac = 0;
	int digits = 0;

	if (!p || *p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		ms = ms * 10 + (*p - '0');
	if (*p != '.')
		return false;
	for (q = p + 1; *q >= '0' && *q <= '9' && digits < 6; q++, digits++)
		frac = frac * 10 + (*q - '0');
	if (digits != 6 || (*q != '\n' && *q))
		return false;
	*ns = ms * 1000000 + frac;
	return true;
}

int cal_parse_config_hz(const char *text)
{
	const char *p = text;

	while (p && (p = strstr(p, "CONFIG_HZ=")) != NULL) {
		/* at the start of a line, not CONFIG_HZ_250=y */
		if (p == text || p[-1] == '\n') {
			char *end;
			long v;

			errno = 0;
			v = strtol(p + 10, &end, 10);
			if (!errno && end != p + 10 && v > 0 && v < 100000)
				return (int)v;
		}
		p += 10;
	}
	return 0;
}

bool cal_parse_stat_cpu(const char *text, int cpu, struct cal_cpu_times *out)
{
	char want[32];
	size_t wl = (size_t)snprintf(want, sizeof(want), "cpu%d ", cpu);

	for (const char *l = text; l && *l;
	     l = strchr(l, '\n'), l = l ? l + 1 : l) {
		unsigned long long v[8] = { 0 };
		const char *p = l + wl;

		if (strncmp(l, want, wl) != 0)
			continue;
		for (int i = 0; i < 8; i++) {
			char *end;

			while (*p == ' ')
				p++;
			errno = 0;
			v[i] = strtoull(p, &end, 10);
			if (end == p || errno)
				return false;
			p = end;
		}
		out->busy = v[0] + v[1] + v[2] + v[5] + v[6];
		out->idle = v[3] + v[4];
		out->steal = v[7];
		return true;
	}
	return false;
}

/* The text of root/rel, its newline cut; NULL when unreadable. */
static char *read_at(const char *root, const char *rel)
{
	char path[512];
	char *s;

	snprintf(path, sizeof(path), "%s%s%s", root,
		 root[0] && root[strlen(root) - 1] == '/' ? "" : "/", rel);
	s = cal_read_text(path);
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

/* The LLC of cpu: the lowest CPU sharing its highest-level cache. */
static int read_llc(const char *root, int cpu, int *level)
{
	int best_level = 0, llc = -1;

	for (int idx = 0; idx < 8; idx++) {
		char rel[160], *lv, *shared;
		long l;
		const char *p;

		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, idx);
		if (!(lv = read_at(root, rel)))
			continue;
		p = lv;
		l = number(&p);
		free(lv);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/cache/index%d/"
			 "shared_cpu_list",
			 cpu, idx);
		if (l <= best_level || !(shared = read_at(root, rel)))
			continue;
		best_level = (int)l;
		llc = cal_cpulist_first(shared);
		free(shared);
	}
	*level = best_level;
	return llc;
}

int cal_topo_read(const char *root, struct cal_topo *t)
{
	char *online = read_at(root, "sys/devices/system/cpu/online");
	int *list = NULL, n;

	memset(t, 0, sizeof(*t));
	if (!online) {
		snprintf(t->why, sizeof(t->why),
			 "cannot read %s/sys/devices/system/cpu/online: %s",
			 root, strerror(errno));
		return -1;
	}
	list = malloc(CAL_MAX_CPUS * sizeof(*list));
	n = list ? cal_parse_cpulist(online, list, CAL_MAX_CPUS) : -1;
	free(online);
	if (n <= 0) {
		snprintf(t->why, sizeof(t->why),
			 "sys/devices/system/cpu/online: no CPU list");
		free(list);
		return -1;
	}
	t->cpu = calloc((size_t)n, sizeof(*t->cpu));
	if (!t->cpu) {
		free(list);
		snprintf(t->why, sizeof(t->why), "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct cal_cpu *c = &t->cpu[t->nr++];
		char rel[160], *s;
		const char *p;
		int level;

		c->cpu = list[i];
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/"
			 "thread_siblings_list",
			 c->cpu);
		s = read_at(root, rel);
		c->core = s ? cal_cpulist_first(s) : c->cpu;
		free(s);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/"
			 "physical_package_id",
			 c->cpu);
		s = read_at(root, rel);
		p = s;
		c->package = s ? (int)number(&p) : 0;
		free(s);
		if (c->package < 0)
			c->package = 0;
		c->llc = read_llc(root, c->cpu, &level);
		if (c->llc < 0) {
			/* no cache information: one LLC per package */
			c->llc = -1 - c->package;
			snprintf(t->why, sizeof(t->why),
				 "no cache in sysfs: one LLC per package "
				 "assumed");
		} else if (!t->llc_level || level < t->llc_level) {
			t->llc_level = level;
		}
		if (c->core < 0)
			c->core = c->cpu;
	}
	/* an LLC label must not collide with a CPU's: shift the assumed */
	for (int i = 0; i < t->nr; i++)
		if (t->cpu[i].llc < 0)
			t->cpu[i].llc = CAL_MAX_CPUS - 1 - t->cpu[i].llc;
	free(list);
	return 0;
}

void cal_topo_free(struct cal_topo *t)
{
	free(t->cpu);
	t->cpu = NULL;
	t->nr = 0;
}

const struct cal_cpu *cal_topo_find(const struct cal_topo *t, int cpu)
{
	for (int i = 0; i < t->nr; i++)
		if (t->cpu[i].cpu == cpu)
			return &t->cpu[i];
	return NULL;
}

enum topo_field {
	F_CORE,
	F_LLC,
	F_PACKAGE
};

static int field(const struct cal_cpu *c, enum topo_field f)
{
	return f == F_CORE ? c->core : f == F_LLC ? c->llc : c->package;
}

/* The distinct values of field f. */
static int distinct(const struct cal_topo *t, enum topo_field f)
{
	int n = 0;

	for (int i = 0; i < t->nr; i++) {
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = field(&t->cpu[j], f) == field(&t->cpu[i], f);
		n += !seen;
	}
	return n;
}

void cal_topo_counts(const struct cal_topo *t, int *cores, int *llcs,
		     int *packages, int *threads)
{
	*cores = distinct(t, F_CORE);
	*llcs = distinct(t, F_LLC);
	*packages = distinct(t, F_PACKAGE);
	*threads = 0;
	for (int i = 0; i < t->nr; i++) {
		int k = 0;

		for (int j = 0; j < t->nr; j++)
			k += t->cpu[j].core == t->cpu[i].core;
		if (k > *threads)
			*threads = k;
	}
}

void cal_cpu_model(const char *root, char *buf, size_t len, bool *virt)
{
	char path[512], *s, *p;

	snprintf(path, sizeof(path), "%s%sproc/cpuinfo", root,
		 root[0] && root[strlen(root) - 1] == '/' ? "" : "/");
	buf[0] = '\0';
	*virt = false;
	if (!(s = cal_read_text(path)))
		return;
	if ((p = strstr(s, "model name")) && (p = strchr(p, ':'))) {
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	}
	/* x86's CPUID hypervisor bit, as /proc/cpuinfo lists it */
	*virt = strstr(s, " hypervisor") != NULL;
	free(s);
}

void cal_release_number(const char *release, char *buf, size_t len)
{
	size_t n = strspn(release, "0123456789.");

	while (n && release[n - 1] == '.')
		n--;
	snprintf(buf, len, "%.*s", (int)n, release);
}
