/* SPDX-License-Identifier: MIT */
/*
 * Workload loader: the I/O model's objects (device, filesystem,
 * workqueue, work, irq) and its ops (open, close, read, write, fsync,
 * rename, unlink, mkdir, rmdir, stat, readdir, queue_work).  The objects'
 * settings go into the engine's io_cfg.h structures; the names they give
 * of other objects are resolved once every object is known
 * (eevdf__wl_io_link()).  docs/workload-format.md and docs/io-model.md
 * describe them.
 */
#include <string.h>

#include "engine/io_cfg.h"
#include "engine/nbench.h"
#include "engine/sim.h"
#include "workload_impl.h"

#include "wl_short.h"
#define OP(p, at) (&(p)->prog->ops[at])

/* Sizes: an integer of bytes or "64KB", "8GB", "1GiB". */
static int ld_size(struct wl_parser *p, const cJSON *it, u64 *out)
{
	static const struct {
		const char *unit;
		u64 mult;
	} units[] = {
		{ "KiB", 1024ull },
		{ "MiB", 1024ull << 10 },
		{ "GiB", 1024ull << 20 },
		{ "TiB", 1024ull << 30 },
		{ "KB", 1000ull },
		{ "MB", 1000000ull },
		{ "GB", 1000000000ull },
		{ "TB", 1000000000000ull },
		{ "B", 1ull },
	};
	char *s = NULL, *end;
	unsigned long long v;
	int r;

	if (cJSON_IsNumber(it)) {
		s64 x;

		if ((r = eevdf__wl_ld_int(p, it, 0, WL_MAX_INT, &x)))
			return r;
		*out = (u64)x;
		return 0;
	}
	if ((r = eevdf__wl_ld_string(p, it, &s)))
		return r;
	v = strtoull(s, &end, 10);
	if (end == s) {
		free(s);
		return fail(p,
			    "must be a size: bytes, or a number with KB, MB, "
			    "GB, KiB, MiB or GiB");
	}
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].unit) != 0 && *end)
			continue;
		if (*end && v > UINT64_MAX / units[i].mult)
			break;
		*out = *end ? (u64)v * units[i].mult : (u64)v;
		free(s);
		return 0;
	}
	free(s);
	return fail(p, "must be a size: bytes, or a number with KB, MB, GB, "
		       "KiB, MiB or GiB");
}

