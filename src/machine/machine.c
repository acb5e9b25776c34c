/* SPDX-License-Identifier: MIT */
/*
 * Machines: building one from a spec (a regular topology or an explicit
 * CPU list) with every check, the flat machine of --cpus N, copies, cost
 * overrides and the getters.  machine_json.c reads machine files.
 *
 * Whatever the spec's ids, the built machine numbers cores, LLCs and
 * packages densely from 0 in the order their first CPU appears, so that
 * the topology code can size arrays by nr_cores, nr_llcs and nr_packages
 * and two specs that differ only in their ids build the same machine.
 */
#include <string.h>

#include "machine.h"
#include "lib/sha256.h"

/* SCHED_CAPACITY_SCALE: the capacity of the biggest CPU at full speed. */
#define CAPACITY_SCALE 1024u

_Static_assert((int)NR_COSTS == (int)COST_NR_ENTRIES && NR_COSTS <= 64,
	       "cost_set has a bit per entry of the cost table");

static char *dup_str(const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s ? s : "", n);
	return d;
}

static struct eevdf_machine *alloc_machine(int nr_cpus, const char *name,
					   const char *desc)
{
	struct eevdf_machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->nr_cpus = nr_cpus;
	m->hz = MACHINE_DEFAULT_HZ;
	m->cpu = calloc((size_t)nr_cpus, sizeof(*m->cpu));
	m->name = dup_str(name);
	m->description = dup_str(desc);
	if (!m->cpu || !m->name || !m->description) {
		eevdf_machine_free(m);
		return NULL;
	}
	return m;
}

/*
 * The CPUs of a regular machine.  Core k (numbered package by package,
 * LLC by LLC) is in LLC k / cores_per_llc and package k / cores per
 * package; only the CPU numbers of its threads depend on the numbering.
 */
static int build_regular(const struct eevdf_machine_spec *s,
			 struct eevdf_machine **out, char *err, size_t errlen)
{
	static const char *const what[] = { "packages", "llcs_per_package",
					    "cores_per_llc",
					    "threads_per_core" };
	const int count[] = { s->packages, s->llcs_per_package,
			      s->cores_per_llc, s->threads_per_core };
	struct eevdf_machine *m;
	int ncores, n, per_pkg;
	u64 total = 1;

	for (size_t i = 0; i < ARRAY_SIZE(count); i++) {
		if (count[i] < 1) {
			eevdf__set_err(err, errlen,
				       "%s must be at least 1, "
				       "not %d",
				       what[i], count[i]);
			return EEVDF_EINVAL;
		}
		/* each factor is checked before the next: no overflow */
		total *= (u64)count[i];
		if (total > EEVDF_MAX_CPUS) {
			eevdf__set_err(err, errlen,
				       "%d package%s x %d LLC%s "
				       "x %d core%s x %d thread%s: more than "
				       "%d CPUs",
				       s->packages, s->packages == 1 ? "" : "s",
				       s->llcs_per_package,
				       s->llcs_per_package == 1 ? "" : "s",
				       s->cores_per_llc,
				       s->cores_per_llc == 1 ? "" : "s",
				       s->threads_per_core,
				       s->threads_per_core == 1 ? "" : "s",
				       EEVDF_MAX_CPUS);
			return EEVDF_EINVAL;
		}
	}
	if (s->numbering != EEVDF_SMT_SPLIT &&
	    s->numbering != EEVDF_SMT_ADJACENT) {
		eevdf__set_err(err, errlen,
			       "numbering must be "
			       "EEVDF_SMT_SPLIT or EEVDF_SMT_ADJACENT, not %d",
			       (int)s->numbering);
		return EEVDF_EINVAL;
	}
	n = (int)total;
	ncores = n / s->threads_per_core;
	per_pkg = s->llcs_per_package * s->cores_per_llc;
	m = alloc_machine(n, s->name, s->description);
	if (!m) {
		eevdf__set_err(err, errlen, "out of memory");
		return EEVDF_ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		/* split: cpu i is thread i / ncores of core i % ncores */
		int k = s->numbering == EEVDF_SMT_SPLIT ?
				i % ncores :
				i / s->threads_per_core;

		m->cpu[i].core = k;
		m->cpu[i].llc = k / s->cores_per_llc;
		m->cpu[i].package = k / per_pkg;
		m->cpu[i].capacity = CAPACITY_SCALE;
	}
	m->nr_cores = ncores;
	m->nr_llcs = s->packages * s->llcs_per_package;
	m->nr_packages = s->packages;
	*out = m;
	return 0;
}

