/* SPDX-License-Identifier: MIT */
/*
 * The resource limits of a run: events, wall-clock time, memory, and the
 * loader's input size, nesting and expanded size.  Each has a default no
 * shipped workload reaches, an option that changes it (0: no limit), and
 * a message naming that option when it is reached.
 *
 * Memory is what libeevdf and the JSON parser allocate, counted by the
 * allocator this file hands both of them (eevdf_set_allocator(),
 * cJSON_InitHooks()) before anything else runs.  The wall clock is read
 * here, in the front end, from the library's progress callback every
 * CLI_CHECK_EVERY events: a run that does not hit the limit is the same
 * run, event for event, as one without it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>

#include "cli.h"

/* Events between two looks at the wall clock: a few ms of a run. */
#define CLI_CHECK_EVERY 65536

/* The counting allocator ------------------------------------------------ */

/*
 * Each block carries its size in front, padded to the strictest
 * alignment malloc() gives, so that free knows what it gives back.
 */
union mem_head {
	size_t size;
	max_align_t align;
};

static struct {
	uint64_t used, limit; /* limit 0: none */
	bool hit;	      /* an allocation was refused for the limit */
} mem;

static bool mem_take(size_t size)
{
	if (mem.limit && (size > mem.limit || mem.used > mem.limit - size)) {
		mem.hit = true;
		return false;
	}
	mem.used += size;
	return true;
}

static void *mem_malloc(void *ud, size_t size)
{
	union mem_head *h;

	(void)ud;
	if (size > SIZE_MAX - sizeof(*h) || !mem_take(size))
		return NULL;
	h = malloc(sizeof(*h) + size);
	if (!h) {
		mem.used -= size;
		return NULL;
	}
	h->size = size;
	return h + 1;
}

static void mem_free(void *ud, void *ptr)
{
	union mem_head *h;

	(void)ud;
	if (!ptr)
		return;
	h = (union mem_head *)ptr - 1;
	mem.used -= h->size;
	free(h);
}

static void *mem_realloc(void *ud, void *ptr, size_t size)
{
	union mem_head *h, *n;
	size_t old;

	if (!ptr)
		return mem_malloc(ud, size);
	h = (union mem_head *)ptr - 1;
	old = h->size;
	if (size > SIZE_MAX - sizeof(*h) ||
	    (size > old && !mem_take(size - old)))
		return NULL;
	n = realloc(h, sizeof(*h) + size);
	if (!n) {
		if (size > old)
			mem.used -= size - old;
		return NULL;
	}
	if (size < old)
		mem.used -= old - size;
	n->size = size;
	return n + 1;
}

static void *cjson_malloc(size_t size)
{
	return mem_malloc(NULL, size);
}

static void cjson_free(void *ptr)
{
	mem_free(NULL, ptr);
}

void cli_memory_install(void)
{
	static const struct eevdf_allocator a = { mem_malloc, mem_realloc,
						  mem_free, NULL };
	cJSON_Hooks hooks = { cjson_malloc, cjson_free };

	eevdf_set_allocator(&a);
	cJSON_InitHooks(&hooks);
}

/* Defaults -------------------------------------------------------------- */

/*
 * 4 GiB, or half the machine's memory when that is less: no shipped
 * workload comes near (spawn, the largest, takes 80 MB), and a run that
 * would take the machine into its OOM killer stops first.
 */
static uint64_t default_memory(void)
{
	const uint64_t cap = (uint64_t)4 << 30;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t half;

	if (pages <= 0 || psize <= 0)
		return cap;
	half = (uint64_t)pages / 2 * (uint64_t)psize;
	return half < cap ? half : cap;
}

void cli_limits_init(struct cli_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->max_events = CLI_MAX_EVENTS;
	l->max_wall = CLI_MAX_WALL;
	l->max_memory = default_memory();
}

/* Options --------------------------------------------------------------- */

/* A size: bytes, or a number with K, M, G or T (binary, KiB too). */
static bool parse_size(const char *s, uint64_t *out)
{
	static const char *const units[] = { "K", "M", "G", "T" };
	uint64_t v = 0;
	const char *p = s;
	unsigned int shift = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p) {
		size_t i;

		for (i = 0; i < ARRAY_LEN(units); i++)
			if (p[0] == units[i][0] &&
			    (!p[1] || strcmp(p + 1, "iB") == 0))
				break;
		if (i == ARRAY_LEN(units))
			return false;
		shift = 10 * (unsigned int)(i + 1);
	}
	if (shift && v > UINT64_MAX >> shift)
		return false;
	*out = v << shift;
	return true;
}

static bool parse_count(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !*end && !errno;
}

