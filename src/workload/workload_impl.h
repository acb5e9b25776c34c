/* SPDX-License-Identifier: MIT */
/*
 * src/workload/: the files users write: the native workload format,
 * machine files, rt-app import.  It reads JSON with cJSON and builds an
 * engine simulation (engine/sim.h) from it, so it includes engine/,
 * sched/, machine/ and lib/; nothing below includes it.
 *
 * The workload loader's internals, shared by its files:
 *
 *	workload.c		entry points, the top level, add_tasks and
 *				the accessors
 *	workload_file.c		a file's bytes, its JSON, syntax errors,
 *				the load limits
 *	workload_text.c		the text before cJSON: nesting, UTF-8,
 *				NUL
 *	workload_json.c		JSON access with diagnostics by path, names
 *	workload_names.c	the tables by name: object, task, metric,
 *				template
 *	workload_expand.c	params, "${...}", for/count instantiation
 *	workload_defs.c		objects, metrics, task and template
 *				definitions
 *	workload_values.c	operands: expressions, distributions, object
 *				references, policies
 *	workload_ops.c		ops and macros to the engine's struct program
 *	workload_link.c		what needs every program: message fields,
 *				barrier parties, cross-checks, public views
 *	workload_groups.c	"groups" and "sessions": cgroup paths and
 *				their files, sessions and their numbers
 *	machine_json.c		machine files, a workload's "machine", and
 *				the "costs" object both of them have
 *	machine_calib.c		a machine file's "calibration": where its
 *				costs were measured
 *	rtapp.c			rt-app JSON translated to the native format
 *	sweep*.c		sweep specs, over the public loader (their
 *				own internals are sweep_impl.h's)
 *
 * Loading is one pass over the document per phase (params, objects, task
 * names, templates, programs, link), so that a program can name any
 * object, task, template or metric of the file whatever the order.  The
 * first error wins: it is written to the caller's diag with the JSON path
 * where it was found, and every function returns a negative EEVDF_E* code
 * from then on.
 */
#ifndef EEVDF_WORKLOAD_IMPL_H
#define EEVDF_WORKLOAD_IMPL_H

#include <cJSON.h>

#include "machine/costs.h"
#include "engine/expr.h"
#include "lib/hist.h"
#include "engine/metrics.h"
#include "engine/objects.h"
#include "engine/program.h"
#include "sched/sched.h"

#define WL_FORMAT "eevdf-sim-workload/1"
#define MACHINE_FORMAT "eevdf-sim-machine/1"
/* 10^15 ns = 11.6 days: far beyond any run, far below int64 overflow. */
#define WL_MAX_DURATION ((eevdf_time)1000000000000000)
#define WL_MAX_DURATION_TEXT "1000000000000000 ns (1000000s)"
/* Integers above 2^53 are not exact in cJSON's double. */
#define WL_MAX_JSON_INT 9007199254740992.0
#define WL_MAX_INT ((s64)1 << 53)
/* Task and object names after expansion, as the engine stores them. */
#define WL_NAME_MAX (EEVDF_NAME_MAX - 1)
#define WL_MAX_COUNT 100000
#define WL_MAX_OBJECTS 1000000
#define WL_MAX_DEPTH 16
#define WL_MAX_OPS 65536
#define WL_MAX_LOOP_COUNT ((s64)1 << 32)
#define WL_MAX_FOR_VARS 8
#define WL_IDENT_MAX 31
/* sched_setattr() accepts sched_runtime in [100us, 100ms] for SCHED_OTHER. */
#define WL_SLICE_MIN (100 * EEVDF_NSEC_PER_USEC)
#define WL_SLICE_MAX (100 * EEVDF_NSEC_PER_MSEC)
/* User strings quoted in messages are cut to this. */
#define WL_SHOWN_MAX 48
#define WL_PATH_MAX sizeof(((struct eevdf_diag *)NULL)->path)
/* A hidden local of drop_zero records (names starting @__ are reserved). */
#define WL_SAMPLE_VAR "@__sample"
/* The hidden local of a per-task timer: this prefix and the timer's name. */
#define WL_TIMER_VAR "@__timer."
/* Room a template name leaves for its instances' "[k]" (k is a u32). */
#define WL_INST_SUFFIX 12

/* A load-time value: a param, or what a "${...}" expands to. */
enum wl_vkind {
	WV_NULL = 0,
	WV_INT,
	WV_STR,
};