/* The dense number of raw id x in ids[0..*n), appended when new. */
static int dense_id(int *ids, int *n, int x)
{
	for (int i = 0; i < *n; i++)
		if (ids[i] == x)
			return i;
	ids[*n] = x;
	return (*n)++;
}

/*
 * An explicit CPU list.  first_* remember, per dense core and LLC, the
 * CPU that introduced it, to name both sides of a contradiction.
 */
static int build_explicit(const struct eevdf_machine_spec *s,
			  struct eevdf_machine **out, char *err, size_t errlen,
			  int *bad)
{
	const struct eevdf_cpu_desc *c = s->cpus;
	int n = (int)s->nr_cpus, nc = 0, nl = 0, np = 0;
	int *core_id, *llc_id, *pkg_id, *first_core, *first_llc;
	struct eevdf_machine *m;
	int r = 0;

	if (s->nr_cpus == 0) {
		eevdf__set_err(err, errlen, "the CPU list is empty");
		return EEVDF_EINVAL;
	}
	if (s->nr_cpus > EEVDF_MAX_CPUS) {
		eevdf__set_err(err, errlen, "%zu CPUs is more than %d",
			       s->nr_cpus, EEVDF_MAX_CPUS);
		return EEVDF_EINVAL;
	}
	for (int i = 0; i < n; i++) {
		const char *neg = c[i].core < 0	   ? "core" :
				  c[i].llc < 0	   ? "llc" :
				  c[i].package < 0 ? "package" :
						     NULL;

		*bad = i;
		if (neg) {
			eevdf__set_err(err, errlen, "%s must not be negative",
				       neg);
			return EEVDF_EINVAL;
		}
		if (c[i].capacity > CAPACITY_SCALE) {
			eevdf__set_err(err, errlen,
				       "capacity %u is above %u "
				       "(SCHED_CAPACITY_SCALE)",
				       c[i].capacity, CAPACITY_SCALE);
			return EEVDF_EINVAL;
		}
	}
	*bad = -1;
	m = alloc_machine(n, s->name, s->description);
	core_id = calloc((size_t)n * 5, sizeof(int));
	if (!m || !core_id) {
		eevdf_machine_free(m);
		free(core_id);
		eevdf__set_err(err, errlen, "out of memory");
		return EEVDF_ENOMEM;
	}
	llc_id = core_id + n;
	pkg_id = llc_id + n;
	first_core = pkg_id + n;
	first_llc = first_core + n;
	for (int i = 0; i < n && !r; i++) {
		struct machine_cpu *mc = &m->cpu[i];
		int old;

		old = nc;
		mc->core = dense_id(core_id, &nc, c[i].core);
		if (nc > old)
			first_core[mc->core] = i;
		old = nl;
		mc->llc = dense_id(llc_id, &nl, c[i].llc);
		if (nl > old)
			first_llc[mc->llc] = i;
		mc->package = dense_id(pkg_id, &np, c[i].package);
		mc->capacity = c[i].capacity ? c[i].capacity : CAPACITY_SCALE;
		/* the kernel's domains nest: a core in one LLC, an LLC in
		 * one package */
		if (m->cpu[first_core[mc->core]].llc != mc->llc) {
			eevdf__set_err(err, errlen,
				       "core %d is in LLC %d, "
				       "but cpus[%d] put it in LLC %d",
				       c[i].core, c[i].llc,
				       first_core[mc->core],
				       c[first_core[mc->core]].llc);
			r = EEVDF_EINVAL;
		} else if (m->cpu[first_llc[mc->llc]].package != mc->package) {
			eevdf__set_err(err, errlen,
				       "LLC %d is in package %d, "
				       "but cpus[%d] put it in package %d",
				       c[i].llc, c[i].package,
				       first_llc[mc->llc],
				       c[first_llc[mc->llc]].package);
			r = EEVDF_EINVAL;
		}
		if (r)
			*bad = i;
	}
	free(core_id);
	if (r) {
		eevdf_machine_free(m);
		return r;
	}
	m->nr_cores = nc;
	m->nr_llcs = nl;
	m->nr_packages = np;
	*out = m;
	return 0;
}

