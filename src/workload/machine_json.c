/* SPDX-License-Identifier: MIT */
/*
 * Machine files ("format": "eevdf-sim-machine/1", docs/machine-format.md),
 * the "machine" of a workload (the same document inline, or the path of a
 * file), and the "costs" object that workloads and machines share.
 *
 * The reader is the workload loader's: the same JSON access, paths and
 * messages, so that an error in a machine inside a workload names the
 * workload path (machine.costs.ipi).  A machine's values are literal: it
 * is read before the workload's params, since it decides ${ncpus} and
 * ${nllc} that the params may use.
 *
 * For a validator (eevdf_load_opts.errors) the parts of a machine that do
 * not depend on each other (name, hz, each key of "topology", each CPU of
 * "cpus", each cost) are all checked and every error is reported; the
 * machine is only built when they are all good.
 */
#include <string.h>

#include "lib/strdist.h"
#include "machine/machine.h"
#include "workload_impl.h"

#include "wl_short.h"

#define CAPACITY_MAX 1024 /* SCHED_CAPACITY_SCALE */

static const char *const machine_keys[] = {
	"format",   "name", "description", "hz",
	"topology", "cpus", "costs",	   "calibration",
};
static const char *const topo_keys[] = {
	"packages",	    "llcs_per_package", "cores_per_llc",
	"threads_per_core", "numbering",	"capacity",
};
static const char *const cpu_keys[] = { "core", "llc", "package", "capacity" };
/* In the order of enum eevdf_smt_numbering. */
static const char *const numberings[] = { "split", "adjacent" };

/* r of one independent part: a validator's error is collected and the
 * reader goes on (0); otherwise r stops it. */
static int part(struct wl_parser *p, int r)
{
	return r && eevdf__wl_collect(p, r) ? 0 : r;
}

/* Integer member key of obj in [lo, hi], into *out when present. */
static int int_key(struct wl_parser *p, const cJSON *obj, const char *key,
		   s64 lo, s64 hi, bool required, int *out)
{
	const cJSON *it = get(obj, key);
	size_t old;
	s64 v;
	int r;

	if (!it)
		return required ? fail(p, "missing key '%s'", key) : 0;
	old = path_key(p, key);
	r = eevdf__wl_get_int(p, it, lo, hi, &v);
	if (!r)
		*out = (int)v;
	path_pop(p, old);
	return r;
}

/* Costs ------------------------------------------------------------------ */

/*
 * "unknown cost", with the closest name when it looks like a typo, and
 * the valid names cut at a name to fit the message (they are all in
 * docs/machine-format.md).
 */
int eevdf__wl_unknown_cost(struct wl_parser *p, const char *k)
{
	const char *all = eevdf__costs_list(), *best = NULL;
	char sb[WL_SHOWN_MAX], head[160];
	size_t n = strlen(all), room, bd = 3;

	for (int i = 0; eevdf__costs_name(i); i++) {
		size_t d = eevdf__strdist(k, eevdf__costs_name(i));

		if (d < bd) {
			bd = d;
			best = eevdf__costs_name(i);
		}
	}
	if (best)
		snprintf(head, sizeof(head),
			 "unknown cost '%s': did you mean "
			 "'%s'?",
			 SHOWN(sb, k), best);
	else
		snprintf(head, sizeof(head), "unknown cost '%s'", SHOWN(sb, k));
	/* what is left of the message for the list and its ", ...)" */
	room = sizeof(p->diag->msg) - 1 - strlen(head) - sizeof(" (valid: ") -
	       sizeof(", ...)");
	if (n > room) {
		n = room;
		while (n > 0 && strncmp(all + n, ", ", 2) != 0)
			n--;
	}
	return fail(p, "%s (valid: %.*s%s)", head, (int)n, all,
		    all[n] ? ", ..." : "");
}

/*
 * A percentage: an integer 1..100.  A string would read as a duration
 * anywhere else in a file, so it gets a message of its own.
 */
static int pct_value(struct wl_parser *p, const cJSON *it, u64 *out)
{
	s64 v;
	int r;

	if (cJSON_IsString(it) && it->valuestring &&
	    !strstr(it->valuestring, "${"))
		return fail(p, "a percentage: must be an integer from 1 to "
			       "100, not a string");
	r = eevdf__wl_ld_int(p, it, 1, 100, &v);
	if (!r)
		*out = (u64)v;
	return r;
}

