/* SPDX-License-Identifier: MIT */
/*
 * rt-app import: an rt-app JSON workload (scheduler-tools/rt-app,
 * doc/tutorial.txt) translated into the text of an equivalent native
 * workload, which the normal loader then parses.  docs/rtapp-import.md is
 * the user's view: what is accepted, the mapping, what is ignored or
 * approximate.
 *
 * rt-app files are JSON with comments, trailing commas and repeated keys
 * whose order matters ("run", "sleep", "run").  They are read leniently:
 * comments and trailing commas are blanked out byte for byte, and cJSON
 * keeps every duplicate key, in order, in its child list.
 *
 * The translation walks the document twice.  The survey collects what no
 * single event knows: the tasks and their instance counts, the tasks that
 * fork starts, how many tasks meet at each barrier, whether a timer is
 * ever absolute, which threads suspend on their own name and which
 * condition names somebody blocks on.  The emit walk checks every key and
 * value and builds the native document; the resources that rt-app creates
 * implicitly by name become "objects" in order of first use.  Native object
 * names carry the kind of resource ("mutex:m", "cond:c", "sem:s",
 * "barrier:b", "timer:t") because rt-app has one namespace per kind and the
 * native format only one.  Every key ignored and every value approximated
 * is also a note (file, rt-app path, what and how) that the loader keeps
 * for its user (eevdf_workload_note()) and the CLI prints as a warning.
 *
 * Every allocation goes through cJSON's allocator (malloc unless
 * cJSON_InitHooks() says otherwise), so that a test can fail each of them.
 * The first error wins; allocation failures are sticky (t->oom) and turn
 * into EEVDF_ENOMEM at the end.
 */
#include <cJSON.h>
#include <stdarg.h>
#include <string.h>

#include "lib/internal.h"
#include "rtapp.h"
#include "sched/deadline.h"
#include "workload_impl.h"

#define NAME_MAX_LEN 63			/* native names, after expansion */
#define MAX_US ((s64)1000000000000)	/* 10^15 ns, the native maximum */
#define MAX_JSON_INT 9007199254740992.0 /* 2^53: exact in a double */
#define MAX_INSTANCE 100000		/* the native "count" limit */
#define MAX_LOOP ((s64)1 << 32)		/* the native loop count limit */
#define MAX_CPU 4095
#define MAX_DURATION_S 1000000 /* 10^15 ns */
#define SLICE_MIN_US 100       /* sched_setattr() clamps the */
#define SLICE_MAX_US 100000    /* custom slice to 0.1..100 ms */
#define RT_DEFAULT_PRIO 10     /* rt-app's DEFAULT_THREAD_PRIORITY */
#define FOREVER_DURATION "10s"
#define NO_END UINT64_MAX /* a bound of a loop for ever */
#define NS_PER_S ((u64)1000000000)

enum rt_ev {
	EV_NONE = 0,
	EV_RUN,
	EV_RUNTIME,
	EV_SLEEP,
	EV_TIMER,
	EV_MEM,
	EV_IORUN,
	EV_MEMRUN,
	EV_LOCK,
	EV_UNLOCK,
	EV_WAIT,
	EV_SIGNAL,
	EV_BROAD,
	EV_SYNC,
	EV_BARRIER,
	EV_SUSPEND,
	EV_RESUME,
	EV_SEM_POST,
	EV_SEM_WAIT,
	EV_YIELD,
	EV_FORK,
};

/* Event keys match by prefix; longer prefixes first ("runtime", "memrun"). */
static const struct {
	const char *prefix;
	enum rt_ev ev;
} events[] = {
	{ "runtime", EV_RUNTIME },   { "run", EV_RUN },
	{ "sleep", EV_SLEEP },	     { "timer", EV_TIMER },
	{ "memrun", EV_MEMRUN },     { "mem", EV_MEM },
	{ "iorun", EV_IORUN },	     { "lock", EV_LOCK },
	{ "unlock", EV_UNLOCK },     { "wait", EV_WAIT },
	{ "signal", EV_SIGNAL },     { "broad", EV_BROAD },
	{ "sync", EV_SYNC },	     { "barrier", EV_BARRIER },
	{ "suspend", EV_SUSPEND },   { "resume", EV_RESUME },
	{ "sem_post", EV_SEM_POST }, { "sem_wait", EV_SEM_WAIT },
	{ "yield", EV_YIELD },	     { "fork", EV_FORK },
};

/* Thread (LV_T) and phase (LV_P) properties. */
enum rt_prop {
	PR_LOOP,
	PR_INSTANCE,
	PR_DELAY,
	PR_PHASES,
	PR_POLICY,
	PR_PRIORITY,
	PR_DL_RUNTIME,
	PR_DL_PERIOD,
	PR_DL_DEADLINE,
	PR_CPUS,
	PR_NODES,
	PR_UTIL_MIN,
	PR_UTIL_MAX,
	PR_TASKGROUP,
	PR_PERIOD,   /* legacy thread-level aliases of dl-period, */
	PR_DEADLINE, /* dl-deadline and (with "phases") dl-runtime */
	PR_RUNTIME,
	PR_NR,
};

#define LV_T 1u
#define LV_P 2u

static const struct {
	const char *key;
	unsigned levels;
} props[PR_NR] = {
	[PR_LOOP] = { "loop", LV_T | LV_P },
	[PR_INSTANCE] = { "instance", LV_T },
	[PR_DELAY] = { "delay", LV_T },
	[PR_PHASES] = { "phases", LV_T },
	[PR_POLICY] = { "policy", LV_T | LV_P },
	[PR_PRIORITY] = { "priority", LV_T | LV_P },
	[PR_DL_RUNTIME] = { "dl-runtime", LV_T | LV_P },
	[PR_DL_PERIOD] = { "dl-period", LV_T | LV_P },
	[PR_DL_DEADLINE] = { "dl-deadline", LV_T | LV_P },
	[PR_CPUS] = { "cpus", LV_T | LV_P },
	[PR_NODES] = { "nodes_membind", LV_T | LV_P },
	[PR_UTIL_MIN] = { "util_min", LV_T | LV_P },
	[PR_UTIL_MAX] = { "util_max", LV_T | LV_P },
	[PR_TASKGROUP] = { "taskgroup", LV_T | LV_P },
	[PR_PERIOD] = { "period", LV_T },
	[PR_DEADLINE] = { "deadline", LV_T },
	[PR_RUNTIME] = { "runtime", 0 }, /* thread level with "phases" */
};

#define STR_(x) #x
#define STR(x) STR_(x)
#define PER_BYTES "1 ns per " STR(EEVDF_RTAPP_BYTES_PER_NS) " bytes"

/*
 * The "global" keys that are accepted and ignored, and why: the message of
 * their note.  "frag" and "spacing" are legacy keys still in rt-app's
 * example files.
 */
#define LOGS                                                                   \
	"ignored: rt-app's per-thread logs are not written (run "              \
	"--format json gives per-task results)"
static const struct {
	const char *key;
	const char *why;
} global_ignored[] = {
	{ "calibration", "ignored: 'run' is work at the nominal capacity of "
			 "the simulated CPU, which needs no calibration" },
	{ "pi_enabled", "ignored: mutexes have no priority inheritance in the "
			"model (they go to their waiters in arrival order)" },
	{ "lock_pages", "ignored: there is no memory to lock in the "
			"simulation" },
	{ "logdir", LOGS },
	{ "log_basename", LOGS },
	{ "log_size", LOGS },
	{ "ftrace", "ignored: no trace_marker lines are written (run --trace "
		    "FILE writes a trace of the run)" },
	{ "gnuplot", "ignored: no gnuplot scripts are written" },
	{ "io_device", "ignored: iorun is CPU work of " PER_BYTES
		       " and writes to no device" },
	{ "mem_buffer_size",
	  "ignored: mem and memrun are CPU work of " PER_BYTES
	  " and use no buffer" },
	{ "cumulative_slack", "ignored: it changes only the slack that "
			      "rt-app's logs report" },
	{ "frag", "ignored: a legacy key that rt-app no longer reads" },
	{ "spacing", "ignored: a legacy key that rt-app no longer reads" },
};
#undef LOGS

/* The policies by enum eevdf_policy: native names, rt-app's names. */
static const char *const policy_names[] = { "normal", "batch", "idle",
					    "fifo",   "rr",    "deadline" };
static const char *const rt_policy_names[] = {
	"SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE",
	"SCHED_FIFO",  "SCHED_RR",    "SCHED_DEADLINE",
};

struct rt_task {
	const char *name; /* the key in "tasks" (owned by the parsed tree) */
	const cJSON *json;
	s64 inst;      /* "instance" as surveyed (1 when not an integer) */
	bool forked;   /* some fork event names it */
	bool per_inst; /* instances suspend on their own events X[i] */
	u64 tbound;    /* its template's configured time, ns */
};

enum rt_otype {
	RO_MUTEX = 0,
	RO_EVENT,
	RO_SEM,
	RO_BARRIER,
	RO_TIMER,
	/* bookkeeping, never emitted */
	RO_UTIMER,  /* a unique timer's mode: name "task/ref" */
	RO_BLOCKED, /* a condition somebody blocks on: its rt-app name */
};

struct rt_obj {
	enum rt_otype type;
	char *name;    /* native name; with nfor, the base of name[${i}] */
	s64 nfor;      /* > 0: one per instance, name[0] .. name[nfor-1] */
	bool unique;   /* timer: one per task */
	bool absolute; /* timer: some use is "absolute" */
	bool dead;     /* event: covered by a later per-instance object */
	s64 parties;   /* barrier */
	const struct rt_task *last; /* barrier: last task counted */
};

struct strlist {
	char **v;
	size_t n, cap;
};

struct rt {
	struct eevdf_diag *diag;
	char path[sizeof(((struct eevdf_diag *)NULL)->path)];
	size_t plen;
	bool oom;
	struct rt_task *tasks;
	size_t nr_tasks;
	struct rt_obj *objs;
	size_t nr_objs, cap_objs;
	struct strlist ignored;	  /* rt-app paths of ignored keys */
	struct strlist groups;	  /* taskgroups, as cgroup paths ("/" too) */
	struct strlist remarks;	  /* sentences for the description */
	struct eevdf_diag *notes; /* ignored and approximate, one by one */
	size_t nr_notes, cap_notes;
	bool approx; /* mem, iorun or memrun seen */
	int def_policy;
	const struct rt_task *cur; /* the task being emitted */
	bool cur_tmpl;		   /* ... as a template */
};

/* Settings of a thread or a phase. */
struct rt_attrs {
	bool has_loop;
	s64 loop;
	s64 inst;
	s64 delay;
	const cJSON *phases;
	bool has_policy; /* "policy" is given here */
	int policy;	 /* in effect: given, inherited or the default */
	bool has_prio;	 /* "priority" is given here */
	bool has_nice;
	s64 nice;	       /* fair policies: "priority" */
	s64 slice_us;	       /* fair policies: 0 is none */
	s64 rt_prio;	       /* fifo, rr: 0 when nothing sets it here */
	s64 dl_us[3];	       /* deadline: runtime, period, deadline */
	bool sched;	       /* rt-app applies these settings (sched_data) */
	const cJSON *cpus;     /* checked */
	const char *taskgroup; /* a cgroup path (in t->groups), or NULL */
	u32 nevents;
};

/* Memory ----------------------------------------------------------------- */

static void *rt_alloc(struct rt *t, size_t n)
{
	void *p = cJSON_malloc(n ? n : 1);

	if (!p)
		t->oom = true;
	return p;
}

static char *rt_strdup(struct rt *t, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = rt_alloc(t, n);

	if (d)
		memcpy(d, s, n);
	return d;
}

/*
 * Room for one more element of size sz in the array v (n used, *cap):
 * returns the array, moved when it grew, or NULL (v untouched) on ENOMEM.
 */