struct wl_value {
	enum wl_vkind kind;
	s64 i;
	char *s; /* WV_STR, owned */
};

struct wl_param {
	char *name;
	struct wl_value v;
};

/* A growing table of names; an entry's index is its id (slot). */
struct wl_names {
	char **v;
	u32 n, cap;
};

struct wl_object {
	/* type, name and settings; the run-time state stays zero */
	struct sim_object tmpl;
	size_t src;		  /* index in "objects" */
	char *fields[MSG_FIELDS]; /* channel: message field names */
	u32 nr_fields;
	bool parties_set; /* barrier: "parties" given */
	u32 users;	  /* barrier: tasks whose programs name it */
	bool sent;	  /* channel: some send names it */
	bool posted;	  /* sem: some post names it */
	/* timer: the default period of its waits (0: none), its mode, and
	 * whether each task has its own (a hidden task-local variable) */
	eevdf_time timer_period;
	bool timer_absolute;
	bool timer_unique;
	/* I/O objects: names of other objects (a file system's device, a
	 * work's workqueue, ...) and the keys that gave them, resolved by
	 * eevdf__wl_io_link() */
	char *io_ref[2];
	char *io_key[2];
};

struct wl_prog {
	struct program *prog; /* the workload's own reference */
	struct eevdf_op *pub; /* public view, NULL when not expressible */
	size_t nr_pub;
	u32 *objs; /* objects its ops name (may repeat) */
	u32 nr_objs, cap_objs;
	/*
	 * 1 + the program this one is to share when they come out the same
	 * but for their bound objects (workload_link.c), or 0;
	 * then binds[] holds what its tasks bind (prog->nr_binds of them).
	 */
	u32 share_with;
	s32 binds[TASK_BINDS];
};

/* A task-local variable's initial value. */
struct wl_init {
	u32 slot;
	s64 v;
};

/* How a task or template names its session ("session", "setsid"). */
enum wl_sess {
	WS_DEFAULT = 0, /* a task: the run's own; a template: its spawner's */
	WS_NAMED,
	WS_SETSID,
};

/* A task instance, or a spawn template (then src is unused). */
struct wl_task {
	/* the public view; spec.cgroup is a wl_group's path, or "/" */
	struct eevdf_task_spec spec;
	char *name;
	int *cpus;
	size_t src; /* index in "tasks" */
	u32 prog;   /* index in progs */
	bool is_thread;
	struct wl_init *init;
	u32 nr_init;
	enum wl_sess sess;
	char *session; /* WS_NAMED: its name, until the numbers are given */
};

/*
 * A group the workload makes: a key of "groups" with the files it writes,
 * or a parent one of them implies (mkdir -p), which writes none.
 */
struct wl_group {
	struct eevdf_group_spec spec; /* spec.path is path */
	char *path;
	bool declared; /* a key of "groups" */
};

/* A session: named in "sessions" or by a task; number = index + 1. */
struct wl_session {
	struct eevdf_session_spec spec; /* spec.name is name */
	char *name;
	bool used; /* a task or template joins it */
};

struct wl_metric {
	char *name;
	char *unit;
	enum metric_type type;
	enum eevdf_hist_kind quant;
	bool keyed, per_task, reset_at_warmup, drop_zero;
	u32 of;		  /* rate: the counter sampled */
	eevdf_time every; /* rate: sampling period */
};

struct wl_join {
	u32 *pids;
	u32 nr;
	char *pattern;
	char *path; /* where the join op is, for the self-join check */
};

struct wl_option {
	char *key;
	char *value;
};

enum wl_stop_kind {
	WL_STOP_NONE = 0,
	WL_STOP_AFTER,
	WL_STOP_ALL_EXITED,
	WL_STOP_TASK_EXITED,
};

struct eevdf_workload {
	char file[sizeof(((struct eevdf_diag *)NULL)->file)];
	char *name;
	char *description;
	char *kernel;	      /* "kernel": a profile's name, or NULL */
	char *duration_param; /* the param that is its length, or NULL */
	char sha256[65];      /* of the bytes it was read from */
	eevdf_time duration;
	bool has_seed;
	u64 seed;
	/* "costs": the entries the file sets (bit i: entry i of
	 * EEVDF_COST_MAP) and their values; the rest is not the workload's */
	struct cost_table costs;
	u64 cost_set;
	struct eevdf_machine *machine; /* "machine", or NULL */