int eevdf__machine_build(const struct eevdf_machine_spec *spec,
			 eevdf_machine **out, char *err, size_t errlen,
			 int *bad_cpu)
{
	int hz, r, bad = -1;

	if (bad_cpu)
		*bad_cpu = -1;
	if (!spec || !out) {
		eevdf__set_err(err, errlen,
			       "no machine spec or no place for "
			       "the machine");
		return EEVDF_EINVAL;
	}
	*out = NULL;
	hz = spec->hz ? spec->hz : MACHINE_DEFAULT_HZ;
	if (hz < EEVDF_HZ_MIN || hz > EEVDF_HZ_MAX) {
		eevdf__set_err(err, errlen, "hz %d is out of range %d..%d",
			       spec->hz, EEVDF_HZ_MIN, EEVDF_HZ_MAX);
		return EEVDF_EINVAL;
	}
	if (spec->cpus)
		r = build_explicit(spec, out, err, errlen, &bad);
	else
		r = build_regular(spec, out, err, errlen);
	if (bad_cpu)
		*bad_cpu = bad;
	if (!r)
		(*out)->hz = hz;
	return r;
}

int eevdf_machine_new(const struct eevdf_machine_spec *spec,
		      eevdf_machine **out, char *err, size_t errlen)
{
	char msg[256];
	int bad, r;

	r = eevdf__machine_build(spec, out, msg, sizeof(msg), &bad);
	if (r && bad >= 0)
		eevdf__set_err(err, errlen, "cpus[%d]: %s", bad, msg);
	else if (r)
		eevdf__set_err(err, errlen, "%s", msg);
	return r;
}

int eevdf_machine_new_flat(int nr_cpus, eevdf_machine **out, char *err,
			   size_t errlen)
{
	char name[32], desc[96];
	struct eevdf_machine_spec s = {
		.name = name,
		.description = desc,
		.packages = 1,
		.llcs_per_package = 1,
		.cores_per_llc = nr_cpus,
		.threads_per_core = 1,
	};

	if (nr_cpus < 1 || nr_cpus > EEVDF_MAX_CPUS) {
		eevdf__set_err(err, errlen,
			       "a flat machine has 1..%d CPUs, "
			       "not %d",
			       EEVDF_MAX_CPUS, nr_cpus);
		return EEVDF_EINVAL;
	}
	snprintf(name, sizeof(name), "flat-%d", nr_cpus);
	snprintf(desc, sizeof(desc), "%d CPU%s, one LLC, no SMT (built in)",
		 nr_cpus, nr_cpus == 1 ? "" : "s");
	return eevdf_machine_new(&s, out, err, errlen);
}

void eevdf_machine_free(eevdf_machine *m)
{
	if (!m)
		return;
	free(m->name);
	free(m->description);
	free(m->cpu);
	free(m->calibration);
	free(m);
}

eevdf_machine *eevdf_machine_clone(const eevdf_machine *m)
{
	struct eevdf_machine *c;

	if (!m)
		return NULL;
	c = alloc_machine(m->nr_cpus, m->name, m->description);
	if (!c)
		return NULL;
	/* everything but the owned pointers is plain data */
	c->hz = m->hz;
	c->nr_cores = m->nr_cores;
	c->nr_llcs = m->nr_llcs;
	c->nr_packages = m->nr_packages;
	c->cost_set = m->cost_set;
	c->costs = m->costs;
	memcpy(c->cpu, m->cpu, (size_t)m->nr_cpus * sizeof(*c->cpu));
	if (m->calibration) {
		size_t n = strlen(m->calibration) + 1;

		c->calibration = malloc(n);
		if (!c->calibration) {
			eevdf_machine_free(c);
			return NULL;
		}
		memcpy(c->calibration, m->calibration, n);
	}
	return c;
}

int eevdf__machine_check_cost(int i, uint64_t value)
{
	if (i < 0)
		return EEVDF_EINVAL;
	if (eevdf__costs_is_pct(i))
		return value >= 1 && value <= 100 ? 0 : EEVDF_ERANGE;
	return value <= COST_MAX_NS ? 0 : EEVDF_ERANGE;
}