int eevdf__wl_parse_costs(struct wl_parser *p, const cJSON *obj,
			  struct cost_table *c, u64 *set)
{
	const cJSON *it;
	int r = 0;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object of name: duration");
	for (it = obj->child; !r && it; it = it->next) {
		const char *k = it->string ? it->string : "";
		int i = eevdf__costs_index(k);
		size_t old = path_key(p, k);
		eevdf_time ns;
		u64 v = 0;

		if (i < 0) {
			r = eevdf__wl_unknown_cost(p, k);
		} else if (*set & ((u64)1 << i)) {
			/* cJSON keeps both: the file means one of them */
			r = fail(p, "duplicate key '%s'", k);
		} else if (eevdf__costs_is_pct(i)) {
			r = pct_value(p, it, &v);
		} else {
			r = eevdf__wl_ld_duration(p, it, false, &ns, NULL);
			v = (u64)ns;
		}
		if (!r) {
			*eevdf__costs_at(c, i) = v;
			*set |= (u64)1 << i;
		}
		path_pop(p, old);
		r = part(p, r);
	}
	return r;
}

/* Topology ---------------------------------------------------------------- */

static int parse_topology(struct wl_parser *p, const cJSON *obj,
			  struct eevdf_machine_spec *s, int *capacity)
{
	int numbering = EEVDF_SMT_SPLIT, r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object: {\"packages\": P, "
			       "\"llcs_per_package\": L, \"cores_per_llc\": C, "
			       "\"threads_per_core\": T}");
	if ((r = eevdf__wl_check_keys(p, obj, topo_keys, ARRAY_SIZE(topo_keys),
				      NULL, 0)))
		return r;
	s->packages = s->llcs_per_package = s->threads_per_core = 1;
	/* each count alone fits; their product is the builder's to check */
	r = part(p, int_key(p, obj, "packages", 1, EEVDF_MAX_CPUS, false,
			    &s->packages));
	if (!r)
		r = part(p,
			 int_key(p, obj, "llcs_per_package", 1, EEVDF_MAX_CPUS,
				 false, &s->llcs_per_package));
	if (!r)
		r = part(p, int_key(p, obj, "cores_per_llc", 1, EEVDF_MAX_CPUS,
				    true, &s->cores_per_llc));
	if (!r)
		r = part(p,
			 int_key(p, obj, "threads_per_core", 1, EEVDF_MAX_CPUS,
				 false, &s->threads_per_core));
	if (!r)
		r = part(p, eevdf__wl_get_enum(p, obj, "numbering", numberings,
					       ARRAY_SIZE(numberings),
					       &numbering));
	if (!r)
		r = part(p, int_key(p, obj, "capacity", 1, CAPACITY_MAX, false,
				    capacity));
	s->numbering = (enum eevdf_smt_numbering)numbering;
	return r;
}

static int parse_cpu(struct wl_parser *p, const cJSON *obj,
		     struct eevdf_cpu_desc *c)
{
	int cap = 0, r;

	if (!cJSON_IsObject(obj))
		return fail(p, "must be an object: {\"core\": C, \"llc\": L, "
			       "\"package\": P}");
	if ((r = eevdf__wl_check_keys(p, obj, cpu_keys, ARRAY_SIZE(cpu_keys),
				      NULL, 0)) ||
	    (r = int_key(p, obj, "core", 0, INT32_MAX, true, &c->core)) ||
	    (r = int_key(p, obj, "llc", 0, INT32_MAX, false, &c->llc)) ||
	    (r = int_key(p, obj, "package", 0, INT32_MAX, false,
			 &c->package)) ||
	    (r = int_key(p, obj, "capacity", 1, CAPACITY_MAX, false, &cap)))
		return r;
	c->capacity = (unsigned)cap; /* 0: the builder's 1024 */
	return 0;
}

static int parse_cpus(struct wl_parser *p, const cJSON *arr,
		      struct eevdf_cpu_desc **out, size_t *nr)
{
	struct eevdf_cpu_desc *c;
	const cJSON *it;
	size_t i = 0;
	int n, r = 0;

	if (!cJSON_IsArray(arr) || !arr->child)
		return fail(p, "must be a non-empty array of CPUs "
			       "({\"core\": C, \"llc\": L, \"package\": P})");
	/* counted before anything is allocated for them */
	n = cJSON_GetArraySize(arr);
	if (n > EEVDF_MAX_CPUS)
		return fail(p, "%d CPUs is more than %d", n, EEVDF_MAX_CPUS);
	c = calloc((size_t)n, sizeof(*c));
	if (!c)
		return nomem(p);
	for (it = arr->child; !r && it; it = it->next, i++) {
		size_t old = path_index(p, i);

		r = part(p, parse_cpu(p, it, &c[i]));
		path_pop(p, old);
	}
	*out = c;
	*nr = (size_t)n;
	return r;
}

/* The machine ------------------------------------------------------------ */