	struct wl_param *params;
	size_t nr_params;
	struct wl_object *objs;
	size_t nr_objs, cap_objs;
	u32 *objs_by_name; /* object indices sorted by name */
	struct wl_task *tasks;
	size_t nr_tasks, cap_tasks;
	u32 *tasks_by_name;    /* task indices sorted by name */
	struct wl_task *tmpls; /* "templates", in file order */
	size_t nr_tmpls;
	struct wl_prog *progs;
	size_t nr_progs, cap_progs;
	struct wl_metric *metrics;
	size_t nr_metrics;
	/* "groups", sorted by path, their implied parents included */
	struct wl_group *groups;
	size_t nr_groups;
	/* the named sessions, sorted by name; then nr_setsid more, one per
	 * task instance with "setsid" */
	struct wl_session *sessions;
	size_t nr_sessions, cap_sessions;
	u32 nr_setsid;
	struct wl_join *joins;
	size_t nr_joins;
	struct wl_names locals; /* task-local variables, one slot table */
	struct wl_names globals;
	struct wl_names strings; /* {"str": ...} constants, by id */

	enum wl_stop_kind stop;
	eevdf_time stop_after;
	bool stop_kill;
	u32 stop_task;	   /* WL_STOP_TASK_EXITED: task index */
	eevdf_time warmup; /* 0: none */

	char *report_format;
	char **report_also;
	size_t nr_also;
	struct wl_option *report_opts;
	size_t nr_report_opts;
	/* "report.interval": the period of interval reports, 0 for none */
	eevdf_time report_interval;
	/* NBENCH load files the "nbench" ops replay (engine/nbench.h) */
	struct nb_load **nb_loads;
	size_t nr_nb_loads;
};

/* A send or recv whose message fields are placed once all are known. */
struct wl_fixup {
	u32 prog, op;
	bool recv;
	char *names[MSG_FIELDS]; /* send: its field names, as written */
	u32 nr_names;
	char *into; /* recv: the variable, "@m" */
	u32 *match; /* dynamic channel: every channel it fits */
	u32 nr_match;
	char *path;
};

/* An op to check once every program is compiled. */
enum wl_check_kind {
	WL_CHECK_WAIT, /* a wait without timeout on a sem: who posts? */
	WL_CHECK_RECV, /* a recv: who sends? */
};

struct wl_check {
	enum wl_check_kind kind;
	u32 obj;
	char *path;
};

struct wl_forvar {
	char name[WL_IDENT_MAX + 1];
	s64 v;
};

/* Parsing state: where we are, what is being built. */
struct wl_parser {
	struct eevdf_diag *diag;
	char path[WL_PATH_MAX];
	size_t plen;
	char via[WL_PATH_MAX];	   /* macro bodies: the call site */
	char inst[EEVDF_NAME_MAX]; /* the instance being compiled, or "" */
	const struct eevdf_load_opts *opts;
	/* the param that is the workload's length ("${runtime}"), or "" */
	char dur_param[WL_IDENT_MAX + 1];
	/* errors collected for a validator (opts->errors) */
	size_t nr_errors;
	int first_error;
	struct eevdf_diag first_diag;
	int ncpus, nllc; /* "${ncpus}", "${nllc}" */
	struct eevdf_workload *wl;
	const cJSON *macros;

	/* load-time scope: for variables */
	struct wl_forvar fv[WL_MAX_FOR_VARS];
	u32 nr_fv;
	u32 used_for;	  /* the for variables read, a bit each */
	u32 bound_for;	  /* ... read only to name a bound object */
	bool in_dist;	  /* evaluating a distribution's parameter */
	bool hidden_ok;	  /* compiling the loader's own text */
	bool in_template; /* compiling a template: no "@pid" */
	/* reading a machine: no "${...}" and no names in expressions, since
	 * the machine itself decides ${ncpus} and ${nllc} */
	bool literal;
	char why[160]; /* a resolver's reason for failing */

	/* the program being compiled, for task tasks[task] */
	struct program *prog;
	u32 cap_ops;
	size_t task;
	size_t next_task; /* tasks compiled so far */
	u64 ops;	  /* op slots of the tasks so far (max_ops) */
	eevdf_time timer_slack;
	const char *calls[WL_MAX_DEPTH]; /* macro call stack */
	u32 nr_calls;

