/* SPDX-License-Identifier: MIT */
/*
 * A sweep's points: the product of its zip groups in the order of the
 * axes, the last varying fastest (mixed radix: point k's value of an
 * axis is (k / stride) % size), what each point runs, and its canonical
 * configuration, whose SHA-256 is the point's id.
 */
#include <string.h>

#include "lib/strbuf.h"
#include "sweep_impl.h"

int eevdf__sw_expand(struct sw_parser *p)
{
	eevdf_sweep *sw = p->sw;
	size_t stride = 1;

	sw->nr_dims = 0;
	for (size_t a = 0; a < sw->nr_axes; a++)
		if (sw->axes[a].group == a)
			sw->dims[sw->nr_dims++] = a;
	for (size_t d = sw->nr_dims; d-- > 0;) {
		size_t lead = sw->dims[d], n = sw->axes[lead].n;

		for (size_t a = 0; a < sw->nr_axes; a++)
			if (sw->axes[a].group == lead)
				sw->axes[a].stride = stride;
		if (n > EEVDF_SWEEP_POINTS_MAX / stride) {
			eevdf__sw_path_key(p, "axes");
			return eevdf__sw_fail(p,
					      "the axes expand to more than "
					      "%d points",
					      EEVDF_SWEEP_POINTS_MAX);
		}
		stride *= n;
	}
	sw->nr_points = stride;
	return 0;
}

size_t eevdf_sweep_point_value(const eevdf_sweep *sw, size_t k, size_t a)
{
	if (!sw || a >= sw->nr_axes || k >= sw->nr_points)
		return 0;
	return (k / sw->axes[a].stride) % sw->axes[a].n;
}

/* The value of the setting with key at point k: an axis's, else fixed. */
static const struct sweep_value *value_of(const eevdf_sweep *sw,
					  enum sweep_key key, size_t k)
{
	for (size_t a = 0; a < sw->nr_axes; a++)
		if (sw->axes[a].key == key)
			return &sw->axes[a].v[eevdf_sweep_point_value(sw, k, a)];
	for (size_t i = 0; i < sw->nr_fixed; i++)
		if (sw->fixed[i].key == key)
			return &sw->fixed[i].v[0];
	return NULL;
}

/* A param of point k: its name (after "param.") and value. */
struct param_ref {
	const char *name;
	const struct sweep_value *v;
};

/* Point k's params: the fixed ones in spec order, then the axes'. */
static size_t params_of(const eevdf_sweep *sw, size_t k, struct param_ref *out)
{
	size_t n = 0;

	for (size_t i = 0; i < sw->nr_fixed; i++)
		if (sw->fixed[i].key == SK_PARAM)
			out[n++] = (struct param_ref){ sw->fixed[i].name + 6,
						       &sw->fixed[i].v[0] };
	for (size_t a = 0; a < sw->nr_axes; a++)
		if (sw->axes[a].key == SK_PARAM)
			out[n++] = (struct param_ref){
				sw->axes[a].name + 6,
				&sw->axes[a].v[eevdf_sweep_point_value(sw, k, a)]
			};
	return n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct param_ref *)a)->name,
		      ((const struct param_ref *)b)->name);
}

/* "key":canon, after a comma unless first. */
static void put(struct sb *b, const char *key, const char *canon)
{
	sb_printf(b, "%s\"%s\":%s", b->len > 1 ? "," : "", key, canon);
}

int eevdf_sweep_point_config(const eevdf_sweep *sw, size_t k, char **out)
{
	struct param_ref params[EEVDF_SWEEP_PARAMS_MAX];
	const struct sweep_value *v;
	struct sb b = { NULL, 0, 0, 0 };
	size_t np;

	if (out)
		*out = NULL;
	if (!sw || !out || k >= sw->nr_points)
		return EEVDF_EINVAL;
	/* keys in byte order, so that the text is one for one configuration */
	sb_printf(&b, "{");
	if ((v = value_of(sw, SK_CPUS, k)))
		put(&b, "cpus", v->canon);
	if ((v = value_of(sw, SK_DURATION, k)))
		put(&b, "duration_ns", v->canon);
	if ((v = value_of(sw, SK_FEATURES, k)) && v->text[0])
		put(&b, "features", v->canon);
	if ((v = value_of(sw, SK_ALLOW_ABSENT, k)) && v->num)
		put(&b, "features_allow_absent", "true");
	if ((v = value_of(sw, SK_HZ, k)))
		put(&b, "hz", v->canon);
	if ((v = value_of(sw, SK_KERNEL, k)))
		put(&b, "kernel", v->canon);
	if ((v = value_of(sw, SK_MACHINE, k))) {
		put(&b, "machine", v->canon);
		if (v->sha256[0])
			sb_printf(&b, ",\"machine_sha256\":\"%s\"", v->sha256);
	}
	np = params_of(sw, k, params);
	if (np) {
		qsort(params, np, sizeof(params[0]), by_name);
		put(&b, "params", "{");
		for (size_t i = 0; i < np; i++)
			sb_printf(&b, "%s\"%s\":%s", i ? "," : "",
				  params[i].name, params[i].v->canon);
		sb_printf(&b, "}");
	}
	if ((v = value_of(sw, SK_SEED, k)))
		put(&b, "seed", v->canon);
	v = value_of(sw, SK_WORKLOAD, k);
	put(&b, "workload", v->canon);
	sb_printf(&b, ",\"workload_sha256\":\"%s\"}", v->sha256);
	if (b.err) {
		free(b.buf);
		return b.err;
	}
	*out = b.buf;
	return 0;
}

int eevdf_sweep_point(const eevdf_sweep *sw, size_t k,
		      struct eevdf_sweep_point *pt)
{
	struct param_ref params[EEVDF_SWEEP_PARAMS_MAX];
	const struct sweep_value *v;
	char *canon;
	int r;

	if (pt)
		memset(pt, 0, sizeof(*pt));
	if (!sw || !pt || k >= sw->nr_points)
		return EEVDF_EINVAL;
	if ((r = eevdf_sweep_point_config(sw, k, &canon)) < 0)
		return r;
	eevdf_sha256_hex(canon, strlen(canon), pt->id);
	free(canon);
	pt->index = k;
	v = value_of(sw, SK_WORKLOAD, k);
	pt->workload = v->text;
	pt->workload_sha256 = v->sha256;
	pt->kernel = (v = value_of(sw, SK_KERNEL, k)) ? v->text : NULL;
	pt->features = (v = value_of(sw, SK_FEATURES, k)) ? v->text : "";
	pt->features_allow_absent = (v = value_of(sw, SK_ALLOW_ABSENT, k)) &&
				    v->num;
	pt->machine = (v = value_of(sw, SK_MACHINE, k)) ? v->text : NULL;
	pt->cpus = (v = value_of(sw, SK_CPUS, k)) ? (int)v->num : 0;
	pt->hz = (v = value_of(sw, SK_HZ, k)) ? (int)v->num : 0;
	pt->duration = (v = value_of(sw, SK_DURATION, k)) ? v->num : 0;
	if ((v = value_of(sw, SK_SEED, k))) {
		pt->have_seed = true;
		pt->seed = (uint64_t)v->num;
	}
	pt->nr_params = params_of(sw, k, params);
	for (size_t i = 0; i < pt->nr_params; i++)
		pt->params[i] = params[i].v->text;
	return 0;
}