static int opt_size(struct wl_parser *p, const cJSON *def, const char *key,
		    u64 *out)
{
	const cJSON *it = get(def, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = ld_size(p, it, out);
	path_pop(p, old);
	return r;
}

static int opt_u32(struct wl_parser *p, const cJSON *def, const char *key,
		   s64 lo, s64 hi, u32 *out)
{
	s64 v = *out;
	int r = eevdf__wl_opt_int(p, def, key, lo, hi, &v);

	*out = (u32)v;
	return r;
}

static int opt_dur(struct wl_parser *p, const cJSON *def, const char *key,
		   s64 *out)
{
	const cJSON *it = get(def, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_ld_duration(p, it, false, out, NULL);
	path_pop(p, old);
	return r;
}

/* A latency: a duration, or a distribution that owns no arrays. */
static int opt_latency(struct wl_parser *p, const cJSON *def, const char *key,
		       struct eevdf_dist *out)
{
	const cJSON *it = get(def, key);
	struct pval v;
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_operand(p, it, VK_DUR, &v, NULL);
	if (!r && v.kind == PV_CONST) {
		eevdf__dist_init_const(out, v.c);
	} else if (!r && v.kind == PV_DIST &&
		   (v.dist->kind == EEVDF_DIST_CHOICE ||
		    v.dist->kind == EEVDF_DIST_EMPIRICAL)) {
		r = fail(p, "a device latency may be a duration or a const, "
			    "uniform, exp, normal or lognormal distribution");
	} else if (!r && v.kind == PV_DIST) {
		*out = *v.dist;
	} else if (!r) {
		r = fail(p, "must be a duration or a distribution, not an "
			    "expression");
	}
	eevdf__wl_pval_free(&v);
	path_pop(p, old);
	return r;
}

/* A name of another object, kept until eevdf__wl_io_link(). */
static int ref_name(struct wl_parser *p, const cJSON *def, const char *key,
		    struct wl_object *o, int k)
{
	const cJSON *it = get(def, key);
	size_t old;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	free(o->io_ref[k]);
	o->io_ref[k] = NULL;
	r = eevdf__wl_ld_string(p, it, &o->io_ref[k]);
	path_pop(p, old);
	if (!r) {
		free(o->io_key[k]);
		o->io_key[k] = eevdf__wl_strdup(key);
		if (!o->io_key[k])
			r = nomem(p);
	}
	return r;
}

/* One of post / wake / set names the target. */
static int target_key(struct wl_parser *p, const cJSON *def,
		      struct wl_object *o)
{
	static const char *const keys[] = { "post", "wake", "set" };
	int n = 0, r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(keys) && !r; i++)
		if (get(def, keys[i])) {
			n++;
			r = ref_name(p, def, keys[i], o, 1);
		}
	if (!r && n > 1)
		r = fail(p, "give at most one of 'post', 'wake' and 'set'");
	return r;
}

static int device_settings(struct wl_parser *p, const cJSON *def,
			   struct wl_object *o, struct dev_cfg *c)
{
	const cJSON *it = get(def, "preset");
	char *preset = NULL;
	s64 v;
	int r = 0;

	if (it) {
		size_t old = path_key(p, "preset");

		r = eevdf__wl_ld_string(p, it, &preset);
		if (!r && !eevdf__blkdev_preset(preset, c)) {
			char sb[WL_SHOWN_MAX];

			r = fail(p, "unknown device preset '%s' (expected %s)",
				 SHOWN(sb, preset), eevdf__blkdev_presets());
		}
		free(preset);
		path_pop(p, old);
		if (r)
			return r;
	} else {
		eevdf__blkdev_preset("sata-ssd", c);
	}
	if ((r = opt_u32(p, def, "queue_depth", 1, 65536, &c->queue_depth)) ||
	    (r = opt_u32(p, def, "nr_requests", 1, 65536, &c->nr_requests)) ||
	    (r = opt_u32(p, def, "parallel", 1, 65536, &c->parallel)) ||
	    (r = opt_latency(p, def, "read_latency", &c->rlat)) ||
	    (r = opt_latency(p, def, "write_latency", &c->wlat)) ||
	    (r = eevdf__wl_get_bool(p, def, "seek", &c->seek)) ||
	    (r = eevdf__wl_get_bool(p, def, "multiqueue", &c->multiqueue)) ||
	    (r = opt_u32(p, def, "major", 0, 4095, &c->major)) ||
	    (r = opt_u32(p, def, "minor", 0, 1048575, &c->minor)))
		return r;
	v = (s64)c->seq_lat;
	if ((r = opt_dur(p, def, "seq_latency", &v)))
		return r;
	c->seq_lat = (u64)v;
	v = (s64)c->flush_lat;
	if ((r = opt_dur(p, def, "flush_latency", &v)))
		return r;
	c->flush_lat = (u64)v;
	v = (s64)(c->read_bw / 1000000u);
	if ((r = eevdf__wl_opt_int(p, def, "read_mb_s", 1, 1000000, &v)))
		return r;
	c->read_bw = (u64)v * 1000000u;
	v = (s64)(c->write_bw / 1000000u);
	if ((r = eevdf__wl_opt_int(p, def, "write_mb_s", 1, 1000000, &v)))
		return r;
	c->write_bw = (u64)v * 1000000u;
	v = c->irq_cpu;
	if ((r = eevdf__wl_opt_int(p, def, "irq_cpu", 0, 65535, &v)))
		return r;
	c->irq_cpu = (int)v;
	if (c->queue_depth > c->nr_requests) {
		size_t old = path_key(p, get(def, "nr_requests") ?
						 "nr_requests" :
						 "queue_depth");

		r = fail(p,
			 "nr_requests (%u) must be at least queue_depth "
			 "(%u)",
			 c->nr_requests, c->queue_depth);
		path_pop(p, old);
	}
	(void)o;
	return r;
}

static int fs_settings(struct wl_parser *p, const cJSON *def,
		       struct wl_object *o, struct fs_cfg *c)
{
	const cJSON *it = get(def, "partition");
	u64 ra = 128 * 1024;
	int r;

	c->dev = -1;
	c->memory = 8ull << 30;
	c->dirty_background_ratio = 10;
	c->dirty_ratio = 20;
	c->dirty_expire = 30 * EEVDF_NSEC_PER_SEC;
	c->writeback_interval = 5 * EEVDF_NSEC_PER_SEC;
	c->commit_interval = 5 * EEVDF_NSEC_PER_SEC;
	c->journal = true;
	c->dioread_nolock = true;
	c->auto_da_alloc = true;
	if (!get(def, "device"))
		return fail(p, "missing key 'device'");
	if ((r = ref_name(p, def, "device", o, 0)))
		return r;
	if (it) {
		char *s = NULL;
		size_t old = path_key(p, "partition");

		r = eevdf__wl_ld_string(p, it, &s);
		if (!r && (!*s || strlen(s) >= sizeof(c->part)))
			r = fail(p, "must have 1..%zu characters",
				 sizeof(c->part) - 1);
		if (!r)
			snprintf(c->part, sizeof(c->part), "%s", s);
		free(s);
		path_pop(p, old);
		if (r)
			return r;
	}
	if ((r = opt_size(p, def, "memory", &c->memory)) ||
	    (r = opt_u32(p, def, "dirty_background_ratio", 0, 100,
			 &c->dirty_background_ratio)) ||
	    (r = opt_u32(p, def, "dirty_ratio", 1, 100, &c->dirty_ratio)) ||
	    (r = opt_dur(p, def, "dirty_expire", &c->dirty_expire)) ||
	    (r = opt_dur(p, def, "writeback_interval",
			 &c->writeback_interval)) ||
	    (r = opt_dur(p, def, "commit", &c->commit_interval)) ||
	    (r = eevdf__wl_get_bool(p, def, "journal", &c->journal)) ||
	    (r = eevdf__wl_get_bool(p, def, "dioread_nolock",
				    &c->dioread_nolock)) ||
	    (r = eevdf__wl_get_bool(p, def, "auto_da_alloc",
				    &c->auto_da_alloc)) ||
	    (r = opt_size(p, def, "readahead", &ra)))
		return r;
	c->ra_pages = (u32)((ra + 4095) / 4096);
	if (c->memory < 1u << 20)
		return fail(p, "memory must be at least 1MiB");
	if (c->writeback_interval <= 0 || c->commit_interval <= 0) {
		size_t old = path_key(p, c->commit_interval <= 0 ?
						 "commit" :
						 "writeback_interval");

		r = fail(p, "must be greater than 0");
		path_pop(p, old);
	}
	return r;
}

static int wq_settings(struct wl_parser *p, const cJSON *def, struct wq_cfg *c)
{
	int r;

	c->max_active = 0;
	if ((r = eevdf__wl_get_bool(p, def, "unbound", &c->unbound)) ||
	    (r = eevdf__wl_get_bool(p, def, "highpri", &c->highpri)) ||
	    (r = opt_u32(p, def, "max_active", 1, 512, &c->max_active)))
		return r;
	if (c->unbound && c->highpri)
		return fail(p, "an unbound workqueue cannot be highpri in this "
			       "version");
	return 0;
}

static int work_settings(struct wl_parser *p, const cJSON *def,
			 struct wl_object *o, struct work_cfg *c)
{
	int r;

	c->wq = c->target = -1;
	if ((r = ref_name(p, def, "workqueue", o, 0)) ||
	    (r = opt_dur(p, def, "cost", &c->cost)) ||
	    (r = opt_dur(p, def, "sleep", &c->sleep)))
		return r;
	return target_key(p, def, o);
}

static int irq_settings(struct wl_parser *p, const cJSON *def,
			struct wl_object *o, struct irq_cfg *c)
{
	s64 cpu = 0;
	int r;

	c->work = c->target = -1;
	if (!get(def, "period"))
		return fail(p, "missing key 'period'");
	if ((r = opt_dur(p, def, "period", &c->period)) ||
	    (r = opt_dur(p, def, "first", &c->first)) ||
	    (r = opt_dur(p, def, "handler", &c->handler)) ||
	    (r = eevdf__wl_opt_int(p, def, "cpu", 0, 65535, &cpu)) ||
	    (r = ref_name(p, def, "work", o, 0)))
		return r;
	c->cpu = (int)cpu;
	if (c->period <= 0) {
		size_t old = path_key(p, "period");

		r = fail(p, "must be greater than 0");
		path_pop(p, old);
		return r;
	}
	return target_key(p, def, o);
}

int eevdf__wl_io_settings(struct wl_parser *p, const cJSON *def,
			  struct wl_object *o)
{
	size_t sz = 0;
	void *cfg;

	switch (o->tmpl.type) {
	case OBJ_DEVICE:
		sz = sizeof(struct dev_cfg);
		break;
	case OBJ_FILESYSTEM:
		sz = sizeof(struct fs_cfg);
		break;
	case OBJ_WORKQUEUE:
		sz = sizeof(struct wq_cfg);
		break;
	case OBJ_WORK:
		sz = sizeof(struct work_cfg);
		break;
	case OBJ_IRQ:
		sz = sizeof(struct irq_cfg);
		break;
	default:
		return 0;
	}
	cfg = calloc(1, sz);
	if (!cfg)
		return nomem(p);
	o->tmpl.u.io.cfg = cfg;
	switch (o->tmpl.type) {
	case OBJ_DEVICE:
		return device_settings(p, def, o, cfg);
	case OBJ_FILESYSTEM:
		return fs_settings(p, def, o, cfg);
	case OBJ_WORKQUEUE:
		return wq_settings(p, def, cfg);
	case OBJ_WORK:
		return work_settings(p, def, o, cfg);
	case OBJ_IRQ:
		return irq_settings(p, def, o, cfg);
	default:
		return 0;
	}
}

/* The object named by o's k-th reference, of the wanted type. */
static int link_ref(struct wl_parser *p, struct wl_object *o, int k,
		    unsigned int want, int *out)
{
	struct eevdf_workload *wl = p->wl;
	char sb[WL_SHOWN_MAX];
	size_t old, o2;
	int idx, r = 0;

	if (!o->io_ref[k])
		return 0;
	idx = eevdf__wl_find_object(wl, o->io_ref[k]);
	old = path_index(p, o->src);
	o2 = path_key(p, o->io_key[k]);
	if (idx < 0)
		r = fail(p, "no object named '%s'", SHOWN(sb, o->io_ref[k]));
	else if (!(want & (1u << wl->objs[idx].tmpl.type)))
		r = fail(p, "'%s' is a %s, not what '%s' takes",
			 SHOWN(sb, o->io_ref[k]),
			 eevdf__obj_type_name(wl->objs[idx].tmpl.type),
			 o->io_key[k]);
	path_pop(p, o2);
	path_pop(p, old);
	if (!r)
		*out = idx;
	return r;
}

static unsigned int target_types(const char *key)
{
	if (strcmp(key, "post") == 0)
		return 1u << OBJ_SEM;
	if (strcmp(key, "wake") == 0)
		return 1u << OBJ_EVENT;
	return 1u << OBJ_LATCH;
}

int eevdf__wl_io_link(struct wl_parser *p)
{
	struct eevdf_workload *wl = p->wl;
	int r = 0;

	for (size_t i = 0; i < wl->nr_objs && !r; i++) {
		struct wl_object *o = &wl->objs[i];
		void *cfg = o->tmpl.u.io.cfg;

		switch (o->tmpl.type) {
		case OBJ_FILESYSTEM: {
			struct fs_cfg *c = cfg;

			r = link_ref(p, o, 0, 1u << OBJ_DEVICE, &c->dev);
			if (!r && !c->part[0])
				snprintf(c->part, sizeof(c->part), "%s%s1",
					 wl->objs[c->dev].tmpl.name,
					 strncmp(wl->objs[c->dev].tmpl.name,
						 "nvme", 4) == 0 ?
						 "p" :
						 "");
			break;
		}
		case OBJ_WORK: {
			struct work_cfg *c = cfg;

			r = link_ref(p, o, 0, 1u << OBJ_WORKQUEUE, &c->wq);
			if (!r && o->io_ref[1])
				r = link_ref(p, o, 1,
					     target_types(o->io_key[1]),
					     &c->target);
			/* a sem a work posts is posted: waits on it end */
			if (!r && c->target >= 0)
				wl->objs[c->target].posted = true;
			break;
		}
		case OBJ_IRQ: {
			struct irq_cfg *c = cfg;

			r = link_ref(p, o, 0, 1u << OBJ_WORK, &c->work);
			if (!r && o->io_ref[1])
				r = link_ref(p, o, 1,
					     target_types(o->io_key[1]),
					     &c->target);
			if (!r && c->target >= 0)
				wl->objs[c->target].posted = true;
			break;
		}
		default:
			break;
		}
	}
	return r;
}

void eevdf__wl_io_free(struct wl_object *o)
{
	switch (o->tmpl.type) {
	case OBJ_DEVICE:
	case OBJ_FILESYSTEM:
	case OBJ_WORKQUEUE:
	case OBJ_WORK:
	case OBJ_IRQ:
		free(o->tmpl.u.io.cfg);
		o->tmpl.u.io.cfg = NULL;
		break;
	default:
		break;
	}
	for (int k = 0; k < 2; k++) {
		free(o->io_ref[k]);
		free(o->io_key[k]);
	}
}

/* Ops ---------------------------------------------------------------------- */

/* The "fs" of a file op, or the workload's only file system. */
static int fs_key(struct wl_parser *p, const cJSON *v, struct pop *op)
{
	struct eevdf_workload *wl = p->wl;
	const cJSON *it = get(v, "fs");
	int found = -1, n = 0;

	if (it) {
		char *name = NULL, sb[WL_SHOWN_MAX];
		size_t old = path_key(p, "fs");
		int idx, r = eevdf__wl_ld_string(p, it, &name);

		if (!r) {
			idx = eevdf__wl_find_object(wl, name);
			if (idx < 0 ||
			    wl->objs[idx].tmpl.type != OBJ_FILESYSTEM)
				r = fail(p, "no filesystem named '%s'",
					 SHOWN(sb, name));
			else
				found = idx;
		}
		free(name);
		path_pop(p, old);
		if (r)
			return r;
	} else {
		for (size_t i = 0; i < wl->nr_objs; i++)
			if (wl->objs[i].tmpl.type == OBJ_FILESYSTEM) {
				found = (int)i;
				n++;
			}
		if (n == 0)
			return fail(p,
				    "a file op needs a \"filesystem\" object");
		if (n > 1)
			return fail(p,
				    "this workload has several file systems: "
				    "say which with \"fs\"");
	}
	op->a.kind = PV_CONST;
	op->a.c = found;
	return 0;
}

static int add_part(struct wl_parser *p, struct objref *r, const char *text,
		    size_t len, struct expr *e)
{
	struct name_part *n = realloc(r->parts, (r->nr_parts + 1) * sizeof(*n));

	if (!n)
		return nomem(p);
	r->parts = n;
	n[r->nr_parts].text = malloc(len + 1);
	if (!n[r->nr_parts].text)
		return nomem(p);
	memcpy(n[r->nr_parts].text, text, len);
	n[r->nr_parts].text[len] = '\0';
	n[r->nr_parts].expr = e;
	r->nr_parts++;
	return 0;
}

/*
 * A path: text with run-time parts in braces, "blog-{@b}/article-{@k}.xml"
 * ("${...}" is expanded when the file is loaded, as everywhere).
 */
static int path_key_at(struct wl_parser *p, const cJSON *v, const char *key,
		       struct objref *out)
{
	const cJSON *it = get(v, key);
	char *s = NULL, *q, *close, sb[WL_SHOWN_MAX];
	size_t old, start;
	int r;

	memset(out, 0, sizeof(*out));
	out->idx = OBJ_NONE;
	if (!it)
		return fail(p, "missing key '%s'", key);
	old = path_key(p, key);
	if (!cJSON_IsString(it)) {
		r = fail(p, "must be a path");
		path_pop(p, old);
		return r;
	}
	r = eevdf__wl_ld_string(p, it, &s);
	if (!r && (!*s || strlen(s) > 200))
		r = fail(p, "a path must have 1..200 characters");
	if (!r && !(out->text = eevdf__wl_strdup(s)))
		r = nomem(p);
	for (start = 0; !r && (q = strchr(s + start, '{'));) {
		struct pval e;

		close = strchr(q, '}');
		if (!close) {
			r = fail(p, "'%s': '{' without '}'", SHOWN(sb, s));
			break;
		}
		*close = '\0';
		r = eevdf__wl_compile_text(p, q + 1, &e);
		if (r)
			break;
		if (e.kind == PV_CONST) {
			char num[24];
			int w = snprintf(num, sizeof(num), "%lld",
					 (long long)e.c);

			r = add_part(p, out, s + start, (size_t)(q - s) - start,
				     NULL);
			if (!r)
				r = add_part(p, out, num, (size_t)w, NULL);
		} else {
			r = add_part(p, out, s + start, (size_t)(q - s) - start,
				     e.expr);
			e.expr = NULL;
		}
		eevdf__wl_pval_free(&e);
		start = (size_t)(close - s) + 1;
	}
	if (!r && out->nr_parts)
		r = add_part(p, out, s + start, strlen(s + start), NULL);
	if (!r && out->nr_parts) {
		/* only constant parts: one fixed text */
		bool dyn = false;

		for (u32 i = 0; i < out->nr_parts; i++)
			dyn |= out->parts[i].expr != NULL;
		if (!dyn) {
			size_t n = 0;
			char *t;

			for (u32 i = 0; i < out->nr_parts; i++)
				n += strlen(out->parts[i].text);
			t = malloc(n + 1);
			if (!t) {
				r = nomem(p);
			} else {
				t[0] = '\0';
				for (u32 i = 0; i < out->nr_parts; i++) {
					strcat(t, out->parts[i].text);
					free(out->parts[i].text);
				}
				free(out->parts);
				out->parts = NULL;
				out->nr_parts = 0;
				free(out->text);
				out->text = t;
			}
		}
	}
	free(s);
	path_pop(p, old);
	return r;
}

/* A variable the op stores into: status (maybe global) or a result. */
static int var_key(struct wl_parser *p, const cJSON *v, const char *key,
		   bool global_ok, u32 *slot, u32 *flags)
{
	const cJSON *it = get(v, key);
	size_t old;
	bool g = false;
	int r;

	if (!it)
		return 0;
	old = path_key(p, key);
	r = cJSON_IsString(it) ?
		    eevdf__wl_var(p, it->valuestring, global_ok, slot, &g) :
		    fail(p, "must be a variable name such as \"@x\"");
	path_pop(p, old);
	if (g && flags)
		*flags |= SLOT_GLOBAL;
	return r;
}

static int emit_op(struct wl_parser *p, enum popcode code, u32 *main)
{
	return eevdf__wl_emit(p, code, main);
}

static int io_args(struct wl_parser *p, const cJSON *v, const char *const *keys,
		   size_t n)
{
	if (!cJSON_IsObject(v))
		return fail(p, "must be an object");
	return eevdf__wl_check_keys(p, v, keys, n, NULL, 0);
}

static int fd_operand(struct wl_parser *p, const cJSON *v, struct pop *op)
{
	if (!get(v, "fd"))
		return fail(p, "missing key 'fd'");
	return eevdf__wl_operand_key(p, v, "fd", VK_VALUE, &op->b);
}

int eevdf__wl_op_open(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		      u32 *main)
{
	static const char *const keys[] = { "fs",   "path", "create", "trunc",
					    "excl", "fd",   "status", "cost" };
	bool c = false, t = false, x = false;
	struct pop *op;
	int r;

	(void)depth;
	*adv = true;
	if ((r = io_args(p, v, keys, ARRAY_SIZE(keys))) ||
	    (r = emit_op(p, P_OPEN, main)))
		return r;
	op = OP(p, *main);
	if ((r = fs_key(p, v, op)) ||
	    (r = path_key_at(p, v, "path", &op->obj)) ||
	    (r = eevdf__wl_get_bool(p, v, "create", &c)) ||
	    (r = eevdf__wl_get_bool(p, v, "trunc", &t)) ||
	    (r = eevdf__wl_get_bool(p, v, "excl", &x)) ||
	    (r = var_key(p, v, "fd", false, &op->field_slot[0], NULL)) ||
	    (r = var_key(p, v, "status", true, &op->slot, &op->flags)))
		return r;
	op->flags |= (c ? FS_CREAT : 0) | (t ? FS_TRUNC : 0) |
		     (x ? FS_EXCL : 0);
	return 0;
}

/* close and fsync: an fd, and where the status goes. */
static int fd_op(struct wl_parser *p, const cJSON *v, enum popcode kind,
		 bool *adv, u32 *main)
{
	static const char *const keys[] = { "fd", "status", "cost" };
	struct pop *op;
	int r;

	*adv = true;
	if ((r = io_args(p, v, keys, ARRAY_SIZE(keys))) ||
	    (r = emit_op(p, kind, main)))
		return r;
	op = OP(p, *main);
	if ((r = fd_operand(p, v, op)))
		return r;
	return var_key(p, v, "status", true, &op->slot, &op->flags);
}

int eevdf__wl_op_close(struct wl_parser *p, const cJSON *v, int depth,
		       bool *adv, u32 *main)
{
	(void)depth;
	return fd_op(p, v, P_CLOSE, adv, main);
}

static int rw_op(struct wl_parser *p, const cJSON *v, enum popcode code,
		 bool *adv, u32 *main)
{
	static const char *const rkeys[] = { "fd",     "bytes", "chunk",
					     "offset", "into",	"status",
					     "cost" };
	static const char *const wkeys[] = { "fd",     "bytes",	 "chunk",
					     "offset", "status", "cost" };
	struct pop *op;
	int r;

	*adv = true;
	if ((r = io_args(p, v, code == P_READ ? rkeys : wkeys,
			 code == P_READ ? ARRAY_SIZE(rkeys) :
					  ARRAY_SIZE(wkeys))) ||
	    (r = emit_op(p, code, main)))
		return r;
	op = OP(p, *main);
	if (code == P_WRITE && !get(v, "bytes"))
		return fail(p, "missing key 'bytes'");
	if ((r = fd_operand(p, v, op)) ||
	    (r = eevdf__wl_operand_key(p, v, "bytes", VK_COUNT, &op->a)) ||
	    (r = eevdf__wl_operand_key(p, v, "chunk", VK_COUNT, &op->c)) ||
	    (r = eevdf__wl_operand_key(p, v, "offset", VK_COUNT,
				       &op->field[0])) ||
	    (r = var_key(p, v, "into", false, &op->field_slot[0], NULL)))
		return r;
	return var_key(p, v, "status", true, &op->slot, &op->flags);
}

int eevdf__wl_op_read(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		      u32 *main)
{
	(void)depth;
	return rw_op(p, v, P_READ, adv, main);
}

int eevdf__wl_op_write(struct wl_parser *p, const cJSON *v, int depth,
		       bool *adv, u32 *main)
{
	(void)depth;
	return rw_op(p, v, P_WRITE, adv, main);
}

int eevdf__wl_op_fsync(struct wl_parser *p, const cJSON *v, int depth,
		       bool *adv, u32 *main)
{
	(void)depth;
	return fd_op(p, v, P_FSYNC, adv, main);
}

int eevdf__wl_op_rename(struct wl_parser *p, const cJSON *v, int depth,
			bool *adv, u32 *main)
{
	static const char *const keys[] = { "fs", "from", "to", "status",
					    "cost" };
	struct pop *op;
	int r;

	(void)depth;
	*adv = true;
	if ((r = io_args(p, v, keys, ARRAY_SIZE(keys))) ||
	    (r = emit_op(p, P_RENAME, main)))
		return r;
	op = OP(p, *main);
	if ((r = fs_key(p, v, op)) ||
	    (r = path_key_at(p, v, "from", &op->obj)) ||
	    (r = path_key_at(p, v, "to", &op->obj2)))
		return r;
	return var_key(p, v, "status", true, &op->slot, &op->flags);
}

/* unlink, mkdir, rmdir, stat, readdir: a path. */
static int path_op(struct wl_parser *p, const cJSON *v, enum popcode code,
		   bool *adv, u32 *main)
{
	static const char *const keys[] = { "fs", "path", "status", "cost" };
	static const char *const dkeys[] = { "fs",    "path",	"max",
					     "count", "status", "cost" };
	struct pop *op;
	int r;

	*adv = true;
	if ((r = io_args(p, v, code == P_READDIR ? dkeys : keys,
			 code == P_READDIR ? ARRAY_SIZE(dkeys) :
					     ARRAY_SIZE(keys))) ||
	    (r = emit_op(p, code, main)))
		return r;
	op = OP(p, *main);
	if ((r = fs_key(p, v, op)) || (r = path_key_at(p, v, "path", &op->obj)))
		return r;
	if (code == P_READDIR &&
	    ((r = eevdf__wl_operand_key(p, v, "max", VK_COUNT, &op->b)) ||
	     (r = var_key(p, v, "count", false, &op->field_slot[0], NULL))))
		return r;
	if (code == P_READDIR) {
		/* readdir's max is op->a in the engine */
		op->c = op->b;
		memset(&op->b, 0, sizeof(op->b));
	}
	return var_key(p, v, "status", true, &op->slot, &op->flags);
}

int eevdf__wl_op_unlink(struct wl_parser *p, const cJSON *v, int depth,
			bool *adv, u32 *main)
{
	(void)depth;
	return path_op(p, v, P_UNLINK, adv, main);
}

int eevdf__wl_op_mkdir(struct wl_parser *p, const cJSON *v, int depth,
		       bool *adv, u32 *main)
{
	(void)depth;
	return path_op(p, v, P_MKDIR, adv, main);
}

int eevdf__wl_op_rmdir(struct wl_parser *p, const cJSON *v, int depth,
		       bool *adv, u32 *main)
{
	(void)depth;
	return path_op(p, v, P_RMDIR, adv, main);
}

int eevdf__wl_op_stat(struct wl_parser *p, const cJSON *v, int depth, bool *adv,
		      u32 *main)
{
	(void)depth;
	return path_op(p, v, P_STAT, adv, main);
}

int eevdf__wl_op_readdir(struct wl_parser *p, const cJSON *v, int depth,
			 bool *adv, u32 *main)
{
	(void)depth;
	return path_op(p, v, P_READDIR, adv, main);
}

int eevdf__wl_op_queue_work(struct wl_parser *p, const cJSON *v, int depth,
			    bool *adv, u32 *main)
{
	struct pop *op;
	int r;

	(void)depth;
	(void)adv;
	if ((r = emit_op(p, P_QUEUE_WORK, main)))
		return r;
	op = OP(p, *main);
	if (cJSON_IsObject(v)) {
		static const char *const keys[] = { "work", "cost" };

		if ((r = io_args(p, v, keys, ARRAY_SIZE(keys))))
			return r;
		v = get(v, "work");
		if (!v)
			return fail(p, "missing key 'work'");
	}
	return eevdf__wl_objref(p, v, 1u << OBJ_WORK, &op->obj);
}

/* The load file of that name, read once per workload. */
static int nb_load_of(struct wl_parser *p, const char *name, s64 *idx)
{
	struct eevdf_workload *wl = p->wl;
	struct nb_load *l, **n;
	char err[200];
	size_t lineno = 0, len;
	char *buf = NULL;
	int r;

	for (size_t i = 0; i < wl->nr_nb_loads; i++)
		if (strcmp(wl->nb_loads[i]->name, name) == 0) {
			*idx = (s64)i;
			return 0;
		}
	if (strcmp(name, "builtin") == 0) {
		size_t total = 0;

		for (size_t i = 0; eevdf__nbench_builtin[i]; i++)
			total += strlen(eevdf__nbench_builtin[i]);
		buf = malloc(total + 1);
		if (!buf)
			return nomem(p);
		buf[0] = '\0';
		total = 0;
		for (size_t i = 0; eevdf__nbench_builtin[i]; i++) {
			size_t k = strlen(eevdf__nbench_builtin[i]);

			memcpy(buf + total, eevdf__nbench_builtin[i], k + 1);
			total += k;
		}
		r = eevdf__wl_nbench_parse(buf, total, name, &l, err,
					   sizeof(err), &lineno);
		free(buf);
	} else {
		struct eevdf_diag d;

		eevdf__wl_diag_init(&d, name);
		r = eevdf__wl_read_file(name, eevdf__wl_max_input(p->opts),
					&buf, &len, &d);
		if (r)
			return fail(p, "cannot read the load file: %s", d.msg);
		r = eevdf__wl_nbench_parse(buf, len, name, &l, err, sizeof(err),
					   &lineno);
		free(buf);
	}
	if (r == EEVDF_ENOMEM)
		return nomem(p);
	if (r) {
		char sb[WL_SHOWN_MAX];

		if (lineno)
			return fail(p, "load file %s, line %zu: %s",
				    SHOWN(sb, name), lineno, err);
		return fail(p, "load file %s: %s", SHOWN(sb, name), err);
	}
	n = realloc(wl->nb_loads, (wl->nr_nb_loads + 1) * sizeof(*n));
	if (!n) {
		eevdf__nb_load_unref(l);
		return nomem(p);
	}
	wl->nb_loads = n;
	*idx = (s64)wl->nr_nb_loads;
	n[wl->nr_nb_loads++] = l;
	return 0;
}

/* A metric the op records into: its index, or -1 without the key. */
static int nb_metric(struct wl_parser *p, const cJSON *v, const char *key,
		     enum metric_type type, bool keyed, struct pval *out)
{
	const cJSON *it = get(v, key);
	char *name = NULL, sb[WL_SHOWN_MAX];
	size_t old;
	int idx, r;

	out->kind = PV_CONST;
	out->c = -1;
	if (!it)
		return 0;
	old = path_key(p, key);
	r = eevdf__wl_ld_string(p, it, &name);
	if (!r) {
		idx = eevdf__wl_find_metric(p->wl, name);
		if (idx < 0)
			r = fail(p,
				 "no metric named '%s' (define it under "
				 "\"metrics\")",
				 SHOWN(sb, name));
		else if (p->wl->metrics[idx].type != type ||
			 p->wl->metrics[idx].keyed != keyed)
			r = fail(p, "metric '%s' must be a%s %s",
				 SHOWN(sb, name), keyed ? " keyed" : "",
				 eevdf__metric_type_name(type));
		else
			out->c = idx;
	}
	free(name);
	path_pop(p, old);
	return r;
}

int eevdf__wl_op_nbench(struct wl_parser *p, const cJSON *v, int depth,
			bool *adv, u32 *main)
{
	static const char *const keys[] = {
		"fs",	 "loadfile",   "client",	   "latency", "bytes",
		"lines", "per_second", "per_second_bytes", "cost",
	};
	const cJSON *lf = get(v, "loadfile");
	char *name = NULL;
	struct pop *op;
	struct pval fsv;
	size_t old;
	int r;

	(void)depth;
	*adv = true;
	if ((r = io_args(p, v, keys, ARRAY_SIZE(keys))) ||
	    (r = emit_op(p, P_NBENCH, main)))
		return r;
	op = OP(p, *main);
	if (!lf)
		return fail(p,
			    "missing key 'loadfile' (\"builtin\" or a path)");
	old = path_key(p, "loadfile");
	r = eevdf__wl_ld_string(p, lf, &name);
	if (!r)
		r = nb_load_of(p, name, &op->a.c);
	free(name);
	path_pop(p, old);
	if (r)
		return r;
	op->a.kind = PV_CONST;
	/* the file system's index goes to c, the load's stays in a */
	memset(&fsv, 0, sizeof(fsv));
	{
		struct pop tmp;

		memset(&tmp, 0, sizeof(tmp));
		if ((r = fs_key(p, v, &tmp)))
			return r;
		op->c = tmp.a;
	}
	if (get(v, "client")) {
		if ((r = eevdf__wl_operand_key(p, v, "client", VK_VALUE,
					       &op->b)))
			return r;
	} else {
		op->b.kind = PV_CONST;
		op->b.c = 0;
	}
	/* the calls' fd and status go to hidden variables ("@__" names
	 * are the loader's own) */
	if (eevdf__wl_names_add(&p->wl->locals, "@__nb_fd", 8, &op->slot) ||
	    eevdf__wl_names_add(&p->wl->locals, "@__nb_status", 12,
				&op->field_slot[0]))
		return nomem(p);
	if ((r = nb_metric(p, v, "latency", MET_HIST, true, &op->field[0])) ||
	    (r = nb_metric(p, v, "bytes", MET_COUNTER, false, &op->field[1])) ||
	    (r = nb_metric(p, v, "lines", MET_COUNTER, false, &op->field[2])) ||
	    (r = nb_metric(p, v, "per_second", MET_HIST, true, &op->field[3])))
		return r;
	{
		struct pval sb;

		if ((r = nb_metric(p, v, "per_second_bytes", MET_HIST, true,
				   &sb)))
			return r;
		op->len2 = sb.c >= 0 ? (u32)sb.c + 1 : 0;
	}
	(void)fsv;
	return 0;
}