	/* objects matched by the last dynamic reference */
	u32 *match;
	u32 nr_match, cap_match;
	/* objects the program being compiled names */
	u32 *uses;
	u32 nr_uses, cap_uses;

	struct wl_fixup *fix;
	size_t nr_fix, cap_fix;
	struct wl_check *checks;
	size_t nr_checks, cap_checks;
};

/* Operand kinds, for the checks and defaults of eevdf__wl_operand(). */
enum wl_vk {
	VK_DUR,	  /* a duration: >= 0, at most WL_MAX_DURATION */
	VK_COUNT, /* a count: >= 0 */
	VK_VALUE, /* any integer; {"str": ...} allowed */
	VK_COND,  /* a condition: no distribution */
};

/* workload_json.c */
/* eevdf__wl_fail(), returning code (EEVDF_ELIMIT) instead of EPARSE. */
int eevdf__wl_fail_code(struct wl_parser *p, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int eevdf__wl_fail(struct wl_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int eevdf__wl_fail_at(struct wl_parser *p, const char *path, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));
int eevdf__wl_nomem(struct wl_parser *p);
int eevdf__wl_fail_compile(struct wl_parser *p, const char *what, const char *s,
			   size_t off, const char *err);
size_t eevdf__wl_path_key(struct wl_parser *p, const char *key);
/* ["key"]: a key that is no identifier ("/a/b", "cpu.max"). */
size_t eevdf__wl_path_quoted(struct wl_parser *p, const char *key);
size_t eevdf__wl_path_index(struct wl_parser *p, size_t i);
void eevdf__wl_path_pop(struct wl_parser *p, size_t old);
char *eevdf__wl_where(struct wl_parser *p);
const char *eevdf__wl_shown(char *buf, size_t n, const char *s);

/* workload_file.c: what the workload, machine and rt-app readers share */
void eevdf__wl_diag_init(struct eevdf_diag *d, const char *filename);
/* The load limits of o (NULL: none given), with the defaults for 0. */
size_t eevdf__wl_max_input(const struct eevdf_load_opts *o);
int eevdf__wl_max_depth(const struct eevdf_load_opts *o);
u64 eevdf__wl_max_ops(const struct eevdf_load_opts *o);
/* n bytes in words: "64 MiB", "1.5 KiB", "100 bytes". */
void eevdf__wl_size_text(char *buf, size_t len, u64 n);
/* An optional integer member key of obj in [lo, hi]; absent keeps *out. */
int eevdf__wl_opt_int(struct wl_parser *p, const cJSON *obj, const char *key,
		      s64 lo, s64 hi, s64 *out);
/*
 * The whole of the regular file path (at most max bytes) in *out, to
 * free; else EEVDF_EIO (unreadable, or not a regular file), EEVDF_ELIMIT
 * (larger than max) or EEVDF_ENOMEM, with diag's message.
 */
int eevdf__wl_read_file(const char *path, size_t max, char **out, size_t *len,
			struct eevdf_diag *diag);
/*
 * The first half of a *_load_file(): *diag labelled with path (scratch
 * when *diag is NULL), then the file's bytes in *buf, to free, within
 * opts' input limit.  EEVDF_EINVAL without a path or an out pointer
 * (have_out).
 */
int eevdf__wl_load_begin(const char *path, bool have_out,
			 const struct eevdf_load_opts *opts,
			 struct eevdf_diag **diag, struct eevdf_diag *scratch,
			 char **buf, size_t *len);
/*
 * buf as one JSON value, nothing after it, once eevdf__wl_check_text()
 * passed it; else its error, or EEVDF_EPARSE in diag ("the file is
 * empty", or a syntax error at its line).
 */
int eevdf__wl_parse_json(const char *buf, size_t len,
			 const struct eevdf_load_opts *opts,
			 struct eevdf_diag *diag, cJSON **root);
/* opts for eevdf__wl_parse_json() of a buf that passed the check. */
extern const struct eevdf_load_opts eevdf__wl_checked;
#define EEVDF__WL_CHECKED (&eevdf__wl_checked)
/*
 * workload_text.c: what cJSON would take without a word: more than
 * opts' input limit or nesting limit (EEVDF_ELIMIT), bytes of a string
 * that are not UTF-8, a NUL in a string, raw or as "\u0000", which
 * would cut the string short (EEVDF_EPARSE, with the JSON path of the
 * string when the document parses).  0 when buf passes.
 */
int eevdf__wl_check_text(const char *buf, size_t len,
			 const struct eevdf_load_opts *opts,
			 struct eevdf_diag *diag);
/*
 * Whether the n bytes of s begin with one JSON value (whole: are one,
 * with nothing but blanks after it), checked without allocating: when
 * cJSON fails on a text that is, it ran out of memory.
 */
bool eevdf__wl_json_valid(const char *s, size_t n, bool whole);
/*
 * A JSON syntax error at byte pos of buf: d's line, no path, and "what
 * near '...'" (or "what: unexpected end of file").  Returns EEVDF_EPARSE.
 */
int eevdf__wl_syntax_error(struct eevdf_diag *d, const char *buf, size_t len,
			   size_t pos, const char *what);

/* workload_json.c, continued */
char *eevdf__wl_strdup(const char *s);
int eevdf__wl_get_opt_string(struct wl_parser *p, const cJSON *obj,
			     const char *key, char **out);
/*
 * With opts->errors (a validator), record the error just made and let the
 * caller go on: true.  Otherwise, or for ENOMEM, false: stop at r.
 */
bool eevdf__wl_collect(struct wl_parser *p, int r);
/* After collected errors: the first of them back in diag and its code;
 * 0 when there were none. */
int eevdf__wl_collected(struct wl_parser *p);
/* "format" must be want (required: present too). */
int eevdf__wl_check_format(struct wl_parser *p, const cJSON *obj,
			   const char *want, bool required);
/* At the end of a load that returns r: fill opts' error count (and
 * errors[0] with diag when only the error that stopped it was seen). */
void eevdf__wl_errors_done(const struct wl_parser *p, int r);
void eevdf__wl_set_str(char *dst, size_t n, const char *s);
const cJSON *eevdf__wl_get(const cJSON *obj, const char *key);
int eevdf__wl_check_keys(struct wl_parser *p, const cJSON *obj,
			 const char *const *known, size_t nr_known,
			 const char *const *later, size_t nr_later);
int eevdf__wl_get_int(struct wl_parser *p, const cJSON *it, s64 lo, s64 hi,
		      s64 *out);
int eevdf__wl_get_bool(struct wl_parser *p, const cJSON *obj, const char *key,
		       bool *out);
bool eevdf__wl_is_ident(const char *s, size_t len);
int eevdf__wl_check_name(struct wl_parser *p, const char *s, const char *what);
bool eevdf__wl_glob(const char *pat, size_t plen, const char *s);
int eevdf__wl_names_find(const struct wl_names *t, const char *s, size_t len);
int eevdf__wl_names_add(struct wl_names *t, const char *s, size_t len, u32 *id);
void eevdf__wl_names_free(struct wl_names *t);
void eevdf__wl_value_free(struct wl_value *v);
int eevdf__wl_push_u32(u32 **v, u32 *n, u32 *cap, u32 x);

/* workload_expand.c */
int eevdf__wl_lt_resolve(void *ud, const char *name, size_t len,
			 struct expr_sym *sym);
/* What eevdf__wl_expand() found: no "${", exactly one, or a mix. */
enum wl_form {
	WL_PLAIN = 0,
	WL_WHOLE,
	WL_MIXED,
};

int eevdf__wl_expand(struct wl_parser *p, const char *s, struct wl_value *out,
		     enum wl_form *form);
int eevdf__wl_ld_value(struct wl_parser *p, const cJSON *it,
		       struct wl_value *out);
int eevdf__wl_ld_int(struct wl_parser *p, const cJSON *it, s64 lo, s64 hi,
		     s64 *out);
int eevdf__wl_ld_number(struct wl_parser *p, const cJSON *it, s64 *out);
int eevdf__wl_ld_duration(struct wl_parser *p, const cJSON *it, bool nullable,
			  eevdf_time *out, bool *is_null);
int eevdf__wl_ld_string(struct wl_parser *p, const cJSON *it, char **out);
int eevdf__wl_parse_params(struct wl_parser *p, const cJSON *params);
/*
 * A load-time choice, {"if": V, "is": X, "then": A, "else": B}: A when V
 * equals X (null equals null, strings compare as text, a string that reads
 * as a duration as its ns), or, without "is", when the integer V is not 0;
 * else B.  A branch may be a choice again.  Only the branch taken is read.
 * *out is the value chosen (it itself when it is no choice) and p's path
 * is extended to it; the caller pops it to *old when done with *out,
 * errors included.
 */
bool eevdf__wl_is_choice(const cJSON *it);
int eevdf__wl_choose(struct wl_parser *p, const cJSON *it, const cJSON **out,
		     size_t *old);
int eevdf__wl_get_enum(struct wl_parser *p, const cJSON *obj, const char *key,
		       const char *const *names, size_t n, int *out);
/* Called for every instance of a definition, with its expanded name. */
typedef int (*eevdf__wl_inst_fn)(struct wl_parser *p, void *ud,
				 const char *name);
int eevdf__wl_instances(struct wl_parser *p, const cJSON *def, const char *what,
			eevdf__wl_inst_fn fn, void *ud);

/* workload_defs.c */
int eevdf__wl_parse_objects(struct wl_parser *p, const cJSON *arr);
int eevdf__wl_parse_metrics(struct wl_parser *p, const cJSON *obj);
int eevdf__wl_parse_tasks(struct wl_parser *p, const cJSON *arr);
int eevdf__wl_compile_tasks(struct wl_parser *p, const cJSON *arr);
int eevdf__wl_parse_templates(struct wl_parser *p, const cJSON *obj);
int eevdf__wl_compile_templates(struct wl_parser *p, const cJSON *obj);

/* workload_names.c */
/*
 * Sort wl's objects (tasks) into wl->objs_by_name (tasks_by_name), ties
 * by index.  *dup receives the first entry, in file order, that repeats
 * an earlier name, and *first that earlier one; *dup = UINT32_MAX when
 * all differ.  0 or EEVDF_ENOMEM.
 */
int eevdf__wl_index_objects(struct eevdf_workload *wl, u32 *dup, u32 *first);
int eevdf__wl_index_tasks(struct eevdf_workload *wl, u32 *dup, u32 *first);
/* The index of the entry of that name, or -1. */
int eevdf__wl_find_object(const struct eevdf_workload *wl, const char *name);
int eevdf__wl_find_task(const struct eevdf_workload *wl, const char *name);
int eevdf__wl_find_metric(const struct eevdf_workload *wl, const char *name);
int eevdf__wl_find_template(const struct eevdf_workload *wl, const char *name);

/* workload_values.c */
/* A policy name (a task's "policy", setattr's): normal, batch or idle. */
int eevdf__wl_policy(struct wl_parser *p, const cJSON *it,
		     enum eevdf_policy *out);
/* A deadline reservation as sched_setattr() checks it (EINVAL rules). */
int eevdf__wl_check_dl(struct wl_parser *p, u64 runtime, u64 deadline,
		       u64 period);
int eevdf__wl_rt_resolve(void *ud, const char *name, size_t len,
			 struct expr_sym *sym);
int eevdf__wl_operand(struct wl_parser *p, const cJSON *it, enum wl_vk vk,
		      struct pval *out, char **src);
int eevdf__wl_operand_key(struct wl_parser *p, const cJSON *obj,
			  const char *key, enum wl_vk vk, struct pval *out);
int eevdf__wl_compile_text(struct wl_parser *p, const char *text,
			   struct pval *out);
int eevdf__wl_objref(struct wl_parser *p, const cJSON *it, u32 want,
		     struct objref *out);
int eevdf__wl_var(struct wl_parser *p, const char *s, bool global_ok, u32 *slot,
		  bool *global);
void eevdf__wl_pval_free(struct pval *v);

/* workload_ops.c */
/*
 * The program of a task or template definition: its "program", then its
 * "on_signal" handlers; a template's vars (init) are set by LET ops before
 * the program, since spawned tasks start with every variable at 0.
 */
int eevdf__wl_compile_program(struct wl_parser *p, const cJSON *def,
			      const struct wl_init *init, u32 nr_init,
			      struct program **out);
/* A signal name ("USR1" or "SIGUSR1") to its number, or 0. */
int eevdf__wl_signo(const char *s);

/* workload_link.c */
int eevdf__wl_link(struct wl_parser *p);

/* workload_ops.c: append an op of code to the program being compiled */
int eevdf__wl_emit(struct wl_parser *p, enum popcode code, u32 *at);

/* workload_io.c: the I/O model's objects and ops */
int eevdf__wl_io_settings(struct wl_parser *p, const cJSON *def,
			  struct wl_object *o);
int eevdf__wl_io_link(struct wl_parser *p);
void eevdf__wl_io_free(struct wl_object *o);
#define WL_IO_OP(name)                                                         \
	int eevdf__wl_op_##name(struct wl_parser *p, const cJSON *v,           \
				int depth, bool *adv, u32 *main)