/* Build the machine of spec; an error at the path of its cause. */
static int build(struct wl_parser *p, const struct eevdf_machine_spec *s,
		 bool regular, struct eevdf_machine **out)
{
	char err[200];
	size_t old, o2;
	int bad, r;

	r = eevdf__machine_build(s, out, err, sizeof(err), &bad);
	if (!r)
		return 0;
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	old = path_key(p, regular ? "topology" : "cpus");
	o2 = bad >= 0 ? path_index(p, (size_t)bad) : p->plen;
	r = fail(p, "%s", err);
	path_pop(p, o2);
	path_pop(p, old);
	return r;
}

/*
 * A machine document at p's path.  embedded: inside a workload, where
 * "format" may be left out.  dflt_name: the name when it gives none.
 */
static int machine_doc(struct wl_parser *p, const cJSON *obj, bool embedded,
		       const char *dflt_name, struct eevdf_machine **out)
{
	struct eevdf_machine_spec spec;
	struct eevdf_cpu_desc *cpus = NULL;
	struct cost_table costs;
	const cJSON *topo, *list, *it;
	char *name = NULL, *desc = NULL, *calib = NULL;
	bool literal = p->literal;
	int capacity = 0, r;
	u64 set = 0;
	size_t old;

	*out = NULL;
	memset(&spec, 0, sizeof(spec));
	memset(&costs, 0, sizeof(costs));
	if (!cJSON_IsObject(obj))
		return fail(p, "the top level must be an object");
	if ((r = eevdf__wl_check_format(p, obj, MACHINE_FORMAT, !embedded)) ||
	    (r = eevdf__wl_check_keys(p, obj, machine_keys,
				      ARRAY_SIZE(machine_keys), NULL, 0)))
		return r;
	topo = get(obj, "topology");
	list = get(obj, "cpus");
	if (topo && list)
		return fail(p, "'topology' and 'cpus' exclude each other: a "
			       "machine is regular or a list of CPUs");
	if (!topo && !list)
		return fail(p, "missing key 'topology' (or 'cpus', a list of "
			       "CPUs)");

	p->literal = true;
	r = part(p, eevdf__wl_get_opt_string(p, obj, "name", &name));
	if (!r)
		r = part(p, eevdf__wl_get_opt_string(p, obj, "description",
						     &desc));
	if (!r)
		r = part(p, int_key(p, obj, "hz", EEVDF_HZ_MIN, EEVDF_HZ_MAX,
				    false, &spec.hz));
	if (!r) {
		old = path_key(p, topo ? "topology" : "cpus");
		r = part(p, topo ? parse_topology(p, topo, &spec, &capacity) :
				   parse_cpus(p, list, &cpus, &spec.nr_cpus));
		path_pop(p, old);
	}
	if (!r && (it = get(obj, "costs"))) {
		old = path_key(p, "costs");
		r = eevdf__wl_parse_costs(p, it, &costs, &set);
		path_pop(p, old);
	}
	/* after hz and costs, which it must agree with */
	if (!r && (it = get(obj, "calibration"))) {
		old = path_key(p, "calibration");
		r = part(p,
			 eevdf__wl_parse_calibration(
				 p, it, spec.hz ? spec.hz : MACHINE_DEFAULT_HZ,
				 &costs, set, &calib));
		path_pop(p, old);
	}
	p->literal = literal;
	if (!r)
		r = eevdf__wl_collected(p);
	if (!r) {
		spec.name = name ? name : dflt_name;
		spec.description = desc;
		spec.cpus = cpus;
		r = build(p, &spec, topo != NULL, out);
	}
	if (!r) {
		/* a regular machine's "capacity" is every CPU's */
		for (int i = 0; capacity && i < (*out)->nr_cpus; i++)
			(*out)->cpu[i].capacity = (u32)capacity;
		(*out)->costs = costs;
		(*out)->cost_set = set;
		(*out)->calibration = calib;
		calib = NULL;
	}
	free(calib);
	free(name);
	free(desc);
	free(cpus);
	return r;
}

/* A file's default machine name: its base name without ".json". */
static void base_name(const char *file, char *buf, size_t len)
{
	const char *b = file ? strrchr(file, '/') : NULL;
	size_t n;

	b = b ? b + 1 : file ? file : "";
	n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".json") == 0)
		n -= 5;
	snprintf(buf, len, "%.*s", (int)n, b);
}

/* A machine file read for p: errors name that file and its own paths. */
static int machine_file(struct wl_parser *p, const char *path,
			struct eevdf_machine **out)
{
	struct eevdf_diag *d = p->diag;
	char wl_file[sizeof(d->file)], name[EEVDF_NAME_MAX], sb[WL_SHOWN_MAX];
	struct eevdf_diag scratch;
	struct wl_parser sub;
	cJSON *root = NULL;
	char *buf = NULL;
	size_t len;
	int r;