int cli_limits_option(struct cli_limits *l, const char *opt, const char *arg)
{
	uint64_t v;
	eevdf_time t;

	if (strcmp(opt, "--max-events") == 0 || strcmp(opt, "--max-ops") == 0 ||
	    strcmp(opt, "--max-depth") == 0) {
		if (!parse_count(arg, &v)) {
			cli_error("%s: expected a count (0: no limit), got "
				  "'%s'",
				  opt, arg);
			return -1;
		}
		if (opt[6] == 'e') {
			l->max_events = v;
		} else if (opt[6] == 'o') {
			l->max_ops = v ? v : UINT64_MAX;
		} else {
			if (v > EEVDF_LOAD_MAX_DEPTH_TOP) {
				cli_error("%s: at most %d, the JSON parser's "
					  "own limit",
					  opt, EEVDF_LOAD_MAX_DEPTH_TOP);
				return -1;
			}
			l->max_depth = v ? (int)v : EEVDF_LOAD_MAX_DEPTH_TOP;
		}
		return 0;
	}
	if (strcmp(opt, "--max-memory") == 0 ||
	    strcmp(opt, "--max-input") == 0) {
		if (!parse_size(arg, &v)) {
			cli_error("%s: expected a size such as 512M, 4G or a "
				  "count of bytes (0: no limit), got '%s'",
				  opt, arg);
			return -1;
		}
		if (opt[6] == 'm')
			l->max_memory = v;
		else
			l->max_input = v && v < SIZE_MAX ? (size_t)v : SIZE_MAX;
		return 0;
	}
	/* --max-wall */
	if (strcmp(arg, "0") == 0) {
		l->max_wall = 0;
		return 0;
	}
	if (eevdf_parse_duration(arg, INT64_MAX, &t) != 0 ||
	    strspn(arg, "0123456789") == strlen(arg)) {
		cli_error("%s: expected a duration with a unit, such as 90s "
			  "or 1500ms (0: no limit), got '%s'",
			  opt, arg);
		return -1;
	}
	l->max_wall = t;
	return 0;
}

void cli_limits_load(const struct cli_limits *l, struct eevdf_load_opts *o)
{
	o->max_input = l->max_input;
	o->max_depth = l->max_depth;
	o->max_ops = l->max_ops;
}

/* The wall clock --------------------------------------------------------- */

static struct {
	double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
	eevdf_time limit;
	bool hit;
} wall;

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int wall_check(void *ud, const eevdf_sim *sim)
{
	(void)ud;
	(void)sim;
	if (wall.deadline && now_seconds() > wall.deadline) {
		wall.hit = true;
		return 1;
	}
	return 0;
}

void cli_limits_run(const struct cli_limits *l, struct eevdf_config *cfg)
{
	mem.limit = l->max_memory;
	cfg->max_events = l->max_events;
	wall.limit = l->max_wall;
	wall.hit = false;
	wall.deadline = l->max_wall ?
				now_seconds() + (double)l->max_wall / 1e9 :
				0;
	if (l->max_wall) {
		cfg->progress = wall_check;
		cfg->progress_ud = NULL;
		cfg->progress_every = CLI_CHECK_EVERY;
	}
}

void cli_limits_memory(const struct cli_limits *l)
{
	mem.limit = l->max_memory;
}

/* Messages --------------------------------------------------------------- */

static void size_words(char *buf, size_t len, uint64_t n)
{
	if (n >= ((uint64_t)1 << 30) && n % ((uint64_t)1 << 30) == 0)
		snprintf(buf, len, "%" PRIu64 "G", n >> 30);
	else if (n >= ((uint64_t)1 << 20) && n % ((uint64_t)1 << 20) == 0)
		snprintf(buf, len, "%" PRIu64 "M", n >> 20);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", n);
}

void cli_limits_explain(int rc, const char *msg)
{
	static const struct {
		const char *field, *option, *value;
	} fields[] = {
		{ "max_events)", "--max-events", "N" },
		{ "max_input)", "--max-input", "SIZE" },
		{ "max_depth)", "--max-depth", "N" },
		{ "max_ops)", "--max-ops", "N" },
	};
	char buf[64];

	if (rc == EEVDF_ENOMEM && mem.hit) {
		size_words(buf, sizeof(buf), mem.limit);
		cli_error(
			"the run reached the memory limit of %s: --max-memory "
			"SIZE raises it (0: no limit)",
			buf);
		return;
	}
	if (rc == EEVDF_ECANCELED && wall.hit) {
		cli_error("the run reached the wall-clock limit of %.3f s: "
			  "--max-wall D raises it (0: no limit)",
			  (double)wall.limit / 1e9);
		return;
	}
	if (rc != EEVDF_ELIMIT || !msg)
		return;
	for (size_t i = 0; i < ARRAY_LEN(fields); i++)
		if (strstr(msg, fields[i].field))
			cli_error("%s %s raises this limit (0: no limit)",
				  fields[i].option, fields[i].value);
}