WL_IO_OP(open);
WL_IO_OP(close);
WL_IO_OP(read);
WL_IO_OP(write);
WL_IO_OP(fsync);
WL_IO_OP(rename);
WL_IO_OP(unlink);
WL_IO_OP(mkdir);
WL_IO_OP(rmdir);
WL_IO_OP(stat);
WL_IO_OP(readdir);
WL_IO_OP(queue_work);
WL_IO_OP(nbench);
#undef WL_IO_OP

/* nbench_load.c: an NBENCH load file's text into *out (a reference);
 * on error a message and the line number (0: none). */
struct nb_load;
int eevdf__wl_nbench_parse(const char *text, size_t len, const char *name,
			   struct nb_load **out, char *err, size_t errlen,
			   size_t *lineno);
/* nbench_builtin.c */
/* one line (with its newline) per entry, NULL last */
extern const char *const eevdf__nbench_builtin[];

/* workload_groups.c */
/*
 * Whether path is a cgroup path the engine accepts (eevdf_sim_set_group):
 * absolute, names of letters, digits and ._-@:+, none "." or "..", none
 * autogroup-* at the top, no empty or trailing component, within
 * EEVDF_GROUP_PATH_MAX and EEVDF_GROUP_DEPTH_MAX.  "/" is the root.
 * NULL, or why not.
 */