static void *grow(struct rt *t, void *v, size_t n, size_t *cap, size_t sz)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return v;
	ncap = *cap ? 2 * *cap : 8;
	nv = rt_alloc(t, ncap * sz);
	if (!nv)
		return NULL;
	if (n)
		memcpy(nv, v, n * sz);
	cJSON_free(v);
	*cap = ncap;
	return nv;
}

/* Add a copy of s unless it is already there. */
static void strlist_add(struct rt *t, struct strlist *l, const char *s)
{
	char **v, *d;

	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return;
	if (!(v = grow(t, l->v, l->n, &l->cap, sizeof(*l->v))))
		return;
	l->v = v;
	d = rt_strdup(t, s);
	if (d)
		l->v[l->n++] = d;
}

static void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		cJSON_free(l->v[i]);
	cJSON_free(l->v);
}

/* Diagnostics ------------------------------------------------------------ */

#define SHOWN(buf, s) eevdf__wl_shown(buf, sizeof(buf), s)

__attribute__((format(printf, 2, 3))) static int fail(struct rt *t,
						      const char *fmt, ...)
{
	va_list ap;

	eevdf__wl_set_str(t->diag->path, sizeof(t->diag->path), t->path);
	va_start(ap, fmt);
	vsnprintf(t->diag->msg, sizeof(t->diag->msg), fmt, ap);
	va_end(ap);
	return EEVDF_EPARSE;
}

static int nomem(struct eevdf_diag *d)
{
	d->path[0] = '\0';
	d->line = 0;
	eevdf__wl_set_str(d->msg, sizeof(d->msg), "out of memory");
	return EEVDF_ENOMEM;
}

/* Append ".key" (or "key" at the root) to the path; returns the old end. */
static size_t push(struct rt *t, const char *key)
{
	size_t old = t->plen;
	int n = snprintf(t->path + old, sizeof(t->path) - old, "%s%s",
			 old ? "." : "", key ? key : "");

	if (n > 0)
		t->plen = min_u64(old + (size_t)n, sizeof(t->path) - 1);
	return old;
}

static size_t push_idx(struct rt *t, int i)
{
	size_t old = t->plen;
	int n = snprintf(t->path + old, sizeof(t->path) - old, "[%d]", i);

	if (n > 0)
		t->plen = min_u64(old + (size_t)n, sizeof(t->path) - 1);
	return old;
}

static void pop(struct rt *t, size_t old)
{
	t->plen = old;
	t->path[old] = '\0';
}

/*
 * A note at the current path: something ignored or approximate, for the
 * loader's user (eevdf_workload_note()).  A note already there (same path
 * and message: a thread emitted as a task and as a template) is not
 * repeated.
 */
__attribute__((format(printf, 2, 3))) static void note(struct rt *t,
						       const char *fmt, ...)
{
	struct eevdf_diag *n, *v;
	va_list ap;

	if (!(v = grow(t, t->notes, t->nr_notes, &t->cap_notes, sizeof(*v))))
		return;
	t->notes = v;
	n = &t->notes[t->nr_notes];
	memset(n, 0, sizeof(*n));
	eevdf__wl_set_str(n->file, sizeof(n->file), t->diag->file);
	eevdf__wl_set_str(n->path, sizeof(n->path), t->path);
	va_start(ap, fmt);
	vsnprintf(n->msg, sizeof(n->msg), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < t->nr_notes; i++)
		if (!strcmp(v[i].path, n->path) && !strcmp(v[i].msg, n->msg))
			return;
	t->nr_notes++;
}

/* The current path as an ignored key, for the description, and a note. */
static void ignore_here(struct rt *t, const char *why)
{
	strlist_add(t, &t->ignored, t->path);
	note(t, "%s", why);
}

/* Lenient reading -------------------------------------------------------- */

/* The index of the quote that closes the string opening at buf[i] (len if
 * none); a backslash escapes the byte after it. */
static size_t string_end(const char *buf, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (buf[i] == '\\')
			i++;
		else if (buf[i] == '"')
			return i;
	}
	return len;
}

int eevdf__rtapp_strip(char *buf, size_t len, size_t *bad)
{
	size_t i, j;

	for (i = 0; i < len; i++) {
		if (buf[i] == '"') {
			i = string_end(buf, len, i);
		} else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '/') {
			for (; i < len && buf[i] != '\n'; i++)
				buf[i] = ' ';
		} else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '*') {
			size_t start = i;

			buf[i++] = ' ';
			buf[i++] = ' ';
			for (; i + 1 < len &&
			       !(buf[i] == '*' && buf[i + 1] == '/');
			     i++)
				if (buf[i] != '\n')
					buf[i] = ' ';
			if (i + 1 >= len) {
				if (bad)
					*bad = start;
				return -1;
			}
			buf[i++] = ' ';
			buf[i] = ' ';
		}
	}
	/* Comments are gone: a comma followed by } or ] is trailing. */
	for (i = 0; i < len; i++) {
		if (buf[i] == '"') {
			i = string_end(buf, len, i);
		} else if (buf[i] == ',') {
			for (j = i + 1;
			     j < len && (buf[j] == ' ' || buf[j] == '\t' ||
					 buf[j] == '\r' || buf[j] == '\n');
			     j++)
				;
			if (j < len && (buf[j] == '}' || buf[j] == ']'))
				buf[i] = ' ';
		}
	}
	return 0;
}

/* Skip whitespace and comments from i; returns the next significant byte. */
static size_t skip_blank(const char *buf, size_t len, size_t i)
{
	while (i < len) {
		if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
		    buf[i] == '\n') {
			i++;
		} else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '/') {
			while (i < len && buf[i] != '\n')
				i++;
		} else if (buf[i] == '/' && i + 1 < len && buf[i + 1] == '*') {
			for (i += 2; i + 1 < len &&
				     !(buf[i] == '*' && buf[i + 1] == '/');
			     i++)
				;
			i += 2;
		} else {
			break;
		}
	}
	return i < len ? i : len;
}

/* The top-level keys a scan saw (scan_top()). */
enum {
	TK_FORMAT = 1u << 0,
	TK_TASKS = 1u << 1,	  /* "tasks", an object */
	TK_TASKS_OTHER = 1u << 2, /* "tasks", anything else */
	TK_GLOBAL = 1u << 3,
	TK_RESOURCES = 1u << 4,
	TK_OTHER = 1u << 5,
};

/*
 * The top-level keys of buf, comments skipped, without parsing or
 * allocating: a mask of TK_*, or -1 when buf is not a JSON object.  A
 * truncated or malformed text gives the keys seen up to where it breaks.
 */
static int scan_top(const char *buf, size_t len)
{
	int depth = 0, keys = 0;
	size_t i;

	if (!buf)
		return -1;
	i = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	i = skip_blank(buf, len, i);
	if (i >= len || buf[i] != '{')
		return -1;
	while (i < len) {
		char c = buf[i];

		if (c == '"') {
			size_t s = ++i, e, n;

			for (; i < len && buf[i] != '"'; i++)
				if (buf[i] == '\\')
					i++;
			e = i < len ? i : len;
			n = e - s;
			i = skip_blank(buf, len, e + 1);
			if (depth != 1 || i >= len || buf[i] != ':')
				continue;
			if (n == 6 && memcmp(buf + s, "format", 6) == 0) {
				keys |= TK_FORMAT;
			} else if (n == 5 && memcmp(buf + s, "tasks", 5) == 0) {
				i = skip_blank(buf, len, i + 1);
				keys |= i < len && buf[i] == '{' ?
						TK_TASKS :
						TK_TASKS_OTHER;
			} else if (n == 6 &&
				   memcmp(buf + s, "global", 6) == 0) {
				keys |= TK_GLOBAL;
			} else if (n == 9 &&
				   memcmp(buf + s, "resources", 9) == 0) {
				keys |= TK_RESOURCES;
			} else {
				keys |= TK_OTHER;
			}
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (--depth == 0)
				break;
		}
		i = skip_blank(buf, len, i + 1);
	}
	return keys;
}

int eevdf__rtapp_detect(const char *buf, size_t len)
{
	int keys = scan_top(buf, len);

	return keys >= 0 && (keys & TK_TASKS) && !(keys & TK_FORMAT);
}

int eevdf__rtapp_fragment(const char *buf, size_t len)
{
	int keys = scan_top(buf, len);

	return keys > 0 && !(keys & ~(TK_GLOBAL | TK_RESOURCES));
}

/*
 * cJSON fails alike on a syntax error and on an allocation failure.  When
 * it fails, this allocation-free check of the same text tells the two
 * apart: a value it accepts made cJSON fail for want of memory.  It follows
 * RFC 8259 with cJSON's limits (nesting below 1000, \u surrogates paired).
 */
struct jv {
	const char *s;
	size_t n, i;
};

static void jv_ws(struct jv *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
			       p->s[p->i] == '\r' || p->s[p->i] == '\n'))
		p->i++;
}

static bool jv_at(const struct jv *p, char c)
{
	return p->i < p->n && p->s[p->i] == c;
}

static bool jv_digits(struct jv *p)
{
	size_t start = p->i;

	while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
		p->i++;
	return p->i > start;
}

static bool jv_hex4(struct jv *p, unsigned *u)
{
	*u = 0;
	for (int k = 0; k < 4; k++, p->i++) {
		char c = p->i < p->n ? p->s[p->i] : '\0';

		if (c >= '0' && c <= '9')
			*u = *u * 16 + (unsigned)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*u = *u * 16 + (unsigned)((c | 0x20) - 'a' + 10);
		else
			return false;
	}
	return true;
}

static bool jv_string(struct jv *p)
{
	unsigned u, lo;

	for (p->i++; p->i < p->n;) {
		char c = p->s[p->i++];

		if (c == '"')
			return true;
		if (c != '\\')
			continue;
		if (p->i >= p->n)
			return false;
		c = p->s[p->i++];
		if (c != 'u') {
			if (!c || !strchr("\"\\/bfnrt", c))
				return false;
			continue;
		}
		if (!jv_hex4(p, &u) || (u >= 0xdc00 && u <= 0xdfff))
			return false;
		if (u >= 0xd800 && u <= 0xdbff &&
		    (!jv_at(p, '\\') || p->i + 1 >= p->n ||
		     p->s[p->i + 1] != 'u' || (p->i += 2, !jv_hex4(p, &lo)) ||
		     lo < 0xdc00 || lo > 0xdfff))
			return false;
	}
	return false;
}

static bool jv_value(struct jv *p, int depth)
{
	char open, close;

	jv_ws(p);
	if (p->i >= p->n)
		return false;
	open = p->s[p->i];
	if (open == '"')
		return jv_string(p);
	if (open != '{' && open != '[') {
		static const char *const words[] = { "true", "false", "null" };

		for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
			size_t len = strlen(words[k]);

			if (p->n - p->i >= len &&
			    memcmp(p->s + p->i, words[k], len) == 0) {
				p->i += len;
				return true;
			}
		}
		if (jv_at(p, '-'))
			p->i++;
		if (jv_at(p, '0'))
			p->i++;
		else if (!jv_digits(p))
			return false;
		if (jv_at(p, '.') && (p->i++, !jv_digits(p)))
			return false;
		if (jv_at(p, 'e') || jv_at(p, 'E')) {
			p->i++;
			if (jv_at(p, '+') || jv_at(p, '-'))
				p->i++;
			if (!jv_digits(p))
				return false;
		}
		return true;
	}
	if (depth >= 1000)
		return false;
	close = open == '{' ? '}' : ']';
	p->i++;
	jv_ws(p);
	if (jv_at(p, close)) {
		p->i++;
		return true;
	}
	for (;;) {
		if (open == '{') {
			jv_ws(p);
			if (!jv_at(p, '"') || !jv_string(p))
				return false;
			jv_ws(p);
			if (!jv_at(p, ':'))
				return false;
			p->i++;
		}
		if (!jv_value(p, depth + 1))
			return false;
		jv_ws(p);
		if (jv_at(p, close)) {
			p->i++;
			return true;
		}
		if (!jv_at(p, ','))
			return false;
		p->i++;
	}
}