	memset(&scratch, 0, sizeof(scratch));
	r = eevdf__wl_read_file(path, &buf, &len, &scratch);
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	if (r)
		return fail(p, "machine file '%s': %s", SHOWN(sb, path),
			    scratch.msg);
	/* the same diag and error list, under the machine file's name */
	memset(&sub, 0, sizeof(sub));
	sub.diag = d;
	sub.opts = p->opts;
	sub.nr_errors = p->nr_errors;
	sub.first_error = p->first_error;
	sub.first_diag = p->first_diag;
	memcpy(wl_file, d->file, sizeof(wl_file));
	eevdf__wl_set_str(d->file, sizeof(d->file), path);
	base_name(path, name, sizeof(name));
	r = eevdf__wl_parse_json(buf, len, d, &root);
	if (!r)
		r = machine_doc(&sub, root, false, name, out);
	cJSON_Delete(root);
	free(buf);
	p->nr_errors = sub.nr_errors;
	p->first_error = sub.first_error;
	p->first_diag = sub.first_diag;
	if (!r)
		memcpy(d->file, wl_file, sizeof(wl_file));
	return r;
}

int eevdf__wl_parse_machine(struct wl_parser *p, const cJSON *it,
			    struct eevdf_machine **out)
{
	const char *file = p->wl ? p->wl->file : "", *slash, *s;
	char *path;
	size_t dir;
	int r;

	*out = NULL;
	if (cJSON_IsObject(it))
		return machine_doc(p, it, true, "", out);
	if (!cJSON_IsString(it) || !it->valuestring || !it->valuestring[0])
		return fail(p, "must be a machine object or the path of a "
			       "machine file");
	s = it->valuestring;
	if (strstr(s, "${"))
		return fail(p, "the path of a machine file is literal: no "
			       "\"${...}\" (the machine decides ${ncpus})");
	/* relative to the workload's directory, as an include would be */
	slash = strrchr(file, '/');
	dir = s[0] != '/' && slash ? (size_t)(slash - file) + 1 : 0;
	path = malloc(dir + strlen(s) + 1);
	if (!path)
		return nomem(p);
	memcpy(path, file, dir);
	strcpy(path + dir, s);
	r = machine_file(p, path, out);
	free(path);
	return r;
}

/* Entry points ------------------------------------------------------------ */

int eevdf_machine_parse_opts(const char *buf, size_t len, const char *filename,
			     const struct eevdf_load_opts *opts,
			     eevdf_machine **out, struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	char name[EEVDF_NAME_MAX];
	struct wl_parser p;
	cJSON *root = NULL;
	int r;

	if (!diag)
		diag = &scratch;
	eevdf__wl_diag_init(diag, filename);
	if (!out || (!buf && len) ||
	    (opts && opts->errors && !opts->nr_errors)) {
		eevdf__wl_set_str(diag->msg, sizeof(diag->msg),
				  "bad arguments (no place for the machine, "
				  "or errors without nr_errors)");
		return EEVDF_EINVAL;
	}
	*out = NULL;
	if (opts && opts->nr_errors)
		*opts->nr_errors = 0;
	memset(&p, 0, sizeof(p));
	p.diag = diag;
	p.opts = opts;
	base_name(filename, name, sizeof(name));
	r = eevdf__wl_parse_json(buf, len, diag, &root);
	if (!r)
		r = machine_doc(&p, root, false, name, out);
	cJSON_Delete(root);
	eevdf__wl_errors_done(&p, r);
	return r;
}

int eevdf_machine_parse(const char *buf, size_t len, const char *filename,
			eevdf_machine **out, struct eevdf_diag *diag)
{
	return eevdf_machine_parse_opts(buf, len, filename, NULL, out, diag);
}

int eevdf_machine_load_file_opts(const char *path,
				 const struct eevdf_load_opts *opts,
				 eevdf_machine **out, struct eevdf_diag *diag)
{
	struct eevdf_diag scratch;
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (out)
		*out = NULL;
	if ((r = eevdf__wl_load_begin(path, out != NULL, &diag, &scratch, &buf,
				      &len)))
		return r;
	r = eevdf_machine_parse_opts(buf, len, path, opts, out, diag);
	free(buf);
	return r;
}

int eevdf_machine_load_file(const char *path, eevdf_machine **out,
			    struct eevdf_diag *diag)
{
	return eevdf_machine_load_file_opts(path, NULL, out, diag);
}