const char *eevdf__wl_group_path_why(const char *path);
/* "groups" at p's path: each group's files, checked as the kernel's cpu
 * controller checks a write. */
int eevdf__wl_parse_groups(struct wl_parser *p, const cJSON *obj);
/* "sessions": name -> {"nice": N}. */
int eevdf__wl_parse_sessions(struct wl_parser *p, const cJSON *obj);
/*
 * A task's or template's "cgroup", "session" and "setsid" at p's path
 * (the definition's), into t; the groups must be parsed.
 */
int eevdf__wl_task_groups(struct wl_parser *p, const cJSON *def,
			  struct wl_task *t);
/* Once every task and template is parsed: the sessions' numbers. */
int eevdf__wl_number_sessions(struct wl_parser *p);
/* The group at path, or NULL (so for the root, "/"). */
const struct wl_group *eevdf__wl_find_group(const struct eevdf_workload *wl,
					    const char *path);
/* "no group '/x' in \"groups\"" with the closest path: the message. */
int eevdf__wl_no_group(struct wl_parser *p, const char *path);
/* Make the groups and set the sessions' nice in sim; 0, or an error
 * with the group's path in diag. */
int eevdf__wl_add_groups(const eevdf_workload *wl, eevdf_sim *sim,
			 struct eevdf_diag *diag);