static bool json_valid(const char *s, size_t n)
{
	struct jv p = { s, n, 0 };

	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		p.i = 3;
	return jv_value(&p, 0);
}

/* Values ----------------------------------------------------------------- */

static enum rt_ev classify(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (strncmp(key, events[i].prefix, strlen(events[i].prefix)) ==
		    0)
			return events[i].ev;
	return EV_NONE;
}

static bool as_int(const cJSON *v, s64 *out)
{
	double d;

	if (!cJSON_IsNumber(v))
		return false;
	d = v->valuedouble;
	if (!(d >= -MAX_JSON_INT && d <= MAX_JSON_INT) || d != (double)(s64)d)
		return false;
	*out = (s64)d;
	return true;
}

static int get_int(struct rt *t, const cJSON *v, s64 min, s64 max, s64 *out)
{
	if (!as_int(v, out))
		return fail(t, "must be an integer");
	if (*out < min || *out > max)
		return fail(t, "must be from %lld to %lld", (long long)min,
			    (long long)max);
	return 0;
}

/* A time in microseconds, rt-app's unit everywhere. */
static int get_us(struct rt *t, const cJSON *v, s64 *out)
{
	if (!as_int(v, out) || *out < 0 || *out > MAX_US)
		return fail(t,
			    "must be a whole number of microseconds from 0 "
			    "to %lld",
			    (long long)MAX_US);
	return 0;
}

static int get_string(struct rt *t, const cJSON *v, const char **out)
{
	if (!cJSON_IsString(v) || !v->valuestring)
		return fail(t, "must be a string");
	*out = v->valuestring;
	return 0;
}

/*
 * Native names: A-Z a-z 0-9 _ . : - and brackets around digits (other
 * bracket contents would be run-time expressions in the native format).
 */
static bool name_chars_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		char c = *s;
		const char *e;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		    c == ':' || c == '-')
			continue;
		if (c != '[')
			return false;
		for (e = s + 1; *e >= '0' && *e <= '9'; e++)
			;
		if (e == s + 1 || *e != ']')
			return false;
		s = e;
	}
	return true;
}

/* Check an rt-app name that becomes part of a native name of extra more. */
static int check_name(struct rt *t, const char *what, const char *s,
		      size_t extra)
{
	char sb[48];

	if (!name_chars_ok(s))
		return fail(t,
			    "%s '%s': names may use only A-Z a-z 0-9 _ . : "
			    "- and [N] (the native format's names)",
			    what, SHOWN(sb, s));
	if (strlen(s) + extra > NAME_MAX_LEN)
		return fail(t,
			    "%s '%s' is too long: at most %zu characters "
			    "here",
			    what, SHOWN(sb, s), NAME_MAX_LEN - extra);
	return 0;
}

/* The native name of a resource: kind prefix and rt-app name. */
static int res_name(struct rt *t, const char *prefix, const char *s,
		    char out[NAME_MAX_LEN + 1])
{
	int r = check_name(t, "name", s, strlen(prefix));

	if (!r)
		snprintf(out, NAME_MAX_LEN + 1, "%s%s", prefix, s);
	return r;
}