int eevdf_machine_set_cost(eevdf_machine *m, const char *name, uint64_t value)
{
	int i = m && name ? eevdf__costs_index(name) : -1;

	/* the header promises EINVAL for a value out of range too */
	if (i < 0 || eevdf__machine_check_cost(i, value))
		return EEVDF_EINVAL;
	*eevdf__costs_at(&m->costs, i) = value;
	m->cost_set |= (u64)1 << i;
	return 0;
}

int eevdf_cost_default(const char *name, uint64_t *value)
{
	struct cost_table c;
	int i = name && value ? eevdf__costs_index(name) : -1;

	if (i < 0)
		return EEVDF_EINVAL;
	eevdf__costs_default(&c);
	*value = *eevdf__costs_at(&c, i);
	return 0;
}

const char *eevdf_cost_name(size_t i)
{
	return i < (size_t)COST_NR_ENTRIES ? eevdf__costs_name((int)i) : NULL;
}

int eevdf_machine_set_hz(eevdf_machine *m, int hz)
{
	if (!m || hz < EEVDF_HZ_MIN || hz > EEVDF_HZ_MAX)
		return EEVDF_EINVAL;
	m->hz = hz;
	return 0;
}

const char *eevdf_machine_name(const eevdf_machine *m)
{
	return m && m->name ? m->name : "";
}

const char *eevdf_machine_calibration(const eevdf_machine *m)
{
	return m ? m->calibration : NULL;
}

const char *eevdf_machine_description(const eevdf_machine *m)
{
	return m && m->description ? m->description : "";
}

int eevdf_machine_nr_cpus(const eevdf_machine *m)
{
	return m ? m->nr_cpus : 0;
}

int eevdf_machine_hz(const eevdf_machine *m)
{
	return m ? m->hz : 0;
}

int eevdf_machine_nr_cores(const eevdf_machine *m)
{
	return m ? m->nr_cores : 0;
}

int eevdf_machine_nr_llcs(const eevdf_machine *m)
{
	return m ? m->nr_llcs : 0;
}

int eevdf_machine_nr_packages(const eevdf_machine *m)
{
	return m ? m->nr_packages : 0;
}

int eevdf_machine_cpu(const eevdf_machine *m, int cpu,
		      struct eevdf_cpu_desc *out)
{
	if (!m || !out || cpu < 0 || cpu >= m->nr_cpus)
		return EEVDF_EINVAL;
	out->core = m->cpu[cpu].core;
	out->llc = m->cpu[cpu].llc;
	out->package = m->cpu[cpu].package;
	out->capacity = m->cpu[cpu].capacity;
	return 0;
}

void eevdf__machine_apply_costs(const struct eevdf_machine *m,
				struct cost_table *c)
{
	if (m && c)
		eevdf__costs_apply(c, &m->costs, m->cost_set);
}

/*
 * The digest of what the machine is, not of how it was written: a
 * canonical text of its name, HZ, every CPU's core, LLC, package and
 * capacity, and its cost overrides in EEVDF_COST_MAP order.  Two files
 * that describe the same machine have the same digest; the description
 * is left out, since it changes no result.
 */
int eevdf_machine_digest(const eevdf_machine *m, char hex[65])
{
	struct eevdf_sha256 s;
	struct cost_table costs;
	char line[96];
	int n;

	if (!m || !hex)
		return EEVDF_EINVAL;
	costs = m->costs;
	eevdf__sha256_init(&s);
	n = snprintf(line, sizeof(line), "eevdf-sim-machine/1\nhz %d\nname ",
		     m->hz);
	eevdf__sha256_update(&s, line, (size_t)n);
	eevdf__sha256_update(&s, m->name, strlen(m->name));
	for (int i = 0; i < m->nr_cpus; i++) {
		const struct machine_cpu *c = &m->cpu[i];

		n = snprintf(line, sizeof(line), "\ncpu %d %d %d %d %u", i,
			     c->core, c->llc, c->package, c->capacity);
		eevdf__sha256_update(&s, line, (size_t)n);
	}
	for (int i = 0; eevdf__costs_name(i); i++) {
		if (!((m->cost_set >> i) & 1u))
			continue;
		n = snprintf(line, sizeof(line), "\ncost %s %llu",
			     eevdf__costs_name(i),
			     (unsigned long long)*eevdf__costs_at(&costs, i));
		eevdf__sha256_update(&s, line, (size_t)n);
	}
	eevdf__sha256_update(&s, "\n", 1);
	eevdf__sha256_final(&s, hex);
	return 0;
}