/* machine_json.c */
/*
 * A "costs" object, of a workload or a machine: each entry's value into c
 * and its bit into *set.  Times are durations; the "_pct" entries are
 * plain integers 1..100.
 */
int eevdf__wl_parse_costs(struct wl_parser *p, const cJSON *obj,
			  struct cost_table *c, u64 *set);
/* "unknown cost 'k'", with the closest name and the valid ones. */
int eevdf__wl_unknown_cost(struct wl_parser *p, const char *k);
/*
 * A workload's "machine" at p's path: an inline machine document or the
 * path of a machine file, relative to the workload's directory.
 */
int eevdf__wl_parse_machine(struct wl_parser *p, const cJSON *it,
			    struct eevdf_machine **out);

/* machine_calib.c */
/*
 * A machine's "calibration" object, checked against the machine's hz and
 * its costs (the values in c whose bit is in set), as compact JSON text
 * in *text (malloc()ed) when it is good.
 */
int eevdf__wl_parse_calibration(struct wl_parser *p, const cJSON *obj, int hz,
				const struct cost_table *c, u64 set,
				char **text);

/* For tests: the compiled program of task i, or NULL. */
const struct program *eevdf__workload_program(const eevdf_workload *wl,
					      size_t i);
/* For tests: the compiled program of the template name, or NULL. */
const struct program *eevdf__workload_template_program(const eevdf_workload *wl,
						       const char *name);

#endif