static unsigned digits(s64 v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static u64 sat_add(u64 a, u64 b)
{
	return a > NO_END - b ? NO_END : a + b;
}

static u64 sat_mul(u64 a, u64 b)
{
	if (a == 0 || b == 0)
		return 0;
	return a > NO_END / b ? NO_END : a * b;
}

/* A loop bound: count (-1 = for ever) times the body's. */
static u64 loop_bound(s64 count, u64 body)
{
	return count < 0 ? NO_END : sat_mul((u64)count, body);
}

/* Objects ---------------------------------------------------------------- */

/* Does the per-instance event o cover the plain name s (o->name[k])? */
static bool covers(const struct rt_obj *o, const char *s)
{
	size_t n = strlen(o->name);
	s64 k = 0;
	const char *p;

	if (strncmp(s, o->name, n) != 0 || s[n] != '[')
		return false;
	for (p = s + n + 1; *p >= '0' && *p <= '9'; p++)
		if ((k = k * 10 + (*p - '0')) >= o->nfor)
			return false;
	return p > s + n + 1 && p[0] == ']' && p[1] == '\0';
}

static struct rt_obj *find_obj(struct rt *t, enum rt_otype type,
			       const char *name, s64 nfor)
{
	for (size_t i = 0; i < t->nr_objs; i++) {
		struct rt_obj *o = &t->objs[i];

		if (o->type != type || o->dead)
			continue;
		if (o->nfor == nfor && strcmp(o->name, name) == 0)
			return o;
		if (o->nfor && !nfor && covers(o, name))
			return o;
	}
	return NULL;
}

/* The object (type, name), created at the end when new; NULL on ENOMEM. */
static struct rt_obj *use_obj(struct rt *t, enum rt_otype type,
			      const char *name, s64 nfor)
{
	struct rt_obj *o = find_obj(t, type, name, nfor);

	if (o)
		return o;
	o = grow(t, t->objs, t->nr_objs, &t->cap_objs, sizeof(*t->objs));
	if (!o)
		return NULL;
	t->objs = o;
	o = &t->objs[t->nr_objs];
	memset(o, 0, sizeof(*o));
	o->type = type;
	o->nfor = nfor;
	o->name = rt_strdup(t, name);
	if (!o->name)
		return NULL;
	t->nr_objs++;
	/* A per-instance event covers plain names declared before it. */
	for (size_t i = 0; nfor && i + 1 < t->nr_objs; i++)
		if (t->objs[i].type == type && !t->objs[i].nfor &&
		    covers(o, t->objs[i].name))
			t->objs[i].dead = true;
	return o;
}

/* The object (type, a b c): survey records and bookkeeping. */
static struct rt_obj *record(struct rt *t, enum rt_otype type, const char *a,
			     const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	struct rt_obj *o;
	char *s = rt_alloc(t, na + nb + nc + 1);

	if (!s)
		return NULL;
	memcpy(s, a, na);
	memcpy(s + na, b, nb);
	memcpy(s + na + nb, c, nc + 1);
	o = use_obj(t, type, s, 0);
	cJSON_free(s);
	return o;
}

static struct rt_task *find_task(struct rt *t, const char *name)
{
	for (size_t i = 0; i < t->nr_tasks; i++)
		if (strcmp(t->tasks[i].name, name) == 0)
			return &t->tasks[i];
	return NULL;
}

/* Survey ----------------------------------------------------------------- */

static int survey_events(struct rt *t, struct rt_task *task, const cJSON *obj,
			 bool *own)
{
	const cJSON *it, *ref, *mode;
	struct rt_task *target;
	struct rt_obj *o;
	const char *s;

	for (it = obj->child; it; it = it->next) {
		enum rt_ev ev = classify(it->string ? it->string : "");
		const char *v = cJSON_IsString(it) ? it->valuestring : NULL;

		switch (ev) {
		case EV_FORK:
			if (v && (target = find_task(t, v)))
				target->forked = true;
			break;
		case EV_BARRIER:
			if (!v)
				break;
			if (!(o = record(t, RO_BARRIER, "barrier:", v, "")))
				return EEVDF_ENOMEM;
			if (o->last != task) {
				o->last = task;
				o->parties += task->inst;
			}
			break;
		case EV_TIMER:
			ref = cJSON_GetObjectItemCaseSensitive(it, "ref");
			mode = cJSON_GetObjectItemCaseSensitive(it, "mode");
			s = cJSON_IsString(ref) ? ref->valuestring : "unknown";
			if (strncmp(s, "unique", 6) == 0)
				o = record(t, RO_UTIMER, task->name, "/", s);
			else
				o = record(t, RO_TIMER, "timer:", s, "");
			if (!o)
				return EEVDF_ENOMEM;
			if (cJSON_IsString(mode) &&
			    strcmp(mode->valuestring, "absolute") == 0)
				o->absolute = true;
			break;
		case EV_SUSPEND:
			if (v && (!*v || strcmp(v, task->name) == 0))
				*own = true;
			else if (v && !record(t, RO_BLOCKED, v, "", ""))
				return EEVDF_ENOMEM;
			break;
		case EV_WAIT:
		case EV_SYNC:
			ref = cJSON_GetObjectItemCaseSensitive(it, "ref");
			if (cJSON_IsString(ref) &&
			    !record(t, RO_BLOCKED, ref->valuestring, "", ""))
				return EEVDF_ENOMEM;
			break;
		default:
			break;
		}
	}
	return 0;
}

static int survey(struct rt *t)
{
	struct rt_task *task;
	const cJSON *ph;
	bool own;
	int r;

	for (size_t i = 0; i < t->nr_tasks; i++) {
		task = &t->tasks[i];
		ph = cJSON_GetObjectItemCaseSensitive(task->json, "phases");
		own = false;
		if (!cJSON_IsObject(ph)) {
			r = survey_events(t, task, task->json, &own);
		} else {
			r = 0;
			for (ph = ph->child; !r && ph; ph = ph->next)
				if (cJSON_IsObject(ph))
					r = survey_events(t, task, ph, &own);
		}
		if (r)
			return r;
		if (own && task->inst > 1)
			task->per_inst = true;
		else if (own && !record(t, RO_BLOCKED, task->name, "", ""))
			return EEVDF_ENOMEM;
	}
	/* The fork copies of a per-instance task share its plain name. */
	for (size_t i = 0; i < t->nr_tasks; i++) {
		task = &t->tasks[i];
		if (task->per_inst && task->forked &&
		    !record(t, RO_BLOCKED, task->name, "", ""))
			return EEVDF_ENOMEM;
	}
	return 0;
}

/* Output helpers ----------------------------------------------------------- */

/* Add item to parent (an array when key is NULL); NULL on ENOMEM. */
static cJSON *put(struct rt *t, cJSON *parent, const char *key, cJSON *item)
{
	bool ok;

	if (!item || !parent) {
		cJSON_Delete(item);
		t->oom = true;
		return NULL;
	}
	ok = key ? cJSON_AddItemToObject(parent, key, item) :
		   cJSON_AddItemToArray(parent, item);
	if (!ok) {
		cJSON_Delete(item);
		t->oom = true;
		return NULL;
	}
	return item;
}

static cJSON *put_str(struct rt *t, cJSON *parent, const char *key,
		      const char *s)
{
	return put(t, parent, key, cJSON_CreateString(s));
}

static cJSON *put_int(struct rt *t, cJSON *parent, const char *key, s64 v)
{
	return put(t, parent, key, cJSON_CreateNumber((double)v));
}

/* A duration string: "Nus" or "Nns". */
static cJSON *put_dur(struct rt *t, cJSON *parent, const char *key, s64 v,
		      const char *unit)
{
	char b[32];

	snprintf(b, sizeof(b), "%lld%s", (long long)v, unit);
	return put_str(t, parent, key, b);
}

/* Append the op {name: arg} to body; returns arg. */
static cJSON *put_op(struct rt *t, cJSON *body, const char *name, cJSON *arg)
{
	return put(t, put(t, body, NULL, cJSON_CreateObject()), name, arg);
}

/* Append the op {name: "<v><unit>"} to body. */
static void put_op_dur(struct rt *t, cJSON *body, const char *name, s64 v,
		       const char *unit)
{
	char b[32];

	snprintf(b, sizeof(b), "%lld%s", (long long)v, unit);
	put_op(t, body, name, cJSON_CreateString(b));
}

/* Append a loop of count (-1: for ever); returns its body. */
static cJSON *put_loop(struct rt *t, cJSON *body, s64 count)
{
	cJSON *l = put_op(t, body, "loop", cJSON_CreateObject());

	if (count < 0)
		put_str(t, l, "count", "forever");
	else
		put_int(t, l, "count", count);
	return put(t, l, "body", cJSON_CreateArray());
}

/* wake {event, n} */
static void put_wake(struct rt *t, cJSON *body, const char *ev, bool all)
{
	cJSON *w = put_op(t, body, "wake", cJSON_CreateObject());

	put_str(t, w, "event", ev);
	if (all)
		put_str(t, w, "n", "all");
	else
		put_int(t, w, "n", 1);
}

/* cpus, without repeats (rt-app sets bits in a mask). */
static void put_cpus(struct rt *t, cJSON *parent, const char *key,
		     const cJSON *cpus)
{
	cJSON *a = put(t, parent, key, cJSON_CreateArray());
	const cJSON *it, *jt;

	for (it = cpus ? cpus->child : NULL; a && it; it = it->next) {
		for (jt = cpus->child; jt != it; jt = jt->next)
			if (jt->valuedouble == it->valuedouble)
				break;
		if (jt == it)
			put(t, a, NULL, cJSON_CreateNumber(it->valuedouble));
	}
}

/* Thread and phase properties ---------------------------------------------- */

static int find_prop(const char *key, unsigned level, bool has_phases)
{
	if (level == LV_T && has_phases && strcmp(key, "runtime") == 0)
		return PR_RUNTIME;
	for (int i = 0; i < PR_NR; i++)
		if ((props[i].levels & level) && strcmp(key, props[i].key) == 0)
			return i;
	return -1;
}

static bool pol_fair(int policy)
{
	return policy <= EEVDF_POLICY_IDLE;
}

static bool pol_rt(int policy)
{
	return policy == EEVDF_POLICY_FIFO || policy == EEVDF_POLICY_RR;
}

/* rt-app's string_to_policy(): exact names, else an error. */
static int parse_policy(struct rt *t, const cJSON *v, int *out)
{
	const char *s = NULL;
	char sb[48];
	int r = get_string(t, v, &s);

	if (r)
		return r;
	for (int i = 0; i < (int)ARRAY_SIZE(rt_policy_names); i++) {
		if (strcmp(s, rt_policy_names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	return fail(t,
		    "unknown policy '%s' (valid: SCHED_OTHER, SCHED_BATCH, "
		    "SCHED_IDLE, SCHED_RR, SCHED_FIFO, SCHED_DEADLINE)",
		    SHOWN(sb, s));
}

static int parse_cpus(struct rt *t, const cJSON *v)
{
	const cJSON *it;
	size_t old;
	s64 c;
	int i = 0, r = 0;

	if (!cJSON_IsArray(v) || !v->child)
		return fail(t, "must be a non-empty array of CPU numbers");
	for (it = v->child; !r && it; it = it->next, i++) {
		old = push_idx(t, i);
		r = get_int(t, it, 0, MAX_CPU, &c);
		pop(t, old);
	}
	return r;
}

/* The custom slice from dl-runtime (us), clamped as the kernel does. */
static int parse_slice(struct rt *t, const cJSON *v, s64 *out)
{
	s64 us = 0;
	char b[512];
	int r = get_us(t, v, &us);

	if (r)
		return r;
	*out = us;
	if (us == 0)
		return 0; /* no custom slice */
	*out = max_s64(SLICE_MIN_US, min_s64(SLICE_MAX_US, us));
	if (*out != us) {
		snprintf(b, sizeof(b),
			 "%s: %lld us clamped to %lld us, as "
			 "sched_setattr() clamps a custom slice to 0.1..100 "
			 "ms.",
			 t->path, (long long)us, (long long)*out);
		strlist_add(t, &t->remarks, b);
		note(t,
		     "%lld us is clamped to %lld us, as sched_setattr() "
		     "clamps a custom slice to 0.1..100 ms",
		     (long long)us, (long long)*out);
	}
	return 0;
}

/*
 * "priority" under the policy in effect: the nice value of the fair
 * policies, the rt_priority of SCHED_FIFO and SCHED_RR (rt-app's
 * pthread_setschedparam(), which refuses 0 and more than 99), nothing for
 * SCHED_DEADLINE (rt-app passes sched_priority 0, which sched_setattr()
 * requires of it).
 */
static int parse_priority(struct rt *t, const cJSON *v, struct rt_attrs *a)
{
	s64 prio;
	bool ok = as_int(v, &prio);

	a->has_prio = true;
	if (pol_fair(a->policy)) {
		if (!ok || prio < -20 || prio > 19)
			return fail(t, "is the nice value for SCHED_OTHER, "
				       "SCHED_BATCH and SCHED_IDLE: an integer "
				       "from -20 to 19");
		a->has_nice = true;
		a->nice = prio;
	} else if (pol_rt(a->policy)) {
		if (!ok || prio < 1 || prio > 99)
			return fail(t,
				    "is the rt_priority for %s: an integer "
				    "from 1 to 99 (pthread_setschedparam() "
				    "refuses others with EINVAL)",
				    rt_policy_names[a->policy]);
		a->rt_prio = prio;
	} else {
		if (!ok)
			return fail(t, "must be an integer");
		ignore_here(t, "ignored: SCHED_DEADLINE has no priority "
			       "(rt-app passes sched_priority 0, which "
			       "sched_setattr() requires of it)");
	}
	return 0;
}

/* The entry of l that is s, or NULL. */
static const char *strlist_find(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return l->v[i];
	return NULL;
}

/*
 * A taskgroup, as rt-app's parse_taskgroup_data() reads it: a string, ""
 * for none, else a path from '/'; rt-app makes its directories under the
 * cgroup mount point (mkdir of each missing part, cgroup_mkdir()) and
 * moves the thread there.  Repeated and trailing slashes name the same
 * directory: "/tg1//a/" is the cgroup "/tg1/a".  *out is that path,
 * recorded in t->groups, or NULL for none.
 */
static int parse_taskgroup(struct rt *t, const cJSON *v, const char **out)
{
	char path[EEVDF_GROUP_PATH_MAX + 1], sb[WL_SHOWN_MAX];
	const char *s, *why;
	size_t n = 0;

	*out = NULL;
	if (!cJSON_IsString(v))
		return fail(t, "must be a string: the path of a cgroup "
			       "(\"/tg1\"; \"\" for none)");
	s = v->valuestring;
	if (!s[0])
		return 0;
	if (s[0] != '/')
		return fail(t,
			    "rt-app refuses a taskgroup that does not start "
			    "with '/' (\"Taskgroup [%s] has to start with "
			    "[/]\")",
			    SHOWN(sb, s));
	for (; *s && n < sizeof(path) - 1; s++)
		if (*s != '/' || !n || path[n - 1] != '/')
			path[n++] = *s;
	if (n > 1 && path[n - 1] == '/')
		n--;
	path[n] = '\0';
	if (*s)
		why = "longer than 255 bytes";
	else
		why = eevdf__wl_group_path_why(path);
	if (why)
		return fail(t,
			    "taskgroup '%s' is no cgroup eevdf-sim can make: "
			    "%s",
			    SHOWN(sb, v->valuestring), why);
	strlist_add(t, &t->groups, path);
	*out = strlist_find(&t->groups, path);
	return *out ? 0 : EEVDF_ENOMEM;
}

/* Why a thread or phase property is accepted and ignored: its note. */
static const char *prop_ignored(int pr)
{
	switch (pr) {
	case PR_DL_RUNTIME: /* of SCHED_FIFO and SCHED_RR */
		return "ignored: SCHED_FIFO and SCHED_RR have no runtime "
		       "(dl-runtime is the reservation of SCHED_DEADLINE and "
		       "the custom slice of the fair policies)";
	case PR_DL_PERIOD:
	case PR_DL_DEADLINE:
		return "ignored: only SCHED_DEADLINE uses it";
	case PR_RUNTIME:
		return "ignored: the legacy spelling of dl-runtime, which "
		       "SCHED_FIFO and SCHED_RR do not use";
	case PR_PERIOD:
		return "ignored: the legacy spelling of dl-period, which only "
		       "SCHED_DEADLINE uses";
	case PR_DEADLINE:
		return "ignored: the legacy spelling of dl-deadline, which only "
		       "SCHED_DEADLINE uses";
	case PR_UTIL_MIN:
	case PR_UTIL_MAX:
		return "ignored: uclamp is not modelled";
	default: /* PR_NODES */
		return "ignored: NUMA memory placement is not modelled";
	}
}

/* The deadline keys of an object, in us: dl-*, and the thread's legacy. */
enum {
	DK_RUNTIME,
	DK_PERIOD,
	DK_DEADLINE,
	DK_NR
};

struct rt_dl_keys {
	bool has[DK_NR], has_legacy[DK_NR];
	s64 us[DK_NR], legacy_us[DK_NR];
};

static int parse_prop(struct rt *t, int pr, const cJSON *v, struct rt_attrs *a,
		      struct rt_dl_keys *k)
{
	static const int dk[PR_NR] = {
		[PR_DL_RUNTIME] = DK_RUNTIME,	[PR_DL_PERIOD] = DK_PERIOD,
		[PR_DL_DEADLINE] = DK_DEADLINE, [PR_RUNTIME] = DK_RUNTIME,
		[PR_PERIOD] = DK_PERIOD,	[PR_DEADLINE] = DK_DEADLINE,
	};
	bool dl = a->policy == EEVDF_POLICY_DEADLINE;
	s64 x;

	switch (pr) {
	case PR_LOOP:
		a->has_loop = true;
		if (as_int(v, &a->loop) && a->loop == -1)
			return 0;
		return get_int(t, v, 0, MAX_LOOP, &a->loop) ?
			       fail(t,
				    "must be -1 (for ever) or a count from "
				    "0 to %lld",
				    (long long)MAX_LOOP) :
			       0;
	case PR_INSTANCE:
		return get_int(t, v, 0, MAX_INSTANCE, &a->inst);
	case PR_DELAY:
		return get_us(t, v, &a->delay);
	case PR_PHASES:
		if (!cJSON_IsObject(v) || !v->child)
			return fail(t, "must be a non-empty object of phases");
		a->phases = v;
		return 0;
	case PR_POLICY:
		return 0; /* read first: the other keys depend on it */
	case PR_PRIORITY:
		return parse_priority(t, v, a);
	case PR_DL_RUNTIME:
	case PR_DL_PERIOD:
	case PR_DL_DEADLINE:
		if (pr == PR_DL_RUNTIME && pol_fair(a->policy)) {
			k->has[DK_RUNTIME] = true;
			return parse_slice(t, v, &k->us[DK_RUNTIME]);
		}
		if (!dl) {
			ignore_here(t, prop_ignored(pr));
			return 0;
		}
		k->has[dk[pr]] = true;
		return get_us(t, v, &k->us[dk[pr]]);
	case PR_RUNTIME:
	case PR_PERIOD:
	case PR_DEADLINE:
		/* a fair thread's legacy runtime is its slice (see below) */
		if (!dl && !(pr == PR_RUNTIME && pol_fair(a->policy))) {
			ignore_here(t, prop_ignored(pr));
			return 0;
		}
		k->has_legacy[dk[pr]] = true;
		return get_us(t, v, &k->legacy_us[dk[pr]]);
	case PR_CPUS:
		a->cpus = v;
		return parse_cpus(t, v);
	case PR_TASKGROUP:
		return parse_taskgroup(t, v, &a->taskgroup);
	case PR_UTIL_MIN:
	case PR_UTIL_MAX:
		/* rt-app: -1 leaves the clamp as it is */
		if (!as_int(v, &x) || x != -1)
			a->sched = true;
		ignore_here(t, prop_ignored(pr));
		return 0;
	default: /* NUMA */
		ignore_here(t, prop_ignored(pr));
		return 0;
	}
}

/* A note at obj's key. */
static void note_at(struct rt *t, const char *key, const char *why)
{
	size_t old = push(t, key);

	ignore_here(t, why);
	pop(t, old);
}

/*
 * The legacy thread-level "runtime" of a fair thread: its custom slice
 * when dl-runtime is absent or 0, as rt-app's parse_sched_data() reads it.
 */
static int fair_legacy(struct rt *t, const cJSON *obj, struct rt_attrs *a,
		       const struct rt_dl_keys *k)
{
	size_t old;
	int r;

	if (!k->has_legacy[DK_RUNTIME])
		return 0;
	if (k->us[DK_RUNTIME]) {
		note_at(t, "runtime",
			"ignored: the legacy spelling of dl-runtime, which "
			"rt-app reads only when dl-runtime is absent or 0");
		return 0;
	}
	old = push(t, "runtime");
	r = parse_slice(t, cJSON_GetObjectItemCaseSensitive(obj, "runtime"),
			&a->slice_us);
	pop(t, old);
	return r;
}

/* The last "runtime" key of obj: the one json-c keeps of duplicates. */
static const cJSON *last_runtime(const cJSON *obj)
{
	const cJSON *it, *last = NULL;

	for (it = obj->child; it; it = it->next)
		if (strcmp(it->string, "runtime") == 0)
			last = it;
	return last;
}

/*
 * A SCHED_DEADLINE reservation as rt-app's parse_sched_data() makes it:
 * dl-runtime (default 0), dl-period (default the runtime), dl-deadline
 * (default the period), in us; a thread reads its legacy runtime, period
 * and deadline for each that is still 0.  A thread without "phases" reads
 * the legacy runtime from its "runtime" event, as rt-app does.  Checked
 * as __checkparam_dl() checks it: what the kernel would refuse is an
 * error here, as rt-app exits when sched_setattr() fails.
 */
static int dl_reservation(struct rt *t, const cJSON *obj, unsigned level,
			  bool has_phases, struct rt_dl_keys *k,
			  struct rt_attrs *a)
{
	static const char *const legacy[DK_NR] = { "runtime", "period",
						   "deadline" };
	static const char *const why_unused[DK_NR] = {
		"ignored: the legacy spelling of dl-runtime, which rt-app "
		"reads only when dl-runtime is absent or 0",
		"ignored: the legacy spelling of dl-period, which rt-app reads "
		"only when dl-period is 0 (absent, it is the runtime)",
		"ignored: the legacy spelling of dl-deadline, which rt-app "
		"reads only when dl-deadline is 0 (absent, it is the period)",
	};
	bool used[DK_NR] = { false, false, false };
	s64 *us = a->dl_us;
	struct dl_attr d;
	const char *why;
	int r;

	if (level == LV_T && !has_phases) {
		const cJSON *ev = last_runtime(obj);

		if (ev) {
			size_t old = push(t, "runtime");

			k->has_legacy[DK_RUNTIME] = true;
			r = get_us(t, ev, &k->legacy_us[DK_RUNTIME]);
			pop(t, old);
			if (r)
				return r;
		}
	}
	us[DK_RUNTIME] = k->has[DK_RUNTIME] ? k->us[DK_RUNTIME] : 0;
	us[DK_PERIOD] = k->has[DK_PERIOD] ? k->us[DK_PERIOD] : us[DK_RUNTIME];
	us[DK_DEADLINE] = k->has[DK_DEADLINE] ? k->us[DK_DEADLINE] :
						us[DK_PERIOD];
	/* in this order: a legacy runtime is the default of the period */
	for (int i = 0; level == LV_T && i < DK_NR; i++) {
		if (us[i]) {
			/* a thread's "runtime" event stays an event */
			if (k->has_legacy[i] && (i != DK_RUNTIME || has_phases))
				note_at(t, legacy[i], why_unused[i]);
			continue;
		}
		used[i] = k->has_legacy[i];
		us[i] = used[i] ? k->legacy_us[i] : i ? us[i - 1] : 0;
	}
	d.runtime = (u64)us[DK_RUNTIME] * 1000;
	d.deadline = (u64)us[DK_DEADLINE] * 1000;
	d.period = (u64)us[DK_PERIOD] * 1000;
	if (!(why = checkparam_dl(&d)))
		return 0;
	return fail(t,
		    "SCHED_DEADLINE runtime %lld us%s, deadline %lld us%s, "
		    "period %lld us%s: sched_setattr() would refuse it "
		    "(EINVAL): %s",
		    (long long)us[DK_RUNTIME],
		    k->has[DK_RUNTIME] || used[DK_RUNTIME] ? "" : " (absent)",
		    (long long)us[DK_DEADLINE],
		    k->has[DK_DEADLINE] || used[DK_DEADLINE] ?
			    "" :
			    " (absent: the period)",
		    (long long)us[DK_PERIOD],
		    k->has[DK_PERIOD] || used[DK_PERIOD] ?
			    "" :
			    " (absent: the runtime)",
		    why);
}

/* Valid keys, for the messages about unknown ones. */
#define EVENT_LIST                                                             \
	"run, runtime, sleep, timer, mem, iorun, memrun, lock, "               \
	"unlock, wait, signal, broad, sync, barrier, suspend, "                \
	"resume, sem_post, sem_wait, yield, fork"

/*
 * The properties of a thread (LV_T) or phase (LV_P) object, every key
 * checked: a property (once), an event (counted), or an error.  The
 * policy comes first, since the meaning of "priority" and the dl-* keys
 * depends on it: the object's own, else inherit (a thread's is
 * global.default_policy, a phase keeps the one in effect before it).
 */
static int parse_attrs(struct rt *t, const cJSON *obj, unsigned level,
		       int inherit, struct rt_attrs *a)
{
	bool has_phases = level == LV_T &&
			  cJSON_GetObjectItemCaseSensitive(obj, "phases");
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, "policy");
	struct rt_dl_keys k;
	u32 seen = 0;
	char sb[24];
	int r = 0;

	memset(a, 0, sizeof(*a));
	memset(&k, 0, sizeof(k));
	a->inst = 1;
	a->policy = inherit;
	if (it) {
		size_t old = push(t, "policy");

		a->has_policy = true;
		r = parse_policy(t, it, &a->policy);
		pop(t, old);
	}
	for (it = obj->child; !r && it; it = it->next) {
		const char *key = it->string ? it->string : "";
		size_t old = push(t, key);
		int pr = find_prop(key, level, has_phases);

		if (pr >= 0 && (seen & (1u << pr))) {
			r = fail(t, "duplicate key '%s'", key);
		} else if (pr >= 0) {
			seen |= 1u << pr;
			r = parse_prop(t, pr, it, a, &k);
		} else if (classify(key) != EV_NONE && has_phases) {
			r = fail(t, "event outside \"phases\" (rt-app ignores "
				    "it): move it into a phase");
		} else if (classify(key) != EV_NONE) {
			a->nevents++;
		} else {
			r = fail(
				t,
				"unknown key '%s': events start with " EVENT_LIST
				"; for the %s keys see "
				"docs/rtapp-import.md",
				SHOWN(sb, key),
				level == LV_T ? "thread" : "phase");
		}
		pop(t, old);
	}
	if (r)
		return r;
	if (pol_fair(a->policy)) {
		a->slice_us = k.us[DK_RUNTIME];
		if (level == LV_T)
			r = fair_legacy(t, obj, a, &k);
	} else if (pol_rt(a->policy) && !a->rt_prio &&
		   (level == LV_T || a->has_policy)) {
		a->rt_prio = RT_DEFAULT_PRIO; /* DEFAULT_THREAD_PRIORITY */
	}
	/*
	 * What rt-app applies: a thread always; a phase when it sets a
	 * policy, a priority, a deadline parameter or a clamp.
	 */
	a->sched |= a->has_policy || a->has_prio || k.us[DK_RUNTIME] ||
		    k.us[DK_PERIOD] || k.us[DK_DEADLINE] || level == LV_T;
	if (!r && a->policy == EEVDF_POLICY_DEADLINE && a->sched)
		r = dl_reservation(t, obj, level, has_phases, &k, a);
	return r;
}

/* Events ----------------------------------------------------------------- */

/* Keys of an event object: only those in keys. */
static int check_keys(struct rt *t, const cJSON *v, const char *const *keys,
		      size_t n, const char *valid)
{
	const cJSON *it;
	char sb[40];
	size_t i;

	if (!cJSON_IsObject(v))
		return fail(t, "must be an object with %s", valid);
	for (it = v->child; it; it = it->next) {
		for (i = 0; i < n && strcmp(it->string, keys[i]); i++)
			;
		if (i == n) {
			size_t old = push(t, it->string);
			int r = fail(t, "unknown key '%s' (valid: %s)",
				     SHOWN(sb, it->string), valid);

			pop(t, old);
			return r;
		}
	}
	return 0;
}

/* A string member (or def when absent) checked as a resource name. */
static int member_name(struct rt *t, const cJSON *v, const char *key,
		       const char *def, const char *prefix,
		       char out[NAME_MAX_LEN + 1], const char **raw)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, key);
	size_t old;
	const char *s = def;
	int r = 0;

	if (!m && !def)
		return fail(t, "missing key '%s'", key);
	old = push(t, key);
	if (m)
		r = get_string(t, m, &s);
	if (!r)
		r = res_name(t, prefix, s, out);
	pop(t, old);
	if (raw)
		*raw = s;
	return r;
}

static int ev_timer(struct rt *t, const cJSON *v, cJSON *body, u64 *bound)
{
	static const char *const keys[] = { "ref", "period", "mode" };
	char name[NAME_MAX_LEN + 1];
	const cJSON *m;
	const char *ref, *mode = "relative";
	struct rt_obj *o, *u;
	bool unique;
	cJSON *op;
	size_t old;
	s64 period = 0;
	int r;

	if ((r = check_keys(t, v, keys, ARRAY_SIZE(keys),
			    "ref, period, "
			    "mode")) ||
	    (r = member_name(t, v, "ref", "unknown", "timer:", name, &ref)))
		return r;
	if (!(m = cJSON_GetObjectItemCaseSensitive(v, "period")))
		return fail(t, "missing key 'period'");
	old = push(t, "period");
	r = get_us(t, m, &period);
	if (!r && period == 0)
		r = fail(t, "must be greater than 0");
	pop(t, old);
	if (r)
		return r;
	if ((m = cJSON_GetObjectItemCaseSensitive(v, "mode"))) {
		old = push(t, "mode");
		r = get_string(t, m, &mode);
		if (!r && strcmp(mode, "relative") && strcmp(mode, "absolute"))
			r = fail(t, "must be \"relative\" or \"absolute\"");
		pop(t, old);
		if (r)
			return r;
	}
	/* rt-app: a timer is absolute once any of its uses says so. */
	unique = strncmp(ref, "unique", 6) == 0;
	u = unique ? record(t, RO_UTIMER, t->cur->name, "/", ref) :
		     use_obj(t, RO_TIMER, name, 0);
	if (!u)
		return EEVDF_ENOMEM;
	if (u->absolute)
		mode = "absolute";
	/* (use_obj may move the table: u is not used after this) */
	if (!(o = use_obj(t, RO_TIMER, name, 0)))
		return EEVDF_ENOMEM;
	o->unique = unique;
	op = put_op(t, body, "timer_wait", cJSON_CreateObject());
	put_str(t, op, "timer", name);
	put_dur(t, op, "period", period, "us");
	put_str(t, op, "mode", mode);
	*bound = sat_add(*bound, (u64)period * 1000);
	return 0;
}

/* memrun: bytes touched = size * count; the rest only shapes the access. */
static int ev_memrun(struct rt *t, const cJSON *v, s64 *bytes)
{
	static const char *const keys[] = { "type",   "size",	 "count",
					    "stride", "pattern", "ref" };
	const cJSON *m;
	s64 size = 0, count = 1;
	size_t old;
	int r;

	if ((r = check_keys(t, v, keys, ARRAY_SIZE(keys),
			    "type, size, "
			    "count, stride, pattern, ref")))
		return r;
	if (!(m = cJSON_GetObjectItemCaseSensitive(v, "size")))
		return fail(t, "missing key 'size'");
	old = push(t, "size");
	r = get_int(t, m, 0, MAX_US, &size);
	pop(t, old);
	if (!r && (m = cJSON_GetObjectItemCaseSensitive(v, "count"))) {
		old = push(t, "count");
		r = get_int(t, m, 0, MAX_US, &count);
		pop(t, old);
	}
	if (r)
		return r;
	if (size && count > MAX_US / size)
		return fail(t, "size * count is too large");
	*bytes = size * count;
	return 0;
}

/* The event name a suspend of the current task blocks on. */
static int suspend_name(struct rt *t, const char *s, char out[NAME_MAX_LEN + 1],
			s64 *nfor)
{
	const struct rt_task *c = t->cur;

	*nfor = 0;
	if (*s && strcmp(s, c->name) != 0)
		return res_name(t, "cond:", s, out);
	/* its own name: one event per instance (not in fork copies) */
	if (c->per_inst && !t->cur_tmpl)
		*nfor = c->inst;
	return res_name(t, "cond:", c->name, out);
}

static int ev_resume(struct rt *t, const char *s, cJSON *body)
{
	char name[NAME_MAX_LEN + 1], inst[NAME_MAX_LEN + 24];
	const struct rt_task *target = find_task(t, s);
	int r = res_name(t, "cond:", s, name);

	if (!r && target && target->per_inst)
		r = check_name(t, "name", s, 5 + 2 + digits(target->inst - 1));
	if (r)
		return r;
	if (target && target->per_inst) {
		/* rt-app's resume broadcasts: wake every instance */
		if (!use_obj(t, RO_EVENT, name, target->inst))
			return EEVDF_ENOMEM;
		for (s64 k = 0; k < target->inst; k++) {
			snprintf(inst, sizeof(inst), "%s[%lld]", name,
				 (long long)k);
			put_wake(t, body, inst, true);
		}
		if (!find_obj(t, RO_BLOCKED, s, 0))
			return 0;
	}
	if (!use_obj(t, RO_EVENT, name, 0))
		return EEVDF_ENOMEM;
	put_wake(t, body, name, true);
	return 0;
}

/* The template a fork of name starts. */
static const char *tmpl_name(const struct rt_task *task, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", task->name, task->inst ? "-fork" : "");
	return buf;
}

static int emit_event(struct rt *t, const char *key, const cJSON *v,
		      cJSON *body, u64 *bound)
{
	char name[NAME_MAX_LEN + 1], mutex[NAME_MAX_LEN + 1], sb[48];
	char pattern[NAME_MAX_LEN + 8];
	enum rt_ev ev = classify(key);
	struct rt_task *target;
	cJSON *op, *w;
	const char *s = "";
	s64 x = 0, nfor, bytes;
	int r = 0;

	switch (ev) {
	case EV_RUN:
	case EV_RUNTIME:
	case EV_SLEEP:
		if ((r = get_us(t, v, &x)))
			return r;
		put_op_dur(t, body,
			   ev == EV_RUN	    ? "run" :
			   ev == EV_RUNTIME ? "spin" :
					      "sleep",
			   x, "us");
		*bound = sat_add(*bound, (u64)x * 1000);
		return 0;
	case EV_MEM:
	case EV_IORUN:
	case EV_MEMRUN:
		if (ev == EV_MEMRUN)
			r = ev_memrun(t, v, &x);
		else if (!as_int(v, &x) || x < 0 || x > MAX_US)
			r = fail(t, "must be a number of bytes from 0 to %lld",
				 (long long)MAX_US);
		if (r)
			return r;
		bytes = x;
		x = (x + EEVDF_RTAPP_BYTES_PER_NS - 1) /
		    EEVDF_RTAPP_BYTES_PER_NS;
		put_op_dur(t, body, "run", x, "ns");
		t->approx = true;
		note(t,
		     "approximated: %s%lld bytes %s %lld ns of CPU work "
		     "(" PER_BYTES "%s)",
		     ev == EV_MEMRUN ? "size x count = " : "", (long long)bytes,
		     ev == EV_IORUN ? "written to io_device are" : "are",
		     (long long)x,
		     ev == EV_MEMRUN ?
			     ", whatever the type, stride and pattern" :
		     ev == EV_IORUN ? "; no I/O is modelled" :
				      "; caches and memory bandwidth are not "
				      "modelled");
		*bound = sat_add(*bound, (u64)x);
		return 0;
	case EV_TIMER:
		return ev_timer(t, v, body, bound);
	case EV_LOCK:
	case EV_UNLOCK:
		if ((r = get_string(t, v, &s)) ||
		    (r = res_name(t, "mutex:", s, name)))
			return r;
		if (!use_obj(t, RO_MUTEX, name, 0))
			return EEVDF_ENOMEM;
		op = put_op(t, body, ev == EV_LOCK ? "lock" : "unlock",
			    cJSON_CreateObject());
		put_str(t, op, "mutex", name);
		return 0;
	case EV_WAIT:
	case EV_SYNC: {
		static const char *const keys[] = { "ref", "mutex" };

		if ((r = check_keys(t, v, keys, 2, "ref, mutex")) ||
		    (r = member_name(t, v, "ref", NULL, "cond:", name, NULL)) ||
		    (r = member_name(t, v, "mutex", NULL, "mutex:", mutex,
				     NULL)))
			return r;
		if (!use_obj(t, RO_EVENT, name, 0) ||
		    !use_obj(t, RO_MUTEX, mutex, 0))
			return EEVDF_ENOMEM;
		if (ev == EV_SYNC) {
			op = put_op(t, body, "wake_and_block",
				    cJSON_CreateObject());
			w = put(t, op, "wake", cJSON_CreateObject());
			put_str(t, w, "event", name);
			put_int(t, w, "n", 1);
			op = put(t, op, "block", cJSON_CreateObject());
		} else {
			op = put_op(t, body, "block", cJSON_CreateObject());
		}
		put_str(t, op, "event", name);
		put_str(t, op, "release", mutex);
		return 0;
	}
	case EV_SIGNAL:
	case EV_BROAD:
		if ((r = get_string(t, v, &s)) ||
		    (r = res_name(t, "cond:", s, name)))
			return r;
		if (!use_obj(t, RO_EVENT, name, 0))
			return EEVDF_ENOMEM;
		put_wake(t, body, name, ev == EV_BROAD);
		return 0;
	case EV_BARRIER:
		if ((r = get_string(t, v, &s)) ||
		    (r = res_name(t, "barrier:", s, name)))
			return r;
		if (t->cur_tmpl)
			return fail(t,
				    "barrier '%s' in a task that fork "
				    "starts: rt-app counts a barrier's "
				    "users from the file, so barriers do "
				    "not work with fork",
				    SHOWN(sb, s));
		if (!use_obj(t, RO_BARRIER, name, 0))
			return EEVDF_ENOMEM;
		put_op(t, body, "barrier", cJSON_CreateString(name));
		return 0;
	case EV_SUSPEND:
		if ((r = get_string(t, v, &s)) ||
		    (r = suspend_name(t, s, name, &nfor)))
			return r;
		if (nfor && (r = check_name(t, "task name", t->cur->name,
					    5 + 2 + digits(nfor - 1))))
			return r;
		if (!use_obj(t, RO_EVENT, name, nfor))
			return EEVDF_ENOMEM;
		/* per instance: the event named like the task, "[${i}]" */
		snprintf(pattern, sizeof(pattern), "%s%s", name,
			 nfor ? "[${i}]" : "");
		op = put_op(t, body, "block", cJSON_CreateObject());
		put_str(t, op, "event", pattern);
		return 0;
	case EV_RESUME:
		if ((r = get_string(t, v, &s)))
			return r;
		return ev_resume(t, s, body);
	case EV_SEM_POST:
	case EV_SEM_WAIT:
		if ((r = get_string(t, v, &s)) ||
		    (r = res_name(t, "sem:", s, name)))
			return r;
		if (!use_obj(t, RO_SEM, name, 0))
			return EEVDF_ENOMEM;
		op = put_op(t, body, ev == EV_SEM_POST ? "post" : "wait",
			    cJSON_CreateObject());
		put_str(t, op, "sem", name);
		return 0;
	case EV_YIELD:
		put_op(t, body, "yield", cJSON_CreateObject());
		return 0;
	case EV_FORK:
		if ((r = get_string(t, v, &s)))
			return r;
		if (!(target = find_task(t, s)))
			return fail(t, "no task named '%s' to fork",
				    SHOWN(sb, s));
		op = put_op(t, body, "spawn", cJSON_CreateObject());
		put_str(t, op, "template",
			tmpl_name(target, name, sizeof(name)));
		*bound = sat_add(*bound, target->tbound);
		return 0;
	case EV_NONE:
		break;
	}
	return 0;
}

/* The events of obj, in key order, into body. */
static int emit_events(struct rt *t, const cJSON *obj, cJSON *body, u64 *bound)
{
	const cJSON *it;
	int r = 0;

	*bound = 0;
	for (it = obj->child; !r && it; it = it->next) {
		size_t old;

		if (classify(it->string) == EV_NONE)
			continue;
		old = push(t, it->string);
		r = emit_event(t, it->string, it, body, bound);
		pop(t, old);
	}
	return r;
}

/* Tasks ------------------------------------------------------------------ */

/*
 * The native keys of the settings a, "policy" too when with_policy: the
 * nice and slice of a fair policy, the rt_priority of SCHED_FIFO and
 * SCHED_RR, the reservation of SCHED_DEADLINE.
 */
static void put_sched(struct rt *t, cJSON *o, const struct rt_attrs *a,
		      bool with_policy)
{
	if (with_policy)
		put_str(t, o, "policy", policy_names[a->policy]);
	if (pol_fair(a->policy)) {
		if (a->has_nice)
			put_int(t, o, "nice", a->nice);
		if (a->slice_us)
			put_dur(t, o, "slice", a->slice_us, "us");
	} else if (pol_rt(a->policy)) {
		put_int(t, o, "priority", a->rt_prio);
	} else {
		put_dur(t, o, "runtime", a->dl_us[DK_RUNTIME], "us");
		put_dur(t, o, "deadline", a->dl_us[DK_DEADLINE], "us");
		put_dur(t, o, "period", a->dl_us[DK_PERIOD], "us");
	}
}

/* The error of a SCHED_DEADLINE thread with "cpus". */
#define DL_PINNED                                                              \
	"a SCHED_DEADLINE thread may not be pinned: the kernel refuses an "    \
	"affinity that does not cover its root domain (EPERM, EBUSY), and "    \
	"eevdf-sim refuses cpus on deadline tasks"

static int fail_taskgroup(struct rt *t, int policy)
{
	return fail(t,
		    "rt-app refuses a taskgroup with %s (\"No taskgroup "
		    "support for policy %s\"): only SCHED_OTHER, SCHED_BATCH "
		    "and SCHED_IDLE threads may be in one",
		    rt_policy_names[policy], rt_policy_names[policy]);
}

/*
 * rt-app's checks of a phase against what is in effect before it (its
 * check_taskgroup_policy_dep(), in file order): a taskgroup only with a
 * fair policy; and no affinity for SCHED_DEADLINE.  *policy and *tg are
 * the last set ones, explicitly (a phase without "policy" keeps it).  The
 * path is the phase's; a fault of the thread's keys names them.
 */
static int check_phase(struct rt *t, const struct rt_attrs *ta,
		       const struct rt_attrs *a, size_t thread_path,
		       int *policy, const char **tg)
{
	bool tg_bad;

	if (a->has_policy)
		*policy = a->policy;
	if (a->taskgroup)
		*tg = a->taskgroup;
	tg_bad = *tg && !pol_fair(*policy);
	if (!tg_bad &&
	    !(a->policy == EEVDF_POLICY_DEADLINE && (a->cpus || ta->cpus)))
		return 0;
	if (tg_bad ? a->has_policy || a->taskgroup : a->cpus != NULL) {
		push(t, !tg_bad	      ? "cpus" :
			a->has_policy ? "policy" :
					"taskgroup");
	} else { /* the thread's own key */
		pop(t, thread_path);
		push(t, tg_bad ? "taskgroup" : "cpus");
	}
	return tg_bad ? fail_taskgroup(t, *policy) : fail(t, DL_PINNED);
}

static int emit_phases(struct rt *t, const struct rt_attrs *ta, cJSON *body,
		       u64 *bound)
{
	bool any_cpus = false, any_policy = false, set, with_policy;
	const char *tg = ta->taskgroup;
	const cJSON *ph;
	int policy = ta->policy;
	struct rt_attrs a;
	cJSON *sa, *lb;
	size_t o0 = t->plen, o1;
	u64 pb;
	int r = 0;

	for (ph = ta->phases->child; ph; ph = ph->next) {
		if (cJSON_GetObjectItemCaseSensitive(ph, "cpus"))
			any_cpus = true;
		if (cJSON_GetObjectItemCaseSensitive(ph, "policy"))
			any_policy = true;
	}
	*bound = 0;
	o1 = push(t, "phases");
	for (ph = ta->phases->child; !r && ph; ph = ph->next) {
		size_t old = push(t, ph->string);

		/*
		 * A phase without "policy" keeps the one in effect: rt-app
		 * resolves it at its first entry, in file order, for good.
		 */
		if (!cJSON_IsObject(ph))
			r = fail(t, "a phase must be an object");
		else if (!(r = parse_attrs(t, ph, LV_P, policy, &a)) &&
			 !a.nevents)
			r = fail(t, "no events (rt-app needs at least one per "
				    "phase)");
		if (!r)
			r = check_phase(t, ta, &a, o0, &policy, &tg);
		if (r) {
			pop(t, old);
			break;
		}
		/*
		 * Phase-level settings apply at each entry of the phase.  A
		 * fair phase that sets only a priority names its policy when
		 * another phase changes it, since rt-app's returns to it.
		 */
		if (pol_fair(a.policy)) {
			with_policy = a.has_policy ||
				      (a.has_nice && any_policy);
			set = with_policy || a.has_nice || a.slice_us;
		} else if (pol_rt(a.policy)) {
			set = with_policy = a.has_policy || a.has_prio;
		} else {
			set = with_policy = a.sched;
		}
		if (set || any_cpus || a.taskgroup) {
			sa = put_op(t, body, "setattr", cJSON_CreateObject());
			if (set)
				put_sched(t, sa, &a, with_policy);
			/* set_thread_taskgroup(): a phase's taskgroup */
			if (a.taskgroup)
				put_str(t, sa, "cgroup", a.taskgroup);
			/* rt-app returns to the thread's affinity */
			if (a.cpus || ta->cpus)
				put_cpus(t, sa, "cpus",
					 a.cpus ? a.cpus : ta->cpus);
			else if (any_cpus)
				put(t, sa, "cpus", cJSON_CreateNull());
		}
		lb = put_loop(t, body, a.has_loop ? a.loop : 1);
		r = emit_events(t, ph, lb, &pb);
		*bound = sat_add(*bound,
				 loop_bound(a.has_loop ? a.loop : 1, pb));
		pop(t, old);
	}
	pop(t, o1);
	return r;
}

/* Task (or, as_tmpl, template) of one rt-app thread. */
static int emit_task(struct rt *t, struct rt_task *task, bool as_tmpl,
		     cJSON *tasks, cJSON *tmpls, u64 *bound)
{
	char tn[NAME_MAX_LEN + 16];
	struct rt_attrs a;
	cJSON *o, *prog, *body;
	size_t old = push(t, "tasks"), o2 = push(t, task->name), o3;
	int r;
	u64 b;

	t->cur = task;
	t->cur_tmpl = as_tmpl;
	if ((r = parse_attrs(t, task->json, LV_T, t->def_policy, &a)))
		goto out;
	if (a.policy == EEVDF_POLICY_DEADLINE && a.cpus) {
		o3 = push(t, "cpus");
		r = fail(t, DL_PINNED);
		pop(t, o3);
	} else if (!a.phases && a.taskgroup && !pol_fair(a.policy)) {
		/* a thread without phases is its own phase */
		o3 = push(t, "taskgroup");
		r = fail_taskgroup(t, a.policy);
		pop(t, o3);
	}
	if (r)
		goto out;
	r = as_tmpl ? check_name(t, "task name",
				 tmpl_name(task, tn, sizeof(tn)), 8) :
		      check_name(t, "task name", task->name,
				 a.inst > 1 ? 2 + digits(a.inst - 1) : 0);
	if (r)
		goto out;
	if (as_tmpl) {
		o = put(t, tmpls, tn, cJSON_CreateObject());
	} else {
		o = put(t, tasks, NULL, cJSON_CreateObject());
		if (task->per_inst) {
			cJSON *f, *range;

			snprintf(tn, sizeof(tn), "%s[${i}]", task->name);
			put_str(t, o, "name", tn);
			f = put(t, o, "for", cJSON_CreateObject());
			range = put(t, f, "i", cJSON_CreateArray());
			put_int(t, range, NULL, 0);
			put_int(t, range, NULL, a.inst);
		} else {
			put_str(t, o, "name", task->name);
			if (a.inst > 1)
				put_int(t, o, "count", a.inst);
		}
	}
	put_str(t, o, "kind", "thread");
	put_sched(t, o, &a, a.policy != EEVDF_POLICY_NORMAL);
	if (a.cpus)
		put_cpus(t, o, "cpus", a.cpus);
	/* a thread starts in its taskgroup; without one a forked thread
	 * stays where its creator is, as a template's instance does */
	if (a.taskgroup)
		put_str(t, o, "cgroup", a.taskgroup);
	if (a.delay && !as_tmpl)
		put_dur(t, o, "start", a.delay, "us");
	prog = put(t, o, "program", cJSON_CreateArray());
	/* a forked thread sleeps its delay first */
	if (a.delay && as_tmpl)
		put_op_dur(t, prog, "sleep", a.delay, "us");
	body = put_loop(t, prog, a.has_loop ? a.loop : -1);
	if (a.phases) {
		r = emit_phases(t, &a, body, &b);
	} else if (!a.nevents) {
		r = fail(t, "no events: give the thread events or \"phases\"");
	} else {
		r = emit_events(t, task->json, body, &b);
	}
	if (!r)
		*bound = sat_add((u64)a.delay * 1000,
				 loop_bound(a.has_loop ? a.loop : -1, b));
out:
	pop(t, o2);
	pop(t, old);
	return r;
}

/* Top level -------------------------------------------------------------- */

/* "global": duration (s, or -1) and default_policy; the rest is ignored. */
static int parse_global(struct rt *t, const cJSON *g, s64 *duration)
{
	const cJSON *it, *jt;
	char sb[40];
	size_t old, i;
	int r = 0;

	*duration = -1;
	t->def_policy = EEVDF_POLICY_NORMAL;
	if (!g)
		return 0;
	old = push(t, "global");
	if (!cJSON_IsObject(g)) {
		r = fail(t, "must be an object");
		goto out;
	}
	for (it = g->child; !r && it; it = it->next) {
		size_t o2 = push(t, it->string);

		for (jt = g->child; jt != it; jt = jt->next)
			if (strcmp(jt->string, it->string) == 0)
				break;
		for (i = 0; i < ARRAY_SIZE(global_ignored) &&
			    strcmp(it->string, global_ignored[i].key);
		     i++)
			;
		if (jt != it)
			r = fail(t, "duplicate key '%s'", it->string);
		else if (strcmp(it->string, "duration") == 0)
			r = get_int(t, it, -1, MAX_DURATION_S, duration);
		else if (strcmp(it->string, "default_policy") == 0)
			r = parse_policy(t, it, &t->def_policy);
		else if (i < ARRAY_SIZE(global_ignored))
			ignore_here(t, global_ignored[i].why);
		else
			r = fail(t,
				 "unknown key '%s' (valid: duration, "
				 "default_policy, calibration, pi_enabled, "
				 "lock_pages, logdir, log_basename, "
				 "log_size, ftrace, gnuplot, io_device, "
				 "mem_buffer_size, cumulative_slack)",
				 SHOWN(sb, it->string));
		pop(t, o2);
	}
out:
	pop(t, old);
	return r;
}

/* The task table, in file order, with instance counts for the survey. */
static int collect_tasks(struct rt *t, const cJSON *tasks)
{
	const cJSON *it, *inst;
	size_t n = 0, old = push(t, "tasks");
	int r = 0;

	if (!cJSON_IsObject(tasks)) {
		r = fail(t, "must be an object of threads (name: thread)");
		goto out;
	}
	for (it = tasks->child; it; it = it->next)
		n++;
	if (!n) {
		r = fail(t, "has no threads");
		goto out;
	}
	t->tasks = rt_alloc(t, n * sizeof(*t->tasks));
	if (!t->tasks) {
		r = EEVDF_ENOMEM;
		goto out;
	}
	for (it = tasks->child; !r && it; it = it->next) {
		struct rt_task *task = &t->tasks[t->nr_tasks];
		size_t o2 = push(t, it->string);

		if (find_task(t, it->string))
			r = fail(t, "duplicate thread name '%s'", it->string);
		else if (!cJSON_IsObject(it))
			r = fail(t, "a thread must be an object");
		pop(t, o2);
		if (r)
			break;
		memset(task, 0, sizeof(*task));
		task->name = it->string;
		task->json = it;
		inst = cJSON_GetObjectItemCaseSensitive(it, "instance");
		if (!inst || !as_int(inst, &task->inst) || task->inst < 0)
			task->inst = 1;
		t->nr_tasks++;
	}
out:
	pop(t, old);
	return r;
}

static void put_object(struct rt *t, cJSON *objs, const struct rt_obj *o)
{
	static const char *const types[] = {
		[RO_MUTEX] = "mutex", [RO_EVENT] = "event",
		[RO_SEM] = "sem",     [RO_BARRIER] = "barrier",
		[RO_TIMER] = "timer",
	};
	char name[NAME_MAX_LEN + 16];
	cJSON *j = put(t, objs, NULL, cJSON_CreateObject());

	put_str(t, j, "type", types[o->type]);
	if (o->nfor) {
		cJSON *range;

		snprintf(name, sizeof(name), "%s[${i}]", o->name);
		put_str(t, j, "name", name);
		range = put(t, put(t, j, "for", cJSON_CreateObject()), "i",
			    cJSON_CreateArray());
		put_int(t, range, NULL, 0);
		put_int(t, range, NULL, o->nfor);
	} else {
		put_str(t, j, "name", o->name);
	}
	if (o->type == RO_SEM)
		put_int(t, j, "initial", 0);
	else if (o->type == RO_BARRIER)
		put_int(t, j, "parties", o->parties);
	else if (o->type == RO_TIMER && o->unique)
		put(t, j, "unique", cJSON_CreateTrue());
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * "groups": every taskgroup but the root, with the defaults (rt-app
 * writes no cpu.weight or cpu.max), in order of their paths.
 */
static void put_groups(struct rt *t, cJSON *root)
{
	const char **v;
	cJSON *g;
	size_t n = 0;

	if (!t->groups.n)
		return;
	v = rt_alloc(t, t->groups.n * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < t->groups.n; i++)
		if (strcmp(t->groups.v[i], "/") != 0)
			v[n++] = t->groups.v[i];
	qsort(v, n, sizeof(*v), cmp_str);
	g = n ? put(t, root, "groups", cJSON_CreateObject()) : NULL;
	for (size_t i = 0; g && i < n; i++)
		put(t, g, v[i], cJSON_CreateObject());
	cJSON_free(v);
}

/* The objects every emitted op named, in order of first use. */
static cJSON *make_objects(struct rt *t)
{
	cJSON *objs = cJSON_CreateArray();

	if (!objs) {
		t->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < t->nr_objs; i++) {
		const struct rt_obj *o = &t->objs[i];

		/* survey records of timers and barriers no op emitted stay */
		if (o->type <= RO_TIMER && !o->dead)
			put_object(t, objs, o);
	}
	return objs;
}

/* "name": the file's base name without ".json" ("rt-app" without one). */
static void put_name(struct rt *t, cJSON *root, const char *file)
{
	const char *b = file ? strrchr(file, '/') : NULL;
	char name[128];
	size_t n;

	b = b ? b + 1 : file ? file : "";
	n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".json") == 0)
		n -= 5;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, b, n);
	name[n] = '\0';
	put_str(t, root, "name", n ? name : "rt-app");
}

struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct rt *t, struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (t->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t ncap = max_u64(2 * b->cap, b->len + n + 256);
		char *ns = rt_alloc(t, ncap);

		if (!ns)
			return;
		if (b->len)
			memcpy(ns, b->s, b->len);
		cJSON_free(b->s);
		b->s = ns;
		b->cap = ncap;
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

static void put_description(struct rt *t, cJSON *root, const char *file)
{
	struct sbuf b = { NULL, 0, 0 };
	char line[160];

	if (file) {
		sb_add(t, &b, "Imported from the rt-app file '");
		sb_add(t, &b, file);
		sb_add(t, &b, "'.");
	} else {
		sb_add(t, &b, "Imported from rt-app text.");
	}
	for (size_t i = 0; i < t->remarks.n; i++) {
		sb_add(t, &b, " ");
		sb_add(t, &b, t->remarks.v[i]);
	}
	if (t->approx) {
		snprintf(line, sizeof(line),
			 " Approximate: mem, iorun and "
			 "memrun are CPU work of 1 ns per %d bytes.",
			 EEVDF_RTAPP_BYTES_PER_NS);
		sb_add(t, &b, line);
	}
	for (size_t i = 0; i < t->ignored.n; i++) {
		sb_add(t, &b, i ? ", " : " Ignored: ");
		sb_add(t, &b, t->ignored.v[i]);
	}
	if (t->ignored.n)
		sb_add(t, &b, ".");
	if (!t->oom)
		put_str(t, root, "description", b.s);
	cJSON_free(b.s);
}

/*
 * "stop" and "duration": rt-app's global duration kills every thread;
 * without one the run ends when every thread has ended, and "duration" is
 * a generous bound on that: twice the configured time of every thread run
 * one after the other, plus a second.
 */
static void put_stop(struct rt *t, cJSON *root, s64 duration, u64 total)
{
	cJSON *stop;

	if (duration > 0) {
		put_dur(t, root, "duration", duration, "s");
		stop = put(t, root, "stop", cJSON_CreateObject());
		put_dur(t, stop, "after", duration, "s");
		put_str(t, stop, "mode", "kill");
		return;
	}
	if (total == NO_END) {
		put_str(t, root, "duration", FOREVER_DURATION);
	} else {
		u64 ns = sat_add(sat_mul(total, 2), NS_PER_S);
		u64 s = ns / NS_PER_S + (ns % NS_PER_S != 0);

		put_dur(t, root, "duration", (s64)min_u64(s, MAX_DURATION_S),
			"s");
	}
	stop = put(t, root, "stop", cJSON_CreateObject());
	put_str(t, stop, "when", "all_exited");
}

/* The rt-app document root into the native one. */
static int translate(struct rt *t, const cJSON *in, const char *file,
		     cJSON **out)
{
	cJSON *root = NULL, *tasks = NULL, *tmpls = NULL, *objs;
	const cJSON *it, *jt;
	const struct rt_task *forever = NULL; /* the first thread without end */
	u64 total = 0, b;
	s64 duration;
	bool any = false;
	char sb[40];
	int r = 0;

	if (!cJSON_IsObject(in))
		return fail(t, "an rt-app file is a JSON object with "
			       "\"tasks\"");
	for (it = in->child; it; it = it->next) {
		size_t old = push(t, it->string);

		for (jt = in->child; jt != it; jt = jt->next)
			if (strcmp(jt->string, it->string) == 0)
				break;
		if (jt != it)
			r = fail(t, "duplicate key '%s'", it->string);
		else if (!strcmp(it->string, "resources"))
			ignore_here(t, "ignored: resources are created by "
				       "name where the events use them, as "
				       "rt-app does");
		else if (strcmp(it->string, "global") &&
			 strcmp(it->string, "tasks"))
			r = fail(t,
				 "unknown key '%s' (valid: global, "
				 "resources, tasks)",
				 SHOWN(sb, it->string));
		pop(t, old);
		if (r)
			return r;
	}
	if (!cJSON_GetObjectItemCaseSensitive(in, "tasks")) {
		bool g = cJSON_GetObjectItemCaseSensitive(in, "global") != NULL;
		bool res = cJSON_GetObjectItemCaseSensitive(in, "resources") !=
			   NULL;

		/* what is left: "global" and "resources", as merge.py reads */
		if (g || res)
			return fail(t,
				    "an rt-app fragment (only %s, no "
				    "\"tasks\"): merge it with the files that "
				    "define the threads into one rt-app file "
				    "first (rt-app's doc/merge.py does)",
				    g && res ? "\"global\" and \"resources\"" :
				    g	     ? "\"global\"" :
					       "\"resources\"");
		return fail(t, "missing key 'tasks'");
	}
	r = parse_global(t, cJSON_GetObjectItemCaseSensitive(in, "global"),
			 &duration);
	if (!r)
		r = collect_tasks(t, cJSON_GetObjectItemCaseSensitive(in,
								      "tasks"));
	if (!r)
		r = survey(t);
	if (r)
		return r;

	tasks = cJSON_CreateArray();
	tmpls = cJSON_CreateObject();
	if (!tasks || !tmpls) {
		r = EEVDF_ENOMEM;
		goto fail;
	}
	/* templates first: a fork counts its template's time */
	for (size_t i = 0; !r && i < t->nr_tasks; i++) {
		struct rt_task *task = &t->tasks[i];

		if (task->inst && !task->forked)
			continue;
		if (!task->forked) {
			size_t o1 = push(t, "tasks"), o2 = push(t, task->name);
			size_t o3 = push(t, "instance");
			char line[160];

			snprintf(line, sizeof(line),
				 "tasks.%.64s: instance 0 "
				 "and no fork starts it, so it never runs.",
				 task->name);
			strlist_add(t, &t->remarks, line);
			note(t, "0 and no fork starts the thread: it never "
				"runs");
			pop(t, o3);
			pop(t, o2);
			pop(t, o1);
		}
		r = emit_task(t, task, true, NULL, tmpls, &task->tbound);
	}
	for (size_t i = 0; !r && i < t->nr_tasks; i++) {
		if (!t->tasks[i].inst)
			continue;
		any = true;
		r = emit_task(t, &t->tasks[i], false, tasks, NULL, &b);
		total = sat_add(total, sat_mul(b, (u64)t->tasks[i].inst));
		if (!r && b == NO_END && !forever)
			forever = &t->tasks[i];
	}
	if (!r && !any) {
		size_t old = push(t, "tasks");

		r = fail(t, "no thread starts: every one has instance 0");
		pop(t, old);
	}
	if (r)
		goto fail;

	root = cJSON_CreateObject();
	if (!root) {
		r = EEVDF_ENOMEM;
		goto fail;
	}
	if (duration <= 0 && total == NO_END) {
		size_t o1 = push(t, "tasks");
		size_t o2 = forever ? push(t, forever->name) : t->plen;

		strlist_add(t, &t->remarks,
			    "A thread loops for ever and "
			    "global.duration is -1: the run stops at the "
			    "workload's duration (" FOREVER_DURATION ").");
		note(t,
		     "%s for ever and no global.duration ends the run: it "
		     "stops at the workload's duration, " FOREVER_DURATION
		     " (run --duration sets another)",
		     forever ? "loops" : "a thread loops");
		pop(t, o2);
		pop(t, o1);
	}
	put_str(t, root, "format", "eevdf-sim-workload/1");
	put_name(t, root, file);
	put_description(t, root, file);
	put_stop(t, root, duration, total);
	put_groups(t, root);
	objs = make_objects(t);
	if (objs && cJSON_GetArraySize(objs))
		put(t, root, "objects", objs);
	else
		cJSON_Delete(objs);
	if (tmpls->child)
		put(t, root, "templates", tmpls);
	else
		cJSON_Delete(tmpls);
	tmpls = NULL;
	put(t, root, "tasks", tasks);
	tasks = NULL;
	if (t->oom) {
		r = EEVDF_ENOMEM;
		goto fail;
	}
	*out = root;
	return 0;
fail:
	cJSON_Delete(root);
	cJSON_Delete(tasks);
	cJSON_Delete(tmpls);
	return r;
}

int eevdf__rtapp_translate_notes(const char *buf, size_t len,
				 const char *filename, char **json_out,
				 struct eevdf_diag **notes, size_t *nr_notes,
				 struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	struct rt t;
	const char *end = NULL;
	cJSON *in = NULL, *out = NULL;
	char *text = NULL;
	size_t bad = 0;
	int r;

	if (!diag)
		diag = &scratch;
	memset(diag, 0, sizeof(*diag));
	eevdf__wl_set_str(diag->file, sizeof(diag->file),
			  filename ? filename : "<memory>");
	if (notes)
		*notes = NULL;
	if (nr_notes)
		*nr_notes = 0;
	if (!json_out || (!buf && len) || (!notes != !nr_notes))
		return EEVDF_EINVAL;
	*json_out = NULL;
	if (len == 0) {
		diag->line = 1;
		eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
				  "the file is empty");
		return EEVDF_EPARSE;
	}

	memset(&t, 0, sizeof(t));
	t.diag = diag;
	text = rt_alloc(&t, len + 1);
	if (!text)
		return nomem(diag);
	memcpy(text, buf, len);
	text[len] = '\0';
	if (eevdf__rtapp_strip(text, len, &bad)) {
		r = eevdf__wl_syntax_error(diag, buf, len, bad,
					   "unterminated comment");
		goto out;
	}
	in = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!in) {
		/* cJSON also fails when it cannot allocate: tell them apart */
		if (json_valid(text, len))
			r = nomem(diag);
		else
			r = eevdf__wl_syntax_error(
				diag, buf, len, end ? (size_t)(end - text) : 0,
				"JSON syntax error");
		goto out;
	}
	while (end && end < text + len &&
	       (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
		end++;
	if (end && end < text + len) {
		r = eevdf__wl_syntax_error(
			diag, buf, len, (size_t)(end - text),
			"unexpected text after the JSON value");
		goto out;
	}
	r = translate(&t, in, filename, &out);
	if (!r) {
		*json_out = cJSON_Print(out);
		if (!*json_out)
			r = EEVDF_ENOMEM;
	}
	if (r == EEVDF_ENOMEM || t.oom) {
		cJSON_free(*json_out);
		*json_out = NULL;
		r = nomem(diag);
	}
out:
	cJSON_Delete(in);
	cJSON_Delete(out);
	cJSON_free(text);
	for (size_t i = 0; i < t.nr_objs; i++)
		cJSON_free(t.objs[i].name);
	cJSON_free(t.objs);
	cJSON_free(t.tasks);
	strlist_free(&t.ignored);
	strlist_free(&t.remarks);
	strlist_free(&t.groups);
	if (!r && notes && t.nr_notes) {
		*notes = t.notes;
		*nr_notes = t.nr_notes;
	} else {
		cJSON_free(t.notes);
	}
	return r;
}

int eevdf__rtapp_translate(const char *buf, size_t len, const char *filename,
			   char **json_out, struct eevdf_diag *diag)
{
	return eevdf__rtapp_translate_notes(buf, len, filename, json_out, NULL,
					    NULL, diag);
}
